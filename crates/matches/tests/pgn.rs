//! The engine-match PGN as rating tools and other readers take it: the PGN standard's
//! `Termination`, the ending in the last move's comment as fastchess words it, `White` and
//! `Black` beside `Red` (points 17 and 18 of issue 26), and the cchess style.

use std::time::{Duration, SystemTime};

use engine::Score;
use game::{BySide, Game, Kind, Side};
use judge::{Judge, Outcome};
use matches::pgn::{ending_words, write, GameRecord, MoveInfo, PgnOptions};
use matches::play::{engine_rules, Control};
use records::pgn::PgnStyle;
use referee::{Command, Referee};

/// Scholar's mate between two "engines", each move with an info, after a one-move book.
fn scholars_mate(style: PgnStyle) -> String {
    let rules = judge::chess::ChessRules::by_name("fide").unwrap();
    let mut judge = judge::chess::ChessJudge::new(chess::Position::start(), rules);
    let root = judge.position().clone();
    let e4 = root.parse_move("e2e4").unwrap();
    judge.push(e4).unwrap();
    let mut r = Referee::new(judge, engine_rules(referee::clock::TimeControl::unlimited()));
    r.apply(0, Side::Second, Command::Start);
    let mut infos = Vec::new();
    for (i, m) in ["e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"].iter().enumerate() {
        let side = if i % 2 == 0 { Side::Second } else { Side::First };
        r.apply(i as u64 + 1, side, Command::Move(m.to_string()));
        infos.push(MoveInfo {
            score: Some(Score::Cp(10 * i as i32)),
            depth: Some(5),
            nodes: None,
            elapsed: Duration::from_millis(12),
        });
    }
    let e = r.ending().expect("mate").clone();
    let control = Control::default();
    let tags = [
        ("Event".to_string(), "m".to_string()),
        ("White".to_string(), "A".to_string()),
        ("Black".to_string(), "B".to_string()),
    ];
    write(
        &r,
        &GameRecord {
            tags: &tags,
            root: &root,
            book: &[e4],
            moves: &infos,
            result: e.result,
            termination: e.verdict.as_ref().unwrap().reason.code(),
            runner_end: None,
            controls: BySide::both(&control),
            started: SystemTime::UNIX_EPOCH,
            ended: SystemTime::UNIX_EPOCH,
            duration: Duration::ZERO,
            options: PgnOptions {
                style,
                ..PgnOptions::default()
            },
        },
    )
}

