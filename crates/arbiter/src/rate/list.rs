//! Rating lists kept in the database: an event's games are rated from the players' standings
//! in the list (or their starting values, or a new player's default), and the new standings
//! and what changed are saved in one transaction — only if the list did not change meanwhile;
//! if it did, the event is rated again from the list as it now is.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{bail, Result};
use serde_json::json;
use store::ratings::{Origin, Rated, System};
use store::{RatingError, Store};

use super::standing::{self, State};
use super::Game;
use crate::db::Blocking;

/// How often an update is computed again when another came first.
const ATTEMPTS: usize = 5;

/// One player's change in an update.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub player: String,
    /// Where `before` came from.
    pub origin: Origin,
    /// Games played in the event (0: a Glicko-2 player whose deviation widened).
    pub played: u32,
    pub before: State,
    pub after: State,
}

/// What an update did: the list's new version and every player it changed, highest first.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    pub list: String,
    pub system: System,
    pub version: u64,
    pub games: usize,
    pub rows: Vec<Row>,
}

/// Rates `games` into the list `list` (created under `system` if there is none; `None` takes
/// the list's), with `start` the starting values for players not yet in it, and records the
/// changes under `source`. Nothing is saved when anything fails.
pub(crate) fn rate_games(
    db: &Blocking,
    list: &str,
    system: Option<System>,
    games: &[Game],
    source: &str,
    start: &BTreeMap<String, State>,
) -> Result<Report> {
    db.run(rate_into(&db.store, list, system, games, source, start))
}

/// [`rate_games`] for a caller with a runtime of its own.
pub(crate) async fn rate_into(
    store: &Store,
    list: &str,
    system: Option<System>,
    games: &[Game],
    source: &str,
    start: &BTreeMap<String, State>,
) -> Result<Report> {
    if games.is_empty() {
        bail!("no rated games to rate into {list:?}");
    }
    if let Some(g) = games.iter().find(|g| g.first == g.second) {
        bail!("{} cannot play themselves; nothing was rated", g.first);
    }
    for attempt in 1..=ATTEMPTS {
        let stored = store.rating_list(list).await?;
        let system = match (&stored, system) {
            (Some(l), Some(s)) if l.system != s => {
                bail!("rating list {list:?} keeps {} ratings, not {s}", l.system)
            }
            (Some(l), _) => l.system,
            (None, Some(s)) => s,
            (None, None) => bail!("no rating list named {list:?}; name its system (--system) to start one"),
        };
        if let Some((name, s)) = start.iter().find(|(_, s)| s.system() != system) {
            bail!("the starting values of {name} are {}, the list is {system}", s.system());
        }
        let mut before: BTreeMap<String, (Origin, State)> = BTreeMap::new();
        if let Some(l) = &stored {
            for (name, text) in &l.standings {
                before.insert(name.clone(), (Origin::List, State::from_json(system, text)?));
            }
        }
        for g in games {
            for name in [&g.first, &g.second] {
                if !before.contains_key(name) {
                    let entry = match start.get(name) {
                        Some(s) => (Origin::Start, *s),
                        None => (Origin::New, State::new(system)),
                    };
                    before.insert(name.clone(), entry);
                }
            }
        }
        let states: BTreeMap<String, State> = before.iter().map(|(n, (_, s))| (n.clone(), *s)).collect();
        let after = standing::rate(system, &states, games)?;
        let mut played: BTreeMap<&str, u32> = BTreeMap::new();
        for g in games {
            *played.entry(&g.first).or_default() += 1;
            *played.entry(&g.second).or_default() += 1;
        }
        let mut rows: Vec<Row> = after
            .iter()
            .map(|(name, a)| Row {
                player: name.clone(),
                origin: before[name].0,
                played: played.get(name.as_str()).copied().unwrap_or(0),
                before: before[name].1,
                after: *a,
            })
            .collect();
        rows.sort_by(|a, b| b.after.key().total_cmp(&a.after.key()).then(a.player.cmp(&b.player)));
        let rated: Vec<Rated> = rows
            .iter()
            .map(|r| Rated {
                player: r.player.clone(),
                origin: r.origin,
                before: r.before.to_json().to_string(),
                after: r.after.to_json().to_string(),
            })
            .collect();
        let read = stored.as_ref().map_or(0, |l| l.version);
        match store.update_ratings(list, system, read, source, &rated).await {
            Ok(version) => {
                return Ok(Report {
                    list: list.into(),
                    system,
                    version,
                    games: games.len(),
                    rows,
                })
            }
            Err(RatingError::Changed { .. }) if attempt < ATTEMPTS => continue,
            Err(e) => return Err(e.into()),
        }
    }
    unreachable!("the last attempt returns")
}

