//! The real Xiangqi games of `tests/data/records/`: every game judges; the 54 CCPD games
//! that end with no legal move get that verdict at their last ply; result tags are checked
//! against the board.

use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{Judge, JudgeError, Outcome, Reason};
use xiangqi::notation::parse_iccs;
use xiangqi::Position;

struct Game {
    id: String,
    fen: String,
    tag: String,
    board_end: String,
    moves: Vec<xiangqi::Move>,
}

fn tsv(rel: &str, id: usize, fen: usize, tag: Option<usize>, end: Option<usize>, moves: usize) -> Vec<Game> {
    let text = std::fs::read_to_string(testdata::data_dir().join(rel)).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Game {
                id: format!("{rel}#{}", c[id]),
                fen: c[fen].to_string(),
                tag: tag.map_or("", |i| c[i]).to_string(),
                board_end: end.map_or("-", |i| c[i]).to_string(),
                moves: c
                    .get(moves)
                    .unwrap_or(&"")
                    .split_whitespace()
                    .map(|m| parse_iccs(m).unwrap())
                    .collect(),
            }
        })
        .collect()
}

/// Judges a game to its last move or to the first ruling: (the ruling, and how many moves
/// were played after it).
fn judge(g: &Game, rules: Rules) -> (Option<judge::Verdict>, usize) {
    let mut j = XiangqiJudge::new(Position::from_fen(&g.fen).unwrap(), rules);
    for (i, &m) in g.moves.iter().enumerate() {
        match j.push(m) {
            Ok(_) => {}
            Err(JudgeError::AfterEnd { .. }) => return (j.verdict().cloned(), g.moves.len() - i),
            Err(e) => panic!("{}: {e}", g.id),
        }
    }
    (j.verdict().cloned(), 0)
}

#[test]
fn games_ending_with_no_legal_move_are_ruled_so_at_their_last_ply() {
    let games = tsv(
        "records/xiangqi-ccpd/ccpd-sample.expected.tsv",
        0,
        2,
        Some(3),
        Some(5),
        6,
    );
    assert_eq!(games.len(), 340);
    let (mut ended, mut mates, mut contradicted) = (0, 0, 0);
    for g in &games {
        let (verdict, after) = judge(g, Rules::cxa());
        assert_eq!(
            after,
            0,
            "{}: moves after the ruling {:?}",
            g.id,
            verdict.map(|v| v.explanation)
        );
        let expected = match g.board_end.split(' ').next().unwrap() {
            "checkmate" => Some(Reason::Checkmate),
            "stalemate" => Some(Reason::Stalemate),
            _ => None,
        };
        if let Some(reason) = expected {
            mates += 1;
            let v = verdict.as_ref().unwrap_or_else(|| panic!("{}: no verdict", g.id));
            assert_eq!(
                (v.reason, v.ply),
                (reason, g.moves.len()),
                "{}: {}",
                g.id,
                v.explanation
            );
            // The side to move at the end lost.
            let loser_black = g.board_end.contains("black to move");
            let want = if loser_black {
                Outcome::FirstWins
            } else {
                Outcome::SecondWins
            };
            assert_eq!(v.result, want, "{}", g.id);
            match g.tag.as_str() {
                "1-0" | "0-1" => assert_eq!(v.result.pgn(), g.tag, "{}: the tag agrees with the board", g.id),
                _ => contradicted += 1,
            }
        }
        if verdict.is_some() {
            ended += 1;
        }
    }
    assert_eq!(mates, 54);
    // The README of the data: of the 54, 51 tags agree and 3 carry `*`.
    assert_eq!(contradicted, 3);
    // Repetitions players played on from: the rulebook's referee tells the offender to vary
    // (MustVary, the default), so game 17's perpetual checks (plies 45-55) do not end it and
    // its mate at ply 57 stands; an automatic referee ruling at the threefold ends such games
    // early.
    assert_eq!(ended, 54 + draws_and_limits(&games, Rules::cxa()));
    let early = games
        .iter()
        .filter(|g| judge(g, Rules::cxa().at_trigger()).1 > 0)
        .map(|g| g.id.rsplit('#').next().unwrap().to_string())
        .collect::<Vec<_>>();
    assert!(early.contains(&"17".to_string()), "{early:?}");
}

