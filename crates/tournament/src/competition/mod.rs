//! An event of any format, for players or for teams (人(队)): one model from registration to
//! final standings, kept as one document that every change replaces under a version.
//!
//! An event is a plan of stages — a round robin of one or two cycles, groups (分组循环), a
//! knockout (seeded bracket or seed 000's card draw), a double knockout, or a Swiss — each
//! feeding the next with its top finishers, play-offs (附加赛) deciding a tie on a qualifying
//! place. Every pairing may be a match of N games with a play-off and lots, and every random
//! step (a card draw, a lot) is drawn from the event's seed and described in the pairing's
//! round, so anyone can replay it.
//!
//! A Swiss (FIDE Dutch or 积分编排制) is kept as its TRF inside the stage, run by
//! [`crate::event`]; a single-stage Swiss is stored as that TRF alone ([`Event::to_text`]), as
//! before, so files written earlier read unchanged.
//!
//! ```
//! use tournament::competition::{Event, Format, Plan};
//!
//! let mut e = Event::new("Club", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
//! for name in ["Ann", "Bo", "Cy", "Di"] {
//!     e.register(name, 0, "", &[]).unwrap();
//! }
//! let round = e.pair().unwrap();
//! assert_eq!(round.pairings.len(), 2);
//! e.result(&round.pairings[0].id.clone(), &["1-0"], false).unwrap();
//! ```

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::trf::Trf;

mod compact;
mod entrants;
mod error;
mod format;
mod games;
mod knockout;
mod lineup;
mod pairing;
mod progress;
mod qualify;
pub mod render;
mod results;
mod round_robin;
mod standings;
mod swiss;
mod swiss_teams;
mod table;
mod tally;
#[cfg(test)]
mod tests;

pub use format::{Draw, Format, Plan, Seeding};
pub use games::PlayedGame;
pub use pairing::{Game, Lot, Pairing, Round, Side, Verdict};
pub use results::{describe, parse_game, Entered};
pub use round_robin::letter as group_letter;
pub use standings::{group_trf, Standing, Table};

pub use error::{Error, ErrorKind};

fn err<T>(message: impl Into<String>) -> Result<T, Error> {
    Err(Error::other(message))
}

/// A refusal of `kind`, `message` its English.
fn refuse<T>(kind: ErrorKind, message: impl Into<String>) -> Result<T, Error> {
    Err(Error::new(kind, message))
}

/// A player, or a team with its players in board order (members past the boards are reserves).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// The entrant's number: its place in the order of registration, from 1.
    pub id: u32,
    pub name: String,
    #[serde(default)]
    pub rating: u32,
    /// Club, region or federation: what group separation keeps apart.
    #[serde(default)]
    pub club: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    #[serde(default)]
    pub withdrawn: bool,
}

/// What the whole event shares: scoring, matches, teams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Points for a win, a draw and a loss in the standings of a round-based stage.
    pub points: [f64; 3],
    /// Games each pairing plays (a match of N, e.g. 3 for 三局两胜).
    pub games: u32,
    /// Play-off games before lots when a match that must have a winner is tied (0: lots at
    /// once).
    pub playoff: u32,
    /// The play-off games' own time control, as announced (e.g. `5+3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playoff_time: Option<String>,
    /// Boards of a team pairing; 0 for an event of players.
    pub boards: u32,
    /// Match points of a team pairing won, drawn, lost.
    pub match_points: [f64; 3],
    /// Tie-break codes for the standings, in order; empty for each format's default.
    pub tiebreaks: Vec<String>,
    /// How entrants are seeded.
    pub seeding: Seeding,
    /// A team pairing's boards scored by colour (a draw with black above one with red, as
    /// Xiangqi regulations may have it): its game points, match results and standings;
    /// the games' 1/½/0 when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_points: Option<crate::team::BoardPoints>,
    /// Teams rank by game points (局分) first instead of match points (场分).
    #[serde(default)]
    pub game_points_first: bool,
    /// Where the stage ranks do not separate entrants on a qualifying place: play-offs (true)
    /// or lots (false).
    #[serde(default = "yes")]
    pub qualifying_playoffs: bool,
    /// A Swiss of players alone kept as the general model's document (its stage holding the
    /// TRF) instead of as the TRF alone: how the server keeps one, beside its other formats.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub general: bool,
}

fn yes() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            points: [1.0, 0.5, 0.0],
            games: 1,
            playoff: 1,
            playoff_time: None,
            boards: 0,
            match_points: [2.0, 1.0, 0.0],
            tiebreaks: Vec::new(),
            seeding: Seeding::Rating,
            board_points: None,
            game_points_first: false,
            qualifying_playoffs: true,
            general: false,
        }
    }
}

/// One stage as played so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    /// The entrants of the stage, in seeding order.
    pub entrants: Vec<u32>,
    /// The groups of a grouped round robin (entrant ids in Berger number order); one group of
    /// everyone for a round robin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Vec<u32>>,
    /// The first rounds of a round robin of single games, each as one result code a board
    /// (the pairings follow from the Berger tables; see [`Event::stage_round`]); `rounds`
    /// holds the rounds after them. Documents written before it have every round in `rounds`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compact: Vec<String>,
    pub rounds: Vec<Round>,
    /// A Swiss stage's TRF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trf: Option<String>,
    /// Play-offs for a tie on a qualifying place, once the stage's own rounds are done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub playoffs: Vec<Round>,
    /// Who goes on to the next stage, once decided (in seeding order for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualified: Option<Vec<u32>>,
}

