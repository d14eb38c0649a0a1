//! The commands on events of every format but the Swiss: registration, pairing (rounds,
//! brackets, card draws, play-offs, stages), results, and what they come to.

use anyhow::{bail, Result};
use tournament::competition::{self, render, Event, Format, Verdict};
use tournament::standings::TieBreak;

use super::{change, json, load, open};
use crate::TournamentCommand;

pub(super) fn run(action: TournamentCommand) -> Result<()> {
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
            let (_, v) = change(db.as_deref(), &name, |e| {
                let mut what = Vec::new();
                if let Some(p) = &points {
                    if !e.stages.is_empty() {
                        bail!("the points are fixed once the event has started");
                    }
                    e.settings.points = super::create::three(p, "points")?;
                    what.push(format!("points {p}"));
                }
                if let Some(t) = &tiebreaks {
                    set_tiebreaks(e, t)?;
                    what.push(format!("tiebreaks {t}"));
                }
                Ok(format!("set {}", what.join(" ")))
            })?;
            println!("{name}: set (version {v})");
        }
        TournamentCommand::Register {
            event: name,
            name: entrant,
            rating,
            federation,
            members,
            missed: _,
            db,
        } => {
            let members: Vec<String> = members
                .as_deref()
                .map(|m| {
                    m.split(',')
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            let mut id = 0;
            let (_, v) = change(db.as_deref(), &name, |e| {
                id = e.register(&entrant, rating, &federation, &members)?;
                Ok(format!("register {id} {entrant}"))
            })?;
            println!("{id} {entrant} (version {v})");
        }
        TournamentCommand::Withdraw {
            event: name,
            player,
            from,
            db,
        } => {
            if from.is_some() {
                bail!("--from is for a Swiss; here a withdrawal counts from now on");
            }
            let mut forfeited = Vec::new();
            let mut player_id = 0;
            let (e, v) = change(db.as_deref(), &name, |e| {
                let what = if e.teams() { "team" } else { "player" };
                let player = super::entrant_number(&name, e.entrants.iter().map(|x| x.name.as_str()), &player, what)?;
                player_id = player;
                forfeited = e.withdraw(player)?;
                Ok(format!("withdraw {player}"))
            })?;
            println!("{} withdrawn (version {v})", e.name_of(player_id));
            for id in forfeited {
                println!("{id}: forfeited");
            }
        }
        TournamentCommand::Bye { event, .. } | TournamentCommand::Reenter { event, .. } => {
            bail!("{event:?} is not a Swiss: requested byes and re-entry are a Swiss's")
        }
        TournamentCommand::Pair {
            event: name,
            json: as_json,
            db,
            ..
        } => {
            let mut round = None;
            let (e, _) = change(db.as_deref(), &name, |e| {
                let r = e.pair()?;
                let what = format!("pair {}", describe_round(e, &r));
                round = Some(r);
                Ok(what)
            })?;
            let round = round.expect("paired");
            if as_json {
                return json(&round);
            }
            let s = e.stages.len() - 1;
            println!("{}", describe_round(&e, &round));
            print!("{}", render::round_text(&e, s, &round));
        }
        TournamentCommand::Result {
            event: name,
            args,
            replace,
            db,
        } => {
            let [id, results @ ..] = &args[..] else {
                bail!("a result: PAIRING RESULT… (e.g. 2.3 1-0)");
            };
            let results: Vec<&str> = results.iter().map(String::as_str).collect();
            let mut entered = None;
            let (e, _) = change(db.as_deref(), &name, |e| {
                let r = e.result(id, &results, replace)?;
                let mut what = format!(
                    "result {} {}{}",
                    r.id,
                    results.join(" "),
                    if replace { " (replacing)" } else { "" }
                );
                if let Some(lot) = &r.lot {
                    what.push_str(&format!("; {}", lot.how));
                }
                entered = Some(r);
                Ok(what)
            })?;
            let r = entered.expect("entered");
            let p = e.pairing(&r.id).expect("entered");
            let p = &*p;
            let s = e.stages.len() - 1;
            match r.verdict {
                Verdict::Won(side) => println!(
                    "{}: {}, won by {}",
                    r.id,
                    render::score(&e, s, p),
                    render::winner_name(&e, p, side)
                ),
                Verdict::Pending => {
                    let n = p.games.len() + 1;
                    let red_side = if e.first_red(n as u32) {
                        competition::Side::First
                    } else {
                        competition::Side::Second
                    };
                    let red = render::winner_name(&e, p, red_side);
                    let boards = e.settings.boards as usize;
                    let kind = if e.teams() && n > boards {
                        // A tie's play-off match, on the same boards.
                        let b = e.board_index(n as u32) + 1;
                        format!("play-off match {}, board {b}", (n - 1) / boards)
                    } else if e.teams() {
                        format!("board {n}")
                    } else if n as u32 > e.settings.games {
                        match &e.settings.playoff_time {
                            Some(tc) => format!("game {n} (a play-off, {tc})"),
                            None => format!("game {n} (a play-off)"),
                        }
                    } else {
                        format!("game {n}")
                    };
                    println!(
                        "{}: {}; next: {kind}, {red} has red (white)",
                        r.id,
                        render::score(&e, s, p)
                    );
                }
                v => println!("{}: {}, {}", r.id, render::score(&e, s, p), competition::describe(v)),
            }
            if let Some(lot) = &r.lot {
                println!("  {}", lot.how);
            }
            let open = e.open_count();
            match open {
                0 if e.finished() => println!("the event is finished"),
                0 => println!("every result is in: pair the next round"),
                n => println!("{n} pairing(s) still to play"),
            }
        }
        TournamentCommand::Lineup {
            event: name,
            pairing,
            team,
            players,
            db,
        } => {
            let players: Vec<String> = players.split(',').map(|p| p.trim().to_string()).collect();
            let mut team_id = 0;
            let (e, v) = change(db.as_deref(), &name, |e| {
                team_id = match team.parse::<u32>() {
                    Ok(n) if e.entrant(n).is_some() => n,
                    _ => match e.entrants.iter().position(|x| x.name == team) {
                        Some(i) => i as u32 + 1,
                        None => bail!("{name:?} has no team {team:?} (give its name or number)"),
                    },
                };
                let team = team_id;
                e.set_lineup(&pairing, team, &players)?;
                Ok(format!("lineup {pairing} {team} {}", players.join(",")))
            })?;
            let p = e.pairing(&pairing).expect("set");
            let p = &*p;
            println!("{pairing}: {} (version {v})", e.name_of(team_id));
            print!("{}", render::boards_text(&e, p));
        }
        TournamentCommand::Pairings {
            event: name,
            json: as_json,
            db,
        } => {
            let (e, _) = load(&open(db.as_deref())?, &name)?;
            if as_json {
                return json(&e.stages);
            }
            print!("{}", render::pairings_text(&e));
        }
        TournamentCommand::Standings {
            event: name,
            tiebreaks,
            json: as_json,
            html,
            db,
        } => {
            let (mut e, _) = load(&open(db.as_deref())?, &name)?;
            if let Some(t) = tiebreaks {
                set_tiebreaks(&mut e, &t)?;
            }
            if html {
                print!("{}", render::html(&e)?);
                return Ok(());
            }
            let tables = e.standings()?;
            if as_json {
                return json(&tables);
            }
            if tables.is_empty() {
                println!("{}: {} registered, nothing paired yet", e.name, e.entrants.len());
            }
            print!("{}", render::standings_text(&tables));
        }
        TournamentCommand::Crosstable {
            event: name,
            html,
            json: as_json,
            tiebreaks,
            db,
        } => {
            let (mut e, _) = load(&open(db.as_deref())?, &name)?;
            match tiebreaks {
                Some(t) => set_tiebreaks(&mut e, &t)?,
                None => check_tiebreaks(&e)?,
            }
            // A team crosstable shows the matches won, drawn and lost; its tie-breaks are the
            // standings'.
            let order = if e.teams() { Vec::new() } else { e.tiebreak_order()? };
            let swiss_order = match e.settings.tiebreaks.is_empty() {
                _ if e.teams() => Vec::new(),
                true => tournament::event::parse_tiebreaks("BH-C1,BH,SB")?,
                false => order.clone(),
            };
            let mut any = false;
            let mut groups = Vec::new();
            for (s, stage) in e.stages.iter().enumerate() {
                // A round robin's groups, or a Swiss stage's TRF (a Swiss of teams: a team's
                // rounds are its matches).
                let tables: Vec<(String, tournament::trf::Trf, &[TieBreak])> = match e.plan[s].format {
                    Format::RoundRobin { .. } | Format::Groups { .. } => (0..stage.groups.len())
                        .map(|g| {
                            let title = if stage.groups.len() > 1 {
                                format!("{}, group {}", e.name, competition::group_letter(g))
                            } else {
                                e.name.clone()
                            };
                            (title, competition::group_trf(&e, s, g), &order[..])
                        })
                        .collect(),
                    Format::Swiss { .. } => match &stage.trf {
                        Some(t) => vec![(e.name.clone(), tournament::trf::Trf::parse(t)?, &swiss_order[..])],
                        None => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                for (title, trf, order) in tables {
                    any = true;
                    if as_json {
                        groups.push(serde_json::json!({"title": title, "players": trf.players}));
                    } else if html {
                        print!("{}", tournament::event::crosstable_html(&trf, &title, order));
                    } else {
                        println!("{title}");
                        print!("{}", tournament::event::crosstable(&trf, order));
                    }
                }
            }
            if !any {
                bail!("{name:?} has no round robin or Swiss played yet: bracket and standings show a knockout");
            }
            if as_json {
                return json(&groups);
            }
        }
        TournamentCommand::Bracket {
            event: name,
            json: as_json,
            db,
        } => {
            let (e, _) = load(&open(db.as_deref())?, &name)?;
            let knockouts: Vec<usize> = (0..e.stages.len())
                .filter(|&s| matches!(e.plan[s].format, Format::Knockout { .. } | Format::DoubleKnockout))
                .collect();
            if knockouts.is_empty() {
                bail!("{name:?} has no knockout stage started (pairings and standings show the rest)");
            }
            if as_json {
                let stages: Vec<_> = knockouts.iter().map(|&s| &e.stages[s]).collect();
                return json(&stages);
            }
            let tables = e.standings()?;
            for s in knockouts {
                for r in &e.stages[s].rounds {
                    println!("round {}", r.number);
                    print!("{}", render::round_text(&e, s, r));
                }
                let placings: Vec<_> = tables.iter().filter(|t| t.stage == s).cloned().collect();
                print!("\n{}", render::standings_text(&placings));
            }
        }
        _ => bail!("not an event command"),
    }
    Ok(())
}

/// Sets the event's tie-break codes from a comma- or space-separated list, refused unless they
/// read for its kind.
pub(super) fn set_tiebreaks(e: &mut Event, list: &str) -> Result<()> {
    e.settings.tiebreaks = list
        .split([',', ' '])
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect();
    check_tiebreaks(e)
}

/// The event's tie-break codes read for its kind (players' or teams').
pub(super) fn check_tiebreaks(e: &Event) -> Result<()> {
    if e.teams() {
        e.team_tiebreak_order()?;
    } else {
        e.tiebreak_order()?;
    }
    Ok(())
}

/// "round 3", "round 2 of the final", "play-off 1".
fn describe_round(e: &Event, r: &competition::Round) -> String {
    let s = e.stages.len() - 1;
    let playoff = e.stages[s].playoffs.last() == Some(r);
    let kind = if playoff { "play-off" } else { "round" };
    if e.plan.len() > 1 {
        format!("{kind} {} of stage {} ({})", r.number, s + 1, e.plan[s].format.name())
    } else {
        format!("{kind} {}", r.number)
    }
}
