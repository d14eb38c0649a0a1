//! Legal move generation.
//!
//! Pseudo-legal targets come from the attack tables; legality is decided per node from two sets
//! computed once: the pieces of ours whose leaving could expose our king (pinned by a rook or the
//! other king, one of the two screens of a cannon, a horse leg), and the empty points where a
//! piece would become a cannon's only screen. Moves touching neither are legal without further
//! work, so counting them is a popcount. The rest, king moves and every move when in check get
//! the exact test: play the move on the occupancy and ask whether the king is attacked.

use crate::attacks::{self, transposed_bit, DIAG_NEIGHBOURS, OFF, ORTH_NEIGHBOURS};
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};

/// Receives legal moves, one piece's batch at a time.
pub(crate) trait Sink {
    /// All of `targets` are legal destinations for the piece on `from`.
    fn batch(&mut self, from: Square, targets: Bitboard);
    fn one(&mut self, from: Square, to: Square);
    /// Nothing more is wanted: generation may stop.
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

impl Sink for MoveList {
    #[inline]
    fn batch(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
    #[inline]
    fn one(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }
}

pub(crate) struct Counter(pub usize);

/// Stops at the first legal move: whether there is one.
pub(crate) struct Any(pub bool);

impl Sink for Any {
    #[inline]
    fn batch(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn one(&mut self, _from: Square, _to: Square) {
        self.0 = true;
    }
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

impl Sink for Counter {
    #[inline]
    fn batch(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline]
    fn one(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }
}

/// The facts about one side's king that legality needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KingSafety {
    pub checkers: Bitboard,
    /// Own pieces whose move may expose the king (broad Xiangqi pins, 牵制).
    pub pinned: Bitboard,
    /// Empty points between the king and an enemy cannon with nothing between them.
    pub screen_points: Bitboard,
}

impl Position {
    /// Pieces of `them` that attack `ksq` given an occupancy (with `to` possibly captured):
    /// only the kinds that can ever attack a king.
    #[inline]
    pub(crate) fn king_attackers(
        &self,
        ksq: Square,
        them: Color,
        occ: u128,
        occ_t: u128,
        theirs: Bitboard,
    ) -> Bitboard {
        let b = &self.board;
        let line = attacks::rook_attacks(ksq, occ, occ_t);
        ((line & (b.by_role(Role::Rook) | b.by_role(Role::King)))
            | (attacks::cannon_captures(ksq, occ, occ_t) & b.by_role(Role::Cannon))
            | (attacks::horse_attackers(ksq, occ) & b.by_role(Role::Horse))
            | (attacks::pawn_attackers(them, ksq) & b.by_role(Role::Pawn)))
            & theirs
    }

    pub(crate) fn king_safety(&self, us: Color) -> KingSafety {
        let b = &self.board;
        let them = !us;
        let Some(ksq) = b.king_of(us) else {
            return KingSafety {
                checkers: Bitboard::EMPTY,
                pinned: Bitboard::EMPTY,
                screen_points: Bitboard::EMPTY,
            };
        };
        let occ = b.occupied();
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let checkers = self.king_attackers(ksq, them, occ.0, b.occupied_transposed(), theirs);
        let mut pinned = Bitboard::EMPTY;
        let mut screen_points = Bitboard::EMPTY;
        let cannons = b.by_role(Role::Cannon);
        let sliders = attacks::lines(ksq) & theirs & (b.by_role(Role::Rook) | cannons | b.by_role(Role::King));
        for s in sliders {
            let btw = attacks::between(ksq, s);
            let blockers = btw & occ;
            let n = blockers.count();
            if cannons.contains(s) {
                if n == 2 {
                    pinned |= blockers & ours;
                } else if n == 0 {
                    screen_points |= btw;
                }
            } else if n == 1 {
                pinned |= blockers & ours;
            }
        }
        let horses = b.by_role(Role::Horse) & theirs;
        if horses.any() {
            for (k, &d) in DIAG_NEIGHBOURS[ksq.index()].iter().enumerate() {
                if d != OFF {
                    let d = Square::new_unchecked(d);
                    if ours.contains(d) && (attacks::horse_attackers_by_legs(ksq, 1 << k) & horses).any() {
                        pinned = pinned.with(d);
                    }
                }
            }
        }
        KingSafety {
            checkers,
            pinned,
            screen_points,
        }
    }

