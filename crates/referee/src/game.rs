//! One game's state machine. Commands go in with the time they happened; events come out, each
//! with its version number (its place in the game's event log), so a client that reconnects
//! asks for what came after the last version it saw, and a game replays from its command log.
//!
//! ```
//! use game::{Game, Side};
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

use game::{CompactString, Game, Side};
use judge::{Judge, Outcome, Verdict};
use serde::Serialize;

use crate::clock::{Clock, Flag, Millis, Remaining};
use crate::rules::{OfferPenalty, RefereeRules};
use crate::touch::{obligation, Touch};

/// What a player (or the arbiter, for touches and fouls) does. The side is given with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Command {
    /// The game starts: the first side's clock runs.
    Start,
    /// A move in any notation the game reads.
    Move(String),
    /// A move together with a draw offer.
    MoveOfferingDraw(String),
    /// A move that reached the server `lag` ms after the player made it (online play's lag
    /// compensation, the credit decided by the server): the mover's clock stops that much
    /// earlier, though never before its turn began, and the other side's starts on arrival.
    LaggedMove {
        /// Inline up to 24 bytes: an engine match sends one a ply, and the log keeps each.
        text: CompactString,
        offering: bool,
        lag: Millis,
    },
    /// A draw offer on its own (where the rules allow one without a move).
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    /// A claim: a draw by the rules (repetition, move limit, 50 moves), or a win on time.
    ClaimDraw,
    ClaimTime,
    /// Entered by an arbiter at the board: the side touched this piece.
    Touch(Touch),
    /// Entered by an arbiter: a technical foul (e.g. 连续提和), or refusing the rules (loses).
    TechnicalFoul(String),
    RefusesRules,
    /// The clock pressed without a move.
    PressClock,
    Adjourn,
    Resume,
    Abort,
    /// Nothing but the time: lets a flag fall or lateness be ruled.
    Tick,
}

/// Why a game ended beyond the judge's rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EndReason {
    /// The judge ruled (`verdict` says how).
    Rules,
    /// A draw claimed and found correct.
    Claim,
    Agreement,
    Resignation,
    /// A flag fell (a draw when the other side could no longer win).
    Time,
    Lateness,
    IllegalMoves,
    TechnicalFouls,
    ClockPresses,
    FalseClaims,
    RefusedRules,
    Aborted,
}

impl EndReason {
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::Claim => "claim",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::Lateness => "lateness",
            EndReason::IllegalMoves => "illegal_moves",
            EndReason::TechnicalFouls => "technical_fouls",
            EndReason::ClockPresses => "clock_presses",
            EndReason::FalseClaims => "false_claims",
            EndReason::RefusedRules => "refused_rules",
            EndReason::Aborted => "aborted",
        }
    }
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// `Ongoing` only for an aborted game (no result).
    pub result: Outcome,
    pub reason: EndReason,
    pub ply: usize,
    pub at: Millis,
    pub explanation: String,
    /// The judge's verdict where it decided (rules, claims).
    pub verdict: Option<Verdict>,
}

