//! Team tie-breaks by code (FIDE C.07 2024/2026 team tie-breaks as FIDE's tie-break server
//! names them, and the CXA's words):
//!
//! | code | | value for team *t* | ranks first |
//! |---|---|---|---|
//! | `MP` 场分 | match points | Σ match points | higher |
//! | `GP` 局分 | game points | Σ game points | higher |
//! | `DE` 直胜 | direct encounter (Art. 6) | the place among the tied teams by the primary score scored against each other | 1 |
//! | `BH:MP`, `BH:GP` | Buchholz (Art. 8.1) | Σ over rounds of the opponent's match (game) points | higher |
//! | `SB` | Sonneborn-Berger (Art. 9.1) | Σ opponent's primary score × own primary score against him (`SB:MP` = `ESB:MM`, `SB:GP` = `ESB:GG`) | higher |
//! | `ESB:XY`, `EXYSB` | extended SB (Art. 13.2) | Σ opponent's X points × own Y points against him (X, Y = M or G; `ESB:MG` is the Olympiad's) | higher |
//! | `BC` | board count (Art. 12.1) | Σ_b b × (game points on board b) | lower |
//! | `TBR` 台次分 | top board result (Art. 12.2) | game points on board 1, then board 2, … compared in turn | 1 |
//! | `BBE` | bottom board elimination (Art. 12.3) | game points without the last board, then without the last two, … | 1 |
//!
//! `BH` and `SB` without `:MP`/`:GP` are on the primary score. `/C1` after a Buchholz or SB
//! code cuts one value: the lowest opponent's for BH, for SB the contribution of the
//! lowest-scored opponent (the lowest such contribution if several), as C.07 cuts them. The
//! group tie-breaks (DE, TBR, BBE) report Gacrux's kind of number: 1 for the first of the tied
//! group and the same number for those still tied (1, 2, 2, 4), 0 for all when it separates
//! none. The CXA's team order (场分, 局分, 直胜, 台次分) is [`CXA_ORDER`] with match points first.

use serde::Serialize;

use super::{Primary, TeamError};

/// Match or game points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Points {
    Match,
    Game,
}

impl Points {
    pub(super) fn letter(self) -> char {
        match self {
            Points::Match => 'M',
            Points::Game => 'G',
        }
    }

    pub(super) fn of(primary: Primary) -> Points {
        match primary {
            Primary::MatchPoints => Points::Match,
            Primary::GamePoints => Points::Game,
        }
    }
}

/// A team tie-break (see the module's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum TeamTieBreak {
    /// `MP` 场分: Σ match points.
    Mp,
    /// `GP` 局分: Σ game points.
    Gp,
    /// `DE` 直胜: the place among the tied teams by the primary score made against each other
    /// (see [`crate::team::standings`]).
    De,
    /// `BH:MP`, `BH:GP`: Σ over the rounds of the opponent's (or dummy's) points; with `cut`
    /// the lowest left out.
    Bh { points: Points, cut: bool },
    /// `ESB:XY` (`SB` is `ESB` on the primary score twice): Σ over the rounds of the opponent's
    /// `opponent` points × the team's `own` points in that match; with `cut` the contribution
    /// of the lowest-scored opponent left out (the lowest such if several).
    Sb { opponent: Points, own: Points, cut: bool },
    /// `BC`: Σ over boards b of b × the game points on board b, lower first.
    Bc,
    /// `TBR` 台次分: game points on board 1, then on board 2, …, compared in turn.
    Tbr,
    /// `BBE`: game points without the last board, then without the last two, …, compared in
    /// turn.
    Bbe,
}

/// The CXA's team order after 场分: 局分, 直胜, 台次分.
pub const CXA_ORDER: [TeamTieBreak; 3] = [TeamTieBreak::Gp, TeamTieBreak::De, TeamTieBreak::Tbr];

