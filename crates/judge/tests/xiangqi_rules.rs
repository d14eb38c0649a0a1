//! The Xiangqi rulesets' parameters at work: self-check losing, the move limit and how checks
//! count toward it, the seed 002 pawn exception, the repetition count, the names of the
//! patterns and what a verdict carries.

use judge::xiangqi::{CheckCounting, Rules, XiangqiJudge};
use judge::{final_verdict, judge_game, Judge, JudgeError, Outcome, Reason, Verdict};
use xiangqi::notation::parse_iccs;
use xiangqi::Position;

fn moves(text: &str) -> Vec<xiangqi::Move> {
    text.split_whitespace().map(|m| parse_iccs(m).unwrap()).collect()
}

fn judge(fen: &str, list: &str, rules: Rules) -> Result<Verdict, JudgeError> {
    judge_game(
        &mut XiangqiJudge::new(Position::from_fen(fen).unwrap(), rules),
        &moves(list),
    )
}

#[test]
fn self_check_loses_under_cxa_and_is_refused_under_axf() {
    // The red horse on e1 shields its king from the black rook on e8.
    let fen = "3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1";
    let v = judge(fen, "e1c2", Rules::cxa()).unwrap();
    assert_eq!((v.result, v.reason, v.ply), (Outcome::SecondWins, Reason::SelfCheck, 1));
    assert!(v.explanation.contains("自杀"), "{}", v.explanation);
    assert_eq!(
        judge(fen, "e1c2", Rules::axf()),
        Err(JudgeError::Illegal {
            ply: 1,
            mv: "e1c2".to_string()
        })
    );
    // A move no piece can make is refused under every ruleset.
    assert!(matches!(
        judge(fen, "e1e5", Rules::cxa()),
        Err(JudgeError::Illegal { ply: 1, .. })
    ));
}

#[test]
fn facing_kings_loses_under_seed_002() {
    let fen = "3k5/9/9/9/9/9/9/9/8R/4K4 w - - 0 1";
    let v = judge(fen, "e0d0", Rules::simplified()).unwrap();
    assert_eq!((v.result, v.reason), (Outcome::SecondWins, Reason::SelfCheck));
}

#[test]
fn the_move_limit_is_automatic_under_cxa_and_claimed_under_axf_and_seed_002() {
    // 119 plies without a capture; one more reaches 60 rounds.
    let fen = "3k5/9/9/p8/9/9/P8/9/4A4/3AK4 w - - 119 60";
    let v = judge(fen, "e1f2", Rules::cxa()).unwrap();
    assert_eq!(
        (v.result, v.reason, v.claim),
        (Outcome::Draw, Reason::NaturalMoveLimit, false)
    );
    for rules in [Rules::axf(), Rules::simplified()] {
        let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), rules);
        assert_eq!(j.push(parse_iccs("e1f2").unwrap()).unwrap(), None, "play goes on");
        let claim = j.claimable().expect("a claim");
        assert_eq!((claim.reason, claim.claim), (Reason::NaturalMoveLimit, true));
        assert_eq!(final_verdict(&j).result, Outcome::Draw);
    }
    // A reduced limit, as an organiser may set (可根据比赛等级酌减).
    let mut short = Rules::cxa();
    short.natural_limit = 4;
    let v = judge(
        Position::start().fen().to_string().as_str(),
        "h2e2 h9g7 h0g2 i9h9",
        short,
    )
    .unwrap();
    assert_eq!((v.reason, v.ply), (Reason::NaturalMoveLimit, 4));
}

#[test]
fn checks_beyond_the_tenth_do_not_count_where_the_ruleset_says() {
    // Red's rook checks on every move and the king steps back and forth, 90 plies after the
    // last capture. Under AXF counting only red's first ten checks and black's replies count
    // (110 plies); under CXA every ply counts and ply 30 reaches 120.
    let fen = "5k3/9/9/9/9/9/9/9/9/R2K5 w - - 90 46";
    let shuffle = ["a9a8", "f8f9", "a8a9", "f9f8"];
    let list: Vec<&str> = ["a0a9", "f9f8"]
        .into_iter()
        .chain(shuffle.iter().copied().cycle())
        .take(60)
        .collect();
    let mut axf = Rules::axf();
    axf.repetition_count = 1000; // no repetition ruling in this test
    assert_eq!(axf.check_counting, CheckCounting::Beyond(10));
    let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), axf);
    for m in &list {
        assert_eq!(j.push(parse_iccs(m).unwrap()).unwrap(), None);
    }
    assert!(
        j.claimable().is_none(),
        "checks beyond the tenth must not count toward the limit"
    );
    let mut cxa = Rules::cxa();
    cxa.repetition_count = 1000;
    let v = judge(fen, &list[..30].join(" "), cxa).unwrap();
    assert_eq!((v.reason, v.ply, v.claim), (Reason::NaturalMoveLimit, 30, false));
}

