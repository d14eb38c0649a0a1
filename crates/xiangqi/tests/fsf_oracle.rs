//! Differential test against Fairy-Stockfish: our legal moves equal its `go perft 1` lists at
//! every ply of 1,000 seeded random games and at 100,000 random positions (kings on open files,
//! pins, cannon screens, horse legs, checks). The fixtures were written by
//! `python3 tools/fsf_oracle.py` (see tools/README.md); each position carries the move count and
//! an FNV-1a hash of the sorted ICCS move list, so no engine is needed here.

use xiangqi::notation::{parse_iccs, to_iccs};
use xiangqi::Position;

fn lines(name: &str) -> impl Iterator<Item = String> {
    testdata::fixture_lines(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR")))
}

fn fnv1a(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(2_166_136_261u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(16_777_619))
}

fn signature(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| to_iccs(m)).collect();
    moves.sort();
    assert_eq!(
        moves.len(),
        pos.count_legal(),
        "count_legal disagrees with legal_moves in {}",
        pos.fen()
    );
    format!("{}:{:08x}", moves.len(), fnv1a(moves.join(" ").as_bytes()))
}

fn explain(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| to_iccs(m)).collect();
    moves.sort();
    format!(
        "{}\nours: {}\nrerun: python3 tools/fsf_oracle.py --fen '{}'",
        pos.fen(),
        moves.join(" "),
        pos.fen()
    )
}

#[test]
fn random_games_match_fairy_stockfish() {
    let (mut games, mut plies) = (0, 0);
    for line in lines("fsf-games.tsv.gz") {
        let cols: Vec<&str> = line.split('\t').collect();
        let mut pos = Position::from_fen(cols[0]).unwrap_or_else(|e| panic!("{}: {e}", cols[0]));
        let moves: Vec<&str> = cols[1].split_whitespace().collect();
        let sigs: Vec<&str> = cols[2].split_whitespace().collect();
        assert_eq!(sigs.len(), moves.len() + 1);
        for (ply, sig) in sigs.iter().enumerate() {
            assert_eq!(signature(&pos), *sig, "game {games} ply {ply}: {}", explain(&pos));
            if let Some(m) = moves.get(ply) {
                let m = parse_iccs(m).unwrap();
                pos = pos.play(m).unwrap();
                assert_eq!(pos.key(), pos.compute_key());
                plies += 1;
            }
        }
        games += 1;
    }
    assert!(games >= 1000 && plies > 100_000, "{games} games, {plies} plies");
}

#[test]
fn random_positions_match_fairy_stockfish() {
    let mut n = 0;
    let mut in_check = 0;
    for line in lines("fsf-positions.tsv.gz") {
        let (fen, sig) = line.split_once('\t').unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(signature(&pos), sig, "{}", explain(&pos));
        in_check += usize::from(pos.is_check());
        n += 1;
    }
    assert!(n >= 100_000, "{n} positions");
    assert!(in_check > 10_000, "{in_check} positions in check");
}