    /// Whether moving `from`→`to` leaves our king (on `ksq`, or on `to` if it is the king that
    /// moves) unattacked.
    #[inline]
    fn is_safe(&self, ksq: Square, from: Square, to: Square, them: Color) -> bool {
        let b = &self.board;
        let fb = Bitboard::from_square(from).0;
        let tb = Bitboard::from_square(to).0;
        let occ = (b.occupied().0 ^ fb) | tb;
        let occ_t = (b.occupied_transposed() ^ transposed_bit(from)) | transposed_bit(to);
        let theirs = b.by_color(them) & Bitboard(!tb);
        let k = if from == ksq { to } else { ksq };
        self.king_attackers(k, them, occ, occ_t, theirs).is_empty()
    }

    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let b = &self.board;
        let us = self.turn();
        let them = !us;
        let Some(ksq) = b.king_of(us) else { return };
        let safety = self.king_safety(us);
        let ours = b.by_color(us);
        let not_ours = !ours;
        let in_check = safety.checkers.any();
        // Moves that need the exact test: all of them in check, else the pinned pieces' moves
        // and moves onto a cannon's empty line.
        let (slow_from, slow_to) = if in_check {
            (Bitboard::FULL, Bitboard::FULL)
        } else {
            (safety.pinned, safety.screen_points)
        };

        let emit = |sink: &mut S, from: Square, targets: Bitboard| {
            if slow_from.contains(from) {
                for to in targets {
                    if self.is_safe(ksq, from, to, them) {
                        sink.one(from, to);
                    }
                }
            } else {
                sink.batch(from, targets & !slow_to);
                for to in targets & slow_to {
                    if self.is_safe(ksq, from, to, them) {
                        sink.one(from, to);
                    }
                }
            }
        };

        for role in [
            Role::Rook,
            Role::Cannon,
            Role::Horse,
            Role::Pawn,
            Role::Elephant,
            Role::Advisor,
        ] {
            for from in ours & b.by_role(role) {
                emit(sink, from, self.targets(role, from, us));
                if sink.done() {
                    return;
                }
            }
        }
        for to in attacks::king_attacks(ksq) & not_ours {
            if self.is_safe(ksq, ksq, to, them) {
                sink.one(ksq, to);
            }
        }
    }
}

impl Position {
    /// Where the `us` piece of kind `role` on `from` may go by its own movement rule, king
    /// safety aside.
    #[inline(always)]
    pub(crate) fn targets(&self, role: Role, from: Square, us: Color) -> Bitboard {
        let b = &self.board;
        let occ = b.occupied();
        let occ_t = b.occupied_transposed();
        let not_ours = !b.by_color(us);
        match role {
            Role::Rook => attacks::rook_attacks(from, occ.0, occ_t) & not_ours,
            Role::Cannon => {
                let quiet = attacks::rook_attacks(from, occ.0, occ_t) & !occ;
                quiet | (attacks::cannon_captures(from, occ.0, occ_t) & b.by_color(!us))
            }
            Role::Horse => {
                let legs = leg_mask(b.mailbox(), &ORTH_NEIGHBOURS[from.index()]);
                attacks::horse_moves_by_legs(from, legs) & not_ours
            }
            Role::Pawn => attacks::pawn_attacks(us, from) & not_ours,
            Role::Elephant => {
                let eyes = leg_mask(b.mailbox(), &DIAG_NEIGHBOURS[from.index()]);
                attacks::elephant_moves_by_eyes(from, eyes, us) & not_ours
            }
            Role::Advisor => attacks::advisor_attacks(from) & not_ours,
            Role::King => attacks::king_attacks(from) & not_ours,
        }
    }

    /// Whether `m` moves a piece of the side to move by its movement rule (horse legs,
    /// elephant eyes, cannon screens, palace and river included), its own king's safety aside:
    /// a move that may still expose the king (自杀) or face the kings (白脸将).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.turn();
        self.board
            .piece_at(m.from)
            .is_some_and(|p| p.color == us && self.targets(p.role, m.from, us).contains(m.to))
    }

    /// Whether `m` is legal, without generating the other moves.
    pub(crate) fn is_legal_move(&self, m: Move) -> bool {
        let us = self.turn();
        let Some(piece) = self.board.piece_at(m.from) else {
            return false;
        };
        if piece.color != us || !self.targets(piece.role, m.from, us).contains(m.to) {
            return false;
        }
        let Some(ksq) = self.board.king_of(us) else {
            return false;
        };
        self.is_safe(ksq, m.from, m.to, !us)
    }
}

/// 4-bit mask of which neighbour points are empty, read from the mailbox (its sentinel makes
/// off-board neighbours read as occupied).
#[inline]
fn leg_mask(mailbox: &[u8; 91], n: &[u8; 4]) -> usize {
    usize::from(mailbox[n[0] as usize] == 0)
        | usize::from(mailbox[n[1] as usize] == 0) << 1
        | usize::from(mailbox[n[2] as usize] == 0) << 2
        | usize::from(mailbox[n[3] as usize] == 0) << 3
}
