//! One engine game under the referee: two engines, a judge, a time control, adjudication.
//!
//! The game's clock is the sum of the engines' measured thinking times ([`Reply::elapsed`]),
//! not the wall clock: the runner's own work between moves (and a slow or busy machine) never
//! costs an engine time. Each ply the mover gets its limits from the referee's clocks, the
//! moves the rules forbid now (UCCI `banmoves`, UCI `searchmoves`), and a deadline of its time
//! left plus a margin; its reply goes to the referee as a move at the accumulated time. Every
//! ending by the rules (checkmate, stalemate, perpetual check and chase, repetition draws, the
//! move limits, dead positions, flags) is the referee's and the judge's; the runner adds only
//! what they cannot see: crashed and hung engines, and adjudication by the engines' scores.
//!
//! The limits and rules games are played under are in `control`, the runner's adjudication in
//! `adjudication`; this file plays the game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use game::{BySide, Game, Kind, Side};
use judge::{forbidden_moves, Judge, Outcome};
use referee::clock::Millis;
use referee::{Command, EndReason, EventKind, Referee};

use crate::pgn::{GameRecord, MoveInfo, PgnOptions};
use engine::{Engine, EngineError, Go, Limits, MoveText, Reply};

mod adjudication;
mod control;

pub use adjudication::Adjudication;
use adjudication::{adjudicate, tablebase, RunnerEnd, Scores};
pub use control::{engine_rules, seconds, Control, Tc};

/// One game to play.
pub struct GameSetup<'a, G: Game> {
    /// The opening's own start position: the record's, the judge's and the engines' root.
    pub root: &'a G,
    /// The opening's moves from `root` (the project's coordinates), played before the engines
    /// take over: the judge's history, the engines' `position … moves`, the PGN's `{book}`
    /// moves, and counted for `max_moves`.
    pub opening: &'a [String],
    /// The limits of the first and second side's engines (the referee's clock is the first's).
    pub controls: BySide<&'a Control>,
    pub adjudication: &'a Adjudication,
    /// PGN tags before Result (Event, Site, Date, Round, the players …).
    pub tags: &'a [(String, String)],
    pub pgn: PgnOptions,
    /// Set when the match has stopped (an SPRT decided): the game ends before its next ply,
    /// unfinished, and is not counted.
    pub stop: Option<&'a AtomicBool>,
}

/// How a game ended and its record.
#[derive(Debug, Clone)]
pub struct Played {
    /// `Ongoing` only when the game could not be played to a result (a runner error).
    pub result: Outcome,
    /// The reason as a code: the judge's (`checkmate`, `perpetual_check` …), the referee's
    /// (`time`, `resignation`, `agreement`, `illegal_move`), or the runner's (`crash`,
    /// `adjudicated_resign`, `adjudicated_draw`, `adjudicated_tablebase`, `max_moves`, `error`).
    pub termination: String,
    pub explanation: String,
    pub pgn: String,
    /// Plies the engines played.
    pub plies: u32,
    /// The runner's own time over the game: each ply's wall time less the engine's thinking
    /// as measured at the pipe (so writing the request and waking up after `bestmove` count).
    pub overhead: Duration,
    /// The part of `overhead` spent in the runner's own code: limits, banned moves, the
    /// referee and the judge, adjudication (not the request, the pipes or the wake-up).
    pub work: Duration,
    /// The engines' thinking time, summed.
    pub engine_time: Duration,
    /// The engine of each side failed (crashed, hung, broke the protocol): it should be
    /// restarted before its next game.
    pub failed: BySide<bool>,
}

