//! Team events (团体赛): a team pairing played on N boards, scored as game points (局分, the
//! boards' 1/½/0 summed) and match points (场分, 2/1/0 by default, from comparing the game
//! points), and ranked by the team tie-breaks of FIDE C.07 or the CXA's order
//! ([`standings`](mod@standings), [`tiebreak`]).
//!
//! The event model owns the teams (names, members in board order, reserves); this module takes
//! plain inputs: a pairing is two team indices and the boards' results from the first-named
//! team's view.
//!
//! - Colours: board 1 of the first-named team has red/white, board 2 black, alternating
//!   ([`board_colours`]); a double round robin's second cycle swaps them
//!   ([`board_colours_in_cycle`]).
//! - An empty board is a forfeit: a game point to the side present ([`Board::Forfeit`]); both
//!   absent, nobody scores ([`Board::BothAbsent`]). Game points therefore sum to the number of
//!   boards in every pairing without a double absence.
//! - Game points are on the game's own 1/½/0, whatever the match points, unless the event
//!   scores its boards by colour ([`BoardPoints`]): Xiangqi regulations may count a draw with
//!   black above a draw with red (e.g. a win 3, a draw with red 1, with black 2), since red
//!   moves first and is expected to press.

use serde::Serialize;

use crate::result::Score;

pub mod standings;
pub mod table;
#[cfg(test)]
mod tests;
pub mod tiebreak;

pub use standings::{standings, TeamLine, TeamRound};
pub use tiebreak::{Points, TeamTieBreak, CXA_ORDER};

/// The first- or second-named team of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Side {
    First,
    Second,
}

/// One board of a team pairing, from the first-named team's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Board {
    /// Played over the board: the first team's player's score.
    Played(Score),
    /// Nobody sat at the board for `absent`: a loss for that side, a win for the other.
    Forfeit { absent: Side },
    /// Neither side had a player: no game point to either.
    BothAbsent,
}

impl Board {
    /// The game points of the first and the second team on this board.
    pub fn game_points(self) -> (f64, f64) {
        match self {
            Board::Played(s) => (s.points(), s.reversed().points()),
            Board::Forfeit { absent: Side::First } => (0.0, 1.0),
            Board::Forfeit { absent: Side::Second } => (1.0, 0.0),
            Board::BothAbsent => (0.0, 0.0),
        }
    }

    /// Whether a game was played at the board.
    pub fn played(self) -> bool {
        matches!(self, Board::Played(_))
    }
}

impl From<Score> for Board {
    fn from(s: Score) -> Board {
        Board::Played(s)
    }
}

/// Whether board `b` (from 1) of `boards` gives the first-named team's player red/white: board
/// 1 yes, board 2 no, alternating (FIDE team events and the CXA alike). Element `i` is board
/// `i + 1`.
pub fn board_colours(boards: u32) -> Vec<bool> {
    (1..=boards).map(|b| b % 2 == 1).collect()
}

/// [`board_colours`] in cycle `cycle` (from 1) of a multi-cycle round robin: the first cycle as
/// they are, the second reversed (board 1 of the first-named team black), and so on
/// alternately, so that over two cycles every board of every team has each colour once
/// against each opponent.
pub fn board_colours_in_cycle(boards: u32, cycle: u32) -> Vec<bool> {
    let swap = cycle.is_multiple_of(2) && cycle > 0;
    board_colours(boards).into_iter().map(|c| c != swap).collect()
}

/// Which score ranks teams first; the other is then available as a tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Primary {
    /// 场分: the usual order (FIDE Olympiad, CXA team events).
    MatchPoints,
    /// 局分 first, as some regulations have it.
    GamePoints,
}

