//! The chess judge on hand-made positions, one or more for every way a game ends or a draw
//! becomes claimable, and on the 438 real games of the lichess sample.

use chess::shakmaty::{self, Square};
use chess::Position;
use game::{Game, Kind};
use judge::chess::{ChessJudge, ChessRules, Proof};
use judge::{judge_game, Judge, JudgeError, Outcome, Reason, Verdict};

fn judge_from(fen: &str) -> ChessJudge {
    ChessJudge::new(Position::from_fen(fen).unwrap(), ChessRules::fide())
}

fn start() -> ChessJudge {
    ChessJudge::new(Position::start(), ChessRules::fide())
}

/// Plays `moves` (UCI or SAN, space-separated); returns the verdict of the last one.
fn play(j: &mut ChessJudge, moves: &str) -> Option<Verdict> {
    let mut last = None;
    for text in moves.split_whitespace() {
        let m = j.position().parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        last = j.push(m).unwrap_or_else(|e| panic!("{text}: {e}")).cloned();
    }
    last
}

const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn fools_mate() {
    let mut j = start();
    assert_eq!(play(&mut j, "f2f3 e7e5 g2g4"), None);
    let v = play(&mut j, "d8h4").expect("mate ends the game");
    assert_eq!(
        (v.result, v.reason, v.ply, v.claim),
        (Outcome::SecondWins, Reason::Checkmate, 4, false)
    );
    assert_eq!(v.explanation, "White is checkmated (FIDE 5.1.1)");
    assert_eq!(v.ruleset, "fide");
    assert_eq!(v.to_json(Kind::Chess)["result"], "black");
    assert_eq!(j.status(), Some(v));
    assert_eq!(j.claimable(), None);
    assert!(j.legal_moves().is_empty());
    let e2e4 = Position::start().parse_move("e2e4").unwrap();
    assert_eq!(j.push(e2e4), Err(JudgeError::AfterEnd { ply: 5, ended_at: 4 }));
}

#[test]
fn illegal_moves_are_refused_with_their_ply() {
    let mut j = start();
    play(&mut j, "e2e4");
    let e7e4 = shakmaty::Move::Normal {
        role: shakmaty::Role::Pawn,
        from: Square::E7,
        capture: None,
        to: Square::E4,
        promotion: None,
    };
    assert_eq!(
        j.push(e7e4),
        Err(JudgeError::Illegal {
            ply: 2,
            mv: "e7e4".into()
        })
    );
    // A move of the wrong side.
    let d2d4 = Position::start().parse_move("d2d4").unwrap();
    assert_eq!(
        j.push(d2d4),
        Err(JudgeError::Illegal {
            ply: 2,
            mv: "d2d4".into()
        })
    );
    assert_eq!(j.ply(), 1);
}

#[test]
fn stalemate_is_a_draw() {
    let mut j = judge_from("k7/8/8/2Q5/8/8/8/K7 w - - 0 1");
    let v = play(&mut j, "Qb6").unwrap();
    assert_eq!((v.result, v.reason, v.ply), (Outcome::Draw, Reason::Stalemate, 1));
    assert_eq!(
        v.explanation,
        "Black is not in check and has no legal move: stalemate (FIDE 5.2.1)"
    );
}

#[test]
fn a_start_that_is_already_over_has_its_verdict_at_ply_zero() {
    let j = judge_from("k7/8/1Q6/8/8/8/8/K7 b - - 0 1");
    assert_eq!(j.verdict().map(|v| (v.reason, v.ply)), Some((Reason::Stalemate, 0)));
    let j = judge_from("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        j.verdict().map(|v| (v.result, v.reason)),
        Some((Outcome::FirstWins, Reason::Checkmate))
    );
}

