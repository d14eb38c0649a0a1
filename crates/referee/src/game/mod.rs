//! One game's state machine. Commands go in with the time they happened; events come out, each
//! with its version number (its place in the game's event log), so a client that reconnects
//! asks for what came after the last version it saw, and a game replays from its command log.
//!
//! ```
//! use game::{BySide, Game, Side};
//! use judge::xiangqi::{Rules, XiangqiJudge};
//! use referee::{Command, EventKind, Referee, RefereeRules};
//!
//! let start = xiangqi::Position::start();
//! let mut game = Referee::new(XiangqiJudge::new(start, Rules::cxa()), RefereeRules::cxa());
//! game.apply(0, Side::First, Command::Start);
//! let events = game.apply(5_000, Side::First, Command::Move("炮二平五".into()));
//! assert!(matches!(&events[0].kind, EventKind::MoveAccepted { coordinate, .. } if coordinate == "h2e2"));
//! let events = game.apply(9_000, Side::Second, Command::Resign);
//! assert!(matches!(&events[0].kind, EventKind::GameOver(e) if e.result.name(game::Kind::Xiangqi) == "red"));
//! ```
//!
//! This file holds the state and the dispatch of commands; each concept has its own file:
//! `moves` (reading, touch-move, the judge's ruling), `offers` (draw offers), `claims`,
//! `fouls` and their limits, `finish` (endings, flags, lateness), `corrections` (the arbiter's
//! corrections and time corrections).

mod claims;
mod corrections;
mod finish;
mod fouls;
mod moves;
mod offers;
mod takebacks;

use game::{BySide, Game, Side};
use judge::{Judge, Outcome};

use crate::clock::{Clock, Millis};
use crate::events::{Command, EndReason, Ending, Event, EventKind, FoulKind};
use crate::rules::RefereeRules;
use crate::touch::Touch;
use crate::why::Why;

use fouls::Fouls;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotStarted,
    Playing,
    Adjourned,
    Over,
}

/// One game under a referee.
#[derive(Debug, Clone)]
pub struct Referee<J: Judge> {
    rules: RefereeRules,
    judge: J,
    /// The judge as the game began: a correction replays the moves that stand on a copy.
    initial: J,
    /// The moves that stand, in order (a correction takes some back).
    played: Vec<<J::Game as Game>::Move>,
    clock: Clock,
    phase: Phase,
    started_at: Millis,
    /// Time spent adjourned since the start, and since when the game is adjourned.
    paused: Millis,
    adjourned_at: Option<Millis>,
    /// Moves made by each side (for lateness).
    moved: BySide<bool>,
    /// A standing offer by this side, awaiting the other's answer.
    offer: Option<Side>,
    /// May this side offer (false after its offer was declined, until the other offers).
    may_offer: BySide<bool>,
    fouls: BySide<Fouls>,
    /// A standing takeback request: by this side, back to the position after this many plies.
    takeback: Option<(Side, usize)>,
    /// A rated game: takebacks are off whatever the rules say ([`Self::set_rated`]).
    rated: bool,
    /// A game of a competition (an event's): takebacks are off ([`Self::set_competition`]).
    competition: bool,
    touches: Vec<Touch>,
    /// The capture phase: plies up to the last capture (false claims count per phase).
    phase_start: usize,
    ending: Option<Ending>,
    told_to_vary: bool,
    /// Whether each accepted move's notation is written as it is made ([`Self::set_live_notation`]).
    live_notation: bool,
    events: Vec<Event>,
    log: Vec<(Millis, Side, Command)>,
}

impl<J: Judge> Referee<J> {
    pub fn new(judge: J, rules: RefereeRules) -> Referee<J> {
        Referee {
            clock: Clock::new(rules.time.clone()),
            rules,
            initial: judge.clone(),
            judge,
            played: Vec::new(),
            phase: Phase::NotStarted,
            started_at: 0,
            paused: 0,
            adjourned_at: None,
            moved: BySide::both(false),
            offer: None,
            may_offer: BySide::both(true),
            fouls: BySide::default(),
            takeback: None,
            rated: false,
            competition: false,
            touches: Vec::new(),
            phase_start: 0,
            ending: None,
            told_to_vary: false,
            live_notation: true,
            events: Vec::new(),
            log: Vec::new(),
        }
    }

    pub fn judge(&self) -> &J {
        &self.judge
    }

