//! What goes into a referee and what comes out: the commands a player or an arbiter gives,
//! the events they cause, and how a game ended.

use game::{BySide, CompactString, Side};
use judge::{Outcome, Verdict};
use serde::Serialize;

use crate::clock::{Millis, Remaining};
use crate::corrections::{Correction, Straightening};
use crate::touch::{Rule, Touch};
use crate::why::Why;

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
    /// Asks to take back one's last move (and the opponent's reply, if made), where the rules
    /// and the game allow takebacks. Asking while the opponent's request stands accepts it.
    ProposeTakeback,
    AcceptTakeback,
    DeclineTakeback,
    /// Entered by an arbiter: the side straightened this piece (seed 000 5.6).
    Straighten {
        touch: Touch,
        how: Straightening,
    },
    /// Entered by an arbiter: a mistake at the board put right.
    Correct(Correction),
    /// Entered by an arbiter: time added to the side's main time, or its main time set, and why.
    AddTime {
        ms: Millis,
        reason: String,
    },
    SetTime {
        ms: Millis,
        reason: String,
    },
    /// Entered by an arbiter (an organiser's result for a game still in play): the game ends
    /// with this result, and why. `Ongoing` calls the game off without a result (the event no
    /// longer needs it: its match was decided, or neither side is to be credited).
    Decide {
        result: Outcome,
        reason: String,
    },
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
    /// The arbiter decided the result (an organiser's entry while the game was in play).
    Arbiter,
    /// The arbiter called the game off without a result (the event no longer needs it).
    CalledOff,
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
            EndReason::Arbiter => "arbiter",
            EndReason::CalledOff => "called_off",
        }
    }
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// `Ongoing` only for a game aborted or called off (no result).
    pub result: Outcome,
    pub reason: EndReason,
    pub ply: usize,
    pub at: Millis,
    pub explanation: String,
    /// The explanation in Chinese, where the judge decided (rules, claims): written from the
    /// verdict's facts. Other endings are the referee's and have only the English.
    pub explanation_zh: Option<String>,
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
        /// Both clocks after the move.
        clocks: BySide<Remaining>,
        offers_draw: bool,
    },
    MoveRejected {
        side: Side,
        text: String,
        reason: String,
        code: Why,
        /// The touch-move rule the move broke, as data.
        #[serde(skip_serializing_if = "Option::is_none")]
        touch: Option<Rule>,
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
        code: Why,
    },
    ClaimRejected {
        by: Side,
        reason: String,
        code: Why,
    },
    /// A side asks to take back its last move: `plies` would go (2 when the opponent has
    /// replied), leaving the position after `back_to` plies.
    TakebackProposed {
        by: Side,
        plies: usize,
        back_to: usize,
    },
    TakebackDeclined {
        by: Side,
    },
    /// The request was accepted (`by` accepted it): the position and the moves after
    /// `back_to` plies are gone. The clocks keep what they show now (time is not given back);
    /// the side to move then has its clock running.
    TakenBack {
        by: Side,
        plies: usize,
        back_to: usize,
        clocks: BySide<Remaining>,
    },
    /// A touch and what it obliges.
    Obligation {
        side: Side,
        article: &'static str,
        rule: String,
        /// The rule as data, for a page to say it in its own language.
        touch: Rule,
    },
    Foul {
        side: Side,
        kind: FoulKind,
        count: u32,
        limit: Option<u32>,
        what: String,
        code: Why,
        /// A touch-move foul's rule as data: the rule broken, or the touch that was a foul.
        #[serde(skip_serializing_if = "Option::is_none")]
        touch: Option<Rule>,
    },
    Warning {
        side: Side,
        what: String,
        code: Why,
    },
    /// A repetition ruling waiting on a side (told to vary).
    MustVary {
        side: Side,
        explanation: String,
        /// The same in Chinese, from the ruling's facts.
        explanation_zh: String,
    },
    Adjourned,
    Resumed,
    /// An arbiter's correction ruled: the article, what it comes to, and where the position
    /// went back to (`back_to` plies from the start; `Some(0)` a restarted game), if it did.
    Corrected {
        side: Side,
        article: &'static str,
        ruling: String,
        back_to: Option<usize>,
    },
    /// An arbiter corrected a side's time: both clocks after it, and why.
    TimeCorrected {
        side: Side,
        clocks: BySide<Remaining>,
        reason: String,
    },
    GameOver(Ending),
    /// A command refused because of the game's state (not started, over, not one's turn).
    Refused {
        by: Side,
        reason: String,
        code: Why,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub version: u64,
    pub at: Millis,
    pub kind: EventKind,
}

/// How the game ended, as the referee's log tells it: the judge's rule where the judge ended
/// it, `claim` for a draw claimed and found correct (the explanation names the rule), else the
/// referee's reason. It differs from [`rule_code`] for claims only: the log says who ended the
/// game — a player, by claiming — where a spectator's view names the rule.
pub fn reason_code(e: &Ending) -> &'static str {
    match e.reason {
        EndReason::Claim => EndReason::Claim.code(),
        _ => rule_code(e),
    }
}

/// The rule that decided an ending: the judge's reason wherever the judge decided (a ruling, or
/// the rule a correct claim rested on: `threefold_repetition`, not `claim`), else the referee's
/// reason. What the server's game state and an engine match's PGN call the reason.
pub fn rule_code(e: &Ending) -> &'static str {
    e.verdict.as_ref().map_or(e.reason.code(), |v| v.reason.code())
}
