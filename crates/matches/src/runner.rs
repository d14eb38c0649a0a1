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

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use game::{BySide, Game, Kind, Side};
use judge::{Judge, Outcome};
use ratings::sprt::{Pentanomial, Sprt, Status, Trinomial};
use serde::{Deserialize, Serialize};
use tournament::round_robin::{berger, Pairing};
use tournament::standings::TieBreak;

use crate::cpu;
use crate::journal::Journal;
pub use crate::output::report;
use crate::pgn::PgnOptions;
use crate::play::{play_game, Adjudication, Control, GameSetup, Played};
use engine::{Engine, EngineConfig};

/// One engine of the match and the limits its moves get.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub config: EngineConfig,
    pub control: Control,
}

/// Where the games start: a FEN (`None`: the standard start) and moves played before the
/// engines take over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    pub fen: Option<String>,
    /// In the project's coordinates (ICCS, UCI).
    pub moves: Vec<String>,
    /// Where it came from (file and line), for messages.
    pub source: String,
}

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    pub engines: Vec<Entrant>,
    /// The first engine against each of the others, rather than every pair.
    pub gauntlet: bool,
    /// Games per pair of engines (two per opening, colours reversed).
    pub games: u32,
    pub concurrency: usize,
    /// The openings in file order; empty: the standard start.
    pub openings: Vec<Start>,
    /// Shuffle the openings with this seed (otherwise in order).
    pub shuffle: Option<u64>,
    pub adjudication: Adjudication,
    pub pgn_out: Option<PathBuf>,
    /// What each engine move's PGN comment carries beyond `{score/depth time}`.
    pub pgn: PgnOptions,
    /// Write the match as a TRF-2026 file here at the end (see [`crate::event`]).
    pub trf_out: Option<PathBuf>,
    /// The tie-breaks of the standings (3+ engines) and of the TRF; empty: SB, then DE.
    pub tiebreaks: Vec<TieBreak>,
    /// Skip the games the state file next to `pgn_out` lists as finished.
    pub resume: bool,
    pub sprt: Option<Sprt>,
    pub event: String,
    pub site: String,
    /// A hash of what makes the match the same match, kept in the state file: a resumed match
    /// must be the one that was interrupted.
    pub config_hash: u64,
    /// Print a progress line per game.
    pub progress: bool,
    /// Keep each concurrent game — the runner's thread and the engines it starts — on CPUs of
    /// its own (as fastchess's `-use-affinity`): the runner and the engine it waits for then
    /// share a CPU and hand over to each other without waking another, which on two cores
    /// cut the runner's system time by a third. Slot `t` gets `Threads` CPUs (the largest
    /// `Threads` option of the engines, 1 if none), in turn from those the runner may use.
    pub affinity: bool,
    /// With `affinity` and untimed searches only: each slot's thread and its engines change
    /// their scheduling policy so that none preempts another when it wakes ([`cpu`]). Off
    /// unless asked for: it changes how the system schedules the engines.
    pub yield_to_engines: bool,
    /// Print the results block (`Results of …`, `Ptnml(0-2)`) after every this many games
    /// (fastchess's `-ratinginterval`; 0: only at the end).
    pub rating_interval: u32,
}

/// A game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// 1-based, in schedule order (the progress lines' game number).
    pub number: u32,
    /// Index of the pair of engines (in schedule order of pairs).
    pub pair: usize,
    /// The pair's encounter: games `2k` and `2k + 1` of a pair share an opening.
    pub encounter: u32,
    pub first: usize,
    pub second: usize,
    pub opening: usize,
    /// The event's round, 1-based: in a round robin the Berger round (every pairing of it
    /// plays all its games), in a gauntlet the encounter.
    pub round: u32,
    /// The TRF round the game is written in, 1-based (see [`crate::event`]): each engine has at
    /// most one game a TRF round.
    pub trf_round: u32,
}

