//! Shared pieces of the fuzz targets: a fixed list of positions with the awkward cases of the
//! relative notations (tandem pieces, several pawns on a file, pawns doubled on two files, black
//! to move), and the invariant checks the targets run on a position and a move.

pub mod targets;

use std::sync::OnceLock;

use xiangqi::notation::Notation;
use xiangqi::{Move, Position};

/// Positions the notation targets pick from with their first input byte. All legal; the unit
/// test below and [`positions`] (at first use) check that.
pub const FENS: &[&str] = &[
    // 0: the start position.
    xiangqi::Fen::START,
    // 1: red rooks in tandem on file e, black horses in tandem on file c.
    "3akab2/9/2n1b4/2n6/9/9/4R4/9/4R4/2BK1A3 w",
    // 2: three red pawns on file g (WXF 3, Chinese 三), one on file c.
    "r2k5/9/9/6P2/2P3P2/6P2/9/9/4A4/4KAB2 w",
    // 3: red pawns doubled on two files: three on g, two on c; red elephant at home on g0.
    "4k4/6P2/9/2P3P2/2P3P2/9/9/9/9/3K2B2 w",
    // 4: five red pawns on file e.
    "r2k4r/9/4P4/4P4/4P4/4P4/4P4/9/9/5K3 w",
    // 5: black to move after 炮二平五.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
    // 6: black to move: black cannons in tandem on file e, three black pawns on file c.
    "4k4/9/4c4/9/4c4/2p6/2p6/2p6/4A4/3K1A3 b",
    // 7: black to move: black pawns doubled on two files (two on c, three on g).
    "2b1k4/9/9/9/9/2p3p2/2p3p2/9/6p2/3K5 b",
    // 8: four red pawns on file c and one on g.
    "3k5/9/9/2P3P2/2P6/2P6/2P6/9/9/4K4 w",
];

/// The positions of [`FENS`], parsed once.
pub fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .map(|f| Position::from_fen(f).unwrap_or_else(|e| panic!("fixed FEN {f:?}: {e}")))
            .collect()
    })
}

/// Splits off the first byte to choose one of the fixed positions.
pub fn pick(data: &[u8]) -> Option<(&'static Position, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let ps = positions();
    Some((&ps[first as usize % ps.len()], rest))
}

pub const NOTATIONS: [Notation; 4] = [Notation::Iccs, Notation::Fsf, Notation::Wxf, Notation::Chinese];

/// Every notation writes `m` (a legal move of `pos`) so that it reads back as `m`.
pub fn check_notations(pos: &Position, m: Move) {
    for n in NOTATIONS {
        let text = n.write(pos, m);
        let back = n.parse(pos, &text);
        assert_eq!(back, Ok(m), "{n:?}: {m} written as {text:?} in {}", pos.fen());
    }
}

/// Generic invariants of a position: list and count agree, the status is consistent, the key
/// matches a recomputation, the side not to move is not in check, and the FEN reads back to the same position (`reparse` turns the
/// re-read setup into a position the same way the original was made).
pub fn check_position(pos: &Position, reparse: impl Fn(xiangqi::Setup) -> Option<Position>) {
    let moves = pos.legal_moves();
    assert_eq!(
        moves.len(),
        pos.count_legal(),
        "legal_moves vs count_legal in {}",
        pos.fen()
    );
    let status = pos.status();
    match status {
        xiangqi::Status::Ongoing => assert!(!moves.is_empty()),
        xiangqi::Status::Checkmate => assert!(moves.is_empty() && pos.is_check()),
        xiangqi::Status::Stalemate => assert!(moves.is_empty() && !pos.is_check()),
    }
    assert_eq!(pos.key(), pos.compute_key(), "key in {}", pos.fen());
    // What `from_setup` refuses as OppositeCheck / KingsFacing: the side not to move must not be
    // attacked (`attackers` counts a king facing the other along an open file).
    let them = !pos.turn();
    assert!(
        !pos.attackers(pos.king(them), pos.turn()).any(),
        "{them} is not to move but is attacked (check or kings facing) in {}",
        pos.fen()
    );
    let text = pos.fen().to_string();
    let fen: xiangqi::Fen = text
        .parse()
        .unwrap_or_else(|e| panic!("printed FEN {text:?} does not parse: {e}"));
    let again = reparse(fen.into_setup()).unwrap_or_else(|| panic!("printed FEN {text:?} is not accepted again"));
    assert_eq!(&again, pos, "FEN round trip of {text:?}");
    for &m in moves.iter() {
        assert!(pos.is_legal(m), "{m} listed but not is_legal in {text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fens_are_legal() {
        for f in FENS {
            let pos = Position::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            assert!(pos.count_legal() > 0, "{f}");
        }
        assert_eq!(positions().len(), FENS.len());
    }
}
