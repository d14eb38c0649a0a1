//! The arbiter's corrections at the board, as commands: pieces straightened (seed 000 5.6), a
//! position put right (5.8), and seed 001's 纠正失误 — a board turned the wrong way, colours
//! swapped. How the referee rules each is in `game/corrections.rs`.

use serde::Serialize;

/// How a side came to straighten (摆正) a piece, as the arbiter saw it. Seed 000 5.6:
///
/// > 摆正棋子必须事先争得对方同意，而且只能在自己走棋的时间内进行，否则以摸子论处。
/// > 如系明显误碰某个棋子，不作摸子论处
///
/// Straightening needs the opponent's consent beforehand and is done only on one's own time;
/// otherwise it counts as touching. A piece plainly knocked by mistake is not a touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Straightening {
    /// With notice: the opponent agreed beforehand.
    WithNotice,
    /// A piece plainly knocked by mistake (明显误碰).
    Accidental,
    /// Without notice: a touch.
    Unannounced,
}

impl Straightening {
    pub fn code(self) -> &'static str {
        match self {
            Straightening::WithNotice => "notice",
            Straightening::Accidental => "accidental",
            Straightening::Unannounced => "unannounced",
        }
    }

    pub fn from_code(code: &str) -> Option<Straightening> {
        Some(match code {
            "notice" => Straightening::WithNotice,
            "accidental" => Straightening::Accidental,
            "unannounced" => Straightening::Unannounced,
            _ => return None,
        })
    }
}

/// A mistake at the board the arbiter puts right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Correction {
    /// Seed 000 5.8: the moves went wrong after this many plies (moves made in the wrong order,
    /// a piece displaced): the position goes back to the last correct one, after `ply` plies.
    ///
    /// > 5.8 纠正先后走颠倒或棋子被意外挪位等错误，应及时进行，局后不受理。
    ///
    /// Moves made in the wrong order or a piece accidentally displaced are put right at once;
    /// nothing is taken up after the game.
    RestoreTo(usize),
    /// Seed 001 纠正失误 (1): the board was turned the wrong way; the position is moved to a
    /// board set right and play goes on.
    ///
    /// > (1)在对局时，假设发现棋盘的方向摆错了，即黑格的棋盘角放在了自己的右侧，应即把对局已走成的
    /// > 局面移置到另一块摆放正确的棋盘上，而后继续对局。
    ///
    /// Found during play, a board set the wrong way (the dark corner square at one's right):
    /// the position reached is moved at once to a board set right, and the game goes on. The
    /// position the referee holds is the one reached, so nothing of the game changes: the
    /// ruling is recorded.
    BoardTurned,
    /// Seed 001 纠正失误 (2): the colours were swapped (the wrong side moved first by the
    /// pairing): the game restarts, unless a quarter of the first time period has gone by.
    ///
    /// > (2)在对局中，假设发现双方所用棋子色彩反了，先后走不合乎较量的编排规则，应替换棋子，
    /// > 从新末尾对局。如此时较量期间已过了第一时限所规则的四分之一，则对局应继续启动。
    /// >
    /// > 以上发现的各种状况，要在对局环节中及时纠正。假设赛后才发现，那么对局的结果有效。
    ///
    /// Our reading (the text is machine-garbled: 较量 is 比赛, 从新末尾 is 重新开始): found during
    /// play, colours used the wrong way round against the pairing: the pieces are exchanged and
    /// the game starts again. If by then more than a quarter of the first time period has
    /// passed, the game goes on. Found only after the game, its result stands. "Passed" is the
    /// game's playing time since its start (adjournments not counted), against a quarter of
    /// the first stage's time (of the limit per move where there is no stage); found exactly
    /// at the quarter, the quarter has not yet passed, and the game restarts. A game with no
    /// time limit restarts at any time.
    ColoursSwapped,
}

impl Correction {
    /// The article each rules under.
    pub fn article(self) -> &'static str {
        match self {
            Correction::RestoreTo(_) => "5.8",
            Correction::BoardTurned => "纠正失误 (1)",
            Correction::ColoursSwapped => "纠正失误 (2)",
        }
    }
}