/// Games ruled for another reason than mate (move limit, dead position, a repetition the
/// offender did not vary from).
fn draws_and_limits(games: &[Game], rules: Rules) -> usize {
    games
        .iter()
        .filter(|g| {
            judge(g, rules.clone())
                .0
                .is_some_and(|v| !matches!(v.reason, Reason::Checkmate | Reason::Stalemate))
        })
        .count()
}

#[test]
fn every_xqf_and_cbl_game_judges() {
    let xqf = tsv("records/xiangqi-xqf/xqf-expected.tsv", 0, 10, None, None, 11);
    let cbl = tsv("records/xiangqi-xqf/cbl-expected.tsv", 0, 5, Some(4), None, 7);
    assert_eq!(cbl.len(), 93);
    for g in xqf.iter().chain(&cbl) {
        // BadMoveTest3.xqf's main line holds an illegal 10th ply: only the legal part is judged.
        let mut g2 = Game {
            moves: Vec::new(),
            ..clone(g)
        };
        let mut pos = Position::from_fen(&g.fen).unwrap();
        for &m in &g.moves {
            if !pos.is_legal(m) {
                break;
            }
            pos.play_unchecked(m);
            g2.moves.push(m);
        }
        for rules in [Rules::cxa(), Rules::axf(), Rules::simplified()] {
            let (v, _) = judge(&g2, rules);
            if let Some(v) = v {
                assert!(v.ply <= g2.moves.len(), "{}", g.id);
                assert!(!v.explanation.is_empty());
            }
        }
    }
}

fn clone(g: &Game) -> Game {
    Game {
        id: g.id.clone(),
        fen: g.fen.clone(),
        tag: g.tag.clone(),
        board_end: g.board_end.clone(),
        moves: g.moves.clone(),
    }
}

/// The judge lists the legal moves once a position arises and reads moves from that list; the
/// position generates and reads them from scratch. On every position of the CCPD sample both
/// give the same list, and read every legal move in ICCS, in Fairy-Stockfish's coordinates and
/// in Chinese notation, and some bad texts, the same.
#[test]
fn the_judge_lists_and_reads_moves_as_the_position_does() {
    use game::Game as _;
    let games = tsv(
        "records/xiangqi-ccpd/ccpd-sample.expected.tsv",
        0,
        2,
        Some(3),
        Some(5),
        6,
    );
    let mut checked = 0;
    let agree = |j: &XiangqiJudge, checked: &mut usize| {
        let pos = j.position();
        let mut listed = j.legal_moves_now().unwrap().to_vec();
        let mut fresh = pos.legal_moves().as_slice().to_vec();
        listed.sort_by_key(|m| xiangqi::notation::to_iccs(*m));
        fresh.sort_by_key(|m| xiangqi::notation::to_iccs(*m));
        assert_eq!(listed, fresh, "{}", pos.fen());
        let mut texts: Vec<String> = ["a0a0", "e0e1", "h2e2", "i9i0", "炮二平五", "zz", " h2e2 ", ""]
            .iter()
            .map(|t| t.to_string())
            .collect();
        for &m in &fresh {
            let iccs = xiangqi::notation::to_iccs(m);
            // The move's reverse, mostly not legal.
            texts.push(format!("{}{}", &iccs[2..], &iccs[..2]));
            let b = iccs.as_bytes();
            let rank = |r: u8| (r - b'0' + 1).to_string();
            texts.push(format!("{}{}{}{}", b[0] as char, rank(b[1]), b[2] as char, rank(b[3])));
            texts.push(iccs);
            texts.push(pos.notation(m));
        }
        for t in &texts {
            assert_eq!(
                j.parse_move(t),
                game::Game::parse_move(pos, t),
                "{t:?} in {}",
                pos.fen()
            );
            *checked += 1;
        }
    };
    for g in games.iter().take(120) {
        let mut j = XiangqiJudge::new(Position::from_fen(&g.fen).unwrap(), Rules::cxa());
        for &m in &g.moves {
            agree(&j, &mut checked);
            if j.push(m).is_err() || j.verdict().is_some() {
                break;
            }
        }
        agree(&j, &mut checked);
    }
    assert!(checked > 100_000, "{checked}");
}