/// A list as shown: its system and version, and the standings, highest first.
pub(crate) struct Standings {
    pub system: System,
    pub version: u64,
    pub rows: Vec<(String, State)>,
}

/// The list named `list`.
pub(crate) fn standings(db: &Blocking, list: &str) -> Result<Standings> {
    let Some(l) = db.run(db.store.rating_list(list))? else {
        bail!("no rating list named {list:?}");
    };
    let mut rows = l
        .standings
        .iter()
        .map(|(name, text)| Ok((name.clone(), State::from_json(l.system, text)?)))
        .collect::<Result<Vec<_>>>()?;
    rows.sort_by(|a, b| b.1.key().total_cmp(&a.1.key()).then(a.0.cmp(&b.0)));
    Ok(Standings {
        system: l.system,
        version: l.version,
        rows,
    })
}

/// A state's fields as `key value` pairs.
fn fields(v: &serde_json::Value) -> String {
    v.as_object()
        .map(|o| {
            o.iter()
                .map(|(k, x)| format!("{k} {}", x.as_str().map_or(x.to_string(), str::to_string)))
                .collect::<Vec<_>>()
                .join("  ")
        })
        .unwrap_or_default()
}

/// Prints a list: `rank. name  fields`, or one JSON object a line.
pub(crate) fn print_standings(rows: &[(String, State)], json_out: bool) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, (name, state)) in rows.iter().enumerate() {
        let mut v = state.shown();
        if json_out {
            v["player"] = json!(name);
            v["rank"] = json!(i + 1);
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{:>4}. {name}  {}", i + 1, fields(&v))?;
        }
    }
    Ok(())
}

/// Prints what an update changed: each player's new standing and the change.
pub(crate) fn print_report(report: &Report, json_out: bool) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in &report.rows {
        let mut v = r.after.shown();
        let change = r.after.change_from(&r.before);
        if json_out {
            v["player"] = json!(r.player);
            v["played"] = json!(r.played);
            v["from"] = json!(r.origin.as_str());
            v["before"] = r.before.shown();
            v["change"] = json!(change);
            writeln!(out, "{v}")?;
        } else {
            let from = match r.origin {
                Origin::List => "",
                Origin::Start => ", new from the starting values",
                Origin::New => ", new",
            };
            writeln!(out, "{}  {}  ({change}{from})", r.player, fields(&v))?;
        }
    }
    Ok(())
}

/// Prints the list's history: for each update (version, source, when), each player's standing
/// before and after.
pub(crate) fn print_history(db: &Blocking, list: &str, json_out: bool) -> Result<()> {
    let Some(l) = db.run(db.store.rating_list(list))? else {
        bail!("no rating list named {list:?}");
    };
    let history = db.run(db.store.rating_history(list))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut version = 0;
    for h in &history {
        let before = State::from_json(l.system, &h.rated.before)?;
        let after = State::from_json(l.system, &h.rated.after)?;
        let change = after.change_from(&before);
        if json_out {
            let v = json!({"version": h.version, "source": h.source, "at": h.at, "player": h.rated.player,
                "from": h.rated.origin.as_str(), "before": before.shown(), "after": after.shown(), "change": change});
            writeln!(out, "{v}")?;
            continue;
        }
        if h.version != version {
            version = h.version;
            writeln!(out, "version {version}: {} ({} UTC)", h.source, h.at)?;
        }
        writeln!(
            out,
            "  {}  {}  ->  {}  ({change}, from {})",
            h.rated.player,
            fields(&before.shown()),
            fields(&after.shown()),
            h.rated.origin.as_str()
        )?;
    }
    Ok(())
}
