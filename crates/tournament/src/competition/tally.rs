//! The two passes over a compact round robin's codes that [`super::table`] ranks by: first
//! how many of each result every player had (and when), then, where Buchholz or
//! Sonneborn-Berger is asked for, the opponents' adjusted scores summed.
//!
//! A table of 10,000 players at round 5,000 is 25 million boards a pass, so each board costs a
//! table look-up and a few additions: results are counted by kind and colour, not branched on
//! (random results defeat branch prediction), and everything else — score, wins, games as
//! black — is worked out from the counts once a player.

use super::table::Group;
use crate::dutch::PointSystem;
use crate::standings::TieBreak;
use crate::tiebreak::Values;

/// A player's result in one round, from their side, as an index into the counts.
const WIN: usize = 0;
const DRAW: usize = 1;
const LOSS: usize = 2;
const FORFEIT_WIN: usize = 3;
const FORFEIT_LOSS: usize = 4;
const PENDING: usize = 5;
const KINDS: usize = 6;

/// From a board's code, the first-named side's result and the second's.
const fn results(code: u8) -> (usize, usize) {
    match code {
        b'1' => (WIN, LOSS),
        b'=' => (DRAW, DRAW),
        b'0' => (LOSS, WIN),
        b'+' => (FORFEIT_WIN, FORFEIT_LOSS),
        b'-' => (FORFEIT_LOSS, FORFEIT_WIN),
        b'/' => (FORFEIT_LOSS, FORFEIT_LOSS),
        _ => (PENDING, PENDING),
    }
}

/// [`results`] for every byte, looked up instead of matched in the inner loops.
const RESULTS: [(u8, u8); 256] = {
    let mut t = [(0, 0); 256];
    let mut c = 0;
    while c < 256 {
        let (x, y) = results(c as u8);
        t[c] = (x as u8, y as u8);
        c += 1;
    }
    t
};

fn played(kind: usize) -> bool {
    matches!(kind, WIN | DRAW | LOSS)
}

/// Points in tenths, as [`crate::event::round_points`] counts a paired round.
fn points(ps: &PointSystem, kind: usize) -> u64 {
    u64::from(match kind {
        WIN | FORFEIT_WIN => ps.win,
        DRAW => ps.draw,
        LOSS => ps.loss,
        FORFEIT_LOSS => ps.forfeit_loss,
        _ => 0,
    })
}

/// The points of a game played over the board, from the first-named side's view or the
/// second's; `None` for a forfeit or a game to play.
pub(super) fn played_points(ps: &PointSystem, code: u8, first: bool) -> Option<u64> {
    let (x, y) = RESULTS[code as usize];
    let kind = usize::from(if first { x } else { y });
    played(kind).then(|| points(ps, kind))
}

/// What pass 1 gathers, one entry a player (Berger number − 1).
struct Counts {
    /// Results by kind and colour: `[kind * 2 + black]`.
    kinds: Vec<[u32; 2 * KINDS]>,
    /// The last round (1-based) that is not a forfeit loss, and the last pending one.
    last_counted: Vec<u32>,
    last_pending: Vec<u32>,
    /// Points weighted by the rounds left, and the first round's (only for PS, PS-C1).
    progressive: Vec<u64>,
    first_round: Vec<u64>,
}

