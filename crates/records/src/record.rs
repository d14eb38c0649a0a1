//! One game as a record file holds it: tags, the start position, and the moves as a tree
//! (main line first, then variations), with comments.

/// Tags in file order. Names are kept as written; lookups ignore ASCII case. All names and
/// values share one string, so a game's tags cost one or two allocations, not two per tag.
#[derive(Debug, Clone, Default)]
pub struct Tags {
    text: String,
    /// Per tag: where its name starts, where its value starts (the name's end), where it ends.
    spans: Vec<[u32; 3]>,
}

impl PartialEq for Tags {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl Tags {
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Removes every tag, keeping the storage for the next game.
    pub fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    fn span(&self, [a, b, c]: [u32; 3]) -> (&str, &str) {
        (&self.text[a as usize..b as usize], &self.text[b as usize..c as usize])
    }

    /// Values are kept on one line — a PGN tag cannot hold a line break — so a break read from
    /// a binary format or an escaped one in PGN becomes a space.
    fn append(&mut self, name: &str, value: &str) -> [u32; 3] {
        let a = self.text.len() as u32;
        self.text.push_str(name);
        let b = self.text.len() as u32;
        if value.bytes().any(|b| b == b'\n' || b == b'\r') {
            self.text
                .extend(value.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }));
        } else {
            self.text.push_str(value);
        }
        [a, b, self.text.len() as u32]
    }

    /// Adds a tag at the end, even if one of that name exists (files do repeat tags).
    pub fn push(&mut self, name: &str, value: &str) {
        let span = self.append(name, value);
        self.spans.push(span);
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    /// Sets a tag, replacing an existing one of the same name (in place) or appending.
    pub fn set(&mut self, name: &str, value: impl AsRef<str>) {
        let value = value.as_ref();
        let found = self.iter().position(|(n, _)| n.eq_ignore_ascii_case(name));
        match found {
            Some(i) => {
                let kept = self.span(self.spans[i]).0.to_string();
                self.spans[i] = self.append(&kept, value);
            }
            None => self.push(name, value),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.spans.iter().map(move |&s| self.span(s))
    }
}

/// Index of a node in a [`MoveTree`].
pub type NodeId = u32;

/// A node: the move that leads to it (none for the root, the start position), its comment, and
/// links to its first child (the main continuation) and its next sibling (an alternative to
/// this same move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node<M> {
    pub mv: Option<M>,
    /// Where the comment lies in the tree's text (see [`MoveTree::comment`]).
    comment: Option<(u32, u32)>,
    /// Numeric annotation glyphs (`$1` …), in order.
    pub nags: Vec<u8>,
    pub parent: Option<NodeId>,
    pub first_child: Option<NodeId>,
    pub next_sibling: Option<NodeId>,
}

/// The moves of a game: the root is the start position; following first children from it gives
/// the main line. Stored as arenas — nodes in one vector, comments in one string — so a game
/// with a clock comment on every move costs a few allocations, not one per move.
#[derive(Debug, Clone)]
pub struct MoveTree<M> {
    nodes: Vec<Node<M>>,
    text: String,
}

impl<M: PartialEq> PartialEq for MoveTree<M> {
    /// The same game tree: the same moves in the same order at every node, with the same NAGs
    /// and comments. Node numbering is not compared — formats store trees in different orders.
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(Self::ROOT, Self::ROOT)];
        while let Some((a, b)) = stack.pop() {
            let (x, y) = (self.node(a), other.node(b));
            if x.mv != y.mv || x.nags != y.nags || self.comment(a) != other.comment(b) {
                return false;
            }
            let mut xs = self.children(a);
            let mut ys = other.children(b);
            loop {
                match (xs.next(), ys.next()) {
                    (None, None) => break,
                    (Some(c), Some(d)) => stack.push((c, d)),
                    _ => return false,
                }
            }
        }
        true
    }
}

impl<M: Eq> Eq for MoveTree<M> {}

impl<M> Default for MoveTree<M> {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl<M> MoveTree<M> {
    pub const ROOT: NodeId = 0;

    pub fn new() -> MoveTree<M> {
        MoveTree {
            nodes: vec![Node {
                mv: None,
                comment: None,
                nags: Vec::new(),
                parent: None,
                first_child: None,
                next_sibling: None,
            }],
            text: String::new(),
        }
    }

    /// Removes every move and comment, keeping the storage for the next game.
    pub fn clear(&mut self) {
        self.nodes.truncate(1);
        let root = &mut self.nodes[0];
        root.comment = None;
        root.nags.clear();
        root.first_child = None;
        self.text.clear();
    }

    /// Reserves room for `nodes` more nodes and `text` more bytes of comments, so that reading
    /// a typical game reallocates nothing.
    pub fn reserve(&mut self, nodes: usize, text: usize) {
        self.nodes.reserve(nodes);
        self.text.reserve(text);
    }

