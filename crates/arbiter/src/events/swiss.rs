//! The Swiss's own commands (FIDE Dutch or 积分编排制): its TRF changed in place, as
//! [`tournament::event`] does it.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use tournament::competition::Event;
use tournament::event;
use tournament::trf::Trf;

use crate::db::Blocking;
use crate::TournamentCommand;

fn open(db: Option<PathBuf>) -> Result<Blocking> {
    super::open(db.as_deref())
}

/// The event's TRF and the version it was read at.
fn load(db: &Blocking, name: &str) -> Result<(Trf, u64)> {
    let (e, version) = super::load(db, name)?;
    Ok((trf_of(&e)?, version))
}

fn trf_of(e: &Event) -> Result<Trf> {
    let Some(text) = e.swiss_trf() else {
        bail!("{:?} is not a Swiss", e.name);
    };
    Ok(Trf::parse(text)?)
}

/// [`super::change`] on the TRF.
fn change(db: Option<PathBuf>, name: &str, f: impl FnOnce(&mut Trf) -> Result<String>) -> Result<(Trf, u64)> {
    let mut out = None;
    let (_, v) = super::change(db.as_deref(), name, |e| {
        let mut trf = trf_of(e)?;
        let what = f(&mut trf)?;
        *e = Event::swiss(&trf);
        out = Some(trf);
        Ok(what)
    })?;
    Ok((out.expect("changed"), v))
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

pub fn run(action: TournamentCommand) -> Result<()> {
    match action {
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
            members,
            missed,
            db,
        } => {
            if members.is_some() {
                bail!("a Swiss is for players: --members is for team events");
            }
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
            let (mut at, mut who) = (0, String::new());
            change(db, &name, |trf| {
                at = round_or_next(trf, round);
                let player = player_number(&name, trf, &player)?;
                who = named(trf, player);
                let bye =
                    tournament::trf::codes::bye_of(kind).with_context(|| format!("a bye is H, Z or F, not {kind}"))?;
                event::request_bye_in(trf, player, bye, at)?;
                Ok(format!("bye {player} {kind} round {at}"))
            })?;
            println!("{who}: bye {kind} in round {at}");
        }
        TournamentCommand::Withdraw {
            event: name,
            player,
            from,
            db,
        } => {
            let (mut first, mut who) = (0, String::new());
            let (_, v) = change(db, &name, |trf| {
                let from = round_or_next(trf, from);
                let player = player_number(&name, trf, &player)?;
                who = named(trf, player);
                first = event::withdraw(trf, player, from)?;
                Ok(format!("withdraw {player} from round {first}"))
            })?;
            println!("{who} withdrawn from round {first} (version {v})");
        }
        TournamentCommand::Reenter {
            event: name,
            player,
            from,
            db,
        } => {
            let (mut back, mut who) = (0, String::new());
            let (_, v) = change(db, &name, |trf| {
                back = round_or_next(trf, from);
                let player = player_number(&name, trf, &player)?;
                who = named(trf, player);
                event::reenter(trf, player, back)?;
                Ok(format!("reenter {player} from round {back}"))
            })?;
            println!("{who} back from round {back} (version {v})");
        }
        TournamentCommand::Pair {
            event: name,
            seed,
            json,
            db,
        } => {
            let mut pairing = None;
            let (trf, _) = change(db, &name, |trf| {
                pairing = Some(event::pair(trf, seed)?);
                Ok(format!("pair round {}", tournament::dutch::rounds_paired(trf)))
            })?;
            let pairing = pairing.expect("paired");
            let round = tournament::dutch::rounds_paired(&trf);
            if json {
                // The general model's shape (`number`, `pairings` with ids), and the Swiss's own
                // `boards`/`bye` as before.
                let mut pairings: Vec<_> = pairing
                    .boards
                    .iter()
                    .enumerate()
                    .map(|(b, (w, k))| serde_json::json!({"id": format!("{round}.{}", b + 1), "first": w, "second": k}))
                    .collect();
                if let Some(b) = pairing.bye {
                    pairings.push(serde_json::json!({"id": format!("{round}.bye"), "first": b}));
                }
                return super::json(&serde_json::json!({
                    "round": round,
                    "number": round,
                    "pairings": pairings,
                    "boards": pairing.boards,
                    "bye": pairing.bye,
                }));
            }
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
            args,
            replace,
            db,
        } => {
            let [round, white, black, result] = &args[..] else {
                bail!("a Swiss's result: ROUND WHITE BLACK RESULT (e.g. 3 12 7 1-0)");
            };
            let number = |s: &str, what: &str| -> Result<u32> {
                s.parse().with_context(|| format!("{what} {s:?} is not a number"))
            };
            let (round, white, black, result) = (
                number(round, "round")? as usize,
                number(white, "white")?,
                number(black, "black")?,
                result.clone(),
            );
            let mut had = "-";
            let (trf, _) = change(db, &name, |trf| {
                // A result already entered is overwritten only as a correction asked for: a
                // mistyped round or board must not silently replace another game's result.
                had = match trf.player(white).and_then(|p| p.rounds.get(round.wrapping_sub(1))) {
                    Some(r) if r.opponent == black => board_result(trf, round, white),
                    _ => "-",
                };
                if had != "-" && !replace {
                    bail!("round {round}: {white} - {black} already has a result ({had}); --replace corrects it");
                }
                event::set_result(trf, round, white, black, &result)?;
                Ok(format!(
                    "result round {round} {white}-{black} {result}{}",
                    if had == "-" { "" } else { " (replacing)" }
                ))
            })?;
            let last = tournament::dutch::rounds_paired(&trf);
            if had != "-" && last > round {
                println!(
                    "round {round}: {white} - {black} {had} corrected to {result}; the pairings of round{} {} stand, later rounds are paired on the corrected score",
                    if last > round + 1 { "s" } else { "" },
                    if last > round + 1 { format!("{}-{last}", round + 1) } else { last.to_string() },
                );
            }
            let left = event::pending(&trf).len();
            println!("round {last}: {left} game(s) without a result");
        }
        TournamentCommand::Crosstable {
            event: name,
            html,
            json: as_json,
            tiebreaks: list,
            db,
        } => {
            let (trf, _) = load(&open(db)?, &name)?;
            let order = order_of(&trf, list)?;
            if as_json {
                return super::json(&serde_json::json!({"title": name, "players": trf.players}));
            }
            let text = if html {
                event::crosstable_html(&trf, &name, &order)
            } else {
                event::crosstable(&trf, &order)
            };
            print!("{text}");
        }
        TournamentCommand::Standings {
            event: name,
            tiebreaks,
            json,
            html,
            db,
        } => {
            let (trf, _) = load(&open(db)?, &name)?;
            let order = order_of(&trf, tiebreaks)?;
            if html {
                print!("{}", event::crosstable_html(&trf, &name, &order));
                return Ok(());
            }
            let lines = tournament::standings::standings(&trf, &order);
            if json {
                return super::json(&lines);
            }
            for l in lines {
                println!("{}", super::standings_line(&l, &order));
            }
        }
        TournamentCommand::Pairings { event: name, json, db } => {
            let (trf, _) = load(&open(db)?, &name)?;
            // `recorded` counts rounds from 0; rounds are shown from 1.
            let rounds: Vec<_> = (1..=tournament::dutch::rounds_paired(&trf))
                .map(|r| (r, tournament::dutch::recorded(&trf, r - 1)))
                .collect();
            if json {
                let rows: Vec<_> = rounds
                    .iter()
                    .map(|(r, p)| {
                        let results: Vec<_> = p.boards.iter().map(|&(w, _)| board_result(&trf, *r, w)).collect();
                        serde_json::json!({"round": r, "boards": p.boards, "results": results, "bye": p.bye})
                    })
                    .collect();
                return super::json(&rows);
            }
            for (r, p) in rounds {
                println!("round {r}");
                for (board, (w, b)) in p.boards.iter().enumerate() {
                    let n = |x: u32| trf.player(x).map_or(String::new(), |p| p.name.clone());
                    let result = board_result(&trf, r, *w);
                    println!("{:>3}. {w:>4} {:<24} - {b:>4} {:<24} {result}", board + 1, n(*w), n(*b));
                }
                if let Some(b) = p.bye {
                    println!("bye: {b}");
                }
            }
        }
        TournamentCommand::Lineup { event: name, .. } => bail!("{name:?} is a Swiss of players: lineups are for teams"),
        TournamentCommand::Bracket { event: name, .. } => {
            bail!("{name:?} is a Swiss: it has no bracket (crosstable, standings)")
        }
        _ => bail!("not an event command"),
    }
    Ok(())
}

