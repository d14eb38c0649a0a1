//! Every kind of explanation, from real games judged: each verdict's English explanation is
//! its facts rendered in English, and the Chinese one is written from the same facts in the
//! terms of the Chinese rules — with no English sentence left in it.
//!
//! The Xiangqi games are every case of `xiangqi-cases.md` under each ruleset, ruled at the
//! trigger and as the rulebook says (a side told to vary, then the loss), and a few positions
//! for the rules the cases do not reach; the chess games are the judge's test positions.

use std::collections::BTreeMap;

use game::Kind;
use judge::chess::ChessRules;
use judge::record::{judge_text, Rulesets};
use judge::xiangqi::{Rules, TemporaryLimit};
use judge::{Lang, Verdict};

/// A verdict's shape: the rule, and for a repetition the table's ruling, the offence and how
/// it takes effect; for chess draws, automatic or claimed (now or by a move).
fn shape(v: &Verdict) -> String {
    let j = serde_json::to_value(&v.because).unwrap();
    let s = |k: &str| j[k].as_str().map(String::from);
    let mut parts = vec![s("because").unwrap()];
    if let Some(game) = s("game") {
        parts.push(game);
    }
    for k in ["table", "effect", "how", "why"] {
        if let Some(kind) = j[k]["kind"].as_str() {
            parts.push(kind.to_string());
        }
    }
    if let Some(kind) = j["table"]["offence"]["kind"].as_str() {
        parts.push(kind.to_string());
    }
    if j["claim"] == true {
        parts.push("claim".into());
    }
    parts.join("/")
}

/// English words the explanations use; none may remain in a Chinese one.
const ENGLISH: [&str; 14] = [
    " the ",
    "loses",
    "drawn",
    " move",
    "side",
    "position",
    "claim",
    "checkmated",
    "stalemate",
    "repetition",
    "allowed",
    "forbidden",
    "either",
    "player",
];

fn check(v: &Verdict, seen: &mut BTreeMap<String, (String, String)>) {
    let en = v.explain(Lang::En);
    assert_eq!(en, v.because.render(Lang::En), "the English is the facts' own");
    assert_eq!(en, v.explanation);
    let zh = v.explain(Lang::Zh);
    for w in ENGLISH {
        assert!(
            !zh.contains(w),
            "{w:?} in the Chinese explanation {zh:?} (English: {en})"
        );
    }
    assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
    let json = v.to_json(Kind::Xiangqi);
    assert_eq!(json["explanation_zh"], zh.as_str());
    assert_eq!(json["because"], serde_json::to_value(&v.because).unwrap());
    seen.entry(shape(v)).or_insert((en, zh));
}

fn rulesets(xiangqi: Rules, chess: ChessRules) -> Rulesets {
    Rulesets { xiangqi, chess }
}

/// Judges `moves` from `fen` and checks the verdict and the ruling pending at the end.
fn judge(kind: Kind, fen: &str, moves: &str, rules: &Rulesets, seen: &mut BTreeMap<String, (String, String)>) {
    let g = judge_text(kind, Some(fen), moves, rules).unwrap_or_else(|e| panic!("{fen} {moves}: {e}"));
    check(&g.verdict, seen);
    if let Some(p) = &g.pending {
        check(p, seen);
    }
}

/// The cases of the spec: FEN and moves.
fn spec_cases() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(testdata::spec_file("xiangqi-cases.md")).unwrap();
    let quoted = |l: &str| l.split('`').nth(1).unwrap_or("").to_string();
    let mut out = Vec::new();
    let mut fen = String::new();
    for line in text.lines() {
        if line.starts_with("- FEN:") {
            fen = quoted(line);
        } else if line.starts_with("- Moves (") {
            out.push((fen.clone(), quoted(line)));
        }
    }
    out
}