impl TeamTieBreak {
    /// Reads a code (`GP`, `bh:mp/c1`, `EMGSB`, `ESB:MG/C1`, `台次分`, …); `BH` and `SB`
    /// without points are on `primary`.
    pub fn parse(code: &str, primary: Primary) -> Result<TeamTieBreak, TeamError> {
        let unknown = || TeamError::UnknownTieBreak(code.to_string());
        let upper = code.trim().to_uppercase();
        let (name, cut) = match upper.strip_suffix("/C1") {
            Some(name) => (name, true),
            None => (upper.as_str(), false),
        };
        let letter = |c: char| match c {
            'M' => Some(Points::Match),
            'G' => Some(Points::Game),
            _ => None,
        };
        let pair = |s: &str| -> Option<(Points, Points)> {
            let mut c = s.chars();
            let p = (letter(c.next()?)?, letter(c.next()?)?);
            c.next().is_none().then_some(p)
        };
        let p = Points::of(primary);
        let tb = match name {
            "MP" | "场分" => TeamTieBreak::Mp,
            "GP" | "局分" => TeamTieBreak::Gp,
            "DE" | "直胜" => TeamTieBreak::De,
            "BC" => TeamTieBreak::Bc,
            "TBR" | "台次分" => TeamTieBreak::Tbr,
            "BBE" => TeamTieBreak::Bbe,
            "BH" => TeamTieBreak::Bh { points: p, cut },
            "BH:MP" => TeamTieBreak::Bh {
                points: Points::Match,
                cut,
            },
            "BH:GP" => TeamTieBreak::Bh {
                points: Points::Game,
                cut,
            },
            "SB" => TeamTieBreak::Sb {
                opponent: p,
                own: p,
                cut,
            },
            "SB:MP" | "SB:GP" => {
                let q = if name == "SB:MP" { Points::Match } else { Points::Game };
                TeamTieBreak::Sb {
                    opponent: q,
                    own: q,
                    cut,
                }
            }
            _ => {
                let xy = name
                    .strip_prefix("ESB:")
                    .or_else(|| name.strip_prefix('E').and_then(|s| s.strip_suffix("SB")))
                    .and_then(pair)
                    .ok_or_else(unknown)?;
                TeamTieBreak::Sb {
                    opponent: xy.0,
                    own: xy.1,
                    cut,
                }
            }
        };
        let cuttable = matches!(tb, TeamTieBreak::Bh { .. } | TeamTieBreak::Sb { .. });
        if cut && !cuttable {
            return Err(unknown());
        }
        Ok(tb)
    }

    /// Reads a comma-separated list of codes.
    pub fn parse_list(list: &str, primary: Primary) -> Result<Vec<TeamTieBreak>, TeamError> {
        list.split(',')
            .filter(|c| !c.trim().is_empty())
            .map(|c| TeamTieBreak::parse(c, primary))
            .collect()
    }

    /// The canonical code (`BH:MP/C1`, `ESB:MG`, …).
    pub fn code(self) -> String {
        let cut = |c: bool| if c { "/C1" } else { "" };
        match self {
            TeamTieBreak::Mp => "MP".into(),
            TeamTieBreak::Gp => "GP".into(),
            TeamTieBreak::De => "DE".into(),
            TeamTieBreak::Bc => "BC".into(),
            TeamTieBreak::Tbr => "TBR".into(),
            TeamTieBreak::Bbe => "BBE".into(),
            TeamTieBreak::Bh { points, cut: c } => format!("BH:{}P{}", points.letter(), cut(c)),
            TeamTieBreak::Sb { opponent, own, cut: c } => {
                format!("ESB:{}{}{}", opponent.letter(), own.letter(), cut(c))
            }
        }
    }

    /// Whether the tie-break places the teams of a tied group (DE, TBR, BBE) rather than giving
    /// each team a value of its own.
    pub fn by_group(self) -> bool {
        matches!(self, TeamTieBreak::De | TeamTieBreak::Tbr | TeamTieBreak::Bbe)
    }

    /// Whether a higher value ranks first: all but board count and the group places (DE, TBR,
    /// BBE).
    pub fn higher_first(self) -> bool {
        !matches!(
            self,
            TeamTieBreak::Bc | TeamTieBreak::De | TeamTieBreak::Tbr | TeamTieBreak::Bbe
        )
    }
}
