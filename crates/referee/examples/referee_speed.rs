//! Moves per second through one referee, on a corpus of `judge_bench.py gen` (the games the
//! judge benchmark uses), side by side with the judge alone on the same moves, so the referee's
//! own cost (parsing the move text, clocks, notation, events, the log) is the difference.
//!
//! cargo run --release -p arbiter-referee --example referee_speed -- CORPUS.jsonl [--repeat N]

use std::time::Instant;

use game::{Game, Side};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;
use referee::{Command, Referee, RefereeRules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: referee_speed CORPUS.jsonl [--repeat N]");
    let repeat: usize = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .map_or(5, |n| n.parse().unwrap());
    // Xiangqi games: start and ICCS moves (the corpus has Fairy-Stockfish ranks 1-10).
    let mut games: Vec<(xiangqi::Position, Vec<String>, Vec<xiangqi::Move>)> = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines().filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["variant"], "xiangqi", "this example takes the Xiangqi corpus");
        let start = xiangqi::Position::from_fen(v["start"].as_str().unwrap()).unwrap();
        let moves: Vec<xiangqi::Move> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| xiangqi::notation::parse_fsf(m.as_str().unwrap()).unwrap())
            .collect();
        let texts = moves.iter().map(|&m| xiangqi::notation::to_iccs(m)).collect();
        games.push((start, texts, moves));
    }
    let plies: usize = games.iter().map(|g| g.2.len()).sum();
    let mut rules = RefereeRules::online();
    rules.time = referee::clock::TimeControl::fischer(u64::MAX / 4, 0);
    let time = |f: &mut dyn FnMut()| {
        let mut best = f64::INFINITY;
        for _ in 0..repeat {
            let t = Instant::now();
            f();
            best = best.min(t.elapsed().as_secs_f64());
        }
        best
    };
    let judge_only = time(&mut || {
        for (start, _, moves) in &games {
            let mut j = XiangqiJudge::new(start.clone(), Rules::cxa());
            for &m in moves {
                if j.push(m).unwrap().is_some() {
                    break;
                }
            }
        }
    });
    let referee = time(&mut || {
        for (start, texts, _) in &games {
            let mut r = Referee::new(XiangqiJudge::new(start.clone(), Rules::cxa()), rules.clone());
            r.apply(0, Side::First, Command::Start);
            for (i, text) in texts.iter().enumerate() {
                if r.ending().is_some() {
                    break;
                }
                let side = Game::turn(r.judge().position());
                r.apply(1_000 * (i as u64 + 1), side, Command::Move(text.clone()));
            }
        }
    });
    let per = |s: f64| plies as f64 / s;
    println!("games\tplies\tjudge_moves_per_s\treferee_moves_per_s\treferee_own_ns_per_move\treferee_own_moves_per_s");
    let own = (referee - judge_only) / plies as f64;
    println!(
        "{}\t{plies}\t{:.0}\t{:.0}\t{:.0}\t{:.0}",
        games.len(),
        per(judge_only),
        per(referee),
        own * 1e9,
        1.0 / own
    );
}
