//! Reading speed of the record readers, side by side with pgn-reader's own validating loop.
//!
//! cargo run --release -p arbiter-records --example read_speed -- FILE [--chess] [--repeat N]
//!
//! Prints MB/s and games/s (best of N passes over the file held in memory).

use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// pgn-reader's validating visitor (as in its `validate` example): SAN checked and played.
struct Validator;

impl Visitor for Validator {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = bool;
    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }
    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok());
            *tags = pos;
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }
    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<bool> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }
    fn end_game(&mut self, _pos: Chess) -> bool {
        true
    }
}

fn time<F: FnMut() -> usize>(label: &str, bytes: usize, repeat: usize, mut f: F) -> f64 {
    let mut best = f64::INFINITY;
    let mut games = 0;
    for _ in 0..repeat {
        let t = Instant::now();
        games = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mbs = bytes as f64 / best / 1e6;
    println!("{label}\t{games}\t{:.4}\t{mbs:.1}\t{:.0}", best, games as f64 / best);
    mbs
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: read_speed FILE [--repeat N]");
    let repeat = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .map_or(5, |n| n.parse().unwrap());
    let bytes = std::fs::read(path).unwrap();
    let chess = args.iter().any(|a| a == "--chess");
    // For profiling one reader alone: `--into-only` runs just `read_into`.
    if args.iter().any(|a| a == "--into-only") {
        time("arbiter ChessGames::read_into", bytes.len(), repeat, || {
            let mut games = records::chess::ChessGames::new(&bytes[..]);
            let mut record = records::chess::ChessRecord::new(records::chess::START_FEN);
            let mut n = 0;
            while games.read_into(&mut record).unwrap() {
                n += 1;
            }
            n
        });
        return;
    }
    println!("reader\tgames\tbest_seconds\tMB_per_s\tgames_per_s");
    if chess {
        let base = time("pgn-reader validate", bytes.len(), repeat, || {
            let mut r = Reader::new(&bytes[..]);
            let mut v = Validator;
            let mut n = 0;
            while let Some(_ok) = r.read_game(&mut v).unwrap() {
                n += 1;
            }
            n
        });
        let ours = time("arbiter ChessGames (tree, comments)", bytes.len(), repeat, || {
            records::chess::ChessGames::new(&bytes[..])
                .filter(|g| g.is_ok())
                .count()
        });
        let reused = time(
            "arbiter ChessGames::read_into (tree, comments)",
            bytes.len(),
            repeat,
            || {
                let mut games = records::chess::ChessGames::new(&bytes[..]);
                let mut record = records::chess::ChessRecord::new(records::chess::START_FEN);
                let mut n = 0;
                while games.read_into(&mut record).unwrap() {
                    n += 1;
                }
                n
            },
        );
        let main_line = time(
            "arbiter ChessGames::read_into, main line and tags",
            bytes.len(),
            repeat,
            || {
                let mut games =
                    records::chess::ChessGames::new(&bytes[..]).with_options(records::ReadOptions::MAIN_LINE);
                let mut record = records::chess::ChessRecord::new(records::chess::START_FEN);
                let mut n = 0;
                while games.read_into(&mut record).unwrap() {
                    n += 1;
                }
                n
            },
        );
        println!("ratio pgn-reader / arbiter iterator: {:.2}", base / ours);
        println!(
            "ratio pgn-reader / arbiter read_into, main line: {:.2}",
            base / main_line
        );
        println!("ratio pgn-reader / arbiter read_into: {:.2}", base / reused);
    } else {
        time("decode only (encoding_rs, whole file)", bytes.len(), repeat, || {
            decode_only(&bytes)
        });
        time("arbiter XiangqiGames", bytes.len(), repeat, || {
            records::pgn::XiangqiGames::new(&bytes[..])
                .filter(|g| g.is_ok())
                .count()
        });
        time("arbiter XiangqiGames::read_into", bytes.len(), repeat, || {
            let mut games = records::pgn::XiangqiGames::new(&bytes[..]);
            let mut record = records::XiangqiRecord::new(xiangqi::Fen::START);
            let mut n = 0;
            while games.read_into(&mut record).unwrap() {
                n += 1;
            }
            n
        });
    }
}

fn decode_only(bytes: &[u8]) -> usize {
    records::text::decode_detected(bytes).0.len()
}
