//! 象棋桥 CCBridge binaries: one game (`.cbr`, "CCBridge Record") and libraries of games
//! (`.cbl`, "CCBridgeLibrary").
//!
//! # CBR layout (little-endian)
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 16 | magic `CCBridge Record\0` |
//! | 20 | 16 | GUID of the game |
//! | 180 | 128 | title (标题) |
//! | 692 | 64 | event (赛事) |
//! | 884 | 64 | date (日期), free text such as `1956年12月17日` |
//! | 948 | 64 | site (地点) |
//! | 1076 / 1140 | 64 each | red player (红方) / red team |
//! | 1300 / 1364 | 64 each | black player (黑方) / black team |
//! | 1908 / 1972 | 64 each | created / modified time (not read) |
//! | 2036 | 4 | ECCO opening code, ASCII (`C84\0`) |
//! | 2040 | 4 | game type |
//! | 2076 | 4 | result: 0 unknown, 1 red wins, 2 black wins, 3 draw, 4 several results |
//! | 2112 | 4 | side to move: 1 red, 2 black |
//! | 2116 | 4 | number of the first move |
//! | 2120 | 90 | board, row by row from black's back rank, each row from file a; 0x11..0x17 red 车马相仕帅炮兵, 0x21..0x27 black |
//! | 2214 | 4 | opening-comment flag; if non-zero, a 4-byte byte length and UTF-16LE text follow |
//!
//! Text fields are UTF-16LE and end at the first NUL: the writer leaves whatever was in memory
//! after it, so nothing past the NUL means anything.
//!
//! Then one 4-byte record per move, in pre-order (a move, the subtree of its continuation, then
//! the subtree of its next alternative): `flags, hint, from, to`. `from`/`to` are board indexes
//! as above. Flags: 0x01 this move ends its line (no continuation), 0x02 an alternative to this
//! move follows once its subtree ends, 0x04 a comment follows (4-byte byte length + UTF-16LE).
//! `hint` is 1 when the continuation of this move has alternatives; it repeats what the 0x02
//! flags say and is not needed.
//!
//! # CBL layout
//!
//! Magic `CCBridgeLibrary\0`; at 60 the number of index entries (the library's capacity, 128
//! in the samples, not the number of games); at 64 the library name (512 bytes); at 0x340 the
//! creator (128 bytes); at 0x440 the description (简介, 65,536 bytes). At 66,624 the index:
//! one 276-byte entry per capacity slot — `state` (0 = free), `slot`, `slot count`, `byte size`,
//! reserved, the GUID as text (80 bytes), the title (176 bytes). The games follow the index, one
//! CBR record per 4,096-byte slot (`slot` counts from the end of the index).

use xiangqi::notation::to_iccs;
use xiangqi::{Board, Color, Move, Position, PositionError, Role, Setup, Square};

use crate::record::{Issue, MoveTree, NodeId, Refusal, RefusedMove, XiangqiRecord};

mod library;
mod moves;

pub use library::{read_cbl, CblLibrary};
use moves::{comment_at, read_moves};

const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";

const TEXT_FIELDS: [(&str, usize, usize); 8] = [
    ("Title", 180, 128),
    ("Event", 692, 64),
    ("Date", 884, 64),
    ("Site", 948, 64),
    ("Red", 1076, 64),
    ("RedTeam", 1140, 64),
    ("Black", 1300, 64),
    ("BlackTeam", 1364, 64),
];
const ECCO: usize = 2036;
const RESULT: usize = 2076;
const SIDE_TO_MOVE: usize = 2112;
const MOVE_NUMBER: usize = 2116;
const BOARD: usize = 2120;
const MOVES: usize = 2214;
/// Everything up to and including the opening-comment flag must be there.
const HEADER_LEN: usize = MOVES + 4;

