//! Rounds: pairing the next one (FIDE Dutch or 积分编排制) and entering its results.

use super::players::{absent, pending, player, player_mut};
use super::points::refresh_points;
use super::{err, system, total_rounds, EventError, System};
use crate::cxa_swiss;
use crate::dutch::{self, Pairing};
use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Round, Trf};

/// Pairing numbers before round 1: by rating, then name (C.04.2); start numbers follow, and
/// the byes already asked for follow their players.
pub(super) fn number_by_rating(trf: &mut Trf) {
    trf.players
        .sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
    let mut renumbered = std::collections::HashMap::new();
    for (i, p) in trf.players.iter_mut().enumerate() {
        renumbered.insert(p.number, i as u32 + 1);
        p.number = i as u32 + 1;
    }
    let mut byes = trf.requested_byes();
    for b in &mut byes {
        b.player = renumbered.get(&b.player).copied().unwrap_or(b.player);
    }
    trf.set_requested_byes(&byes);
}

/// Pairs the next round and writes it into the event (results blank until entered). Byes asked
/// for that round move from `240` records into its column. Nothing changes on an error.
pub fn pair(trf: &mut Trf, seed: u64) -> Result<Pairing, EventError> {
    if !pending(trf).is_empty() {
        return err(format!(
            "round {} still has games without a result",
            dutch::rounds_paired(trf)
        ));
    }
    let round = dutch::rounds_paired(trf);
    let total = total_rounds(trf);
    if total > 0 && round >= total {
        return err(format!("all {total} rounds are paired"));
    }
    if trf.players.len() < 2 {
        return err("pairing needs at least two players");
    }
    let mut next = trf.clone();
    if round == 0 {
        number_by_rating(&mut next);
    }
    let mut byes = next.requested_byes();
    for b in byes.iter().filter(|b| b.round == round + 1) {
        let Some(p) = next.players.iter_mut().find(|p| p.number == b.player) else {
            return err(format!(
                "a bye in round {} names player {}, who is not entered",
                b.round, b.player
            ));
        };
        if p.written <= round {
            p.rounds.truncate(round);
            p.rounds.resize(round, absent(Bye::Zero));
            p.rounds.push(absent(b.kind));
            p.written = round + 1;
        }
    }
    byes.retain(|b| b.round > round + 1);
    next.set_requested_byes(&byes);
    let pairing = match system(&next) {
        System::Dutch => dutch::pair_next(&next).map_err(|e| match e {
            dutch::PairError::NoPairing => EventError(format!(
                "round {} cannot be paired: every way to pair it repeats a game, gives someone a \
                 second bye or breaks the colour rules (the absolute criteria C1-C3); a field of \
                 N players has at most N-1 rounds without a rematch",
                round + 1
            )),
            e => EventError(e.to_string()),
        })?,
        System::Cxa => {
            let options = cxa_swiss::Options {
                avoid_same_team: false,
                seed,
            };
            cxa_swiss::pair(&cxa_swiss::entrants(&next), round + 1, &options).map_err(|e| EventError(e.to_string()))?
        }
    };
    for p in &mut next.players {
        if p.written <= round {
            p.rounds.truncate(round);
            p.rounds.resize(round, absent(Bye::Zero));
        }
    }
    let index: std::collections::HashMap<u32, usize> =
        next.players.iter().enumerate().map(|(i, p)| (p.number, i)).collect();
    let mut put = |number: u32, r: Round| {
        let p = &mut next.players[index[&number]];
        p.rounds.push(r);
        p.written = p.rounds.len();
    };
    for &(w, b) in &pairing.boards {
        put(
            w,
            Round {
                opponent: b,
                colour: Colour::White,
                result: RoundResult::Pending,
            },
        );
        put(
            b,
            Round {
                opponent: w,
                colour: Colour::Black,
                result: RoundResult::Pending,
            },
        );
    }
    if let Some(b) = pairing.bye {
        put(b, absent(Bye::PairingAllocated));
    }
    // Anyone neither paired nor excused (cannot happen with a complete pairing) stays absent.
    for p in &mut next.players {
        if p.written <= round {
            p.rounds.push(absent(Bye::Zero));
            p.written = p.rounds.len();
        }
    }
    refresh_points(&mut next);
    *trf = next;
    Ok(pairing)
}

/// Enters a result of round `round` (1-based): `1-0`, `0-1`, `1/2`, `+/-`, `-/+` or `-/-`.
pub fn set_result(trf: &mut Trf, round: usize, white: u32, black: u32, result: &str) -> Result<(), EventError> {
    let (w, b) = match result {
        "1-0" => (RoundResult::WIN, RoundResult::LOSS),
        "0-1" => (RoundResult::LOSS, RoundResult::WIN),
        "1/2" | "1/2-1/2" | "=" => (RoundResult::DRAW, RoundResult::DRAW),
        "+/-" => (RoundResult::ForfeitWin, RoundResult::ForfeitLoss),
        "-/+" => (RoundResult::ForfeitLoss, RoundResult::ForfeitWin),
        "-/-" => (RoundResult::ForfeitLoss, RoundResult::ForfeitLoss),
        _ => return err(format!("unknown result {result:?} (1-0, 0-1, 1/2, +/-, -/+, -/-)")),
    };
    write_result(trf, round, white, black, w, b)
}

/// Takes a game's result back to none, as paired: a correction still being entered (a team
/// match's boards in part), so nothing counts it until it is complete.
pub fn clear_result(trf: &mut Trf, round: usize, white: u32, black: u32) -> Result<(), EventError> {
    write_result(trf, round, white, black, RoundResult::Pending, RoundResult::Pending)
}

fn write_result(
    trf: &mut Trf,
    round: usize,
    white: u32,
    black: u32,
    w: RoundResult,
    b: RoundResult,
) -> Result<(), EventError> {
    let i = round
        .checked_sub(1)
        .ok_or_else(|| EventError("rounds start at 1".into()))?;
    let sides = [(white, black, Colour::White, w), (black, white, Colour::Black, b)];
    // Both sides are checked before either changes.
    for (me, them, colour, _) in sides {
        match player(trf, me)?.rounds.get(i) {
            Some(r) if r.opponent == them && r.colour == colour => {}
            _ => return err(format!("round {round} has no game {white} (white) - {black} (black)")),
        }
    }
    for (me, _, _, res) in sides {
        player_mut(trf, me)?.rounds[i].result = res;
    }
    refresh_points(trf);
    Ok(())
}
