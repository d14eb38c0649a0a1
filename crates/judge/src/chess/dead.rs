//! Dead positions (FIDE 5.2.2): "a position has arisen in which neither player can checkmate
//! the opponent's king with any series of legal moves". The question is cooperative — could a
//! side mate if the other helped? — so a position is dead only when the answer is no for both.
//!
//! Three tests, cheapest first, each of them sound when it says no:
//! 1. shakmaty's `has_insufficient_material`: the material alone cannot mate in any position
//!    (a bare king; a lone knight or same-coloured bishops against nothing that could block).
//! 2. `fortress`: every pawn is locked for good, and behind them no piece of the side can ever
//!    attack a square the other king can reach.
//! 3. `helpmate`: a bounded search of every series of legal moves, which finds a mate (yes),
//!    or proves no when the whole reachable set of positions fits in the budget.
//!
//! Otherwise the answer is Unknown and the game goes on.

mod fortress;
mod helpmate;

use ::chess::shakmaty::{ByColor, Chess, Color, Position, Role};

/// Whether a side can still checkmate by some series of legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mate {
    /// A mate was found.
    Yes,
    /// Proven impossible, and how.
    No(Proof),
    /// Neither proven nor found within the budget.
    Unknown,
}

/// How "this side can never mate" was proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proof {
    /// The side's material cannot mate whatever the position.
    InsufficientMaterial,
    /// The pawns are locked for good and no piece of the side can ever give check past them.
    LockedPawns,
    /// Every position reachable by legal moves was visited (`positions` of them) and in none
    /// is the other side mated.
    Exhausted { positions: usize },
}

/// The default search budget, in positions visited (about 40 ms when all of it is spent).
pub const SEARCH_BUDGET: usize = 100_000;

/// Whether `side` can still checkmate in `pos` by any series of legal moves, both sides
/// cooperating: the three tests with [`SEARCH_BUDGET`].
pub fn can_checkmate(pos: &Chess, side: Color) -> Mate {
    can_checkmate_within(pos, side, SEARCH_BUDGET)
}

/// [`can_checkmate`] with a search budget of `budget` positions (0: the static tests only).
pub fn can_checkmate_within(pos: &Chess, side: Color, budget: usize) -> Mate {
    if let Some(proof) = static_proof(pos, side, fortress::locked(pos)) {
        return Mate::No(proof);
    }
    if budget == 0 {
        return Mate::Unknown;
    }
    helpmate::search(pos, side, budget)
}

/// Why a position is dead: each side's proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dead {
    pub white: Proof,
    pub black: Proof,
}

/// Whether `pos` is dead, proven with a search budget of `budget` positions per side.
pub fn dead_position(pos: &Chess, budget: usize) -> Option<Dead> {
    let white = proof(can_checkmate_within(pos, Color::White, budget))?;
    let black = proof(can_checkmate_within(pos, Color::Black, budget))?;
    Some(Dead { white, black })
}

fn proof(m: Mate) -> Option<Proof> {
    match m {
        Mate::No(p) => Some(p),
        Mate::Yes | Mate::Unknown => None,
    }
}

/// The largest locked structure (in positions, see [`fortress::Locked`]) the judge searches.
const SEARCHABLE: u64 = 25_000;

/// The judge's test after each capture or pawn move, after the move that declines an
/// en-passant capture, and at the start: whenever material, pawns or a pawn's chance to
/// capture may have changed. Cheap unless the position is a candidate.
///
/// The static tests need no more than bit operations, and the fortress test is skipped when a
/// pawn can be pushed. The search runs only where it can finish: in a locked structure whose
/// pieces' regions allow at most [`SEARCHABLE`] positions. Between captures and pawn moves the
/// static answers cannot change (every piece stays in its region, and a region is the same
/// seen from any of its squares); a searched "no" holds for every later position too, and a
/// "yes" is not asked again until the next capture or pawn move.
pub(crate) fn judge_dead(pos: &Chess) -> Option<Dead> {
    let insufficient = ByColor::new_with(|c| pos.has_insufficient_material(c));
    if insufficient.white && insufficient.black {
        return Some(Dead {
            white: Proof::InsufficientMaterial,
            black: Proof::InsufficientMaterial,
        });
    }
    if pos.board().pawns().is_empty() || !fortress::pushes_blocked(pos) {
        return None;
    }
    let locked = fortress::locked(pos)?;
    let side_proof = |c: Color| {
        static_proof(pos, c, Some(locked)).or_else(|| {
            (locked.positions <= SEARCHABLE)
                .then(|| proof(helpmate::search(pos, c, SEARCH_BUDGET)))
                .flatten()
        })
    };
    let white = side_proof(Color::White)?;
    let black = side_proof(Color::Black)?;
    Some(Dead { white, black })
}

