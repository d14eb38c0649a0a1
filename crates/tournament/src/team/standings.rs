//! Team standings: teams ordered by their primary score (match points, or game points where the
//! regulations say so), then by an ordered list of tie-breaks, each applied only to the teams
//! still tied; teams equal on everything share the place. The tie-breaks and their codes are
//! in [`super::tiebreak`].
//!
//! Rounds without a game, in Buchholz and SB (C.07 Art. 16.4, 2026 text): a bye is a match
//! against a dummy team whose score is the team's own, capped at a drawn match in every round
//! (the draw's match points, or half the boards, times the number of rounds); a match no board
//! of which was played (every board forfeited) is one against a dummy scoring the team's own
//! score capped at the scheduled opponent's. Such a match is not an encounter for DE. The
//! event model has no requested byes, so no round is a voluntary unplayed one. (C.07 would count
//! a round robin's forfeits as played for SB; a forfeited team match is rare enough that one
//! rule serves both formats here.)
//!
//! Board-points tie-breaks number boards from 1 up to the most boards of any pairing; a bye
//! counts [`ByeScoring::boards`](super::ByeScoring) on each of them.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde::Serialize;

use super::tiebreak::{Points, TeamTieBreak};
use super::{team_match, Board, TeamError, TeamScoring};
use crate::result::Score;

/// One pairing of a team event, or a bye.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamRound {
    pub round: u32,
    /// Index of the first-named team (board 1 red/white).
    pub first: usize,
    /// Index of the second-named team; `None` for a bye.
    pub second: Option<usize>,
    /// Board 1 first, from the first team's view; empty for a bye.
    pub boards: Vec<Board>,
}

/// One line of the team standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamLine {
    /// Shared by teams equal on the primary score and every tie-break.
    pub place: usize,
    /// The team's index in the names given.
    pub team: usize,
    pub name: String,
    pub match_points: f64,
    pub game_points: f64,
    /// In the order asked for.
    pub tiebreaks: Vec<f64>,
}

/// A team's part in one round.
struct Entry {
    opponent: Option<usize>,
    mp: f64,
    gp: f64,
    /// Game points on each board, board 1 first.
    boards: Vec<f64>,
    /// Whether any board was played over the board (never for a bye).
    played: bool,
}

/// What the tie-breaks are computed from.
struct Event<'a> {
    scoring: &'a TeamScoring,
    entries: Vec<Vec<Entry>>,
    /// The most boards of any pairing.
    boards: usize,
    /// The number of rounds (the highest round number).
    rounds: u32,
}

