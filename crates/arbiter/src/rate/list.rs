//! Rating lists kept in the database, on the command line: rating an event into one (the
//! computation is [`rating_lists`]'s), and printing a list, an update and a list's history.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{bail, Result};
use rating_lists::{Game, Report, State};
use serde_json::json;
use store::ratings::{Origin, System};

use crate::db::Blocking;

/// Rates `games` into the list `list` (see [`rating_lists::rate_into`]).
pub(crate) fn rate_games(
    db: &Blocking,
    list: &str,
    system: Option<System>,
    games: &[Game],
    source: &str,
    start: &BTreeMap<String, State>,
) -> Result<Report> {
    db.run(rating_lists::rate_into(&db.store, list, system, games, source, start))
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