/// A board's result as `result` takes it, white's side first; `-` while it is to be played.
fn board_result(trf: &Trf, round: usize, white: u32) -> &'static str {
    use tournament::result::{RoundResult, Score};
    let entry = |player: u32| trf.player(player).and_then(|p| p.rounds.get(round - 1));
    let Some(w) = entry(white) else { return "-" };
    let black = entry(w.opponent).map(|b| b.result);
    match (w.result, black) {
        (RoundResult::Game { score: Score::Win, .. }, _) => "1-0",
        (RoundResult::Game { score: Score::Draw, .. }, _) => "1/2",
        (RoundResult::Game { score: Score::Loss, .. }, _) => "0-1",
        (RoundResult::ForfeitWin, _) => "+/-",
        (RoundResult::ForfeitLoss, Some(RoundResult::ForfeitWin)) => "-/+",
        (RoundResult::ForfeitLoss, _) => "-/-",
        _ => "-",
    }
}

/// The tie-breaks asked for, else the event's, else BH-C1,BH,SB.
fn order_of(trf: &Trf, asked: Option<String>) -> Result<Vec<tournament::standings::TieBreak>> {
    Ok(match asked {
        Some(list) => event::parse_tiebreaks(&list)?,
        None => match event::tiebreaks(trf)? {
            order if order.is_empty() => event::parse_tiebreaks("BH-C1,BH,SB")?,
            order => order,
        },
    })
}

/// The start number of the player `given` names (a number or a registered name).
fn player_number(event: &str, trf: &Trf, given: &str) -> Result<u32> {
    super::entrant_number(event, trf.players.iter().map(|p| p.name.as_str()), given, "player")
}

/// "player N (name)", as the command line answers a change about a player.
fn named(trf: &Trf, number: u32) -> String {
    let name = trf
        .players
        .iter()
        .find(|p| p.number == number)
        .map_or("", |p| p.name.as_str());
    format!("player {number} ({name})")
}
