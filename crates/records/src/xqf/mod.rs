//! XQF, the binary record format of 象棋演播室 (XQStudio, by 董世伟): reading.
//!
//! A file is a 1024-byte header — tags as Pascal strings, the start position as a table of 32
//! piece slots, and key bytes — followed by the move tree, one record per move, in pre-order.
//! Version 10 (XQF 1.0) stores everything plainly; versions 11 and later obscure the piece
//! table, the move squares, the comment lengths and every byte after the header with keys
//! derived from the header. The layout is described in `records.md` §2.2 of the shared specs.

use std::borrow::Cow;
use std::ops::Range;

use xiangqi::{Board, Color, Move, Position, Setup, Square, Undo};

use crate::record::{Issue, MoveTree, NodeId, Record, Refusal, RefusedMove, Tags, XiangqiRecord};
use crate::text::{self, TextEncoding};

mod keys;
mod start;
mod walk;

use keys::Keys;
use start::{first_turn, place_pieces, square, start_position};
use walk::{Cursor, RawRecord, Walk};

/// Length of the header; the move tree starts at this byte offset.
pub const HEADER_LEN: usize = 1024;

/// XQF 1.0, the first published version and the last one without keys.
const PLAIN_VERSION: u8 = 10;
/// The newest version seen in real files; later ones may change the layout.
const NEWEST_VERSION: u8 = 18;

/// The key stream is this notice masked with the key bytes.
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Header strings: tag name, byte offset, field size (a length byte, then the text).
/// The first five are always written, as PGN's seven-tag roster would be.
const TEXT_FIELDS: [(&str, usize, usize); 12] = [
    ("Event", 0xd0, 64),
    ("Site", 0x120, 16),
    ("Date", 0x110, 16),
    ("Red", 0x130, 16),
    ("Black", 0x140, 16),
    ("Title", 0x50, 64),
    ("XQFTitleB", 0x90, 64),
    ("XQFTimeRule", 0x150, 64),
    ("XQFRedTime", 0x190, 16),
    ("XQFBlackTime", 0x1a0, 16),
    // 评注 (commentator) and 作者 (author of the record).
    ("Annotator", 0x1d0, 16),
    ("Author", 0x1e0, 16),
];
const ROSTER_FIELDS: usize = 5;

/// Why an XQF file could not be read at all. Problems in the move tree are not errors: they
/// become [`Issue`]s of the record and the rest of the file is still read.
#[derive(Debug, thiserror::Error)]
pub enum XqfError {
    #[error("not an XQF file: expected the signature \"XQ\" at byte offset 0, found {}", hex(.found))]
    NotXqf { found: Vec<u8> },
    #[error("XQF file too short: the {what} at byte offset {offset} needs {needed} bytes, but the file has {len}")]
    Truncated {
        what: &'static str,
        offset: usize,
        needed: usize,
        len: usize,
    },
    #[error("unsupported XQF version {0} at byte offset 2: expected 10 (XQF 1.0) to 18, the versions known")]
    UnsupportedVersion(u8),
    #[error("the start position of the XQF file (piece table at byte offsets 0x10-0x2f) is not legal: {0}")]
    BadPosition(String),
}

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "an empty file".to_string();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

