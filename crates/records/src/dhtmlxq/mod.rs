//! DhtmlXQ / UBB text (东萍象棋网 dpxq.com, wxf.ca): games as pseudo-BBCode blocks inside web
//! pages and forum posts.
//!
//! ```text
//! [DhtmlXQ]
//! [DhtmlXQ_title]…[/DhtmlXQ_title] [DhtmlXQ_red]…[/DhtmlXQ_red] [DhtmlXQ_result]红胜[/DhtmlXQ_result]
//! [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]
//! [DhtmlXQ_movelist]77477062…[/DhtmlXQ_movelist]
//! [DhtmlXQ_move_0_5_1]…[/DhtmlXQ_move_0_5_1] [DhtmlXQ_comment3]…[/DhtmlXQ_comment3]
//! [/DhtmlXQ]
//! ```
//!
//! Coordinates are `x y` digit pairs: x 0–8 from red's left, y 0–9 **from the top** (black's
//! back rank), so the ICCS rank is 9 − y; a move is `x1 y1 x2 y2` (炮二平五 = `7747`).
//! `binit` lists the 32 pieces in the fixed order 车马相仕帅仕相马车炮炮兵兵兵兵兵, red then
//! black, `99` for a piece off the board. There is no side-to-move field: red, unless the first
//! move moves a black piece.
//!
//! `[DhtmlXQ_commentN]` follows ply N of the main line (`comment0` precedes the first move);
//! `||` is a line break. A variation is `[DhtmlXQ_move_P_S_B]`: branch B, hanging from branch P
//! (0 = the main line), its first move an alternative to ply S of P; its comments are
//! `[DhtmlXQ_commentB_N]`. Writers disagree on the numbering, so a first move that is not
//! legal at ply S is tried at S + 1 and S − 1.

use std::collections::{HashMap, VecDeque};

use xiangqi::notation::to_iccs;
use xiangqi::{Board, Color, Move, Position, PositionError, Setup, Square};

use crate::record::{Issue, MoveTree, NodeId, Refusal, RefusedMove, XiangqiRecord};

mod branches;
mod markup;

use branches::build_tree;
use markup::{blocks, fields, find_ci, unescape};

/// Why a DhtmlXQ block could not be read. `offset` is the byte offset in the text given to the
/// reader.
#[derive(Debug, thiserror::Error)]
pub enum DhtmlXqError {
    #[error("no [DhtmlXQ]…[/DhtmlXQ] block and no [DhtmlXQ_…] field found")]
    NoBlock,
    #[error(
        "block {block} (byte offset {offset}): [DhtmlXQ_binit] must be 64 digits, an x y pair for each of the 32 \
         pieces; found {found:?}"
    )]
    BadBinit { block: usize, offset: usize, found: String },
    #[error("block {block} (byte offset {offset}): [DhtmlXQ_binit] puts two pieces on x={x} y={y}")]
    BinitOverlap { block: usize, offset: usize, x: u8, y: u8 },
    #[error("block {block} (byte offset {offset}): the start position is not legal: {source}")]
    Position {
        block: usize,
        offset: usize,
        source: PositionError,
    },
}

/// Reads every block of a text or web page. Fails only when there is no block at all or when a
/// block cannot be read (the error names it); see [`read_dhtmlxq_blocks`] to keep the good
/// blocks of a page with a bad one.
///
/// ```
/// let page = "<p>[DhtmlXQ][DhtmlXQ_red]甲[/DhtmlXQ_red][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</p>";
/// let games = records::dhtmlxq::read_dhtmlxq(page).unwrap();
/// assert_eq!(games[0].tags.get("Red"), Some("甲"));
/// let moves: Vec<String> = games[0].tree.main_line().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7"]);
/// ```
pub fn read_dhtmlxq(text: &str) -> Result<Vec<XiangqiRecord>, DhtmlXqError> {
    let games = read_dhtmlxq_blocks(text);
    if games.is_empty() {
        return Err(DhtmlXqError::NoBlock);
    }
    games.into_iter().collect()
}

/// Reads every `[DhtmlXQ]…[/DhtmlXQ]` block of a text or web page, each on its own: a bad block
/// is an `Err` in its place. A block without its closing tag runs to the next block or the end.
pub fn read_dhtmlxq_blocks(text: &str) -> Vec<Result<XiangqiRecord, DhtmlXqError>> {
    blocks(text)
        .into_iter()
        .enumerate()
        .map(|(i, (offset, body))| read_block(text, i, offset, body))
        .collect()
}

/// Reads one game: a single block, with or without the `[DhtmlXQ]` wrapper (forum posts
/// sometimes carry the fields alone).
pub fn read_dhtmlxq_block(text: &str) -> Result<XiangqiRecord, DhtmlXqError> {
    if let Some((offset, body)) = blocks(text).into_iter().next() {
        return read_block(text, 0, offset, body);
    }
    if find_ci(text, 0, "[DhtmlXQ_").is_some() {
        return read_block(text, 0, 0, (0, text.len()));
    }
    Err(DhtmlXqError::NoBlock)
}

