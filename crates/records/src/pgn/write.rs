//! Movetext layout shared by the PGN writers: tokens wrapped near 80 columns, parentheses
//! hugging what they enclose, comments in braces.

use std::fmt;

use crate::record::{MoveTree, NodeId, Outcome, Tags};

pub(crate) struct Wrap<'a, W> {
    pub out: &'a mut W,
    col: usize,
    glue: bool,
}

impl<'a, W: fmt::Write> Wrap<'a, W> {
    pub fn new(out: &'a mut W) -> Self {
        Wrap {
            out,
            col: 0,
            glue: false,
        }
    }

    /// Writes a token, wrapping lines near 80 columns.
    pub fn token(&mut self, t: &str) -> fmt::Result {
        let width = t.chars().count();
        // Parentheses hug what they enclose: `(1... 炮８平５)`.
        let glue = self.glue || t == ")";
        if self.col > 0 && self.col + 1 + width > 80 {
            writeln!(self.out)?;
            self.col = 0;
        } else if self.col > 0 && !glue {
            self.out.write_char(' ')?;
            self.col += 1;
        }
        self.out.write_str(t)?;
        self.col += width;
        self.glue = t == "(";
        Ok(())
    }

    /// Writes a comment. Braces cannot hold a `}` (PGN has no escape), so such a comment goes
    /// out as `;` comments, one per line, which read back joined by newlines.
    pub fn comment(&mut self, text: &str, padded: bool) -> fmt::Result {
        if !text.contains('}') {
            return if padded {
                self.token(&format!("{{ {text} }}"))
            } else {
                self.token(&format!("{{{text}}}"))
            };
        }
        for line in text.lines() {
            self.token(&format!(";{line}"))?;
            writeln!(self.out)?;
            self.col = 0;
        }
        Ok(())
    }

    /// Ends the movetext with the result token of the `Result` tag (`*` if none) and a newline.
    pub fn finish(&mut self, tags: &Tags) -> fmt::Result {
        let result = tags
            .get("Result")
            .and_then(Outcome::from_pgn)
            .unwrap_or(Outcome::Unknown);
        self.token(result.pgn())?;
        writeln!(self.out)
    }
}

/// What writing movetext needs to know of a game.
pub(crate) trait MoveText {
    type Pos: Clone;
    type Move: Copy;
    /// Comments as `{ text }` (the chess habit) or `{text}` (xqbase's).
    const PADDED_COMMENTS: bool;
    /// Whether the first player (red, white) is to move.
    fn first_to_move(pos: &Self::Pos) -> bool;
    fn fullmoves(pos: &Self::Pos) -> u32;
    fn play(pos: &mut Self::Pos, m: Self::Move);
    /// The move as written in this game's notation.
    fn text(&self, pos: &Self::Pos, m: Self::Move) -> String;
}

/// Writes the whole move tree from `start`: the root comment, the main line, and each
/// alternative in parentheses right after the move it replaces.
pub(crate) fn write_movetext<G: MoveText, W: fmt::Write>(
    w: &mut Wrap<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    start: &G::Pos,
) -> fmt::Result {
    if let Some(c) = tree.comment(MoveTree::<G::Move>::ROOT) {
        w.comment(c, G::PADDED_COMMENTS)?;
    }
    write_line(w, game, tree, MoveTree::<G::Move>::ROOT, start, true)
}

fn write_line<G: MoveText, W: fmt::Write>(
    w: &mut Wrap<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    node: NodeId,
    pos: &G::Pos,
    mut need_number: bool,
) -> fmt::Result {
    let mut node = node;
    let mut pos = pos.clone();
    loop {
        let mut children = tree.children(node);
        let Some(main) = children.next() else { return Ok(()) };
        let m = tree.node(main).mv.expect("non-root node has a move");
        write_move(w, game, tree, main, &pos, m, need_number)?;
        let mut alternatives = false;
        for alt in children {
            alternatives = true;
            let am = tree.node(alt).mv.expect("non-root node has a move");
            w.token("(")?;
            write_move(w, game, tree, alt, &pos, am, true)?;
            let mut after = pos.clone();
            G::play(&mut after, am);
            write_line(w, game, tree, alt, &after, false)?;
            w.token(")")?;
        }
        // After a variation or a comment, black's move needs its number again: `3... 马８进７`.
        need_number = alternatives || tree.comment(main).is_some();
        G::play(&mut pos, m);
        node = main;
    }
}

fn write_move<G: MoveText, W: fmt::Write>(
    w: &mut Wrap<'_, W>,
    game: &G,
    tree: &MoveTree<G::Move>,
    id: NodeId,
    pos: &G::Pos,
    m: G::Move,
    need_number: bool,
) -> fmt::Result {
    let n = G::fullmoves(pos);
    if G::first_to_move(pos) {
        w.token(&format!("{n}."))?;
    } else if need_number {
        w.token(&format!("{n}..."))?;
    }
    w.token(&game.text(pos, m))?;
    for nag in &tree.node(id).nags {
        w.token(&format!("${nag}"))?;
    }
    if let Some(c) = tree.comment(id) {
        w.comment(c, G::PADDED_COMMENTS)?;
    }
    Ok(())
}
