//! A player's standing under one rating system, as a rating list keeps it (JSON text in the
//! database), and what an event's games make of the standings.
//!
//! An event is one rating period for Elo and Glicko-2: every game is rated against the
//! opponent's standing at the event's start (FIDE rates a period so; Glickman's Glicko-2 is
//! defined so), Elo's changes summed and rounded to a whole rating, K from the games completed
//! before the event (40 for the first 30, 20, then 10 once 2400 was reached) capped so that
//! K × games ≤ 700. Under Glicko-2 the players of the list who did not play see their
//! deviation widen, as the paper's step 6 says. Levels and points move after every game, in
//! the order played, as seed 001 describes.
//!
//! Points are kept in hundredths: each game's gain is rounded to the nearest hundredth (halves
//! up) and the loser pays the rounded gain. The seed gives no rounding (spec §8.3, open
//! question 6), but exact fractions cannot be kept: each game can multiply the denominator by
//! 25, so after a couple of dozen games no 64-bit fraction holds them. Every value of the
//! spec's TV-LEVELS (whole points in) is a whole number of hundredths, so they are unchanged.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};
use ratings::glicko2::{self, Rating};
use ratings::levels::{self, Level, Outcome, Points};
use serde_json::{json, Value};
use store::ratings::System;

use crate::Game;

/// Glicko-2's system constant τ (the paper's example value).
const TAU: f64 = 0.5;

/// A player's standing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum State {
    /// Seed 001: the level, the points (hundredths), the games rated in the list.
    Levels { level: Level, points: Points, games: u32 },
    /// FIDE Elo: the rating, the games completed, whether the rating ever reached 2400.
    Elo {
        rating: u32,
        games: u32,
        reached_2400: bool,
    },
    /// Glicko-2: rating, deviation and volatility, and the games rated in the list.
    Glicko2 { rating: Rating, games: u32 },
}

impl State {
    /// A player new to the list: 无级别 with 0 points; Elo 1500 (FIDE's first-rating rules
    /// are not applied); Glicko-2's 1500, RD 350, σ 0.06.
    pub fn new(system: System) -> State {
        match system {
            System::Levels => State::Levels {
                level: Level::Unranked,
                points: Points::ZERO,
                games: 0,
            },
            System::Elo => State::Elo {
                rating: 1500,
                games: 0,
                reached_2400: false,
            },
            System::Glicko2 => State::Glicko2 {
                rating: Rating::new(),
                games: 0,
            },
        }
    }

    pub fn system(&self) -> System {
        match self {
            State::Levels { .. } => System::Levels,
            State::Elo { .. } => System::Elo,
            State::Glicko2 { .. } => System::Glicko2,
        }
    }

    /// What the list sorts by, highest first.
    pub fn key(&self) -> f64 {
        match self {
            State::Levels { points, .. } => points.to_f64(),
            State::Elo { rating, .. } => f64::from(*rating),
            State::Glicko2 { rating, .. } => rating.rating,
        }
    }

    /// As stored: every value in full.
    pub fn to_json(self) -> Value {
        match self {
            State::Levels { level, points, games } => {
                json!({"level": level.to_string(), "points": points.to_string(), "games": games})
            }
            State::Elo {
                rating,
                games,
                reached_2400,
            } => json!({"rating": rating, "games": games, "reached_2400": reached_2400}),
            State::Glicko2 { rating, games } => json!({"rating": rating.rating, "deviation": rating.deviation,
                "volatility": rating.volatility, "games": games}),
        }
    }

    /// As shown: Glicko-2's values rounded as `arbiter rate` prints them.
    pub fn shown(&self) -> Value {
        match *self {
            State::Glicko2 { rating, games } => json!({"rating": (rating.rating * 10.0).round() / 10.0,
                "deviation": (rating.deviation * 10.0).round() / 10.0,
                "volatility": (rating.volatility * 1e6).round() / 1e6, "games": games}),
            State::Elo { rating, games, .. } => json!({"rating": rating, "games": games}),
            _ => self.to_json(),
        }
    }

    /// Reads a state the list stored.
    pub fn from_json(system: System, text: &str) -> Result<State> {
        let v: Value = serde_json::from_str(text).with_context(|| format!("a stored standing is not JSON: {text}"))?;
        let num = |k: &str| {
            v[k].as_f64()
                .with_context(|| format!("a stored {system} standing has no {k}: {text}"))
        };
        let games = v["games"].as_u64().unwrap_or(0) as u32;
        Ok(match system {
            System::Levels => {
                let field = |k: &str| {
                    v[k].as_str()
                        .with_context(|| format!("a stored standing has no {k}: {text}"))
                };
                State::Levels {
                    level: parse_level(field("level")?)?,
                    points: parse_points(field("points")?)?,
                    games,
                }
            }
            System::Elo => State::Elo {
                rating: num("rating")? as u32,
                games,
                reached_2400: v["reached_2400"].as_bool().unwrap_or(false),
            },
            System::Glicko2 => State::Glicko2 {
                rating: Rating {
                    rating: num("rating")?,
                    deviation: num("deviation")?,
                    volatility: num("volatility")?,
                },
                games,
            },
        })
    }