#[test]
fn threefold_repetition_by_knight_shuffles_is_a_claim() {
    let mut j = start();
    // Nothing to claim while the start has stood twice and no move makes it three times.
    for m in format!("{SHUFFLE} Nf3 Nf6 Ng1").split_whitespace() {
        assert_eq!(j.claimable(), None, "at ply {}", j.ply());
        play(&mut j, m);
    }
    // Ply 7: black may claim by announcing Ng8, which makes the start stand a third time.
    let ng8 = j.position().parse_move("Ng8").unwrap();
    let v = j.claimable().expect("claim by announcing the move");
    assert_eq!(
        (v.result, v.reason, v.ply, v.claim),
        (Outcome::Draw, Reason::ThreefoldRepetition, 7, true)
    );
    assert_eq!(
        v.explanation,
        "threefold repetition: black may claim a draw by announcing Ng8, after which the position of plies 0 and 4 \
         stands for the third time (FIDE 9.2.1.1)"
    );
    assert_eq!(j.claim_with(ng8), Some(v));
    let nh5 = j.position().parse_move("Nh5").unwrap();
    assert_eq!(j.claim_with(nh5), None);
    // The claim does not end the game.
    assert_eq!(play(&mut j, "Ng8"), None);
    let v = j.claimable().expect("the position stands for the third time");
    assert_eq!((v.reason, v.ply, v.claim), (Reason::ThreefoldRepetition, 8, true));
    assert_eq!(
        v.explanation,
        "threefold repetition: white may claim a draw; the same position stood at plies 0, 4 and 8 (FIDE 9.2.1.2)"
    );
    assert_eq!(j.occurrences(), 3);
    assert_eq!(j.status(), Some(v));
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let mut j = start();
    assert_eq!(play(&mut j, &[SHUFFLE; 3].join(" ")), None);
    let v = play(&mut j, SHUFFLE).expect("fifth occurrence");
    assert_eq!(
        (v.result, v.reason, v.ply, v.claim),
        (Outcome::Draw, Reason::FivefoldRepetition, 16, false)
    );
    assert_eq!(
        v.explanation,
        "the same position stood for the fifth time at plies 0, 4, 8, 12 and 16 (FIDE 9.6.1)"
    );
}