    /// The comment after the move of `id` (on the root: before the first move).
    pub fn comment(&self, id: NodeId) -> Option<&str> {
        let (start, len) = self.node(id).comment?;
        // Blank lines appended last wait for text that may follow; they are not part of it.
        self.text
            .get(start as usize..(start + len) as usize)
            .map(|c| c.trim_end_matches('\n'))
    }

    /// Sets the comment of `id`, replacing any. Comments are kept in one normal form (see
    /// [`push_normalised`]) so that every format writes and reads them back alike.
    pub fn set_comment(&mut self, id: NodeId, text: &str) {
        let start = self.text.len();
        push_normalised(&mut self.text, text, true);
        let len = (self.text.len() - start) as u32;
        self.nodes[id as usize].comment = if len == 0 { None } else { Some((start as u32, len)) };
    }

    /// Adds a line (or lines) to the comment of `id`. An empty line is kept as a blank line
    /// when more text follows, which is how `;` comments carry paragraphs.
    pub fn append_comment(&mut self, id: NodeId, text: &str) {
        let Some((mut start, len)) = self.node(id).comment else {
            return self.set_comment(id, text);
        };
        if (start + len) as usize != self.text.len() {
            // Not the last text in the arena: move it to the end, then extend in place.
            let existing = self.text[start as usize..(start + len) as usize].to_string();
            start = self.text.len() as u32;
            self.text.push_str(&existing);
        }
        self.text.push('\n');
        push_normalised(&mut self.text, text, false);
        let len = (self.text.len() - start as usize) as u32;
        self.nodes[id as usize].comment = Some((start, len));
    }

    /// Removes the comment of `id`.
    pub fn clear_comment(&mut self, id: NodeId) {
        self.nodes[id as usize].comment = None;
    }

    pub fn node(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        &mut self.nodes[id as usize]
    }

    /// Number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no moves (only the root).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Adds `mv` as the last child of `parent` and returns the new node.
    pub fn add_child(&mut self, parent: NodeId, mv: M) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            mv: Some(mv),
            comment: None,
            nags: Vec::new(),
            parent: Some(parent),
            first_child: None,
            next_sibling: None,
        });
        match self.nodes[parent as usize].first_child {
            None => self.nodes[parent as usize].first_child = Some(id),
            Some(mut c) => {
                while let Some(n) = self.nodes[c as usize].next_sibling {
                    c = n;
                }
                self.nodes[c as usize].next_sibling = Some(id);
            }
        }
        id
    }

    /// The children of `id`, main continuation first.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(id).first_child, move |&c| self.node(c).next_sibling)
    }

    /// The node ids of the main line, without the root.
    pub fn main_line_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(Self::ROOT).first_child, move |&c| self.node(c).first_child)
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> impl Iterator<Item = &M> + '_ {
        self.main_line_nodes().filter_map(move |id| self.node(id).mv.as_ref())
    }
}

/// Appends `text` in the normal form of comments: `\n` line ends (from `\r\n` or `\r`), no
/// ASCII whitespace at the end of a line, and — when `whole` (a comment's start) — none at
/// its start. Indentation inside (a full-width 　　, spaces on a later line) is text and stays.
fn push_normalised(out: &mut String, text: &str, whole: bool) {
    // Trimmed by bytes: ASCII whitespace never occurs inside a multi-byte character, so each
    // cut falls on a character boundary. Both trims stop after a byte or two; the line-break
    // test has no early exit so that it vectorises (a clock comment per move adds up).
    let trim_end = |t: &str| {
        t.as_bytes()
            .iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .map_or(0, |e| e + 1)
    };
    let start = match whole {
        true => text
            .bytes()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(text.len()),
        false => 0,
    };
    let text = &text[start..];
    if !has_line_break(text.as_bytes()) {
        out.push_str(&text[..trim_end(text)]);
        return;
    }
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        out.push_str(&line[..trim_end(line)]);
        if lines.peek().is_some() {
            out.push('\n');
        }
    }
}

/// Whether `b` holds a `\n`, eight bytes at a time: comments are short, and both a byte loop
/// and `memchr`'s call cost more than the comment's copy.
fn has_line_break(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("eight bytes")) ^ (ONES * b'\n' as u64);
        // A zero byte in x (a `\n` in c) sets its high bit here; no other byte can.
        if x.wrapping_sub(ONES) & !x & (ONES << 7) != 0 {
            return true;
        }
    }
    chunks.remainder().contains(&b'\n')
}

/// What a reader keeps besides the main line and the tags. Everything by default; a caller that
/// only replays games (a judge, an opening book) can skip the rest and read faster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Comments (clock comments included).
    pub comments: bool,
    /// Variations (skipped whole, their moves unread).
    pub variations: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            comments: true,
            variations: true,
        }
    }
}

