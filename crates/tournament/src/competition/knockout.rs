//! Knockout stages: seed 000's card draw every round, or a bracket fixed at the start (single
//! or double elimination).

use super::format::Format;
use super::pairing::{lot_seed, Pairing, Round, Side, Verdict};
use super::progress::rule;
use super::{Error, Event};
use crate::bracket::{self, Bracket, Slot, Winner};
use crate::knockout::{card_draw, Card};

/// The id of a third-place match.
pub(crate) const THIRD_PLACE: &str = "3P.1";

/// Who won pairing `p` and who lost it (a bye: the entrant, and nobody).
pub(crate) fn winner_loser(event: &Event, s: usize, p: &Pairing) -> Option<(u32, Option<u32>)> {
    match p.verdict(rule(event, s, p)) {
        Verdict::Bye => Some((p.first, None)),
        Verdict::Won(Side::First) => Some((p.first, p.second)),
        Verdict::Won(Side::Second) => Some((p.second?, Some(p.first))),
        Verdict::Pending | Verdict::Drawn => None,
    }
}

fn is_third_place(event: &Event, s: usize, p: &Pairing) -> bool {
    p.id == format!("{}{THIRD_PLACE}", event.id_prefix(s))
}

/// Entrants still in a card-drawn knockout after its rounds so far, in the order they came
/// through (winners, then the bye); withdrawn entrants are out.
pub(crate) fn survivors(event: &Event, s: usize) -> Vec<u32> {
    let stage = &event.stages[s];
    let Some(last) = stage.rounds.last() else {
        return stage.entrants.clone();
    };
    last.pairings
        .iter()
        .filter(|p| !is_third_place(event, s, p))
        .filter_map(|p| winner_loser(event, s, p).map(|(w, _)| w))
        .filter(|&id| !event.entrant(id).is_some_and(|e| e.withdrawn))
        .collect()
}

pub(crate) fn by_cards_done(event: &Event, s: usize) -> bool {
    !event.stages[s].rounds.is_empty() && survivors(event, s).len() <= 1
}

/// The next round of a card-drawn knockout: the survivors draw from two sets of numbers and a
/// K for the bye (seed 000 §9); equal numbers meet, the red card's holder with red. The
/// third-place match, when the plan has one, goes with the final.
pub(crate) fn next_by_cards(event: &Event, s: usize) -> Option<Round> {
    let alive = survivors(event, s);
    if alive.len() <= 1 {
        return None;
    }
    let stage = &event.stages[s];
    let r = stage.rounds.len() as u32 + 1;
    let prefix = event.id_prefix(s);
    let seed = lot_seed(event.seed, &format!("{prefix}cards{r}"));
    let draw = card_draw(&alive, seed);
    let mut pairings: Vec<Pairing> = draw
        .pairs
        .iter()
        .enumerate()
        .map(|(n, &(red, black))| Pairing::new(format!("{prefix}{r}.{}", n + 1), red, Some(black)))
        .collect();
    if let Some(k) = draw.bye {
        pairings.push(Pairing::new(format!("{prefix}{r}.K"), k, None));
    }
    let third = matches!(event.plan[s].format, Format::Knockout { third_place: true, .. });
    let mut no_third = false;
    if third && alive.len() == 2 {
        if let Some(last) = stage.rounds.last() {
            let losers: Vec<u32> = last
                .pairings
                .iter()
                .filter_map(|p| winner_loser(event, s, p).and_then(|(_, l)| l))
                .collect();
            if let [a, b] = losers[..] {
                pairings.push(Pairing::new(format!("{prefix}{THIRD_PLACE}"), a, Some(b)));
            } else {
                no_third = true;
            }
        }
    }
    let cards: Vec<String> = draw
        .drawn
        .iter()
        .map(|&(id, card)| {
            let c = match card {
                Card::Red(n) => format!("red {n}"),
                Card::Black(n) => format!("black {n}"),
                Card::King => "K".into(),
            };
            format!("{} {c}", event.name_of(id))
        })
        .collect();
    Some(Round {
        number: r,
        pairings,
        draw: Some(format!(
            "card draw, seed {seed} (splitmix64 shuffle of {}): {}{}",
            draw.deck.len(),
            cards.join(", "),
            if no_third {
                "; no third-place match: the round before the final had one loser (the K had a bye)"
            } else {
                ""
            }
        )),
    })
}

/// The stage's bracket, built again from its field (the same field always builds the same
/// bracket), and each node's result so far.
pub(crate) fn bracket_of(event: &Event, s: usize) -> (Bracket, Vec<Option<Winner>>) {
    let stage = &event.stages[s];
    let n = stage.entrants.len() as u32;
    let bracket = match event.plan[s].format {
        Format::DoubleKnockout => bracket::double(n),
        Format::Knockout { third_place, .. } => bracket::single(n, third_place),
        _ => Bracket { nodes: Vec::new() },
    };
    let mut winners = vec![None; bracket.nodes.len()];
    for p in stage.rounds.iter().flat_map(|r| &r.pairings) {
        let Some(node) = p.node else { continue };
        winners[node as usize] = match p.verdict(rule(event, s, p)) {
            Verdict::Won(Side::First) => Some(Winner::First),
            Verdict::Won(Side::Second) => Some(Winner::Second),
            _ => None,
        };
    }
    (bracket, winners)
}