fn all_explanations() -> BTreeMap<String, (String, String)> {
    let mut seen = BTreeMap::new();
    let x = Kind::Xiangqi;
    let fide = ChessRules::fide();
    for (fen, moves) in spec_cases() {
        for rules in [Rules::cxa(), Rules::axf(), Rules::simplified()] {
            // Moves past a ruling stop the judging; the verdict stands.
            judge(x, &fen, &moves, &rulesets(rules.clone().at_trigger(), fide), &mut seen);
            judge(x, &fen, &moves, &rulesets(rules, fide), &mut seen);
        }
    }
    let cxa = rulesets(Rules::cxa(), fide);
    // A move exposing the mover's king (自杀).
    judge(x, "3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1", "e1c2", &cxa, &mut seen);
    // The natural move limit, automatic (CXA) and claimed (AXF).
    let limit = "3k5/9/9/p8/9/9/P8/9/4A4/3AK4 w - - 119 60";
    judge(x, limit, "e1f2", &cxa, &mut seen);
    judge(x, limit, "e1f2", &rulesets(Rules::axf(), fide), &mut seen);
    // A referee's temporary limit of two rounds from the start.
    let mut temporary = Rules::cxa();
    temporary.temporary_limit = Some(TemporaryLimit { from_ply: 0, plies: 4 });
    judge(
        x,
        "startpos",
        "h2e2 h9g7 h0g2 i9h9",
        &rulesets(temporary, fide),
        &mut seen,
    );
    // Only kings, advisors and elephants.
    judge(x, "3ak4/9/4b4/9/9/9/9/4B4/9/2BAKA3 w - - 0 1", "", &cxa, &mut seen);
    // 长将 told to vary, and not varied: the loss.
    let check = "f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8";
    judge(x, "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1", check, &cxa, &mut seen);
    // An innocent repetition: the draw may be claimed.
    let idle = "h6h9 f9f8 h9h6 f8f9 h6h9 f9f8 h9h6 f8f9";
    judge(x, "5k3/9/9/7R1/9/9/9/9/9/3K5 w - - 0 1", idle, &cxa, &mut seen);
    // A game not over.
    judge(x, "startpos", "h2e2", &cxa, &mut seen);

    let c = Kind::Chess;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let fide = rulesets(Rules::cxa(), ChessRules::fide());
    let auto = rulesets(Rules::cxa(), ChessRules::automatic_draws());
    judge(c, start, "f2f3 e7e5 g2g4 d8h4", &fide, &mut seen);
    judge(c, "k7/8/8/2Q5/8/8/8/K7 w - - 0 1", "Qb6", &fide, &mut seen);
    let shuffle = "Nf3 Nf6 Ng1 Ng8";
    judge(c, start, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", &fide, &mut seen);
    judge(c, start, &[shuffle; 2].join(" "), &fide, &mut seen);
    judge(c, start, &[shuffle; 4].join(" "), &fide, &mut seen);
    judge(c, start, &[shuffle; 2].join(" "), &auto, &mut seen);
    let fifty = "7k/8/8/8/8/8/R7/K7 w - - 98 80";
    judge(c, fifty, "Ra3", &fide, &mut seen);
    judge(c, fifty, "Ra3 Kg8", &fide, &mut seen);
    judge(c, fifty, "Ra3 Kg8", &auto, &mut seen);
    judge(c, "7k/8/8/8/8/8/R7/K7 w - - 148 100", "Ra3 Kg8", &fide, &mut seen);
    judge(c, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "", &fide, &mut seen);
    judge(c, "8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/8 w - - 0 1", "h4", &fide, &mut seen);
    judge(
        c,
        "8/8/4k3/1p1p1p1p/1P1P1P2/7P/2b1K3/8 w - - 0 1",
        "h4",
        &fide,
        &mut seen,
    );
    judge(c, start, "e4", &fide, &mut seen);
    seen
}

/// Every reason the judges give, in both languages, with the Chinese rules' own terms.
#[test]
fn every_reason_is_explained_in_english_and_chinese() {
    let seen = all_explanations();
    for (shape, (en, zh)) in &seen {
        println!("{shape}\n  en: {en}\n  zh: {zh}");
    }
    // Each shape and the words its Chinese explanation must use.
    let want: &[(&str, &[&str])] = &[
        ("not_over", &["尚未结束"]),
        ("checkmate/xiangqi", &["被将死", "判负"]),
        ("checkmate/chess", &["白方被将死", "FIDE 5.1.1"]),
        ("stalemate/xiangqi", &["困毙", "判负"]),
        ("stalemate/chess", &["逼和", "FIDE 5.2.1"]),
        ("self_check", &["自杀", "判负"]),
        ("no_attackers", &["作和"]),
        ("move_limit", &["六十回合", "自然限着", "作和"]),
        ("move_limit/claim", &["六十回合", "要求作和"]),
        ("temporary_limit", &["临时限着", "二回合"]),
        ("repetition/both_allowed/ruled", &["双方不变作和", "棋例总则"]),
        ("repetition/both_allowed/draw_claimable", &["不变作和", "继续对局"]),
        (
            "repetition/forbidden/at_once/perpetual_check",
            &["长将", "立即判负", "第三次"],
        ),
        (
            "repetition/forbidden/must_vary/perpetual_check",
            &["必须变着", "长将", "不变判负"],
        ),
        (
            "repetition/forbidden/not_varied/perpetual_check",
            &["应变着而不变", "判负"],
        ),
        (
            "repetition/forbidden/at_once/chase",
            &["长捉a7的车", "每着都捉a7的车", "亚洲象棋联合会"],
        ),
        ("repetition/forbidden/at_once/attack", &["每着都是攻击着法", "禁止着法"]),
        ("repetition/only_one_checks/at_once", &["单方面长将"]),
        ("repetition/both_forbidden/ruled", &["双方均为禁止着法", "不变作和"]),
        ("chess_repetition/automatic", &["第五次", "FIDE 9.6.1", "和棋"]),
        ("chess_repetition/now", &["三次重复局面", "可要求和棋"]),
        ("chess_repetition/by_move", &["三次重复局面", "宣布走Ng8"]),
        ("chess_move_rule/automatic", &["未吃子也未动兵", "和棋"]),
        ("chess_move_rule/now", &["五十回合规则", "可要求和棋"]),
        ("chess_move_rule/by_move", &["五十回合规则", "宣布走"]),
        ("chess_dead/insufficient", &["死局", "子力不足", "K v K"]),
        ("chess_dead/both", &["死局", "兵形完全封锁"]),
        ("chess_dead/each", &["死局", "白方：", "黑方："]),
    ];
    for (shape, words) in want {
        let (en, zh) = seen
            .get(*shape)
            .unwrap_or_else(|| panic!("no game gave {shape}; seen: {:?}", seen.keys().collect::<Vec<_>>()));
        for w in *words {
            assert!(zh.contains(w), "{shape}: {w:?} not in {zh:?} (English: {en})");
        }
    }
}