/// Every player's values, in Berger number order; the tie-breaks not in `order` may be left
/// out.
pub(super) fn values(group: &Group, ps: &PointSystem, total: usize, order: &[TieBreak]) -> Vec<Values> {
    let n = group.n as usize;
    let progressive = order.iter().any(|t| matches!(t, TieBreak::Ps | TieBreak::PsC1));
    let pts: [u64; KINDS] = std::array::from_fn(|k| points(ps, k));
    let c = count(group, &pts, total, progressive);
    let score: Vec<u64> = c
        .kinds
        .iter()
        .map(|k| (0..KINDS).map(|i| u64::from(k[2 * i] + k[2 * i + 1]) * pts[i]).sum())
        .collect();
    let adjusted: Vec<u64> = (0..n)
        .map(|i| {
            let pending_last = c.last_pending[i] > 0 && c.last_pending[i] == c.last_counted[i];
            score[i] + if pending_last { u64::from(ps.draw) } else { 0 }
        })
        .collect();
    let (bh, sb) = if order.iter().any(|t| matches!(t, TieBreak::Bh | TieBreak::Sb)) {
        opponents(group, &pts, &score, &adjusted)
    } else {
        (vec![0; n], vec![0; n])
    };
    let draws = u64::from(ps.draw) * total as u64;
    let win = u64::from(ps.win);
    (0..n)
        .map(|i| {
            let k = &c.kinds[i];
            let of = |kind: usize| k[2 * kind] + k[2 * kind + 1];
            let black = |kind: usize| k[2 * kind + 1];
            let winning = |kind: usize| pts[kind] == win;
            let games: u32 = k.iter().sum();
            // Byes and the rounds the group sits out count as plain, worth nothing.
            let plain = u64::from(of(PENDING)) + total as u64 - u64::from(games);
            let tenths = |x: u64| x as f64 / 10.0;
            Values {
                number: i as u32 + 1,
                pts: tenths(score[i]),
                bh: tenths(bh[i] + plain * score[i].min(draws)),
                bh_c1: 0.0,
                bh_c2: 0.0,
                bh_m1: 0.0,
                fb: 0.0,
                sb: sb[i] as f64 / 100.0,
                sb_c1: 0.0,
                ps: tenths(c.progressive[i]),
                ps_c1: tenths(c.progressive[i] - c.first_round[i]),
                win: (0..KINDS).filter(|&t| winning(t)).map(of).sum(),
                won: [WIN, DRAW, LOSS].into_iter().filter(|&t| winning(t)).map(of).sum(),
                bpg: [WIN, DRAW, LOSS].into_iter().map(black).sum(),
                bwg: [WIN, DRAW, LOSS].into_iter().filter(|&t| winning(t)).map(black).sum(),
                rep: total as u32 - of(FORFEIT_LOSS),
                vur: of(FORFEIT_LOSS),
                aro: None,
                tpr: None,
                ptp: None,
            }
        })
        .collect()
}

/// Pass 1: every player's results counted by kind and colour.
fn count(group: &Group, pts: &[u64; KINDS], total: usize, progressive: bool) -> Counts {
    let n = group.n as usize;
    let mut c = Counts {
        kinds: vec![[0; 2 * KINDS]; n],
        last_counted: vec![0; n],
        last_pending: vec![0; n],
        progressive: vec![0; n],
        first_round: vec![0; n],
    };
    group.each(|r, code, first, second| {
        let round = r as u32 + 1;
        let Some(second) = second else {
            c.last_counted[first as usize - 1] = round;
            return;
        };
        let (x, y) = RESULTS[code as usize];
        for (who, kind, black) in [(first, x as usize, 0), (second, y as usize, 1)] {
            let i = who as usize - 1;
            c.kinds[i][2 * kind + black] += 1;
            if kind != FORFEIT_LOSS {
                c.last_counted[i] = round;
            }
            if kind == PENDING {
                c.last_pending[i] = round;
            }
            if progressive {
                c.progressive[i] += pts[kind] * (total - r) as u64;
                if r == 0 {
                    c.first_round[i] = pts[kind];
                }
            }
        }
    });
    if group.offsets.iter().any(Option::is_none) {
        // A round the group sits out is a bye, which counts.
        c.last_counted.fill(total as u32);
    }
    c
}

/// Pass 2: Buchholz and Sonneborn-Berger, with the opponents' adjusted scores (a forfeit
/// counts the lower of the two players' scores; a game to play, nothing).
fn opponents(group: &Group, pts: &[u64; KINDS], score: &[u64], adjusted: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let n = score.len();
    let (mut bh, mut sb) = (vec![0u64; n], vec![0u64; n]);
    group.each(|_, code, first, second| {
        let Some(second) = second else { return };
        let (x, y) = RESULTS[code as usize];
        let (a, b) = (first as usize - 1, second as usize - 1);
        for (who, opp, kind) in [(a, b, x as usize), (b, a, y as usize)] {
            // Without a branch on the result: a game to play weighs nothing (and scores 0).
            let theirs = adjusted[opp];
            let opponent = if played(kind) { theirs } else { score[who].min(theirs) };
            bh[who] += opponent * u64::from(kind != PENDING);
            sb[who] += opponent * pts[kind];
        }
    });
    (bh, sb)
}
