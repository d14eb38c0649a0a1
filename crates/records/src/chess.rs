//! Chess PGN on pgn-reader and shakmaty: every move checked with shakmaty's SAN, tags, comments
//! (clock comments included), NAGs and variations kept in the record's move tree.

use std::fmt;
use std::io::Read;
use std::ops::ControlFlow;

use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus as WriteSan;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use crate::pgn::{write_movetext, CommentStyle, MoveText, Movetext};
use crate::record::{Issue, MoveTree, NodeId, ReadOptions, Record, Refusal, RefusedMove, Tags};
use crate::text::utf8_lossy;

/// A chess record.
pub type ChessRecord = Record<Move>;

/// The standard start in FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Builds a [`ChessRecord`] per game.
#[derive(Default)]
pub struct ChessVisitor {
    /// A finished record handed back by the caller, whose storage the next game reuses.
    spare: Option<ChessRecord>,
    options: ReadOptions,
}

impl ChessVisitor {
    pub fn new(options: ReadOptions) -> ChessVisitor {
        ChessVisitor { spare: None, options }
    }
}

/// The record being read, before its moves: tags and the start position.
pub struct TagState {
    record: ChessRecord,
    /// Set by a `FEN` tag; the standard start otherwise.
    start: Option<Chess>,
    castling: CastlingMode,
}

/// The line being read. The position before its last move, which a variation starts from, is
/// rebuilt from the line's start when a variation needs it: cloning it at every move would cost
/// more than all variations together.
#[derive(Clone)]
struct Line {
    /// Where this line starts, and the position there.
    start: NodeId,
    start_pos: Chess,
    node: NodeId,
    pos: Chess,
    ply: usize,
    broken: bool,
}

impl Line {
    fn new(node: NodeId, pos: Chess, ply: usize, broken: bool) -> Line {
        Line {
            start: node,
            start_pos: pos.clone(),
            node,
            pos,
            ply,
            broken,
        }
    }

