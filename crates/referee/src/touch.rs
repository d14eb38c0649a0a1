//! Touch-move (摸子走子): what a player who touched pieces must now do, in the order of
//! precedence of seed 000 §7 (CXA rules 5.1–5.5):
//!
//! - 5.1 a piece of one's own: move it, unless it has no legal move;
//! - 5.2 an opponent's piece: take it, unless no piece can;
//! - 5.3 one's own, then the opponent's: take the latter with the former — else move the
//!   former — else take the latter with another piece — else move freely;
//! - 5.4 the opponent's, then one's own (and 5.5, both at once): take the former with the
//!   latter — else take the former with another piece — else move the latter — else freely.
//!
//! Touching a piece that then cannot be moved or taken is itself a technical foul (seed 000
//! §8 (三), (四)): the obligation says so.
//!
//! Squares are the game's coordinates (`h2`, `e4`): the obligation is computed from the legal
//! moves' coordinate text, so it is the same code for both games.

use game::Game;
use serde::Serialize;

/// A touch, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Touch {
    /// A piece of the side to move, on this square.
    Own(String),
    /// A piece of the opponent.
    Opponent(String),
}

/// Which article decided, and what it allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation<M> {
    /// The moves allowed; `None`: any legal move.
    pub allowed: Option<Vec<M>>,
    /// The article that applies (`5.1` … `5.4`, or `free`).
    pub article: &'static str,
    /// In words.
    pub rule: String,
    /// The same as data, for a page to say it in its own language.
    pub said: Rule,
    /// Touching this piece was a technical foul: one's own piece that cannot move (§8 (三)), or
    /// an opponent's that cannot be taken (§8 (四)); in words and as data.
    pub foul: Option<(String, Rule)>,
}

/// A touch-move rule (or a touch's foul) as data: what it says (`code`) and the squares it
/// names — the piece of one's own and the opponent's touched — so that a page writes it in
/// its own language rather than translating the English.
///
/// Codes: `nothing_touched`; 5.1 `move_touched`, `own_cannot_move_any`; 5.2 `take_touched`,
/// `none_can_take_any`; 5.3 `take_with`, `move_own_instead`, `take_with_another`,
/// `nothing_of_5_3`; 5.4 `take_with`, `take_with_another_instead`, `move_own_last`,
/// `nothing_of_5_4`; the fouls `touched_own_immovable` (§8 (三)) and
/// `touched_untakable` (§8 (四)). Seed 001 纠正失误 (3) says an obligation as
/// `answer_check_with` the piece on `own`, its rule's code in `then`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub code: &'static str,
    /// The article it applies (`5.1` … `5.4`, `§8 (三)`, `§8 (四)`; empty for nothing touched).
    pub article: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theirs: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<&'static str>,
}

impl Rule {
    fn new(code: &'static str, article: &'static str, own: Option<&str>, theirs: Option<&str>) -> Rule {
        Rule {
            code,
            article,
            own: own.map(str::to_string),
            theirs: theirs.map(str::to_string),
            then: None,
        }
    }
}

impl<M: PartialEq + Copy> Obligation<M> {
    /// Whether `m` fulfils the obligation.
    pub fn permits(&self, m: M) -> bool {
        self.allowed.as_ref().is_none_or(|a| a.contains(&m))
    }
}

/// A rule's code and its English words.
type Said = (&'static str, String);

/// The legal moves as (move, from, to) by coordinates.
fn moves<G: Game>(pos: &G) -> Vec<(G::Move, String, String)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let c = pos.coordinate(m);
            let (from, rest) = split_square(&c);
            let (to, _) = split_square(rest);
            (m, from.to_string(), to.to_string())
        })
        .collect()
}

/// The square a move written in coordinates starts from (`h2` of `h2e2`, `e7` of `e7e8q`).
pub fn from_square(text: &str) -> Option<String> {
    let t = text.trim();
    let (sq, rest) = split_square(t);
    let mut c = sq.chars();
    let file_ok = c.next().is_some_and(|f| f.is_ascii_lowercase());
    let rank_ok = c.as_str().parse::<u8>().is_ok();
    (file_ok && rank_ok && rest.chars().next().is_some_and(|f| f.is_ascii_lowercase())).then(|| sq.to_string())
}

/// A square at the start of a coordinate text: a file letter and the rank digits.
fn split_square(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(s.len(), |(i, _)| i);
    s.split_at(end)
}

