//! How an event conducts its games: the time control, the foul limits, the draw-offer etiquette,
//! touch-move and lateness, bundled by name with every threshold visible.

use serde::Serialize;

use crate::clock::{Millis, TimeControl};
use crate::events::FoulKind;

/// What a draw offer that the rules do not allow costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OfferPenalty {
    /// A technical foul (Xiangqi: 连续提和，干扰对方, seed 000 §8 (一)).
    TechnicalFoul,
    /// A warning (chess: FIDE 11.5, distracting the opponent).
    Warning,
}

/// An event's rules for conducting a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefereeRules {
    pub name: &'static str,
    pub description: &'static str,
    pub time: TimeControl,
    /// Illegal moves (违反行棋规定) that lose: 1 in national CXA events, 2 in provincial and
    /// junior ones (seed 000 4.1.8); 3 in the online chess rule of seed 001 (三次送王判负).
    pub illegal_moves_lose_at: Option<u32>,
    /// Technical fouls that lose: 2 under seed 000's friendly rules (同一局棋技术犯规两次判负),
    /// 3 under CXA 4.1.10 (三次"犯规").
    pub technical_fouls_lose_at: Option<u32>,
    /// Pressing the clock without moving: the second time loses (CXA 4.1.9).
    pub clock_presses_lose_at: Option<u32>,
    /// False claims of the natural move limit in one phase (since the last capture): the first
    /// is a foul, the second loses (CXA 4.1.11).
    pub false_limit_claims_lose_at: Option<u32>,
    /// What an illegal move (one that reads as a move but is not legal on the board) counts
    /// as: an illegal move under `illegal_moves_lose_at`, or a technical foul (seed 000 §8 (五):
    /// 棋子走往不能去的位置, toward its two-foul limit).
    pub illegal_move_counts_as: FoulKind,
    /// What a move out of turn counts as: nothing, refused (`None`), or a foul (seed 000 §8 (五):
    /// 一方多走一步, a technical foul).
    pub extra_move_counts_as: Option<FoulKind>,
    /// What a false draw claim counts as: a false claim under `false_limit_claims_lose_at`, or a
    /// technical foul (seed 000 §8 (二)).
    pub false_claim_counts_as: FoulKind,
    /// What a text that reads as no move in any notation counts as: nothing (`None`: it is not
    /// understood, and the player tries again), or, where a program sent it, an illegal move.
    pub unreadable_move_counts_as: Option<FoulKind>,
    /// Time added to the opponent's clock after a false claim (FIDE 9.5.3: two minutes).
    pub false_claim_bonus: Option<Millis>,
    /// Offers only together with one's own move (the seeds' etiquette).
    pub offer_with_move: bool,
    pub repeated_offer: OfferPenalty,
    /// Touch-move applies (an arbiter at the board enters what was touched).
    pub touch_move: bool,
    /// An illegal move that does not answer a check is taken back, and the check must be
    /// answered with the same piece if it can (seed 001 纠正失误 (3)).
    pub check_reply_with_same_piece: bool,
    /// A side that has not made its first move this long after the start loses (迟到判负时限:
    /// the referee sees a player arrive by the first move).
    pub lateness: Option<Millis>,
    /// A side may ask to take back its last move, the opponent agreeing (online play; never
    /// in competition).
    pub takebacks: bool,
}

impl RefereeRules {
    /// CXA national events: one illegal move loses, three fouls lose, 60 minutes each with 30 s
    /// a move added (a common CXA control), 15 minutes' lateness.
    pub fn cxa() -> RefereeRules {
        RefereeRules {
            name: "cxa",
            description: "CXA national event: 1 illegal move, 3 technical fouls, 2 clock presses without a move, \
                          2 false move-limit claims in a phase lose; offers with a move; touch-move",
            time: TimeControl::fischer(3_600_000, 30_000),
            illegal_moves_lose_at: Some(1),
            technical_fouls_lose_at: Some(3),
            clock_presses_lose_at: Some(2),
            false_limit_claims_lose_at: Some(2),
            illegal_move_counts_as: FoulKind::IllegalMove,
            extra_move_counts_as: None,
            false_claim_counts_as: FoulKind::FalseClaim,
            unreadable_move_counts_as: None,
            false_claim_bonus: None,
            offer_with_move: true,
            repeated_offer: OfferPenalty::TechnicalFoul,
            touch_move: true,
            check_reply_with_same_piece: true,
            lateness: Some(900_000),
            takebacks: false,
        }
    }