    /// The position at `target`, a node of this line (the start or after it).
    fn position_at(&self, tree: &MoveTree<Move>, target: NodeId) -> Chess {
        let mut path = Vec::new();
        let mut n = target;
        while n != self.start {
            path.push(tree.node(n).mv.expect("non-root node has a move"));
            n = tree.node(n).parent.expect("the line's start is an ancestor");
        }
        let mut pos = self.start_pos.clone();
        for m in path.into_iter().rev() {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// The record under construction.
pub struct MoveState {
    record: ChessRecord,
    line: Line,
    stack: Vec<Line>,
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

impl Visitor for ChessVisitor {
    type Tags = TagState;
    type Movetext = MoveState;
    type Output = ChessRecord;

    fn begin_tags(&mut self) -> ControlFlow<ChessRecord, TagState> {
        let record = match self.spare.take() {
            Some(mut r) => {
                r.clear(START_FEN);
                r
            }
            None => Record::new(START_FEN),
        };
        ControlFlow::Continue(TagState {
            record,
            start: None,
            castling: CastlingMode::Standard,
        })
    }

    fn tag(&mut self, tags: &mut TagState, name: &[u8], value: RawTag<'_>) -> ControlFlow<ChessRecord> {
        let name = utf8_lossy(name);
        let decoded = value.decode();
        let value = utf8_lossy(&decoded);
        if name.eq_ignore_ascii_case("Variant") && value.to_ascii_lowercase().contains("960") {
            tags.castling = CastlingMode::Chess960;
        }
        if name.eq_ignore_ascii_case("FEN") {
            let parsed = Fen::from_ascii(value.as_bytes())
                .map_err(|e| e.to_string())
                .and_then(|f| f.into_position(tags.castling).map_err(|e| e.to_string()));
            match parsed {
                Ok(pos) => tags.start = Some(pos),
                Err(e) => tags.record.issues.push(Issue {
                    refused: None,
                    ply: None,
                    message: format!("FEN tag {value:?}: {e}"),
                }),
            }
        }
        tags.record.tags.push(&name, &value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: TagState) -> ControlFlow<ChessRecord, MoveState> {
        let mut record = tags.record;
        let start = match tags.start {
            Some(pos) => {
                record.start_fen = fen_of(&pos);
                pos
            }
            None => Chess::default(),
        };
        let broken = !record.issues.is_empty();
        let line = Line::new(MoveTree::<Move>::ROOT, start, 0, broken);
        ControlFlow::Continue(MoveState {
            record,
            line,
            stack: Vec::new(),
        })
    }

    fn san(&mut self, st: &mut MoveState, san_plus: SanPlus) -> ControlFlow<ChessRecord> {
        if st.line.broken {
            return ControlFlow::Continue(());
        }
        let ply = st.line.ply + 1;
        match san_plus.san.to_move(&st.line.pos) {
            Ok(m) => {
                let node = st.record.tree.add_child(st.line.node, m);
                st.line.pos.play_unchecked(m);
                st.line.node = node;
                st.line.ply = ply;
            }
            Err(e) => {
                let side = st.line.pos.turn();
                let why = match e {
                    shakmaty::san::SanError::AmbiguousSan => Refusal::Ambiguous,
                    shakmaty::san::SanError::IllegalSan => Refusal::Illegal,
                };
                st.record.issues.push(Issue {
                    ply: Some(ply),
                    message: format!("{side} to move: {san_plus}: {e}; the rest of this line is skipped"),
                    refused: Some(RefusedMove {
                        written: san_plus.to_string(),
                        why,
                        self_check: None,
                        after: Some(st.line.node),
                    }),
                });
                st.line.broken = true;
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, st: &mut MoveState, nag: Nag) -> ControlFlow<ChessRecord> {
        // A NAG annotates a move; one before the first move has nothing to annotate.
        if !st.line.broken && st.line.node != MoveTree::<Move>::ROOT {
            st.record.tree.node_mut(st.line.node).nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, st: &mut MoveState, comment: RawComment<'_>) -> ControlFlow<ChessRecord> {
        if st.line.broken || !self.options.comments {
            return ControlFlow::Continue(());
        }
        st.record
            .tree
            .append_comment(st.line.node, &utf8_lossy(comment.as_bytes()));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, st: &mut MoveState) -> ControlFlow<ChessRecord, pgn_reader::Skip> {
        if !self.options.variations {
            return ControlFlow::Continue(pgn_reader::Skip(true));
        }
        let parent = st.record.tree.node(st.line.node).parent;
        let Some(parent) = parent.filter(|_| st.line.node != st.line.start) else {
            let ply = Some(st.line.ply);
            st.record.issues.push(Issue {
                refused: None,
                ply,
                message: "a variation before any move; skipped".to_string(),
            });
            return ControlFlow::Continue(pgn_reader::Skip(true));
        };
        let before = st.line.position_at(&st.record.tree, parent);
        let inner = Line::new(parent, before, st.line.ply - 1, st.line.broken);
        st.stack.push(std::mem::replace(&mut st.line, inner));
        ControlFlow::Continue(pgn_reader::Skip(false))
    }

    fn end_variation(&mut self, st: &mut MoveState) -> ControlFlow<ChessRecord> {
        if let Some(outer) = st.stack.pop() {
            st.line = outer;
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, st: &mut MoveState, outcome: pgn_reader::Outcome) -> ControlFlow<ChessRecord> {
        if st.record.tags.get("Result").is_none() {
            st.record.tags.set("Result", outcome.to_string());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, st: MoveState) -> ChessRecord {
        st.record
    }
}

/// Reads chess PGN games one after another from a stream of any size.
pub struct ChessGames<R> {
    reader: Reader<R>,
    visitor: ChessVisitor,
}

impl<R: Read> ChessGames<R> {
    pub fn new(inner: R) -> ChessGames<R> {
        ChessGames {
            reader: Reader::new(inner),
            visitor: ChessVisitor::new(ReadOptions::default()),
        }
    }

    /// Reads keeping only what `options` asks for.
    pub fn with_options(mut self, options: ReadOptions) -> ChessGames<R> {
        self.visitor.options = options;
        self
    }
}

impl<R: Read> ChessGames<R> {
    /// Reads the next game into `record`, reusing the storage of the game it held before, and
    /// returns whether there was one. Reading a file this way allocates nothing per game once
    /// the buffers have grown to the file's largest game; the iterator allocates a record each.
    pub fn read_into(&mut self, record: &mut ChessRecord) -> std::io::Result<bool> {
        match self.reader.read_game(&mut self.visitor)? {
            Some(game) => {
                self.visitor.spare = Some(std::mem::replace(record, game));
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl<R: Read> Iterator for ChessGames<R> {
    type Item = std::io::Result<ChessRecord>;
    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.visitor).transpose()
    }
}

/// The record's start position (the standard one if its FEN does not read).
pub fn start_position(record: &ChessRecord) -> Chess {
    let castling = match record.tags.get("Variant") {
        Some(v) if v.contains("960") => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    Fen::from_ascii(record.start_fen.as_bytes())
        .ok()
        .and_then(|f| f.into_position(castling).ok())
        .unwrap_or_default()
}

/// Writes a record as PGN with SAN moves, its tags (a `FEN` tag for other starts), comments,
/// NAGs and variations.
pub fn write_pgn(record: &ChessRecord, out: &mut impl fmt::Write) -> fmt::Result {
    let start = start_position(record);
    let standard = fen_of(&start) == START_FEN;
    let mut tags = Tags::default();
    for (name, value) in record.tags.iter() {
        if !name.eq_ignore_ascii_case("FEN") && !name.eq_ignore_ascii_case("SetUp") {
            tags.set(name, value);
        }
    }
    if !standard {
        tags.set("SetUp", "1");
        tags.set("FEN", fen_of(&start));
    }
    tags.write_pgn(out)?;
    let mut w = Movetext::new(out, CommentStyle::Padded).split_long_comments(false);
    write_movetext(&mut w, &San, &record.tree, &start)?;
    let result = record
        .tags
        .get("Result")
        .and_then(crate::Outcome::from_pgn)
        .unwrap_or(crate::Outcome::Ongoing);
    w.finish(result.pgn())
}

/// SAN movetext for [`write_movetext`].
struct San;

impl MoveText for San {
    type Pos = Chess;
    type Move = Move;
    fn first_to_move(pos: &Chess) -> bool {
        pos.turn().is_white()
    }
    fn fullmoves(pos: &Chess) -> u32 {
        pos.fullmoves().get()
    }
    fn play(pos: &mut Chess, m: Move) {
        pos.play_unchecked(m);
    }
    fn text(&self, pos: &Chess, m: Move) -> String {
        WriteSan::from_move(pos.clone(), m).to_string()
    }
}
