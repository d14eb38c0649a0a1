//! `arbiter rate`: a rating list from game records — players from the `White`/`Red` and `Black`
//! tags, results from `Result` — under seed 001's levels and points, FIDE Elo, or Glicko-2.
//!
//! Games count in file order. Levels and Elo update after every game (Elo's K follows each
//! player's games so far: 40 for the first 30, then 20, 10 from 2400); Glicko-2 treats all the
//! games as one rating period, as its author intends for a tournament.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use ratings::glicko2::{self, Rating};
use ratings::levels::{self, Points};
use records::files::{self, AnyRecord};
use serde_json::json;

struct Game {
    first: String,
    second: String,
    /// 1, ½ or 0 for the first player.
    score: f64,
}

fn games(paths: &[PathBuf]) -> Result<Vec<Game>> {
    let mut out = Vec::new();
    for path in paths {
        let (_, games) = files::read_file(path).with_context(|| format!("cannot read {}", path.display()))?;
        for game in games {
            let record = match game {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{e}");
                    continue;
                }
            };
            let tags = match &record {
                AnyRecord::Xiangqi(r) => &r.tags,
                AnyRecord::Chess(r) => &r.tags,
            };
            let first = tags
                .get("Red")
                .or_else(|| tags.get("White"))
                .unwrap_or("")
                .trim()
                .to_string();
            let second = tags.get("Black").unwrap_or("").trim().to_string();
            let score = match tags.get("Result").map(str::trim) {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") | Some("½-½") => 0.5,
                _ => continue,
            };
            if first.is_empty() || second.is_empty() {
                continue;
            }
            out.push(Game { first, second, score });
        }
    }
    Ok(out)
}

pub fn run(paths: &[PathBuf], system: &str, json_out: bool) -> Result<()> {
    let games = games(paths)?;
    if games.is_empty() {
        bail!("no rated games: records need Red/White, Black and a decisive or drawn Result");
    }
    let mut rows: Vec<(String, serde_json::Value, f64)> = Vec::new();
    match system {
        "levels" => {
            let mut table: BTreeMap<String, (Points, u32)> = BTreeMap::new();
            for g in &games {
                let a = table.get(&g.first).map_or(Points::ZERO, |x| x.0);
                let b = table.get(&g.second).map_or(Points::ZERO, |x| x.0);
                let outcome = if g.score > 0.5 {
                    levels::Outcome::FirstWins
                } else if g.score < 0.5 {
                    levels::Outcome::SecondWins
                } else {
                    levels::Outcome::Draw
                };
                let (da, db) = levels::game(a, b, outcome);
                for (name, d) in [(&g.first, da), (&g.second, db)] {
                    let e = table.entry(name.clone()).or_insert((Points::ZERO, 0));
                    e.0 = e.0 + d;
                    e.1 += 1;
                }
            }
            for (name, (points, n)) in table {
                let level = levels::level(points, n);
                rows.push((
                    name,
                    json!({"points": points.to_string(), "level": level.to_string(), "games": n}),
                    points.to_f64(),
                ));
            }
        }
        "elo" => {
            let mut table: BTreeMap<String, (f64, u32, bool)> = BTreeMap::new();
            for g in &games {
                let a = *table.get(&g.first).unwrap_or(&(1500.0, 0, false));
                let b = *table.get(&g.second).unwrap_or(&(1500.0, 0, false));
                let ka = ratings::elo::k_factor(a.0.round() as u32, a.1, false, a.2);
                let kb = ratings::elo::k_factor(b.0.round() as u32, b.1, false, b.2);
                let da = ratings::elo::change(a.0.round() as u32, b.0.round() as u32, g.score, ka);
                let db = ratings::elo::change(b.0.round() as u32, a.0.round() as u32, 1.0 - g.score, kb);
                for (name, old, d) in [(&g.first, a, da), (&g.second, b, db)] {
                    let r = old.0 + d;
                    table.insert(name.clone(), (r, old.1 + 1, old.2 || r >= 2400.0));
                }
            }
            for (name, (r, n, _)) in table {
                rows.push((name, json!({"rating": r.round() as i64, "games": n}), r));
            }
        }
        "glicko2" => {
            let mut players: BTreeMap<String, Vec<(String, f64)>> = BTreeMap::new();
            for g in &games {
                players
                    .entry(g.first.clone())
                    .or_default()
                    .push((g.second.clone(), g.score));
                players
                    .entry(g.second.clone())
                    .or_default()
                    .push((g.first.clone(), 1.0 - g.score));
            }
            let start = Rating::new();
            for (name, results) in &players {
                let list: Vec<(Rating, f64)> = results.iter().map(|(_, s)| (start, *s)).collect();
                let r = glicko2::update(start, &list, 0.5);
                rows.push((
                    name.clone(),
                    json!({"rating": (r.rating * 10.0).round() / 10.0, "deviation": (r.deviation * 10.0).round() / 10.0,
                           "volatility": (r.volatility * 1e6).round() / 1e6, "games": results.len()}),
                    r.rating,
                ));
            }
        }
        other => bail!("unknown rating system {other:?}: levels, elo or glicko2"),
    }
    rows.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, (name, v, _)) in rows.iter().enumerate() {
        if json_out {
            let mut v = v.clone();
            v["player"] = json!(name);
            v["rank"] = json!(i + 1);
            writeln!(out, "{v}")?;
        } else {
            let fields: Vec<String> = v
                .as_object()
                .expect("an object")
                .iter()
                .map(|(k, x)| format!("{k} {}", x.as_str().map_or(x.to_string(), str::to_string)))
                .collect();
            writeln!(out, "{:>4}. {name}  {}", i + 1, fields.join("  "))?;
        }
    }
    eprintln!("{} games, {} players ({system})", games.len(), rows.len());
    Ok(())
}
