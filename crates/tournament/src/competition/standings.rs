//! Standings of every stage — group tables with the chosen tie-breaks (FIDE C.07 or the CXA's
//! orders), a knockout's placings — and who qualifies for the next stage, with play-offs
//! (附加赛) for a tie on the last qualifying place.

use serde::Serialize;

use super::format::Format;
use super::knockout::{winner_loser, THIRD_PLACE};
use super::pairing::{lot_seed, Pairing, Round, Side, Verdict};
use super::progress::rule;
use super::round_robin::letter;
use super::{err, Error, Event};
use crate::event::parse_tiebreaks;
use crate::result::{Bye, RoundResult, Score};
use crate::standings::TieBreak;
use crate::team::{Board, Primary, Side as TeamSide, TeamRound, TeamScoring, TeamTieBreak};
use crate::trf::{Colour, Player, Round as TrfRound, Trf};

/// One entrant's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// Shared by entrants the table does not separate.
    pub place: usize,
    pub id: u32,
    pub name: String,
    pub points: f64,
    pub tiebreaks: Vec<f64>,
    /// How far a knockout took them, or how a play-off or lot placed them.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A table: a group, a whole round robin, a knockout's placings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub stage: usize,
    pub title: String,
    /// The tie-break codes, in order, of the `tiebreaks` columns.
    pub columns: Vec<String>,
    pub lines: Vec<Standing>,
}

/// What deciding the qualifiers of a stage came to.
pub(crate) enum Qualify {
    /// A tie on a qualifying place goes to this play-off first.
    PlayOff(Round),
    /// These go on, in seeding order for the next stage.
    Done(Vec<u32>),
}

impl Event {
    /// Every table of every stage started, in order.
    pub fn standings(&self) -> Result<Vec<Table>, Error> {
        let mut out = Vec::new();
        for s in 0..self.stages.len() {
            out.extend(stage_tables(self, s)?);
        }
        Ok(out)
    }

    /// How team pairings score, from the event's settings.
    pub fn team_scoring(&self) -> TeamScoring {
        let [win, draw, loss] = self.settings.match_points;
        TeamScoring {
            win,
            draw,
            loss,
            order: if self.settings.game_points_first {
                Primary::GamePoints
            } else {
                Primary::MatchPoints
            },
            ..TeamScoring::default()
        }
    }

    /// A team event's tie-breaks: the event's codes (FIDE C.07's team ones, or 场分 局分 直胜
    /// 台次分), else the CXA's order ([`crate::team::CXA_ORDER`]: 局分, 直胜, 台次分).
    pub fn team_tiebreak_order(&self) -> Result<Vec<TeamTieBreak>, Error> {
        if self.settings.tiebreaks.is_empty() {
            return Ok(crate::team::CXA_ORDER.to_vec());
        }
        TeamTieBreak::parse_list(&self.settings.tiebreaks.join(","), self.team_scoring().order)
            .map_err(|e| Error(e.to_string()))
    }

    /// The tie-breaks the standings use: the event's, else the format's usual ones.
    pub fn tiebreak_order(&self) -> Result<Vec<TieBreak>, Error> {
        let list = if self.settings.tiebreaks.is_empty() {
            "DE,WIN,SB".to_string()
        } else {
            self.settings.tiebreaks.join(",")
        };
        parse_tiebreaks(&list).map_err(|e| Error(e.to_string()))
    }
}

fn stage_title(event: &Event, s: usize) -> String {
    let f = event.plan[s].format.name();
    if event.plan.len() == 1 {
        f.to_string()
    } else if s + 1 == event.plan.len() {
        format!("final ({f})")
    } else {
        format!("stage {} ({f})", s + 1)
    }
}

fn stage_tables(event: &Event, s: usize) -> Result<Vec<Table>, Error> {
    match event.plan[s].format {
        Format::RoundRobin { .. } | Format::Groups { .. } => {
            let grouped = matches!(event.plan[s].format, Format::Groups { .. });
            (0..event.stages[s].groups.len())
                .map(|g| {
                    let mut t = group_table(event, s, g)?;
                    if grouped {
                        t.title = format!("{}, group {}", t.title, letter(g));
                    }
                    Ok(t)
                })
                .collect()
        }
        Format::Knockout { .. } | Format::DoubleKnockout => Ok(vec![placings(event, s)]),
        Format::Swiss { .. } => err("a Swiss stage's standings come from its TRF"),
    }
}