    /// CXA provincial and junior events: as national, two illegal moves lose.
    pub fn cxa_provincial() -> RefereeRules {
        RefereeRules {
            name: "cxa-provincial",
            description: "CXA provincial or junior event: as cxa, but the second illegal move loses",
            illegal_moves_lose_at: Some(2),
            ..RefereeRules::cxa()
        }
    }

    /// Seed 000's friendly rules: a limit per move (每方走一着棋的时间不得超过 N 秒; 60 s here),
    /// two technical fouls lose (§4 (四)), touch-move. Its technical fouls (§8) include what
    /// other rules count apart: an illegal or extra move (五) and a false move-limit claim (二).
    pub fn casual() -> RefereeRules {
        RefereeRules {
            name: "casual",
            description: "friendly rules of seed 000: each move within 60 s, 2 technical fouls lose \
                          (illegal and extra moves, false claims, repeated offers, touch-move among them), touch-move",
            time: TimeControl::per_move(60_000),
            illegal_moves_lose_at: None,
            technical_fouls_lose_at: Some(2),
            clock_presses_lose_at: None,
            false_limit_claims_lose_at: None,
            illegal_move_counts_as: FoulKind::Technical,
            extra_move_counts_as: Some(FoulKind::Technical),
            false_claim_counts_as: FoulKind::Technical,
            unreadable_move_counts_as: None,
            false_claim_bonus: None,
            offer_with_move: true,
            repeated_offer: OfferPenalty::TechnicalFoul,
            touch_move: true,
            check_reply_with_same_piece: true,
            lateness: None,
            takebacks: false,
        }
    }

    /// FIDE over-the-board chess: 90 minutes and 30 s a move; repeated offers are warned;
    /// illegal moves are the arbiter's matter (FIDE 7.5: the second loses).
    pub fn fide() -> RefereeRules {
        RefereeRules {
            name: "fide",
            description: "FIDE standard play: 90 min + 30 s, the second illegal move loses (7.5.5), touch-move",
            time: TimeControl::fischer(5_400_000, 30_000),
            illegal_moves_lose_at: Some(2),
            technical_fouls_lose_at: None,
            clock_presses_lose_at: None,
            false_limit_claims_lose_at: None,
            illegal_move_counts_as: FoulKind::IllegalMove,
            extra_move_counts_as: None,
            false_claim_counts_as: FoulKind::FalseClaim,
            unreadable_move_counts_as: None,
            false_claim_bonus: Some(120_000),
            offer_with_move: true,
            repeated_offer: OfferPenalty::Warning,
            touch_move: true,
            check_reply_with_same_piece: true,
            // FIDE 6.7's default zero tolerance concerns arrival at the board, which the referee
            // does not see; an organiser sets a first-move deadline here where wanted.
            lateness: None,
            takebacks: false,
        }
    }

    /// Online play (lichess-like): illegal moves are refused (three moves into check lose, seed
    /// 001), no touch-move, offers at any time.
    pub fn online() -> RefereeRules {
        RefereeRules {
            name: "online",
            description: "online play: 5 min + 3 s, illegal moves refused (the third loses), offers any time",
            time: TimeControl::fischer(300_000, 3_000),
            illegal_moves_lose_at: Some(3),
            technical_fouls_lose_at: None,
            clock_presses_lose_at: None,
            false_limit_claims_lose_at: None,
            illegal_move_counts_as: FoulKind::IllegalMove,
            extra_move_counts_as: None,
            false_claim_counts_as: FoulKind::FalseClaim,
            unreadable_move_counts_as: None,
            false_claim_bonus: None,
            offer_with_move: false,
            repeated_offer: OfferPenalty::Warning,
            touch_move: false,
            check_reply_with_same_piece: false,
            lateness: None,
            takebacks: true,
        }
    }

    pub const NAMES: [&'static str; 5] = ["cxa", "cxa-provincial", "casual", "fide", "online"];

    pub fn by_name(name: &str) -> Option<RefereeRules> {
        Some(match name.to_ascii_lowercase().as_str() {
            "cxa" | "cxa-national" => RefereeRules::cxa(),
            "cxa-provincial" | "cxa-junior" => RefereeRules::cxa_provincial(),
            "casual" | "seed000" => RefereeRules::casual(),
            "fide" => RefereeRules::fide(),
            "online" => RefereeRules::online(),
            _ => return None,
        })
    }
}