fn static_proof(pos: &Chess, side: Color, locked: Option<fortress::Locked>) -> Option<Proof> {
    if pos.has_insufficient_material(side) {
        Some(Proof::InsufficientMaterial)
    } else if locked.is_some_and(|l| l.never_checks[side]) {
        Some(Proof::LockedPawns)
    } else {
        None
    }
}

/// The material as players write it: `KRB v KN`.
pub(crate) fn material(pos: &Chess) -> String {
    let board = pos.board();
    let side = |c: Color| {
        let mut s = String::from("K");
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn] {
            let n = (board.by_role(role) & board.by_color(c)).count();
            s.extend(std::iter::repeat_n(role.upper_char(), n));
        }
        s
    };
    format!("{} v {}", side(Color::White), side(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::chess::shakmaty::fen::Fen;
    use ::chess::shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn finds_a_helpmate() {
        // 1. Qc8#.
        let p = pos("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
        assert_eq!(can_checkmate(&p, Color::White), Mate::Yes);
        assert_eq!(can_checkmate(&p, Color::Black), Mate::No(Proof::InsufficientMaterial));
        assert_eq!(dead_position(&p, SEARCH_BUDGET), None);
    }

    #[test]
    fn a_forced_capture_into_bare_kings_is_dead() {
        // White's only move is Kxg2, leaving two bare kings.
        let p = pos("8/8/8/8/8/4k3/6r1/7K w - - 0 1");
        assert_eq!(p.legal_moves().len(), 1);
        assert_eq!(
            can_checkmate_within(&p, Color::White, 0),
            Mate::No(Proof::InsufficientMaterial)
        );
        assert_eq!(can_checkmate_within(&p, Color::Black, 0), Mate::Unknown);
        assert!(matches!(
            can_checkmate(&p, Color::Black),
            Mate::No(Proof::Exhausted { .. })
        ));
        assert!(dead_position(&p, SEARCH_BUDGET).is_some());
    }

    #[test]
    fn locked_pawns_with_kings_only_are_dead_for_the_judge() {
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1");
        let d = judge_dead(&p).unwrap();
        assert_eq!(d.white, Proof::LockedPawns);
        assert_eq!(d.black, Proof::LockedPawns);
        assert_eq!(material(&p), "KPPPP v KPPPP");
    }

    #[test]
    fn the_search_proves_a_small_locked_structure() {
        // Black's light-squared bishop can check the white king behind the wall, so the
        // fortress test does not settle it; a bishop alone cannot mate, and the search visits
        // every reachable position to show it.
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/8/2b1K3/8 w - - 0 1");
        assert_eq!(can_checkmate_within(&p, Color::Black, 0), Mate::Unknown);
        assert!(
            matches!(can_checkmate(&p, Color::Black), Mate::No(Proof::Exhausted { positions }) if positions > 10_000)
        );
        let d = judge_dead(&p).unwrap();
        assert_eq!(d.white, Proof::LockedPawns);
        assert!(matches!(d.black, Proof::Exhausted { .. }));
    }

    #[test]
    fn a_bishop_that_can_break_the_wall_keeps_the_game_alive() {
        // The light-squared bishop can take b5 and free the b-pawn to promote.
        let p = pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/3B4 w - - 0 1");
        assert_eq!(judge_dead(&p), None);
        assert_ne!(can_checkmate(&p, Color::White), Mate::No(Proof::LockedPawns));
    }
}
