//! Xiangqi PGN: moves in Chinese, WXF or ICCS notation (the `Format` tag where present,
//! detected otherwise), a `FEN` tag for other starts, any of the encodings found in the wild.

use std::fmt;
use std::io::{self, BufRead};

use xiangqi::notation::{self, Notation, NotationError};
use xiangqi::{Color, Fen, Move, Position, Role};

use super::reader::{PgnReader, Skip, Visitor};
use super::tree::{write_movetext, MoveText};
use super::write::{CommentStyle, Movetext};
use crate::record::{Issue, MoveTree, NodeId, ReadOptions, RefusedMove, Tags, XiangqiRecord};
use crate::text::TextEncoding;
use crate::Outcome;

/// Builds a [`XiangqiRecord`] from a game's PGN, checking every move.
///
/// An unreadable or illegal move becomes an [`Issue`] naming the ply, and the rest of that line
/// (main line or variation) is skipped; the other lines and games still read.
pub struct XiangqiVisitor {
    record: XiangqiRecord,
    notation: Option<Notation>,
    line: Line,
    stack: Vec<Line>,
    valid: bool,
    options: ReadOptions,
    /// A finished record handed back by the caller, whose storage the next game reuses.
    spare: Option<XiangqiRecord>,
    /// The standard start, validated once rather than per game.
    start: Position,
}

/// The state of the line being read.
#[derive(Clone)]
struct Line {
    node: NodeId,
    pos: Position,
    /// The position before the last move of this line: where a variation starts from.
    before: Option<Position>,
    ply: usize,
    broken: bool,
}

impl Default for XiangqiVisitor {
    fn default() -> Self {
        XiangqiVisitor::new()
    }
}

impl XiangqiVisitor {
    pub fn new() -> XiangqiVisitor {
        XiangqiVisitor::with_options(ReadOptions::default())
    }

    pub fn with_options(options: ReadOptions) -> XiangqiVisitor {
        let pos = Position::start();
        let pos_start = pos.clone();
        XiangqiVisitor {
            record: XiangqiRecord::new(Fen::START),
            notation: None,
            line: Line {
                node: MoveTree::<Move>::ROOT,
                pos,
                before: None,
                ply: 0,
                broken: false,
            },
            stack: Vec::new(),
            valid: true,
            options,
            spare: None,
            start: pos_start,
        }
    }

    fn issue(&mut self, ply: Option<usize>, message: String) {
        self.record.issues.push(Issue::new(ply, message));
    }

    /// Reads a move in the record's notation, or else in any. The error says the most it can:
    /// a move the record's notation cannot read but another names (`h2e2` in a Chinese record)
    /// is refused as that move, not as unreadable.
    fn parse(&self, token: &str) -> Result<Move, NotationError> {
        let pos = &self.line.pos;
        let read = match self.notation {
            Some(Notation::Chinese) | None => notation::parse_chinese(pos, token),
            Some(n) => n.parse(pos, token),
        };
        read.or_else(|e| {
            notation::parse_any(pos, token).map_err(|any| if e.is_syntax() && !any.is_syntax() { any } else { e })
        })
    }
}

impl Visitor for XiangqiVisitor {
    type Output = XiangqiRecord;

    fn begin_game(&mut self) {
        // The record is the one `end_game` left ready (reused storage); options persist.
        self.record.clear(Fen::START);
        self.notation = None;
        self.line = Line {
            node: MoveTree::<Move>::ROOT,
            pos: self.start.clone(),
            before: None,
            ply: 0,
            broken: false,
        };
        self.stack.clear();
        self.valid = true;
    }

    fn tag(&mut self, name: &str, value: &str) {
        if name.eq_ignore_ascii_case("Format") {
            self.notation = match value.to_ascii_lowercase().as_str() {
                "wxf" => Some(Notation::Wxf),
                "iccs" => Some(Notation::Iccs),
                _ => Some(Notation::Chinese),
            };
        }
        self.record.tags.push(name, value);
    }

    fn begin_movetext(&mut self) -> Skip {
        // Most collections tag the standard start; it needs no parsing.
        let fen = self.record.tags.get("FEN").filter(|f| f.trim() != Fen::START);
        if let Some(fen) = fen.map(str::to_string) {
            match Position::from_fen(&fen) {
                Ok(pos) => {
                    self.record.start_fen = pos.fen().to_string();
                    self.line.pos = pos;
                }
                Err(xiangqi::FenError::Position(e)) => match e.clone().ignore_too_many_pieces() {
                    Ok(pos) => {
                        self.record.start_fen = pos.fen().to_string();
                        self.line.pos = pos;
                    }
                    Err(_) => {
                        self.issue(None, format!("FEN tag {fen:?}: {e}"));
                        self.valid = false;
                    }
                },
                Err(e) => {
                    self.issue(None, format!("FEN tag {fen:?}: {e}"));
                    self.valid = false;
                }
            }
        }
        Skip(!self.valid)
    }