impl Event<'_> {
    fn total(&self, team: usize, p: Points) -> f64 {
        self.entries[team].iter().map(|e| e.points(p)).sum()
    }

    fn primary(&self) -> Points {
        Points::of(self.scoring.order)
    }

    /// A drawn match's points of kind `p`.
    fn draw(&self, p: Points) -> f64 {
        match p {
            Points::Match => self.scoring.draw,
            Points::Game => self.boards as f64 / 2.0,
        }
    }

    /// A won match's points of kind `p` (the best a missing encounter could have given).
    fn win(&self, p: Points) -> f64 {
        match p {
            Points::Match => self.scoring.win,
            Points::Game => self.boards as f64,
        }
    }

    /// The opponent's score of kind `p` in each of `team`'s rounds, dummies for byes and
    /// matches not played (16.4), with the team's own result of kind `own` there.
    fn parts(&self, team: usize, p: Points, own: Points) -> Vec<(f64, f64)> {
        let score = self.total(team, p);
        let cap = self.draw(p) * f64::from(self.rounds);
        self.entries[team]
            .iter()
            .map(|e| {
                let opponent = match e.opponent {
                    Some(o) if e.played => self.total(o, p),
                    Some(o) => score.min(self.total(o, p)),
                    None => score.min(cap),
                };
                (opponent, e.points(own))
            })
            .collect()
    }

    fn buchholz(&self, team: usize, p: Points, cut: bool) -> f64 {
        let mut scores: Vec<f64> = self.parts(team, p, p).iter().map(|x| x.0).collect();
        scores.sort_by(f64::total_cmp);
        scores.iter().skip(usize::from(cut)).sum()
    }

    fn sonneborn_berger(&self, team: usize, opponent: Points, own: Points, cut: bool) -> f64 {
        let parts = self.parts(team, opponent, own);
        let total: f64 = parts.iter().map(|x| x.0 * x.1).sum();
        let lowest = parts.iter().map(|x| x.0).min_by(f64::total_cmp);
        match lowest {
            Some(low) if cut => {
                let least = parts
                    .iter()
                    .filter(|x| x.0 == low)
                    .map(|x| x.0 * x.1)
                    .min_by(f64::total_cmp)
                    .unwrap_or(0.0);
                total - least
            }
            _ => total,
        }
    }

    /// Game points on each board, summed over the rounds.
    fn board_points(&self, team: usize) -> Vec<f64> {
        let mut sums = vec![0.0; self.boards];
        for e in &self.entries[team] {
            for (s, x) in sums.iter_mut().zip(&e.boards) {
                *s += x;
            }
        }
        sums
    }

    /// The value of a tie-break that does not depend on who is tied.
    fn value(&self, team: usize, tb: TeamTieBreak) -> Option<f64> {
        Some(match tb {
            TeamTieBreak::Mp => self.total(team, Points::Match),
            TeamTieBreak::Gp => self.total(team, Points::Game),
            TeamTieBreak::Bh { points, cut } => self.buchholz(team, points, cut),
            TeamTieBreak::Sb { opponent, own, cut } => self.sonneborn_berger(team, opponent, own, cut),
            TeamTieBreak::Bc => self
                .board_points(team)
                .iter()
                .enumerate()
                .map(|(b, p)| (b + 1) as f64 * p)
                .sum(),
            TeamTieBreak::De | TeamTieBreak::Tbr | TeamTieBreak::Bbe => return None,
        })
    }

    /// The places (from 0, ties sharing) a group tie-break gives the teams of `group`.
    fn group_places(&self, group: &[usize], tb: TeamTieBreak) -> Vec<usize> {
        match tb {
            TeamTieBreak::De => self.direct_encounter(group),
            TeamTieBreak::Tbr => places_by_key(group, |t| self.board_points(t)),
            _ => places_by_key(group, |t| {
                // Without the last board, then the last two, ….
                let points = self.board_points(t);
                (1..points.len())
                    .map(|k| points[..points.len() - k].iter().sum())
                    .collect()
            }),
        }
    }
}

impl Entry {
    fn points(&self, p: Points) -> f64 {
        match p {
            Points::Match => self.mp,
            Points::Game => self.gp,
        }
    }
}

/// Places from 0 by a key compared element by element, higher first, equal keys sharing.
fn places_by_key(group: &[usize], key: impl Fn(usize) -> Vec<f64>) -> Vec<usize> {
    let keys: Vec<Vec<f64>> = group.iter().map(|&t| key(t)).collect();
    let cmp = |a: &Vec<f64>, b: &Vec<f64>| {
        a.iter()
            .zip(b)
            .map(|(x, y)| y.total_cmp(x))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    (0..group.len())
        .map(|i| (0..group.len()).filter(|&j| cmp(&keys[j], &keys[i]).is_lt()).count())
        .collect()
}

mod direct_encounter;

/// Checks the rounds and scores every pairing.
fn event<'a>(teams: usize, rounds: &[TeamRound], scoring: &'a TeamScoring) -> Result<Event<'a>, TeamError> {
    scoring.check()?;
    let boards = rounds.iter().map(|r| r.boards.len()).max().unwrap_or(0);
    let mut entries: Vec<Vec<Entry>> = (0..teams).map(|_| Vec::new()).collect();
    let mut seen: BTreeSet<(u32, usize)> = BTreeSet::new();
    for r in rounds {
        let round = r.round;
        if r.second == Some(r.first) {
            return Err(TeamError::SelfPairing { round, team: r.first });
        }
        for team in std::iter::once(r.first).chain(r.second) {
            if team >= teams {
                return Err(TeamError::UnknownTeam { round, team });
            }
            if !seen.insert((round, team)) {
                return Err(TeamError::PairedTwice { round, team });
            }
        }
        let bad_boards = TeamError::Boards {
            round,
            team: r.first,
            boards: r.boards.len(),
        };
        let Some(second) = r.second else {
            if !r.boards.is_empty() {
                return Err(bad_boards);
            }
            let bye = scoring.bye;
            // Board points by colour: a bye's drawn board has no colour, so half of each draw.
            let per_board = match (&scoring.board_points, bye.boards) {
                (None, b) => b.points(),
                (Some(p), Score::Win) => p.win,
                (Some(p), Score::Draw) => (p.red_draw + p.black_draw) / 2.0,
                (Some(p), Score::Loss) => p.loss,
            };
            entries[r.first].push(Entry {
                opponent: None,
                mp: scoring.match_points(bye.result),
                gp: per_board * boards as f64,
                boards: vec![per_board; boards],
                played: false,
            });
            continue;
        };
        if r.boards.is_empty() {
            return Err(bad_boards);
        }
        let result = team_match(&r.boards, scoring);
        let played = r.boards.iter().any(|b| b.played());
        let points: Vec<(f64, f64)> = r.boards.iter().enumerate().map(|(k, &b)| scoring.board(b, k)).collect();
        entries[r.first].push(Entry {
            opponent: Some(second),
            mp: result.match_points.0,
            gp: result.game_points.0,
            boards: points.iter().map(|p| p.0).collect(),
            played,
        });
        entries[second].push(Entry {
            opponent: Some(r.first),
            mp: result.match_points.1,
            gp: result.game_points.1,
            boards: points.iter().map(|p| p.1).collect(),
            played,
        });
    }
    Ok(Event {
        scoring,
        entries,
        boards,
        rounds: rounds.iter().map(|r| r.round).max().unwrap_or(0),
    })
}

