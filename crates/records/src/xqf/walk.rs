//! The move tree of an XQF file: one record per move in pre-order, read into the record's
//! tree; an illegal move is kept out with its whole subtree and reported once.

use super::*;

/// One move record, decoded.
#[derive(Debug, Clone)]
pub(super) struct RawRecord {
    /// x·10+y, keys removed; > 89 is off the board.
    pub(super) from: u8,
    pub(super) to: u8,
    pub(super) child: bool,
    pub(super) sibling: bool,
    /// The comment's bytes, as a range of the decrypted tree.
    pub(super) comment: Range<usize>,
}

#[derive(Clone)]
pub(super) struct Cursor<'a> {
    pub(super) body: &'a [u8],
    /// Read position in `body` (file offset minus [`HEADER_LEN`]).
    pub(super) pos: usize,
    pub(super) version: u8,
    pub(super) keys: &'a Keys,
}

impl Cursor<'_> {
    pub(super) fn offset(&self) -> usize {
        HEADER_LEN + self.pos
    }

    pub(super) fn take4(&mut self, what: &str) -> Result<[u8; 4], String> {
        let left = self.body.len().saturating_sub(self.pos);
        let bytes = self
            .body
            .get(self.pos..self.pos.saturating_add(4))
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .ok_or_else(|| {
                format!(
                    "the file ends inside the {what} at byte offset {:#x}: 4 bytes needed, {left} left",
                    self.offset()
                )
            })?;
        self.pos += 4;
        Ok(bytes)
    }

    /// Reads the next record. An error is a message for an [`Issue`]: nothing after it can be
    /// found, since records have no length of their own.
    pub(super) fn next_record(&mut self) -> Result<RawRecord, String> {
        let [from, to, tag, _] = self.take4("move record")?;
        let (child, sibling, has_comment) = if self.version == PLAIN_VERSION {
            (tag & 0xf0 != 0, tag & 0x0f != 0, true)
        } else {
            // Only the top three bits mean anything; XQStudio fills the rest with noise.
            (tag & 0x80 != 0, tag & 0x40 != 0, tag & 0x20 != 0)
        };
        let mut comment = self.pos..self.pos;
        if has_comment {
            let at = self.offset();
            let len = i32::from_le_bytes(self.take4("comment length")?).wrapping_sub(self.keys.comment);
            let left = self.body.len().saturating_sub(self.pos);
            let len = usize::try_from(len).ok().filter(|&n| n <= left).ok_or_else(|| {
                format!("the comment length at byte offset {at:#x} is {len}; expected 0 to {left}, the bytes left")
            })?;
            comment = self.pos..self.pos + len;
            self.pos += len;
        }
        Ok(RawRecord {
            from: from.wrapping_sub(0x18).wrapping_sub(self.keys.from),
            to: to.wrapping_sub(0x20).wrapping_sub(self.keys.to),
            child,
            sibling,
            comment,
        })
    }
}

/// Where the next record hangs.
#[derive(Debug, Clone, Copy)]
enum Parent {
    /// Under a kept node, `depth` plies from the start position.
    Kept { node: NodeId, depth: usize },
    /// Somewhere under an illegal move: read past, not kept.
    Dropped,
}

/// An illegal move whose subtree is being skipped; its issue is written once the size is known.
pub(super) struct Dropping {
    pub(super) ply: usize,
    pub(super) message: String,
    pub(super) refused: RefusedMove,
    pub(super) records: usize,
}

pub(super) struct Walk<'a> {
    pub(super) pos: &'a mut Position,
    pub(super) tree: &'a mut MoveTree<Move>,
    pub(super) comments: &'a mut Vec<(NodeId, Range<usize>)>,
    pub(super) issues: &'a mut Vec<Issue>,
    pub(super) dropping: Option<Dropping>,
}

impl Walk<'_> {
    /// Reads the records under the root. Pre-order: a record, then its first child's subtree,
    /// then its next sibling's subtree, so a stack of the siblings still due is all the state
    /// needed; one position is moved along the tree with do/undo.
    pub(super) fn run(&mut self, cursor: &mut Cursor<'_>) {
        let mut due: Vec<Parent> = Vec::new();
        let mut path: Vec<(Move, Undo)> = Vec::new();
        let mut next = Some(Parent::Kept {
            node: MoveTree::<Move>::ROOT,
            depth: 0,
        });
        while let Some(parent) = next {
            let at = cursor.offset();
            let rec = match cursor.next_record() {
                Ok(rec) => rec,
                Err(message) => {
                    self.flush();
                    self.issues.push(Issue {
                        refused: None,
                        ply: None,
                        message: format!("{message}; the rest of the move tree is lost"),
                    });
                    break;
                }
            };
            let child_parent = match parent {
                Parent::Dropped => {
                    if let Some(d) = &mut self.dropping {
                        d.records += 1;
                    }
                    Parent::Dropped
                }
                Parent::Kept { node, depth } => {
                    self.flush();
                    debug_assert!(path.len() >= depth, "a due sibling's parent is on the current path");
                    while path.len() > depth {
                        let Some((m, undo)) = path.pop() else { break };
                        self.pos.undo_move(m, undo);
                    }
                    match self.legal(&rec) {
                        Ok(mv) => {
                            path.push((mv, self.pos.do_move(mv)));
                            let id = self.tree.add_child(node, mv);
                            if !rec.comment.is_empty() {
                                self.comments.push((id, rec.comment.clone()));
                            }
                            Parent::Kept {
                                node: id,
                                depth: depth + 1,
                            }
                        }
                        Err((why, refused)) => {
                            self.dropping = Some(Dropping {
                                ply: depth + 1,
                                message: format!("move record at byte offset {at:#x}: {why}"),
                                refused: refused.after(node),
                                records: 0,
                            });
                            Parent::Dropped
                        }
                    }
                }
            };
            if rec.sibling {
                due.push(parent);
            }
            next = if rec.child { Some(child_parent) } else { due.pop() };
        }
        self.flush();
    }

    /// The record's move if legal here, or why not with the move refused.
    pub(super) fn legal(&self, rec: &RawRecord) -> Result<Move, (String, RefusedMove)> {
        let (Some(from), Some(to)) = (square(rec.from), square(rec.to)) else {
            let refused = RefusedMove {
                written: format!("{}-{}", rec.from, rec.to),
                why: Refusal::NotAMove,
                self_check: None,
                after: None,
            };
            return Err((
                format!(
                    "the move from point {} to point {} (x·10+y) is off the board",
                    rec.from, rec.to
                ),
                refused,
            ));
        };
        let mv = Move::new(from, to);
        if self.pos.is_legal(mv) {
            return Ok(mv);
        }
        let turn = self.pos.turn();
        let why = match self.pos.board().piece_at(from) {
            None => format!("no piece stands on {from}"),
            Some(p) if p.color != turn => format!("it moves a {} {} but {turn} is to move", p.color, p.role),
            Some(p) if self.pos.is_pseudo_legal(mv) => {
                format!(
                    "the {} {} may go there but that leaves {turn}'s king in check or facing the other king",
                    p.color, p.role
                )
            }
            Some(p) => format!("the {} {} cannot go there", p.color, p.role),
        };
        Err((
            format!("{mv} is not legal in {}: {why}", self.pos.fen().board_and_turn()),
            RefusedMove::coordinates(self.pos, mv),
        ))
    }

    pub(super) fn flush(&mut self) {
        if let Some(d) = self.dropping.take() {
            self.issues.push(Issue {
                ply: Some(d.ply),
                message: format!("{}; dropped with the {} records after it", d.message, d.records),
                refused: Some(d.refused),
            });
        }
    }
}
