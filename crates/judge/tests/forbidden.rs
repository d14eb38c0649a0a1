//! `forbidden_moves`: the moves a referee bans (UCCI `banmoves`) on perpetual-check cycles, as
//! the rulebooks rule them (told to vary) and as engines do (at the trigger).

use game::Game;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{forbidden_moves, Judge};
use xiangqi::notation::{parse_iccs, to_iccs};
use xiangqi::Position;

fn judge_after(fen: &str, list: &str, rules: Rules) -> XiangqiJudge {
    let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), rules);
    for m in list.split_whitespace() {
        assert_eq!(j.push(parse_iccs(m).unwrap()).unwrap(), None, "{m}");
    }
    j
}

fn banned(j: &XiangqiJudge) -> Vec<String> {
    forbidden_moves(j).into_iter().map(to_iccs).collect()
}

#[test]
fn a_side_told_to_vary_may_not_go_back_into_the_cycle() {
    // XQ-R01: red checks perpetually; at the threefold (ply 8) red is told to vary.
    let fen = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
    let cycle = "f5e5 e8f8 e5f5 f8e8";
    let j = judge_after(fen, &[cycle, cycle].join(" "), Rules::cxa());
    assert!(j.pending().is_some());
    assert_eq!(banned(&j), ["f5e5"]);
    // Before the cycle came round there was nothing to forbid.
    assert!(banned(&judge_after(fen, "", Rules::cxa())).is_empty());
    assert!(banned(&judge_after(fen, "f5e5 e8f8 e5f5 f8e8 f5e5", Rules::cxa())).is_empty());
    // Black, the innocent side, is never banned from repeating.
    assert!(banned(&judge_after(fen, &[cycle, cycle, "f5e5"].join(" "), Rules::cxa())).is_empty());
    // Red varies (the rook leaves the checking lines): nothing more to forbid for black.
    assert!(banned(&judge_after(fen, &[cycle, cycle, "f5f6"].join(" "), Rules::cxa())).is_empty());
}

#[test]
fn at_the_trigger_the_move_that_would_lose_is_banned() {
    // Black to move, in check from the rook on e5: red's checks come third.
    let fen = "9/4k4/9/9/4R4/9/9/9/9/3K5 b - - 0 1";
    let j = judge_after(fen, "e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8", Rules::cxa().at_trigger());
    assert_eq!(banned(&j), ["f5e5"]);
    // Playing it anyway loses.
    let mut after = j.clone();
    let v = after.push(parse_iccs("f5e5").unwrap()).unwrap().cloned().unwrap();
    assert_eq!(v.reason, judge::Reason::PerpetualCheck);
    // Under AXF too.
    let j = judge_after(fen, "e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8", Rules::axf().at_trigger());
    assert_eq!(banned(&j), ["f5e5"]);
    // An idle side repeating is not banned (a draw at most).
    let idle = "5k3/9/9/7R1/9/9/9/9/9/3K5 w - - 0 1";
    let j = judge_after(idle, "h6h9 f9f8 h9h6 f8f9 h6h9 f9f8 h9h6", Rules::cxa().at_trigger());
    assert!(banned(&j).is_empty());
}

#[test]
fn chess_forbids_nothing() {
    let mut j = ChessJudge::new(<chess::Position as Game>::start(), ChessRules::fide());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let mv = j.position().parse_move(m).unwrap();
        j.push(mv).unwrap();
    }
    assert!(forbidden_moves(&j).is_empty());
}

