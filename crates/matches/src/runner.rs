//! An engine match: two or more engines, round robin or gauntlet, games in pairs with colours
//! reversed on the same opening, played on `concurrency` threads, every game refereed
//! ([`crate::play`]); PGN appended as games finish, live progress (score, Elo ± error, games
//! per minute, SPRT), and a state file next to the PGN so that an interrupted match resumes
//! where it stopped.
//!
//! A round robin is played as a round-robin event (Berger tables, round by round), can be written
//! as a TRF-2026 file, and with three or more engines ends with standings and tie-breaks by the
//! tournament crate ([`crate::event`]).
//!
//! Each thread keeps its engines running from game to game (a new game is `ucinewgame`, as
//! fastchess does) and restarts an engine only after it failed.
//!
//! What a match is given is in `config`, the order of its games in `schedule`, its count of
//! results in `tally`; this file runs the games and records them.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use game::{BySide, Game, Kind, Side};
use judge::Judge;
use ratings::sprt::Status;

use crate::cpu;
use crate::journal::Journal;
pub use crate::output::report;
use crate::play::{play_game, GameSetup, Played};
use engine::Engine;

mod config;
mod schedule;
mod tally;

pub(crate) use config::io_err;
pub use config::{stable_hash, untimed, Entrant, MatchConfig, MatchError, Start};
use schedule::{pgn_round, shuffle, start_positions};
pub use schedule::{schedule, Job};
use tally::outcome_of;
pub use tally::{Finished, Summary, Tally};

/// The state file of a PGN output (the `journal` module).
pub fn state_path(pgn: &Path) -> PathBuf {
    crate::journal::path(pgn)
}

/// Today's date as PGN writes it (UTC).
pub(crate) fn pgn_date() -> String {
    crate::pgn::date_text(std::time::SystemTime::now())
}

/// What a worker sends back.
pub(crate) struct Done {
    pub(crate) job: Job,
    pub(crate) played: Played,
}

/// What a game slot tells the main thread.
enum Message {
    Started(Job),
    Done(Done),
}

