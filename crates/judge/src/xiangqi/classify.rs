//! What one move does in the terms of the repetition rules (棋例): check (将), mate threat (杀),
//! chase (捉) of which pieces, or an allowed move (闲, with 兑/献/跟 where they apply).
//!
//! Chases follow `xiangqi-rules.md` §4.2: the mover's legal captures if it moved again, by a
//! rook, horse, cannon, advisor or elephant (the king's and pawns' attacks are allowed), of a
//! rook, horse, cannon, advisor, elephant or crossed pawn; a weaker piece attacking a stronger
//! one always chases; same kinds that can take each other offer an exchange; otherwise the
//! target must have no legal recapture after the capture, which makes false roots (假根) —
//! pinned protectors, a king that would face the other king, a cannon whose screen was the
//! capturer — count as none. Only what the move created counts: a target already chased before
//! it (by any piece) is not chased by it (CXA 29.2; the causation examples of the rulebook).

use xiangqi::{Color, Move, Piece, Position, Role, Square};

use super::rules::{ChaseNewness, Rules, Style};

/// One move's classification, with the targets kept as squares of the position after it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Class {
    pub check: bool,
    pub mate_threat: bool,
    /// Targets newly chased, as squares after the move.
    pub chased: Vec<Square>,
    /// 要抽吃: a new threat of a check that wins a piece however it is met (classified where
    /// the ruleset counts it, and only for a move that is no other attack).
    pub capture_threat: bool,
    /// 兑: the moved piece newly attacks a piece of its own kind that can take it back.
    pub exchange: bool,
    /// 献: the moved piece stands where the opponent can take it for nothing.
    pub offer: bool,
    /// 跟: a new attack on a protected piece (not a chase).
    pub follow: bool,
    /// 拦: the moved piece now stands in the way of an enemy capture or check that was there
    /// before the move, its target not having moved.
    pub block: bool,
}

impl Class {
    /// Counted as an attacking move (打) by the CXA table: 将, 杀, 捉, or 要抽吃 where the ruleset
    /// counts it.
    pub fn is_attack(&self) -> bool {
        self.check || self.mate_threat || !self.chased.is_empty() || self.capture_threat
    }

    /// The most severe nature, as one glyph.
    pub fn label(&self) -> &'static str {
        if self.check {
            "将"
        } else if self.mate_threat {
            "杀"
        } else if !self.chased.is_empty() {
            "捉"
        } else if self.capture_threat {
            "要抽吃"
        } else {
            "闲"
        }
    }
}

/// Classifies `m`, played by the side to move in `before`; `after` is the position it makes.
pub(crate) fn classify(before: &Position, m: Move, after: &Position, rules: &Rules) -> Class {
    let mover = before.turn();
    let moved = before.board().piece_at(m.from).expect("a move starts on a piece");
    let answered_check = before.is_check();

    let mut class = Class {
        check: after.is_check(),
        ..Class::default()
    };
    // Seed 002 §三.1: a check by a pawn alone is not 长将 material ("兵或卒除外").
    if class.check && !rules.pawn_checks_count {
        let checkers = after.checkers();
        if checkers
            .into_iter()
            .all(|s| after.board().piece_at(s).is_some_and(|p| p.role == Role::Pawn))
        {
            class.check = false;
        }
    }
    // CXA 2020 26.1.3: a king move that answers a check is idle, whatever it attacks.
    if rules.style == Style::Cxa && answered_check && moved.role == Role::King {
        return class;
    }

    // 杀 must be new too: a mating line (its first move, by the piece that makes it) that the
    // position before the move did not have. A side that keeps one mate on the board while
    // it shuffles does not threaten by shuffling, but a move that opens a second mate does
    // (XQ-R21: the rook that can always mate on the e-file also threatens Rc0 from c7).
    let threat_after = after.null_move();
    if !class.check && rules.mate_threat_depth > 0 {
        let now = mating_moves(&threat_after, rules.mate_threat_depth);
        if !now.is_empty() {
            let was = mating_moves(before, rules.mate_threat_depth);
            let moved = |(f, t): (Square, Square)| (if f == m.from { m.to } else { f }, t);
            class.mate_threat = now.iter().any(|x| !was.iter().any(|&y| moved(y) == *x));
        }
    }

    let now = chase_targets(&threat_after, after, mover);
    let was = chase_targets(before, &before.null_move(), mover);
    // The opponent's pieces did not move, so a target keeps its square; the mover's moved
    // piece went from `m.from` to `m.to`.
    let moved_to = |a: Square| if a == m.from { m.to } else { a };
    for &(a, t) in &now.pairs {
        let new = match rules.chase_newness {
            ChaseNewness::PerTarget => !was.chased.contains(&t),
            ChaseNewness::PerAttacker => !was.pairs.iter().any(|&(b, u)| u == t && moved_to(b) == a),
        };
        if new && !class.chased.contains(&t) {
            class.chased.push(t);
        }
    }
    // 要抽吃 (seed 002 三.4: "抽吃" is an attack, 一将一要抽吃 loses): a check the mover could
    // now give that wins a piece whatever the reply, which it could not give before the move.
    if rules.discovered_capture_threats && !class.check && !class.mate_threat && class.chased.is_empty() {
        let threats = winning_checks(&threat_after, &now.chased);
        if !threats.is_empty() {
            let was = winning_checks(before, &was.chased);
            let moved = |(f, t): (Square, Square)| (if f == m.from { m.to } else { f }, t);
            class.capture_threat = threats.iter().any(|x| !was.iter().any(|&y| moved(y) == *x));
        }
    }
    // Allowed-move kinds, reported for the explanation.
    class.exchange = now
        .exchanges
        .iter()
        .any(|&(a, t)| a == m.to && !was.exchanges.iter().any(|&(_, u)| u == t));
    class.follow = now
        .protected
        .iter()
        .any(|t| !was.protected.contains(t) && !was.chased.contains(t));
    class.offer = !class.exchange && capturable_for_free(after, m.to);
    class.block = blocks(before, m, after);
    class
}