/// Plays one game between `engines` (first side's, second side's) under a referee with
/// `judge` (built on `setup.root`; the opening's moves are played into it first, so they are
/// the game's history). Engines are told a new game starts; an engine that fails loses the
/// game and is marked in [`Played::failed`]. The PGN is the engine-match one ([`crate::pgn`]).
pub fn play_game<J: Judge + Clone>(
    judge: J,
    mut engines: BySide<&mut Engine<J::Game>>,
    setup: &GameSetup<'_, J::Game>,
) -> Played {
    let kind = <J::Game as Game>::KIND;
    let mut failed = BySide::both(false);
    let control = setup.controls.first;
    let started = SystemTime::now();
    let clock_start = Instant::now();
    let (judge, book, mut moves) = play_opening(judge, setup.opening);
    let mut referee = Referee::new(judge, engine_rules(control.time_control()));
    // The PGN works out the notation after the game ([`crate::pgn::write`]).
    referee.set_live_notation(false);
    let start_fen = {
        let fen = setup.root.fen();
        (fen != <J::Game as Game>::start().fen()).then_some(fen)
    };
    // Every move from the root: the opening's, then the engines', in coordinates as the game
    // writes them (the engines get them as they are: see `Go::checked`). Held inline, so that
    // the engine's check that a request continues its game reads one run of memory.
    moves.reserve(256);
    let mut infos: Vec<MoveInfo> = Vec::with_capacity(256);
    let mut scores = Scores::default();
    let mut runner_end: Option<RunnerEnd> = None;
    let mut overhead = Duration::ZERO;
    let mut work = Duration::ZERO;
    let mut engine_time = Duration::ZERO;
    let mut plies = 0u32;
    // The game's time in microseconds: the engines' thinking, summed.
    let mut now_us: u64 = 0;
    // When the mover's clock started: the game's time of the last move, in milliseconds.
    let mut turn_began: Millis = 0;
    let mut offer_standing = false;

    for side in Side::BOTH {
        if let Err(err) = engines[side].new_game() {
            failed[side] = true;
            runner_end = Some(failure(kind, side, &err));
            break;
        }
    }
    referee.apply(0, Side::First, Command::Start);

    // Each ply's end is the next one's start: one reading of the clock serves both.
    let mut ply_start = Instant::now();
    while runner_end.is_none() && referee.ending().is_none() {
        if setup.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            runner_end = Some(RunnerEnd {
                result: Outcome::Ongoing,
                code: "interrupted",
                explanation: "the match stopped before this game ended".into(),
            });
            break;
        }
        let now = now_us / 1000;
        let pos = referee.judge().position();
        let side = pos.turn();
        let mine = setup.controls[side];
        let clock = referee.clock();
        let left = |s: Side| clock.remaining(s, now).main;
        let mut limits = Limits {
            movetime: mine.movetime,
            nodes: mine.nodes,
            depth: mine.depth,
            ..Limits::default()
        };
        // How long the mover may think before its flag falls.
        let mut allowance: Option<Millis> = mine.movetime;
        if let Some(tc) = control.tc {
            limits.wtime = Some(left(Side::First));
            limits.btime = Some(left(Side::Second));
            limits.winc = Some(tc.increment);
            limits.binc = Some(tc.increment);
            if let Some(n) = tc.moves {
                limits.movestogo = Some(n - clock.moves(side) % n);
            }
            let main = left(side);
            allowance = Some(allowance.map_or(main, |a| a.min(main)));
        }
        let banned_moves = forbidden_moves(referee.judge());
        let legal = || {
            let judge = referee.judge();
            judge.legal_moves_now().map_or_else(|| pos.count_legal(), <[_]>::len)
        };
        let banned: Vec<String> = if banned_moves.is_empty() || banned_moves.len() >= legal() {
            Vec::new()
        } else {
            banned_moves.iter().map(|&m| pos.coordinate(m)).collect()
        };
        let banned_refs: Vec<&str> = banned.iter().map(String::as_str).collect();
        let wait = Duration::from_millis(match allowance {
            Some(a) => a + control.margin.max(mine.margin),
            None => mine.timeout,
        });
        let go = Go {
            start_fen: start_fen.as_deref(),
            moves: &moves,
            banned: &banned_refs,
            limits,
            draw_offered: offer_standing,
            // The referee accepted each move and wrote it in coordinates.
            checked: true,
            // A match needs the move only.
            pv: false,
        };
        let asked = Instant::now();
        let reply = engines[side].go(&go, asked + wait);
        let answered = Instant::now();
        let reply: Reply = match reply {
            Ok(r) => r,
            Err(err) => {
                failed[side] = true;
                overhead += asked - ply_start;
                work += asked - ply_start;
                engine_time += answered - asked;
                match (&err, allowance) {
                    // The referee rules the flag (a draw when the other side cannot win).
                    (EngineError::Timeout { .. }, Some(a)) => {
                        let at = now + a + control.margin + 1;
                        referee.apply(at, side, Command::Tick);
                        if referee.ending().is_none() {
                            runner_end = Some(failure(kind, side, &err));
                        }
                    }
                    _ => runner_end = Some(failure(kind, side, &err)),
                }
                break;
            }
        };
        engine_time += reply.elapsed;
        now_us += reply.elapsed.as_micros() as u64;
        let at = now_us / 1000;
        let name = side.name(kind);
        if reply.resign {
            referee.apply(at, side, Command::Resign);
        } else if offer_standing && reply.draw {
            referee.apply(at, side, Command::AcceptDraw);
        } else if let Some(best) = reply.best {
            // Within the margin past its time, the mover is charged only the time it had. What
            // the clock charges is the game's time since the turn began, whole milliseconds
            // of a microsecond sum: the reply's own rounded time can be a millisecond less.
            let used = at.saturating_sub(turn_began);
            let lag = match allowance {
                Some(a) if used > a => (used - a).min(control.margin.max(mine.margin)),
                _ => 0,
            };
            let events = referee.apply(
                at,
                side,
                Command::LaggedMove {
                    text: best.as_str().into(),
                    offering: reply.draw,
                    lag,
                },
            );
            offer_standing = false;
            turn_began = at;
            for e in events {
                match &e.kind {
                    EventKind::MoveAccepted { coordinate, .. } => match MoveText::new(coordinate) {
                        Some(m) => {
                            moves.push(m);
                            infos.push(MoveInfo {
                                score: reply.score,
                                depth: reply.depth,
                                nodes: reply.nodes,
                                elapsed: reply.elapsed,
                            });
                            plies += 1;
                        }
                        // No game writes such a move; should one, the game stops rather
                        // than send the engines a wrong position.
                        None => {
                            runner_end = Some(RunnerEnd {
                                result: Outcome::Ongoing,
                                code: "error",
                                explanation: format!("the move {coordinate:?} is too long to pass on to an engine"),
                            })
                        }
                    },
                    EventKind::DrawOffered { .. } => offer_standing = true,
                    _ => {}
                }
            }
            scores.record(side, reply.score, setup.adjudication);
        } else {
            // No move where the rules see one (the referee ends games without moves).
            failed[side] = true;
            runner_end = Some(RunnerEnd {
                result: Outcome::win(!side),
                code: "illegal_move",
                explanation: format!("{name} gave no move (bestmove (none)) and loses"),
            });
        }
        if referee.ending().is_none() && runner_end.is_none() {
            // Draws the rules let a player claim (threefold repetition, fifty moves, an
            // innocent Xiangqi repetition) are claimed once they stand on the board, as match
            // runners do — not ones the side to move could make by announcing its next move,
            // which an engine may rather play on past (it found mates that way).
            if referee.judge().claimable_now().is_some() {
                let to_move = referee.judge().position().turn();
                referee.apply(at, to_move, Command::ClaimDraw);
            }
        }
        if referee.ending().is_none() && runner_end.is_none() {
            runner_end = tablebase(setup.adjudication, referee.judge().position())
                .or_else(|| adjudicate(&scores, setup, referee.judge().ply() as u32, side, kind));
        }
        // The runner's own time this ply: everything but the engine's thinking as measured at
        // the pipe (so the request's writing and the wake-up after `bestmove` count here).
        let end = Instant::now();
        overhead += (end - ply_start).saturating_sub(reply.elapsed);
        work += (asked - ply_start) + (end - answered);
        ply_start = end;
    }

    let (result, termination, explanation) = match (&runner_end, referee.ending()) {
        (Some(r), _) => (r.result, r.code.to_string(), r.explanation.clone()),
        (None, Some(e)) => {
            // The engine-match spelling of a loss by illegal moves (fastchess's, singular).
            let code = match e.reason {
                EndReason::IllegalMoves => "illegal_move",
                _ => referee::rule_code(e),
            };
            (e.result, code.to_string(), e.explanation.clone())
        }
        (None, None) => (
            Outcome::Ongoing,
            "error".to_string(),
            "the game did not end".to_string(),
        ),
    };
    let pgn = crate::pgn::write(
        &referee,
        &GameRecord {
            tags: setup.tags,
            root: setup.root,
            book: &book,
            moves: &infos,
            result,
            termination: &termination,
            runner_end: runner_end.as_ref().map(|r| r.explanation.as_str()),
            controls: setup.controls,
            started,
            ended: SystemTime::now(),
            duration: clock_start.elapsed(),
            options: setup.pgn,
        },
    );
    Played {
        result,
        termination,
        explanation,
        pgn,
        plies,
        overhead,
        work,
        engine_time,
        failed,
    }
}

