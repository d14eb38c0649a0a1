//! Games judged under every Xiangqi ruleset, ruled at the trigger and with the offender told
//! to vary: the first byte picks a start position from `arbiter_fuzz::FENS`; each further byte
//! either replays the reverse of the mover's previous move when that is legal (high bit set:
//! repetitions, checks and chases come often) or indexes the legal move list. The judges must
//! never panic, must agree on checkmate and stalemate, and every verdict must serialise with
//! its cycle (one classified move per ply of the span).
#![no_main]

use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{Judge, Reason};
use libfuzzer_sys::fuzz_target;
use xiangqi::Move;

fuzz_target!(|data: &[u8]| {
    let Some((start, rest)) = arbiter_fuzz::pick(data) else { return };
    let mut judges: Vec<XiangqiJudge> = Rules::NAMES
        .iter()
        .flat_map(|n| {
            let r = Rules::by_name(n).unwrap();
            [r.clone(), r.at_trigger()]
        })
        .map(|r| XiangqiJudge::new(start.clone(), r))
        .collect();
    let mut pos = start.clone();
    let mut history: Vec<Move> = Vec::new();
    for &b in rest.iter().take(300) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let back = history.len().checked_sub(2).map(|i| history[i]).map(|m| Move::new(m.to, m.from));
        let m = match back {
            Some(r) if b & 0x80 != 0 && pos.is_legal(r) => r,
            _ => moves[(b & 0x7f) as usize % moves.len()],
        };
        for j in judges.iter_mut() {
            if j.verdict().is_some() {
                continue;
            }
            if let Some(v) = j.push(m).expect("a legal move is judged").cloned() {
                assert!(!v.explanation.is_empty());
                let json = v.to_json(game::Kind::Xiangqi);
                assert!(json["reason"].is_string());
                if let Some(r) = &v.repetition {
                    assert_eq!(r.moves.len(), v.ply - r.first_ply, "{}", v.explanation);
                }
            }
            let _ = j.claimable();
        }
        pos.play_unchecked(m);
        history.push(m);
    }
    // Mate and stalemate do not depend on the ruleset: judges still playing agree.
    let ends: Vec<Option<Reason>> = judges
        .iter()
        .filter(|j| j.ply() == history.len())
        .map(|j| j.verdict().map(|v| v.reason).filter(|r| matches!(r, Reason::Checkmate | Reason::Stalemate)))
        .collect();
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "{ends:?}");
});