/// Reads an XQF file: tags, start position and the whole move tree with comments.
///
/// Tags: `Event`, `Site`, `Date`, `Red`, `Black`, `Result` (`1-0`, `0-1`, `1/2-1/2`, `*`) always;
/// `Title`, `Annotator`, `Author` and the XQF-only `XQFTitleB`, `XQFTimeRule`, `XQFRedTime`,
/// `XQFBlackTime` when not empty; `XQFVersion` (the version byte) and `XQFGameType`
/// (`full game`, `opening`, `middlegame`, `endgame`, or the number). Strings are GBK unless the
/// text reads better as Big5. The root's comment is the game's opening comment.
///
/// Every move is checked against the position it is played in. An illegal one (or one off the
/// board) is dropped together with everything that follows it — its continuation and the
/// variations inside that — and an [`Issue`] at its ply (1-based, from the start position)
/// says so, ending with `; dropped with the N records after it`; its own alternatives (later
/// siblings) are still read. A tree cut short or with a corrupt comment length keeps what was
/// read before and gets an [`Issue`] naming the byte offset.
///
/// The side to move first comes from header byte 0x32, checked against the colour of the piece
/// the first move moves; when they disagree the piece wins and an [`Issue`] says so.
pub fn read_xqf(bytes: &[u8]) -> Result<XiangqiRecord, XqfError> {
    let header = header(bytes)?;
    let version = header[2];
    if !(PLAIN_VERSION..=NEWEST_VERSION).contains(&version) {
        return Err(XqfError::UnsupportedVersion(version));
    }
    let mut issues = Vec::new();
    let keys = if version == PLAIN_VERSION {
        Keys::PLAIN
    } else {
        let sum = header[0x0c..0x10].iter().fold(0u8, |a, &b| a.wrapping_add(b));
        if sum != 0 {
            // XQStudio refuses such a file; the moves will show whether the keys are usable.
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!(
                    "the key bytes at offsets 0x0c-0x0f sum to {sum:#04x} (mod 256); XQStudio expects 0x00"
                ),
            });
        }
        Keys::derive(header)
    };
    let body = keys.decrypt(bytes.get(HEADER_LEN..).unwrap_or_default());
    let mut cursor = Cursor {
        body: &body,
        pos: 0,
        version,
        keys: &keys,
    };

    let root = cursor.next_record();
    // Peeked before the position is made, to settle who moves first.
    let first_move = match &root {
        Ok(r) if r.child => cursor.clone().next_record().ok(),
        _ => None,
    };

    let table = keys.piece_table(version, header);
    let board = place_pieces(&table, &mut issues);
    let turn = first_turn(header[0x32], &board, first_move.as_ref(), &mut issues);
    let mut pos = start_position(board, turn, &mut issues)?;
    let start_fen = pos.fen().to_string();

    let mut tree = MoveTree::new();
    let mut comments = Vec::new();
    match root {
        Ok(root) => {
            if !root.comment.is_empty() {
                comments.push((MoveTree::<Move>::ROOT, root.comment.clone()));
            }
            if root.sibling {
                issues.push(Issue {
                    refused: None,
                    ply: None,
                    message: format!(
                        "the root record at byte offset {HEADER_LEN:#x} has the sibling flag; the start position \
                         has no alternative, so it is ignored"
                    ),
                });
            }
            if root.child {
                let mut walk = Walk {
                    pos: &mut pos,
                    tree: &mut tree,
                    comments: &mut comments,
                    issues: &mut issues,
                    dropping: None,
                };
                walk.run(&mut cursor);
            }
        }
        Err(message) => issues.push(Issue::new(None, message)),
    }

    let encoding = choose_encoding(header, &body, &comments);
    for (id, range) in comments {
        let text = encoding.decode(body.get(range).unwrap_or_default()).into_owned();
        tree.set_comment(id, &text);
    }
    let tags = tags(header, version, encoding, &mut issues);
    Ok(Record {
        tags,
        start_fen,
        tree,
        issues,
    })
}

fn header(bytes: &[u8]) -> Result<&[u8; HEADER_LEN], XqfError> {
    let sig = bytes.get(..2).unwrap_or(bytes);
    if !b"XQ".starts_with(sig) {
        return Err(XqfError::NotXqf { found: sig.to_vec() });
    }
    bytes
        .get(..HEADER_LEN)
        .and_then(|h| h.try_into().ok())
        .ok_or(XqfError::Truncated {
            what: "header",
            offset: 0,
            needed: HEADER_LEN,
            len: bytes.len(),
        })
}

/// XQStudio is a GBK program, but a file made on a Big5 system holds Big5.
fn choose_encoding(h: &[u8; HEADER_LEN], body: &[u8], comments: &[(NodeId, Range<usize>)]) -> TextEncoding {
    // `detect` looks at no more than this.
    const SAMPLE: usize = 16 * 1024;
    // An invalid first byte keeps `detect` from calling short GBK text valid UTF-8 ("小" is
    // D0 A1); it costs GBK and Big5 one error each, so their comparison is unchanged.
    let mut sample = vec![0xff];
    for &(_, offset, size) in &TEXT_FIELDS {
        sample.extend_from_slice(pascal(h, offset, size));
        sample.push(b' ');
    }
    for (_, range) in comments {
        if sample.len() >= SAMPLE {
            break;
        }
        sample.extend_from_slice(body.get(range.clone()).unwrap_or_default());
        sample.push(b' ');
    }
    match text::detect(&sample) {
        TextEncoding::Big5 => TextEncoding::Big5,
        _ => TextEncoding::Gbk,
    }
}