/// The group as a TRF (entrants numbered by their Berger numbers, 1…), so the FIDE tie-breaks
/// and the CXA's orders count it as they count any event.
pub fn group_trf(event: &Event, s: usize, g: usize) -> Trf {
    let stage = &event.stages[s];
    let members = &stage.groups[g];
    let numbers = berger_numbers(members);
    let number = |id: u32| numbers.get(&id).copied();
    let mut players: Vec<Player> = members
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            let e = event.entrant(id);
            Player {
                number: i as u32 + 1,
                name: event.name_of(id),
                rating: e.map_or(0, |e| e.rating),
                federation: e.map_or(String::new(), |e| e.club.chars().take(3).collect()),
                points: 0.0,
                rounds: Vec::new(),
                written: 0,
            }
        })
        .collect();
    for round in &stage.rounds {
        for p in round.pairings.iter().filter(|p| number(p.first).is_some()) {
            let a = number(p.first).expect("filtered") as usize - 1;
            let Some(second) = p.second.and_then(number) else {
                players[a]
                    .rounds
                    .push(TrfRound::bye(RoundResult::Bye(Bye::PairingAllocated)));
                continue;
            };
            let b = second as usize - 1;
            let (ra, rb) = trf_results(event, s, p);
            players[a].rounds.push(TrfRound {
                opponent: second,
                colour: Colour::White,
                result: ra,
            });
            players[b].rounds.push(TrfRound {
                opponent: a as u32 + 1,
                colour: Colour::Black,
                result: rb,
            });
        }
    }
    let rounds = stage.rounds.len();
    for p in &mut players {
        p.rounds
            .resize(rounds, TrfRound::bye(RoundResult::Bye(Bye::PairingAllocated)));
        p.written = rounds;
    }
    let mut trf = Trf {
        players,
        other: Vec::new(),
    };
    trf.set_name(&event.name);
    let ps = trf_points(event);
    trf.set_point_system(&ps);
    for p in &mut trf.players {
        p.points = f64::from(p.rounds.iter().map(|r| crate::event::round_points(&ps, r)).sum::<u32>()) / 10.0;
    }
    trf
}

/// Each member's Berger number (from 1), looked up once per pairing: a search through the
/// group would make a table of thousands quadratic.
fn berger_numbers(members: &[u32]) -> std::collections::HashMap<u32, u32> {
    members.iter().enumerate().map(|(i, &id)| (id, i as u32 + 1)).collect()
}

fn trf_points(event: &Event) -> crate::dutch::PointSystem {
    let [w, d, l] = event.settings.points.map(|x| (x * 10.0).round() as u32);
    crate::dutch::PointSystem {
        win: w,
        draw: d,
        loss: l,
        zero_bye: 0,
        forfeit_loss: 0,
        // A round robin's bye is a round without a game, worth nothing (and not a round the
        // entrant chose to miss, which C.07's tie-breaks would adjust for).
        pab: 0,
    }
}

/// The pairing as each side's round result: a game's (a match's, a team pairing's) outcome.
fn trf_results(event: &Event, s: usize, p: &Pairing) -> (RoundResult, RoundResult) {
    let forfeit = p.games.iter().any(|g| g.forfeit);
    match p.verdict(rule(event, s, p)) {
        Verdict::Pending | Verdict::Bye => (RoundResult::Pending, RoundResult::Pending),
        _ if p.games.iter().any(|g| g.double_forfeit) => (RoundResult::ForfeitLoss, RoundResult::ForfeitLoss),
        Verdict::Won(Side::First) if forfeit => (RoundResult::ForfeitWin, RoundResult::ForfeitLoss),
        Verdict::Won(Side::Second) if forfeit => (RoundResult::ForfeitLoss, RoundResult::ForfeitWin),
        Verdict::Won(Side::First) => (RoundResult::game(Score::Win), RoundResult::game(Score::Loss)),
        Verdict::Won(Side::Second) => (RoundResult::game(Score::Loss), RoundResult::game(Score::Win)),
        Verdict::Drawn => (RoundResult::game(Score::Draw), RoundResult::game(Score::Draw)),
    }
}

fn group_table(event: &Event, s: usize, g: usize) -> Result<Table, Error> {
    if event.teams() {
        return team_table(event, s, g);
    }
    let trf = group_trf(event, s, g);
    let order = event.tiebreak_order()?;
    let members = &event.stages[s].groups[g];
    let lines = crate::standings::standings(&trf, &order)
        .into_iter()
        .map(|l| Standing {
            place: l.place,
            id: members[l.number as usize - 1],
            name: l.name,
            points: l.points,
            tiebreaks: l.tiebreaks,
            note: String::new(),
        })
        .collect();
    Ok(Table {
        stage: s,
        title: stage_title(event, s),
        columns: order.iter().map(|t| t.code().to_string()).collect(),
        lines,
    })
}

