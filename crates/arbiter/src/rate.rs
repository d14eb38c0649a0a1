//! `arbiter rate`: a rating list from game records — players from the `White`/`Red` and `Black`
//! tags, results from `Result` — under seed 001's levels and points, FIDE Elo, or Glicko-2.
//!
//! Without `--list` the list is computed in memory, everyone starting new, games counting in
//! file order: levels and Elo update after every game (Elo's K follows each player's games so
//! far: 40 for the first 30, then 20, 10 from 2400); Glicko-2 treats all the games as one
//! rating period, as its author intends for a tournament. With `--list` the list is kept in the
//! database and the files are one event ([`list`]).
//!
//! - [`rating_lists`]: a player's standing under each system, and rating an event into a list.
//! - [`start`]: starting values for players new to a list (CSV).
//! - [`list`]: lists in the database: rating an event into one, printing one.

pub(crate) mod list;
pub(crate) mod start;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use ratings::glicko2::{self, Rating};
use ratings::levels::{self, Points};
use records::files::{self, AnyRecord};
use serde_json::json;
use store::ratings::System;

use crate::db::Blocking;
use rating_lists::{standing, Game};

use list::rate_games;

/// What `arbiter rate` was asked.
pub(crate) struct Options {
    pub files: Vec<PathBuf>,
    /// An event in the database whose games to rate, instead of files.
    pub event: Option<String>,
    /// levels, elo or glicko2; `None`: a list's own, else levels.
    pub system: Option<String>,
    pub json: bool,
    /// The list in the database to rate into (or show).
    pub list: Option<String>,
    /// Starting values for players new to the list (CSV).
    pub start: Option<PathBuf>,
    /// The label the list's history gives this update; default the files' names.
    pub source: Option<String>,
    /// Print the list, rating nothing.
    pub show: bool,
    /// Print the list's history, rating nothing.
    pub history: bool,
    pub db: Option<String>,
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

/// The games event `name` played over the board, red (white) first.
fn event_games(db: Option<&str>, name: &str) -> Result<Vec<Game>> {
    let db = Blocking::open(db)?;
    let Some((text, _)) = db.run(db.store.event(name))? else {
        bail!("no event named {name:?} (arbiter tournament list shows them)");
    };
    let event = tournament::competition::Event::from_text(&text)?;
    Ok(event
        .played_games()
        .into_iter()
        .map(|g| Game {
            first: g.red,
            second: g.black,
            score: g.score.points(),
        })
        .collect())
}

/// The games to rate: the event's, else the files'.
fn input_games(opts: &Options) -> Result<Vec<Game>> {
    match &opts.event {
        Some(name) => event_games(opts.db.as_deref(), name),
        None => games(&opts.files),
    }
}

/// Runs `arbiter rate`.
pub(crate) fn run(opts: &Options) -> Result<()> {
    let system = opts
        .system
        .as_deref()
        .map(str::parse::<System>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let Some(name) = &opts.list else {
        if opts.show || opts.history || opts.start.is_some() || opts.source.is_some() {
            bail!("--show, --history, --start and --source need --list NAME: a rating list in the database");
        }
        return in_memory(input_games(opts)?, system.unwrap_or(System::Levels), opts.json);
    };
    if (opts.show || opts.history) && (!opts.files.is_empty() || opts.event.is_some() || opts.start.is_some()) {
        bail!("--show and --history print the list and rate nothing: give them no files and no --start");
    }
    if opts.history {
        let db = Blocking::open(opts.db.as_deref())?;
        return list::print_history(&db, name, opts.json);
    }
    if opts.show {
        let db = Blocking::open(opts.db.as_deref())?;
        let list = list::standings(&db, name)?;
        list::print_standings(&list.rows, opts.json)?;
        eprintln!(
            "{} players ({}), list {name:?} at version {}",
            list.rows.len(),
            list.system,
            list.version
        );
        return Ok(());
    }
    if opts.files.is_empty() && opts.event.is_none() {
        bail!("no game records to rate, nor --event (or --show to print the list)");
    }
    // Everything that can be wrong with the input is found before the database is touched.
    let games = input_games(opts)?;
    let db = Blocking::open(opts.db.as_deref())?;
    let stored = db.run(db.store.rating_list(name))?.map(|l| l.system);
    let system = system.or(stored).unwrap_or(System::Levels);
    let start = match &opts.start {
        Some(path) => start::read(path, system)?,
        None => BTreeMap::new(),
    };
    let source = opts.source.clone().or_else(|| opts.event.clone()).unwrap_or_else(|| {
        let names: Vec<String> = opts.files.iter().map(|p| p.display().to_string()).collect();
        names.join(" ")
    });
    // The same event (or files) rated twice would count its games twice.
    if let Some(h) = db.run(db.store.rating_history_of(name, &source))?.first() {
        bail!(
            "{source:?} was rated into list {name:?} already (version {}): rating it again would count its games twice; nothing was rated (--source names other games)",
            h.version
        );
    }
    let report = rate_games(&db, name, Some(system), &games, &source, &start)?;
    list::print_report(&report, opts.json)?;
    let kept = report
        .rows
        .iter()
        .filter(|r| r.origin == store::ratings::Origin::List && start.contains_key(&r.player))
        .count();
    if kept > 0 {
        eprintln!("{kept} players with starting values were in the list already and kept their standing");
    }
    eprintln!(
        "{} games, {} players ({}), list {:?} now at version {}",
        report.games,
        report.rows.len(),
        report.system,
        report.list,
        report.version
    );
    Ok(())
}

/// The list of `paths` computed in memory, everyone starting new.
fn in_memory(games: Vec<Game>, system: System, json_out: bool) -> Result<()> {
    if games.is_empty() {
        bail!("no rated games: records need Red/White, Black and a decisive or drawn Result");
    }
    let mut rows: Vec<(String, serde_json::Value, f64)> = Vec::new();
    match system {
        System::Levels => {
            let mut table: BTreeMap<String, (Points, u32)> = BTreeMap::new();
            for g in &games {
                let a = table.get(&g.first).map_or(Points::ZERO, |x| x.0);
                let b = table.get(&g.second).map_or(Points::ZERO, |x| x.0);
                let (da, db) = standing::levels_game(a, b, g.score);
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
        System::Elo => {
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
        System::Glicko2 => {
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