/// An event: its plan, its entrants and what has been played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub name: String,
    pub plan: Vec<Plan>,
    pub settings: Settings,
    pub entrants: Vec<Entrant>,
    pub stages: Vec<Stage>,
    /// Every lot and card draw is drawn from this seed (mixed with where it is drawn).
    pub seed: u64,
}

impl Event {
    /// A new event with nobody registered yet.
    pub fn new(name: &str, plan: Vec<Plan>) -> Event {
        Event {
            name: name.to_string(),
            plan,
            settings: Settings::default(),
            entrants: Vec::new(),
            stages: Vec::new(),
            seed: 0,
        }
    }

    /// A Swiss event kept as its TRF.
    pub fn swiss(trf: &Trf) -> Event {
        let system = crate::event::system(trf);
        let rounds = crate::event::total_rounds(trf) as u32;
        let mut e = Event::new(
            trf.record("012").map(|r| r.get(4..).unwrap_or("").trim()).unwrap_or(""),
            vec![Plan::new(Format::Swiss { system, rounds })],
        );
        e.stages.push(Stage {
            entrants: Vec::new(),
            groups: Vec::new(),
            compact: Vec::new(),
            rounds: Vec::new(),
            trf: Some(crate::event::text(trf)),
            playoffs: Vec::new(),
            qualified: None,
        });
        e
    }

    /// Reads an event as [`Event::to_text`] writes it: JSON, or a TRF for a Swiss.
    pub fn from_text(text: &str) -> Result<Event, Error> {
        if text.trim_start().starts_with('{') {
            serde_json::from_str(text).map_err(|e| Error::other(format!("the event does not read: {e}")))
        } else {
            let trf = Trf::parse(text).map_err(|e| Error::other(e.to_string()))?;
            Ok(Event::swiss(&trf))
        }
    }

    /// The event as kept: a single-stage Swiss as its TRF, anything else as JSON.
    pub fn to_text(&self) -> String {
        match self.swiss_trf() {
            Some(trf) if self.is_swiss() => trf.to_string(),
            _ => serde_json::to_string(self).expect("an event always serialises"),
        }
    }

    /// The TRF of a Swiss first stage.
    pub fn swiss_trf(&self) -> Option<&str> {
        self.stages.first().and_then(|s| s.trf.as_deref())
    }

    /// Whether the event is a Swiss of players run on its TRF alone (a Swiss of teams, one
    /// feeding a final, or one kept as [`Settings::general`], is a stage of the general model).
    pub fn is_swiss(&self) -> bool {
        self.plan.len() == 1
            && matches!(self.plan[0].format, Format::Swiss { .. })
            && !self.teams()
            && !self.settings.general
    }

    /// The event's points as a TRF counts them (tenths), a pairing-allocated bye worth a win.
    pub(crate) fn point_system(&self) -> crate::dutch::PointSystem {
        let [win, draw, loss] = self.settings.points.map(|x| (x * 10.0).round() as u32);
        crate::dutch::PointSystem {
            win,
            draw,
            loss,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: win,
        }
    }

    /// Whether entrants are teams.
    pub fn teams(&self) -> bool {
        self.settings.boards > 0
    }

    /// The entrant with this number.
    pub fn entrant(&self, id: u32) -> Option<&Entrant> {
        self.entrants.get(id.checked_sub(1)? as usize)
    }

    /// The entrant's name, or `#id` if there is none.
    pub fn name_of(&self, id: u32) -> String {
        self.entrant(id).map_or(format!("#{id}"), |e| e.name.clone())
    }

    /// Every pairing of every stage, in order (rounds kept compact materialised one at a
    /// time).
    pub fn pairings(&self) -> impl Iterator<Item = Cow<'_, Pairing>> {
        (0..self.stages.len())
            .flat_map(move |s| {
                self.stage_rounds(s)
                    .chain(self.stages[s].playoffs.iter().map(Cow::Borrowed))
            })
            .flat_map(|r| -> Box<dyn Iterator<Item = Cow<'_, Pairing>> + '_> {
                match r {
                    Cow::Borrowed(r) => Box::new(r.pairings.iter().map(Cow::Borrowed)),
                    Cow::Owned(r) => Box::new(r.pairings.into_iter().map(Cow::Owned)),
                }
            })
    }

    /// The pairing with this id, and its stage.
    pub(crate) fn find_pairing(&self, id: &str) -> Option<(usize, Cow<'_, Pairing>)> {
        self.stages.iter().enumerate().find_map(|(s, st)| {
            if let Some((_, _, p)) = self.compact_pairing(s, id) {
                return Some((s, Cow::Owned(p)));
            }
            st.rounds
                .iter()
                .chain(&st.playoffs)
                .flat_map(|r| &r.pairings)
                .find(|p| p.id.eq_ignore_ascii_case(id))
                .map(|p| (s, Cow::Borrowed(p)))
        })
    }

    /// The pairing with this id (materialised if its round is kept compact).
    pub fn pairing(&self, id: &str) -> Option<Cow<'_, Pairing>> {
        self.find_pairing(id).map(|(_, p)| p)
    }

    /// Whether every stage of the plan is played out.
    pub fn finished(&self) -> bool {
        self.stages.len() == self.plan.len() && progress::stage_done(self, self.stages.len() - 1)
    }
}
