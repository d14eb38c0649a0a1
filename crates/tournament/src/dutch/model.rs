//! What the Dutch system pairs from: every player's games as the pairing rules see them
//! (played over the board or not; took part in a pairing or not), scores in tenths of a point,
//! and effective pairing numbers.
//!
//! Readings of a TRF that decide pairings, as FIDE's endorsed programs read it (C.04.1–2): a
//! forfeited game is not a meeting; `H`, `F`, `Z` and a blank round take no part in the pairing;
//! a `U` is the pairing-allocated bye; a player's pairing number among those still in the event
//! is their place in start-number order (C.04.2 "pairing numbers").

use crate::result::{Bye, RoundResult, Score};
use crate::trf::pairing::Settings;
use crate::trf::{Colour, Round, Trf};

/// Points in tenths, as TRF writes them (`1.0` = 10).
pub type Tenths = u32;

/// What each kind of result is worth (TRF-2026 `162`, or bbpPairings' `BBW`/`BBD`/… lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointSystem {
    pub win: Tenths,
    pub draw: Tenths,
    pub loss: Tenths,
    pub zero_bye: Tenths,
    pub forfeit_loss: Tenths,
    /// The pairing-allocated bye.
    pub pab: Tenths,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: 10,
        }
    }
}

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// The opponent's index; the player's own index when there was none.
    pub opponent: usize,
    pub colour: Colour,
    /// What the round counts as (a pending game as a loss).
    pub outcome: Score,
    /// Played over the board (not a forfeit, not a bye).
    pub played: bool,
    /// The player was paired that round (a game, a forfeit either way, or the PAB).
    pub paired: bool,
}

impl Match {
    fn absent(me: usize) -> Match {
        Match {
            opponent: me,
            colour: Colour::None,
            outcome: Score::Loss,
            played: false,
            paired: false,
        }
    }

    fn from_round(me: usize, r: &Round) -> Match {
        let opponent = if r.opponent == 0 { me } else { r.opponent as usize - 1 };
        let outcome = r.result.score().unwrap_or(Score::Loss);
        let played = opponent != me && r.colour != Colour::None && r.result.is_game();
        Match {
            opponent,
            // Kept for a forfeit too: the first colours drawn tell the initial colour.
            colour: if opponent == me { Colour::None } else { r.colour },
            outcome,
            played,
            paired: opponent != me
                || matches!(
                    r.result,
                    RoundResult::Bye(Bye::PairingAllocated) | RoundResult::ForfeitWin
                ),
        }
    }
}

/// Rounds `[from, to)` (0-based) in which the players may not meet each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    pub players: Vec<usize>,
    pub from: usize,
    pub to: usize,
}

#[derive(Debug, Clone)]
pub struct Entrant {
    pub number: u32,
    /// Rounds before the one being paired, plus, for a player who is not to be paired, that
    /// round's bye.
    pub matches: Vec<Match>,
    /// Extra points for pairing only, by round (acceleration).
    pub accelerations: Vec<Tenths>,
    /// Score before the round being paired.
    pub score: Tenths,
    /// Effective pairing number (0-based) among valid players.
    pub rank: usize,
    /// Still in the event: to be paired now or paired in some earlier round.
    pub valid: bool,
}

/// A Swiss event as of one round: everything the pairing of that round depends on.
#[derive(Debug, Clone)]
pub struct Event {
    pub entrants: Vec<Entrant>,
    /// Rounds already played (the round being paired is `played_rounds + 1`).
    pub played_rounds: usize,
    pub total_rounds: usize,
    pub points: PointSystem,
    /// The colour drawn for the first player before round 1 (`None` if not known yet).
    pub initial: Colour,
    pub forbidden: Vec<Forbidden>,
}

/// A TRF that cannot be paired from, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventError(pub String);

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EventError {}

impl Event {
    /// Points of one round of one player.
    pub fn points_of(&self, me: usize, m: &Match) -> Tenths {
        match m.outcome {
            Score::Loss if !m.paired => self.points.zero_bye,
            Score::Loss if m.played => self.points.loss,
            Score::Loss => self.points.forfeit_loss,
            Score::Win if m.opponent == me && m.paired => self.points.pab,
            Score::Win => self.points.win,
            Score::Draw => self.points.draw,
        }
    }

    /// Score used for pairing `rounds_back` rounds ago (acceleration included).
    pub fn pairing_score(&self, me: usize, rounds_back: usize) -> Tenths {
        let e = &self.entrants[me];
        let mut score = e.score;
        let round = self.played_rounds - rounds_back;
        for m in &e.matches[round..self.played_rounds] {
            score -= self.points_of(me, m);
        }
        score + e.accelerations.get(round).copied().unwrap_or(0)
    }

    /// Whether a player is to be paired in this round.
    pub fn to_pair(&self, me: usize) -> bool {
        let e = &self.entrants[me];
        e.valid && e.matches.len() <= self.played_rounds
    }