/// Field names and the PGN-style tags they become.
const TAGS: [(&str, &str); 17] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redelo", "RedElo"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blackelo", "BlackElo"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
    ("type", "GameType"),
    ("timerule", "TimeControl"),
    ("endtype", "Termination"),
];

/// The result field in the PGN form, if recognised: Chinese (红胜, 黑胜, 和棋, 未知, and the
/// 红先胜/红先负/红先和 of titles), PGN, or English words.
fn result_of(text: &str) -> Option<&'static str> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    Some(match t {
        "" | "*" | "未知" | "未明" | "不详" => "*",
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" | "½-½" => "1/2-1/2",
        _ if t.contains('和') || lower.starts_with("draw") || lower == "d" => "1/2-1/2",
        _ if [
            "红胜",
            "红方胜",
            "红先胜",
            "红方获胜",
            "黑负",
            "黑方负",
            "黑先负",
            "紅勝",
            "紅先勝",
        ]
        .iter()
        .any(|w| t.contains(w))
            || lower.starts_with("red win")
            || lower.starts_with("red won")
            || lower == "w" =>
        {
            "1-0"
        }
        _ if [
            "黑胜",
            "黑方胜",
            "黑先胜",
            "黑方获胜",
            "红负",
            "红方负",
            "红先负",
            "黑勝",
            "紅先負",
            "紅負",
        ]
        .iter()
        .any(|w| t.contains(w))
            || lower.starts_with("black win")
            || lower.starts_with("black won")
            || lower == "l" =>
        {
            "0-1"
        }
        _ => return None,
    })
}

fn square_xy(x: u8, y: u8) -> Option<Square> {
    if y > 9 {
        return None;
    }
    Square::from_xy(i32::from(x), 9 - i32::from(y))
}

/// Four digits per move; also says what was wrong if something other than digits came (the
/// moves before it are kept).
fn digits_to_moves(s: &str) -> (Vec<[u8; 4]>, Option<String>) {
    let mut moves = Vec::new();
    let mut cur = [0u8; 4];
    let mut n = 0;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        let Some(d) = c.to_digit(10) else {
            return (
                moves,
                Some(format!(
                    "{c:?} at character {i} of the move list is not a digit; the rest is ignored"
                )),
            );
        };
        cur[n] = d as u8;
        n += 1;
        if n == 4 {
            moves.push(cur);
            n = 0;
        }
    }
    let problem = (n != 0).then(|| format!("the move list ends with {n} stray digit(s), ignored"));
    (moves, problem)
}

fn move_of(d: [u8; 4]) -> Option<Move> {
    Some(Move::new(square_xy(d[0], d[1])?, square_xy(d[2], d[3])?))
}

/// A line of moves: the main line (id 0) or a variation.
struct Branch {
    id: u32,
    parent: u32,
    /// Ply (1-based) of its first move.
    start: usize,
    moves: Vec<[u8; 4]>,
    field: String,
}

