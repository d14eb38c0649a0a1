//! A pairing — two entrants meeting for one game, a match of N, or a team pairing on N boards —
//! and what it has come to.

use serde::{Deserialize, Serialize};

use crate::matches::{Match, Status, TieBreak};
use crate::result::Score;

/// The first-named entrant of a pairing (red or white in its first game, or on board 1) or
/// the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

/// One game of a pairing, or one board of a team pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The first-named entrant's result.
    pub score: Score,
    /// Not played over the board: the loser did not show (both, for a forfeit loss each way
    /// when `double_forfeit`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub double_forfeit: bool,
}

impl Game {
    /// The game as a board of a team pairing, as the team library counts it.
    pub fn board(&self) -> crate::team::Board {
        use crate::team::{Board, Side as TeamSide};
        if self.double_forfeit {
            Board::BothAbsent
        } else if self.forfeit {
            Board::Forfeit {
                absent: if self.score == Score::Win {
                    TeamSide::Second
                } else {
                    TeamSide::First
                },
            }
        } else {
            Board::Played(self.score)
        }
    }
}

/// A lot that decided a tied pairing: who won it and how it was drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lot {
    pub winner: Side,
    pub how: String,
}

/// Two entrants meeting, or one with a bye (`second` empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// What results are entered against: `3.2` (round 3, board 2), `B2.1` (group B), `W1.3`,
    /// `L2.1`, `GF.1` (double knockout), `3P.1` (third place), `P1.1` (a play-off).
    pub id: String,
    /// The group (0 = A) in a grouped stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// The bracket node of a seeded or double knockout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    pub first: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<Game>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lot: Option<Lot>,
    /// The teams' lineups, board by board, where set ([`Event::set_lineup`]); the first
    /// members play otherwise.
    ///
    /// [`Event::set_lineup`]: super::Event::set_lineup
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lineups: Option<(Vec<String>, Vec<String>)>,
}

/// A round of a stage: its pairings, and how a drawn round was drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub number: u32,
    pub pairings: Vec<Pairing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
}

/// What a pairing has come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Games still to play.
    Pending,
    /// No opponent: the entrant goes on (a knockout) or sits the round out.
    Bye,
    Won(Side),
    Drawn,
}

/// How a pairing is decided: the games it has, whether it must have a winner, the play-off
/// games before lots, and the boards of a team pairing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    pub games: u32,
    pub needs_winner: bool,
    pub playoff: u32,
    pub boards: u32,
    pub board_points: Option<crate::team::BoardPoints>,
    pub seed: u64,
}

impl Pairing {
    /// A pairing without games yet.
    pub fn new(id: String, first: u32, second: Option<u32>) -> Pairing {
        Pairing {
            id,
            group: None,
            node: None,
            first,
            second,
            games: Vec::new(),
            lot: None,
            lineups: None,
        }
    }

    /// The entrant on this side.
    pub fn entrant(&self, side: Side) -> Option<u32> {
        match side {
            Side::First => Some(self.first),
            Side::Second => self.second,
        }
    }

    /// The first-named entrant's game points and the second's.
    pub fn game_points(&self) -> (f64, f64) {
        points_of(&self.games)
    }

    /// A forfeit in a match that must have a winner ends it: the absent side loses the match.
    fn forfeited(&self) -> Option<Side> {
        let g = self.games.iter().find(|g| g.forfeit)?;
        Some(if g.score == Score::Win {
            Side::First
        } else {
            Side::Second
        })
    }