    /// The event as it stood before round `round` (0-based) of a TRF: rounds before it played,
    /// players with an unpaired entry in that round (a requested bye, an absence) left out.
    pub fn before_round(trf: &Trf, round: usize) -> Result<Event, EventError> {
        let settings = Settings::read(trf)?;
        let mut event = Event::build(trf, round, &settings)?;
        if event.initial == Colour::None {
            // The colour is not written: it is the one the first round with colours implies.
            let all = super::rounds_paired(trf);
            event.initial = infer_initial_colour(&Event::build(trf, all, &settings)?);
        }
        Ok(event)
    }

    fn build(trf: &Trf, round: usize, settings: &Settings) -> Result<Event, EventError> {
        let n = trf.players.len();
        for (i, p) in trf.players.iter().enumerate() {
            if p.number as usize != i + 1 {
                return Err(EventError(format!("pairing number {} is missing", i + 1)));
            }
        }
        let mut entrants = Vec::with_capacity(n);
        for (me, p) in trf.players.iter().enumerate() {
            let mut matches: Vec<Match> = (0..round)
                .map(|r| p.rounds.get(r).map_or(Match::absent(me), |x| Match::from_round(me, x)))
                .collect();
            // A blank column is an absence, except in the round to be paired next.
            let written = round < p.written;
            if let Some(r) = p
                .rounds
                .get(round)
                .filter(|_| written || round < super::rounds_paired(trf))
            {
                let m = Match::from_round(me, r);
                if !m.paired {
                    matches.push(m);
                }
            } else if settings.byes.contains(&(round, me)) {
                // A TRF-2026 `240` record: a bye requested for the round to be paired.
                matches.push(Match::absent(me));
            }
            entrants.push(Entrant {
                number: p.number,
                matches,
                accelerations: settings.accelerations.get(me).cloned().unwrap_or_default(),
                score: 0,
                rank: 0,
                valid: false,
            });
        }
        let mut event = Event {
            entrants,
            played_rounds: round,
            total_rounds: settings
                .total_rounds
                .unwrap_or_else(|| super::rounds_paired(trf))
                .max(round + 1),
            points: settings.points,
            initial: settings.initial,
            forbidden: settings.forbidden.clone(),
        };
        // Opponents must exist and agree (bbpPairings refuses such files too).
        for (me, e) in event.entrants.iter().enumerate() {
            for (r, m) in e.matches.iter().enumerate().take(round) {
                if m.opponent == me {
                    continue;
                }
                let theirs = event.entrants.get(m.opponent).and_then(|o| o.matches.get(r));
                if theirs.is_none_or(|t| t.opponent != me) {
                    return Err(EventError(format!(
                        "round {} of player {} names opponent {}, whose entry does not name them back",
                        r + 1,
                        e.number,
                        m.opponent + 1
                    )));
                }
            }
        }
        for me in 0..n {
            let score = (0..round)
                .map(|r| event.points_of(me, &event.entrants[me].matches[r]))
                .sum();
            event.entrants[me].score = score;
        }
        let mut rank = 0;
        for e in &mut event.entrants {
            e.valid = e.matches.len() <= round || e.matches.iter().any(|m| m.paired);
            if e.valid {
                e.rank = rank;
                rank += 1;
            }
        }
        if settings.baku {
            event.apply_baku();
        }
        Ok(event)
    }

    /// Baku acceleration (C.04.5): the top half by start number gets a win's points in the
    /// first rounds and a draw's in the next ones, for pairing only.
    fn apply_baku(&mut self) {
        let n = self.entrants.len();
        if n == 0 {
            return;
        }
        let last_rank = (n - 1) / 2;
        let last_round = (self.total_rounds - 1) / 2;
        let last_full = last_round / 2;
        let (win, draw, played) = (self.points.win, self.points.draw, self.played_rounds);
        for e in self.entrants.iter_mut().take(last_rank + 1) {
            e.accelerations.clear();
            for r in 0..=last_round.min(played) {
                e.accelerations.push(if r <= last_full { win } else { draw });
            }
        }
    }
}

/// The colour the first player drew, from the first round that has colours: the first player
/// paired by then (the first pairing number) had it.
fn infer_initial_colour(event: &Event) -> Colour {
    let first = event
        .entrants
        .iter()
        .filter(|e| e.valid)
        .filter_map(|e| e.matches.iter().position(|m| m.colour != Colour::None))
        .min();
    let Some(first) = first else {
        return Colour::None;
    };
    event
        .entrants
        .iter()
        .filter(|e| e.valid)
        .find(|e| e.matches.iter().take(first + 1).any(|m| m.paired))
        .map_or(Colour::None, |e| e.matches[first].colour)
}

pub fn invert(c: Colour) -> Colour {
    match c {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
        Colour::None => Colour::None,
    }
}