fn read_block(text: &str, block: usize, offset: usize, range: (usize, usize)) -> Result<XiangqiRecord, DhtmlXqError> {
    let fields = fields(text, range);
    let get = |name: &str| fields.iter().find(|f| f.name == name);
    let mut issues = Vec::new();

    let mut branches = Vec::new();
    let (main, problem) = get("movelist").map_or((Vec::new(), None), |f| digits_to_moves(f.value));
    if let Some(p) = problem {
        issues.push(Issue {
            refused: None,
            ply: Some(main.len() + 1),
            message: format!("[DhtmlXQ_movelist]: {p}"),
        });
    }
    branches.push(Branch {
        id: 0,
        parent: 0,
        start: 1,
        moves: main,
        field: "movelist".to_string(),
    });
    for f in &fields {
        let Some(rest) = f.name.strip_prefix("move_") else {
            continue;
        };
        let nums: Vec<Option<u32>> = rest.split('_').map(|n| n.parse().ok()).collect();
        let (parent, start, id) = match nums.as_slice() {
            [Some(p), Some(s), Some(b)] => (*p, *s as usize, *b),
            _ => {
                issues.push(Issue {
                    refused: None,
                    ply: None,
                    message: format!(
                        "[DhtmlXQ_{}] at byte offset {}: expected move_PARENT_PLY_BRANCH; ignored",
                        f.name, f.offset
                    ),
                });
                continue;
            }
        };
        let (moves, problem) = digits_to_moves(f.value);
        if let Some(p) = problem {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!("[DhtmlXQ_{}]: {p}", f.name),
            });
        }
        if id == 0 || branches.iter().any(|b| b.id == id) {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!("[DhtmlXQ_{}]: branch {id} is defined twice; ignored", f.name),
            });
            continue;
        }
        branches.push(Branch {
            id,
            parent,
            start,
            moves,
            field: f.name.clone(),
        });
    }

    // Start position: binit, else a FEN that some pages put in comment0, else the standard one.
    let comment0 = get("comment0").map(|f| unescape(f.value).replace("||", "\n").trim().to_string());
    let first = branches
        .iter()
        .find(|b| b.start == 1 && !b.moves.is_empty())
        .and_then(|b| b.moves.first().copied());
    let pos = match get("binit").filter(|f| !f.value.trim().is_empty()) {
        Some(f) => {
            let board = binit_board(f.value, block, f.offset)?;
            let turn = first
                .and_then(|d| square_xy(d[0], d[1]))
                .and_then(|sq| board.piece_at(sq))
                .map_or(Color::Red, |p| p.color);
            let setup = Setup {
                board,
                turn,
                halfmoves: 0,
                fullmoves: 1,
            };
            Position::from_setup(setup)
                .or_else(PositionError::ignore_too_many_pieces)
                .map_err(|source| DhtmlXqError::Position {
                    block,
                    offset: f.offset,
                    source,
                })?
        }
        None => match comment0.as_deref().and_then(|c| Position::from_fen(c).ok()) {
            Some(p) => p,
            None => {
                let mut setup = Setup::default();
                setup.turn = first
                    .and_then(|d| square_xy(d[0], d[1]))
                    .and_then(|sq| setup.board.piece_at(sq))
                    .map_or(Color::Red, |p| p.color);
                Position::from_setup(setup).map_err(|source| DhtmlXqError::Position { block, offset, source })?
            }
        },
    };

    let mut record = XiangqiRecord::new(pos.fen().to_string());
    for (name, tag) in TAGS {
        if let Some(f) = get(name) {
            let v = unescape(f.value).trim().to_string();
            if !v.is_empty() {
                record.tags.set(tag, v);
            }
        }
    }
    let result_text = get("result").map(|f| unescape(f.value)).unwrap_or_default();
    let result = result_of(&result_text).unwrap_or_else(|| {
        issues.push(Issue {
            refused: None,
            ply: None,
            message: format!(
                "[DhtmlXQ_result] {:?} is not a result this reader knows; read as *",
                result_text.trim()
            ),
        });
        "*"
    });
    record.tags.set("Result", result);
    record.issues = issues;

    let paths = build_tree(&mut record, &pos, &branches);

    // Comments: main line `commentN`, variations `commentB_N`; N is the ply in that line.
    for f in &fields {
        let Some(rest) = f.name.strip_prefix("comment") else {
            continue;
        };
        let (branch, ply) = match rest.split_once('_') {
            Some((b, n)) => (b.parse::<u32>().ok(), n.parse::<usize>().ok()),
            None => (Some(0), rest.parse::<usize>().ok()),
        };
        let (Some(branch), Some(ply)) = (branch, ply) else {
            continue;
        };
        let text = unescape(f.value).replace("||", "\n").trim().to_string();
        if text.is_empty() {
            continue;
        }
        let node = if ply == 0 {
            Some(MoveTree::<Move>::ROOT)
        } else {
            paths.get(&branch).and_then(|path| path.get(ply - 1).copied())
        };
        match node {
            Some(n) => record.tree.set_comment(n, &text),
            None => record.issues.push(Issue {
                refused: None,
                ply: Some(ply),
                message: format!(
                    "[DhtmlXQ_{}] at byte offset {}: no move at ply {ply} of branch {branch}; comment dropped",
                    f.name, f.offset
                ),
            }),
        }
    }
    Ok(record)
}

fn binit_board(value: &str, block: usize, offset: usize) -> Result<Board, DhtmlXqError> {
    let chars: Vec<char> = value.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != 64 || !chars.iter().all(char::is_ascii_digit) {
        return Err(DhtmlXqError::BadBinit {
            block,
            offset,
            found: value.trim().chars().take(80).collect(),
        });
    }
    let digits: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
    let mut board = Board::empty();
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let (x, y) = (pair[0] - b'0', pair[1] - b'0');
        // 99 is the documented "captured"; any x of 9 is off the board all the same.
        let Some(sq) = square_xy(x, y) else {
            continue;
        };
        let color = if i < 16 { Color::Red } else { Color::Black };
        if board
            .set_piece_at(sq, crate::record::PIECE_LIST_ROLES[i % 16].of(color))
            .is_some()
        {
            return Err(DhtmlXqError::BinitOverlap { block, offset, x, y });
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        assert_eq!(result_of("红胜"), Some("1-0"));
        assert_eq!(result_of("黑胜"), Some("0-1"));
        assert_eq!(result_of("和棋"), Some("1/2-1/2"));
        assert_eq!(result_of("未知"), Some("*"));
        assert_eq!(result_of("红先负"), Some("0-1"));
        assert_eq!(result_of("???"), None);
    }

    #[test]
    fn fields_without_closing_tags_end_at_the_next_field() {
        let t = "[DhtmlXQ_title]a[DhtmlXQ_red]b[/DhtmlXQ_red]";
        let f = fields(t, (0, t.len()));
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].name.as_str(), f[0].value), ("title", "a"));
        assert_eq!((f[1].name.as_str(), f[1].value), ("red", "b"));
    }
}
