//! `arbiter tournament create|register|bye|pair|result|crosstable|export|import|list|log`: a
//! Swiss event kept in the database (SQLite file), changed one versioned step at a time.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use store::Store;
use tournament::event::{self, System};
use tournament::standings::TieBreak;
use tournament::trf::Trf;

use crate::TournamentCommand;

/// `--db` (a file or a `postgres://` URL), else `$DATABASE_URL` (PostgreSQL, as the server
/// uses it), else `$ARBITER_DB`, else `arbiter.db` (SQLite).
fn open(db: Option<PathBuf>) -> Result<Store> {
    let target = db
        .map(|p| p.to_string_lossy().into_owned())
        .or_else(|| std::env::var("DATABASE_URL").ok())
        .or_else(|| std::env::var("ARBITER_DB").ok())
        .unwrap_or_else(|| "arbiter.db".into());
    Store::connect(&target).with_context(|| format!("cannot open the database {target}"))
}

fn load(store: &Store, name: &str) -> Result<Trf> {
    let Some((text, _)) = store.get(name)? else {
        bail!("no event named {name:?} (arbiter tournament list shows them)");
    };
    Ok(Trf::parse(&text)?)
}

fn save(store: &Store, name: &str, trf: &Trf, what: &str) -> Result<u64> {
    Ok(store.save(name, &trf.write(|_| None), what)?)
}

fn tiebreaks(list: &str) -> Result<Vec<TieBreak>> {
    list.split(',')
        .filter(|c| !c.trim().is_empty())
        .map(|c| TieBreak::parse(c).with_context(|| format!("unknown tie-break {c:?}")))
        .collect()
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
            let store = open(db)?;
            store.create(
                &name,
                &event::create(&name, rounds, system, first_white).write(|_| None),
            )?;
            println!("created {name:?}: {rounds} rounds");
        }
        TournamentCommand::Register {
            event: name,
            name: player,
            rating,
            federation,
            db,
        } => {
            let store = open(db)?;
            let mut trf = load(&store, &name)?;
            let number = event::register(&mut trf, &player, rating, &federation)?;
            let v = save(&store, &name, &trf, &format!("register {number} {player}"))?;
            println!("{number} {player} (version {v})");
        }
        TournamentCommand::Bye {
            event: name,
            player,
            kind,
            db,
        } => {
            let store = open(db)?;
            let mut trf = load(&store, &name)?;
            event::request_bye(&mut trf, player, kind.to_ascii_uppercase())?;
            save(&store, &name, &trf, &format!("bye {player} {kind}"))?;
        }
        TournamentCommand::Pair { event: name, seed, db } => {
            let store = open(db)?;
            let mut trf = load(&store, &name)?;
            let pairing = event::pair(&mut trf, seed)?;
            let round = tournament::dutch::rounds_paired(&trf);
            save(&store, &name, &trf, &format!("pair round {round}"))?;
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
            let store = open(db)?;
            let mut trf = load(&store, &name)?;
            event::set_result(&mut trf, round, white, black, &result)?;
            save(
                &store,
                &name,
                &trf,
                &format!("result round {round} {white}-{black} {result}"),
            )?;
            let left = event::pending(&trf).len();
            println!("round {round}: {left} game(s) without a result");
        }
        TournamentCommand::Crosstable {
            event: name,
            html,
            tiebreaks: list,
            db,
        } => {
            let store = open(db)?;
            let trf = load(&store, &name)?;
            let order = tiebreaks(&list)?;
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
            let store = open(db)?;
            let trf = load(&store, &name)?;
            write_out(&trf.write(|_| None), output.as_deref())?;
        }
        TournamentCommand::Import { event: name, file, db } => {
            let text = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let trf = Trf::parse(&String::from_utf8_lossy(&text))?;
            let store = open(db)?;
            store.create(&name, &trf.write(|_| None))?;
            println!("imported {name:?}: {} players", trf.players.len());
        }
        TournamentCommand::List { db } => {
            for (name, version) in open(db)?.events()? {
                println!("{name}\t{version}");
            }
        }
        TournamentCommand::Log { event: name, db } => {
            for c in open(db)?.log(&name)? {
                println!("{}\t{}\t{}", c.version, c.at, c.action);
            }
        }
        _ => bail!("not an event command"),
    }
    Ok(())
}