#[test]
fn pawn_checks_are_not_perpetual_check_under_seed_002() {
    // XQ-FSF-08: black checks on every move with a pawn.
    let fen = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
    let list = "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2";
    let v = judge(fen, list, Rules::cxa().at_trigger()).unwrap();
    assert_eq!((v.result, v.reason), (Outcome::FirstWins, Reason::PerpetualCheck));
    let v = judge(fen, list, Rules::simplified().at_trigger()).unwrap();
    assert_eq!(
        (v.result, v.reason),
        (Outcome::Draw, Reason::RepetitionDraw),
        "{}",
        v.explanation
    );
}

#[test]
fn the_repetition_count_is_a_parameter() {
    let fen = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
    let twelve = "f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8";
    let v = judge(fen, twelve.split_at(39).0, Rules::cxa().at_trigger());
    assert_eq!(v.map(|v| v.ply), Ok(8));
    let mut fourfold = Rules::cxa().at_trigger();
    fourfold.repetition_count = 4;
    let v = judge(fen, twelve, fourfold).unwrap();
    assert_eq!(
        (v.result, v.reason, v.ply),
        (Outcome::SecondWins, Reason::PerpetualCheck, 12)
    );
    // Moves after the ruling are refused.
    let err = judge(fen, twelve, Rules::cxa().at_trigger()).unwrap_err();
    assert_eq!(err, JudgeError::AfterEnd { ply: 9, ended_at: 8 });
}

#[test]
fn patterns_are_named_per_cycle_and_every_move_is_classified() {
    // XQ-R03: check, check, idle, check.
    let v = judge(
        "4k4/9/9/9/8R/9/9/9/9/3K5 w - - 0 1",
        "i5i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i5 e8e9 i5i9",
        Rules::cxa().at_trigger(),
    )
    .unwrap();
    let r = v.repetition.as_ref().unwrap();
    assert_eq!((r.first.name.as_str(), r.first.forbidden), ("三将一闲", false));
    assert_eq!(r.second.name, "闲");
    assert_eq!(r.moves.len(), 8);
    // The span runs from the first occurrence (after ply 1) to the third (after ply 9).
    assert_eq!(
        (r.first_ply, r.moves[0].ply, r.moves[1].notation.as_str()),
        (1, 2, "车一退一")
    );
    let labels: Vec<&str> = r.moves.iter().map(|m| m.class.label.as_str()).collect();
    assert_eq!(labels, ["闲", "将", "闲", "将", "闲", "闲", "闲", "将"]);
    // XQ-R04 under CXA: 一将一捉, with the chased horse named.
    let v = judge(
        "4ka3/9/9/9/6n2/9/6R2/9/9/3K5 w - - 0 1",
        "g3e3 f9e8 e3g3 e8f9 g3e3 f9e8 e3g3 e8f9",
        Rules::cxa().at_trigger(),
    )
    .unwrap();
    let r = v.repetition.as_ref().unwrap();
    assert_eq!((r.first.name.as_str(), r.first.forbidden), ("一将一捉", true));
    assert_eq!(r.moves[2].class.chases, ["马@g5"]);
    assert_eq!((v.result, v.reason), (Outcome::SecondWins, Reason::ForbiddenRepetition));
    // The JSON form carries the documented fields.
    let json = v.to_json(game::Kind::Xiangqi);
    assert_eq!(json["result"], "black");
    assert_eq!(json["reason"], "forbidden_repetition");
    assert_eq!(json["ply"], 8);
    assert_eq!(json["ruleset"], "cxa");
    assert_eq!(json["repetition"]["moves"][2]["class"]["chases"][0], "马@g5");
}

