//! Starting values for players new to a rating list, from a CSV file, one player a line:
//!
//! - levels: `name,level,points` — the level `15级` or `15`, `无级别` or `unranked`, or empty
//!   for the one the points give; the points whole or to two decimals. The levels follow the
//!   points, 100 a level (30级 for 0–99 points … 1级 from 2,900), so a level must agree with
//!   them: `15级,1520`, not `15级,20`;
//! - elo: `name,rating[,games]` — games completed before (default 0; fewer than 30 means K 40);
//! - glicko2: `name,rating,rd,volatility`.
//!
//! Blank lines and lines starting with `#` are skipped, as is a first line whose first field
//! is `name` (a header). Fields are trimmed; a name cannot hold a comma.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use ratings::glicko2::Rating;
use ratings::levels::{self, Level};
use store::ratings::System;

use rating_lists::standing::{parse_level, parse_points, State};

/// The starting values in `path`, by player.
pub(crate) fn read(path: &Path, system: System) -> Result<BTreeMap<String, State>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, system).with_context(|| format!("{}: bad starting values", path.display()))
}

/// The starting values in `text` (see the module's format).
pub(crate) fn parse(text: &str, system: System) -> Result<BTreeMap<String, State>> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if out.is_empty() && fields[0].eq_ignore_ascii_case("name") {
            continue;
        }
        let state = entry(&fields, system).with_context(|| format!("line {}: {line:?}", i + 1))?;
        if out.insert(fields[0].to_string(), state).is_some() {
            bail!("line {}: {} is named twice", i + 1, fields[0]);
        }
    }
    Ok(out)
}

fn entry(fields: &[&str], system: System) -> Result<State> {
    let (shape, counts): (&str, &[usize]) = match system {
        System::Levels => ("name,level,points", &[3]),
        System::Elo => ("name,rating[,games]", &[2, 3]),
        System::Glicko2 => ("name,rating,rd,volatility", &[4]),
    };
    if !counts.contains(&fields.len()) {
        bail!("{system} starting values are {shape}");
    }
    if fields[0].is_empty() {
        bail!("no name");
    }
    let number = |s: &str, what: &str| -> Result<f64> {
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => bail!("{s:?} is not a {what}"),
        }
    };
    Ok(match system {
        System::Levels => {
            let points = parse_points(fields[2])?;
            let ladder = levels::level(points, 1);
            let level = match fields[1] {
                "" => ladder,
                text => parse_level(text)?,
            };
            if level != Level::Unranked && level != ladder {
                bail!(
                    "{level} does not go with {points} points: 100 points a level from 30级 at 0, \
                     so {points} points are {ladder}; give the player's total points"
                );
            }
            State::Levels {
                level,
                points,
                games: 0,
            }
        }
        System::Elo => {
            let rating = number(fields[1], "rating")?;
            if !(0.0..=4000.0).contains(&rating) || rating.fract() != 0.0 {
                bail!("an Elo rating is a whole number from 0 to 4000, not {}", fields[1]);
            }
            let games = match fields.get(2) {
                None | Some(&"") => 0,
                Some(g) => g
                    .parse::<u32>()
                    .ok()
                    .with_context(|| format!("{g:?} is not a number of games"))?,
            };
            State::Elo {
                rating: rating as u32,
                games,
                reached_2400: rating >= 2400.0,
            }
        }
        System::Glicko2 => {
            let rating = number(fields[1], "rating")?;
            let deviation = number(fields[2], "rating deviation")?;
            let volatility = number(fields[3], "volatility")?;
            if deviation <= 0.0 || volatility <= 0.0 {
                bail!("the deviation and the volatility must be above 0");
            }
            State::Glicko2 {
                rating: Rating {
                    rating,
                    deviation,
                    volatility,
                },
                games: 0,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_systems_lines() {
        let s = parse(
            "name,level,points\n张三,15级,1520\n# a note\n\n李四,,99.5\n王五,无级别,-20\n",
            System::Levels,
        )
        .unwrap();
        assert_eq!(s.len(), 3);
        assert!(matches!(
            s["张三"],
            State::Levels {
                level: Level::Ranked(15),
                ..
            }
        ));
        assert!(matches!(
            s["李四"],
            State::Levels {
                level: Level::Ranked(30),
                ..
            }
        ));
        assert!(matches!(
            s["王五"],
            State::Levels {
                level: Level::Unranked,
                ..
            }
        ));
        let s = parse("A,2450\nB,1800,12\n", System::Elo).unwrap();
        assert_eq!(
            s["A"],
            State::Elo {
                rating: 2450,
                games: 0,
                reached_2400: true
            }
        );
        assert_eq!(
            s["B"],
            State::Elo {
                rating: 1800,
                games: 12,
                reached_2400: false
            }
        );
        let s = parse("A,1500,200,0.06\n", System::Glicko2).unwrap();
        assert!(matches!(
            s["A"],
            State::Glicko2 {
                rating: Rating { deviation: 200.0, .. },
                ..
            }
        ));
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, system, says) in [
            ("A,15级,20\n", System::Levels, "15级 does not go with 20 points"),
            ("A,15级\n", System::Levels, "name,level,points"),
            ("A,31级,0\n", System::Levels, "not a level"),
            ("A,30级,1.005\n", System::Levels, "not a number of points"),
            ("A,1500\nA,1600\n", System::Elo, "named twice"),
            ("A,15.5\n", System::Elo, "whole number"),
            ("A,1500,x\n", System::Elo, "not a number of games"),
            ("A,1500,0,0.06\n", System::Glicko2, "above 0"),
            ("A,1500,NaN,0.06\n", System::Glicko2, "not a rating deviation"),
            (",1500\n", System::Elo, "no name"),
        ] {
            let e = format!("{:#}", parse(text, system).unwrap_err());
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