/// The moves the rules forbid, found the slow way: every legal move tried on a copy of the
/// judge, with no shortcut through the repetition keys.
fn forbidden_by_trying(j: &XiangqiJudge) -> Vec<String> {
    let pos = j.position();
    let mover = Game::turn(pos);
    let loses = |r: judge::Outcome| match mover {
        game::Side::First => r == judge::Outcome::SecondWins,
        game::Side::Second => r == judge::Outcome::FirstWins,
    };
    // The cycle a side told to vary may not go back into.
    let cycle: Vec<u64> = match (j.pending(), j.recurrable()) {
        (Some(p), Some((base, keys))) if !p.claim && loses(p.result) => {
            let first = p.repetition.as_ref().map_or(p.ply, |r| r.first_ply);
            keys[first.saturating_sub(base).min(keys.len() - 1)..=p.ply.saturating_sub(base).min(keys.len() - 1)]
                .to_vec()
        }
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for m in Game::legal_moves(pos) {
        let mut after = j.clone();
        let forbidden = cycle.contains(&Game::key_after(pos, m))
            || match after.push(m) {
                Ok(Some(v)) => loses(v.result),
                Ok(None) => after
                    .pending()
                    .is_some_and(|p| !p.claim && p.ply == after.ply() && loses(p.result)),
                Err(_) => false,
            };
        if forbidden {
            out.push(to_iccs(m));
        }
    }
    out
}

/// On games that shuffle back and forth (so that positions recur, checks and chases repeat),
/// the shortcuts `forbidden_moves` takes — captures skipped, only moves that repeat a
/// position tried, nothing looked at within three plies of a capture — ban exactly what
/// trying every move bans.
#[test]
fn the_shortcuts_ban_what_trying_every_move_bans() {
    let starts = [
        "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1",
        "3k5/9/9/9/2n1R4/9/9/9/4C4/4K4 w - - 0 1",
        "2bak4/4a4/4b4/9/2p1r4/9/2P1R4/4B4/4A4/2BAK4 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ];
    // A small deterministic generator (xorshift), so that a failure can be replayed.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut tried = 0;
    let mut banned_seen = 0;
    let mut returning = 0;
    for fen in starts {
        for rules in [Rules::cxa(), Rules::cxa().at_trigger(), Rules::axf()] {
            for _ in 0..12 {
                let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), rules.clone());
                let mut played: Vec<xiangqi::Move> = Vec::new();
                for _ in 0..80 {
                    if j.verdict().is_some() {
                        break;
                    }
                    let slow = forbidden_by_trying(&j);
                    assert_eq!(
                        banned(&j),
                        slow,
                        "{fen} after {:?}",
                        played.iter().map(|&m| to_iccs(m)).collect::<Vec<_>>()
                    );
                    tried += 1;
                    banned_seen += usize::from(!slow.is_empty());
                    let legal = Game::legal_moves(j.position());
                    // The judge's search for the moves that bring a position back (from where
                    // the pieces stand) finds what a look at every legal move's key finds.
                    let pos = j.position();
                    let keys = j.recurrable().unwrap().1;
                    let mut scan: Vec<(xiangqi::Move, u64)> = legal
                        .iter()
                        .filter(|&&m| !pos.is_capture(m))
                        .map(|&m| (m, pos.key_after(m)))
                        .filter(|(_, k)| keys.contains(k))
                        .collect();
                    let mut back = j.moves_back().unwrap();
                    scan.sort_by_key(|&(m, _)| to_iccs(m));
                    back.sort_by_key(|&(m, _)| to_iccs(m));
                    assert_eq!(
                        back,
                        scan,
                        "{fen} after {:?}",
                        played.iter().map(|&m| to_iccs(m)).collect::<Vec<_>>()
                    );
                    returning += usize::from(!scan.is_empty());
                    if legal.is_empty() {
                        break;
                    }
                    // Mostly the mover's move of two plies ago undone, when it can be: cycles.
                    let back = played
                        .len()
                        .checked_sub(2)
                        .map(|i| played[i])
                        .map(|m| xiangqi::Move::new(m.to, m.from));
                    let m = match back {
                        Some(b) if next() % 4 != 0 && legal.contains(&b) => b,
                        _ => legal[(next() % legal.len() as u64) as usize],
                    };
                    j.push(m).unwrap();
                    played.push(m);
                }
            }
        }
    }
    assert!(
        tried > 1000 && banned_seen > 10 && returning > 100,
        "{tried} positions, {banned_seen} with a ban, {returning} with a move back"
    );
}