/// The next round of a seeded or double knockout: every match whose entrants are now known
/// (in a double knockout, winners' and losers' matches side by side), the higher seed's side
/// named first. A walkover (a bye) is not a pairing: its entrant simply goes on.
pub(crate) fn next_in_bracket(event: &Event, s: usize) -> Result<Option<Round>, Error> {
    let stage = &event.stages[s];
    if stage.entrants.len() > 1 << 20 {
        return Err(Error::other(
            "a knockout of more than a million entrants is not supported",
        ));
    }
    let (bracket, winners) = bracket_of(event, s);
    let paired: std::collections::HashSet<u32> = stage
        .rounds
        .iter()
        .flat_map(|r| &r.pairings)
        .filter_map(|p| p.node)
        .collect();
    let sides = bracket.entrants(&winners);
    let prefix = event.id_prefix(s);
    let id_of = |seed: u32| stage.entrants[seed as usize - 1];
    let pairings: Vec<Pairing> = bracket
        .ready(&winners)
        .into_iter()
        .filter(|&i| !paired.contains(&(i as u32)))
        .filter_map(|i| match sides[i] {
            (Slot::Player(a), Slot::Player(b)) => {
                let mut p = Pairing::new(format!("{prefix}{}", bracket.nodes[i].label), id_of(a), Some(id_of(b)));
                p.node = Some(i as u32);
                super::round_robin::forfeit_withdrawn(event, &mut p);
                Some(p)
            }
            _ => None,
        })
        .collect();
    if pairings.is_empty() {
        return Ok(None);
    }
    Ok(Some(Round {
        number: stage.rounds.len() as u32 + 1,
        pairings,
        draw: None,
    }))
}

pub(crate) fn bracket_done(event: &Event, s: usize) -> bool {
    let (bracket, winners) = bracket_of(event, s);
    bracket.is_finished(&winners)
}

/// A finished bracket's placings, as entrant ids.
pub(crate) fn bracket_placings(event: &Event, s: usize) -> Option<Vec<(u32, Vec<u32>)>> {
    let (bracket, winners) = bracket_of(event, s);
    let stage = &event.stages[s];
    Some(
        bracket
            .placings(&winners)?
            .into_iter()
            .map(|p| {
                (
                    p.place,
                    p.seeds.iter().map(|&x| stage.entrants[x as usize - 1]).collect(),
                )
            })
            .collect(),
    )
}

/// A seeded or double knockout's placings so far, as entrant ids: those still in first.
pub(crate) fn bracket_standing(event: &Event, s: usize) -> Vec<(u32, Vec<u32>)> {
    let (bracket, winners) = bracket_of(event, s);
    let stage = &event.stages[s];
    bracket
        .standing(&winners)
        .into_iter()
        .map(|p| {
            (
                p.place,
                p.seeds.iter().map(|&x| stage.entrants[x as usize - 1]).collect(),
            )
        })
        .collect()
}

/// Who a seeded or double knockout has sent on by a walkover so far, and in which of the
/// stage's rounds: a walkover is no pairing, so the stage's rounds do not show it. A node is
/// paired in the round after the last played match it waits on, and a walkover goes through
/// at the moment it would have been paired.
pub(crate) fn walkovers(event: &Event, s: usize) -> Vec<(u32, u32)> {
    let stage = &event.stages[s];
    let (bracket, winners) = bracket_of(event, s);
    let states = bracket.resolve(&winners);
    let mut paired_in = vec![None; bracket.nodes.len()];
    for r in &stage.rounds {
        for node in r.pairings.iter().filter_map(|p| p.node) {
            if let Some(x) = paired_in.get_mut(node as usize) {
                *x = Some(r.number);
            }
        }
    }
    // The round by whose end each node was decided (a walkover: before its own round).
    let mut done = vec![0u32; bracket.nodes.len()];
    let mut out = Vec::new();
    for (i, (node, state)) in bracket.nodes.iter().zip(&states).enumerate() {
        let ready = [node.first, node.second]
            .iter()
            .filter_map(|src| match *src {
                bracket::Source::Winner(j) | bracket::Source::Loser(j) => done.get(j).copied(),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            + 1;
        done[i] = match (state.decision, paired_in[i]) {
            (bracket::Decision::Walkover, _) => {
                if let Slot::Player(seed) = state.winner {
                    if ready as usize <= stage.rounds.len() {
                        out.push((stage.entrants[seed as usize - 1], ready));
                    }
                }
                ready - 1
            }
            (_, Some(r)) => r,
            _ => ready,
        };
    }
    out
}