/// A foul's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FoulKind {
    IllegalMove,
    Technical,
    ClockPress,
    FalseClaim,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum EventKind {
    Started {
        first: Side,
    },
    MoveAccepted {
        ply: usize,
        side: Side,
        /// Held inline (see [`game::CompactString`]): no allocation a move.
        coordinate: CompactString,
        notation: String,
        /// Both clocks after the move (first, second).
        clocks: [Remaining; 2],
        offers_draw: bool,
    },
    MoveRejected {
        side: Side,
        text: String,
        reason: String,
    },
    DrawOffered {
        by: Side,
    },
    DrawDeclined {
        by: Side,
    },
    OfferRefused {
        by: Side,
        reason: String,
    },
    ClaimRejected {
        by: Side,
        reason: String,
    },
    /// A touch and what it obliges.
    Obligation {
        side: Side,
        article: &'static str,
        rule: String,
    },
    Foul {
        side: Side,
        kind: FoulKind,
        count: u32,
        limit: Option<u32>,
        what: String,
    },
    Warning {
        side: Side,
        what: String,
    },
    /// A repetition ruling waiting on a side (told to vary).
    MustVary {
        side: Side,
        explanation: String,
    },
    Adjourned,
    Resumed,
    GameOver(Ending),
    /// A command refused because of the game's state (not started, over, not one's turn).
    Refused {
        by: Side,
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub version: u64,
    pub at: Millis,
    pub kind: EventKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotStarted,
    Playing,
    Adjourned,
    Over,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Fouls {
    /// Per [`FoulKind`], in its order.
    counts: [u32; 4],
    /// The capture phase of the last false claim (false claims count per phase).
    claim_phase: usize,
}

impl FoulKind {
    fn index(self) -> usize {
        self as usize
    }

    /// The rules' limit for this kind, and the ending it brings.
    fn limit(self, rules: &RefereeRules) -> (Option<u32>, EndReason) {
        match self {
            FoulKind::IllegalMove => (rules.illegal_moves_lose_at, EndReason::IllegalMoves),
            FoulKind::Technical => (rules.technical_fouls_lose_at, EndReason::TechnicalFouls),
            FoulKind::ClockPress => (rules.clock_presses_lose_at, EndReason::ClockPresses),
            FoulKind::FalseClaim => (rules.false_limit_claims_lose_at, EndReason::FalseClaims),
        }
    }
}

fn index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// One game under a referee.
#[derive(Debug, Clone)]
pub struct Referee<J: Judge> {
    rules: RefereeRules,
    judge: J,
    clock: Clock,
    phase: Phase,
    started_at: Millis,
    /// Moves made by each side (for lateness).
    moved: [bool; 2],
    /// A standing offer by this side, awaiting the other's answer.
    offer: Option<Side>,
    /// May this side offer (false after its offer was declined, until the other offers).
    may_offer: [bool; 2],
    fouls: [Fouls; 2],
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
            judge,
            phase: Phase::NotStarted,
            started_at: 0,
            moved: [false; 2],
            offer: None,
            may_offer: [true; 2],
            fouls: [Fouls::default(); 2],
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

    fn lateness_deadline(&self) -> Option<Millis> {
        let limit = self.rules.lateness?;
        let side = self.judge.position().turn();
        (!self.moved[index(side)]).then_some(self.started_at + limit)
    }

    fn emit(&mut self, at: Millis, kind: EventKind) {
        let version = self.events.len() as u64;
        self.events.push(Event { version, at, kind });
    }

    fn end(&mut self, at: Millis, result: Outcome, reason: EndReason, explanation: String, verdict: Option<Verdict>) {
        let _ = self.clock.stop(at);
        let ending = Ending {
            result,
            reason,
            ply: self.judge.ply(),
            at,
            explanation,
            verdict,
        };
        self.ending = Some(ending.clone());
        self.phase = Phase::Over;
        self.emit(at, EventKind::GameOver(ending));
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
            let reason = if self.phase == Phase::Over {
                "the game is over"
            } else {
                "the game has not started"
            };
            if *command != Command::Tick {
                self.emit(
                    at,
                    EventKind::Refused {
                        by: side,
                        reason: reason.to_string(),
                    },
                );
            }
            return;
        }
        match command {
            Command::Start => self.start(at, side),
            Command::Tick => {}
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
            Command::TechnicalFoul(what) => self.foul(at, side, FoulKind::Technical, what.clone()),
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
                "pressed the clock without moving".into(),
            ),
            Command::Adjourn => {
                if self.phase == Phase::Playing {
                    if let Err(flag) = self.clock.stop(at) {
                        self.flag_fell(flag);
                    } else {
                        self.phase = Phase::Adjourned;
                        self.emit(at, EventKind::Adjourned);
                    }
                }
            }
            Command::Resume => {
                if self.phase == Phase::Adjourned {
                    self.phase = Phase::Playing;
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
            self.end(at, v.result, EndReason::Rules, v.explanation.clone(), Some(v));
        }
    }

    /// Lateness and flags, ruled at the time they happened.
    /// Rules lateness and flags at `at`, the running side's flag `credit` ms earlier.
    fn rule_time(&mut self, at: Millis, credit: Millis) {
        if let Some(deadline) = self.lateness_deadline().filter(|&d| at > d) {
            let late = self.judge.position().turn();
            let _ = self.clock.stop(deadline);
            self.end(
                deadline,
                Outcome::win(!late),
                EndReason::Lateness,
                format!(
                    "{} did not start playing within the lateness limit (迟到判负)",
                    Self::name(late)
                ),
                None,
            );
            return;
        }
        if let Some(flag) = self.clock.flag_lagged(at, credit) {
            self.flag_fell(flag);
        }
    }

    fn flag_fell(&mut self, flag: Flag) {
        let name = Self::name(flag.side);
        let how = if flag.per_move {
            "the time for one move"
        } else {
            "its time"
        };
        if self.judge.can_win(!flag.side) == Some(false) {
            self.end(
                flag.at,
                Outcome::Draw,
                EndReason::Time,
                format!(
                    "{name} ran out of {how}, but the other side can no longer win by any series of legal moves: drawn"
                ),
                None,
            );
        } else {
            self.end(
                flag.at,
                Outcome::win(!flag.side),
                EndReason::Time,
                format!("{name} ran out of {how} (超时判负)"),
                None,
            );
        }
    }

    fn not_your_turn(&mut self, at: Millis, side: Side) -> bool {
        if self.judge.position().turn() != side {
            self.emit(
                at,
                EventKind::Refused {
                    by: side,
                    reason: "not this side's turn".into(),
                },
            );
            return true;
        }
        false
    }

    fn play(&mut self, at: Millis, side: Side, text: &str, offering: bool, lag: Millis) {
        if self.not_your_turn(at, side) {
            return;
        }
        // Read by the judge, which may hold the legal moves already (a chess judge does).
        let m = match self.judge.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                let pos = self.judge.position().clone();
                // A move exposing one's own king: the judge rules it where the rules make it a
                // loss (CXA 4.1.3 走棋后形成"自杀"); elsewhere it is an illegal move.
                if pos.parse_self_check(text).is_some_and(|m| self.judge_self_check(at, m)) {
                    return;
                }
                self.reject(at, side, text, e.to_string());
                self.foul(at, side, FoulKind::IllegalMove, format!("illegal move {text}"));
                // Seed 001 纠正失误 (3): a move that ignored a check is taken back; the piece
                // moved must answer the check if it can.
                if self.phase == Phase::Playing && self.rules.check_reply_with_same_piece && pos.is_check() {
                    if let Some(sq) = crate::touch::from_square(text) {
                        let touch = Touch::Own(sq);
                        let o = obligation(&pos, std::slice::from_ref(&touch));
                        if o.allowed.is_some() {
                            self.touches = vec![touch];
                            let rule = format!("answer the check with the same piece: {}", o.rule);
                            self.emit(
                                at,
                                EventKind::Obligation {
                                    side,
                                    article: "纠正失误 (3)",
                                    rule,
                                },
                            );
                        }
                    }
                }
                return;
            }
        };
        // Touches are only entered where touch-move applies; a correction's obligation always.
        if !self.touches.is_empty() {
            let o = obligation(self.judge.position(), &self.touches);
            if !o.permits(m) {
                self.reject(at, side, text, o.rule.clone());
                self.foul(
                    at,
                    side,
                    FoulKind::Technical,
                    format!("{text} breaks touch-move: {}", o.rule),
                );
                return;
            }
        }
        if let Err(flag) = self.clock.press_lagged(at, lag) {
            self.flag_fell(flag);
            return;
        }
        let pos = self.judge.position();
        let coordinate = pos.coordinate_inline(m);
        let notation = if self.live_notation {
            pos.notation(m)
        } else {
            String::new()
        };
        let zeroing = pos.is_zeroing(m);
        let ruled = match self.judge.push(m) {
            Ok(v) => v.cloned(),
            Err(e) => {
                self.reject(at, side, text, e.to_string());
                return;
            }
        };
        self.moved[index(side)] = true;
        self.touches.clear();
        if zeroing {
            self.phase_start = self.judge.ply();
        }
        // Moving answers a standing offer of the opponent's: declined.
        if self.offer == Some(!side) {
            self.offer = None;
            self.may_offer[index(!side)] = false;
            self.emit(at, EventKind::DrawDeclined { by: side });
        }
        let clocks = [
            self.clock.remaining(Side::First, at),
            self.clock.remaining(Side::Second, at),
        ];
        let offers_draw = offering && self.may_offer[index(side)];
        self.emit(
            at,
            EventKind::MoveAccepted {
                ply: self.judge.ply(),
                side,
                coordinate,
                notation,
                clocks,
                offers_draw,
            },
        );
        if offers_draw {
            self.make_offer(at, side);
        } else if offering {
            self.may_offer(at, side);
        }
        if let Some(v) = ruled {
            self.end(at, v.result, EndReason::Rules, v.explanation.clone(), Some(v));
            return;
        }
        let pending = self.judge.pending().filter(|p| !p.claim).cloned();
        match pending {
            Some(p) if !self.told_to_vary => {
                self.told_to_vary = true;
                let offender = if p.result == Outcome::FirstWins {
                    Side::Second
                } else {
                    Side::First
                };
                self.emit(
                    at,
                    EventKind::MustVary {
                        side: offender,
                        explanation: p.explanation,
                    },
                );
            }
            None => self.told_to_vary = false,
            _ => {}
        }
    }

    fn reject(&mut self, at: Millis, side: Side, text: &str, reason: String) {
        let text = text.to_string();
        self.emit(at, EventKind::MoveRejected { side, text, reason });
    }

    /// Offers a self-exposing move to the judge; true when the judge ruled on it (the mover lost).
    fn judge_self_check(&mut self, at: Millis, m: <J::Game as Game>::Move) -> bool {
        match self.judge.push(m) {
            Ok(Some(v)) => {
                let v = v.clone();
                self.end(at, v.result, EndReason::Rules, v.explanation.clone(), Some(v));
                true
            }
            _ => false,
        }
    }

    /// Whether `side` may offer now; a refused offer costs what the rules say.
    fn may_offer(&mut self, at: Millis, side: Side) -> bool {
        if self.may_offer[index(side)] {
            return true;
        }
        let reason = "an offer was declined: no new offer until the opponent has offered".to_string();
        self.emit(
            at,
            EventKind::OfferRefused {
                by: side,
                reason: reason.clone(),
            },
        );
        match self.rules.repeated_offer {
            OfferPenalty::TechnicalFoul => {
                self.foul(at, side, FoulKind::Technical, format!("repeated draw offer ({reason})"))
            }
            OfferPenalty::Warning => self.emit(
                at,
                EventKind::Warning {
                    side,
                    what: format!("repeated draw offer ({reason})"),
                },
            ),
        }
        false
    }

    fn make_offer(&mut self, at: Millis, side: Side) {
        self.offer = Some(side);
        // The opponent may offer again once this side has offered.
        self.may_offer[index(!side)] = true;
        self.emit(at, EventKind::DrawOffered { by: side });
    }

    fn offer(&mut self, at: Millis, side: Side) {
        if self.rules.offer_with_move {
            let reason = "a draw is offered together with one's own move".to_string();
            self.emit(at, EventKind::OfferRefused { by: side, reason });
            return;
        }
        if self.offer == Some(side) {
            return;
        }
        if self.may_offer(at, side) {
            self.make_offer(at, side);
        }
    }

    fn accept(&mut self, at: Millis, side: Side) {
        if self.offer == Some(!side) {
            let by = Self::name(side);
            self.end(
                at,
                Outcome::Draw,
                EndReason::Agreement,
                format!("{by} accepted the draw offer"),
                None,
            );
        } else {
            self.emit(
                at,
                EventKind::Refused {
                    by: side,
                    reason: "no draw offer stands".into(),
                },
            );
        }
    }

    fn decline(&mut self, at: Millis, side: Side) {
        if self.offer == Some(!side) {
            self.offer = None;
            self.may_offer[index(!side)] = false;
            self.emit(at, EventKind::DrawDeclined { by: side });
        }
    }

    fn claim_draw(&mut self, at: Millis, side: Side) {
        if let Some(v) = self.judge.claimable() {
            self.end(
                at,
                Outcome::Draw,
                EndReason::Claim,
                format!("{} claimed: {}", Self::name(side), v.explanation),
                Some(v),
            );
            return;
        }
        let reason = "no draw can be claimed in this position".to_string();
        self.emit(
            at,
            EventKind::ClaimRejected {
                by: side,
                reason: reason.clone(),
            },
        );
        if let Some(bonus) = self.rules.false_claim_bonus {
            self.clock.add_time(!side, bonus);
            let what = format!(
                "false claim: {} s added to the opponent's clock (FIDE 9.5.3)",
                bonus / 1000
            );
            self.emit(at, EventKind::Warning { side, what });
        }
        // A false claim of the move limit: a foul, and the second in the same phase loses.
        let phase = self.phase_start;
        let f = &mut self.fouls[index(side)];
        if f.claim_phase != phase {
            f.claim_phase = phase;
            f.counts[FoulKind::FalseClaim.index()] = 0;
        }
        self.foul(at, side, FoulKind::FalseClaim, reason);
    }

    fn claim_time(&mut self, at: Millis, side: Side) {
        match self.clock.flag(at) {
            Some(flag) if flag.side != side => self.flag_fell(flag),
            _ => self.emit(
                at,
                EventKind::ClaimRejected {
                    by: side,
                    reason: "the opponent's flag has not fallen".into(),
                },
            ),
        }
    }

    fn touch(&mut self, at: Millis, side: Side, t: Touch) {
        if !self.rules.touch_move || self.not_your_turn(at, side) {
            return;
        }
        self.touches.push(t);
        let o = obligation(self.judge.position(), &self.touches);
        self.emit(
            at,
            EventKind::Obligation {
                side,
                article: o.article,
                rule: o.rule.clone(),
            },
        );
        if let Some(what) = o.foul {
            self.foul(at, side, FoulKind::Technical, what);
        }
    }

    /// Counts a foul and ends the game when its limit is reached.
    fn foul(&mut self, at: Millis, side: Side, kind: FoulKind, what: String) {
        let count = {
            let c = &mut self.fouls[index(side)].counts[kind.index()];
            *c += 1;
            *c
        };
        let (limit, reason) = kind.limit(&self.rules);
        self.emit(
            at,
            EventKind::Foul {
                side,
                kind,
                count,
                limit,
                what: what.clone(),
            },
        );
        if limit.is_some_and(|l| count >= l) {
            let name = Self::name(side);
            self.end(
                at,
                Outcome::win(!side),
                reason,
                format!("{name}: {what} — {count} of {count}, the limit: loses"),
                None,
            );
        }
    }
}