/// Attacks of `side` (to move in `threat`) on the opponent, sorted by what they amount to.
#[derive(Default)]
struct Targets {
    /// Chased targets: weaker-on-stronger, or unprotected.
    chased: Vec<Square>,
    /// The same, per attacker: (attacker, target).
    pairs: Vec<(Square, Square)>,
    /// (attacker, target) of the same kind that can take each other: exchange offers.
    exchanges: Vec<(Square, Square)>,
    /// Attacked but protected (a follow when new).
    protected: Vec<Square>,
}

/// `threat` has `side` to move (the position after its move with the opponent passing, or the
/// position before its move); `real` is the same placement with the opponent to move.
fn chase_targets(threat: &Position, real: &Position, side: Color) -> Targets {
    let mut t = Targets::default();
    let board = threat.board();
    for m in threat.legal_moves().iter().copied() {
        let (Some(a), Some(v)) = (board.piece_at(m.from), board.piece_at(m.to)) else {
            continue;
        };
        if v.color == side || !chasing_attacker(a.role) || !chase_target(v, m.to) {
            continue;
        }
        let chased = if stronger(v.role, a.role) {
            true
        } else if a.role == v.role && real.is_legal(Move::new(m.to, m.from)) {
            t.exchanges.push((m.from, m.to));
            false
        } else if has_recapture(threat, m) {
            t.protected.push(m.to);
            false
        } else {
            true
        };
        if chased {
            t.pairs.push((m.from, m.to));
            if !t.chased.contains(&m.to) {
                t.chased.push(m.to);
            }
        }
    }
    // A target chased by one attacker is chased, whatever the others' attacks amount to.
    t.exchanges.retain(|(_, s)| !t.chased.contains(s));
    t.protected.retain(|s| !t.chased.contains(s));
    t
}

/// Attackers whose attacks can be chases: not the king, not pawns (both may chase forever).
fn chasing_attacker(r: Role) -> bool {
    matches!(
        r,
        Role::Rook | Role::Horse | Role::Cannon | Role::Advisor | Role::Elephant
    )
}

/// Pieces that can be chased: not the king (that is a check), not an uncrossed pawn (not 子力).
fn chase_target(p: Piece, sq: Square) -> bool {
    match p.role {
        Role::King => false,
        Role::Pawn => !sq.is_on_side_of(p.color),
        _ => true,
    }
}

/// A piece attacking a stronger one chases it whatever protects it: horse or cannon on a rook;
/// advisor or elephant on a rook, horse or cannon.
fn stronger(target: Role, attacker: Role) -> bool {
    match attacker {
        Role::Horse | Role::Cannon => target == Role::Rook,
        Role::Advisor | Role::Elephant => matches!(target, Role::Rook | Role::Horse | Role::Cannon),
        _ => false,
    }
}

/// After the capture `m` (in `threat`), whether the captured piece's side can legally take back
/// on that point.
fn has_recapture(threat: &Position, m: Move) -> bool {
    let mut p = threat.clone();
    p.play_unchecked(m);
    p.legal_moves().iter().any(|r| r.to == m.to)
}

