//! `arbiter`: the command-line face of the referee.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Parser;
use xiangqi::notation::Notation;
use xiangqi::{Fen, Position};

mod cli;
mod closed_output;
mod convert;
mod db;
mod events;
mod judge;
mod loadtest;
mod matches;
mod nofile;
mod pair;
mod play;
mod rate;
mod serve;

pub(crate) use cli::TournamentCommand;
use cli::{Cli, Command};

fn position(fen: &str) -> Result<Position> {
    let fen = if fen == "startpos" { Fen::START } else { fen };
    Position::from_fen(fen).with_context(|| format!("bad position {fen:?}"))
}

fn main() -> ExitCode {
    closed_output::install();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // `arbiter … | head`: the reader has what it wanted.
        Err(e) if closed_output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Built-in benchmark positions: the start and a middle game (xq13 of the perft suite, from
/// Fairy-Stockfish's tests), the same ones BENCHMARKS.md times the engines on.
const BENCH: [(&str, &str); 2] = [
    ("startpos", Fen::START),
    (
        "middlegame",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ),
];

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Serve {
            addr,
            db,
            actions_per_second,
            creates_per_minute,
            abandon_after,
            computer_games,
            analyses,
            analysis_queue,
            log_format,
            cluster,
            node,
            cluster_prefix,
            lease_ms,
            advertise,
        } => serve::run(
            &addr,
            db.as_deref(),
            cluster.zip(node).map(|(nats, node)| server::cluster::Options {
                nats,
                node,
                prefix: cluster_prefix,
                lease: std::time::Duration::from_millis(lease_ms),
                advertise,
            }),
            server::Limits {
                actions_per_second,
                actions_burst: actions_per_second * 2.0,
                creates_per_minute,
                creates_burst: creates_per_minute,
                abandon_after: (abandon_after > 0).then(|| std::time::Duration::from_secs(abandon_after)),
                computer_games: computer_games.unwrap_or_else(server::limits::default_computer_games),
                analyses: analyses.unwrap_or_else(server::limits::default_analyses),
                analysis_queue,
            },
            log_format,
        )?,
        Command::Loadtest {
            url,
            db,
            games,
            seconds,
            watch,
            event_players,
            event_rate,
            transport,
            spectators,
            any_node,
            json,
        } => loadtest::run(&loadtest::Options {
            url,
            db,
            // Spectators watch a few games unless told otherwise.
            games: match (spectators, games) {
                (Some(_), None) => 16,
                (_, g) => g.unwrap_or(256),
            },
            seconds,
            watchers: watch,
            json,
            event_players,
            event_rate,
            transport,
            spectators: spectators.map(|n| n as usize),
            any_node,
        })?,
        Command::Rate {
            files,
            event,
            system,
            json,
            list,
            start,
            source,
            show,
            history,
            db,
        } => rate::run(&rate::Options {
            files,
            event,
            system,
            json,
            list,
            start,
            source,
            show,
            history,
            db,
        })?,
        Command::Match { args } => matches::run(&args)?,
        Command::Pair {
            file,
            system,
            avoid_same_team,
            seed,
            check,
            output,
        } => {
            let cxa = tournament::cxa_swiss::Options { avoid_same_team, seed };
            return pair::run(&file, &system, check, output.as_deref(), &cxa);
        }
        Command::Tournament {
            action:
                action @ (TournamentCommand::Standings { .. }
                | TournamentCommand::Create { .. }
                | TournamentCommand::Set { .. }
                | TournamentCommand::Register { .. }
                | TournamentCommand::Bye { .. }
                | TournamentCommand::Withdraw { .. }
                | TournamentCommand::Reenter { .. }
                | TournamentCommand::Pair { .. }
                | TournamentCommand::Result { .. }
                | TournamentCommand::Pairings { .. }
                | TournamentCommand::Lineup { .. }
                | TournamentCommand::Crosstable { .. }
                | TournamentCommand::Bracket { .. }
                | TournamentCommand::Export { .. }
                | TournamentCommand::Import { .. }
                | TournamentCommand::List { .. }
                | TournamentCommand::Log { .. }),
        } => events::run(action)?,
        Command::Tournament {
            action:
                TournamentCommand::Generate {
                    players,
                    rounds,
                    seed,
                    draws,
                    forfeits,
                    half_byes,
                    withdrawals,
                    output,
                },
        } => {
            use tournament::dutch::generate::{generate, Settings};
            if players < 2 || rounds == 0 || players > 9999 {
                bail!("need 2 to 9,999 players and at least one round");
            }
            let settings = Settings {
                players,
                rounds,
                seed,
                draws,
                forfeits,
                half_byes,
                withdrawals,
            };
            let text = generate(&settings)?.write(|_| None);
            match output {
                Some(path) => {
                    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?
                }
                None => print!("{text}"),
            }
        }
        Command::Play {
            game,
            fen,
            time,
            rules,
            list_rules,
            move_limit,
            temporary_limit,
        } => {
            if list_rules {
                for name in referee::RefereeRules::NAMES {
                    let r = referee::RefereeRules::by_name(name).expect("listed");
                    println!("{}", serde_json::to_string(&r)?);
                }
            } else {
                let limits = judge::Options {
                    ruleset: None,
                    json: false,
                    lang: ::judge::Lang::En,
                    at_trigger: false,
                    move_limit,
                    temporary_limit,
                };
                let judge_rules = judge::rulesets(&limits)?.xiangqi;
                play::run(&game, fen.as_deref(), &time, rules.as_deref(), judge_rules)?
            }
        }
        Command::Judge {
            files,
            ruleset,
            move_limit,
            temporary_limit,
            json,
            lang,
            at_trigger,
            rulesets,
            game,
            fen,
            moves,
        } => {
            if rulesets {
                return judge::print_rulesets();
            }
            let opts = judge::Options {
                ruleset,
                json,
                lang,
                at_trigger,
                move_limit,
                temporary_limit,
            };
            match game {
                Some(kind) => judge::one(&kind, fen.as_deref(), &moves, &opts)?,
                None if files.is_empty() => bail!("judge: give record files, or --game with --fen and --moves"),
                None => judge::files(&files, &opts)?,
            }
        }
        Command::Convert {
            input,
            output,
            notation,
            pgn_style,
            to,
            encoding,
            judge,
            ruleset,
        } => {
            let opts = judge.then_some(judge::Options {
                ruleset,
                json: false,
                lang: ::judge::Lang::En,
                at_trigger: false,
                move_limit: None,
                temporary_limit: None,
            });
            convert::run(
                &input,
                &output,
                (&notation, &pgn_style),
                to.as_deref(),
                encoding.as_deref(),
                opts.as_ref(),
            )?;
        }
        Command::Perft { fen, depth, divide } => {
            let pos = position(&fen)?;
            let start = Instant::now();
            let total = if divide {
                let rows = xiangqi::perft::divide(&pos, depth);
                for (m, n) in &rows {
                    println!("{m}: {n}");
                }
                rows.iter().map(|(_, n)| n).sum()
            } else {
                xiangqi::perft::perft(&pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{total} nodes in {secs:.3} s ({:.1} M nodes/s)",
                total as f64 / secs / 1e6
            );
            println!("{total}");
        }
        Command::Moves { fen, notation } => {
            let pos = position(&fen)?;
            let notation: Notation = notation.parse().map_err(anyhow::Error::msg)?;
            for &m in pos.legal_moves().iter() {
                println!("{}", notation.write(&pos, m));
            }
        }
        Command::Bench {
            depth,
            runs,
            fen,
            copy,
            list,
        } => {
            if runs == 0 {
                bail!("--runs must be at least 1");
            }
            let mut cases: Vec<(String, String)> = BENCH.iter().map(|(n, f)| (n.to_string(), f.to_string())).collect();
            cases.extend(fen.into_iter().enumerate().map(|(i, f)| (format!("fen{}", i + 1), f)));
            println!("position\tdepth\tnodes\tbest_seconds\tM_nodes_per_second");
            for (name, f) in cases {
                let pos = position(&f)?;
                let mut best = f64::INFINITY;
                let mut nodes = 0;
                for _ in 0..runs {
                    let t = Instant::now();
                    nodes = if copy {
                        xiangqi::perft::perft_copy(&pos, depth)
                    } else if list {
                        xiangqi::perft::perft_listing(&pos, depth)
                    } else {
                        xiangqi::perft::perft(&pos, depth)
                    };
                    best = best.min(t.elapsed().as_secs_f64());
                }
                println!("{name}\t{depth}\t{nodes}\t{best:.3}\t{:.1}", nodes as f64 / best / 1e6);
            }
        }
    }
    Ok(())
}
