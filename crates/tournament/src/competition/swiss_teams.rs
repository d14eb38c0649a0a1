//! A Swiss of teams ranked by game points first (局分): the Dutch pairs it on game points.
//!
//! The stage's TRF records each team pairing as a match result (won, drawn, lost), which
//! cannot say 2½-1½. So the round is paired on a copy of the TRF in which a match played
//! counts nothing and each team's game points so far come in as its pairing score (TRF
//! acceleration records, `XXA`, which count for pairing only); a forfeited match and the
//! pairing-allocated bye score every board won, as the team standings count them. The copy
//! counts in half game points (so every value is whole) and a won match's worth is all the
//! boards, so the last round's topscorers (C.04.3) are those above half the boards a round.
//! The round paired on the copy is then written into the stage's TRF.

use super::pairing::Verdict;
use super::progress::rule;
use super::{Error, Event};
use crate::dutch::{self, PointSystem};
use crate::event::{self as swiss_event};
use crate::result::{RoundResult, Score};
use crate::trf::Trf;

/// Pairs the next round of team Swiss stage `s` on game points into `trf`.
pub(crate) fn pair(event: &Event, s: usize, trf: &mut Trf, seed: u64) -> Result<dutch::Pairing, Error> {
    let paired = dutch::rounds_paired(trf);
    if paired == 0 {
        // Nobody has a game point yet: the plain pairing, which also numbers the teams.
        return swiss_event::pair(trf, seed).map_err(|e| Error::other(e.to_string()));
    }
    let halves = half_game_points(event, s, trf);
    let mut view = trf.clone();
    // A match's worth when every board is won (a forfeited match, the bye), doubled.
    let per_board = event.settings.board_points.map_or(1.0, |b| b.win);
    let boards = (per_board * f64::from(event.settings.boards) * 10.0).round() as u32;
    let all = PointSystem {
        win: 2 * boards,
        draw: boards,
        loss: 0,
        zero_bye: 0,
        forfeit_loss: 0,
        pab: 2 * boards,
    };
    view.set_point_system(&all);
    let mut lines = Vec::new();
    for (i, p) in view.players.iter_mut().enumerate() {
        for r in p.rounds.iter_mut().take(paired) {
            if let RoundResult::Game { rated, .. } = r.result {
                r.result = RoundResult::Game {
                    score: Score::Loss,
                    rated,
                };
            }
        }
        // The acceleration before round k + 1 is the game points of the matches played in
        // rounds 1 to k.
        let mut running = 0u32;
        let mut values = vec![0u32];
        for &h in halves[i].iter().take(paired) {
            running += h;
            values.push(running);
        }
        if values.iter().any(|&v| v > 9999) {
            return Err(Error::other("game points too many to pair on (over 4999½)"));
        }
        let values: Vec<String> = values.iter().map(|v| format!(" {v:>4}")).collect();
        lines.push(format!("XXA {:>4}{}", p.number, values.join("")));
    }
    view.set_records("XXA", lines);
    let pairing = swiss_event::pair(&mut view, seed).map_err(|e| Error::other(e.to_string()))?;
    // The same round, and the byes it used, into the stage's own TRF.
    for (p, v) in trf.players.iter_mut().zip(&view.players) {
        p.rounds.truncate(paired);
        p.rounds.extend(v.rounds.iter().skip(paired).copied());
        p.written = v.written;
    }
    trf.set_requested_byes(&view.requested_byes());
    let ps = swiss_event::point_system(trf);
    for p in &mut trf.players {
        p.points = f64::from(p.rounds.iter().map(|r| crate::event::round_points(&ps, r)).sum::<u32>()) / 10.0;
    }
    Ok(pairing)
}

/// Each TRF player's game points, doubled, round by round, from the matches played over the
/// board (a match all forfeited, or a bye, counts 0 here: the copy's point system scores it).
fn half_game_points(event: &Event, s: usize, trf: &Trf) -> Vec<Vec<u32>> {
    let stage = &event.stages[s];
    trf.players
        .iter()
        .map(|player| {
            let id = event.entrants.iter().find(|e| e.name == player.name).map(|e| e.id);
            player
                .rounds
                .iter()
                .enumerate()
                .map(|(r, round)| {
                    if !matches!(round.result, RoundResult::Game { .. }) {
                        return 0;
                    }
                    let Some(p) = stage
                        .rounds
                        .get(r)
                        .and_then(|x| x.pairings.iter().find(|p| Some(p.first) == id || p.second == id))
                    else {
                        return 0;
                    };
                    if p.verdict(rule(event, s, p)) == Verdict::Pending {
                        return 0;
                    }
                    let (a, b) = p.team_points(rule(event, s, p));
                    let mine = if Some(p.first) == id { a } else { b };
                    (mine * 2.0).round().max(0.0) as u32
                })
                .collect()
        })
        .collect()
}

impl super::Pairing {
    /// The first-named team's points and the second's on the boards of its match (board points
    /// by colour where the event has them), play-off matches left out.
    pub(crate) fn team_points(&self, rule: super::pairing::Rule) -> (f64, f64) {
        let boards = (rule.boards as usize).min(self.games.len());
        super::pairing::team_points(&self.games[..boards], 0, rule)
    }
}
