//! The bodies of the fuzz targets, one function each, so that `cargo fuzz` (the binaries of
//! `fuzz_targets/`) and the main workspace's `cargo test` (which replays `regressions/` and
//! `seeds/` through [`TARGETS`], `crates/arbiter/tests/fuzz_regressions.rs`) run the same code.
//! Each must not panic on any input.

use ::judge::xiangqi::{Rules, XiangqiJudge};
use ::judge::{Judge, Reason};
use records::chess::ChessGames;
use records::files::{read_fen_moves, write_fen_moves, AnyRecord};
use records::pgn::XiangqiGames;
use tournament::{dutch, trf::Trf};
use xiangqi::notation::Notation;
use xiangqi::notation::{
    parse_chinese, parse_fsf, parse_iccs, parse_wxf, to_chinese, to_fsf, to_iccs, to_iccs_pgn, to_wxf,
};
use xiangqi::{Fen, Move, Position, Undo};

/// A target: takes any bytes, panics only on a bug.
pub type Target = fn(&[u8]);

/// Every target by its name (the name of its binary and of its `regressions/` and `seeds/`
/// folders).
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("fen_notation", fen_notation),
    ("iccs", iccs),
    ("wxf", wxf),
    ("chinese", chinese),
    ("play", play),
    ("judge", judge),
    ("record_xiangqi_pgn", record_xiangqi_pgn),
    ("record_chess_pgn", record_chess_pgn),
    ("record_xqf", record_xqf),
    ("record_cbr", record_cbr),
    ("record_cbl", record_cbl),
    ("record_dhtmlxq", record_dhtmlxq),
    ("record_fen_moves", record_fen_moves),
    ("trf_pair", trf_pair),
    ("engine_output", engine_output),
];

/// FEN text → `Fen` → `Position`: never panics; any parsed `Fen` prints and reads back to itself;
/// an accepted position prints a FEN that reads back to the same position, its move list, count
/// and status agree, its key matches a recomputation, and the side not to move is not in check
/// (nor facing the other king). Positions refused only for too many pawns/advisors/elephants are
/// accepted with `ignore_too_many_pieces` and checked the same way.
pub fn fen(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(fen) = s.parse::<Fen>() else { return };
    // Printing any parsed FEN must not panic either, and must read back to the same setup.
    let printed = fen.to_string();
    let reread: Fen = printed
        .parse()
        .unwrap_or_else(|e| panic!("printed FEN {printed:?} does not parse: {e}"));
    assert_eq!(reread, fen, "Fen round trip of {printed:?}");
    let _ = fen.board_and_turn();
    match Position::from_setup(fen.into_setup()) {
        Ok(pos) => super::check_position(&pos, |setup| Position::from_setup(setup).ok()),
        Err(err) => {
            let _ = err.to_string();
            if let Ok(pos) = err.ignore_too_many_pieces() {
                super::check_position(&pos, |setup| {
                    Position::from_setup(setup).or_else(|e| e.ignore_too_many_pieces()).ok()
                });
            }
        }
    }
}

/// Extra target (beyond the five asked for): any position a FEN yields, including those
/// accepted by `ignore_too_many_pieces`, has every legal move written in each notation and read
/// back, and played and taken back with `do_move` / `undo_move`.
pub fn fen_notation(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(fen) = s.parse::<Fen>() else { return };
    let Ok(pos) = Position::from_setup(fen.into_setup()).or_else(|e| e.ignore_too_many_pieces()) else {
        return;
    };
    let mut work = pos.clone();
    for &m in pos.legal_moves().iter() {
        super::check_notations(&pos, m);
        let undo = work.do_move(m);
        assert_eq!(work.key(), work.compute_key(), "key after {m} in {}", pos.fen());
        let _ = work.legal_moves();
        work.undo_move(m, undo);
        assert_eq!(work, pos, "undo {m}");
    }
}

