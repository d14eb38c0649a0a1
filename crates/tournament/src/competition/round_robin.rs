//! Round robin and grouped round robin stages: Berger rounds, one group or several played side
//! by side, a withdrawn entrant's games forfeited.

use super::pairing::{Game, Pairing, Round};
use super::{Error, Event, Format, Stage};
use crate::result::Score;
use crate::round_robin::Pairing as Board;

/// A group's letter: A, B, … Z, then AA, AB ….
pub fn letter(g: usize) -> String {
    if g < 26 {
        ((b'A' + g as u8) as char).to_string()
    } else {
        format!("{}{}", letter(g / 26 - 1), letter(g % 26))
    }
}

/// Rounds in one cycle for `n` entrants.
fn cycle(n: usize) -> usize {
    if n < 2 {
        0
    } else {
        n + n % 2 - 1
    }
}

/// The rounds the stage plays: its largest group's.
pub(crate) fn rounds_of(stage: &Stage, cycles: u32) -> usize {
    stage.groups.iter().map(|g| cycle(g.len())).max().unwrap_or(0) * cycles.max(1) as usize
}

/// Seeds dealt into groups in snake order, keeping clubs apart when asked.
pub(crate) fn deal(event: &Event, field: &[u32], groups: usize, separate: bool) -> Result<Vec<Vec<u32>>, Error> {
    let clubs: Vec<String> = field
        .iter()
        .map(|&id| event.entrant(id).map_or(String::new(), |e| e.club.clone()))
        .collect();
    let seeded: Vec<crate::groups::Entrant> = field
        .iter()
        .zip(clubs)
        .map(|(&id, club)| crate::groups::Entrant {
            rating: event.entrant(id).map(|e| e.rating),
            club: (!club.is_empty()).then_some(club),
        })
        .collect();
    let dealt = crate::groups::deal(&seeded, groups, separate).map_err(|e| Error::other(e.to_string()))?;
    Ok(dealt
        .into_iter()
        .map(|g| g.into_iter().map(|i| field[i]).collect())
        .collect())
}

/// The next round of every group, or `None` when the stage has played its rounds.
pub(crate) fn next(event: &Event, s: usize) -> Option<Round> {
    let r = event.stages[s].round_count() + 1;
    let mut pairings = pairings(event, s, r)?;
    for p in &mut pairings {
        forfeit_withdrawn(event, p);
    }
    Some(Round {
        number: r as u32,
        pairings,
        draw: None,
    })
}

/// The pairings of round `r` of every group, without results, in the order the round lists
/// them (group by group, board by board); `None` past the stage's rounds.
pub(crate) fn pairings(event: &Event, s: usize, r: usize) -> Option<Vec<Pairing>> {
    let stage = &event.stages[s];
    let cycles = match event.plan[s].format {
        Format::RoundRobin { cycles } | Format::Groups { cycles, .. } => cycles.max(1),
        _ => return None,
    };
    if r == 0 || r > rounds_of(stage, cycles) {
        return None;
    }
    let prefix = event.id_prefix(s);
    let grouped = matches!(event.plan[s].format, Format::Groups { .. });
    let mut pairings = Vec::new();
    for (g, members) in stage.groups.iter().enumerate() {
        let n = members.len() as u32;
        let Some(boards) = berger_round(n, cycles, r as u32) else {
            continue;
        };
        let tag = if grouped { letter(g) } else { String::new() };
        for (b, board) in boards.into_iter().enumerate() {
            let id = format!("{prefix}{tag}{r}.{}", b + 1);
            let mut p = match board {
                Board::Game(w, k) => Pairing::new(id, members[w as usize - 1], Some(members[k as usize - 1])),
                Board::Bye(x) => Pairing::new(id, members[x as usize - 1], None),
            };
            p.group = grouped.then_some(g as u32);
            pairings.push(p);
        }
    }
    Some(pairings)
}

/// A pairing with a withdrawn entrant is a forfeit from the start (both withdrawn: lost by
/// both).
pub(crate) fn forfeit_withdrawn(event: &Event, p: &mut Pairing) {
    let Some(second) = p.second else { return };
    let gone = |id: u32| event.entrant(id).is_some_and(|e| e.withdrawn);
    let (a, b) = (gone(p.first), gone(second));
    if !a && !b {
        return;
    }
    let games = if event.teams() {
        event.settings.boards
    } else {
        event.settings.games.max(1)
    };
    let game = Game {
        score: if a { Score::Loss } else { Score::Win },
        forfeit: !(a && b),
        double_forfeit: a && b,
    };
    p.games = vec![game; games as usize];
}

/// Round `r` of a round robin of one or two cycles, as [`crate::round_robin::double_berger`]
/// plays two: the first cycle with its last two rounds swapped, then the table again with
/// colours reversed. Built round by round, so a field of thousands pairs in microseconds.
pub(crate) fn berger_round(n: u32, cycles: u32, r: u32) -> Option<Vec<Board>> {
    let m = crate::round_robin::rounds(n);
    if cycles < 2 {
        return crate::round_robin::berger_round(n, r);
    }
    if r <= m {
        let swapped = match r {
            _ if m < 2 => r,
            r if r == m => m - 1,
            r if r == m - 1 => m,
            r => r,
        };
        return crate::round_robin::berger_round(n, swapped);
    }
    let round = crate::round_robin::berger_round(n, r - m)?;
    Some(
        round
            .into_iter()
            .map(|b| match b {
                Board::Game(w, k) => Board::Game(k, w),
                bye => bye,
            })
            .collect(),
    )
}
