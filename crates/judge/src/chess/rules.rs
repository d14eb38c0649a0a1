//! The chess rulesets: which draws end the game by themselves and which a player must claim, at
//! what counts, and the articles the explanations cite.

/// A chess ruleset. The fields are public so that a tournament can set its own counts; the
/// named sets are [`ChessRules::NAMES`].
///
/// A claim count that is `None` means there is no claim for that rule: the automatic count is
/// the only one (and a claim count not below the automatic one could never be used either).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ChessRules {
    /// The name verdicts carry (`fide`, `automatic-draws`).
    pub name: &'static str,
    /// Occurrences of one position at which the player to move may claim a draw (FIDE 9.2: 3).
    pub repetition_claim: Option<u32>,
    /// Occurrences at which the game is drawn without a claim (FIDE 9.6.1: 5).
    pub repetition_auto: u32,
    /// Plies without a capture or pawn move after which the player to move may claim a draw
    /// (FIDE 9.3: 100, fifty moves by each player).
    pub move_rule_claim: Option<u32>,
    /// Plies without a capture or pawn move after which the game is drawn without a claim
    /// (FIDE 9.6.2: 150).
    pub move_rule_auto: u32,
    /// Whether a dead position ends the game by itself (FIDE 5.2.2: yes). When not, it is
    /// reported as a claim.
    pub dead_position_auto: bool,
    /// What the explanations cite for each rule.
    pub articles: Articles,
}

/// The article each rule rests on, as the explanations cite it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Articles {
    pub checkmate: &'static str,
    pub stalemate: &'static str,
    pub dead_position: &'static str,
    /// The repeated position has just appeared (the claim, or the automatic draw).
    pub repetition_now: &'static str,
    /// The player announces the move that makes it appear.
    pub repetition_by_move: &'static str,
    pub repetition_auto: &'static str,
    pub move_rule_now: &'static str,
    pub move_rule_by_move: &'static str,
    pub move_rule_auto: &'static str,
}

impl ChessRules {
    /// The rulesets [`ChessRules::by_name`] knows, the default first.
    pub const NAMES: [&'static str; 2] = ["fide", "automatic-draws"];

    /// The FIDE Laws of Chess (2023): threefold repetition and fifty moves are claims (9.2,
    /// 9.3); fivefold repetition and seventy-five moves end the game by themselves (9.6); so
    /// does a dead position (5.2.2).
    pub const fn fide() -> ChessRules {
        ChessRules {
            name: "fide",
            repetition_claim: Some(3),
            repetition_auto: 5,
            move_rule_claim: Some(100),
            move_rule_auto: 150,
            dead_position_auto: true,
            articles: Articles {
                checkmate: "FIDE 5.1.1",
                stalemate: "FIDE 5.2.1",
                dead_position: "FIDE 5.2.2",
                repetition_now: "FIDE 9.2.1.2",
                repetition_by_move: "FIDE 9.2.1.1",
                repetition_auto: "FIDE 9.6.1",
                move_rule_now: "FIDE 9.3.2",
                move_rule_by_move: "FIDE 9.3.1",
                move_rule_auto: "FIDE 9.6.2",
            },
        }
    }

    /// FIDE's game with automatic draws: the rules of the user's Chinese text on international
    /// chess (国际象棋, seed 001), formerly named `seed001`.
    ///
    /// What it says about the end of a game (section 胜负和, listed twice): checkmate wins;
    /// the game is drawn (和局) when (1) a draw offer is accepted; (2) neither side can
    /// checkmate the other king (死局); (3) one side checks without end and the other cannot
    /// escape the checks (长将和, perpetual check); (4) stalemate (逼和); (5) the same position
    /// occurs three times with the same side to move and the same possible moves (三次重复);
    /// (6) fifty moves by both sides without a capture or a pawn move. Items 5 and 6 say
    /// "判为和局" — the game *is* drawn — and nowhere mention a claim, an announced move or an
    /// arbiter; nor does the text know fivefold repetition or seventy-five moves.
    ///
    /// How that differs from FIDE: threefold repetition and fifty moves end the game by
    /// themselves here (FIDE 9.2 and 9.3 make them claims, and only 9.6's fivefold and
    /// seventy-five moves are automatic). Perpetual check (3) has no count of its own: a
    /// perpetual check repeats positions, so the automatic threefold repetition ends it (and
    /// checks that never repeat a position end at the fifty-move limit, as no check without a
    /// capture or pawn move can go on longer). Dead positions (2) and stalemate (4) are as in
    /// FIDE. The draw offer procedure and the rule that moving the king into check ("送王") a
    /// third time loses are matters for the referee, not for judging a position.
    pub const fn automatic_draws() -> ChessRules {
        ChessRules {
            name: "automatic-draws",
            repetition_claim: None,
            repetition_auto: 3,
            move_rule_claim: None,
            move_rule_auto: 100,
            dead_position_auto: true,
            articles: Articles {
                checkmate: "seed 001 胜负和; FIDE 5.1.1",
                stalemate: "seed 001 胜负和 4; FIDE 5.2.1",
                dead_position: "seed 001 胜负和 2; FIDE 5.2.2",
                repetition_now: "seed 001 胜负和 5",
                repetition_by_move: "seed 001 胜负和 5",
                repetition_auto: "seed 001 胜负和 5",
                move_rule_now: "seed 001 胜负和 6",
                move_rule_by_move: "seed 001 胜负和 6",
                move_rule_auto: "seed 001 胜负和 6",
            },
        }
    }

    /// The ruleset called `name` (case-insensitive), if there is one.
    pub fn by_name(name: &str) -> Option<ChessRules> {
        match name.to_ascii_lowercase().as_str() {
            "fide" => Some(ChessRules::fide()),
            "automatic-draws" | "seed001" => Some(ChessRules::automatic_draws()),
            _ => None,
        }
    }

    /// The repetition count at which a claim is possible, if it comes before the automatic
    /// draw.
    pub(super) fn repetition_claim_count(&self) -> Option<u32> {
        self.repetition_claim.filter(|&n| n < self.repetition_auto)
    }

    /// The ply count at which a claim is possible, if it comes before the automatic draw.
    pub(super) fn move_rule_claim_plies(&self) -> Option<u32> {
        self.move_rule_claim.filter(|&n| n < self.move_rule_auto)
    }
}

impl Default for ChessRules {
    fn default() -> ChessRules {
        ChessRules::fide()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for name in ChessRules::NAMES {
            assert_eq!(ChessRules::by_name(name).unwrap().name, name);
        }
        assert_eq!(ChessRules::by_name("FIDE"), Some(ChessRules::fide()));
        assert_eq!(ChessRules::by_name("uscf"), None);
        assert_eq!(ChessRules::default().name, "fide");
    }

    #[test]
    fn automatic_draws_has_no_claims() {
        let r = ChessRules::automatic_draws();
        assert_eq!(r.repetition_claim_count(), None);
        assert_eq!(r.move_rule_claim_plies(), None);
        assert_eq!(ChessRules::fide().repetition_claim_count(), Some(3));
        assert_eq!(ChessRules::fide().move_rule_claim_plies(), Some(100));
    }
}