/// A board of a team pairing, as the team library counts it.
fn board(g: &super::Game) -> Board {
    if g.double_forfeit {
        Board::BothAbsent
    } else if g.forfeit {
        Board::Forfeit {
            absent: if g.score == Score::Win {
                TeamSide::Second
            } else {
                TeamSide::First
            },
        }
    } else {
        Board::Played(g.score)
    }
}

/// A group of teams: match points (or game points first), then the team tie-breaks. A round
/// robin's bye is a round without a match, so it is left out.
fn team_table(event: &Event, s: usize, g: usize) -> Result<Table, Error> {
    let members = &event.stages[s].groups[g];
    let numbers = berger_numbers(members);
    let index = |id: u32| numbers.get(&id).map(|&n| n as usize - 1);
    let names: Vec<String> = members.iter().map(|&id| event.name_of(id)).collect();
    let rounds: Vec<TeamRound> = event.stages[s]
        .rounds
        .iter()
        .flat_map(|r| r.pairings.iter().map(move |p| (r.number, p)))
        .filter(|(_, p)| p.games.len() as u32 == event.settings.boards)
        .filter_map(|(round, p)| {
            Some(TeamRound {
                round,
                first: index(p.first)?,
                second: Some(index(p.second?)?),
                boards: p.games.iter().map(board).collect(),
            })
        })
        .collect();
    let scoring = event.team_scoring();
    let order = event.team_tiebreak_order()?;
    let lines = crate::team::standings(&names, &rounds, &scoring, &order)
        .map_err(|e| Error(e.to_string()))?
        .into_iter()
        .map(|l| Standing {
            place: l.place,
            id: members[l.team],
            name: l.name,
            points: if scoring.order == Primary::GamePoints {
                l.game_points
            } else {
                l.match_points
            },
            tiebreaks: l.tiebreaks,
            note: String::new(),
        })
        .collect();
    Ok(Table {
        stage: s,
        title: stage_title(event, s),
        columns: order.iter().map(|t| t.code()).collect(),
        lines,
    })
}

/// A knockout's placings: the champion, the runner-up, the third-place match, then by the
/// round each went out in (those out in one round share the place).
fn placings(event: &Event, s: usize) -> Table {
    if let Some(places) = super::knockout::bracket_placings(event, s) {
        let lines = places
            .into_iter()
            .flat_map(|(place, ids)| {
                ids.into_iter().map(move |id| Standing {
                    place: place as usize,
                    id,
                    name: event.name_of(id),
                    points: 0.0,
                    tiebreaks: Vec::new(),
                    note: match place {
                        1 => "champion".to_string(),
                        2 => "runner-up".to_string(),
                        p => format!("place {p}"),
                    },
                })
            })
            .collect();
        return Table {
            stage: s,
            title: stage_title(event, s),
            columns: Vec::new(),
            lines,
        };
    }
    let stage = &event.stages[s];
    let third = format!("{}{THIRD_PLACE}", event.id_prefix(s));
    // (entrant, last round reached, key within it)
    let mut reach: Vec<(u32, u32, u32, String)> = Vec::new();
    for &id in &stage.entrants {
        let mut last = (0, 0, String::from("entered"));
        for round in &stage.rounds {
            for p in round.pairings.iter().filter(|p| p.first == id || p.second == Some(id)) {
                let outcome = winner_loser(event, s, p);
                let won = outcome.is_some_and(|(w, _)| w == id);
                let lost = outcome.is_some_and(|(_, l)| l == Some(id));
                let key = if p.id == third {
                    if won {
                        1
                    } else {
                        0
                    }
                } else if won || outcome.is_none() {
                    3
                } else {
                    2
                };
                let note = match (p.id == third, won, lost) {
                    (true, true, _) => "won the third-place match".to_string(),
                    (true, _, true) => "lost the third-place match".to_string(),
                    (_, true, _) if p.second.is_none() => format!("bye in round {}", round.number),
                    (_, true, _) => format!("won round {}", round.number),
                    (_, _, true) => format!("out in round {}", round.number),
                    _ => format!("playing round {}", round.number),
                };
                // The final outranks the third-place match of the same round.
                let rank = if p.id == third { round.number - 1 } else { round.number };
                if (rank, key) >= (last.0, last.1) {
                    last = (rank, key, note);
                }
            }
        }
        reach.push((id, last.0, last.1, last.2));
    }
    reach.sort_by(|a, b| (b.1, b.2).cmp(&(a.1, a.2)).then(a.0.cmp(&b.0)));
    let mut lines: Vec<Standing> = Vec::new();
    for (i, (id, r, k, note)) in reach.iter().enumerate() {
        let place = match i.checked_sub(1).map(|j| &reach[j]) {
            Some(prev) if (prev.1, prev.2) == (*r, *k) => lines[i - 1].place,
            _ => i + 1,
        };
        lines.push(Standing {
            place,
            id: *id,
            name: event.name_of(*id),
            points: 0.0,
            tiebreaks: Vec::new(),
            note: note.clone(),
        });
    }
    Table {
        stage: s,
        title: stage_title(event, s),
        columns: Vec::new(),
        lines,
    }
}