/// What a team is given for a round without an opponent (a pairing-allocated bye).
///
/// C.04.1 (c) gives a bye "as many points as are rewarded for a win, unless the rules of the
/// tournament state otherwise"; for teams it says nothing of game points. The default here is
/// a won match with every board won, as FIDE's tie-break server counts a bye's board games; a
/// regulation giving half the boards is `boards: Score::Draw`, one giving a drawn match with
/// half the boards (the old Olympiad rule) `result: Score::Draw, boards: Score::Draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ByeScoring {
    /// The match result the bye counts as (its match points).
    pub result: Score,
    /// The result it counts as on every board (its game points, and its board points for the
    /// board-order tie-breaks).
    pub boards: Score,
}

impl Default for ByeScoring {
    fn default() -> ByeScoring {
        ByeScoring {
            result: Score::Win,
            boards: Score::Win,
        }
    }
}

/// Board points (局分) by colour, where a regulation scores a draw with black above a draw
/// with red (the competitions spec's "3 / red draw 1 / black draw 2"). A forfeited board gives
/// the side present a win's points and the absent side nothing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct BoardPoints {
    pub win: f64,
    pub red_draw: f64,
    pub black_draw: f64,
    pub loss: f64,
}

impl BoardPoints {
    /// Reads `W/RD/BD/L`, e.g. `3/1/2/0`: numbers, the win at least either draw, either draw
    /// at least the loss.
    pub fn parse(s: &str) -> Result<BoardPoints, String> {
        let v: Vec<f64> = s
            .split('/')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("board points {s:?}: four numbers W/RD/BD/L, e.g. 3/1/2/0"))?;
        let [win, red_draw, black_draw, loss] = v[..] else {
            return Err(format!("board points {s:?}: four numbers W/RD/BD/L, e.g. 3/1/2/0"));
        };
        let p = BoardPoints {
            win,
            red_draw,
            black_draw,
            loss,
        };
        let ok = v.iter().all(|x| x.is_finite() && *x >= 0.0 && *x <= 100.0)
            && win >= red_draw.max(black_draw)
            && red_draw.min(black_draw) >= loss;
        if ok {
            Ok(p)
        } else {
            Err(format!(
                "board points {s:?}: 0 to 100, a win at least either draw, either draw at least a loss"
            ))
        }
    }

    /// The points of the first and the second team on a board where the first team's player
    /// has red (white) when `first_red`.
    pub fn of(&self, b: Board, first_red: bool) -> (f64, f64) {
        let draw = if first_red {
            (self.red_draw, self.black_draw)
        } else {
            (self.black_draw, self.red_draw)
        };
        match b {
            Board::Played(Score::Win) => (self.win, self.loss),
            Board::Played(Score::Loss) => (self.loss, self.win),
            Board::Played(Score::Draw) => draw,
            Board::Forfeit { absent: Side::First } => (0.0, self.win),
            Board::Forfeit { absent: Side::Second } => (self.win, 0.0),
            Board::BothAbsent => (0.0, 0.0),
        }
    }
}

/// How team pairings are scored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TeamScoring {
    /// Match points (场分) for a won, drawn and lost match: 2/1/0 by default.
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
    pub order: Primary,
    pub bye: ByeScoring,
    /// Board points by colour instead of the games' 1/½/0; colours as [`board_colours`].
    pub board_points: Option<BoardPoints>,
}

impl Default for TeamScoring {
    fn default() -> TeamScoring {
        TeamScoring {
            win: 2.0,
            draw: 1.0,
            loss: 0.0,
            order: Primary::MatchPoints,
            bye: ByeScoring::default(),
            board_points: None,
        }
    }
}

impl TeamScoring {
    /// The match points of a match result.
    pub fn match_points(&self, result: Score) -> f64 {
        match result {
            Score::Win => self.win,
            Score::Draw => self.draw,
            Score::Loss => self.loss,
        }
    }

    /// The game points of the first and the second team on board `index` (from 0).
    pub fn board(&self, b: Board, index: usize) -> (f64, f64) {
        match &self.board_points {
            Some(p) => p.of(b, index.is_multiple_of(2)),
            None => b.game_points(),
        }
    }

