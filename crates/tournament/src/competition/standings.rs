//! Standings of every stage — group tables with the chosen tie-breaks (FIDE C.07 or the CXA's
//! orders), a knockout's placings — and who qualifies for the next stage, with play-offs
//! (附加赛) for a tie on the last qualifying place.

use serde::Serialize;

use super::format::Format;
use super::knockout::{winner_loser, THIRD_PLACE};
use super::pairing::{Pairing, Side, Verdict};
use super::progress::rule;
use super::round_robin::letter;
use super::{Error, Event};
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
            board_points: self.settings.board_points,
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
            .map_err(|e| Error::other(e.to_string()))
    }

    /// The tie-breaks the standings use: the event's, else the format's usual ones.
    pub fn tiebreak_order(&self) -> Result<Vec<TieBreak>, Error> {
        let list = if self.settings.tiebreaks.is_empty() {
            "DE,WIN,SB".to_string()
        } else {
            self.settings.tiebreaks.join(",")
        };
        parse_tiebreaks(&list).map_err(|e| Error::other(e.to_string()))
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

pub(crate) fn stage_tables(event: &Event, s: usize) -> Result<Vec<Table>, Error> {
    match event.plan[s].format {
        Format::RoundRobin { .. } | Format::Groups { .. } => {
            let grouped = matches!(event.plan[s].format, Format::Groups { .. });
            (0..event.stages[s].groups.len())
                .map(|g| {
                    let mut t = group_table(event, s, g)?;
                    if grouped {
                        t.title = format!("{}, group {}", t.title, letter(g));
                    }
                    note_qualified(event, s, &mut t);
                    Ok(t)
                })
                .collect()
        }
        Format::Knockout { .. } | Format::DoubleKnockout => Ok(vec![placings(event, s)]),
        Format::Swiss { .. } => Ok(vec![super::swiss::table(event, s, stage_title(event, s))?]),
    }
}

/// Once the next stage has started: who went on, and who a play-off placed.
fn note_qualified(event: &Event, s: usize, t: &mut Table) {
    let stage = &event.stages[s];
    let Some(qualified) = &stage.qualified else { return };
    let po: Vec<&Pairing> = stage.playoffs.iter().flat_map(|r| &r.pairings).collect();
    for l in &mut t.lines {
        let played = po.iter().any(|p| p.first == l.id || p.second == Some(l.id));
        l.note = match (qualified.contains(&l.id), played) {
            (q, true) => format!("{} after a play-off", if q { "qualified" } else { "out" }),
            (true, false) => "qualified".into(),
            (false, false) => continue,
        };
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
    for round in event.stage_rounds(s) {
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
    let rounds = stage.round_count();
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

pub(super) fn trf_points(event: &Event) -> crate::dutch::PointSystem {
    crate::dutch::PointSystem {
        // A round robin's bye is a round without a game, worth nothing (and not a round the
        // entrant chose to miss, which C.07's tie-breaks would adjust for).
        pab: 0,
        ..event.point_system()
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
    let order = event.tiebreak_order()?;
    let members = &event.stages[s].groups[g];
    let counted = super::table::lines(event, s, g, &order);
    let lines = counted
        .unwrap_or_else(|| crate::standings::standings(&group_trf(event, s, g), &order))
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
    team_standings(event, s, &event.stages[s].groups[g], false)
}

/// The teams `members` of stage `s` ranked as a team table: match points (or game points
/// first), then the team tie-breaks (the event's, else the CXA's 局分, 直胜, 台次分). A match
/// counts once all its boards are in; a bye counts as [`crate::team::ByeScoring`] has it when
/// `byes` (a Swiss's pairing-allocated bye), else not at all.
pub(crate) fn team_standings(event: &Event, s: usize, members: &[u32], byes: bool) -> Result<Table, Error> {
    let numbers = berger_numbers(members);
    let index = |id: u32| numbers.get(&id).map(|&n| n as usize - 1);
    let names: Vec<String> = members.iter().map(|&id| event.name_of(id)).collect();
    let rounds: Vec<TeamRound> = event.stages[s]
        .rounds
        .iter()
        .flat_map(|r| r.pairings.iter().map(move |p| (r.number, p)))
        .filter_map(|(round, p)| {
            let second = match p.second {
                None if byes => None,
                None => return None,
                Some(x) if p.games.len() as u32 == event.settings.boards => Some(index(x)?),
                Some(_) => return None,
            };
            Some(TeamRound {
                round,
                first: index(p.first)?,
                second,
                boards: p.games.iter().map(board).collect(),
            })
        })
        .collect();
    let scoring = event.team_scoring();
    let order = event.team_tiebreak_order()?;
    let lines = crate::team::standings(&names, &rounds, &scoring, &order)
        .map_err(|e| Error::other(e.to_string()))?
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
    // A seed's bye in a bracket is no pairing: it goes on as a win of its round would.
    let mut byes: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let bracketed = matches!(
        event.plan[s].format,
        Format::Knockout {
            draw: super::Draw::Seeded,
            ..
        } | Format::DoubleKnockout
    );
    if bracketed {
        for (id, round) in super::knockout::walkovers(event, s) {
            let r = byes.entry(id).or_insert(round);
            *r = (*r).max(round);
        }
    }
    // A bracket's stage ranks as its bracket does: everyone still in above everyone out, and
    // those out by how far they went, which the round a match was paired in does not tell
    // where byes let a later round's match be paired early. A card draw's rounds are the
    // bracket's rounds.
    let bracket_place: std::collections::HashMap<u32, usize> = if bracketed {
        super::knockout::bracket_standing(event, s)
            .into_iter()
            .flat_map(|(place, ids)| ids.into_iter().map(move |id| (id, place as usize)))
            .collect()
    } else {
        std::collections::HashMap::new()
    };
    // (entrant, last round reached, key within it)
    let mut reach: Vec<(u32, u32, u32, String)> = Vec::new();
    for &id in &stage.entrants {
        let mut last = match byes.get(&id) {
            Some(&r) => (r, 3, format!("bye in round {r}")),
            None => (0, 0, String::from("entered")),
        };
        for round in &stage.rounds {
            for p in round.pairings.iter().filter(|p| p.first == id || p.second == Some(id)) {
                let outcome = winner_loser(event, s, p);
                let won = outcome.is_some_and(|(w, _)| w == id);
                let lost = outcome.is_some_and(|(_, l)| l == Some(id));
                // The third-place match ranks above the semi-final loss it follows (same
                // rank), so its winner places third and its loser fourth.
                let key = if p.id == third {
                    if won || outcome.is_none() {
                        5
                    } else {
                        4
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
                    // A double knockout's first loss, or a grand final with a reset to come.
                    (_, _, true) if bracket_place.get(&id) == Some(&1) => {
                        format!("lost in round {}, still in", round.number)
                    }
                    (_, _, true) => format!("out in round {}", round.number),
                    _ => format!("playing round {}", round.number),
                };
                // The final outranks the third-place match of the same round; a match outranks
                // the bye that led to it, paired in the same round when its other side had a
                // bye too.
                let rank = if p.id == third { round.number - 1 } else { round.number };
                let after_bye = byes.get(&id) == Some(&rank) && last.0 == rank;
                if (rank, key) >= (last.0, last.1) || after_bye {
                    last = (rank, key, note);
                }
            }
        }
        reach.push((id, last.0, last.1, last.2));
    }
    let rank_key = |e: &(u32, u32, u32, String)| match bracket_place.get(&e.0) {
        Some(&place) => (place, 0, 0),
        None => (0, u32::MAX - e.1, u32::MAX - e.2),
    };
    reach.sort_by(|a, b| rank_key(a).cmp(&rank_key(b)).then(a.0.cmp(&b.0)));
    let mut lines: Vec<Standing> = Vec::new();
    for (i, entry) in reach.iter().enumerate() {
        let (id, note) = (&entry.0, &entry.3);
        let place = match i.checked_sub(1).map(|j| &reach[j]) {
            Some(prev) if rank_key(prev) == rank_key(entry) => lines[i - 1].place,
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
