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

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use game::{BySide, Game, Kind, Side};
use judge::{forbidden_moves, Judge, Outcome};
use referee::clock::{Millis, Stage, TimeControl};
use referee::{Command, EndReason, EventKind, FoulKind, OfferPenalty, Referee, RefereeRules};

use crate::pgn::{GameRecord, MoveInfo, PgnOptions};
use crate::syzygy::Syzygy;
use engine::{Engine, EngineError, Go, Limits, MoveText, Reply, Score};

/// A time control as match runners write it: `40/60+0.6` (40 moves in 60 s, 0.6 s a move
/// added), `10+0.1`, `60`. Times are milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tc {
    /// Moves per period (the period repeats); `None`: the whole game.
    pub moves: Option<u32>,
    pub time: Millis,
    pub increment: Millis,
}

impl Tc {
    /// Reads `[moves/]time[+increment]`, times in seconds (`1:30` for minutes and seconds).
    pub fn parse(s: &str) -> Result<Tc, String> {
        let bad = || format!("bad time control {s:?} (expected e.g. 40/60+0.6, 10+0.1 or 60)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, s),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((t, i)) => (t, Some(i)),
            None => (rest, None),
        };
        let time = match time.split_once(':') {
            Some((m, sec)) => seconds(m).ok_or_else(bad)? * 60 + seconds(sec).ok_or_else(bad)?,
            None => seconds(time).ok_or_else(bad)?,
        };
        let increment = inc.map(|i| seconds(i).ok_or_else(bad)).transpose()?.unwrap_or(0);
        if moves == Some(0) {
            return Err(bad());
        }
        Ok(Tc { moves, time, increment })
    }
}

/// Seconds (a decimal) as milliseconds.
pub fn seconds(s: &str) -> Option<Millis> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as Millis)
}

/// What limits an engine's moves: a clock, a fixed time per move, nodes, depth (any mix: all
/// are sent to the engine; the clock and the time per move are the referee's too).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Control {
    pub tc: Option<Tc>,
    /// `st`: milliseconds per move.
    pub movetime: Option<Millis>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// How far past its time an engine may answer without losing on time (fastchess's
    /// `timemargin`): a move within the margin is charged only the time that was left.
    pub margin: Millis,
    /// The longest wait for a move when no clock limits it (nodes or depth only).
    pub timeout: Millis,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            tc: None,
            movetime: None,
            nodes: None,
            depth: None,
            margin: 100,
            timeout: 30_000,
        }
    }
}

impl Control {
    /// The referee's time control for this control.
    pub fn time_control(&self) -> TimeControl {
        let mut tc = match self.tc {
            Some(tc) => TimeControl::stages(vec![Stage {
                moves: tc.moves,
                time: tc.time,
                increment: tc.increment,
                bronstein: 0,
            }]),
            None => TimeControl::unlimited(),
        };
        tc.per_move = self.movetime;
        tc
    }
}

/// Ending games by the engines' own scores (as fastchess's `-resign`, `-draw`, `-maxmoves`),
/// and chess games by Syzygy tablebases (`-tb`, [`crate::syzygy`]).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// `(movecount, score)`: a side loses when its score has been ≤ −score for `movecount`
    /// consecutive moves and the opponent's ≥ score for as many.
    pub resign: Option<(u32, i32)>,
    /// `(movenumber, movecount, score)`: a draw from move `movenumber` on, when both sides'
    /// scores have been within ±score for `movecount` consecutive moves each.
    pub draw: Option<(u32, u32, i32)>,
    /// A draw after this many moves (each side's), counting the opening's.
    pub max_moves: Option<u32>,
    /// Syzygy tables (chess only): a position they know ends the game, before the other
    /// adjudications are looked at (as in fastchess).
    pub tablebase: Option<Arc<Syzygy>>,
}

impl std::fmt::Debug for Adjudication {
    /// As derived, with `tablebase` only when set (the text is part of a match's identity for
    /// `--resume`, which matches without tables keep).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Adjudication");
        d.field("resign", &self.resign)
            .field("draw", &self.draw)
            .field("max_moves", &self.max_moves);
        if let Some(tb) = &self.tablebase {
            d.field("tablebase", tb);
        }
        d.finish()
    }
}

