//! Direct Encounter (C.07 Art. 6) between tied teams: the method of
//! [`crate::tiebreak::direct_encounter`], with a team's score the primary score (match or game
//! points) it made in its matches against the others of the group; matches no board of which
//! was played (every board forfeited) are not encounters, and a missing match could have given
//! at most a win's match points, or every board.

use super::Event;
use crate::tiebreak::direct_encounter::{places, Encounters};

/// A team's matches with a board played over the board, scored on the primary score.
impl Encounters for Event<'_> {
    type Id = usize;

    fn each(&self, team: usize, mut f: impl FnMut(usize, f64)) {
        let p = self.primary();
        for e in self.entries[team].iter().filter(|e| e.played) {
            if let Some(o) = e.opponent {
                f(o, e.points(p));
            }
        }
    }

    fn win_score(&self) -> f64 {
        self.win(self.primary())
    }
}

impl Event<'_> {
    /// Places from 0 (ties sharing the higher) of the teams of `group` by DE.
    pub(super) fn direct_encounter(&self, group: &[usize]) -> Vec<usize> {
        places(self, group)
    }
}