    /// Refuses match points that are not finite or not ordered win ≥ draw ≥ loss.
    pub fn check(&self) -> Result<(), TeamError> {
        let finite = [self.win, self.draw, self.loss].iter().all(|x| x.is_finite());
        if finite && self.win >= self.draw && self.draw >= self.loss {
            Ok(())
        } else {
            Err(TeamError::Scoring {
                win: self.win,
                draw: self.draw,
                loss: self.loss,
            })
        }
    }
}

/// The result of one team pairing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TeamMatchResult {
    /// 局分 of the first and the second team.
    pub game_points: (f64, f64),
    /// 场分 of the first and the second team.
    pub match_points: (f64, f64),
    /// The team with more game points; `None` for a drawn match.
    pub winner: Option<Side>,
}

impl TeamMatchResult {
    /// The match result from `side`'s view.
    pub fn score(&self, side: Side) -> Score {
        match (self.winner, side) {
            (None, _) => Score::Draw,
            (Some(w), s) if w == s => Score::Win,
            _ => Score::Loss,
        }
    }
}

/// Scores a team pairing from its boards (first-named team's view, board 1 first): the game
/// points summed, the match won by the team with more of them, drawn when equal.
///
/// ```
/// use tournament::result::Score;
/// use tournament::team::{team_match, Side, TeamScoring};
///
/// let r = team_match(&[Score::Win, Score::Draw, Score::Loss, Score::Win], &TeamScoring::default());
/// assert_eq!(r.game_points, (2.5, 1.5));
/// assert_eq!((r.match_points, r.winner), ((2.0, 0.0), Some(Side::First)));
/// ```
pub fn team_match<B: Into<Board> + Copy>(boards: &[B], scoring: &TeamScoring) -> TeamMatchResult {
    let (a, b) = boards
        .iter()
        .enumerate()
        .map(|(k, &x)| scoring.board(x.into(), k))
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let winner = match a.total_cmp(&b) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    };
    let mut r = TeamMatchResult {
        game_points: (a, b),
        match_points: (0.0, 0.0),
        winner,
    };
    r.match_points = (
        scoring.match_points(r.score(Side::First)),
        scoring.match_points(r.score(Side::Second)),
    );
    r
}

/// Why team results or tie-breaks were refused.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum TeamError {
    /// A team index past the teams given.
    UnknownTeam { round: u32, team: usize },
    /// A team paired against itself.
    SelfPairing { round: u32, team: usize },
    /// A team in two pairings (or a pairing and a bye) of one round.
    PairedTwice { round: u32, team: usize },
    /// A pairing with no boards, or a bye with some.
    Boards { round: u32, team: usize, boards: usize },
    /// Match points that are not finite or not ordered win ≥ draw ≥ loss.
    Scoring { win: f64, draw: f64, loss: f64 },
    /// A tie-break code not known.
    UnknownTieBreak(String),
}

impl std::fmt::Display for TeamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TeamError::UnknownTeam { round, team } => {
                write!(f, "round {round}: team {team} is not one of the teams")
            }
            TeamError::SelfPairing { round, team } => {
                write!(f, "round {round}: team {team} is paired against itself")
            }
            TeamError::PairedTwice { round, team } => {
                write!(f, "round {round}: team {team} is paired more than once")
            }
            TeamError::Boards { round, team, boards: 0 } => {
                write!(f, "round {round}: the pairing of team {team} has no boards")
            }
            TeamError::Boards { round, team, boards } => {
                write!(
                    f,
                    "round {round}: the bye of team {team} has {boards} boards, a bye has none"
                )
            }
            TeamError::Scoring { win, draw, loss } => write!(
                f,
                "match points {win}/{draw}/{loss}: they must be numbers with win ≥ draw ≥ loss"
            ),
            TeamError::UnknownTieBreak(code) => write!(f, "unknown team tie-break {code:?}"),
        }
    }
}

impl std::error::Error for TeamError {}
