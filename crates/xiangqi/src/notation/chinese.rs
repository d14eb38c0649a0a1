//! Chinese notation (中文纵线记谱): `炮二平五`, `马８进７`, `前车进一`, `二兵平五`, `前兵四平五`.
//!
//! Red counts files 一…九 from its right, black １…９ from its own right. Read leniently:
//! simplified or traditional glyphs (車馬砲俥傌帥將進後), full-width or ASCII digits for either
//! side, 上/下 for 进/退, 前/后 left out where only one of the two pieces can make the move.

use crate::{Color, Move, Position, Role};

use super::describe::{
    canonical_qual, describe, resolve, standard_material, tiers, Description, Dir, Pattern, Qual, Tiers,
};

use super::NotationError;

const EXPECTED: &str = "a Chinese move like 炮二平五 or 马８进７";
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULLWIDTH: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Writes `m`, a legal move of `pos`, the way xqbase does: red in Chinese numerals, black in
/// full-width digits, 前/中/后 or 一二三… for several pieces on a file.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let d = describe(pos, m);
    let text = write(&d, canonical_qual(&d, false), false);
    if standard_material(pos) || parse_chinese(pos, &text) == Ok(m) {
        return text;
    }
    // Beyond the standard set (a composed problem with extra pawns) the xqbase numbering can
    // run past 五 or collide; the traditional five-character form names the file as well.
    let qual = match (d.index, d.count) {
        (0, _) => Qual::Front,
        (i, n) if i + 1 == n => Qual::Rear,
        (1, 3) => Qual::Middle,
        (i, _) => Qual::OrdinalInFile(i + 1),
    };
    write(&d, Some(qual), true)
}

fn write(d: &Description, qual: Option<Qual>, with_file: bool) -> String {
    let glyph = crate::Piece {
        color: d.color,
        role: d.role,
    }
    .chinese();
    let num = |n: u8| match d.color {
        Color::Red => RED_NUMERALS[n as usize - 1],
        Color::Black => FULLWIDTH[n as usize - 1],
    };
    // Four or five characters of three bytes each: one allocation.
    let mut s = String::with_capacity(15);
    match qual {
        None => {
            s.push(glyph);
            s.push(num(d.file));
        }
        Some(q) => {
            s.push(match q {
                Qual::Front => '前',
                Qual::Rear => '后',
                Qual::Middle => '中',
                Qual::Ordinal(k) | Qual::OrdinalInFile(k) => RED_NUMERALS[(k as usize).clamp(1, 9) - 1],
                // Chinese has no WXF signs; canonical_qual never gives them for Chinese.
                Qual::WxfPlus | Qual::WxfFirst => '前',
                Qual::WxfMinus | Qual::WxfLast => '后',
            });
            s.push(glyph);
            if with_file {
                s.push(num(d.file));
            }
        }
    }
    s.push(match d.dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Sideways => '平',
    });
    s.push(num(d.number));
    s
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sym {
    Piece(Role),
    Num(u8),
    Dir(Dir),
    Mark(Qual),
}

fn symbol(c: char) -> Option<Sym> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Sym::Piece(Role::King),
        '仕' | '士' => Sym::Piece(Role::Advisor),
        '相' | '象' => Sym::Piece(Role::Elephant),
        '马' | '馬' | '傌' | '碼' | '瑪' => Sym::Piece(Role::Horse),
        '车' | '車' | '俥' | '硨' | '伡' => Sym::Piece(Role::Rook),
        '炮' | '砲' | '包' => Sym::Piece(Role::Cannon),
        '兵' | '卒' => Sym::Piece(Role::Pawn),
        '进' | '進' | '上' => Sym::Dir(Dir::Forward),
        '退' | '下' => Sym::Dir(Dir::Backward),
        '平' => Sym::Dir(Dir::Sideways),
        '前' => Sym::Mark(Qual::Front),
        '中' => Sym::Mark(Qual::Middle),
        '后' | '後' => Sym::Mark(Qual::Rear),
        '1'..='9' => Sym::Num(c as u8 - b'0'),
        '１'..='９' => Sym::Num((c as u32 - '１' as u32 + 1) as u8),
        _ => {
            let n = RED_NUMERALS.iter().position(|&r| r == c)?;
            Sym::Num(n as u8 + 1)
        }
    })
}