/// Rounds a value to millionths, so sums of match points like 0.1 compare equal however they
/// were added; an empty sum's -0 is 0 (a team yet to play is level with one that scored
/// nothing).
fn tidy(x: f64) -> f64 {
    (x * 1e6).round() / 1e6 + 0.0
}

/// The standings of the teams `names` (indexed as in `rounds`), ranked by the primary score of
/// `scoring` and then by `order`.
pub fn standings<S: AsRef<str>>(
    names: &[S],
    rounds: &[TeamRound],
    scoring: &TeamScoring,
    order: &[TeamTieBreak],
) -> Result<Vec<TeamLine>, TeamError> {
    let ev = event(names.len(), rounds, scoring)?;
    let mut lines: Vec<TeamLine> = names
        .iter()
        .enumerate()
        .map(|(t, name)| TeamLine {
            place: 0,
            team: t,
            name: name.as_ref().to_string(),
            match_points: tidy(ev.total(t, Points::Match)),
            game_points: tidy(ev.total(t, Points::Game)),
            tiebreaks: Vec::with_capacity(order.len()),
        })
        .collect();
    let primary = ev.primary();
    for &tb in order {
        if tb.by_group() {
            for group in tied(&lines, order, primary) {
                let teams: Vec<usize> = group.iter().map(|&i| lines[i].team).collect();
                let places = ev.group_places(&teams, tb);
                let separated = places.iter().any(|&p| p != places[0]);
                for (&i, p) in group.iter().zip(places) {
                    lines[i].tiebreaks.push(if separated { (p + 1) as f64 } else { 0.0 });
                }
            }
        } else {
            for line in &mut lines {
                line.tiebreaks.push(tidy(ev.value(line.team, tb).unwrap_or(0.0)));
            }
        }
    }
    lines.sort_by(|a, b| compare(b, a, order, primary).then(a.team.cmp(&b.team)));
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && compare(&lines[i], &lines[i - 1], order, primary).is_eq() {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    Ok(lines)
}

/// Ranks `a` against `b` on the primary score and the tie-breaks both lines have so far
/// (greater first).
fn compare(a: &TeamLine, b: &TeamLine, order: &[TeamTieBreak], primary: Points) -> Ordering {
    let score = |l: &TeamLine| match primary {
        Points::Match => l.match_points,
        Points::Game => l.game_points,
    };
    let signed = |tb: &TeamTieBreak, x: f64| if tb.higher_first() { x } else { -x };
    let pairs = order
        .iter()
        .zip(a.tiebreaks.iter().zip(&b.tiebreaks))
        .map(|(tb, (x, y))| signed(tb, *x).total_cmp(&signed(tb, *y)));
    std::iter::once(score(a).total_cmp(&score(b)))
        .chain(pairs)
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The lines (by index) grouped by equal primary score and tie-breaks so far.
fn tied(lines: &[TeamLine], order: &[TeamTieBreak], primary: Points) -> Vec<Vec<usize>> {
    let mut indices: Vec<usize> = (0..lines.len()).collect();
    indices.sort_by(|&a, &b| compare(&lines[b], &lines[a], order, primary));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in indices {
        match groups.last_mut() {
            Some(g) if compare(&lines[g[0]], &lines[i], order, primary).is_eq() => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
}