/// The referee's rules for engine games: the match's time control, one illegal move loses,
/// offers go with a move (UCCI `bestmove … draw`), no touch-move or lateness.
pub fn engine_rules(time: TimeControl) -> RefereeRules {
    RefereeRules {
        name: "engine",
        description: "engine match: the first illegal move loses, offers with a move, no touch-move",
        time,
        illegal_moves_lose_at: Some(1),
        technical_fouls_lose_at: None,
        clock_presses_lose_at: None,
        false_limit_claims_lose_at: None,
        illegal_move_counts_as: FoulKind::IllegalMove,
        extra_move_counts_as: None,
        false_claim_counts_as: FoulKind::FalseClaim,
        // A `bestmove` that is no move loses, as cutechess and fastchess rule it.
        unreadable_move_counts_as: Some(FoulKind::IllegalMove),
        false_claim_bonus: None,
        offer_with_move: true,
        repeated_offer: OfferPenalty::Warning,
        touch_move: false,
        check_reply_with_same_piece: false,
        lateness: None,
    }
}

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

/// A score in centipawns for adjudication (mates as very large scores).
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Counts of consecutive moves by score, per side.
#[derive(Default)]
struct Scores {
    low: BySide<u32>,
    high: BySide<u32>,
    quiet: BySide<u32>,
}

impl Scores {
    fn record(&mut self, side: Side, score: Option<Score>, adj: &Adjudication) {
        let cp = score.map(centipawns);
        if let Some((_, s)) = adj.resign {
            self.low[side] = if cp.is_some_and(|c| c <= -s) {
                self.low[side] + 1
            } else {
                0
            };
            self.high[side] = if cp.is_some_and(|c| c >= s) {
                self.high[side] + 1
            } else {
                0
            };
        }
        if let Some((_, _, s)) = adj.draw {
            self.quiet[side] = if cp.is_some_and(|c| c.abs() <= s) {
                self.quiet[side] + 1
            } else {
                0
            };
        }
    }
}

/// The runner's own ending (the referee saw none).
struct RunnerEnd {
    result: Outcome,
    code: &'static str,
    explanation: String,
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
            let code = match (&e.verdict, e.reason) {
                (Some(v), EndReason::Rules | EndReason::Claim) => v.reason.code(),
                (_, EndReason::IllegalMoves) => "illegal_move",
                (_, reason) => reason.code(),
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

/// Adjudication by Syzygy tablebases of the position after a move (chess only).
fn tablebase<G: Game>(adj: &Adjudication, pos: &G) -> Option<RunnerEnd> {
    let tables = adj.tablebase.as_deref()?;
    let pos = (pos as &dyn Any).downcast_ref::<chess::Position>()?;
    let verdict = tables.adjudicate(pos.inner())?;
    Some(RunnerEnd {
        result: match verdict.winner {
            Some(chess::shakmaty::Color::White) => Outcome::FirstWins,
            Some(chess::shakmaty::Color::Black) => Outcome::SecondWins,
            None => Outcome::Draw,
        },
        code: "adjudicated_tablebase",
        explanation: verdict.explanation(),
    })
}

/// Adjudication after `mover`'s move at `ply` (of the game from the opening's root).
fn adjudicate<G: Game>(
    scores: &Scores,
    setup: &GameSetup<'_, G>,
    ply: u32,
    mover: Side,
    kind: Kind,
) -> Option<RunnerEnd> {
    let adj = setup.adjudication;
    if let Some((count, score)) = adj.resign {
        for loser in [mover, !mover] {
            if scores.low[loser] >= count && scores.high[!loser] >= count {
                return Some(RunnerEnd {
                    result: Outcome::win(!loser),
                    code: "adjudicated_resign",
                    explanation: format!(
                        "adjudicated: {} resigns (score ≤ -{score} for {count} moves, confirmed by the opponent)",
                        loser.name(kind)
                    ),
                });
            }
        }
    }
    let total = ply;
    if let Some((number, count, score)) = adj.draw {
        if total / 2 + 1 >= number && scores.quiet.first >= count && scores.quiet.second >= count {
            return Some(RunnerEnd {
                result: Outcome::Draw,
                code: "adjudicated_draw",
                explanation: format!("adjudicated: draw (both scores within ±{score} for {count} moves)"),
            });
        }
    }
    if let Some(n) = adj.max_moves {
        if total >= 2 * n {
            return Some(RunnerEnd {
                result: Outcome::Draw,
                code: "max_moves",
                explanation: format!("adjudicated: max moves ({n})"),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            Tc::parse("40/60+0.6").unwrap(),
            Tc {
                moves: Some(40),
                time: 60_000,
                increment: 600
            }
        );
        assert_eq!(
            Tc::parse("10+0.1").unwrap(),
            Tc {
                moves: None,
                time: 10_000,
                increment: 100
            }
        );
        assert_eq!(Tc::parse("1:30").unwrap().time, 90_000);
        assert!(Tc::parse("0/10").is_err() && Tc::parse("x").is_err());
    }
}