/// Coordinate notations (`parse_iccs`, `parse_fsf`): never panic; a parsed move prints back to a
/// string that parses to the same move, and playing it from the start position returns a
/// `Result` (legal or not) instead of panicking.
pub fn iccs(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if let Ok(m) = parse_iccs(s) {
        assert_eq!(parse_iccs(&to_iccs(m)), Ok(m), "{s:?}");
        assert_eq!(parse_iccs(&to_iccs_pgn(m)), Ok(m), "{s:?}");
        assert_eq!(parse_fsf(&to_fsf(m)), Ok(m), "{s:?}");
        let _ = Position::start().play(m);
    }
    if let Ok(m) = parse_fsf(s) {
        assert_eq!(parse_fsf(&to_fsf(m)), Ok(m), "{s:?}");
        assert_eq!(parse_iccs(&to_iccs(m)), Ok(m), "{s:?}");
        let _ = Position::start().play(m);
    }
}

/// WXF notation: the first byte picks one of the fixed positions (`arbiter_fuzz::FENS`), the
/// rest is read with `parse_wxf`. Never panics; a move it returns is legal, and `to_wxf` writes
/// it in a form that reads back as the same move.
pub fn wxf(data: &[u8]) {
    let Some((pos, rest)) = super::pick(data) else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if let Ok(m) = parse_wxf(pos, text) {
        assert!(
            pos.legal_moves().contains(&m),
            "{text:?} read as {m}, not legal in {}",
            pos.fen()
        );
        let written = to_wxf(pos, m);
        assert_eq!(
            parse_wxf(pos, &written),
            Ok(m),
            "{text:?} read as {m}, written {written:?}, in {}",
            pos.fen()
        );
        let _ = xiangqi::notation::parse_any(pos, text);
    }
}

/// Chinese notation: the first byte picks one of the fixed positions (`arbiter_fuzz::FENS`), the
/// rest is read with `parse_chinese`. Never panics; a move it returns is legal, and `to_chinese` writes
/// it in a form that reads back as the same move.
pub fn chinese(data: &[u8]) {
    let Some((pos, rest)) = super::pick(data) else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if let Ok(m) = parse_chinese(pos, text) {
        assert!(
            pos.legal_moves().contains(&m),
            "{text:?} read as {m}, not legal in {}",
            pos.fen()
        );
        let written = to_chinese(pos, m);
        assert_eq!(
            parse_chinese(pos, &written),
            Ok(m),
            "{text:?} read as {m}, written {written:?}, in {}",
            pos.fen()
        );
        let _ = xiangqi::notation::parse_any(pos, text);
    }
}

/// Random games: the first byte picks a start position from `arbiter_fuzz::FENS`, each further
/// byte indexes the legal move list (modulo its length). Every position reached is checked
/// (list/count/status agree, incremental key = recomputed key, FEN round trip), each move played
/// and every legal move of the final position is written in ICCS, FSF, WXF and Chinese and must
/// read back as itself (checking all moves at every ply ran at only ~160 exec/s), and after the
/// game every move is taken back with `undo_move`, the position and key compared at each step.
pub fn play(data: &[u8]) {
    let Some((start, rest)) = super::pick(data) else { return };
    let mut pos = start.clone();
    let mut stack: Vec<(Move, Undo, Position)> = Vec::new();
    for &b in rest.iter().take(200) {
        super::check_position(&pos, |setup| Position::from_setup(setup).ok());
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        super::check_notations(&pos, m);
        let before = pos.clone();
        let undo = pos.do_move(m);
        assert_eq!(pos.key(), pos.compute_key(), "key after {m} from {}", before.fen());
        assert_eq!(
            pos.clone(),
            before.clone().play(m).expect("listed move plays"),
            "do_move vs play"
        );
        stack.push((m, undo, before));
    }
    super::check_position(&pos, |setup| Position::from_setup(setup).ok());
    for &m in pos.legal_moves().iter() {
        super::check_notations(&pos, m);
    }
    while let Some((m, undo, before)) = stack.pop() {
        pos.undo_move(m, undo);
        assert_eq!(pos, before, "undo {m}");
        assert_eq!(pos.key(), pos.compute_key(), "key after undoing {m}");
    }
    assert_eq!(&pos, start);
}

