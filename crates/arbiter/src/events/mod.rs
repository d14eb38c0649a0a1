//! `arbiter tournament …`: events of every format kept in the database (the one `arbiter serve`
//! uses), changed one versioned, logged step at a time. A Swiss is kept as its TRF-2026 text
//! ([`swiss`]); every other format as its JSON document ([`formats`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use tournament::competition::Event;
use tournament::trf::Trf;

use crate::db::Blocking;
use crate::TournamentCommand;

mod create;
mod formats;
mod swiss;

/// The database: `--db` (a file or a URL), else `$DATABASE_URL`, else `$ARBITER_DB`, else
/// `arbiter.db`.
fn open(db: Option<&Path>) -> Result<Blocking> {
    Blocking::open(db.map(|p| p.to_string_lossy()).as_deref())
}

/// The event and the version it was read at.
fn load(db: &Blocking, name: &str) -> Result<(Event, u64)> {
    let Some((text, version)) = db.run(db.store.event(name))? else {
        bail!("no event named {name:?} (arbiter tournament list shows them)");
    };
    let mut event = Event::from_text(&text).with_context(|| format!("event {name:?}"))?;
    event.name = name.to_string();
    Ok((event, version))
}

/// Loads event `name`, changes it with `f` (which says what it did, for the change log) and
/// saves it, unless someone else changed it meanwhile: the event as changed, and its new
/// version. When `f` fails, nothing is saved.
fn change(db: Option<&Path>, name: &str, f: impl FnOnce(&mut Event) -> Result<String>) -> Result<(Event, u64)> {
    let db = open(db)?;
    let (mut event, read) = load(&db, name)?;
    let what = f(&mut event)?;
    let version = db.run(db.store.save_event(name, read, &event.to_text(), &what))?;
    Ok((event, version))
}

fn write_out(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(p) => std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn json(value: &impl serde::Serialize) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// `result`'s values may start with a hyphen (`-/+`), so they take in what follows them:
/// `--db` and `--replace` written after them are read out of the values here.
fn result_options(action: TournamentCommand) -> Result<TournamentCommand> {
    let TournamentCommand::Result {
        event,
        args,
        mut replace,
        mut db,
    } = action
    else {
        return Ok(action);
    };
    let mut values = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--replace" => replace = true,
            "--db" => db = Some(PathBuf::from(it.next().context("--db needs a value")?)),
            _ => match a.strip_prefix("--db=") {
                Some(v) => db = Some(PathBuf::from(v)),
                None => values.push(a),
            },
        }
    }
    Ok(TournamentCommand::Result {
        event,
        args: values,
        replace,
        db,
    })
}

pub fn run(action: TournamentCommand) -> Result<()> {
    let action = result_options(action)?;
    match action {
        TournamentCommand::Create { .. } => create::run(action),
        TournamentCommand::Standings {
            event,
            tiebreaks,
            json,
            html,
            db,
        } if Path::new(&event).is_file() && db.is_none() => {
            if html {
                bail!("--html is for events in the database; a TRF's crosstable: import it first");
            }
            trf_standings(Path::new(&event), tiebreaks.as_deref().unwrap_or("BH-C1,BH,SB"), json)
        }
        TournamentCommand::Import { event: name, file, db } => {
            let bytes = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let text = String::from_utf8_lossy(&bytes);
            let event = if text.trim_start().starts_with('{') {
                Event::from_text(&text).with_context(|| file.display().to_string())?
            } else {
                let mut trf = Trf::parse(&text).with_context(|| file.display().to_string())?;
                if trf.record("012").is_none() {
                    trf.set_records("012", vec![format!("012 {name}")]);
                }
                Event::swiss(&trf)
            };
            let db = open(db.as_deref())?;
            db.run(db.store.create_event(&name, &event.to_text()))?;
            let count = match event.swiss_trf() {
                Some(t) => Trf::parse(t)?.players.len(),
                None => event.entrants.len(),
            };
            println!("imported {name:?}: {count} entrants");
            Ok(())
        }
        TournamentCommand::Export {
            event: name,
            output,
            db,
        } => {
            let (event, _) = load(&open(db.as_deref())?, &name)?;
            let text = match event.swiss_trf() {
                Some(t) if event.is_swiss() => tournament::event::export(&Trf::parse(t)?),
                _ => serde_json::to_string_pretty(&event)? + "\n",
            };
            write_out(&text, output.as_deref())
        }
        TournamentCommand::List { json: as_json, db } => {
            let db = open(db.as_deref())?;
            let list = db.run(db.store.events())?;
            if as_json {
                let rows: Vec<_> = list
                    .iter()
                    .map(|(n, v)| serde_json::json!({"name": n, "version": v}))
                    .collect();
                return json(&rows);
            }
            for (name, version) in list {
                println!("{name}\t{version}");
            }
            Ok(())
        }
        TournamentCommand::Log {
            event: name,
            json: as_json,
            db,
        } => {
            let db = open(db.as_deref())?;
            let log = db.run(db.store.event_log(&name))?;
            if log.is_empty() {
                bail!("no event named {name:?}");
            }
            if as_json {
                let rows: Vec<_> = log
                    .iter()
                    .map(|c| serde_json::json!({"version": c.version, "at": c.at, "action": c.action}))
                    .collect();
                return json(&rows);
            }
            for c in log {
                println!("{}\t{}\t{}", c.version, c.at, c.action);
            }
            Ok(())
        }
        other => {
            let (name, db) = target(&other);
            let (event, _) = load(&open(db.as_deref())?, &name)?;
            if event.is_swiss() {
                swiss::run(other)
            } else {
                formats::run(other)
            }
        }
    }
}