/// The game lost by `side` before a move: its engine could not be started.
pub fn forfeit<J: Judge + Clone>(judge: J, setup: &GameSetup<'_, J::Game>, side: Side, err: &EngineError) -> Played {
    let kind = <J::Game as Game>::KIND;
    let now = SystemTime::now();
    let (judge, book, _) = play_opening(judge, setup.opening);
    let mut referee = Referee::new(judge, engine_rules(setup.controls.first.time_control()));
    referee.apply(0, Side::First, Command::Start);
    let end = failure(kind, side, err);
    let pgn = crate::pgn::write(
        &referee,
        &GameRecord {
            tags: setup.tags,
            root: setup.root,
            book: &book,
            moves: &[],
            result: end.result,
            termination: end.code,
            runner_end: Some(&end.explanation),
            controls: setup.controls,
            started: now,
            ended: now,
            duration: Duration::ZERO,
            options: setup.pgn,
        },
    );
    let mut failed = BySide::both(false);
    failed[side] = true;
    Played {
        result: end.result,
        termination: end.code.to_string(),
        explanation: end.explanation,
        pgn,
        plies: 0,
        overhead: Duration::ZERO,
        work: Duration::ZERO,
        engine_time: Duration::ZERO,
        failed,
    }
}

/// The judge (built on the opening's root) with the opening's moves played, those moves, and
/// them in coordinates as the game writes them. The runner checked the moves; should the judge
/// end the game within them, the opening stops there and the referee rules that ending at the
/// start.
fn play_opening<J: Judge>(mut judge: J, opening: &[String]) -> (J, Vec<<J::Game as Game>::Move>, Vec<MoveText>) {
    let mut book = Vec::with_capacity(opening.len());
    let mut coordinates = Vec::with_capacity(opening.len());
    for text in opening {
        if judge.verdict().is_some() {
            break;
        }
        let pos = judge.position();
        let Ok(m) = pos.parse_move(text) else { break };
        if !pos.is_legal(m) {
            break;
        }
        // Every game's coordinates fit (a few ASCII bytes).
        let Some(coordinate) = MoveText::new(&pos.coordinate_inline(m)) else {
            break;
        };
        if judge.push(m).is_err() {
            break;
        }
        book.push(m);
        coordinates.push(coordinate);
    }
    (judge, book, coordinates)
}

/// The loss of the side whose engine failed.
fn failure(kind: Kind, side: Side, err: &EngineError) -> RunnerEnd {
    let name = side.name(kind);
    let (code, what) = match err {
        EngineError::Timeout { .. } => ("time", "did not move in time"),
        EngineError::Protocol(_) => ("illegal_move", "broke the protocol"),
        EngineError::Request(_) => ("error", "could not be asked for a move"),
        _ => ("crash", "crashed"),
    };
    RunnerEnd {
        result: Outcome::win(!side),
        code,
        explanation: format!("{name}'s engine {what} ({err}) and loses"),
    }
}
