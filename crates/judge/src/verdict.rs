//! What the judge says about a game: the result, the reason as a stable code, the ply, the
//! ruleset, whether a player must claim it, and an explanation a player can read — for a
//! repetition, every move of the cycle with its classification.

use game::Kind;
pub use game::Outcome;
use serde::Serialize;

use crate::because::{Because, Lang};

/// Why a game ended (or may be ended by a claim). [`Reason::code`] is the stable snake_case
/// name used in JSON and documented in the README.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Reason {
    /// The game is not over (with [`Outcome::Ongoing`]).
    NotOver,
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move: a loss in Xiangqi (困毙), a draw
    /// in chess.
    Stalemate,
    /// Xiangqi: the mover left its own king attacked or facing the other king (自杀, 帅将对面),
    /// which loses at once where the rules say so (CXA 4.1.3 as quoted in seed 000; seed 002
    /// 二.1.(2)) instead of being taken back.
    SelfCheck,
    /// Xiangqi: a side checked on every move of the repetition cycle (长将) against a side that
    /// did not; it loses.
    PerpetualCheck,
    /// Xiangqi: a side chased on every move of the cycle — the same piece under AXF; any pieces,
    /// or any mix of checks, mate threats and chases (长捉, 长杀, 一将一捉 …) under CXA — against a
    /// side whose moves were allowed; it loses.
    ForbiddenRepetition,
    /// Xiangqi: the position repeated with both sides' moves allowed, or both forbidden (不变作和).
    RepetitionDraw,
    /// Xiangqi: 60 rounds (or the ruleset's number) without a capture (自然限着).
    NaturalMoveLimit,
    /// Neither side can ever checkmate: Xiangqi with only kings, advisors and elephants; chess
    /// with no sequence of legal moves that mates (insufficient material and blocked positions).
    DeadPosition,
    /// Chess: the same position for the third time (a claim) …
    ThreefoldRepetition,
    /// … or the fifth (automatic).
    FivefoldRepetition,
    /// Chess: 50 moves by each side without a capture or pawn move (a claim) …
    FiftyMoveRule,
    /// … or 75 (automatic).
    SeventyFiveMoveRule,
}

impl Reason {
    pub fn code(self) -> &'static str {
        match self {
            Reason::NotOver => "not_over",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::SelfCheck => "self_check",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::ForbiddenRepetition => "forbidden_repetition",
            Reason::RepetitionDraw => "repetition_draw",
            Reason::NaturalMoveLimit => "natural_move_limit",
            Reason::DeadPosition => "dead_position",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::FiftyMoveRule => "fifty_move_rule",
            Reason::SeventyFiveMoveRule => "seventy_five_move_rule",
        }
    }

    /// The PGN standard's `Termination` word for a game the rules ended for this reason:
    /// `rules infraction` where a side loses for breaking a rule (self-check, a forbidden
    /// repetition), `unterminated` for a game not over, `normal` otherwise.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Reason::NotOver => "unterminated",
            Reason::SelfCheck | Reason::PerpetualCheck | Reason::ForbiddenRepetition => "rules infraction",
            _ => "normal",
        }
    }

    pub const ALL: [Reason; 13] = [
        Reason::NotOver,
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::SelfCheck,
        Reason::PerpetualCheck,
        Reason::ForbiddenRepetition,
        Reason::RepetitionDraw,
        Reason::NaturalMoveLimit,
        Reason::DeadPosition,
        Reason::ThreefoldRepetition,
        Reason::FivefoldRepetition,
        Reason::FiftyMoveRule,
        Reason::SeventyFiveMoveRule,
    ];
}

