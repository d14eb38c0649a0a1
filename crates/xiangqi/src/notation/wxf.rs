//! WXF notation: `C2.5`, `H8+7`, `R1-1`; tandem pieces `R+.3` / `R-.3`; several pawns on a
//! file `P+.4`, `P3.4` (middle), `++.4`; pawns doubled on two files `3+.4`, `33.4`, `3-.4`.
//!
//! Read leniently: `=` for `.`, no sign for sideways (`C25`), the sign before the piece
//! (`+C-2`), xqbase's `Pa.5` ordinals and `P..4`, Fairy-Stockfish's `27=8`, xqbase keypad
//! digits (`62.5`), cchess's `fC5-2`, full-width characters.

use crate::{Move, Position, Role};

use super::describe::{
    canonical_qual, describe, resolve, standard_material, tiers, Description, Dir, Pattern, Qual, Tiers,
};
use super::NotationError;

const EXPECTED: &str = "a WXF move like C2.5, H8+7 or R+.3";

/// Writes `m`, a legal move of `pos`, in WXF.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let d = describe(pos, m);
    let text = write(&d);
    if standard_material(pos) || parse_wxf(pos, &text) == Ok(m) {
        return text;
    }
    // A composed problem with extra pawns: WXF's signs run out. Fairy-Stockfish's
    // ordinal-and-file form names the pawn exactly, unless it reads as WXF's middle pawn.
    let dir = wxf_dir(d.dir);
    let explicit: String = [
        char::from(b'0' + d.index + 1),
        char::from(b'0' + d.file),
        dir,
        char::from(b'0' + d.number),
    ]
    .iter()
    .collect();
    if parse_wxf(pos, &explicit) == Ok(m) {
        return explicit;
    }
    // Nothing in WXF names this move; coordinates always do (and `parse_any` reads them).
    m.to_string()
}

fn wxf_dir(dir: Dir) -> char {
    match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Sideways => '.',
    }
}

fn write(d: &Description) -> String {
    let letter = d.role.wxf_char();
    let file = char::from(b'0' + d.file);
    let head: [char; 2] = match canonical_qual(d, true) {
        None => [letter, file],
        Some(q) if d.role == Role::Pawn && d.multi_files >= 2 => match q {
            Qual::Front => [file, '+'],
            Qual::Rear => [file, '-'],
            _ => [file, file],
        },
        Some(Qual::Front | Qual::WxfPlus) => [letter, '+'],
        Some(Qual::Rear | Qual::WxfMinus) => [letter, '-'],
        Some(Qual::WxfFirst) => ['+', '+'],
        Some(Qual::WxfLast) => ['-', '-'],
        Some(_) => [letter, file],
    };
    [head[0], head[1], wxf_dir(d.dir), char::from(b'0' + d.number)]
        .iter()
        .collect()
}

/// Reads a WXF move (any of the variants in the module doc) and finds it among the legal moves.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match read(text) {
        Some(tiers) => resolve(pos, text, &tiers),
        // Coordinates, which `to_wxf` falls back to where WXF cannot name a move.
        None => match super::parse_iccs(text) {
            Ok(m) if pos.is_legal(m) => Ok(m),
            Ok(m) => Err(NotationError::illegal(pos, text, m)),
            Err(_) => Err(NotationError::Syntax {
                text: text.to_string(),
                expected: EXPECTED,
            }),
        },
    }
}

fn normalise(text: &str) -> Vec<char> {
    text.trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            // Full-width ASCII block.
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '=' => '.',
            _ => c,
        })
        .collect()
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}

fn sign(c: char) -> Option<bool> {
    match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    }
}

fn role_letter(c: char) -> Option<Role> {
    if c.is_ascii_alphabetic() {
        Role::from_char(c)
    } else {
        None
    }
}