/// Reads a Chinese move and finds it among the legal moves.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let syntax = || NotationError::Syntax {
        text: text.to_string(),
        expected: EXPECTED,
    };
    // At most five symbols make a move; read them into a fixed buffer.
    let mut syms = [Sym::Num(0); 6];
    let mut n = 0;
    for c in text.chars() {
        // Whitespace is tested only for what is not a symbol: the test looks CJK glyphs up in
        // a table, which cost as much as reading the symbols.
        let Some(sym) = symbol(c) else {
            if c.is_whitespace() {
                continue;
            }
            return Err(syntax());
        };
        if n == syms.len() {
            return Err(syntax());
        }
        syms[n] = sym;
        n += 1;
    }
    let tiers = read(&syms[..n]).ok_or_else(syntax)?;
    resolve(pos, text, &tiers)
}

fn read(s: &[Sym]) -> Option<Tiers> {
    use Sym::*;
    let (head, dir, number) = match s {
        [h @ .., Dir(d), Num(n)] => (h, *d, *n),
        _ => return None,
    };
    let p = Pattern::maker(dir, number);
    Some(match *head {
        // 炮二: plain. On a file of three pawns it means the middle one first.
        [Piece(r), Num(f)] => tiers(&[p(Some(r), Some(f), Some(Qual::Middle))], &[p(Some(r), Some(f), None)]),
        // 前车, 中兵, 后炮
        [Mark(q), Piece(r)] => tiers(&[p(Some(r), None, Some(q))], &[]),
        // 二兵: ordinal (xqbase numbers pawns across files)
        [Num(k), Piece(r)] => tiers(&[p(Some(r), None, Some(Qual::Ordinal(k)))], &[]),
        // 前九: position and file without the piece (CXA style, pawns on two files)
        [Mark(q), Num(f)] => tiers(&[p(None, Some(f), Some(q))], &[]),
        // 二7: ordinal and file without the piece
        [Num(k), Num(f)] => tiers(&[p(None, Some(f), Some(Qual::OrdinalInFile(k)))], &[]),
        // 前兵四: five characters, position, piece and file
        [Mark(q), Piece(r), Num(f)] => tiers(&[p(Some(r), Some(f), Some(q))], &[]),
        [Num(k), Piece(r), Num(f)] => tiers(&[p(Some(r), Some(f), Some(Qual::OrdinalInFile(k)))], &[]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_iccs;

    fn check(fen: &str, text: &str, iccs: &str) {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            parse_chinese(&pos, text).map(|m| m.to_string()),
            Ok(iccs.to_string()),
            "{text} in {fen}"
        );
    }

    #[test]
    fn opening_moves() {
        let pos = Position::start();
        assert_eq!(to_chinese(&pos, parse_iccs("h2e2").unwrap()), "炮二平五");
        assert_eq!(to_chinese(&pos, parse_iccs("h0g2").unwrap()), "马二进三");
        check(crate::Fen::START, "炮二平五", "h2e2");
        check(crate::Fen::START, "砲2平5", "h2e2");
        check(crate::Fen::START, "傌八進七", "b0c2");
        check(crate::Fen::START, "相三进五", "g0e2");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        check(black, "马８进７", "h9g7");
        check(black, "馬8進7", "h9g7");
        check(black, "马八进七", "h9g7");
        let pos = Position::from_fen(black).unwrap();
        assert_eq!(to_chinese(&pos, parse_iccs("h9g7").unwrap()), "马８进７");
    }

    #[test]
    fn tandem_pieces() {
        // Two red rooks on file e (五), one on e3 and one on e1.
        let fen = "5k3/9/9/9/9/9/4R4/9/4R4/3K5 w";
        check(fen, "前车平四", "e3f3");
        check(fen, "后车平四", "e1f1");
        check(fen, "後俥平4", "e1f1");
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(to_chinese(&pos, parse_iccs("e3e5").unwrap()), "前车进二");
        // Plain form: only the front rook can go forward five... both can't reach, so it is unique.
        check(fen, "车五进五", "e3e8");
        assert!(matches!(
            parse_chinese(&pos, "车五平四"),
            Err(NotationError::Ambiguous { .. })
        ));
    }

    #[test]
    fn rejects_nonsense() {
        let pos = Position::start();
        for t in ["", "炮", "炮二平", "炮二平〇", "hello", "炮二平五五", "车一进十"] {
            assert!(parse_chinese(&pos, t).is_err(), "{t}");
        }
    }
}