/// A ruling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub result: Outcome,
    pub reason: Reason,
    /// Plies played from the judged start position when it arose (0: the start itself).
    pub ply: usize,
    /// The ruleset's name (`cxa`, `axf`, `simplified`, `fide`, `automatic-draws`).
    pub ruleset: String,
    /// The rule does not end the game by itself: a player may claim it (chess threefold and
    /// 50-move rule; a ruleset's claimable move limit). Until claimed, play may go on.
    pub claim: bool,
    /// The ruling in words, with the article it rests on: [`Verdict::because`] in English.
    pub explanation: String,
    /// The facts the explanation is written from, in any language ([`Verdict::explain`]).
    /// Boxed: a verdict travels in every game's ending, most of them never rendered again.
    pub because: Box<Because>,
    /// For a repetition ruling: the cycle, move by move.
    pub repetition: Option<Repetition>,
}

/// The moves between the first and the last occurrence of the repeated position, classified,
/// and what each side's moves amount to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repetition {
    /// The ply after which the repeated position first stood.
    pub first_ply: usize,
    pub moves: Vec<CycleMove>,
    pub first: SidePattern,
    pub second: SidePattern,
}

/// One move of a repetition cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CycleMove {
    pub ply: usize,
    /// `red`/`black` or `white`/`black`.
    pub side: &'static str,
    /// In coordinates (ICCS, UCI).
    pub coordinate: String,
    /// In the standard notation (Chinese, SAN).
    pub notation: String,
    pub class: MoveClass,
}

/// What a move does, in the terms of the repetition rules (棋例).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MoveClass {
    /// 将: it gives check.
    pub check: bool,
    /// 杀: it threatens mate by a check or a series of checks (judged when it is not a check).
    pub mate_threat: bool,
    /// 捉: the pieces it newly threatens to win, as `车@b7` (the piece and its point).
    pub chases: Vec<String>,
    /// 要抽吃: it threatens a check that, however it is met, wins a piece (an attack where the
    /// ruleset counts it: the simplified rules).
    pub capture_threat: bool,
    /// For an allowed move, what kind: 兑 (offers an exchange), 献 (offers the piece), 跟
    /// (attacks a protected piece), 闲 (none of these). Empty for attacking moves.
    pub idle: Vec<String>,
    /// The class in one word: 将, 杀, 捉, 要抽吃 or 闲 (the most severe).
    pub label: String,
}

/// A side's moves over the cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SidePattern {
    /// The pattern's name: 长将, 长捉, 长杀, 一将一捉, 数将一闲, 闲 …
    pub name: String,
    /// Whether the ruleset forbids it.
    pub forbidden: bool,
    /// Every move gave check.
    pub perpetual_check: bool,
}

impl Verdict {
    /// A verdict at `ply` whose explanation is `because`'s, in English.
    pub fn new(result: Outcome, reason: Reason, ply: usize, ruleset: &str, claim: bool, because: Because) -> Verdict {
        Verdict {
            result,
            reason,
            ply,
            ruleset: ruleset.to_string(),
            claim,
            explanation: because.render(Lang::En),
            because: Box::new(because),
            repetition: None,
        }
    }

    /// The explanation in `lang`: English is [`Verdict::explanation`]; other languages are
    /// written from [`Verdict::because`].
    pub fn explain(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.explanation.clone(),
            _ => self.because.render(lang),
        }
    }

    /// Replaces the facts, and the English explanation with theirs.
    pub(crate) fn set_because(&mut self, because: Because) {
        self.explanation = because.render(Lang::En);
        *self.because = because;
    }

    /// One JSON object: `result`, `reason`, `ply`, `ruleset`, `claim`, `explanation` (English),
    /// `explanation_zh` (Chinese), `because` (the facts both are written from: the rule under
    /// `because`, with its fields), and the cycle for repetitions.
    pub fn to_json(&self, kind: Kind) -> serde_json::Value {
        let mut v = serde_json::json!({
            "result": self.result.name(kind),
            "reason": self.reason.code(),
            "ply": self.ply,
            "ruleset": self.ruleset,
            "claim": self.claim,
            "explanation": self.explanation,
            "explanation_zh": self.explain(Lang::Zh),
            "because": serde_json::to_value(&self.because).expect("plain data serialises"),
        });
        if let Some(r) = &self.repetition {
            v["repetition"] = serde_json::to_value(r).expect("plain data serialises");
        }
        v
    }
}