/// Why a CCBridge record or library could not be read. Offsets count from the start of the
/// record (for a game in a library, [`CbrError::InLibrary`] gives where that record starts).
#[derive(Debug, thiserror::Error)]
pub enum CbrError {
    #[error("not a {what}: expected the magic {expected:?} at byte offset 0, found {found:?}")]
    BadMagic {
        what: &'static str,
        expected: String,
        found: String,
    },
    #[error("truncated {what}: needs {needed} bytes, found only {found}")]
    Truncated {
        what: &'static str,
        needed: usize,
        found: usize,
    },
    #[error("bad piece code {code:#04x} at byte offset {offset}: expected 0 or 0x11-0x17 (red) / 0x21-0x27 (black)")]
    BadPiece { code: u8, offset: usize },
    #[error("start position (board at byte offset 2120) is not legal: {0}")]
    Position(#[from] PositionError),
    #[error(
        "library index entry {entry} (byte offset {offset}) points at slot {slot}, at byte offset {slot_offset}, \
         beyond the end of the file ({len} bytes)"
    )]
    SlotOutOfRange {
        entry: usize,
        offset: usize,
        slot: u32,
        slot_offset: usize,
        len: usize,
    },
    #[error("game {game} of the library (record at byte offset {offset}): {source}")]
    InLibrary {
        game: usize,
        offset: usize,
        source: Box<CbrError>,
    },
}

