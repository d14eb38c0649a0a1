//! The formats a stage can take, and the plan of stages.

use serde::{Deserialize, Serialize};

use super::Error;
use crate::event::System;

/// How a stage pairs its entrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "kebab-case")]
pub enum Format {
    /// FIDE Dutch or 积分编排制, `rounds` rounds.
    Swiss {
        #[serde(with = "system")]
        system: System,
        rounds: u32,
    },
    /// 大循环制: every pair meets once a cycle (FIDE Berger tables); the second cycle with
    /// colours reversed.
    RoundRobin { cycles: u32 },
    /// 分组循环制: seeds dealt into groups in snake order, a round robin in each.
    Groups { groups: u32, cycles: u32 },
    /// 淘汰制: a seeded bracket with byes to the top seeds, or the card draw every round.
    Knockout { draw: Draw, third_place: bool },
    /// Double elimination: winners' and losers' brackets, a grand final with reset.
    DoubleKnockout,
}

/// How a knockout's pairings are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Draw {
    /// A bracket fixed at the start: seed 1 meets the lowest seed, the byes go to the top seeds.
    Seeded,
    /// Seed 000 §9: before every round the survivors draw cards (two sets of numbers and a K for
    /// the bye); equal numbers meet, the red card plays red.
    Cards,
}

/// How entrants are put in order before a stage: by rating, or as registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Seeding {
    Rating,
    Registration,
}

/// One stage of the plan: its format and how many go on from it (per group for groups; 0 for
/// the last stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    #[serde(flatten)]
    pub format: Format,
    #[serde(default)]
    pub advance: u32,
    /// Groups keep entrants of one club apart where the snake allows.
    #[serde(default)]
    pub separate: bool,
}

impl Plan {
    pub fn new(format: Format) -> Plan {
        Plan {
            format,
            advance: 0,
            separate: false,
        }
    }
}

impl Format {
    /// Reads a format as the command line names it: `swiss`, `cxa-swiss`, `round-robin`,
    /// `double-round-robin`, `groups`, `knockout`, `double-knockout`. `rounds` is the Swiss's
    /// rounds, `groups` the groups' count.
    pub fn parse(name: &str, rounds: u32, groups: u32, draw: Draw, third_place: bool) -> Result<Format, Error> {
        Ok(match name {
            "swiss" | "dutch" => Format::Swiss {
                system: System::Dutch,
                rounds,
            },
            "cxa-swiss" | "cxa" => Format::Swiss {
                system: System::Cxa,
                rounds,
            },
            "round-robin" => Format::RoundRobin { cycles: 1 },
            "double-round-robin" => Format::RoundRobin { cycles: 2 },
            "groups" => Format::Groups { groups, cycles: 1 },
            "double-groups" => Format::Groups { groups, cycles: 2 },
            "knockout" => Format::Knockout { draw, third_place },
            "double-knockout" => Format::DoubleKnockout,
            other => {
                return super::refuse(
                    super::ErrorKind::UnknownFormat { format: other.into() },
                    format!(
                        "unknown format {other:?}: swiss, cxa-swiss, round-robin, double-round-robin, groups, \
                         double-groups, knockout, double-knockout"
                    ),
                )
            }
        })
    }

    /// The name [`Format::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Format::Swiss {
                system: System::Dutch, ..
            } => "swiss",
            Format::Swiss {
                system: System::Cxa, ..
            } => "cxa-swiss",
            Format::RoundRobin { cycles: 2 } => "double-round-robin",
            Format::RoundRobin { .. } => "round-robin",
            Format::Groups { cycles: 2, .. } => "double-groups",
            Format::Groups { .. } => "groups",
            Format::Knockout { .. } => "knockout",
            Format::DoubleKnockout => "double-knockout",
        }
    }

    /// Whether every pairing must produce a winner (a tied match goes to play-offs and lots).
    pub fn needs_winner(self) -> bool {
        matches!(self, Format::Knockout { .. } | Format::DoubleKnockout)
    }
}

mod system {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::event::System;

    pub fn serialize<S: Serializer>(s: &System, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(match s {
            System::Dutch => "dutch",
            System::Cxa => "cxa",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<System, D::Error> {
        let s = String::deserialize(de)?;
        System::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown Swiss system {s:?}")))
    }
}