/// The reason code of an ending: the judge's where it ruled.
pub fn reason_code(e: &Ending) -> &'static str {
    match (&e.verdict, e.reason) {
        (Some(v), EndReason::Rules) => v.reason.code(),
        _ => e.reason.code(),
    }
}

impl EventKind {
    /// What a PGN record says of an event other than a move, as a comment: the ending's
    /// explanation, fouls, rejected claims, warnings, a side told to vary.
    pub fn pgn_note(&self, kind: game::Kind) -> Option<String> {
        let name = |s: &Side| s.name(kind);
        match self {
            EventKind::GameOver(end) => Some(end.explanation.clone()),
            EventKind::Foul { side, what, count, .. } => Some(format!("foul by {}: {what} ({count})", name(side))),
            EventKind::ClaimRejected { by, reason } => Some(format!("{} claimed: {reason}", name(by))),
            EventKind::Warning { side, what } => Some(format!("warning to {}: {what}", name(side))),
            EventKind::MustVary { side, .. } => Some(format!("{} must vary", name(side))),
            _ => None,
        }
    }
}

impl<J: Judge> Referee<J> {
    /// The game as PGN, `tags` (Event, Site, Date, Round, players …) among its tags: see
    /// [`crate::export::pgn`].
    pub fn pgn(&self, start: &J::Game, tags: &[(&str, &str)]) -> String {
        crate::export::pgn(self, start, tags)
    }
}
