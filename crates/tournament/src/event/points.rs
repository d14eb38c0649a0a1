//! What results are worth (the point system, `162`) and how ties are broken (`202`/`212`).

use super::{err, EventError};
use crate::dutch::{self, PointSystem};
use crate::result::{Bye, RoundResult, Score};
use crate::standings::TieBreak;
use crate::trf::{Round, Trf};

/// Win 2, draw 1, loss 0: 中国象棋竞赛规则 (2011) art. 13.1 (tournament spec §7.1).
pub const CXA_POINTS: PointSystem = PointSystem {
    win: 20,
    draw: 10,
    loss: 0,
    zero_bye: 0,
    forfeit_loss: 0,
    pab: 20,
};

/// Points as the command line takes them: at most one decimal, below 100.
fn tenths(s: &str) -> Option<u32> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let whole: u32 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let frac: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse().ok()?,
        _ => return None,
    };
    (whole < 100 && !s.starts_with('+')).then_some(whole * 10 + frac)
}

/// Reads `W/D/L` points, e.g. `2/1/0` (Xiangqi) or `3/1/0`; byes score as wins and draws,
/// absences and forfeit losses nothing.
pub fn parse_points(s: &str) -> Result<PointSystem, EventError> {
    let parts: Vec<Option<u32>> = s.split('/').map(tenths).collect();
    let [Some(win), Some(draw), Some(loss)] = parts[..] else {
        return err(format!(
            "points {s:?}: win/draw/loss, each 0 to 99.9 (e.g. 2/1/0 or 1/0.5/0)"
        ));
    };
    if !(win >= draw && draw >= loss && win > loss) {
        return err(format!(
            "points {s:?}: a win must score more than a loss, a draw in between"
        ));
    }
    Ok(PointSystem {
        win,
        draw,
        loss,
        zero_bye: 0,
        forfeit_loss: 0,
        pab: win,
    })
}

/// What each result is worth: the `162` record (or bbpPairings' `BBW` … lines), as the pairing
/// engines read it; 1/½/0 when there is none (or it cannot be read).
pub fn point_system(trf: &Trf) -> PointSystem {
    stated_point_system(trf).unwrap_or_default()
}

/// The point system the file states (a `162` record or bbpPairings' `BB*` lines), if it states
/// one that can be read.
pub fn stated_point_system(trf: &Trf) -> Option<PointSystem> {
    crate::trf::pairing::stated_points(trf).ok().flatten()
}

/// Sets the point system (written as `162`); fixed once round 1 is paired, since scores and
/// the pairings made from them would no longer agree.
pub fn set_points(trf: &mut Trf, ps: &PointSystem) -> Result<(), EventError> {
    if dutch::rounds_paired(trf) > 0 {
        return err("the point system is fixed once round 1 is paired");
    }
    if ps.zero_bye != 0 || ps.forfeit_loss != 0 {
        return err("absences and forfeit losses score nothing here");
    }
    if ps.win > 999 || ps.draw > ps.win || ps.loss > ps.draw || ps.pab > 999 {
        return err("points: 0 to 99.9, a win at least a draw, a draw at least a loss");
    }
    trf.set_point_system(ps);
    refresh_points(trf);
    Ok(())
}

/// Points of one round in tenths, as the pairing engines (and FIDE's Gacrux, for tie-breaks)
/// count them.
pub(crate) fn round_points(ps: &PointSystem, r: &Round) -> u32 {
    let paired = r.opponent != 0;
    match r.result {
        RoundResult::Bye(Bye::PairingAllocated) => ps.pab,
        RoundResult::Game { score: Score::Win, .. } | RoundResult::ForfeitWin | RoundResult::Bye(Bye::Full) => ps.win,
        RoundResult::Game { score: Score::Draw, .. } | RoundResult::Bye(Bye::Half) => ps.draw,
        RoundResult::Game { score: Score::Loss, .. } if paired => ps.loss,
        RoundResult::ForfeitLoss if paired => ps.forfeit_loss,
        // A game still without a result counts nothing yet.
        RoundResult::Pending if paired => 0,
        _ => ps.zero_bye,
    }
}

pub(super) fn refresh_points(trf: &mut Trf) {
    let ps = point_system(trf);
    for p in &mut trf.players {
        p.points = f64::from(p.rounds.iter().map(|r| round_points(&ps, r)).sum::<u32>()) / 10.0;
    }
}

/// Reads a list of tie-break codes, comma- or space-separated; modifiers as `BH-C1` or as
/// FIDE's Gacrux writes them, `BH/C1`; `cxa` stands for the CXA's whole order
/// ([`TieBreak::CXA`]).
pub fn parse_tiebreaks(list: &str) -> Result<Vec<TieBreak>, EventError> {
    let mut out = Vec::new();
    for c in list.split([',', ' ']).filter(|c| !c.trim().is_empty()) {
        if c.trim().eq_ignore_ascii_case("cxa") {
            out.extend(TieBreak::CXA);
            continue;
        }
        out.push(TieBreak::parse(&c.replace('/', "-")).ok_or_else(|| EventError(format!("unknown tie-break {c:?}")))?);
    }
    Ok(out)
}

/// The tie-breaks the organiser chose (`212` without its `PTS`, else `202`); empty if none.
pub fn tiebreaks(trf: &Trf) -> Result<Vec<TieBreak>, EventError> {
    parse_tiebreaks(&trf.tiebreak_codes().join(","))
}

/// Sets the tie-breaks (`202`, and `212` with `PTS` first); an empty list removes them.
pub fn set_tiebreaks(trf: &mut Trf, order: &[TieBreak]) {
    let codes: Vec<String> = order.iter().map(|t| t.code().replace('-', "/")).collect();
    trf.set_tiebreak_codes(&codes);
}