/// The obligation after `touches` (the first own and first opponent's piece touched count).
pub fn obligation<G: Game>(pos: &G, touches: &[Touch]) -> Obligation<G::Move> {
    let list = moves(pos);
    let own = touches.iter().find_map(|t| match t {
        Touch::Own(s) => Some(s.as_str()),
        _ => None,
    });
    let theirs = touches.iter().find_map(|t| match t {
        Touch::Opponent(s) => Some(s.as_str()),
        _ => None,
    });
    let own_first = matches!(touches.first(), Some(Touch::Own(_)));
    let pick = |f: &dyn Fn(&str, &str) -> bool| -> Vec<G::Move> {
        list.iter().filter(|(_, a, b)| f(a, b)).map(|(m, _, _)| *m).collect()
    };
    let mut foul = None;
    let moves_of = |s: &str| pick(&|a, _| a == s);
    let takes = |s: &str| pick(&|_, b| b == s);
    let takes_with = |own: &str, t: &str| pick(&|a, b| a == own && b == t);
    let take_with_another = |own: &str, t: &str| pick(&|a, b| a != own && b == t);
    let said = |code, article| Rule::new(code, article, own, theirs);
    let free = |(code, article), rule: &str, foul| Obligation {
        allowed: None,
        article: "free",
        rule: rule.to_string(),
        said: said(code, article),
        foul,
    };
    let must = |allowed: Vec<G::Move>, article: &'static str, (code, rule): Said, foul| Obligation {
        allowed: Some(allowed),
        article,
        rule,
        said: said(code, article),
        foul,
    };
    let immovable = |o: &str| {
        let what = format!("touched own piece on {o}, which cannot move (§8 (三))");
        (what, Rule::new("touched_own_immovable", "§8 (三)", Some(o), None))
    };
    let untakable = |t: &str| {
        let what = format!("touched the opponent's piece on {t}, which cannot be taken (§8 (四))");
        (what, Rule::new("touched_untakable", "§8 (四)", None, Some(t)))
    };
    match (own, theirs) {
        (None, None) => free(("nothing_touched", ""), "nothing touched", None),
        (Some(o), None) => {
            let m = moves_of(o);
            if m.is_empty() {
                free(
                    ("own_cannot_move_any", "5.1"),
                    &format!("the piece on {o} has no legal move: any move (5.1)"),
                    Some(immovable(o)),
                )
            } else {
                must(
                    m,
                    "5.1",
                    ("move_touched", format!("move the touched piece on {o} (5.1)")),
                    None,
                )
            }
        }
        (None, Some(t)) => {
            let m = takes(t);
            if m.is_empty() {
                free(
                    ("none_can_take_any", "5.2"),
                    &format!("no piece can take on {t}: any move (5.2)"),
                    Some(untakable(t)),
                )
            } else {
                must(
                    m,
                    "5.2",
                    ("take_touched", format!("take the touched piece on {t} (5.2)")),
                    None,
                )
            }
        }
        (Some(o), Some(t)) if own_first => {
            // 5.3: own first.
            let steps: [(Vec<G::Move>, Said); 3] = [
                (
                    takes_with(o, t),
                    ("take_with", format!("take {t} with the piece on {o} (5.3)")),
                ),
                (
                    moves_of(o),
                    (
                        "move_own_instead",
                        format!("{o} cannot take {t}: move the piece on {o} (5.3)"),
                    ),
                ),
                (
                    take_with_another(o, t),
                    (
                        "take_with_another",
                        format!("{o} cannot move: take {t} with another piece (5.3)"),
                    ),
                ),
            ];
            if moves_of(o).is_empty() {
                foul = Some(immovable(o));
            }
            steps
                .into_iter()
                .find(|(m, _)| !m.is_empty())
                .map(|(m, rule)| must(m, "5.3", rule, foul.clone()))
                .unwrap_or_else(|| free(("nothing_of_5_3", "5.3"), "nothing of 5.3 can be done: any move", foul))
        }
        (Some(o), Some(t)) => {
            // 5.4 (and 5.5, both at once): the opponent's first.
            let steps: [(Vec<G::Move>, Said); 3] = [
                (
                    takes_with(o, t),
                    ("take_with", format!("take {t} with the piece on {o} (5.4)")),
                ),
                (
                    take_with_another(o, t),
                    (
                        "take_with_another_instead",
                        format!("{o} cannot take {t}: take it with another piece (5.4)"),
                    ),
                ),
                (
                    moves_of(o),
                    (
                        "move_own_last",
                        format!("no piece can take {t}: move the piece on {o} (5.4)"),
                    ),
                ),
            ];
            if takes(t).is_empty() {
                foul = Some(untakable(t));
            }
            steps
                .into_iter()
                .find(|(m, _)| !m.is_empty())
                .map(|(m, rule)| must(m, "5.4", rule, foul.clone()))
                .unwrap_or_else(|| free(("nothing_of_5_4", "5.4"), "nothing of 5.4 can be done: any move", foul))
        }
    }
}