    fn san(&mut self, token: &str) {
        if self.line.broken {
            return;
        }
        let ply = self.line.ply + 1;
        match self.parse(token) {
            Ok(m) => {
                let node = self.record.tree.add_child(self.line.node, m);
                let before = self.line.pos.clone();
                self.line.pos.play_unchecked(m);
                self.line.before = Some(before);
                self.line.node = node;
                self.line.ply = ply;
            }
            Err(e) => {
                let side = self.line.pos.turn();
                self.record.issues.push(Issue {
                    ply: Some(ply),
                    message: format!("{side} to move: {e}; the rest of this line is skipped"),
                    refused: Some(RefusedMove::xiangqi(token, &e).after(self.line.node)),
                });
                self.line.broken = true;
            }
        }
    }

    fn nag(&mut self, nag: u8) {
        // A NAG annotates a move; one before the first move has nothing to annotate.
        if !self.line.broken && self.line.node != MoveTree::<Move>::ROOT {
            self.record.tree.node_mut(self.line.node).nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        // An empty comment still counts: a blank `;` line between two is a paragraph break.
        if self.line.broken || !self.options.comments {
            return;
        }
        self.record.tree.append_comment(self.line.node, text);
    }

    fn begin_variation(&mut self) -> Skip {
        if !self.options.variations {
            return Skip(true);
        }
        let parent = self.record.tree.node(self.line.node).parent;
        let (Some(parent), Some(before)) = (parent, self.line.before.clone()) else {
            self.issue(Some(self.line.ply), "a variation before any move; skipped".to_string());
            return Skip(true);
        };
        let outer = self.line.clone();
        let ply = self.line.ply - 1;
        self.stack.push(outer);
        self.line = Line {
            node: parent,
            pos: before,
            before: None,
            ply,
            broken: self.line.broken,
        };
        Skip(false)
    }

    fn end_variation(&mut self) {
        if let Some(outer) = self.stack.pop() {
            self.line = outer;
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        if self.record.tags.get("Result").is_none() {
            self.record.tags.set("Result", outcome.pgn());
        }
    }

    fn end_game(&mut self) -> XiangqiRecord {
        let next = match self.spare.take() {
            Some(mut r) => {
                r.clear(Fen::START);
                r
            }
            None => XiangqiRecord::new(Fen::START),
        };
        std::mem::replace(&mut self.record, next)
    }
}

/// Reads Xiangqi PGN games one after another from a stream of any size.
///
/// ```
/// let pgn = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 1-0\n";
/// let games: Vec<_> = records::pgn::XiangqiGames::new(pgn.as_bytes()).collect::<Result<_, _>>().unwrap();
/// let line: Vec<String> = games[0].tree.main_line().map(|m| m.to_string()).collect();
/// assert_eq!(line, ["h2e2", "h9g7", "h0g2"]);
/// ```
pub struct XiangqiGames<R> {
    reader: PgnReader<R>,
    visitor: XiangqiVisitor,
}

impl<R: BufRead> XiangqiGames<R> {
    pub fn new(inner: R) -> XiangqiGames<R> {
        XiangqiGames {
            reader: PgnReader::new(inner),
            visitor: XiangqiVisitor::new(),
        }
    }

    pub fn with_encoding(inner: R, encoding: TextEncoding) -> XiangqiGames<R> {
        XiangqiGames {
            reader: PgnReader::with_encoding(inner, encoding),
            visitor: XiangqiVisitor::new(),
        }
    }

    /// Reads keeping only what `options` asks for.
    pub fn with_options(mut self, options: ReadOptions) -> XiangqiGames<R> {
        self.visitor.options = options;
        self
    }

    /// Reads the next game into `record`, reusing the storage of the game it held before, and
    /// returns whether there was one (see [`ChessGames::read_into`](crate::chess::ChessGames::read_into)).
    pub fn read_into(&mut self, record: &mut XiangqiRecord) -> io::Result<bool> {
        match self.reader.read_game(&mut self.visitor)? {
            Some(game) => {
                self.visitor.spare = Some(std::mem::replace(record, game));
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The encoding detected or given.
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.reader.encoding()
    }
}

impl<R: BufRead> Iterator for XiangqiGames<R> {
    type Item = io::Result<XiangqiRecord>;
    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.visitor).transpose()
    }
}

/// Writes a record as Xiangqi PGN for the standard's readers (see [`write_pgn_styled`]).
pub fn write_pgn(record: &XiangqiRecord, notation: Notation, out: &mut impl fmt::Write) -> fmt::Result {
    write_pgn_styled(record, notation, PgnStyle::Standard, out)
}

/// Writes a record as PGN: its tags (the Seven Tag Roster first), a `FEN` tag for another
/// start, a `Format` tag for a notation other than Chinese, and the move tree in `notation`,
/// as `style` asks.
pub fn write_pgn_styled(
    record: &XiangqiRecord,
    notation: Notation,
    style: PgnStyle,
    out: &mut impl fmt::Write,
) -> fmt::Result {
    let start = start_position(record);
    let standard = start.fen().board_and_turn() == Position::start().fen().board_and_turn();
    let mut tags = Tags::default();
    for (name, value) in record.tags.iter() {
        if name.eq_ignore_ascii_case("FEN") || name.eq_ignore_ascii_case("Format") {
            continue;
        }
        tags.set(name, value);
    }
    if !standard {
        tags.set("FEN", start.fen().to_string());
    }
    if notation != Notation::Chinese || record.tags.get("Format").is_some() {
        tags.set("Format", format_name(notation));
    }
    tags.write_pgn(out)?;
    let mut w = Movetext::new(out, CommentStyle::Tight).split_long_comments(false);
    write_movetext(&mut w, &Written { notation, style }, &record.tree, &start)?;
    let result = record
        .tags
        .get("Result")
        .and_then(Outcome::from_pgn)
        .unwrap_or(Outcome::Ongoing);
    w.finish(result.pgn())
}

/// Whom a Xiangqi PGN is written for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PgnStyle {
    /// The PGN standard with xqbase's Xiangqi conventions: comments, NAGs, variations.
    #[default]
    Standard,
    /// What the Python library cchess (walker8088) reads whole: the main line's moves alone
    /// (its reader stops at the first comment), and two advisors or two elephants on one file
    /// marked 前/后 (its reader does not tell them apart by 进/退 as the notation rules do).
    Cchess,
}

impl std::str::FromStr for PgnStyle {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "pgn" => Ok(PgnStyle::Standard),
            "cchess" => Ok(PgnStyle::Cchess),
            _ => Err(format!("unknown PGN style {s:?}; expected standard or cchess")),
        }
    }
}