    /// Who has red (white) in the next game of a match: the first-named entrant in games 1, 3,
    /// 5 …, colours alternating through play-offs too.
    pub fn next_first_colour(&self) -> Side {
        if self.games.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    /// Whether the first-named entrant has red (white) in game `k` (from 0) of the pairing. In
    /// a match colours alternate game by game; in a team pairing of `boards` boards they
    /// alternate board by board (board 1 to the first-named team), and each play-off match
    /// on the boards turns them round, so a board's two players swap colours in it.
    pub fn first_red(k: usize, boards: u32) -> bool {
        match boards as usize {
            0 => k.is_multiple_of(2),
            n => (k / n + k % n).is_multiple_of(2),
        }
    }

    /// How many games the pairing has once the match now being played is complete: the next
    /// game of a match of players; for a team pairing, the end of its match on the boards or
    /// of the play-off match a tie has sent it to. Its games' count when it is decided.
    pub(crate) fn games_due(&self, rule: Rule) -> usize {
        if self.second.is_none() || self.verdict(rule) != Verdict::Pending {
            return self.games.len();
        }
        let boards = rule.boards as usize;
        if boards == 0 {
            return self.games.len() + 1;
        }
        let matches = self.games.len() / boards + 1;
        let last = if rule.needs_winner {
            1 + rule.playoff as usize
        } else {
            1
        };
        matches.min(last) * boards
    }

    pub(crate) fn verdict(&self, rule: Rule) -> Verdict {
        if self.second.is_none() {
            return Verdict::Bye;
        }
        if rule.boards > 0 {
            return self.team_verdict(rule);
        }
        if self.games.iter().any(|g| g.double_forfeit) {
            return if rule.needs_winner {
                Verdict::Pending
            } else {
                Verdict::Drawn
            };
        }
        if let Some(lot) = &self.lot {
            return Verdict::Won(lot.winner);
        }
        if !rule.needs_winner {
            if (self.games.len() as u32) < rule.games {
                return Verdict::Pending;
            }
            let (a, b) = self.game_points();
            return match a.partial_cmp(&b) {
                Some(std::cmp::Ordering::Greater) => Verdict::Won(Side::First),
                Some(std::cmp::Ordering::Less) => Verdict::Won(Side::Second),
                _ => Verdict::Drawn,
            };
        }
        if let Some(side) = self.forfeited() {
            return Verdict::Won(side);
        }
        match self.as_match(rule).status() {
            Status::Playing => Verdict::Pending,
            Status::Won { winner, .. } => Verdict::Won(if winner == 0 { Side::First } else { Side::Second }),
        }
    }

    /// The lot a match of this rule would draw now, if its games leave it tied with nothing
    /// more to play.
    pub(crate) fn due_lot(&self, rule: Rule) -> Option<Lot> {
        if self.lot.is_some() || self.second.is_none() || !rule.needs_winner {
            return None;
        }
        if rule.boards > 0 {
            let matches = 1 + rule.playoff as usize;
            if self.games.len() != matches * rule.boards as usize || self.team_verdict(rule) != Verdict::Pending {
                return None;
            }
            let (a, b) = team_points(&self.games[..rule.boards as usize], 0, rule);
            let how = match rule.playoff {
                0 => format!("tied {a}-{b} on the boards"),
                n => format!("tied {a}-{b} on the boards after {n} play-off match(es)"),
            };
            return Some(drawn_lot(rule.seed, &how));
        }
        match self.as_match(rule).status() {
            Status::Won { by_lot: true, .. } => {
                let (a, b) = self.game_points();
                Some(drawn_lot(
                    rule.seed,
                    &format!("tied {a}-{b} after {} games", self.games.len()),
                ))
            }
            _ => None,
        }
    }

    /// A team pairing: the game points of its match on the boards. One that must have a
    /// winner and is tied goes to a play-off match on the same boards (seed 000 §6: 加赛一局,
    /// for teams a match on every board), up to `playoff` of them, each decided by its own game
    /// points; still tied after them, lots ([`Pairing::due_lot`]).
    fn team_verdict(&self, rule: Rule) -> Verdict {
        let boards = rule.boards as usize;
        if self.games.len() < boards {
            return Verdict::Pending;
        }
        if let Some(lot) = &self.lot {
            return Verdict::Won(lot.winner);
        }
        let matches = if rule.needs_winner {
            1 + rule.playoff as usize
        } else {
            1
        };
        for (m, part) in self.games.chunks(boards).take(matches).enumerate() {
            if part.len() < boards {
                return Verdict::Pending;
            }
            let (a, b) = team_points(part, m * boards, rule);
            match a.partial_cmp(&b) {
                Some(std::cmp::Ordering::Greater) => return Verdict::Won(Side::First),
                Some(std::cmp::Ordering::Less) => return Verdict::Won(Side::Second),
                _ if rule.needs_winner => {}
                _ => return Verdict::Drawn,
            }
        }
        Verdict::Pending
    }

    /// The games as [`Match`] keeps them: who had red, and the score from red's side.
    fn as_match(&self, rule: Rule) -> Match {
        let tie = TieBreak::PlayOffThenLots {
            games: rule.playoff,
            seed: rule.seed,
        };
        let mut m = Match::new(rule.games, tie);
        for (k, g) in self.games.iter().enumerate() {
            let red = k % 2;
            let score = if red == 0 { g.score } else { g.score.reversed() };
            m.results.push((red, score));
        }
        m
    }
}

/// The game points of the first-named entrant and the second's in `games`.
fn points_of(games: &[Game]) -> (f64, f64) {
    games.iter().fold((0.0, 0.0), |(a, b), g| {
        if g.double_forfeit {
            (a, b)
        } else {
            (a + g.score.points(), b + g.score.reversed().points())
        }
    })
}

/// The points of the first-named team and the second's on the boards `games`, the pairing's
/// games from `start`: the event's board points by colour where it has them.
pub(crate) fn team_points(games: &[Game], start: usize, rule: Rule) -> (f64, f64) {
    let Some(bp) = rule.board_points else {
        return points_of(games);
    };
    games.iter().enumerate().fold((0.0, 0.0), |(a, b), (k, g)| {
        let (x, y) = bp.of(g.board(), Pairing::first_red(start + k, rule.boards));
        (a + x, b + y)
    })
}

/// A lot drawn from `seed`: the lowest bit of its splitmix64 picks the winner (0 the
/// first-named, 1 the second), as [`crate::matches::Match`] draws it.
fn drawn_lot(seed: u64, why: &str) -> Lot {
    let r = crate::lots::splitmix64(seed);
    let (winner, who) = if r & 1 == 0 {
        (Side::First, "first")
    } else {
        (Side::Second, "second")
    };
    Lot {
        winner,
        how: format!(
            "{why}: lots drawn with splitmix64(seed {seed}) = {r:#018x}, lowest bit {}: the {who}-named wins",
            r & 1
        ),
    }
}

/// The seed of the lot drawn for pairing `id`: the event's seed mixed with the id, so each
/// pairing draws its own and anyone can recompute it.
pub(crate) fn lot_seed(event_seed: u64, id: &str) -> u64 {
    id.bytes().fold(crate::lots::splitmix64(event_seed), |h, b| {
        crate::lots::splitmix64(h ^ u64::from(b))
    })
}