impl ReadOptions {
    /// The main line and tags only.
    pub const MAIN_LINE: ReadOptions = ReadOptions {
        comments: false,
        variations: false,
    };
}

/// Something in a record that was skipped or repaired while reading, with where it was; the
/// rest of the record still reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Ply (1-based) in the line where it happened, if it concerns a move.
    pub ply: Option<usize>,
    pub message: String,
    /// The move the reader stopped at, when the issue is a move it could not play (at `ply`).
    pub refused: Option<RefusedMove>,
}

impl Issue {
    /// An issue that is no refused move.
    pub fn new(ply: Option<usize>, message: impl Into<String>) -> Issue {
        Issue {
            ply,
            message: message.into(),
            refused: None,
        }
    }
}

/// A move a reader could not play, typed: what was written, why it was refused, and — for a
/// Xiangqi move the pieces can make but that leaves the mover's own king in check or facing
/// the other king — the move itself, which some rules rule on (a loss under CXA) where a
/// reader, knowing no rules, can only refuse it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedMove {
    /// The move as the record writes it (a binary format's move in coordinates).
    pub written: String,
    pub why: Refusal,
    pub self_check: Option<xiangqi::Move>,
    /// The node the move was to follow ([`MoveTree::ROOT`] before the first move), where the
    /// record has variations: it tells a main line's stop from a variation's at the same ply.
    /// `None` from a reader of a main line alone.
    pub after: Option<NodeId>,
}

/// Why a reader refused a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The text is not a move in the record's notation (nor in any other the reader knows).
    NotAMove,
    /// The text names a move that is not legal in the position.
    Illegal,
    /// The text fits more than one legal move.
    Ambiguous,
}

impl Refusal {
    /// Its name in the API (`not_a_move`, `illegal`, `ambiguous`): pages say it in their
    /// language.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::NotAMove => "not_a_move",
            Refusal::Illegal => "illegal",
            Refusal::Ambiguous => "ambiguous",
        }
    }
}

impl RefusedMove {
    /// The refusal of a Xiangqi move read from `written`.
    pub fn xiangqi(written: &str, e: &xiangqi::notation::NotationError) -> RefusedMove {
        use xiangqi::notation::NotationError as E;
        let (why, self_check) = match e {
            E::Syntax { .. } => (Refusal::NotAMove, None),
            E::Ambiguous { .. } => (Refusal::Ambiguous, None),
            E::NoMatch { .. } => (Refusal::Illegal, None),
            E::Illegal { self_check, .. } => (Refusal::Illegal, *self_check),
        };
        RefusedMove {
            written: written.to_string(),
            why,
            self_check,
            after: None,
        }
    }

    /// The refusal, placed after `node` of the record's tree.
    pub fn after(self, node: NodeId) -> RefusedMove {
        RefusedMove {
            after: Some(node),
            ..self
        }
    }

    /// The refusal of a Xiangqi move stored as coordinates (a binary format's), not legal in
    /// `pos`.
    pub fn coordinates(pos: &xiangqi::Position, m: xiangqi::Move) -> RefusedMove {
        RefusedMove {
            written: xiangqi::notation::to_iccs(m),
            why: Refusal::Illegal,
            self_check: (pos.is_pseudo_legal(m) && !pos.is_legal(m)).then_some(m),
            after: None,
        }
    }
}

/// A game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<M> {
    pub tags: Tags,
    /// Start position as FEN (Xiangqi FEN for Xiangqi, chess FEN for chess).
    pub start_fen: String,
    pub tree: MoveTree<M>,
    /// What the reader skipped or repaired (an illegal move dropped with the rest of its line,
    /// an unreadable string …).
    pub issues: Vec<Issue>,
}

/// A Xiangqi record.
pub type XiangqiRecord = Record<xiangqi::Move>;

impl<M> Record<M> {
    pub fn new(start_fen: impl Into<String>) -> Record<M> {
        Record {
            tags: Tags::default(),
            start_fen: start_fen.into(),
            tree: MoveTree::new(),
            issues: Vec::new(),
        }
    }

    /// Empties the record for another game, keeping its storage: a reader that is handed back
    /// the previous game's record (`read_into`) allocates nothing per game once warm.
    pub fn clear(&mut self, start_fen: &str) {
        self.tags.clear();
        self.start_fen.clear();
        self.start_fen.push_str(start_fen);
        self.tree.clear();
        self.issues.clear();
    }
}

/// The kinds of the 16 pieces of a side in the fixed order of XQF's piece table and DhtmlXQ's
/// `binit`: 车马相士帅士相马车炮炮兵兵兵兵兵.
pub(crate) const PIECE_LIST_ROLES: [xiangqi::Role; 16] = {
    use xiangqi::Role::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn,
        Pawn,
    ]
};
