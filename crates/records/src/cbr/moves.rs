//! The move records of a CBR game: 4-byte records in pre-order, each move checked against
//! the position before it is put in the tree.

use super::*;

const FLAG_END: u8 = 0x01;
const FLAG_ALTERNATIVE: u8 = 0x02;
const FLAG_COMMENT: u8 = 0x04;

/// A comment at `p`: 4-byte byte length, then UTF-16LE text. Returns it and where the next
/// record starts, or `None` when the data ends first.
pub(super) fn comment_at(bytes: &[u8], p: usize) -> Option<(String, usize)> {
    let len = u32_at(bytes, p)? as usize;
    let start = p + 4;
    let text = bytes.get(start..start.checked_add(len)?)?;
    let text = utf16(text);
    let text = text.trim_end_matches('\0').replace("\r\n", "\n");
    Some((text, start + len))
}

/// Where the reader stands in the tree: the node the next move hangs from, its ply, and whether
/// this line is still being followed (an illegal move drops the rest of it).
#[derive(Clone, Copy)]
struct Line {
    pub(super) parent: NodeId,
    pub(super) ply: usize,
    pub(super) alive: bool,
}

pub(super) fn read_moves(bytes: &[u8], start: usize, mut pos: Position, record: &mut XiangqiRecord) {
    if start >= bytes.len() {
        return;
    }
    // Moves of the current line with what is needed to take them back, so an alternative is
    // reached by undoing rather than by keeping a position per pending alternative.
    let mut played: Vec<(Move, xiangqi::Undo)> = Vec::new();
    let mut line = Line {
        parent: MoveTree::<Move>::ROOT,
        ply: 0,
        alive: true,
    };
    let mut pending: Vec<Line> = Vec::new();
    let mut p = start;
    loop {
        let Some(rec) = bytes.get(p..p + 4) else {
            let left = bytes.len().saturating_sub(p);
            record.issues.push(Issue {
                refused: None,
                ply: Some(line.ply + 1),
                message: format!(
                    "move data ends at byte offset {p}{} before the end of the move tree ({} alternative line{} \
                     not read)",
                    if left > 0 {
                        format!(" inside a record ({left} of 4 bytes)")
                    } else {
                        String::new()
                    },
                    pending.len(),
                    if pending.len() == 1 { "" } else { "s" }
                ),
            });
            return;
        };
        let (flags, from, to) = (rec[0], rec[2], rec[3]);
        let rec_offset = p;
        p += 4;
        let mut comment = None;
        let mut cut = false;
        if flags & FLAG_COMMENT != 0 {
            match comment_at(bytes, p) {
                Some((text, next)) => {
                    comment = Some(text);
                    p = next;
                }
                None => cut = true,
            }
        }
        // The alternative is another move from the same position as this one.
        if flags & FLAG_ALTERNATIVE != 0 {
            pending.push(line);
        }
        if line.alive {
            let ply = line.ply + 1;
            match check_move(&pos, from, to) {
                Ok(m) => {
                    let node = record.tree.add_child(line.parent, m);
                    if let Some(c) = comment.filter(|c| !c.is_empty()) {
                        record.tree.set_comment(node, &c);
                    }
                    played.push((m, pos.do_move(m)));
                    line = Line {
                        parent: node,
                        ply,
                        alive: true,
                    };
                }
                Err((why, refused)) => {
                    record.issues.push(Issue {
                        ply: Some(ply),
                        message: format!(
                            "ply {ply} (record at byte offset {rec_offset}): {why}; the rest of this line is dropped"
                        ),
                        refused: Some(refused.after(line.parent)),
                    });
                    line.alive = false;
                }
            }
        }
        if cut {
            record.issues.push(Issue {
                refused: None,
                ply: Some(line.ply),
                message: format!(
                    "the comment at byte offset {p} runs past the end of the data ({} bytes); the rest is not read",
                    bytes.len()
                ),
            });
            return;
        }
        if flags & FLAG_END != 0 {
            match pending.pop() {
                Some(next) => {
                    // Back to the position the alternative starts from.
                    if next.alive {
                        while played.len() > next.ply {
                            if let Some((m, undo)) = played.pop() {
                                pos.undo_move(m, undo);
                            }
                        }
                    }
                    line = next;
                }
                None => break,
            }
        }
    }
    if bytes.get(p..).is_some_and(|rest| rest.iter().any(|&b| b != 0)) {
        record.issues.push(Issue {
            refused: None,
            ply: None,
            message: format!(
                "{} bytes after the end of the move tree (byte offset {p}) ignored",
                bytes.len() - p
            ),
        });
    }
}

/// The move if legal in `pos`, or why not with the move refused.
fn check_move(pos: &Position, from: u8, to: u8) -> Result<Move, (String, RefusedMove)> {
    let (Some(f), Some(t)) = (square_of(from), square_of(to)) else {
        let refused = RefusedMove {
            written: format!("{from}-{to}"),
            why: Refusal::NotAMove,
            self_check: None,
            after: None,
        };
        return Err((format!("squares {from} -> {to} are not board indexes 0-89"), refused));
    };
    let m = Move::new(f, t);
    if pos.is_legal(m) {
        Ok(m)
    } else {
        let what = match pos.board().piece_at(f) {
            None => "there is no piece on its from-square".to_string(),
            Some(p) if p.color != pos.turn() => format!("it moves a {} piece but {} is to move", p.color, pos.turn()),
            Some(_) if pos.is_pseudo_legal(m) => {
                format!("it leaves {}'s king in check or facing the other king", pos.turn())
            }
            Some(_) => "the piece cannot go there".to_string(),
        };
        Err((
            format!("move {} is illegal in {}: {what}", to_iccs(m), pos.fen()),
            RefusedMove::coordinates(pos, m),
        ))
    }
}
