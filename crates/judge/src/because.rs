//! Why the judge ruled as it did, as facts rather than words: the rule, the side, the plies,
//! the cycle's patterns, the article. Each verdict's explanation is written from these in
//! English ([`Lang::En`], the `explanation` every verdict carries) or Chinese ([`Lang::Zh`],
//! in the terms of the Chinese rules: 将死, 困毙, 长将, 长捉, 自然限着, 逼和 …).

mod en;
mod zh;

use game::{Kind, Side};
use serde::Serialize;

use crate::chess::Proof;

/// The language an explanation is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// `en` or `zh` (also `zh-CN`, `cn`, `english`, `chinese`, any case).
    pub fn parse(text: &str) -> Option<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "en" | "english" | "en-us" | "en-gb" => Some(Lang::En),
            "zh" | "cn" | "chinese" | "zh-cn" | "zh-hans" => Some(Lang::Zh),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// The facts behind a verdict. Serialised with its kind under `because`, the fields beside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "because", rename_all = "snake_case")]
pub enum Because {
    NotOver,
    /// The side to move is in check with no legal move (将死). Chess cites an article.
    Checkmate {
        game: Kind,
        loser: Side,
        article: Option<&'static str>,
    },
    /// The side to move is not in check and has no legal move: it loses in Xiangqi (困毙), a
    /// draw in chess (逼和).
    Stalemate {
        game: Kind,
        side: Side,
        article: Option<&'static str>,
    },
    /// Xiangqi: the mover's move `mv` left its king attacked or facing the other (自杀).
    SelfCheck {
        loser: Side,
        mv: String,
    },
    /// Xiangqi: only kings, advisors and elephants are left.
    NoAttackers,
    /// Xiangqi: `rounds` without a capture (自然限着), drawn or (with `claim`) claimable.
    MoveLimit {
        rounds: u32,
        claim: bool,
    },
    /// Xiangqi: a referee's temporary limit of `rounds` from `from_ply` ran out at `end`.
    TemporaryLimit {
        rounds: u32,
        from_ply: u32,
        end: usize,
    },
    /// Xiangqi: a repetition ruled by the 棋例.
    Repetition(Box<Cycle>),
    /// Chess: the same position at `plies` (earliest first), `count` times.
    ChessRepetition {
        count: u32,
        plies: Vec<usize>,
        how: ChessClaim,
        article: &'static str,
    },
    /// Chess: `moves` by each player without a capture or pawn move.
    ChessMoveRule {
        moves: u32,
        how: ChessClaim,
        article: &'static str,
    },
    /// Chess: neither player can ever mate.
    ChessDead {
        why: DeadWhy,
        claim: bool,
        article: &'static str,
    },
}

/// Whether a chess draw is automatic or claimed, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChessClaim {
    /// The game is drawn by itself.
    Automatic,
    /// The player to move, `by`, may claim it now.
    Now { by: Side },
    /// `by` may claim it by announcing the move `mv` (in SAN).
    ByMove { by: Side, mv: String },
}

/// Why a chess position is dead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DeadWhy {
    /// Both sides' material cannot mate; `material` as players write it (`KB v K`).
    Insufficient { material: String },
    /// Both sides for the same reason.
    Both { proof: Proof },
    /// Each side for its own.
    Each { white: Proof, black: Proof },
}

/// A Xiangqi repetition: the occurrences, each side's pattern, the table's ruling and how the
/// ruling takes effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cycle {
    /// Plies after which the position stood, oldest first (0: the start).
    pub occurrences: Vec<usize>,
    /// When there were more occurrences than the ruleset counts: how many are judged, and the
    /// ply the judged span starts from.
    pub judged: Option<(u32, usize)>,
    pub red: Part,
    pub black: Part,
    pub article: Article,
    pub table: Table,
    pub effect: Effect,
}

/// One side's part of the cycle: its pattern's name (长将, 一将一捉, 闲 …) and whether the
/// ruleset forbids it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    pub pattern: String,
    pub forbidden: bool,
}

/// The repetition rules the ruling rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Article {
    /// The Chinese Xiangqi Association's general principles (棋例总则).
    Cxa,
    /// The Asian Xiangqi Federation's rules 3–8.
    Axf,
}

/// What the table says of the two parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Table {
    /// Both allowed: drawn.
    BothAllowed,
    /// Both forbidden, neither graver: drawn.
    BothForbidden,
    /// `loser`'s moves are forbidden, the other side's allowed.
    Forbidden { loser: Side, offence: Offence },
    /// Both forbidden, but only `loser` checks perpetually.
    OnlyOneChecks { loser: Side },
    /// Both forbidden, but `loser` chases a rook pinned by a horse (AXF rule 19).
    PinnedRook { loser: Side, piece: Option<String> },
}

/// What a forbidden part does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Offence {
    /// Checks on every move (长将).
    PerpetualCheck { pattern: String },
    /// Chases `piece` (`车@b7`) on every move (长捉).
    Chase { piece: String, pattern: String },
    /// Attacks on every move (checks, mate threats, chases mixed).
    Attack { pattern: String },
}

/// How the table's ruling takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// As the table says, now (a draw, or a loss ruled when the warning went unheeded is
    /// `NotVaried`).
    Ruled,
    /// `loser` loses at once, with no warning (as engines rule).
    AtOnce { loser: Side },
    /// `side` must vary, or lose.
    MustVary { side: Side },
    /// `loser` was told to vary at `warned` and did not.
    NotVaried { loser: Side, warned: usize },
    /// The draw may be claimed; play may go on.
    DrawClaimable,
}

impl Because {
    /// The explanation in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match lang {
            Lang::En => en::render(self),
            Lang::Zh => zh::render(self),
        }
    }
}