#[test]
fn automatic_draws_seed_001_makes_threefold_repetition_and_fifty_moves_automatic() {
    let mut j = ChessJudge::new(Position::start(), ChessRules::automatic_draws());
    assert_eq!(play(&mut j, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"), None);
    assert_eq!(j.claimable(), None, "no claims under seed 001");
    let v = play(&mut j, "Ng8").unwrap();
    assert_eq!(
        (v.reason, v.ply, v.claim, v.ruleset.as_str()),
        (Reason::ThreefoldRepetition, 8, false, "automatic-draws")
    );
    assert!(
        v.explanation.contains("third time at plies 0, 4 and 8 (seed 001"),
        "{}",
        v.explanation
    );

    let fen = "7k/8/8/8/8/8/R7/K7 w - - 98 80";
    let mut j = ChessJudge::new(Position::from_fen(fen).unwrap(), ChessRules::automatic_draws());
    assert_eq!(play(&mut j, "Ra3"), None);
    let v = play(&mut j, "Kg8").unwrap();
    assert_eq!((v.reason, v.ply, v.claim), (Reason::FiftyMoveRule, 2, false));
}

#[test]
fn fifty_moves_is_a_claim_now_or_by_announcing_the_move() {
    let mut j = judge_from("7k/8/8/8/8/8/R7/K7 w - - 98 80");
    assert_eq!(j.claimable(), None);
    play(&mut j, "Ra3");
    let v = j
        .claimable()
        .expect("black's next quiet move completes the fifty moves");
    assert_eq!((v.reason, v.ply, v.claim), (Reason::FiftyMoveRule, 1, true));
    assert!(
        v.explanation
            .starts_with("50-move rule: black may claim a draw by announcing K"),
        "{}",
        v.explanation
    );
    assert!(v.explanation.ends_with("(FIDE 9.3.1)"));
    play(&mut j, "Kg8");
    let v = j.claimable().unwrap();
    assert_eq!(
        v.explanation,
        "50-move rule: white may claim a draw; 50 moves by each player without a capture or a pawn move (FIDE 9.3.2)"
    );
    assert_eq!(j.verdict(), None);
}

#[test]
fn seventy_five_moves_end_the_game_unless_the_last_move_mates() {
    let mut j = judge_from("7k/8/8/8/8/8/R7/K7 w - - 148 100");
    play(&mut j, "Ra3");
    let v = play(&mut j, "Kg8").unwrap();
    assert_eq!(
        (v.result, v.reason, v.ply, v.claim),
        (Outcome::Draw, Reason::SeventyFiveMoveRule, 2, false)
    );
    assert_eq!(
        v.explanation,
        "75 moves by each player without a capture or a pawn move (FIDE 9.6.2)"
    );

    // Ra8# is the 150th ply without a capture or pawn move: checkmate takes precedence.
    let mut j = judge_from("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    let v = play(&mut j, "Ra8").unwrap();
    assert_eq!((v.result, v.reason), (Outcome::FirstWins, Reason::Checkmate));
    let mut j = judge_from("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    assert_eq!(play(&mut j, "Ra2").map(|v| v.reason), Some(Reason::SeventyFiveMoveRule));
}

/// Plays `Kxd2` (taking the piece on d2) and returns the verdict.
fn capture_on_d2(fen: &str) -> Option<Verdict> {
    play(&mut judge_from(fen), "Kxd2")
}

#[test]
fn insufficient_material_is_a_dead_position() {
    for (fen, material) in [
        ("8/8/8/8/3k4/8/3r4/4K3 w - - 0 1", "K v K"),
        ("8/8/8/4k3/8/8/3n4/2B1K3 w - - 0 1", "KB v K"),
        ("8/8/8/4k3/8/8/3b4/1N2K3 w - - 0 1", "KN v K"),
        ("8/8/5b2/4k3/8/8/3n4/2B1K3 w - - 0 1", "KB v KB"),
    ] {
        let v = capture_on_d2(fen).unwrap_or_else(|| panic!("{material} is dead"));
        assert_eq!(
            (v.result, v.reason, v.ply, v.claim),
            (Outcome::Draw, Reason::DeadPosition, 1, false)
        );
        assert_eq!(
            v.explanation,
            format!(
                "neither player can checkmate by any series of legal moves (insufficient material, {material}) \
                 (FIDE 5.2.2)"
            )
        );
    }
    // A bare-kings start is dead at once.
    let j = judge_from("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    assert_eq!(j.verdict().map(|v| (v.reason, v.ply)), Some((Reason::DeadPosition, 0)));
}

#[test]
fn low_material_that_can_still_mate_is_not_dead() {
    // Bishops on opposite colours: a helpmate exists (a king cornered behind its own bishop).
    assert_eq!(capture_on_d2("8/8/4b3/4k3/8/8/3n4/2B1K3 w - - 0 1"), None);
    // A knight against a pawn: the pawn can block its own king in.
    assert_eq!(capture_on_d2("8/8/8/4k3/7p/8/3b4/1N2K3 w - - 0 1"), None);
    // Two knights.
    assert_eq!(capture_on_d2("8/8/8/4k3/8/8/3b4/1NN1K3 w - - 0 1"), None);
}

#[test]
fn a_locked_pawn_chain_is_a_dead_position() {
    // h3-h4 locks the last pawn; no king can pass or take anything.
    let mut j = judge_from("8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/8 w - - 0 1");
    assert_eq!(j.verdict(), None);
    let v = play(&mut j, "h4").expect("dead");
    assert_eq!((v.reason, v.ply), (Reason::DeadPosition, 1));
    assert_eq!(
        v.explanation,
        "neither player can checkmate by any series of legal moves (the pawns are locked and no piece can ever give \
         check past them) (FIDE 5.2.2)"
    );
    let d = j.dead().unwrap();
    assert_eq!((d.white, d.black), (Proof::LockedPawns, Proof::LockedPawns));

    // With a bishop that stays on the colour of its own blocked pawns.
    let mut j = judge_from("8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/2B5 w - - 0 1");
    assert_eq!(play(&mut j, "h4").map(|v| v.reason), Some(Reason::DeadPosition));
}

#[test]
fn a_double_step_can_lock_the_chain() {
    // ...h5 locks the h-file; no white pawn can take en passant.
    let mut j = judge_from("8/7p/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 b - - 0 1");
    assert_eq!(
        play(&mut j, "h5").map(|v| (v.reason, v.ply)),
        Some((Reason::DeadPosition, 1))
    );
    // Here gxh6 en passant is possible and the game goes on; once white declines, the chain
    // is locked for good.
    let mut j = judge_from("8/7p/4k1p1/1p1p1pP1/1P1P1P1P/4K3/8/8 b - - 0 1");
    assert_eq!(play(&mut j, "h5"), None);
    assert_eq!(
        play(&mut j, "Kd3").map(|v| (v.reason, v.ply)),
        Some((Reason::DeadPosition, 2))
    );
}

#[test]
fn a_locked_chain_is_dead_when_a_search_of_every_position_finds_no_mate() {
    // Black's bishop can check the white king behind the wall but can never mate it alone.
    let mut j = judge_from("8/8/4k3/1p1p1p1p/1P1P1P2/7P/2b1K3/8 w - - 0 1");
    let v = play(&mut j, "h4").expect("dead");
    assert_eq!(v.reason, Reason::DeadPosition);
    assert!(
        v.explanation.starts_with(
            "neither player can checkmate by any series of legal moves (white: the pawns are locked and no piece can \
             ever give check past them; black: all "
        ),
        "{}",
        v.explanation
    );
    assert!(v
        .explanation
        .ends_with(" positions reachable by legal moves were examined and none is mate) (FIDE 5.2.2)"));
    assert!(matches!(j.dead().unwrap().black, Proof::Exhausted { .. }));
}

#[test]
fn a_locked_chain_with_a_way_through_is_not_dead() {
    // The a- to c-files are open: a king can walk round and take the d-pawn.
    let mut j = judge_from("8/8/4k3/3p1p1p/3P1P2/4K2P/8/8 w - - 0 1");
    assert_eq!(play(&mut j, "h4"), None);
    assert_eq!(j.dead(), None);
    // A bishop that can take a black pawn frees a white one.
    let mut j = judge_from("8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/3B4 w - - 0 1");
    assert_eq!(play(&mut j, "h4"), None);
}

#[test]
fn en_passant_makes_a_position_different_only_when_the_capture_is_legal() {
    // After ...d5 white may take en passant: that position cannot recur.
    let shuffle = "Ke2 Ke7 Ke1 Ke8";
    let mut j = judge_from("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut j, "d5");
    play(&mut j, &format!("{shuffle} {shuffle}"));
    assert_eq!(j.ply(), 9);
    assert_eq!(j.occurrences(), 2, "the first one had an en-passant capture");
    play(&mut j, shuffle);
    assert_eq!(j.occurrences(), 3);
    assert!(j.claimable().unwrap().explanation.contains("plies 5, 9 and 13"));

    // Without a pawn to take, the same moves repeat the position from ply 1 on.
    let mut j = judge_from("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
    play(&mut j, "d5");
    play(&mut j, &format!("{shuffle} {shuffle}"));
    assert_eq!(j.occurrences(), 3);
    assert!(j.claimable().unwrap().explanation.contains("plies 1, 5 and 9"));

    // An en-passant capture that would expose the king does not count either: after ...d5 the
    // pawn on e5 is pinned against the king on a5 by the rook on h5.
    let mut j = judge_from("4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
    play(&mut j, "d5");
    play(&mut j, "Ka4 Ke7 Ka5 Ke8");
    assert_eq!(j.occurrences(), 2);
}

#[test]
fn castling_rights_make_a_position_different() {
    let mut j = start();
    play(&mut j, SHUFFLE);
    assert_eq!(j.occurrences(), 2);
    // The rooks go and come back: the placement is the start's, but without kingside castling.
    play(&mut j, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8");
    assert_eq!(
        j.position().fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qq - 12 7"
    );
    assert_eq!(j.occurrences(), 1);
}

#[test]
fn judge_game_gives_the_claim_in_the_final_position() {
    let moves: Vec<_> = {
        let mut p = Position::start();
        "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
            .split_whitespace()
            .map(|t| {
                let m = p.parse_move(t).unwrap();
                p.play(m);
                m
            })
            .collect()
    };
    let v = judge_game(&mut start(), &moves).unwrap();
    assert_eq!((v.reason, v.claim, v.ply), (Reason::ThreefoldRepetition, true, 8));
    let v = judge_game(&mut start(), &moves[..2]).unwrap();
    assert_eq!((v.result, v.reason), (Outcome::Ongoing, Reason::NotOver));
}

mod lichess {
    use super::*;
    use records::chess::{start_position, ChessGames};
    use std::collections::HashMap;
    use std::fs::File;
    use std::io::BufReader;

    const DIR: &str = "records/chess-lichess";

    /// The expected board outcome and final FEN by game number.
    fn expected() -> HashMap<usize, (usize, String, String)> {
        let text = std::fs::read_to_string(
            testdata::data_dir()
                .join(DIR)
                .join("lichess-2025-05-sample.expected.tsv"),
        )
        .unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (n, plies, outcome, fen) = (col("n"), col("plies"), col("board_outcome"), col("final_fen"));
        lines
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[n].parse().unwrap(),
                    (f[plies].parse().unwrap(), f[outcome].to_string(), f[fen].to_string()),
                )
            })
            .collect()
    }

    #[test]
    fn every_game_judges_and_ends_as_the_board_says() {
        let expected = expected();
        let file = File::open(testdata::data_dir().join(DIR).join("lichess-2025-05-sample.pgn")).unwrap();
        let (mut games, mut mates, mut stalemates, mut dead) = (0, 0, 0, 0);
        for (i, record) in ChessGames::new(BufReader::new(file)).enumerate() {
            let record = record.unwrap();
            let n = i + 1;
            assert!(record.issues.is_empty(), "game {n}: {:?}", record.issues);
            let (plies, outcome, fen) = &expected[&n];
            let moves: Vec<_> = record.tree.main_line().copied().collect();
            assert_eq!(moves.len(), *plies, "game {n}");
            let mut j = ChessJudge::new(start_position(&record).into(), ChessRules::fide());
            let v = judge_game(&mut j, &moves).unwrap_or_else(|e| panic!("game {n}: {e}"));
            assert_eq!(&j.position().fen(), fen, "game {n}");
            let expect = match outcome.split(' ').next().unwrap() {
                "checkmate" => Some(Reason::Checkmate),
                "stalemate" => Some(Reason::Stalemate),
                "insufficient_material" => Some(Reason::DeadPosition),
                "-" => None,
                other => panic!("game {n}: unknown outcome {other}"),
            };
            match expect {
                Some(reason) => {
                    assert_eq!(
                        (v.reason, v.ply, v.claim),
                        (reason, *plies, false),
                        "game {n}: {}",
                        v.explanation
                    );
                    let result = outcome.split(' ').nth(1).unwrap();
                    assert_eq!(v.result.pgn(), result, "game {n}");
                    mates += usize::from(reason == Reason::Checkmate);
                    stalemates += usize::from(reason == Reason::Stalemate);
                    dead += usize::from(reason == Reason::DeadPosition);
                }
                None => assert_eq!(j.verdict(), None, "game {n}: {}", v.explanation),
            }
            games += 1;
        }
        assert_eq!((games, mates, stalemates, dead), (438, 103, 4, 2));
    }

    /// The judge reads a move from the legal moves it holds; the position reads it from
    /// scratch. On every position of the sample games (castling, promotions, en passant), and
    /// on a Chess960 start, both read every legal move's forms and some bad texts the same.
    #[test]
    fn the_judge_reads_moves_as_the_position_does() {
        use shakmaty::CastlingMode;
        let agree = |j: &ChessJudge, checked: &mut usize| {
            let pos = j.position();
            let mut texts: Vec<String> = ["a1a1", "e7e8", "e2e4q", "0000", "O-O", "Nf3", "zz", " e2e4 ", ""]
                .iter()
                .map(|t| t.to_string())
                .collect();
            for &m in j.legal_moves() {
                for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                    let uci = m.to_uci(mode).to_string();
                    // A promotion without its piece, and a move with one it may not have.
                    texts.push(uci[..4].to_string());
                    texts.push(format!("{}n", &uci[..4]));
                    texts.push(uci);
                }
                texts.push(pos.notation(m));
            }
            for t in &texts {
                let (a, b) = (j.parse_move(t), pos.parse_move(t));
                assert_eq!(a, b, "{t:?} in {}", pos.fen());
                *checked += 1;
            }
        };
        let file = File::open(testdata::data_dir().join(DIR).join("lichess-2025-05-sample.pgn")).unwrap();
        let mut checked = 0;
        for record in ChessGames::new(BufReader::new(file)).take(60) {
            let record = record.unwrap();
            let mut j = ChessJudge::new(start_position(&record).into(), ChessRules::fide());
            for &m in record.tree.main_line() {
                agree(&j, &mut checked);
                j.push(m).unwrap();
            }
            agree(&j, &mut checked);
        }
        // Chess960 castling both ways, the king-takes-rook form being the position's own.
        let fischer = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1").unwrap();
        assert_eq!(fischer.castling_mode(), CastlingMode::Chess960);
        let mut j = ChessJudge::new(fischer, ChessRules::fide());
        for ply in 0..12 {
            agree(&j, &mut checked);
            let moves = j.legal_moves();
            let m = moves[(ply * 7) % moves.len()];
            j.push(m).unwrap();
        }
        agree(&j, &mut checked);
        assert!(checked > 100_000, "{checked}");
    }
}