#[test]
fn exchanges_offers_and_follows_are_idle() {
    // XQ-R13: the rooks offer themselves to each other (兑).
    let v = judge(
        "4k4/9/8r/9/9/9/9/7R1/9/3K5 w - - 0 1",
        "h2i2 i7h7 i2h2 h7i7 h2i2 i7h7 i2h2 h7i7",
        Rules::cxa().at_trigger(),
    )
    .unwrap();
    let r = v.repetition.unwrap();
    assert!(
        r.moves[0].class.idle.contains(&"兑".to_string()),
        "{:?}",
        r.moves[0].class
    );
    // XQ-R08: a rook attacks a protected cannon (跟).
    let v = judge(
        "4k4/9/r7c/9/9/9/9/7R1/9/3K5 w - - 0 1",
        "h2i2 i7h7 i2h2 h7i7 h2i2 i7h7 i2h2 h7i7",
        Rules::cxa().at_trigger(),
    )
    .unwrap();
    let r = v.repetition.unwrap();
    assert!(
        r.moves[0].class.idle.contains(&"跟".to_string()),
        "{:?}",
        r.moves[0].class
    );
    assert_eq!(v.result, Outcome::Draw);
}

#[test]
fn a_judged_start_has_its_verdict_at_ply_zero() {
    let j = XiangqiJudge::new(
        Position::from_fen("3ak4/9/4b4/9/9/9/9/4B4/9/2BAKA3 w - - 0 1").unwrap(),
        Rules::cxa(),
    );
    let v = j.verdict().unwrap();
    assert_eq!((v.result, v.reason, v.ply), (Outcome::Draw, Reason::DeadPosition, 0));
    // A capture that leaves only defenders ends the game there.
    let v = judge("3ak4/9/4b4/9/9/9/9/4B4/4r4/2BAKA3 w - - 0 1", "e0e1", Rules::cxa()).unwrap();
    assert_eq!((v.reason, v.ply), (Reason::DeadPosition, 1));
}

#[test]
fn every_ruleset_is_found_by_name() {
    for name in Rules::NAMES {
        assert_eq!(Rules::by_name(name).unwrap().name, name);
    }
    assert!(Rules::by_name("nope").is_none());
    // Named for what they are; the old name, after a file outside the repository, still reads.
    assert_eq!(Rules::by_name("seed002"), Some(Rules::simplified()));
    assert_eq!(
        judge::chess::ChessRules::by_name("seed001"),
        Some(judge::chess::ChessRules::automatic_draws())
    );
}

#[test]
fn by_default_the_offender_is_told_to_vary_and_loses_if_the_cycle_comes_round_again() {
    // XQ-R01: red checks perpetually. At the threefold (ply 8) red is told to vary.
    let fen = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
    let cycle = "f5e5 e8f8 e5f5 f8e8";
    let start = Position::from_fen(fen).unwrap();
    let mut j = XiangqiJudge::new(start.clone(), Rules::cxa());
    for m in moves(&[cycle, cycle].join(" ")) {
        assert_eq!(j.push(m).unwrap(), None);
    }
    let warning = j.pending().expect("red is told to vary");
    assert_eq!(
        (warning.result, warning.reason, warning.ply),
        (Outcome::SecondWins, Reason::PerpetualCheck, 8)
    );
    assert!(
        warning.explanation.starts_with("red must vary"),
        "{}",
        warning.explanation
    );
    // Red does not vary: when the position of the warning comes again, red loses.
    let mut ended = None;
    for m in moves(cycle) {
        ended = j.push(m).unwrap().cloned();
    }
    let v = ended.expect("red loses");
    assert_eq!(
        (v.result, v.reason, v.ply),
        (Outcome::SecondWins, Reason::PerpetualCheck, 12)
    );
    assert!(v.explanation.contains("told to vary at ply 8"), "{}", v.explanation);
    // Red varies instead (the rook leaves the checking lines): the game goes on.
    let mut j = XiangqiJudge::new(start, Rules::cxa());
    for m in moves(&[cycle, cycle, "f5f6"].join(" ")) {
        assert_eq!(j.push(m).unwrap(), None);
    }
    assert!(final_verdict(&j).result == Outcome::Ongoing);
}

#[test]
fn an_innocent_repetition_may_be_claimed_and_play_may_go_on() {
    // XQ-R02: 一将一闲 against idle moves.
    let fen = "5k3/9/9/7R1/9/9/9/9/9/3K5 w - - 0 1";
    let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), Rules::cxa());
    for m in moves("h6h9 f9f8 h9h6 f8f9 h6h9 f9f8 h9h6 f8f9") {
        assert_eq!(j.push(m).unwrap(), None);
    }
    let claim = j.claimable().expect("a draw by repetition may be claimed");
    assert_eq!(
        (claim.result, claim.reason, claim.claim, claim.ply),
        (Outcome::Draw, Reason::RepetitionDraw, true, 8)
    );
    j.push(parse_iccs("h6h5").unwrap()).unwrap();
    assert!(j.claimable().is_none(), "the claim is for the position that repeated");
}