    pub fn rules(&self) -> &RefereeRules {
        &self.rules
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// With `false`, accepted moves come with an empty `notation` (their `coordinate` is there
    /// as always): for a caller that writes the record after the game, replaying the moves,
    /// and would rather not have notation worked out while the game runs. An engine match does
    /// so: worked out between two engine searches, notation is code run cold every ply (issue
    /// 8, BENCHMARKS.md). [`Self::pgn`] then writes the moves in coordinates.
    pub fn set_live_notation(&mut self, on: bool) {
        self.live_notation = on;
    }

    /// Marks the game rated (or not): a rated game takes no takebacks. Set before the first
    /// command, as the game is made, so a replay of its log rules the same.
    pub fn set_rated(&mut self, rated: bool) {
        self.rated = rated;
    }

    /// Marks the game one of a competition (an event's game), where takebacks are off whatever
    /// the rules say. Set before the first command, as [`Self::set_rated`].
    pub fn set_competition(&mut self, competition: bool) {
        self.competition = competition;
    }

    /// Whether `side` may ask for a takeback now: the game in play, takebacks allowed, and a
    /// move of its own standing to take back.
    pub fn may_propose_takeback(&self, side: Side) -> bool {
        self.phase == Phase::Playing && self.takebacks_off().is_none() && self.takeback_target(side).is_some()
    }

    /// The standing takeback request: by this side, back to the position after that many plies.
    pub fn takeback(&self) -> Option<(Side, usize)> {
        self.takeback
    }

    /// Whether `side` may offer a draw now (false after its offer was declined, until the
    /// opponent has offered): a page hides its offer button then.
    pub fn may_offer_draw(&self, side: Side) -> bool {
        self.phase == Phase::Playing && self.may_offer[side]
    }

    /// Every event so far; `events()[v]` has version `v`.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The commands applied, with their times: replaying them gives the same events.
    pub fn log(&self) -> &[(Millis, Side, Command)] {
        &self.log
    }

    /// When the next thing happens by itself (a flag falls, lateness runs out): the one timer
    /// a server needs for this game.
    pub fn wake_at(&self) -> Option<Millis> {
        if self.phase != Phase::Playing {
            return None;
        }
        let late = self.lateness_deadline();
        match (self.clock.flag_time(), late) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn emit(&mut self, at: Millis, kind: EventKind) {
        let version = self.events.len() as u64;
        self.events.push(Event { version, at, kind });
    }

    fn name(side: Side) -> &'static str {
        side.name(<J::Game as Game>::KIND)
    }

    /// Applies a command at time `at` by `side` and returns the events it caused.
    pub fn apply(&mut self, at: Millis, side: Side, command: Command) -> &[Event] {
        let first = self.events.len();
        // Time never runs backwards: a command stamped before the last is taken as simultaneous.
        let at = at.max(self.log.last().map_or(0, |&(t, _, _)| t));
        self.dispatch(at, side, &command);
        self.log.push((at, side, command));
        &self.events[first..]
    }

    fn dispatch(&mut self, at: Millis, side: Side, command: &Command) {
        if self.phase == Phase::Playing {
            // A lagged move's own flag is ruled at the moment it was made.
            let credit = match command {
                Command::LaggedMove { lag, .. } if self.clock.running() == Some(side) => *lag,
                _ => 0,
            };
            self.rule_time(at, credit);
        }
        if self.phase == Phase::Over || (self.phase == Phase::NotStarted && *command != Command::Start) {
            let (code, reason) = if self.phase == Phase::Over {
                (Why::GameOver, "the game is over")
            } else {
                (Why::NotStarted, "the game has not started")
            };
            if *command != Command::Tick {
                self.refuse(at, side, code, reason.to_string());
            }
            return;
        }
        // Adjourned, nothing is played at the board: no move, touch or clock until it resumes.
        // A player may still resign or agree a draw, and the arbiter correct.
        if self.phase == Phase::Adjourned
            && matches!(
                command,
                Command::Move(_)
                    | Command::MoveOfferingDraw(_)
                    | Command::LaggedMove { .. }
                    | Command::Touch(_)
                    | Command::Straighten { .. }
                    | Command::PressClock
                    | Command::ClaimDraw
                    | Command::ClaimTime
                    | Command::ProposeTakeback
                    | Command::AcceptTakeback
            )
        {
            self.refuse(at, side, Why::Adjourned, "the game is adjourned".to_string());
            return;
        }
        match command {
            Command::Start => self.start(at, side),
            Command::Tick => {}
            Command::ProposeTakeback => self.propose_takeback(at, side),
            Command::AcceptTakeback => self.accept_takeback(at, side),
            Command::DeclineTakeback => self.decline_takeback(at, side),
            Command::Move(text) => self.play(at, side, text, false, 0),
            Command::MoveOfferingDraw(text) => self.play(at, side, text, true, 0),
            Command::LaggedMove { text, offering, lag } => self.play(at, side, text, *offering, *lag),
            Command::OfferDraw => self.offer(at, side),
            Command::AcceptDraw => self.accept(at, side),
            Command::DeclineDraw => self.decline(at, side),
            Command::Resign => self.end(
                at,
                Outcome::win(!side),
                EndReason::Resignation,
                format!("{} resigned", Self::name(side)),
                None,
            ),
            Command::ClaimDraw => self.claim_draw(at, side),
            Command::ClaimTime => self.claim_time(at, side),
            Command::Touch(t) => self.touch(at, side, t.clone()),
            Command::TechnicalFoul(what) => self.foul(at, side, FoulKind::Technical, Why::ArbiterFoul, what.clone()),
            Command::RefusesRules => self.end(
                at,
                Outcome::win(!side),
                EndReason::RefusedRules,
                format!(
                    "{} refused to abide by the rules (4.1: 拒绝遵守本规则)",
                    Self::name(side)
                ),
                None,
            ),
            Command::PressClock => self.foul(
                at,
                side,
                FoulKind::ClockPress,
                Why::ClockPress,
                "pressed the clock without moving".into(),
            ),
            Command::Adjourn => {
                if self.phase == Phase::Playing {
                    if let Err(flag) = self.clock.stop(at) {
                        self.flag_fell(flag);
                    } else {
                        self.phase = Phase::Adjourned;
                        self.adjourned_at = Some(at);
                        self.emit(at, EventKind::Adjourned);
                    }
                }
            }
            Command::Resume => {
                if self.phase == Phase::Adjourned {
                    self.phase = Phase::Playing;
                    self.paused += self.adjourned_at.take().map_or(0, |since| at.saturating_sub(since));
                    self.clock.start(self.judge.position().turn(), at);
                    self.emit(at, EventKind::Resumed);
                }
            }
            Command::Abort => self.end(
                at,
                Outcome::Ongoing,
                EndReason::Aborted,
                "the game was aborted".into(),
                None,
            ),
            Command::Straighten { touch, how } => self.straighten(at, side, touch.clone(), *how),
            Command::Correct(c) => self.correct(at, side, *c),
            Command::AddTime { ms, reason } => self.correct_time(at, side, *ms, true, reason),
            Command::SetTime { ms, reason } => self.correct_time(at, side, *ms, false, reason),
            Command::Decide {
                result: Outcome::Ongoing,
                reason,
            } => self.end(
                at,
                Outcome::Ongoing,
                EndReason::CalledOff,
                format!("the arbiter called the game off: {reason}"),
                None,
            ),
            Command::Decide { result, reason } => self.end(
                at,
                *result,
                EndReason::Arbiter,
                format!("the arbiter's decision: {reason}"),
                None,
            ),
        }
    }

    fn start(&mut self, at: Millis, _side: Side) {
        if self.phase != Phase::NotStarted {
            return;
        }
        self.started_at = at;
        self.phase = Phase::Playing;
        let first = self.judge.position().turn();
        self.clock.start(first, at);
        self.emit(at, EventKind::Started { first });
        // A start position the judge has already ruled on (no legal move, dead position).
        if let Some(v) = self.judge.verdict().cloned() {
            self.end_ruled(at, v, None);
        }
    }

    fn not_your_turn(&mut self, at: Millis, side: Side) -> bool {
        if self.judge.position().turn() != side {
            self.refuse(at, side, Why::NotYourTurn, "not this side's turn".into());
            return true;
        }
        false
    }

    /// A command refused because of the game's state: `code` says why, `reason` in English.
    fn refuse(&mut self, at: Millis, side: Side, code: Why, reason: String) {
        self.emit(at, EventKind::Refused { by: side, reason, code });
    }
}