/// The bytes of a Pascal string field: a length byte, then up to `size - 1` bytes. A name that
/// did not fit is cut at the byte, possibly inside a character; that half character is left out.
fn pascal(h: &[u8; HEADER_LEN], offset: usize, size: usize) -> &[u8] {
    let field = h.get(offset..offset + size).unwrap_or_default();
    let Some((&len, text)) = field.split_first() else {
        return &[];
    };
    let text = text.get(..usize::from(len)).unwrap_or(text);
    whole_characters(text)
}

/// The longest prefix that does not end inside a GBK/GB18030 or Big5 character.
fn whole_characters(b: &[u8]) -> &[u8] {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let step = match (c, b.get(i + 1)) {
            (0x81..=0xfe, Some(d)) if d.is_ascii_digit() => 4,
            (0x81..=0xfe, _) => 2,
            _ => 1,
        };
        if i + step > b.len() {
            return b.get(..i).unwrap_or_default();
        }
        i += step;
    }
    b
}

fn tags(h: &[u8; HEADER_LEN], version: u8, encoding: TextEncoding, issues: &mut Vec<Issue>) -> Tags {
    let mut tags = Tags::default();
    for (i, &(name, offset, size)) in TEXT_FIELDS.iter().enumerate() {
        let value = encoding.decode(pascal(h, offset, size));
        let value = value.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if i < ROSTER_FIELDS || !value.is_empty() {
            tags.set(name, value);
        }
        if i + 1 == ROSTER_FIELDS {
            tags.set("Result", result(h[0x33], issues));
        }
    }
    tags.set("XQFVersion", version.to_string());
    let game_type = match h[0x40] {
        0 => "full game".to_string(),
        1 => "opening".to_string(),
        2 => "middlegame".to_string(),
        3 => "endgame".to_string(),
        other => other.to_string(),
    };
    tags.set("XQFGameType", game_type);
    tags
}