fn u32_at(bytes: &[u8], offset: usize) -> Option<u32> {
    let b = bytes.get(offset..offset.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Decodes UTF-16LE; unpaired surrogates become U+FFFD; an odd last byte is ignored.
fn utf16(bytes: &[u8]) -> String {
    let units = bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// A NUL-terminated UTF-16LE string inside a fixed field; the part of the field the file lacks
/// reads as empty.
fn field_text(bytes: &[u8], offset: usize, len: usize) -> String {
    let end = offset.saturating_add(len).min(bytes.len());
    let field = bytes.get(offset..end).unwrap_or(&[]);
    let nul = field
        .chunks_exact(2)
        .position(|c| c == [0, 0])
        .map_or(field.len() & !1, |i| i * 2);
    utf16(&field[..nul]).trim().to_string()
}

/// The file starts with `magic`, or a `BadMagic` error saying what was found instead.
fn check_magic(bytes: &[u8], magic: &[u8; 16], what: &'static str) -> Result<(), CbrError> {
    if bytes.get(..16) == Some(&magic[..]) {
        return Ok(());
    }
    Err(CbrError::BadMagic {
        what,
        expected: magic.escape_ascii().to_string(),
        found: bytes[..bytes.len().min(16)].escape_ascii().to_string(),
    })
}

/// Board index (row 0 = black's back rank, files from a) to a square.
fn square_of(index: u8) -> Option<Square> {
    let i = i32::from(index);
    if i >= 90 {
        return None;
    }
    Square::from_xy(i % 9, 9 - i / 9)
}

fn role_of(code: u8) -> Option<Role> {
    Some(match code & 0x0f {
        1 => Role::Rook,
        2 => Role::Horse,
        3 => Role::Elephant,
        4 => Role::Advisor,
        5 => Role::King,
        6 => Role::Cannon,
        7 => Role::Pawn,
        _ => return None,
    })
}

fn read_board(bytes: &[u8]) -> Result<Board, CbrError> {
    let mut board = Board::empty();
    for (i, &code) in bytes.get(BOARD..BOARD + 90).unwrap_or(&[]).iter().enumerate() {
        if code == 0 {
            continue;
        }
        let bad = CbrError::BadPiece {
            code,
            offset: BOARD + i,
        };
        let color = match code >> 4 {
            1 => Color::Red,
            2 => Color::Black,
            _ => return Err(bad),
        };
        let role = role_of(code).ok_or(bad)?;
        if let Some(sq) = square_of(i as u8) {
            board.set_piece_at(sq, role.of(color));
        }
    }
    Ok(board)
}

fn result_tag(code: u32) -> &'static str {
    match code {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    }
}

/// Reads one game, a whole `.cbr` file or a record cut out of a library.
///
/// Tags: `Title`, `Event`, `Date`, `Site`, `Red`, `RedTeam`, `Black`, `BlackTeam`, `ECCO` when
/// present, and `Result` always (`1-0`, `0-1`, `1/2-1/2`, `*`). Every move is checked against
/// the position; an illegal one becomes an [`Issue`] and the rest of its line is dropped, while
/// the other lines still read. Moves that stop in the middle of the tree also give an issue.
pub fn read_cbr(bytes: &[u8]) -> Result<XiangqiRecord, CbrError> {
    check_magic(bytes, RECORD_MAGIC, "CCBridge record")?;
    if bytes.len() < HEADER_LEN {
        return Err(CbrError::Truncated {
            what: "CCBridge record header (through the opening-comment flag at byte offset 2214)",
            needed: HEADER_LEN,
            found: bytes.len(),
        });
    }
    let mut issues = Vec::new();
    let board = read_board(bytes)?;

    // The opening comment sits between the flag and the first move.
    let mut p = HEADER_LEN;
    let mut root_comment = None;
    if u32_at(bytes, MOVES).unwrap_or(0) != 0 {
        match comment_at(bytes, p) {
            Some((text, next)) => {
                root_comment = Some(text);
                p = next;
            }
            None => {
                issues.push(Issue {
                    refused: None,
                    ply: None,
                    message: format!(
                        "the opening comment at byte offset {p} runs past the end of the data ({} bytes); \
                         no moves read",
                        bytes.len()
                    ),
                });
                p = bytes.len();
            }
        }
    }

    // The header's side-to-move field and the colour of the first piece moved should agree;
    // when they do not, the moves are what a replay can follow.
    let header_side = match u32_at(bytes, SIDE_TO_MOVE) {
        Some(1) => Some(Color::Red),
        Some(2) => Some(Color::Black),
        _ => None,
    };
    let first_mover = bytes
        .get(p + 2)
        .and_then(|&from| square_of(from))
        .and_then(|sq| board.piece_at(sq))
        .map(|piece| piece.color);
    let turn = match (header_side, first_mover) {
        (Some(h), Some(m)) if h != m => {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!(
                    "the header (byte offset {SIDE_TO_MOVE}) says {h} moves first but the first move is {m}'s; \
                     following the moves"
                ),
            });
            m
        }
        (Some(h), _) => h,
        (None, m) => {
            let value = u32_at(bytes, SIDE_TO_MOVE).unwrap_or(0);
            let side = m.unwrap_or(Color::Red);
            let why = if m.is_some() {
                "from the first move"
            } else {
                "as there is no move"
            };
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!(
                    "side to move at byte offset {SIDE_TO_MOVE} is {value}, expected 1 (red) or 2 (black); \
                     taking {side} {why}"
                ),
            });
            side
        }
    };
    // A damaged counter must not make the move numbers of every later writer absurd.
    let fullmoves = u32_at(bytes, MOVE_NUMBER).unwrap_or(1).clamp(1, 10_000);
    let setup = Setup {
        board,
        turn,
        halfmoves: 0,
        fullmoves,
    };
    let pos = Position::from_setup(setup).or_else(PositionError::ignore_too_many_pieces)?;

    let mut record = XiangqiRecord::new(pos.fen().to_string());
    record.issues = issues;
    for (name, offset, len) in TEXT_FIELDS {
        let text = field_text(bytes, offset, len);
        if !text.is_empty() {
            record.tags.set(name, text);
        }
    }
    let ecco: String = bytes
        .get(ECCO..ECCO + 4)
        .unwrap_or(&[])
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect();
    if ecco.len() == 3 && ecco.chars().all(|c| c.is_ascii_alphanumeric()) {
        record.tags.set("ECCO", ecco);
    }
    let result = u32_at(bytes, RESULT).unwrap_or(0);
    if result > 4 {
        record.issues.push(Issue {
            refused: None,
            ply: None,
            message: format!("result at byte offset {RESULT} is {result}, expected 0-4; read as unknown"),
        });
    }
    record.tags.set("Result", result_tag(result));
    if let Some(c) = root_comment {
        record.tree.set_comment(MoveTree::<Move>::ROOT, &c);
    }

    read_moves(bytes, p, pos, &mut record);
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_indexes_count_from_blacks_back_rank() {
        assert_eq!(square_of(0).map(|s| s.to_string()).as_deref(), Some("a9"));
        assert_eq!(square_of(70).map(|s| s.to_string()).as_deref(), Some("h2"));
        assert_eq!(square_of(89).map(|s| s.to_string()).as_deref(), Some("i0"));
        assert_eq!(square_of(90), None);
    }

    #[test]
    fn field_text_stops_at_nul_and_survives_short_data() {
        let mut b = vec![0u8; 8];
        b[0] = b'a';
        b[2] = b'b';
        b[6] = b'z';
        assert_eq!(field_text(&b, 0, 8), "ab");
        assert_eq!(field_text(&b, 6, 8), "z");
        assert_eq!(field_text(&b, 7, 8), "");
        assert_eq!(field_text(&b, 100, 8), "");
    }
}