/// The event and `--db` a command names.
fn target(action: &TournamentCommand) -> (String, Option<PathBuf>) {
    use TournamentCommand as T;
    match action {
        T::Standings { event, db, .. }
        | T::Set { event, db, .. }
        | T::Register { event, db, .. }
        | T::Bye { event, db, .. }
        | T::Withdraw { event, db, .. }
        | T::Reenter { event, db, .. }
        | T::Pair { event, db, .. }
        | T::Result { event, db, .. }
        | T::Pairings { event, db, .. }
        | T::Lineup { event, db, .. }
        | T::Crosstable { event, db, .. }
        | T::Bracket { event, db, .. }
        | T::Export { event, db, .. }
        | T::Import { event, db, .. }
        | T::Log { event, db, .. } => (event.clone(), db.clone()),
        T::Create { name, db, .. } => (name.clone(), db.clone()),
        T::List { db, .. } => (String::new(), db.clone()),
        T::Generate { .. } => (String::new(), None),
    }
}

/// Standings of a TRF file.
fn trf_standings(file: &Path, tiebreaks: &str, as_json: bool) -> Result<()> {
    use tournament::standings::standings;
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let trf = Trf::parse(&text)?;
    let order = tournament::event::parse_tiebreaks(tiebreaks)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in standings(&trf, &order) {
        if as_json {
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        } else {
            writeln!(out, "{}", standings_line(&line, &order))?;
        }
    }
    Ok(())
}

/// A line of a TRF's standings as text: place, number, name, points, each tie-break by code.
fn standings_line(l: &tournament::standings::Line, order: &[tournament::standings::TieBreak]) -> String {
    let tb: Vec<String> = order
        .iter()
        .zip(&l.tiebreaks)
        .map(|(t, v)| format!("{} {v}", t.code()))
        .collect();
    format!(
        "{:>3}. {:>4} {:<30} {:>4}  {}",
        l.place,
        l.number,
        l.name,
        l.points,
        tb.join("  ")
    )
}

/// The number of the entrant `given` names: its start number, or its name as registered.
/// `names` are the entrants' names in start-number order; `what` is "player" or "team", for
/// the message.
fn entrant_number<'a>(event: &str, names: impl Iterator<Item = &'a str>, given: &str, what: &str) -> Result<u32> {
    let names: Vec<&str> = names.collect();
    if let Ok(n) = given.trim().parse::<u32>() {
        if n >= 1 && n as usize <= names.len() {
            return Ok(n);
        }
        if !names.contains(&given.trim()) {
            bail!(
                "{event:?} has no {what} number {n} (numbers run from 1 to {})",
                names.len()
            );
        }
    }
    let matching: Vec<usize> = (0..names.len()).filter(|&i| names[i] == given.trim()).collect();
    match matching[..] {
        [i] => Ok(i as u32 + 1),
        [] => bail!("{event:?} has no {what} {given:?} (give the name as registered, or the number)"),
        _ => {
            let numbers: Vec<String> = matching.iter().map(|i| (i + 1).to_string()).collect();
            bail!(
                "{event:?} has {} {what}s named {given:?} (numbers {}): give the number",
                matching.len(),
                numbers.join(", ")
            )
        }
    }
}