    /// The change from `before`, as a reader wants it: `+4.5`, `-12`, `+31.2 (RD -84.6)`.
    pub fn change_from(&self, before: &State) -> String {
        let signed = |x: f64| if x >= 0.0 { format!("+{x}") } else { x.to_string() };
        match (self, before) {
            (State::Levels { points: a, .. }, State::Levels { points: b, .. }) => {
                let d = *a - *b;
                if d >= Points::ZERO {
                    format!("+{d}")
                } else {
                    d.to_string()
                }
            }
            (State::Glicko2 { rating: a, .. }, State::Glicko2 { rating: b, .. }) => format!(
                "{} (RD {})",
                signed(((a.rating - b.rating) * 10.0).round() / 10.0),
                signed(((a.deviation - b.deviation) * 10.0).round() / 10.0)
            ),
            _ => signed(self.key() - before.key()),
        }
    }
}

/// A level as written: `15级` or `15` (1 to 30), `无级别` or `unranked`.
pub fn parse_level(s: &str) -> Result<Level> {
    let s = s.trim();
    if s == "无级别" || s.eq_ignore_ascii_case("unranked") {
        return Ok(Level::Unranked);
    }
    match s.strip_suffix('级').unwrap_or(s).parse::<u8>() {
        Ok(n @ 1..=30) => Ok(Level::Ranked(n)),
        _ => bail!("{s:?} is not a level: 30级 … 1级 (or 30 … 1), or 无级别 / unranked"),
    }
}

/// Points as written: a whole number or one with at most two decimals (`1520`, `-7.5`,
/// `2.08`), below a billion.
pub fn parse_points(s: &str) -> Result<Points> {
    let s = s.trim();
    let bad = || format!("{s:?} is not a number of points (whole, or to two decimals at most)");
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let dangling = digits.ends_with('.');
    if dangling || int.is_empty() || int.len() > 9 || frac.len() > 2 || !all_digits(int) || !all_digits(frac) {
        bail!(bad());
    }
    let hundredths =
        int.parse::<i64>().with_context(bad)? * 100 + format!("{frac:0<2}").parse::<i64>().with_context(bad)?;
    Ok(Points::new(if neg { -hundredths } else { hundredths }, 100))
}

/// `g` to the nearest hundredth, halves away from zero (exactly, not through a float).
fn hundredths(g: Points) -> Points {
    let sign = if g < Points::ZERO { -1 } else { 1 };
    let g = if sign < 0 { -g } else { g };
    let mut n = (g.to_f64() * 100.0).floor() as i64;
    while Points::new(n, 100) > g {
        n -= 1;
    }
    while Points::new(n + 1, 100) <= g {
        n += 1;
    }
    if g - Points::new(n, 100) >= Points::new(1, 200) {
        n += 1;
    }
    Points::new(sign * n, 100)
}

/// One game under seed 001's scheme, in hundredths: the change of each player's points.
pub fn levels_game(a: Points, b: Points, score: f64) -> (Points, Points) {
    let outcome = if score > 0.5 {
        Outcome::FirstWins
    } else if score < 0.5 {
        Outcome::SecondWins
    } else {
        Outcome::Draw
    };
    let (da, _) = levels::game(a, b, outcome);
    let da = hundredths(da);
    (da, -da)
}

/// The standings after an event's `games`, from `before` (which holds every player of the
/// games, and under Glicko-2 the rest of the list too): every player whose standing changed.
pub fn rate(system: System, before: &BTreeMap<String, State>, games: &[Game]) -> Result<BTreeMap<String, State>> {
    for g in games {
        for name in [&g.first, &g.second] {
            match before.get(name) {
                Some(s) if s.system() == system => {}
                _ => bail!("{name} has no {system} standing to rate from"),
            }
        }
    }
    let mut after = BTreeMap::new();
    match system {
        System::Levels => {
            for g in games {
                let current = |name: &String| after.get(name).or(before.get(name)).copied();
                let (
                    Some(State::Levels {
                        points: a, games: na, ..
                    }),
                    Some(State::Levels {
                        points: b, games: nb, ..
                    }),
                ) = (current(&g.first), current(&g.second))
                else {
                    unreachable!("checked above");
                };
                let (da, db) = levels_game(a, b, g.score);
                for (name, p, n) in [(&g.first, a + da, na), (&g.second, b + db, nb)] {
                    let games = n + 1;
                    let level = levels::level(p, games);
                    after.insert(
                        name.clone(),
                        State::Levels {
                            level,
                            points: p,
                            games,
                        },
                    );
                }
            }
        }
        System::Elo => {
            for (name, results) in results(games) {
                let Some(&State::Elo {
                    rating,
                    games,
                    reached_2400,
                }) = before.get(name)
                else {
                    unreachable!("checked above");
                };
                let opponents: Vec<(u32, f64)> = results
                    .iter()
                    .map(|(opp, score)| match before[*opp] {
                        State::Elo { rating, .. } => (rating, *score),
                        _ => unreachable!("checked above"),
                    })
                    .collect();
                let k = ratings::elo::k_factor(rating, games, false, reached_2400);
                let change = ratings::elo::period_change(rating, &opponents, k);
                let rating = (i64::from(rating) + change).max(0) as u32;
                after.insert(
                    name.clone(),
                    State::Elo {
                        rating,
                        games: games + results.len() as u32,
                        reached_2400: reached_2400 || rating >= 2400,
                    },
                );
            }
        }
        System::Glicko2 => {
            let played = results(games);
            for (name, state) in before {
                let State::Glicko2 { rating, games } = *state else {
                    bail!("{name} has no {system} standing to rate from");
                };
                let results = played.get(name).map_or(&[][..], Vec::as_slice);
                let opponents: Vec<(Rating, f64)> = results
                    .iter()
                    .map(|(opp, score)| match before[*opp] {
                        State::Glicko2 { rating, .. } => (rating, *score),
                        _ => unreachable!("checked above"),
                    })
                    .collect();
                let rating = glicko2::update(rating, &opponents, TAU);
                let games = games + results.len() as u32;
                after.insert(name.clone(), State::Glicko2 { rating, games });
            }
        }
    }
    Ok(after)
}