/// The schedule. A round robin is played as a round-robin event: round by round in the order
/// of FIDE's Berger tables ([`tournament::round_robin::berger`]; an odd field has a bye a
/// round), each pairing of a round playing its `games` games in a row, colours alternating
/// from the table's (game `2k` and `2k + 1` share the `k`-th opening). A gauntlet goes
/// encounter by encounter: each opponent of the first engine plays two games on the
/// encounter's opening, the second with colours reversed.
pub fn schedule(engines: usize, gauntlet: bool, games: u32, openings: usize) -> Vec<Job> {
    let opening = |encounter: u32| {
        if openings == 0 {
            0
        } else {
            encounter as usize % openings
        }
    };
    let mut jobs: Vec<Job> = Vec::new();
    if gauntlet {
        let encounters = games.div_ceil(2);
        for r in 0..encounters {
            for p in 0..engines.saturating_sub(1) {
                for k in 0..2 {
                    if 2 * r + k >= games {
                        break;
                    }
                    let (first, second) = if k == 0 { (0, p + 1) } else { (p + 1, 0) };
                    let number = jobs.len() as u32 + 1;
                    jobs.push(Job {
                        number,
                        pair: p,
                        encounter: r,
                        first,
                        second,
                        opening: opening(r),
                        round: r + 1,
                        // The first engine plays every game.
                        trf_round: number,
                    });
                }
            }
        }
        return jobs;
    }
    let mut pair = 0;
    for (r, boards) in berger(engines as u32).iter().enumerate() {
        for board in boards {
            let Pairing::Game(white, black) = *board else {
                continue;
            };
            let (a, b) = (white as usize - 1, black as usize - 1);
            for g in 0..games {
                let (first, second) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() as u32 + 1,
                    pair,
                    encounter: g / 2,
                    first,
                    second,
                    opening: opening(g / 2),
                    round: r as u32 + 1,
                    trf_round: r as u32 * games + g + 1,
                });
            }
            pair += 1;
        }
    }
    jobs
}

/// A finished game as the match counts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub number: u32,
    pub first: String,
    pub second: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub termination: String,
}

