//! Players: registering them (late entrants too), the byes they ask for (轮空), withdrawing
//! (退赛) and coming back.

use super::points::refresh_points;
use super::{err, total_rounds, EventError};
use crate::dutch;
use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Player, RequestedBye, Round, Trf};

/// Adds a player with the next start number; rounds already paired count as absences.
pub fn register(trf: &mut Trf, name: &str, rating: u32, federation: &str) -> Result<u32, EventError> {
    register_late(trf, name, rating, federation, Bye::Zero)
}

/// Adds a player with the next start number. Rounds already paired are `missed`: zero-point
/// byes (absent) or half-point byes (where the organiser grants them to late entrants).
/// Start numbers of the others stay as they are once round 1 is paired (before it, pairing
/// round 1 orders everyone by rating).
pub fn register_late(trf: &mut Trf, name: &str, rating: u32, federation: &str, missed: Bye) -> Result<u32, EventError> {
    if name.trim().is_empty() {
        return err("a player needs a name");
    }
    if !matches!(missed, Bye::Zero | Bye::Half) {
        return err("missed rounds are zero-point byes (absent) or half-point byes");
    }
    let number = trf.players.iter().map(|p| p.number).max().unwrap_or(0) + 1;
    if number > 9999 {
        return err("TRF holds at most 9,999 players");
    }
    let paired = dutch::rounds_paired(trf);
    trf.players.push(Player {
        number,
        name: name.trim().to_string(),
        rating,
        federation: federation.trim().to_string(),
        points: 0.0,
        rounds: vec![absent(missed); paired],
        written: paired,
    });
    refresh_points(trf);
    Ok(number)
}

/// A round without a game.
pub(super) fn absent(bye: Bye) -> Round {
    Round::bye(RoundResult::Bye(bye))
}

/// Games of the last paired round still without a result, as (white, black).
pub fn pending(trf: &Trf) -> Vec<(u32, u32)> {
    let round = dutch::rounds_paired(trf);
    if round == 0 {
        return Vec::new();
    }
    trf.players
        .iter()
        .filter_map(|p| {
            let r = p.rounds.get(round - 1)?;
            (r.opponent != 0 && r.colour == Colour::White && r.result == RoundResult::Pending)
                .then_some((p.number, r.opponent))
        })
        .collect()
}

/// Marks a player as not to be paired in the next round: a requested half-point, zero-point or
/// full-point bye. Returns that round.
pub fn request_bye(trf: &mut Trf, number: u32, kind: Bye) -> Result<usize, EventError> {
    let round = dutch::rounds_paired(trf) + 1;
    request_bye_in(trf, number, kind, round)?;
    Ok(round)
}

/// A bye asked for in a round not paired yet (a `240` record until the round is paired; a
/// later request for the same round replaces it).
pub fn request_bye_in(trf: &mut Trf, number: u32, kind: Bye, round: usize) -> Result<(), EventError> {
    if kind == Bye::PairingAllocated {
        return err("the pairing-allocated bye is given by the pairing, not asked for");
    }
    let paired = dutch::rounds_paired(trf);
    if round <= paired {
        return err(format!("round {round} is already paired"));
    }
    let total = total_rounds(trf);
    if total > 0 && round > total {
        return err(format!("the event has {total} rounds"));
    }
    let p = player(trf, number)?;
    if round == paired + 1 && p.written > paired {
        return err(format!("player {number} already has an entry for round {round}"));
    }
    let mut byes = trf.requested_byes();
    byes.retain(|b| !(b.player == number && b.round == round));
    byes.push(RequestedBye {
        round,
        player: number,
        kind,
    });
    trf.set_requested_byes(&byes);
    Ok(())
}

pub(super) fn player(trf: &Trf, number: u32) -> Result<&Player, EventError> {
    trf.player(number)
        .ok_or_else(|| EventError(format!("no player {number}")))
}

pub(super) fn player_mut(trf: &mut Trf, number: u32) -> Result<&mut Player, EventError> {
    match trf.players.iter_mut().find(|p| p.number == number) {
        Some(p) => Ok(p),
        None => err(format!("no player {number}")),
    }
}

/// Withdraws a player from round `from` (1-based) on: a zero-point bye in every round left
/// (C.07 16.2), so they are not paired again; rounds already played keep their results. A round
/// where the player is already paired is refused: its result is entered first (a forfeit loss
/// if they do not play it). Returns the first round the player is out of.
pub fn withdraw(trf: &mut Trf, number: u32, from: usize) -> Result<usize, EventError> {
    let total = total_rounds(trf);
    if total == 0 {
        return err("the event does not say how many rounds it has");
    }
    let paired = dutch::rounds_paired(trf);
    if paired >= total {
        return err(format!("all {total} rounds are paired"));
    }
    if from == 0 || from > total {
        return err(format!("round {from}: the event has rounds 1 to {total}"));
    }
    let p = player(trf, number)?;
    for r in from..=paired {
        let Some(x) = p.rounds.get(r - 1) else { continue };
        if x.opponent == 0 && x.result != RoundResult::Bye(Bye::PairingAllocated) {
            continue;
        }
        return if x.opponent != 0 && x.result == RoundResult::Pending {
            err(format!(
                "player {number} is paired in round {r}: enter that game's result first (a forfeit is \
                 -/+ or +/-), then withdraw from round {}",
                r + 1
            ))
        } else {
            err(format!(
                "player {number} was paired in round {r}, whose result stays: withdraw from round {} or later",
                paired + 1
            ))
        };
    }
    let first = from.max(paired + 1);
    let p = player_mut(trf, number)?;
    // A bye asked for in the next round's column (as older versions kept it) gives way.
    if p.written > paired {
        p.rounds.truncate(paired);
        p.written = paired;
    }
    let mut byes = trf.requested_byes();
    byes.retain(|b| !(b.player == number && b.round >= first));
    byes.extend((first..=total).map(|round| RequestedBye {
        round,
        player: number,
        kind: Bye::Zero,
    }));
    trf.set_requested_byes(&byes);
    refresh_points(trf);
    Ok(first)
}

/// Takes a withdrawn player back from round `from` on (not paired yet): their zero-point byes
/// from then on are dropped.
pub fn reenter(trf: &mut Trf, number: u32, from: usize) -> Result<(), EventError> {
    let paired = dutch::rounds_paired(trf);
    if from <= paired {
        return err(format!(
            "round {from} is already paired: re-enter from round {} or later",
            paired + 1
        ));
    }
    let mut byes = trf.requested_byes();
    let before = byes.len();
    byes.retain(|b| !(b.player == number && b.round >= from && b.kind == Bye::Zero));
    let p = player_mut(trf, number)?;
    let column = from == paired + 1 && p.written > paired && p.rounds[paired].result == RoundResult::Bye(Bye::Zero);
    if column {
        p.rounds.truncate(paired);
        p.written = paired;
    }
    if byes.len() == before && !column {
        return err(format!("player {number} is not withdrawn from round {from}"));
    }
    trf.set_requested_byes(&byes);
    refresh_points(trf);
    Ok(())
}