/// Each player's opponents and scores, in the order played.
fn results(games: &[Game]) -> BTreeMap<&String, Vec<(&String, f64)>> {
    let mut out: BTreeMap<&String, Vec<(&String, f64)>> = BTreeMap::new();
    for g in games {
        out.entry(&g.first).or_default().push((&g.second, g.score));
        out.entry(&g.second).or_default().push((&g.first, 1.0 - g.score));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Points {
        parse_points(s).unwrap()
    }

    #[test]
    fn gains_are_rounded_to_hundredths_and_the_loser_pays_them() {
        // Exact values stay: TV-LEVELS' 1500 v 1550.
        assert_eq!(levels_game(p("1500"), p("1550"), 0.5), (p("7.5"), p("-7.5")));
        assert_eq!(levels_game(p("1550"), p("1500"), 1.0), (p("6"), p("-6")));
        // diff 10.05: a lower win gains 10 + 1.005 = 11.005 → 11.01; a draw (10 + 1.005) / 2
        // = 5.5025 → 5.5; a higher win 10 − 10.05 / 12.5 = 9.196 → 9.2.
        assert_eq!(levels_game(p("0"), p("10.05"), 1.0), (p("11.01"), p("-11.01")));
        assert_eq!(levels_game(p("0"), p("10.05"), 0.5), (p("5.5"), p("-5.5")));
        assert_eq!(levels_game(p("10.05"), p("0"), 1.0), (p("9.2"), p("-9.2")));
        assert_eq!(levels_game(p("10.05"), p("0"), 0.0), (p("-11.01"), p("11.01")));
    }

    #[test]
    fn many_games_stay_in_hundredths() {
        // Exact fractions overflow 64 bits within a few dozen such games; hundredths do not.
        let mut pts = [p("1500"), p("1503.5"), p("1561.25"), p("1499.99")];
        for i in 0..2000usize {
            let (a, b) = (i % 4, (i * 7 + 1) % 4);
            if a == b {
                continue;
            }
            let (da, db) = levels_game(pts[a], pts[b], [1.0, 0.5, 0.0][i % 3]);
            pts[a] = pts[a] + da;
            pts[b] = pts[b] + db;
        }
        let total = pts.iter().fold(Points::ZERO, |s, x| s + *x);
        assert_eq!(total, p("6064.74"), "points move between players, never appear");
        for x in pts {
            assert_eq!(x, Points::new((x.to_f64() * 100.0).round() as i64, 100));
        }
    }

    #[test]
    fn levels_and_points_are_read_as_written() {
        assert_eq!(parse_level("15级").unwrap(), Level::Ranked(15));
        assert_eq!(parse_level(" 1 ").unwrap(), Level::Ranked(1));
        assert_eq!(parse_level("无级别").unwrap(), Level::Unranked);
        assert_eq!(parse_level("Unranked").unwrap(), Level::Unranked);
        for bad in ["0", "31级", "级", "x"] {
            assert!(parse_level(bad).is_err(), "{bad}");
        }
        assert_eq!(p("-7.5"), Points::new(-15, 2));
        assert_eq!(p("2.08").to_string(), "2.08");
        for bad in ["", "1.234", "1e3", "--1", "1.", "abc", "1234567890"] {
            assert!(parse_points(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn states_survive_the_database() {
        let states = [
            State::Levels {
                level: Level::Ranked(15),
                points: p("1527.35"),
                games: 4,
            },
            State::Elo {
                rating: 2401,
                games: 40,
                reached_2400: true,
            },
            State::Glicko2 {
                rating: Rating {
                    rating: 1464.0507,
                    deviation: 151.5165,
                    volatility: 0.059996,
                },
                games: 3,
            },
        ];
        for s in states {
            let text = s.to_json().to_string();
            assert_eq!(State::from_json(s.system(), &text).unwrap(), s, "{text}");
        }
        assert!(State::from_json(System::Elo, "{\"games\": 3}").is_err());
        assert!(State::from_json(System::Levels, "not json").is_err());
    }
}