/// The state file of a PGN output (the `journal` module).
pub fn state_path(pgn: &Path) -> PathBuf {
    crate::journal::path(pgn)
}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    Io(String),
    Config(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Io(m) | MatchError::Config(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MatchError {}

pub(crate) fn io_err(what: &str, path: &Path, e: io::Error) -> MatchError {
    MatchError::Io(format!("cannot {what} {}: {e}", path.display()))
}

/// Results counted as the match goes: every engine's, and the first engine's against the
/// others by game and by pair.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Per engine: wins, draws, losses.
    pub standings: Vec<Trinomial>,
    /// The first engine's games.
    pub trinomial: Trinomial,
    /// The first engine's finished pairs.
    pub pentanomial: Pentanomial,
    /// Halves of pairs waiting for their other game: (pair, encounter) → the first engine's
    /// score in the game played.
    halves: HashMap<(usize, u32), f64>,
}

impl Tally {
    fn new(engines: usize) -> Tally {
        Tally {
            standings: vec![Trinomial::default(); engines],
            ..Tally::default()
        }
    }

    fn add(&mut self, job: &Job, result: Outcome) {
        let first_score = match result {
            Outcome::FirstWins => 1.0,
            Outcome::SecondWins => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Ongoing => return,
        };
        for (engine, score) in [(job.first, first_score), (job.second, 1.0 - first_score)] {
            count(&mut self.standings[engine], score);
        }
        // The first engine's view (engine 0); pairs without it are not counted.
        let zero = if job.first == 0 {
            first_score
        } else if job.second == 0 {
            1.0 - first_score
        } else {
            return;
        };
        count(&mut self.trinomial, zero);
        let key = (job.pair, job.encounter);
        match self.halves.remove(&key) {
            Some(other) => self.pentanomial.add_pair(other, zero),
            None => {
                self.halves.insert(key, zero);
            }
        }
    }
}

/// Counts a game scored `score` (0, ½ or 1).
fn count(t: &mut Trinomial, score: f64) {
    if score > 0.75 {
        t.wins += 1;
    } else if score < 0.25 {
        t.losses += 1;
    } else {
        t.draws += 1;
    }
}

/// How a match went.
#[derive(Debug, Clone)]
pub struct Summary {
    pub tally: Tally,
    /// Games finished, including those of an earlier run when resumed.
    pub finished: Vec<Finished>,
    /// Games played by this run.
    pub played: u32,
    pub plies: u64,
    pub overhead: Duration,
    /// The part of the overhead in the runner's own code (see [`Played::work`]).
    pub work: Duration,
    pub engine_time: Duration,
    pub wall: Duration,
    /// The runner process's own CPU time over the match, user and system (all its threads,
    /// never the engines'), where the system tells it (Linux: see `cpu::CpuTime`).
    pub cpu: Option<(Duration, Duration)>,
    pub sprt: Option<(f64, Status)>,
    /// Terminations by code, with counts.
    pub terminations: Vec<(String, u32)>,
}

impl Summary {
    /// The runner's own cost per ply, in microseconds.
    pub fn overhead_per_ply_us(&self) -> f64 {
        if self.plies == 0 {
            0.0
        } else {
            self.overhead.as_secs_f64() * 1e6 / self.plies as f64
        }
    }

    /// The runner's own code per ply, in microseconds (without pipes and wake-ups).
    pub fn work_per_ply_us(&self) -> f64 {
        if self.plies == 0 {
            0.0
        } else {
            self.work.as_secs_f64() * 1e6 / self.plies as f64
        }
    }

    pub fn games_per_minute(&self) -> f64 {
        let mins = self.wall.as_secs_f64() / 60.0;
        if mins > 0.0 {
            self.played as f64 / mins
        } else {
            0.0
        }
    }
}

/// A 64-bit FNV-1a hash, stable across runs and builds (for the state file).
pub fn stable_hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// splitmix64, for shuffling openings reproducibly.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Today's date as PGN writes it (UTC).
pub(crate) fn pgn_date() -> String {
    crate::pgn::date_text(std::time::SystemTime::now())
}

/// The PGN `Round` of a game, as fastchess numbers them: two engines (and a gauntlet) count
/// encounters, the pair of games on one opening sharing a round; a round robin of three or
/// more gives the event's round (Berger tables), which every pairing of it plays.
fn pgn_round(job: &Job, engines: usize, gauntlet: bool) -> u32 {
    if engines == 2 || gauntlet {
        job.encounter + 1
    } else {
        job.round
    }
}

/// The openings' own start positions (the FEN, or the standard start), each checked with its
/// moves played. An opening whose FEN or moves the game does not accept is an error naming
/// its source.
fn start_positions<G: Game>(openings: &[Start]) -> Result<Vec<G>, MatchError> {
    if openings.is_empty() {
        return Ok(vec![G::start()]);
    }
    openings
        .iter()
        .map(|o| {
            let root = match &o.fen {
                Some(f) => G::from_fen(f).map_err(|e| MatchError::Config(format!("{}: bad FEN: {e}", o.source)))?,
                None => G::start(),
            };
            let mut pos = root.clone();
            for (i, text) in o.moves.iter().enumerate() {
                match pos.parse_move(text) {
                    Ok(m) if pos.is_legal(m) => pos.play(m),
                    _ => {
                        return Err(MatchError::Config(format!(
                            "{}: move {} ({text}) is not legal",
                            o.source,
                            i + 1
                        )))
                    }
                }
            }
            Ok(root)
        })
        .collect()
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

fn outcome_of(pgn: &str) -> Outcome {
    match pgn {
        "1-0" => Outcome::FirstWins,
        "0-1" => Outcome::SecondWins,
        "1/2-1/2" => Outcome::Draw,
        _ => Outcome::Ongoing,
    }
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

/// No engine's search is timed (nodes or depth only).
pub fn untimed(config: &MatchConfig) -> bool {
    config
        .engines
        .iter()
        .all(|e| e.control.tc.is_none() && e.control.movetime.is_none())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        let jobs = schedule(2, false, 5, 2);
        let colours: Vec<(usize, usize, usize)> = jobs.iter().map(|j| (j.first, j.second, j.opening)).collect();
        assert_eq!(colours, [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 0)]);
        assert_eq!(jobs.last().unwrap().number, 5);
        assert_eq!(schedule(4, false, 2, 1).len(), 12);
        // Four engines go by the Berger rounds 1-4 2-3 | 4-3 1-2 | 2-4 3-1, each pairing's games
        // in a row from the table's colours; game k of a round's pairings is TRF round k.
        let rr: Vec<(usize, usize, u32, u32)> = schedule(4, false, 2, 1)
            .iter()
            .map(|j| (j.first, j.second, j.round, j.trf_round))
            .collect();
        assert_eq!(
            rr,
            [
                (0, 3, 1, 1),
                (3, 0, 1, 2),
                (1, 2, 1, 1),
                (2, 1, 1, 2),
                (3, 2, 2, 3),
                (2, 3, 2, 4),
                (0, 1, 2, 3),
                (1, 0, 2, 4),
                (1, 3, 3, 5),
                (3, 1, 3, 6),
                (2, 0, 3, 5),
                (0, 2, 3, 6)
            ]
        );
        let gauntlet = schedule(4, true, 2, 1);
        assert_eq!(gauntlet.len(), 6);
        assert!(gauntlet.iter().all(|j| j.first == 0 || j.second == 0));
    }

    #[test]
    fn pairs_are_counted_when_both_games_are_in() {
        let jobs = schedule(2, false, 4, 1);
        let mut t = Tally::new(2);
        t.add(&jobs[0], Outcome::FirstWins);
        assert_eq!(t.pentanomial.pairs(), 0);
        t.add(&jobs[1], Outcome::Draw);
        assert_eq!(t.pentanomial.counts, [0, 0, 0, 1, 0]);
        t.add(&jobs[3], Outcome::FirstWins);
        t.add(&jobs[2], Outcome::FirstWins);
        // Engine 0 won as first and lost as second: one point in the pair.
        assert_eq!(t.pentanomial.counts, [0, 0, 1, 1, 0]);
        assert_eq!((t.trinomial.wins, t.trinomial.draws, t.trinomial.losses), (2, 1, 1));
        assert_eq!(t.standings[1].wins, 1);
    }

    #[test]
    fn shuffles_are_reproducible() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..20).collect::<Vec<_>>());
        assert_eq!(pgn_date().len(), 10);
    }
}
