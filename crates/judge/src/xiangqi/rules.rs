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
    /// Whether a threat to win a piece by a check (要抽吃: a check that, however it is met,
    /// leaves a piece to be taken) is an attack (打) in the repetition rules, as seed 002 counts
    /// it (三.4: "将""捉""要杀""抽吃"等都算"打"着; 4(2) 一将一要抽吃 作负).
    pub discovered_capture_threats: bool,
    /// A move limit a referee set for this game (seed 002 六(1), 临时限着): when it runs out
    /// and no side has been mated, the game is drawn. `None`: no such limit.
    pub temporary_limit: Option<TemporaryLimit>,
}

/// A referee's temporary move limit (临时限着): `plies` more plies from ply `from_ply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TemporaryLimit {
    /// The ply the limit was set after (0: from the start).
    pub from_ply: u32,
    /// Plies allowed from there (twice the rounds).
    pub plies: u32,
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
            discovered_capture_threats: false,
            temporary_limit: None,
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
            discovered_capture_threats: false,
            temporary_limit: None,
        }
    }

    /// The simplified rules for amateur events and casual play (业余竞赛以及休闲娱乐时使用的简化规则,
    /// the user's seed 002): the CXA table, 长将 by pawns excepted, a threat to win a piece by a
    /// check (要抽吃) an attack, the 60-round limit and innocent repetitions by claim or by the
    /// referee.
    pub fn simplified() -> Rules {
        Rules {
            name: "simplified",
            description: "simplified rules for amateur events and casual play (简化规则): the CXA table; pawn checks \
                          are not 长将; a threat to win a piece by a check (要抽吃) is an attack; 60 rounds without a \
                          capture may be claimed",
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
            discovered_capture_threats: true,
            temporary_limit: None,
        }
    }

    /// The same rules ruled the way engines and automatic servers rule: at the triggering
    /// occurrence, with no warning step.
    pub fn at_trigger(mut self) -> Rules {
        self.repetition_ruling = RepetitionRuling::AtTrigger;
        self
    }

    /// The rulesets [`Rules::by_name`] knows, the default first.
    pub const NAMES: [&'static str; 3] = ["cxa", "axf", "simplified"];

    /// The ruleset called `name` (case-insensitive; `seed002` is the old name of `simplified`).
    pub fn by_name(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "cxa" | "cxa2011" | "cxa2020" | "chinese" => Some(Rules::cxa()),
            "axf" | "wxf" | "asian" => Some(Rules::axf()),
            "simplified" | "seed002" | "amateur" => Some(Rules::simplified()),
            _ => None,
        }
    }

    /// A ruleset with an event's or a referee's limits: `NAME[,limit=ROUNDS][,temporary=ROUNDS[@PLY]]`.
    /// `limit` reduces the natural move limit (自然限着, "也可根据比赛等级酌减": it cannot be
    /// raised); `temporary` is a referee's temporary limit (临时限着) of that many rounds from
    /// ply `PLY` (0, the start, by default).
    pub fn parse(spec: &str) -> Result<Rules, String> {
        let mut parts = spec.split(',').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let mut rules = Rules::by_name(name)
            .ok_or_else(|| format!("unknown Xiangqi ruleset {name:?}; known: {}", Rules::NAMES.join(", ")))?;
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{part:?} in {spec:?}: expected limit=ROUNDS or temporary=ROUNDS[@PLY]"))?;
            match key.trim() {
                "limit" => {
                    let rounds = rounds(value)?;
                    rules = rules.with_natural_limit(rounds)?;
                }
                "temporary" => {
                    let (rounds, from_ply) = TemporaryLimit::parse(value)?;
                    rules = rules.with_temporary_limit(rounds, from_ply);
                }
                other => {
                    return Err(format!(
                        "unknown parameter {other:?} in {spec:?}; known: limit=ROUNDS, temporary=ROUNDS[@PLY]"
                    ))
                }
            }
        }
        Ok(rules)
    }

    /// The natural move limit reduced to `rounds` (自然限着 "也可根据比赛等级酌减"); more rounds than
    /// the ruleset's own is an error, as is none.
    pub fn with_natural_limit(mut self, rounds: u32) -> Result<Rules, String> {
        let most = self.natural_limit / 2;
        if rounds == 0 || rounds > most {
            return Err(format!(
                "a natural move limit of {rounds} rounds: the {} rules allow 1 to {most} (it may be reduced, not raised)",
                self.name
            ));
        }
        self.natural_limit = rounds * 2;
        Ok(self)
    }

    /// A referee's temporary move limit (临时限着) of `rounds` from ply `from_ply`.
    pub fn with_temporary_limit(mut self, rounds: u32, from_ply: u32) -> Rules {
        self.temporary_limit = Some(TemporaryLimit {
            from_ply,
            plies: rounds.saturating_mul(2),
        });
        self
    }
}

impl TemporaryLimit {
    /// Reads `ROUNDS` or `ROUNDS@PLY` (from the start when no ply is given): rounds and ply.
    pub fn parse(text: &str) -> Result<(u32, u32), String> {
        let (r, at) = text.split_once('@').unwrap_or((text, "0"));
        let from_ply = at
            .trim()
            .parse()
            .map_err(|_| format!("temporary limit {text:?}: the ply after @ must be a number, found {at:?}"))?;
        Ok((rounds(r)?, from_ply))
    }
}

/// A positive number of rounds.
fn rounds(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("expected a number of rounds (1 or more), found {text:?}")),
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::cxa()
    }
}
