//! Judged plies per second on a corpus of `../shared/tools/anchors/judge_bench.py gen`, the
//! same input the script times pyffish, python-chess and cchess on.
//!
//! cargo run --release -p arbiter-judge --example judge_speed -- CORPUS.jsonl [--repeat N] [--ruleset NAME]
//!
//! A judged ply is what judge_bench.py counts: the position's legal moves, the game's move
//! checked against them, and whether the game is over after it — for chess with the claimable
//! draws, as python-chess's `outcome(claim_draw=True)` answers. Here `Judge::push` does the
//! first three (a legality test, the move, the opponent's legal moves, the repetition and move
//! limit tests) and `Judge::claimable` the claims; games are parsed before the clock starts.
//! Prints games, plies, the best of N passes in seconds and plies per second.

use std::time::Instant;

use game::Game;
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;

struct Corpus {
    xiangqi: Vec<(xiangqi::Position, Vec<xiangqi::Move>)>,
    chess: Vec<(chess::Position, Vec<chess::shakmaty::Move>)>,
    plies: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: judge_speed CORPUS.jsonl [--repeat N] [--ruleset NAME]");
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let repeat: usize = flag("--repeat").map_or(5, |n| n.parse().expect("a number"));
    let rules = Rules::by_name(&flag("--ruleset").unwrap_or_else(|| "cxa".into())).expect("a known ruleset");
    let text = std::fs::read_to_string(path).expect("readable corpus");
    let mut corpus = Corpus {
        xiangqi: Vec::new(),
        chess: Vec::new(),
        plies: 0,
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        let variant = v["variant"].as_str().unwrap_or("");
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        match variant {
            "xiangqi" => {
                let start = xiangqi::Position::from_fen(v["start"].as_str().unwrap()).expect("start FEN");
                // judge_bench.py writes Fairy-Stockfish moves (ranks 1-10).
                let list: Vec<xiangqi::Move> = moves
                    .iter()
                    .map(|m| xiangqi::notation::parse_fsf(m).expect("an FSF move"))
                    .collect();
                corpus.plies += list.len();
                corpus.xiangqi.push((start, list));
            }
            "chess" => {
                let mut pos = <chess::Position as Game>::from_fen(v["start"].as_str().unwrap()).expect("start FEN");
                let start = pos.clone();
                let list: Vec<chess::shakmaty::Move> = moves
                    .iter()
                    .map(|m| {
                        let mv = pos.parse_move(m).expect("a legal UCI move");
                        pos.play(mv);
                        mv
                    })
                    .collect();
                corpus.plies += list.len();
                corpus.chess.push((start, list));
            }
            other => panic!("variant {other:?} is not handled by this example"),
        }
    }
    let chess_rules = judge::chess::ChessRules::fide();
    let mut best = f64::INFINITY;
    let mut ended = 0;
    for _ in 0..repeat {
        let t = Instant::now();
        ended = 0;
        for (start, moves) in &corpus.xiangqi {
            let mut j = XiangqiJudge::new(start.clone(), rules.clone());
            for &m in moves {
                if j.push(m).expect("the corpus's moves are legal").is_some() {
                    ended += 1;
                    break;
                }
                std::hint::black_box(j.claimable());
            }
        }
        for (start, moves) in &corpus.chess {
            let mut j = judge::chess::ChessJudge::new(start.clone(), chess_rules);
            for &m in moves {
                if j.push(m).expect("the corpus's moves are legal").is_some() {
                    ended += 1;
                    break;
                }
                std::hint::black_box(j.claimable());
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("games\tplies\tended_by_rule\tbest_seconds\tplies_per_second");
    println!(
        "{}\t{}\t{ended}\t{best:.4}\t{:.0}",
        corpus.xiangqi.len() + corpus.chess.len(),
        corpus.plies,
        corpus.plies as f64 / best
    );
    let _ = <xiangqi::Position as Game>::KIND;
}