#[test]
fn point_17_the_last_move_comment_ends_with_the_ending_as_fastchess_words_it() {
    let pgn = scholars_mate(PgnStyle::Standard);
    let flat = pgn.replace('\n', " ");
    assert!(flat.contains("4. Qxf7# {+0.50/5 0.012s, White mates} 1-0 "), "{pgn}");
    assert!(pgn.contains("1. e4 {book} 1... e5 {0.00/5 0.012s}"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]\n"), "{pgn}");
    assert!(
        pgn.contains("[TerminationDetails \"checkmate: Black is checkmated"),
        "{pgn}"
    );
    // The referee's explanation is a tag, not a comment that python-chess would join to the
    // last move's.
    assert_eq!(pgn.matches('{').count(), 7, "{pgn}");
    assert!(pgn.starts_with("[Event \"m\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"), "{pgn}");
}

#[test]
fn point_17_terminations_are_the_pgn_standards_values() {
    let x = Kind::Xiangqi;
    let cases = [
        (Outcome::FirstWins, "checkmate", "normal", "Red mates"),
        (Outcome::SecondWins, "time", "time forfeit", "Red loses on time"),
        (
            Outcome::SecondWins,
            "illegal_move",
            "rules infraction",
            "Red makes an illegal move",
        ),
        (
            Outcome::FirstWins,
            "perpetual_check",
            "rules infraction",
            "Black loses by perpetual check",
        ),
        (
            Outcome::SecondWins,
            "forbidden_repetition",
            "rules infraction",
            "Red loses by forbidden repetition",
        ),
        (Outcome::Draw, "repetition_draw", "normal", "Draw by repetition"),
        (
            Outcome::Draw,
            "adjudicated_draw",
            "adjudication",
            "Draw by adjudication",
        ),
        (Outcome::Draw, "max_moves", "adjudication", "Draw by adjudication"),
        (
            Outcome::FirstWins,
            "adjudicated_resign",
            "adjudication",
            "Red wins by adjudication",
        ),
        (Outcome::SecondWins, "crash", "abandoned", "Red disconnects"),
        (Outcome::FirstWins, "stalemate", "normal", "Red wins by stalemate"),
        (Outcome::Ongoing, "error", "abandoned", "Game aborted"),
    ];
    for (result, code, termination, words) in cases {
        assert_eq!(
            ending_words(x, result, code),
            (termination, words.to_string()),
            "{code}"
        );
    }
    assert_eq!(
        ending_words(Kind::Chess, Outcome::Draw, "stalemate"),
        ("normal", "Draw by stalemate".to_string())
    );
    assert_eq!(
        ending_words(Kind::Chess, Outcome::Draw, "threefold_repetition"),
        ("normal", "Draw by 3-fold repetition".to_string())
    );
    const STANDARD: [&str; 8] = [
        "abandoned",
        "adjudication",
        "death",
        "emergency",
        "normal",
        "rules infraction",
        "time forfeit",
        "unterminated",
    ];
    let codes = judge::Reason::ALL
        .iter()
        .map(|r| r.code())
        .chain([
            "agreement",
            "resignation",
            "time",
            "lateness",
            "illegal_move",
            "technical_fouls",
        ])
        .chain([
            "clock_presses",
            "false_claims",
            "refused_rules",
            "aborted",
            "crash",
            "error",
        ])
        .chain([
            "adjudicated_tablebase",
            "adjudicated_resign",
            "adjudicated_draw",
            "max_moves",
        ]);
    for code in codes {
        for result in [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw] {
            let (t, _) = ending_words(Kind::Chess, result, code);
            assert!(STANDARD.contains(&t), "{code}: {t}");
        }
    }
}

#[test]
fn point_17_xiangqi_pgn_names_the_players_as_white_and_black_beside_red() {
    let rules = judge::xiangqi::Rules::by_name("cxa").unwrap();
    let judge = judge::xiangqi::XiangqiJudge::new(xiangqi::Position::start(), rules);
    let root = judge.position().clone();
    let mut r = Referee::new(judge, engine_rules(referee::clock::TimeControl::unlimited()));
    r.apply(0, Side::First, Command::Start);
    r.apply(1, Side::First, Command::Move("h2e2".into()));
    let control = Control::default();
    let tags = [
        ("Event".to_string(), "m".to_string()),
        ("Red".to_string(), "fsf-a".to_string()),
        ("Black".to_string(), "fsf-b".to_string()),
    ];
    let pgn = write(
        &r,
        &GameRecord {
            tags: &tags,
            root: &root,
            book: &[],
            moves: &[MoveInfo::default()],
            result: Outcome::SecondWins,
            termination: "time",
            runner_end: Some("red's engine did not move in time and loses"),
            controls: BySide::both(&control),
            started: SystemTime::UNIX_EPOCH,
            ended: SystemTime::UNIX_EPOCH,
            duration: Duration::ZERO,
            options: PgnOptions::default(),
        },
    );
    let head: Vec<&str> = pgn.lines().take(9).collect();
    assert_eq!(
        head,
        [
            "[Event \"m\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"fsf-a\"]",
            "[Black \"fsf-b\"]",
            "[Result \"0-1\"]",
            "[Red \"fsf-a\"]",
            "[Variant \"xiangqi\"]",
        ]
    );
    assert!(pgn.contains("[Termination \"time forfeit\"]\n"), "{pgn}");
    assert!(
        pgn.contains("1. 炮二平五 {/0 0.000s, Red loses on time} 0-1\n"),
        "{pgn}"
    );
}

#[test]
fn point_18_the_cchess_style_writes_the_moves_alone() {
    let pgn = scholars_mate(PgnStyle::Cchess);
    // Chess is chess: the style is for Xiangqi readers.
    assert!(pgn.contains("{book}"), "{pgn}");
    let rules = judge::xiangqi::Rules::by_name("cxa").unwrap();
    let judge = judge::xiangqi::XiangqiJudge::new(xiangqi::Position::start(), rules);
    let root = judge.position().clone();
    let mut r = Referee::new(judge, engine_rules(referee::clock::TimeControl::unlimited()));
    r.set_live_notation(false);
    r.apply(0, Side::First, Command::Start);
    // Red's advisors end on one file (d0, d2): the front one's move is 前仕退五.
    let moves = ["d0e1", "h9g7", "e1d2", "g7h9", "f0e1", "h9g7", "e1d0", "g7h9", "d2e1"];
    for (i, m) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { Side::First } else { Side::Second };
        r.apply(i as u64 + 1, side, Command::Move(m.to_string()));
    }
    let control = Control::default();
    let tags = [("Red".to_string(), "A".to_string())];
    let infos = vec![MoveInfo::default(); moves.len()];
    let mut record = GameRecord {
        tags: &tags,
        root: &root,
        book: &[],
        moves: &infos,
        result: Outcome::Ongoing,
        termination: "error",
        runner_end: Some("stopped"),
        controls: BySide::both(&control),
        started: SystemTime::UNIX_EPOCH,
        ended: SystemTime::UNIX_EPOCH,
        duration: Duration::ZERO,
        options: PgnOptions {
            style: PgnStyle::Cchess,
            ..PgnOptions::default()
        },
    };
    let pgn = write(&r, &record);
    assert!(!pgn.contains('{'), "{pgn}");
    assert!(pgn.contains("[Termination \"abandoned\"]\n"), "{pgn}");
    assert!(pgn.contains("5. 前仕退五"), "{pgn}");
    assert!(
        pgn.contains("[White \"A\"]\n") && pgn.contains("[Red \"A\"]\n"),
        "{pgn}"
    );
    record.options.style = PgnStyle::Standard;
    let pgn = write(&r, &record);
    assert!(pgn.contains("5. 仕六退五"), "{pgn}");
}