/// Whether `m` interposes: a capture or a check the opponent had before it (had it been the
/// opponent's turn) is gone after it, its target not having moved, because the moved piece
/// stands on the line or horse leg between (拦, AXF "a move that prevents an opponent's piece
/// to move in a certain direction"; the pawn of XQ-R21 that stops a mating check).
fn blocks(before: &Position, m: Move, after: &Position) -> bool {
    let threats = before.null_move();
    let gone_after = |c: Move| !after.legal_moves().iter().any(|&d| d == c);
    threats.legal_moves().iter().any(|&c| {
        if c.to == m.from || c.to == m.to || !between(c.from, c.to, m.to) {
            return false;
        }
        let capture = before.board().piece_at(c.to).is_some();
        let check = || {
            let mut p = threats.clone();
            p.play_unchecked(c);
            p.is_check()
        };
        (capture || check()) && gone_after(c)
    })
}

/// Whether `sq` lies on the straight line strictly between `a` and `b`, or on the leg of a
/// horse's move from `a` to `b`.
fn between(a: Square, b: Square, sq: Square) -> bool {
    let (ax, ay) = (a.file().index() as i32, a.rank().index() as i32);
    let (bx, by) = (b.file().index() as i32, b.rank().index() as i32);
    let (sx, sy) = (sq.file().index() as i32, sq.rank().index() as i32);
    let (dx, dy) = (bx - ax, by - ay);
    if dx == 0 || dy == 0 {
        let on_line = (sx - ax) * dy == (sy - ay) * dx;
        let inside = (sx - ax) * (sx - bx) <= 0 && (sy - ay) * (sy - by) <= 0;
        return on_line && inside && sq != a && sq != b;
    }
    // A horse's leg: one step from `a` along the longer direction.
    if dx.abs() + dy.abs() == 3 {
        let leg = if dx.abs() == 2 {
            (ax + dx.signum(), ay)
        } else {
            (ax, ay + dy.signum())
        };
        return (sx, sy) == leg;
    }
    false
}

/// Whether the opponent (to move in `after`) can take the piece on `sq` with no legal
/// recapture: the moved piece is offered (献).
fn capturable_for_free(after: &Position, sq: Square) -> bool {
    after
        .legal_moves()
        .iter()
        .any(|&c| c.to == sq && !has_recapture(after, c))
}

/// The checks (from, to) of the side to move in `pos` that win a piece however they are met:
/// after every reply, the checking side can take a piece it chases (unprotected, or stronger
/// than its attacker) that `chased`, its chases before the check, did not hold. A check that
/// mates is 杀, not this.
fn winning_checks(pos: &Position, chased: &[Square]) -> Vec<(Square, Square)> {
    let side = pos.turn();
    let mut out = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if !p.is_check() {
            continue;
        }
        let replies = p.legal_moves();
        let wins = !replies.is_empty()
            && replies.iter().all(|&r| {
                let mut q = p.clone();
                q.play_unchecked(r);
                chase_targets(&q, &q.null_move(), side)
                    .chased
                    .iter()
                    .any(|t| !chased.contains(t))
            });
        if wins {
            out.push((m.from, m.to));
        }
    }
    out
}

/// The first moves (from, to) of the side to move's mates by checks within `depth` moves.
fn mating_moves(pos: &Position, depth: u32) -> Vec<(Square, Square)> {
    let mut out = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.is_check() && mated_by_checks(&p, depth) {
            out.push((m.from, m.to));
        }
    }
    out
}

/// Whether the side to move, in check, is mated now or by further checks within `depth` of the
/// checking side's moves in all.
fn mated_by_checks(p: &Position, depth: u32) -> bool {
    let replies = p.legal_moves();
    replies.is_empty()
        || (depth > 1
            && replies.iter().all(|&r| {
                let mut q = p.clone();
                q.play_unchecked(r);
                mates_by_checks(&q, depth - 1)
            }))
}

/// Whether the side to move mates by checks alone within `depth` of its moves (杀: "企图在下一着
/// 照将或连续照将将死对方"): every move of the line is a check, every defence is met.
pub(crate) fn mates_by_checks(pos: &Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    for m in pos.legal_moves().iter().copied() {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if !p.is_check() {
            continue;
        }
        let replies = p.legal_moves();
        if replies.is_empty() {
            return true;
        }
        if depth > 1
            && replies.iter().all(|&r| {
                let mut q = p.clone();
                q.play_unchecked(r);
                mates_by_checks(&q, depth - 1)
            })
        {
            return true;
        }
    }
    false
}
