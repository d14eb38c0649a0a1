//! A record's move tree as PGN movetext, through the one [`Movetext`] writer: the root
//! comment, the main line, and each alternative in parentheses right after the move it
//! replaces.

use std::fmt;

use super::write::Movetext;
use crate::record::{MoveTree, NodeId};

/// What writing movetext needs to know of a game.
pub(crate) trait MoveText {
    type Pos: Clone;
    type Move: Copy;
    /// Whether the first player (red, white) is to move.
    fn first_to_move(pos: &Self::Pos) -> bool;
    fn fullmoves(pos: &Self::Pos) -> u32;
    fn play(pos: &mut Self::Pos, m: Self::Move);
    /// The move as written in this game's notation.
    fn text(&self, pos: &Self::Pos, m: Self::Move) -> String;
    /// Whether comments, NAGs and variations are written (a reader that stops at them, such
    /// as cchess, gets the main line alone).
    fn annotations(&self) -> bool {
        true
    }
}

/// Writes the whole move tree from `start`.
pub(crate) fn write_movetext<G: MoveText, W: fmt::Write>(
    w: &mut Movetext<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    start: &G::Pos,
) -> fmt::Result {
    if let (true, Some(c)) = (game.annotations(), tree.comment(MoveTree::<G::Move>::ROOT)) {
        w.comment(c)?;
    }
    write_line(w, game, tree, MoveTree::<G::Move>::ROOT, start)
}

fn write_line<G: MoveText, W: fmt::Write>(
    w: &mut Movetext<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    node: NodeId,
    pos: &G::Pos,
) -> fmt::Result {
    let mut node = node;
    let mut pos = pos.clone();
    loop {
        let mut children = tree.children(node);
        let Some(main) = children.next() else { return Ok(()) };
        let m = tree.node(main).mv.expect("non-root node has a move");
        write_move(w, game, tree, main, &pos, m)?;
        if game.annotations() {
            for alt in children {
                let am = tree.node(alt).mv.expect("non-root node has a move");
                w.begin_variation()?;
                write_move(w, game, tree, alt, &pos, am)?;
                let mut after = pos.clone();
                G::play(&mut after, am);
                write_line(w, game, tree, alt, &after)?;
                w.end_variation()?;
            }
        }
        G::play(&mut pos, m);
        node = main;
    }
}

fn write_move<G: MoveText, W: fmt::Write>(
    w: &mut Movetext<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    id: NodeId,
    pos: &G::Pos,
    m: G::Move,
) -> fmt::Result {
    w.play(G::fullmoves(pos), G::first_to_move(pos), &game.text(pos, m))?;
    if !game.annotations() {
        return Ok(());
    }
    for &nag in &tree.node(id).nags {
        w.nag(nag)?;
    }
    if let Some(c) = tree.comment(id) {
        w.comment(c)?;
    }
    Ok(())
}