/// Who goes on from stage `s`: the top `advance` of each group (or of the knockout), in
/// seeding order for the next stage — group winners first, group by group, then the
/// runners-up in reverse group order, and so on, so a seeded bracket keeps group winners
/// apart and a group's entrants apart in its first round. A tie across the last qualifying
/// place goes to a play-off (each pair of the tied meets once, a winner needed), then lots.
pub(crate) fn qualify(event: &Event, s: usize) -> Result<Qualify, Error> {
    let advance = event.plan[s].advance.max(1) as usize;
    let tables = stage_tables(event, s)?;
    let mut playoff: Vec<Pairing> = Vec::new();
    let mut ranked_groups: Vec<Vec<u32>> = Vec::new();
    let prefix = event.id_prefix(s);
    let done_playoffs: Vec<&Pairing> = event.stages[s].playoffs.iter().flat_map(|r| &r.pairings).collect();
    for (g, t) in tables.iter().enumerate() {
        if t.lines.len() <= advance {
            ranked_groups.push(t.lines.iter().map(|l| l.id).collect());
            continue;
        }
        let cut_place = t.lines[advance - 1].place;
        let tied: Vec<u32> = t.lines.iter().filter(|l| l.place == cut_place).map(|l| l.id).collect();
        let straddles = t.lines[advance].place == cut_place;
        let mut order: Vec<u32> = t.lines.iter().map(|l| l.id).collect();
        if straddles {
            let tag = if tables.len() > 1 { letter(g) } else { String::new() };
            let played: Vec<&&Pairing> = done_playoffs
                .iter()
                .filter(|p| tied.contains(&p.first) && p.second.is_some_and(|x| tied.contains(&x)))
                .collect();
            if played.is_empty() && event.settings.qualifying_playoffs {
                let mut b = 0;
                for (i, &x) in tied.iter().enumerate() {
                    for &y in &tied[i + 1..] {
                        b += 1;
                        playoff.push(Pairing::new(format!("{prefix}{tag}PO.{b}"), x, Some(y)));
                    }
                }
                continue;
            }
            let wins = |id: u32| {
                played
                    .iter()
                    .filter(|p| winner_loser(event, s, p).is_some_and(|(w, _)| w == id))
                    .count()
            };
            let seed = lot_seed(event.seed, &format!("{prefix}{tag}qualify"));
            let mut sorted = tied.clone();
            sorted.sort_by_key(|&id| {
                (
                    std::cmp::Reverse(wins(id)),
                    crate::lots::splitmix64(seed ^ u64::from(id)),
                )
            });
            let start = order
                .iter()
                .position(|id| tied.contains(id))
                .expect("tied are in the table");
            order.splice(start..start + sorted.len(), sorted);
        }
        ranked_groups.push(order);
    }
    if !playoff.is_empty() {
        let number = event.stages[s].playoffs.len() as u32 + 1;
        return Ok(Qualify::PlayOff(Round {
            number,
            pairings: playoff,
            draw: Some("play-off for a qualifying place (附加赛)".into()),
        }));
    }
    // The groups' qualifiers, seeded so a bracket keeps group winners and group mates apart.
    let groups: Vec<Vec<usize>> = ranked_groups
        .iter()
        .map(|g| g.iter().take(advance).map(|&id| id as usize).collect())
        .collect();
    let out = if groups.iter().all(|g| g.len() == advance) {
        crate::groups::final_seeding(&groups, advance)
            .map_err(|e| Error(e.to_string()))?
            .into_iter()
            .map(|id| id as u32)
            .collect()
    } else {
        (0..advance)
            .flat_map(|row| groups.iter().filter_map(move |g| g.get(row)))
            .map(|&id| id as u32)
            .collect()
    };
    Ok(Qualify::Done(out))
}
