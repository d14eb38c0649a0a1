//! `arbiter tournament create|set|register|bye|withdraw|reenter|pair|result|crosstable|export|
//! import|list|log`: a Swiss event kept in the database (the one `arbiter serve` uses) as its
//! TRF-2026 text, changed one versioned step at a time.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use tournament::event::{self, System};
use tournament::trf::Trf;

use crate::db::Blocking;
use crate::TournamentCommand;

/// The database: `--db` (a file or a URL), else `$DATABASE_URL`, else `$ARBITER_DB`, else
/// `arbiter.db`.
fn open(db: Option<PathBuf>) -> Result<Blocking> {
    Blocking::open(db.as_deref().map(|p| p.to_string_lossy()).as_deref())
}

/// The event and the version it was read at.
fn load(db: &Blocking, name: &str) -> Result<(Trf, u64)> {
    let Some((text, version)) = db.run(db.store.event(name))? else {
        bail!("no event named {name:?} (arbiter tournament list shows them)");
    };
    Ok((Trf::parse(&text)?, version))
}

/// Loads event `name`, changes it with `f` (which says what it did, for the change log) and
/// saves it, unless someone else changed it meanwhile: the event as changed, and its new
/// version. When `f` fails, nothing is saved.
fn change(db: Option<PathBuf>, name: &str, f: impl FnOnce(&mut Trf) -> Result<String>) -> Result<(Trf, u64)> {
    let db = open(db)?;
    let (mut trf, read) = load(&db, name)?;
    let what = f(&mut trf)?;
    let version = db.run(db.store.save_event(name, read, &event::text(&trf), &what))?;
    Ok((trf, version))
}

/// `--points` and `--tiebreaks`, as `create` and `set` take them.
fn settings(trf: &mut Trf, points: Option<&str>, tiebreaks: Option<&str>) -> Result<()> {
    if let Some(p) = points {
        event::set_points(trf, &event::parse_points(p)?)?;
    }
    if let Some(t) = tiebreaks {
        event::set_tiebreaks(trf, &event::parse_tiebreaks(t)?);
    }
    Ok(())
}

