//! Variations: each `[DhtmlXQ_move_P_S_B]` branch hung from its parent in the move tree,
//! where the writers' numbering disagrees.

use super::*;

/// Adds every branch to the tree, parents before children (breadth first from the main line,
/// so a branch whose parent is missing, or that hangs from itself, is never reached). Returns
/// each placed branch's nodes by ply (from ply 1, through its parent's moves).
pub(super) fn build_tree(
    record: &mut XiangqiRecord,
    start: &Position,
    branches: &[Branch],
) -> HashMap<u32, Vec<NodeId>> {
    let mut by_parent: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, b) in branches.iter().enumerate().filter(|(_, b)| b.id != 0) {
        by_parent.entry(b.parent).or_default().push(i);
    }
    let mut paths: HashMap<u32, Vec<NodeId>> = HashMap::new();
    let mut queue: VecDeque<usize> = branches.iter().position(|b| b.id == 0).into_iter().collect();
    while let Some(i) = queue.pop_front() {
        let b = &branches[i];
        let parent_path = if b.id == 0 {
            Vec::new()
        } else {
            paths.get(&b.parent).cloned().unwrap_or_default()
        };
        let path = place_branch(record, start, b, &parent_path);
        paths.insert(b.id, path);
        if let Some(children) = by_parent.get(&b.id) {
            queue.extend(children.iter().copied());
        }
    }
    for b in branches.iter().filter(|b| !paths.contains_key(&b.id)) {
        record.issues.push(Issue {
            refused: None,
            ply: None,
            message: format!("[DhtmlXQ_{}]: no branch {} to hang from; ignored", b.field, b.parent),
        });
    }
    paths
}

/// The position after the moves of the nodes of `path`.
fn replay(record: &XiangqiRecord, start: &Position, path: &[NodeId]) -> Position {
    let mut pos = start.clone();
    for &id in path {
        if let Some(m) = record.tree.node(id).mv {
            pos.play_unchecked(m);
        }
    }
    pos
}

fn place_branch(record: &mut XiangqiRecord, start: &Position, b: &Branch, parent_path: &[NodeId]) -> Vec<NodeId> {
    let Some(&first) = b.moves.first() else {
        return parent_path
            .get(..b.start.saturating_sub(1))
            .unwrap_or(parent_path)
            .to_vec();
    };
    // Where the first move fits: the ply named, or one off for writers that count differently.
    let candidates = [Some(b.start), b.start.checked_add(1), b.start.checked_sub(1)];
    let fits = |s: usize| -> bool {
        if s == 0 || s - 1 > parent_path.len() {
            return false;
        }
        let pos = replay(record, start, &parent_path[..s - 1]);
        move_of(first).is_some_and(|m| pos.is_legal(m))
    };
    let at = candidates
        .into_iter()
        .flatten()
        .find(|&s| fits(s))
        .unwrap_or(b.start.max(1));
    if at - 1 > parent_path.len() {
        record.issues.push(Issue {
            refused: None,
            ply: Some(at),
            message: format!(
                "[DhtmlXQ_{}]: starts at ply {at} but its parent line has only {} legal plies; ignored",
                b.field,
                parent_path.len()
            ),
        });
        return parent_path.to_vec();
    }
    if at != b.start {
        record.issues.push(Issue {
            refused: None,
            ply: Some(at),
            message: format!(
                "[DhtmlXQ_{}]: its first move fits ply {at}, not the ply {} its name gives; placed at ply {at}",
                b.field, b.start
            ),
        });
    }
    let mut path = parent_path[..at - 1].to_vec();
    let mut pos = replay(record, start, &path);
    let mut node = path.last().copied().unwrap_or(MoveTree::<Move>::ROOT);
    for (k, &d) in b.moves.iter().enumerate() {
        let ply = at + k;
        let m = move_of(d).filter(|&m| pos.is_legal(m));
        let Some(m) = m else {
            let what = match move_of(d) {
                None => "a coordinate is off the board".to_string(),
                Some(m) => match pos.board().piece_at(m.from) {
                    None => format!("{} has no piece on its from-square", to_iccs(m)),
                    Some(p) if p.color != pos.turn() => {
                        format!("{} moves a {} piece but {} is to move", to_iccs(m), p.color, pos.turn())
                    }
                    Some(_) if pos.is_pseudo_legal(m) => format!(
                        "{} leaves {}'s king in check or facing the other king",
                        to_iccs(m),
                        pos.turn()
                    ),
                    Some(_) => format!("{} is not a move the piece can make", to_iccs(m)),
                },
            };
            let written: String = d.iter().map(|&x| char::from(b'0' + x)).collect();
            let refused = match move_of(d) {
                Some(m) => RefusedMove {
                    written,
                    ..RefusedMove::coordinates(&pos, m)
                },
                None => RefusedMove {
                    written,
                    why: Refusal::NotAMove,
                    self_check: None,
                    after: None,
                },
            };
            record.issues.push(Issue {
                refused: Some(refused.after(node)),
                ply: Some(ply),
                message: format!(
                    "[DhtmlXQ_{}] move {} ({}{}{}{}) in {}: {what}; the rest of this line is dropped",
                    b.field,
                    k + 1,
                    d[0],
                    d[1],
                    d[2],
                    d[3],
                    pos.fen()
                ),
            });
            break;
        };
        // A variation that repeats its parent's move follows the existing node.
        let existing = record.tree.children(node).find(|&c| record.tree.node(c).mv == Some(m));
        node = match existing {
            Some(c) => c,
            None => record.tree.add_child(node, m),
        };
        pos.play_unchecked(m);
        path.push(node);
    }
    path
}