/// Games judged under every Xiangqi ruleset, ruled at the trigger and with the offender told
/// to vary: the first byte picks a start position from `arbiter_fuzz::FENS`; each further byte
/// either replays the reverse of the mover's previous move when that is legal (high bit set:
/// repetitions, checks and chases come often) or indexes the legal move list. The judges must
/// never panic, must agree on checkmate and stalemate, and every verdict must serialise with
/// its cycle (one classified move per ply of the span).
pub fn judge(data: &[u8]) {
    let Some((start, rest)) = super::pick(data) else { return };
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
        let back = history
            .len()
            .checked_sub(2)
            .map(|i| history[i])
            .map(|m| Move::new(m.to, m.from));
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
        .map(|j| {
            j.verdict()
                .map(|v| v.reason)
                .filter(|r| matches!(r, Reason::Checkmate | Reason::Stalemate))
        })
        .collect();
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "{ends:?}");
}

/// Xiangqi PGN bytes in any encoding: reading never panics; every game that reads writes back
/// as PGN that reads to the same move tree.
pub fn record_xiangqi_pgn(data: &[u8]) {
    for game in XiangqiGames::new(data).take(50) {
        let Ok(game) = game else { return };
        let mut text = String::new();
        records::pgn::write_pgn(&game, Notation::Chinese, &mut text).unwrap();
        let again: Vec<_> = XiangqiGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].tree, game.tree, "{text}");
    }
}

/// Chess PGN bytes: reading never panics; every game writes back and reads to the same tree.
pub fn record_chess_pgn(data: &[u8]) {
    for game in ChessGames::new(data).take(50) {
        let Ok(game) = game else { return };
        if !game.issues.is_empty() {
            continue;
        }
        let mut text = String::new();
        records::chess::write_pgn(&game, &mut text).unwrap();
        let again: Vec<_> = ChessGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].tree, game.tree, "{text}");
    }
}

/// XQF bytes: the reader returns a record or an error, never panics.
pub fn record_xqf(data: &[u8]) {
    let _ = records::xqf::read_xqf(data);
}

/// CBR bytes: the reader returns a record or an error, never panics.
pub fn record_cbr(data: &[u8]) {
    let _ = records::cbr::read_cbr(data);
}

/// CBL bytes: the reader returns a record or an error, never panics.
pub fn record_cbl(data: &[u8]) {
    let _ = records::cbr::read_cbl(data);
}

/// DhtmlXQ text: the reader returns records or errors, never panics.
pub fn record_dhtmlxq(data: &[u8]) {
    let (text, _) = records::text::decode_detected(data);
    let _ = records::dhtmlxq::read_dhtmlxq_blocks(&text);
}

/// `position fen … moves …` lines: read or refused with an error, never a panic; what reads
/// writes back to a line that reads to the same record (less the issue of a refused move).
pub fn record_fen_moves(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else { return };
    if line.contains('\n') {
        return;
    }
    let Ok(mut rec) = read_fen_moves(line) else { return };
    // A move the line could not play is kept as an issue and not written back: what reads again
    // is the moves before it.
    match &mut rec {
        AnyRecord::Xiangqi(r) => r.issues.clear(),
        AnyRecord::Chess(r) => r.issues.clear(),
    }
    let mut out = String::new();
    write_fen_moves(&rec, &mut out).unwrap();
    let again = read_fen_moves(out.trim_end()).unwrap_or_else(|e| panic!("{out:?}: {e:?}"));
    assert_eq!(again, rec);
}

/// A TRF of any bytes: read it, pair the next round and check every round — an error is fine,
/// a panic is not.
pub fn trf_pair(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(trf) = Trf::parse(&text) else { return };
    // Keep runs short: the pairing of big fields is timed elsewhere.
    if trf.players.len() > 40 || dutch::rounds_paired(&trf) > 12 {
        return;
    }
    let _ = dutch::pair_next(&trf);
    let _ = dutch::check(&trf);
}

/// An engine's output, cut into reads of every size: the lines `arbiter match` acts on (and
/// what the `info` lines before each said) are those of a plain model that cuts the whole
/// output at newlines, and nothing panics. Input: four bytes of sizes, then the output
/// (`engine::lines::check_against_model`).
pub fn engine_output(data: &[u8]) {
    engine::lines::check_against_model(data);
}