/// Plays the match: `make_judge` builds the judge for a game from its start position. Progress
/// lines go to `out`.
pub fn run_match<J, F>(config: &MatchConfig, make_judge: F, out: &mut dyn Write) -> Result<Summary, MatchError>
where
    J: Judge + Clone,
    F: Fn(J::Game) -> J + Sync,
{
    let kind = <J::Game as Game>::KIND;
    if config.engines.len() < 2 {
        return Err(MatchError::Config("a match needs at least two engines".into()));
    }
    let mut openings = config.openings.clone();
    if let Some(seed) = config.shuffle {
        shuffle(&mut openings, seed);
    }
    let roots: Vec<J::Game> = start_positions(&openings)?;
    let no_moves: Vec<String> = Vec::new();
    let book = |i: usize| openings.get(i).map_or(&no_moves, |o| &o.moves);
    let jobs = schedule(config.engines.len(), config.gauntlet, config.games, roots.len());
    let names: Vec<String> = config.engines.iter().map(|e| e.config.name.clone()).collect();

    // Every engine is started once before the games: one that cannot start or shake hands
    // stops the match at once rather than forfeiting every game, before any file is written.
    // They go to the first thread.
    let mut preflight: Vec<Option<Engine<J::Game>>> = Vec::new();
    if !jobs.is_empty() {
        for e in &config.engines {
            let mut engine = Engine::start(&e.config)
                .map_err(|err| MatchError::Config(format!("engine {}: {err}", e.config.name)))?;
            // An engine that does not play this game (or these coordinates) would lose every
            // game at its first move: refused here. One that crashes or hangs is left to lose
            // its games as usual, restarted.
            let first = roots.first().map_or_else(J::Game::start, Clone::clone);
            match crate::probe::first_move(&mut engine, &first, book(0), e.config.handshake_timeout) {
                Ok(()) => preflight.push(Some(engine)),
                Err(Some(why)) => return Err(MatchError::Config(why)),
                Err(None) => preflight.push(None),
            }
        }
    }
    // The PGN, and the state of an earlier run with the PGN cut back to the last game it
    // counted (a game written to the PGN but not to the state is played again).
    if config.resume && config.pgn_out.is_none() {
        return Err(MatchError::Config("--resume needs a PGN output (--pgnout)".into()));
    }
    let hash = format!("{:016x}", config.config_hash);
    let mut finished_before: Vec<Finished> = Vec::new();
    let mut pgn: Option<(File, Journal)> = None;
    if let Some(path) = &config.pgn_out {
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)
            .map_err(|e| io_err("open", path, e))?;
        let len = f.seek(SeekFrom::End(0)).map_err(|e| io_err("seek", path, e))?;
        let state = state_path(path);
        let journal = if config.resume {
            let (journal, resumed) = Journal::resume(&state, &hash, len)?;
            if let Some(bytes) = resumed.pgn_bytes {
                f.set_len(bytes).map_err(|e| io_err("truncate", path, e))?;
                f.seek(SeekFrom::End(0)).map_err(|e| io_err("seek", path, e))?;
            }
            finished_before = resumed.games;
            journal
        } else {
            Journal::create(&state, &hash, len)?
        };
        pgn = Some((f, journal));
    }

    let mut tally = Tally::new(names.len());
    let done_numbers: std::collections::HashSet<u32> = finished_before.iter().map(|g| g.number).collect();
    for g in &finished_before {
        if let Some(job) = jobs.get(g.number as usize - 1) {
            tally.add(job, outcome_of(&g.result));
        }
    }
    let todo: Vec<Job> = jobs
        .iter()
        .filter(|j| !done_numbers.contains(&j.number))
        .copied()
        .collect();
    let total = jobs.len();
    let mut summary = Summary {
        tally,
        finished: finished_before.clone(),
        played: 0,
        plies: 0,
        overhead: Duration::ZERO,
        work: Duration::ZERO,
        engine_time: Duration::ZERO,
        wall: Duration::ZERO,
        cpu: None,
        sprt: None,
        terminations: Vec::new(),
    };
    if config.progress && !finished_before.is_empty() {
        let _ = writeln!(
            out,
            "Resuming: {} of {total} games already played",
            finished_before.len()
        );
    }
    let date = pgn_date();
    let sprt_status = |t: &Tally| config.sprt.map(|s| (s.llr(&t.pentanomial), s.status(&t.pentanomial)));
    if let Some((_, status)) = sprt_status(&summary.tally) {
        if status != Status::Continue {
            summary.sprt = sprt_status(&summary.tally);
            write_trf(config, &summary, &date)?;
            return Ok(summary);
        }
    }
    // A round robin of three or more: the standings with tie-breaks as each event round is
    // complete (rounds complete before a resume are not shown again).
    let by_rounds = config.progress && !config.gauntlet && names.len() > 2;
    let rounds = jobs.iter().map(|j| j.round).max().unwrap_or(0) as usize;
    let mut left = vec![0u32; rounds];
    for j in &todo {
        left[j.round as usize - 1] += 1;
    }
    let mut complete = left.iter().take_while(|&&n| n == 0).count();
    let order = crate::event::order(config);
    let first_tag = match kind {
        Kind::Xiangqi => "Red",
        Kind::Chess => "White",
    };
    let started = Instant::now();
    let cpu_before = cpu::CpuTime::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = config.concurrency.clamp(1, todo.len().max(1));
    let threads_per_slot = config
        .engines
        .iter()
        .flat_map(|e| &e.config.options)
        .filter(|(name, _)| name.eq_ignore_ascii_case("Threads"))
        .filter_map(|(_, value)| value.trim().parse::<usize>().ok())
        .max()
        .unwrap_or(1);
    if config.affinity {
        // The preflight engines run on any CPU: each slot starts its own.
        preflight.clear();
    }
    let yielding = yields(config);
    let (tx, rx) = mpsc::channel::<Message>();
    let mut result: Result<(), MatchError> = Ok(());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let tx = tx.clone();
            let (todo, next, stop, roots, book, make_judge, names) =
                (&todo, &next, &stop, &roots, &book, &make_judge, &names);
            let date = date.as_str();
            let mut engines: Vec<Option<Engine<J::Game>>> = if t == 0 && !preflight.is_empty() && !config.affinity {
                std::mem::take(&mut preflight)
            } else {
                (0..config.engines.len()).map(|_| None).collect()
            };
            scope.spawn(move || {
                if config.affinity {
                    // Before any engine of this slot starts: they inherit the thread's CPUs.
                    cpu::keep_on_cpus(t, threads_per_slot);
                }
                if yielding {
                    cpu::yield_to_engines();
                }
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = todo.get(i) else { break };
                    let (root, opening) = (&roots[job.opening], book(job.opening));
                    let (first_name, second_name) = (&names[job.first], &names[job.second]);
                    let tags = vec![
                        ("Event".to_string(), config.event.clone()),
                        ("Site".to_string(), config.site.clone()),
                        ("Date".to_string(), date.to_string()),
                        (
                            "Round".to_string(),
                            pgn_round(&job, names.len(), config.gauntlet).to_string(),
                        ),
                        (first_tag.to_string(), first_name.clone()),
                        ("Black".to_string(), second_name.clone()),
                    ];
                    if config.progress && tx.send(Message::Started(job)).is_err() {
                        break;
                    }
                    let played = play_one(config, &mut engines, &job, (root, opening), &tags, make_judge, stop);
                    if tx.send(Message::Done(Done { job, played })).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            let done = match message {
                Message::Started(job) => {
                    if !stop.load(Ordering::Relaxed) {
                        let _ = writeln!(out, "{}", crate::output::started(&job, total, &names));
                    }
                    continue;
                }
                Message::Done(done) => done,
            };
            // Once the match has stopped (an SPRT decision, an error), the games still being
            // played end unfinished and count for nothing: the match is the one decided.
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            if let Err(e) = record(config, &mut summary, &mut pgn, &done, &names) {
                result = Err(e);
                stop.store(true, Ordering::Relaxed);
            }
            summary.wall = started.elapsed();
            summary.sprt = sprt_status(&summary.tally);
            if config.progress {
                let p = &done.played;
                let _ = writeln!(
                    out,
                    "{}",
                    crate::output::finished(&done.job, &names, p.result.pgn(), &p.explanation)
                );
                let _ = writeln!(out, "{}", crate::output::score(&summary, &names));
                let _ = writeln!(
                    out,
                    "{}",
                    crate::output::progress_line(&summary, &done, &names, total, config)
                );
                let n = summary.finished.len() as u32;
                if config.rating_interval > 0 && n.is_multiple_of(config.rating_interval) && (n as usize) < total {
                    let _ = write!(out, "{}", crate::output::results(&summary, config, &names));
                }
            }
            left[done.job.round as usize - 1] -= 1;
            let before = complete;
            while complete < rounds && left[complete] == 0 {
                complete += 1;
            }
            if by_rounds && complete > before {
                let trf = crate::event::to_trf(config, &summary.finished, &date);
                // Rounds finish in order or, with concurrency, several at once.
                let which = if complete == before + 1 {
                    format!("Round {complete}")
                } else {
                    format!("Rounds {}-{complete}", before + 1)
                };
                let _ = write!(
                    out,
                    "{which} of {rounds} complete; standings ({}):\n{}",
                    crate::event::heading(&order),
                    crate::event::standings_text(&trf, &order, &summary.tally.standings)
                );
            }
            if summary.sprt.is_some_and(|(_, s)| s != Status::Continue) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    result?;
    summary.wall = started.elapsed();
    summary.cpu = cpu_before
        .zip(cpu::CpuTime::now())
        .map(|(before, after)| after.since(&before));
    write_trf(config, &summary, &date)?;
    Ok(summary)
}

/// Writes the match as a TRF file, if asked (see [`crate::event`]).
fn write_trf(config: &MatchConfig, summary: &Summary, date: &str) -> Result<(), MatchError> {
    let Some(path) = &config.trf_out else {
        return Ok(());
    };
    let trf = crate::event::to_trf(config, &summary.finished, date);
    let text = crate::event::trf_text(&trf, &crate::event::order(config));
    std::fs::write(path, text).map_err(|e| io_err("write", path, e))
}

/// Plays one game with the worker's engines, starting those not running.
fn play_one<J, F>(
    config: &MatchConfig,
    engines: &mut [Option<Engine<J::Game>>],
    job: &Job,
    (root, opening): (&J::Game, &[String]),
    tags: &[(String, String)],
    make_judge: &F,
    stop: &AtomicBool,
) -> Played
where
    J: Judge + Clone,
    F: Fn(J::Game) -> J,
{
    let setup = GameSetup {
        root,
        opening,
        controls: BySide {
            first: &config.engines[job.first].control,
            second: &config.engines[job.second].control,
        },
        adjudication: &config.adjudication,
        tags,
        pgn: config.pgn,
        stop: Some(stop),
    };
    for (side, idx) in [(Side::First, job.first), (Side::Second, job.second)] {
        if engines[idx].is_none() {
            let yielding = yields(config);
            let start = || Engine::start(&config.engines[idx].config);
            let started = if yielding {
                cpu::starting_engines(start)
            } else {
                start()
            };
            match started {
                Ok(mut e) => {
                    // A yielding slot's thread runs only when its engine waits (see `cpu`).
                    e.set_yielding(yielding);
                    engines[idx] = Some(e)
                }
                Err(err) => return crate::play::forfeit(make_judge(root.clone()), &setup, side, &err),
            }
        }
    }
    let (a, b) = if job.first < job.second {
        let (lo, hi) = engines.split_at_mut(job.second);
        (lo[job.first].as_mut(), hi[0].as_mut())
    } else {
        let (lo, hi) = engines.split_at_mut(job.first);
        (hi[0].as_mut(), lo[job.second].as_mut())
    };
    let (Some(a), Some(b)) = (a, b) else {
        unreachable!("both engines were started above")
    };
    let played = play_game(make_judge(root.clone()), BySide { first: a, second: b }, &setup);
    for (side, idx) in [(Side::First, job.first), (Side::Second, job.second)] {
        if played.failed[side] {
            // Dropping the engine ends its process; the next game starts a new one.
            engines[idx] = None;
        }
    }
    played
}

/// Whether each game slot's thread yields to its engines ([`cpu::yield_to_engines`]): when
/// asked for, the slots are pinned (`--affinity`) and no engine's search is timed (nodes or
/// depth only). A yielding thread reads an answer once the engine waits for its next command,
/// which for a timed search would charge the engine for whatever it did after `bestmove` before
/// waiting; there the thread wakes for each line as usual.
fn yields(config: &MatchConfig) -> bool {
    config.yield_to_engines && config.affinity && untimed(config)
}

/// Counts a finished game, appends its PGN (flushed) and adds it to the state file.
fn record(
    config: &MatchConfig,
    summary: &mut Summary,
    pgn: &mut Option<(File, Journal)>,
    done: &Done,
    names: &[String],
) -> Result<(), MatchError> {
    let p = &done.played;
    summary.tally.add(&done.job, p.result);
    summary.played += 1;
    summary.plies += u64::from(p.plies);
    summary.overhead += p.overhead;
    summary.work += p.work;
    summary.engine_time += p.engine_time;
    match summary.terminations.iter_mut().find(|(c, _)| *c == p.termination) {
        Some((_, n)) => *n += 1,
        None => summary.terminations.push((p.termination.clone(), 1)),
    }
    let finished = Finished {
        number: done.job.number,
        first: names[done.job.first].clone(),
        second: names[done.job.second].clone(),
        result: p.result.pgn().to_string(),
        termination: p.termination.clone(),
    };
    if let (Some((f, journal)), Some(path)) = (pgn.as_mut(), config.pgn_out.as_deref()) {
        let mut text = Vec::with_capacity(p.pgn.len() + 1);
        text.extend_from_slice(p.pgn.as_bytes());
        text.push(b'\n');
        // One write: the record lands whole or (killed) torn at the end, where a resume cuts.
        f.write_all(&text).map_err(|e| io_err("write", path, e))?;
        let bytes = f.stream_position().map_err(|e| io_err("seek", path, e))?;
        journal.add(&finished, bytes)?;
    }
    summary.finished.push(finished);
    Ok(())
}