/// The round after the last one paired, unless one is given.
fn round_or_next(trf: &Trf, round: Option<usize>) -> usize {
    round.unwrap_or_else(|| tournament::dutch::rounds_paired(trf) + 1)
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

pub fn run(action: TournamentCommand) -> Result<()> {
    match action {
        TournamentCommand::Create {
            name,
            rounds,
            system,
            first,
            points,
            tiebreaks,
            db,
        } => {
            let Some(system) = System::parse(&system) else {
                bail!("unknown system {system:?} (dutch, cxa)");
            };
            if rounds == 0 || rounds > 99 {
                bail!("rounds: 1 to 99");
            }
            let first_white = match first.as_str() {
                "white" => true,
                "black" => false,
                _ => bail!("--first is white or black"),
            };
            let mut trf = event::create(&name, rounds, system, first_white);
            settings(&mut trf, points.as_deref(), tiebreaks.as_deref())?;
            let db = open(db)?;
            db.run(db.store.create_event(&name, &event::text(&trf)))?;
            println!("created {name:?}: {rounds} rounds");
        }
        TournamentCommand::Set {
            event: name,
            points,
            tiebreaks,
            db,
        } => {
            if points.is_none() && tiebreaks.is_none() {
                bail!("nothing to set (--points, --tiebreaks)");
            }
            let what: Vec<String> = [("points", &points), ("tiebreaks", &tiebreaks)]
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
                .collect();
            let (_, v) = change(db, &name, |trf| {
                settings(trf, points.as_deref(), tiebreaks.as_deref())?;
                Ok(format!("set {}", what.join(" ")))
            })?;
            println!("{name}: {} (version {v})", what.join(", "));
        }
        TournamentCommand::Register {
            event: name,
            name: player,
            rating,
            federation,
            missed,
            db,
        } => {
            let missed = missed.to_ascii_uppercase();
            let bye = tournament::trf::codes::bye_of(missed)
                .with_context(|| format!("--missed {missed}: Z (absent) or H (half-point byes)"))?;
            let mut number = 0;
            let (_, v) = change(db, &name, |trf| {
                number = event::register_late(trf, &player, rating, &federation, bye)?;
                Ok(match tournament::dutch::rounds_paired(trf) {
                    0 => format!("register {number} {player}"),
                    late => format!("register {number} {player} (rounds 1-{late} {missed})"),
                })
            })?;
            println!("{number} {player} (version {v})");
        }
        TournamentCommand::Bye {
            event: name,
            player,
            kind,
            round,
            db,
        } => {
            let mut at = 0;
            change(db, &name, |trf| {
                at = round_or_next(trf, round);
                let bye =
                    tournament::trf::codes::bye_of(kind).with_context(|| format!("a bye is H, Z or F, not {kind}"))?;
                event::request_bye_in(trf, player, bye, at)?;
                Ok(format!("bye {player} {kind} round {at}"))
            })?;
            println!("player {player}: bye {kind} in round {at}");
        }
        TournamentCommand::Withdraw {
            event: name,
            player,
            from,
            db,
        } => {
            let mut first = 0;
            let (_, v) = change(db, &name, |trf| {
                let from = round_or_next(trf, from);
                first = event::withdraw(trf, player, from)?;
                Ok(format!("withdraw {player} from round {first}"))
            })?;
            println!("player {player} withdrawn from round {first} (version {v})");
        }
        TournamentCommand::Reenter {
            event: name,
            player,
            from,
            db,
        } => {
            let mut back = 0;
            let (_, v) = change(db, &name, |trf| {
                back = round_or_next(trf, from);
                event::reenter(trf, player, back)?;
                Ok(format!("reenter {player} from round {back}"))
            })?;
            println!("player {player} back from round {back} (version {v})");
        }
        TournamentCommand::Pair { event: name, seed, db } => {
            let mut pairing = None;
            let (trf, _) = change(db, &name, |trf| {
                pairing = Some(event::pair(trf, seed)?);
                Ok(format!("pair round {}", tournament::dutch::rounds_paired(trf)))
            })?;
            let pairing = pairing.expect("paired");
            let round = tournament::dutch::rounds_paired(&trf);
            println!("round {round}");
            for (board, (w, b)) in pairing.boards.iter().enumerate() {
                let n = |x: u32| trf.player(x).map_or(String::new(), |p| p.name.clone());
                println!("{:>3}. {w:>4} {:<24} - {b:>4} {}", board + 1, n(*w), n(*b));
            }
            if let Some(b) = pairing.bye {
                println!("bye: {b}");
            }
        }
        TournamentCommand::Result {
            event: name,
            round,
            white,
            black,
            result,
            db,
        } => {
            let (trf, _) = change(db, &name, |trf| {
                event::set_result(trf, round, white, black, &result)?;
                Ok(format!("result round {round} {white}-{black} {result}"))
            })?;
            let left = event::pending(&trf).len();
            println!("round {round}: {left} game(s) without a result");
        }
        TournamentCommand::Crosstable {
            event: name,
            html,
            tiebreaks: list,
            db,
        } => {
            let (trf, _) = load(&open(db)?, &name)?;
            let order = match list {
                Some(list) => event::parse_tiebreaks(&list)?,
                None => match event::tiebreaks(&trf)? {
                    order if order.is_empty() => event::parse_tiebreaks("BH-C1,BH,SB")?,
                    order => order,
                },
            };
            let text = if html {
                event::crosstable_html(&trf, &name, &order)
            } else {
                event::crosstable(&trf, &order)
            };
            print!("{text}");
        }
        TournamentCommand::Export {
            event: name,
            output,
            db,
        } => {
            let (trf, _) = load(&open(db)?, &name)?;
            write_out(&event::export(&trf), output.as_deref())?;
        }
        TournamentCommand::Import { event: name, file, db } => {
            let text = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let mut trf = Trf::parse(&String::from_utf8_lossy(&text)).with_context(|| file.display().to_string())?;
            if trf.record("012").is_none() {
                trf.set_records("012", vec![format!("012 {name}")]);
            }
            let db = open(db)?;
            db.run(db.store.create_event(&name, &event::text(&trf)))?;
            println!("imported {name:?}: {} players", trf.players.len());
        }
        TournamentCommand::List { db } => {
            let db = open(db)?;
            for (name, version) in db.run(db.store.events())? {
                println!("{name}\t{version}");
            }
        }
        TournamentCommand::Log { event: name, db } => {
            let db = open(db)?;
            for c in db.run(db.store.event_log(&name))? {
                println!("{}\t{}\t{}", c.version, c.at, c.action);
            }
        }
        _ => bail!("not an event command"),
    }
    Ok(())
}