fn result(b: u8, issues: &mut Vec<Issue>) -> &'static str {
    match b {
        0 => "*",
        1 => "1-0",
        2 => "0-1",
        // Some writers use 4 for a draw as well.
        3 | 4 => "1/2-1/2",
        other => {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!("header byte 0x33 (result) is {other}; expected 0 to 4; read as unknown"),
            });
            "*"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::keys::square_mix;
    use super::*;

    fn header_with(version: u8, mask: u8, or: [u8; 4], keys: [u8; 4]) -> Box<[u8; HEADER_LEN]> {
        let mut h = Box::new([0u8; HEADER_LEN]);
        h[0] = b'X';
        h[1] = b'Q';
        h[2] = version;
        h[3] = mask;
        h[0x08..0x0c].copy_from_slice(&or);
        h[0x0c..0x10].copy_from_slice(&keys);
        h
    }

    #[test]
    fn square_mix_is_the_nested_formula() {
        for b in 0..=255u8 {
            let nested = b
                .wrapping_mul(b)
                .wrapping_mul(3)
                .wrapping_add(9)
                .wrapping_mul(3)
                .wrapping_add(8)
                .wrapping_mul(2)
                .wrapping_add(1)
                .wrapping_mul(3)
                .wrapping_add(8);
            assert_eq!(square_mix(b), nested, "b = {b}");
        }
    }

    #[test]
    fn keys_chain() {
        // Header key bytes of a real version 12 file (KeysSum, KeyXY, KeyXYf, KeyXYt).
        let h = header_with(12, 0, [0; 4], [0xec, 0x09, 0xa4, 0x67]);
        let k = Keys::derive(&h);
        // f(9) = 54·81+221 = 4595 ≡ 0xf3; ·9 = 0x88b ≡ 0x8b.
        assert_eq!(k.table, 0x8b);
        assert_eq!(k.from, square_mix(0xa4).wrapping_mul(0x8b));
        assert_eq!(k.to, square_mix(0x67).wrapping_mul(k.from));
        // (0xec·256 + 9) mod 32000 + 767 = 28425 + 767.
        assert_eq!(k.comment, 29192);
        // No mask and no or-bytes: the stream is all zero and nothing is copied.
        assert_eq!(k.stream, [0; 32]);
        assert!(matches!(k.decrypt(b"abc"), Cow::Borrowed(_)));
    }

    #[test]
    fn stream_masks_the_copyright() {
        let h = header_with(18, 0x0f, [0x10, 0x20, 0x40, 0x80], [0xff, 0x03, 0x05, 0xf0]);
        let k = Keys::derive(&h);
        let kb = [0x10 | 0x0f, 0x20 | 0x03, 0x40 | 0x05, 0x80];
        for i in 0..32 {
            assert_eq!(k.stream[i], COPYRIGHT[i] & kb[i % 4], "i = {i}");
        }
        let plain: Vec<u8> = (0..70u8).collect();
        let cipher: Vec<u8> = plain
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_add(k.stream[i % 32]))
            .collect();
        assert_eq!(&*k.decrypt(&cipher), &plain[..]);
    }

    #[test]
    fn piece_table_rotates_then_subtracts() {
        let mut h = header_with(18, 0, [0; 4], [0, 0x37, 0, 0]);
        let key = Keys::derive(&h).table;
        let want: [u8; 32] = std::array::from_fn(|i| (i * 2) as u8);
        // Encode as the writer does: stored byte i holds slot (i + 1 + key) mod 32, plus key.
        for i in 0..32 {
            h[0x10 + i] = want[(i + 1 + usize::from(key)) % 32].wrapping_add(key);
        }
        assert_eq!(Keys::derive(&h).piece_table(18, &h), want);
        // Version 11 only subtracts.
        let mut h11 = header_with(11, 0, [0; 4], [0, 0x37, 0, 0]);
        for i in 0..32 {
            h11[0x10 + i] = want[i].wrapping_add(key);
        }
        assert_eq!(Keys::derive(&h11).piece_table(11, &h11), want);
        // Version 10 has no keys at all.
        let mut h10 = header_with(10, 0, [0; 4], [0; 4]);
        h10[0x10..0x30].copy_from_slice(&want);
        assert_eq!(Keys::PLAIN.piece_table(10, &h10), want);
    }

    #[test]
    fn squares_are_file_times_ten_plus_rank() {
        assert_eq!(square(0).map(|s| s.to_string()).as_deref(), Some("a0"));
        assert_eq!(square(89).map(|s| s.to_string()).as_deref(), Some("i9"));
        assert_eq!(square(47).map(|s| s.to_string()).as_deref(), Some("e7"));
        assert_eq!(square(90), None);
        assert_eq!(square(0xff), None);
    }

    #[test]
    fn cut_names_lose_the_half_character() {
        // "小红" in GBK, then a lone lead byte.
        assert_eq!(
            whole_characters(&[0xd0, 0xa1, 0xba, 0xec, 0xc0]),
            &[0xd0, 0xa1, 0xba, 0xec]
        );
        assert_eq!(whole_characters(b"ab\xd0"), b"ab");
        assert_eq!(whole_characters(b"abc"), b"abc");
        // A GB18030 four-byte sequence cut after three bytes.
        assert_eq!(whole_characters(&[b'a', 0x81, 0x30, 0x81]), b"a");
    }

    #[test]
    fn header_errors() {
        assert!(matches!(read_xqf(b""), Err(XqfError::Truncated { .. })));
        assert!(matches!(read_xqf(b"X"), Err(XqfError::Truncated { .. })));
        assert!(matches!(read_xqf(b"PK\x03\x04"), Err(XqfError::NotXqf { .. })));
        assert!(matches!(read_xqf(b"Y"), Err(XqfError::NotXqf { .. })));
        let h = header_with(9, 0, [0; 4], [0; 4]);
        assert!(matches!(read_xqf(&h[..]), Err(XqfError::UnsupportedVersion(9))));
        let msg = read_xqf(b"PK\x03\x04").unwrap_err().to_string();
        assert!(msg.contains("50 4b") && msg.contains("offset 0"), "{msg}");
    }
}
