//! Why the referee refused a command, rejected a move, warned or penalised a side: a code
//! beside the English text of each such event, so a page writes the referee's words in its own
//! language from the code and the event's fields rather than translating English sentences.

use serde::{Serialize, Serializer};

/// The reason's code. The English text stays on every event for the clients that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Anything after the game ended.
    GameOver,
    /// Anything but the start before it.
    NotStarted,
    /// Play at the board while the game is adjourned.
    Adjourned,
    /// A move (or a touch) when the other side is to move.
    NotYourTurn,
    /// A move played out of turn where the rules count it a foul (seed 000 §8 (五)).
    ExtraMove,
    /// A text that reads as no move at all.
    NotUnderstood,
    /// A move that reads but is not legal on the board.
    IllegalMove,
    /// A move breaking a touch-move obligation, or a touch that was itself a foul.
    TouchMove,
    /// Accepting when no draw offer stands.
    NoOfferStands,
    /// An offer after one's declined offer, before the opponent has offered.
    RepeatedOffer,
    /// An offer on its own where offers go with one's own move.
    OfferWithMove,
    /// A draw claimed where none may be.
    FalseClaim,
    /// Time added to the opponent after a false claim (FIDE 9.5.3).
    FalseClaimBonus,
    /// A win on time claimed before the opponent's flag fell.
    FlagNotFallen,
    /// The clock pressed without a move.
    ClockPress,
    /// A piece straightened on the opponent's time (seed 000 5.6).
    StraightenedOnOpponentsTime,
    /// A technical foul the arbiter entered, in the arbiter's own words.
    ArbiterFoul,
    /// A correction asking to restore a position not behind the current one.
    NothingToRestore,
    /// A time correction on a clock without main time.
    NoMainTime,
    /// A takeback asked for in a competition: under competition rules, or in an event's game.
    TakebacksOff,
    /// A takeback asked for in a rated game.
    TakebacksRated,
    /// A takeback asked for with no move of one's own to take back.
    NothingToTakeBack,
    /// A takeback accepted or declined when none is asked for.
    NoTakebackPending,
}

impl Why {
    pub fn code(self) -> &'static str {
        match self {
            Why::GameOver => "game_over",
            Why::NotStarted => "not_started",
            Why::Adjourned => "adjourned",
            Why::NotYourTurn => "not_your_turn",
            Why::ExtraMove => "extra_move",
            Why::NotUnderstood => "not_understood",
            Why::IllegalMove => "illegal_move",
            Why::TouchMove => "touch_move",
            Why::NoOfferStands => "no_offer_stands",
            Why::RepeatedOffer => "repeated_offer",
            Why::OfferWithMove => "offer_with_move",
            Why::FalseClaim => "false_claim",
            Why::FalseClaimBonus => "false_claim_bonus",
            Why::FlagNotFallen => "flag_not_fallen",
            Why::ClockPress => "clock_press",
            Why::StraightenedOnOpponentsTime => "straightened_on_opponents_time",
            Why::ArbiterFoul => "arbiter_foul",
            Why::NothingToRestore => "nothing_to_restore",
            Why::NoMainTime => "no_main_time",
            Why::TakebacksOff => "takebacks_off",
            Why::TakebacksRated => "takebacks_rated",
            Why::NothingToTakeBack => "nothing_to_take_back",
            Why::NoTakebackPending => "no_takeback_pending",
        }
    }
}

impl Serialize for Why {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}