/// Reads the text into pattern tiers; `None` if it is not WXF at all.
fn read(text: &str) -> Option<Tiers> {
    let mut t = normalise(text);
    // `C25`: sideways written with no sign.
    if t.len() == 3 && digit(t[1]).is_some() && digit(t[2]).is_some() {
        t.insert(2, '.');
    }
    let (head, dir_c, num_c) = match t.len() {
        4 | 5 => (&t[..t.len() - 2], t[t.len() - 2], t[t.len() - 1]),
        _ => return None,
    };
    let dir = match dir_c {
        '+' => Dir::Forward,
        '-' => Dir::Backward,
        '.' => Dir::Sideways,
        _ => return None,
    };
    let number = digit(num_c)?;
    let p = Pattern::maker(dir, number);
    let signed = |plus: bool| if plus { Qual::WxfPlus } else { Qual::WxfMinus };

    if head.len() == 3 {
        // cchess compact: f/m/b, piece, file (`fC5-2`).
        let qual = match head[0].to_ascii_lowercase() {
            'f' => Qual::Front,
            'm' => Qual::Middle,
            'b' => Qual::Rear,
            _ => return None,
        };
        let role = role_letter(head[1])?;
        return Some(tiers(&[p(Some(role), Some(digit(head[2])?), Some(qual))], &[]));
    }
    let (a, b) = (head[0], head[1]);
    if let (Some(role), Some(file)) = (role_letter(a), digit(b)) {
        // Plain; on a file of three or five pawns it names the middle one.
        return Some(tiers(
            &[p(Some(role), Some(file), Some(Qual::Middle))],
            &[p(Some(role), Some(file), None)],
        ));
    }
    if let (Some(role), Some(s)) = (role_letter(a), sign(b)) {
        return Some(tiers(&[p(Some(role), None, Some(signed(s)))], &[]));
    }
    if let (Some(s), Some(role)) = (sign(a), role_letter(b)) {
        return Some(tiers(&[p(Some(role), None, Some(signed(s)))], &[]));
    }
    if let (Some(role), 'a'..='e') = (role_letter(a), b) {
        return Some(tiers(
            &[p(Some(role), None, Some(Qual::Ordinal(b as u8 - b'a' + 1)))],
            &[],
        ));
    }
    if let (Some(role), '.') = (role_letter(a), b) {
        return Some(tiers(&[p(Some(role), None, Some(Qual::Middle))], &[]));
    }
    if let (Some(s1), Some(s2)) = (sign(a), sign(b)) {
        if s1 != s2 {
            return None;
        }
        let q = if s1 { Qual::WxfFirst } else { Qual::WxfLast };
        return Some(tiers(&[p(Some(Role::Pawn), None, Some(q))], &[]));
    }
    if let (Some(file), Some(s)) = (digit(a), sign(b)) {
        return Some(tiers(&[p(Some(Role::Pawn), Some(file), Some(signed(s)))], &[]));
    }
    if let (Some(x), Some(y)) = (digit(a), digit(b)) {
        // WXF's `33.4` (the middle of three pawns on file 3) first, then Fairy-Stockfish's
        // ordinal-and-file `27=8` or an xqbase keypad entry (1 king … 7 pawn) `62.5`.
        let middle = p(Some(Role::Pawn), Some(x), Some(Qual::Middle));
        let ordinal = p(Some(Role::Pawn), Some(y), Some(Qual::OrdinalInFile(x)));
        let first: &[Pattern] = if x == y { &[middle] } else { &[] };
        return Some(match x {
            1..=7 => tiers(first, &[ordinal, p(Some(Role::ALL[x as usize - 1]), Some(y), None)]),
            _ => tiers(first, &[ordinal]),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_iccs;

    fn check(fen: &str, wxf: &str, iccs: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let m = parse_iccs(iccs).unwrap();
        assert_eq!(parse_wxf(&pos, wxf), Ok(m), "{wxf} in {fen}");
    }

    #[test]
    fn basic() {
        let pos = Position::start();
        let m = parse_wxf(&pos, "C2.5").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(to_wxf(&pos, m), "C2.5");
        for alt in ["C2=5", "c2.5", "C25", "Ｃ２．５", "62.5"] {
            check(crate::Fen::START, alt, "h2e2");
        }
        check(crate::Fen::START, "H2+3", "h0g2");
        check(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
            "H8+7",
            "h9g7",
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        let pos = Position::start();
        for t in [
            "",
            "C2",
            "C2.0",
            "X2.5",
            "C2*5",
            "++.4",
            "+-.4",
            "C2.55",
            "ＣＣＣＣＣＣ",
        ] {
            assert!(parse_wxf(&pos, t).is_err(), "{t}");
        }
    }
}
