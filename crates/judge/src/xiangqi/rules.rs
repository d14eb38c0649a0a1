//! The Xiangqi rulesets, by name, with their parameters visible.

use serde::Serialize;

/// How the repetition table reads the moves of a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Style {
    /// Chinese Xiangqi Association: a side whose every move is 将, 杀 or 捉 (any mix, any
    /// targets) plays a forbidden move; one idle move makes it allowed.
    Cxa,
    /// Asian / World Xiangqi Federation: only perpetual check, and perpetual chase of one and
    /// the same piece, are forbidden; mate threats and alternating attacks are allowed.
    Axf,
}

/// When a repetition ruling takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RepetitionRuling {
    /// At the triggering occurrence: the offender loses, an innocent repetition is drawn
    /// (what engines and automatic servers do: Fairy-Stockfish, Pikafish, ElephantEye).
    AtTrigger,
    /// As the rulebooks say (应由前者变着，不变判负; AXF rule 3): at the trigger the offender is
    /// told to vary and loses only if the position comes again with the offence unchanged; an
    /// innocent repetition may be claimed as a draw (或由裁判判和) and play may go on.
    MustVary,
}

/// What makes a chase new (CXA 29.2: the chase did not exist before the move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ChaseNewness {
    /// A target not chased before the move, by any piece (the rulebooks' examples: a threat
    /// that existed and is unchanged is not a new chase; Pikafish compares before and after
    /// per target).
    PerTarget,
    /// An (attacker, target) pair that did not exist before: a second attacker on a piece
    /// already chased chases anew. Fairy-Stockfish's approximation; for comparing with it.
    PerAttacker,
}

/// How checks count toward the natural move limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CheckCounting {
    /// Every ply counts (CXA: only a capture restarts the count).
    All,
    /// A side's checks beyond this many in the window, and the replies to them, do not count
    /// (the AXF practice "no more than 10 checks", as Pikafish counts it).
    Beyond(u32),
}

/// A Xiangqi ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rules {
    pub name: &'static str,
    pub description: &'static str,
    pub style: Style,
    /// Plies without a capture that end the game (120 = 60 rounds, reducible by an organiser).
    pub natural_limit: u32,
    /// Whether the move limit must be claimed rather than ending the game by itself.
    pub natural_limit_claim: bool,
    pub check_counting: CheckCounting,
    /// The occurrence of a position that triggers a repetition ruling.
    pub repetition_count: u32,
    pub repetition_ruling: RepetitionRuling,
    /// Whether a check given by pawns alone counts as a check in the repetition rules (seed 002
    /// excepts pawns from 长将).
    pub pawn_checks_count: bool,
    pub chase_newness: ChaseNewness,
    /// Also classify the move that led into the first occurrence, as Fairy-Stockfish does (its
    /// span starts one ply early). Off in every ruleset: the span is from the first occurrence
    /// to the last (xiangqi-rules.md §5); for comparing with Fairy-Stockfish.
    pub span_from_move_before: bool,
    /// Depth, in the threatening side's moves, of the check-only mate search that finds 杀.
    pub mate_threat_depth: u32,
    /// Both sides with only kings, advisors and elephants: drawn at once.
    pub dead_position_draw: bool,
    /// A move that leaves the mover's king attacked or facing the other king loses (the king
    /// would be taken) instead of being refused as illegal.
    pub self_check_loses: bool,
}

impl Rules {
    /// CXA 《象棋竞赛规则》 (2011, with what is known of 2020): the default.
    pub fn cxa() -> Rules {
        Rules {
            name: "cxa",
            description:
                "Chinese Xiangqi Association rules (2011/2020): 长将, 长捉, 长杀 and mixed attacks are forbidden; \
                          60 rounds without a capture draw",
            style: Style::Cxa,
            natural_limit: 120,
            natural_limit_claim: false,
            check_counting: CheckCounting::All,
            repetition_count: 3,
            repetition_ruling: RepetitionRuling::MustVary,
            pawn_checks_count: true,
            chase_newness: ChaseNewness::PerTarget,
            span_from_move_before: false,
            mate_threat_depth: 3,
            dead_position_draw: true,
            self_check_loses: true,
        }
    }

    /// AXF Asian rules / WXF world rules.
    pub fn axf() -> Rules {
        Rules {
            name: "axf",
            description: "Asian/World Xiangqi Federation rules: perpetual check and perpetual chase of one piece are \
                          forbidden; 60 rounds without a capture may be claimed, a side's checks beyond 10 not counted",
            style: Style::Axf,
            natural_limit: 120,
            natural_limit_claim: true,
            check_counting: CheckCounting::Beyond(10),
            repetition_count: 3,
            repetition_ruling: RepetitionRuling::MustVary,
            pawn_checks_count: true,
            chase_newness: ChaseNewness::PerTarget,
            span_from_move_before: false,
            mate_threat_depth: 3,
            dead_position_draw: true,
            self_check_loses: false,
        }
    }

    /// The simplified rules of seed 002 (业余竞赛以及休闲娱乐时使用的简化规则): the CXA table, 长将
    /// by pawns excepted, the 60-round limit and innocent repetitions by claim or by the referee.
    pub fn seed002() -> Rules {
        Rules {
            name: "seed002",
            description: "simplified amateur rules (seed 002): the CXA table; pawn checks are not 长将; 60 rounds \
                          without a capture may be claimed",
            style: Style::Cxa,
            natural_limit: 120,
            natural_limit_claim: true,
            check_counting: CheckCounting::All,
            repetition_count: 3,
            repetition_ruling: RepetitionRuling::MustVary,
            pawn_checks_count: false,
            chase_newness: ChaseNewness::PerTarget,
            span_from_move_before: false,
            mate_threat_depth: 3,
            dead_position_draw: true,
            self_check_loses: true,
        }
    }

    /// The same rules ruled the way engines and automatic servers rule: at the triggering
    /// occurrence, with no warning step.
    pub fn at_trigger(mut self) -> Rules {
        self.repetition_ruling = RepetitionRuling::AtTrigger;
        self
    }

    pub const NAMES: [&'static str; 3] = ["cxa", "axf", "seed002"];

    pub fn by_name(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "cxa" | "cxa2011" | "cxa2020" | "chinese" => Some(Rules::cxa()),
            "axf" | "wxf" | "asian" => Some(Rules::axf()),
            "seed002" | "simplified" | "amateur" => Some(Rules::seed002()),
            _ => None,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::cxa()
    }
}
