//! Coordinate notations: ICCS (`h2e2`, `H2-E2`, ranks 0–9, used by UCCI and Pikafish) and
//! Fairy-Stockfish's UCI form (ranks 1–10: `h3e3`, `e10e9`).

use crate::{Move, Square};

use super::NotationError;

/// Parses ICCS: `h2e2`, `H2-E2` or `h2-e2`, either case.
pub fn parse_iccs(s: &str) -> Result<Move, NotationError> {
    parse_coords(s, false)
}

/// Parses Fairy-Stockfish's coordinates, ranks 1–10: `h3e3`, `e10e9`.
pub fn parse_fsf(s: &str) -> Result<Move, NotationError> {
    parse_coords(s, true)
}

fn parse_coords(s: &str, one_based: bool) -> Result<Move, NotationError> {
    let t = s.trim().as_bytes();
    let bad = || NotationError::Syntax {
        text: s.to_string(),
        expected: if one_based {
            "a move like h3e3 or e10e9"
        } else {
            "a move like h2e2 or H2-E2"
        },
    };
    let (from, n) = Square::parse_prefix(t, one_based).ok_or_else(bad)?;
    let mut rest = &t[n..];
    if let Some(r) = rest.strip_prefix(b"-") {
        rest = r;
    }
    let (to, m) = Square::parse_prefix(rest, one_based).ok_or_else(bad)?;
    if m != rest.len() {
        return Err(bad());
    }
    Ok(Move::new(from, to))
}

/// `h2e2`.
pub fn to_iccs(m: Move) -> String {
    m.iccs_bytes().iter().map(|&b| b as char).collect()
}

/// `H2-E2`, the form xqbase PGN files use.
pub fn to_iccs_pgn(m: Move) -> String {
    format!("{}-{}", m.from, m.to).to_ascii_uppercase()
}

/// `h3e3`: Fairy-Stockfish / pychess-variants coordinates.
pub fn to_fsf(m: Move) -> String {
    let sq = |s: Square| format!("{}{}", s.file().char(), s.rank().index() + 1);
    format!("{}{}", sq(m.from), sq(m.to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let m = parse_iccs("h2e2").unwrap();
        assert_eq!(parse_iccs("H2-E2").unwrap(), m);
        assert_eq!(parse_fsf("h3e3").unwrap(), m);
        assert_eq!(to_fsf(m), "h3e3");
        assert_eq!(to_iccs_pgn(m), "H2-E2");
        let top = parse_fsf("e10e9").unwrap();
        assert_eq!(to_iccs(top), "e9e8");
        assert!(parse_iccs("e10e9").is_err());
        assert!(parse_iccs("j2e2").is_err());
        assert!(parse_fsf("e11e9").is_err());
        assert!(parse_iccs("h2e2x").is_err());
    }
}