/// A move in Chinese notation as cchess reads it: two advisors or two elephants on one file
/// are told apart by 前/后 (`前仕退五`) rather than by the move's direction (`仕六退五`).
pub fn chinese_for_cchess(pos: &Position, m: Move) -> String {
    let text = Notation::Chinese.write(pos, m);
    let Some(piece) = pos.board().piece_at(m.from) else {
        return text;
    };
    if !matches!(piece.role, Role::Advisor | Role::Elephant) {
        return text;
    }
    let file = m.from.file();
    let Some(twin) = pos
        .board()
        .pieces()
        .find(|&(sq, p)| p == piece && sq != m.from && sq.file() == file)
        .map(|(sq, _)| sq)
    else {
        return text;
    };
    let front = m.from.rank().relative_to(piece.color) > twin.rank().relative_to(piece.color);
    let mut chars = text.chars();
    let (Some(name), Some(_file), rest) = (chars.next(), chars.next(), chars.as_str()) else {
        return text;
    };
    format!("{}{name}{rest}", if front { '前' } else { '后' })
}

fn format_name(n: Notation) -> &'static str {
    match n {
        Notation::Chinese => "Chinese",
        Notation::Wxf => "WXF",
        Notation::Iccs | Notation::Fsf => "ICCS",
    }
}

/// The record's start position (the standard one if its FEN does not read).
pub fn start_position(record: &XiangqiRecord) -> Position {
    Position::from_fen(&record.start_fen)
        .or_else(|e| match e {
            xiangqi::FenError::Position(e) => e.ignore_too_many_pieces().map_err(|_| ()),
            _ => Err(()),
        })
        .unwrap_or_default()
}

/// Xiangqi movetext in a notation and style, for [`write_movetext`].
struct Written {
    notation: Notation,
    style: PgnStyle,
}

impl MoveText for Written {
    type Pos = Position;
    type Move = Move;
    fn first_to_move(pos: &Position) -> bool {
        pos.turn() == Color::Red
    }
    fn fullmoves(pos: &Position) -> u32 {
        pos.fullmoves()
    }
    fn play(pos: &mut Position, m: Move) {
        pos.play_unchecked(m);
    }
    fn text(&self, pos: &Position, m: Move) -> String {
        match (self.style, self.notation) {
            (PgnStyle::Cchess, Notation::Chinese) => chinese_for_cchess(pos, m),
            _ => self.notation.write(pos, m),
        }
    }
    fn annotations(&self) -> bool {
        self.style == PgnStyle::Standard
    }
}
