//! A live game: the referee for either game behind one type, and what a game is made from.

use game::{Game, Kind, Side};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;
use referee::clock::{Millis, Remaining, TimeControl};
use referee::{Command, Ending, Event, Referee, RefereeRules};

use crate::error::{ApiError, Problem};

/// What a game is made from, as stored in its row: enough to rebuild it before its log replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub kind: Kind,
    /// The referee's rules (`online`, `cxa`, `fide`, …).
    pub ruleset: String,
    /// The judge's rules (`cxa`, `axf`, `simplified` for Xiangqi, with an event's limits where
    /// set: `cxa,limit=40,temporary=20@80`; `fide`, `automatic-draws` for chess).
    pub rules: String,
    /// Fischer time control: main time and increment; `None` keeps the ruleset's own.
    pub clock: Option<(Millis, Millis)>,
    /// A limit on every single move besides the clock (the Chinese rules' 每步限时).
    pub per_move: Option<Millis>,
    /// A rated game: no takebacks, whatever the ruleset.
    pub rated: bool,
    /// A game of an event (a competition): no takebacks, whatever the ruleset.
    pub event: bool,
}

impl Spec {
    pub fn validate(&self) -> Result<(), ApiError> {
        Live::new(self).map(|_| ())
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Xiangqi => "xiangqi",
            Kind::Chess => "chess",
        }
    }
}

pub enum Live {
    Xiangqi(Box<Referee<XiangqiJudge>>),
    Chess(Box<Referee<ChessJudge>>),
}

/// Calls the same method on whichever referee it is.
macro_rules! each {
    ($self:expr, $r:ident => $body:expr) => {
        match $self {
            Live::Xiangqi($r) => $body,
            Live::Chess($r) => $body,
        }
    };
}

/// Xiangqi rules whose name or options do not read (`why`: the judge's English).
pub fn bad_rules(why: String) -> ApiError {
    ApiError::bad(Problem::BadRules, why.clone()).arg("detail", why)
}

impl Live {
    pub fn new(spec: &Spec) -> Result<Live, ApiError> {
        let mut rules = RefereeRules::by_name(&spec.ruleset).ok_or_else(|| {
            let known = RefereeRules::NAMES.join(", ");
            ApiError::bad(
                Problem::UnknownRuleset,
                format!("unknown ruleset {:?}; known: {known}", spec.ruleset),
            )
            .arg("ruleset", spec.ruleset.as_str())
            .arg("known", known)
        })?;
        if let Some((limit, increment)) = spec.clock {
            rules.time = if limit == 0 && increment == 0 {
                TimeControl::unlimited()
            } else {
                TimeControl::fischer(limit, increment)
            };
        }
        if let Some(limit) = spec.per_move {
            rules.time.per_move = Some(limit);
        }
        let unknown = |known: &str| {
            ApiError::bad(
                Problem::UnknownRules,
                format!("unknown rules {:?}; known: {known}", spec.rules),
            )
            .arg("rules", spec.rules.as_str())
            .arg("known", known)
        };
        Ok(match spec.kind {
            Kind::Xiangqi => {
                // The name may carry an event's limits: `cxa,limit=40,temporary=20`.
                let judge_rules = Rules::parse(&spec.rules).map_err(bad_rules)?;
                let judge = XiangqiJudge::new(xiangqi::Position::start(), judge_rules);
                let mut r = Referee::new(judge, rules);
                r.set_rated(spec.rated);
                r.set_competition(spec.event);
                Live::Xiangqi(Box::new(r))
            }
            Kind::Chess => {
                let judge_rules =
                    ChessRules::by_name(&spec.rules).ok_or_else(|| unknown(&ChessRules::NAMES.join(", ")))?;
                let judge = ChessJudge::new(<chess::Position as Game>::start(), judge_rules);
                let mut r = Referee::new(judge, rules);
                r.set_rated(spec.rated);
                r.set_competition(spec.event);
                Live::Chess(Box::new(r))
            }
        })
    }

    pub fn kind(&self) -> Kind {
        match self {
            Live::Xiangqi(_) => Kind::Xiangqi,
            Live::Chess(_) => Kind::Chess,
        }
    }

    pub fn apply(&mut self, at: Millis, side: Side, command: Command) -> Vec<Event> {
        each!(self, r => r.apply(at, side, command).to_vec())
    }

    pub fn wake_at(&self) -> Option<Millis> {
        each!(self, r => r.wake_at())
    }

    pub fn ending(&self) -> Option<&Ending> {
        each!(self, r => r.ending())
    }

    pub fn remaining(&self, side: Side, at: Millis) -> Remaining {
        each!(self, r => r.clock().remaining(side, at))
    }

    /// What is left of the per-move limit for the current move at `at`, if the game has one.
    pub fn move_left(&self, at: Millis) -> Option<Millis> {
        each!(self, r => r.clock().move_left(at))
    }

    /// The time of the last command: where a restored game's time resumes.
    pub fn time_control(&self) -> &TimeControl {
        each!(self, r => r.clock().control())
    }

    /// The Fischer increment `side` gets for its next move: its current stage's.
    pub fn increment(&self, side: Side) -> Millis {
        each!(self, r => {
            let clock = r.clock();
            let mut made = clock.moves(side);
            let stages = &clock.control().stages;
            stages
                .iter()
                .find(|s| match s.moves {
                    Some(n) if made >= n => {
                        made -= n;
                        false
                    }
                    _ => true,
                })
                .or(stages.last())
                .map_or(0, |s| s.increment)
        })
    }

    pub fn last_at(&self) -> Millis {
        each!(self, r => r.log().last().map_or(0, |c| c.0))
    }

    pub fn commands(&self) -> usize {
        each!(self, r => r.log().len())
    }

    pub fn turn(&self) -> Side {
        each!(self, r => Game::turn(r.judge().position()))
    }

    /// The side to move's legal moves in coordinates (ICCS or UCI): the page's hints.
    pub fn legal(&self) -> Vec<String> {
        each!(self, r => {
            let p = r.judge().position();
            Game::legal_moves(p).into_iter().map(|m| Game::coordinate(p, m)).collect()
        })
    }

    /// The draw a claim would be granted now (the judge's reason code), or `None`: the page
    /// offers a claim only then, since a false claim is a foul.
    pub fn claimable(&self) -> Option<&'static str> {
        each!(self, r => r.claimable().map(|v| v.reason.code()))
    }

    /// Whether `side` may offer a draw now: not after its declined offer until the opponent
    /// has offered (the page hides the button then, the referee would refuse it).
    pub fn may_offer_draw(&self, side: Side) -> bool {
        each!(self, r => r.may_offer_draw(side))
    }

    /// Whether offers go with one's own move under these rules (the page's button then offers
    /// with the next move).
    pub fn offer_with_move(&self) -> bool {
        each!(self, r => r.rules().offer_with_move)
    }

    /// Whether `side` may ask for a takeback now.
    pub fn may_propose_takeback(&self, side: Side) -> bool {
        each!(self, r => r.may_propose_takeback(side))
    }

    /// The side whose takeback request stands, if any.
    pub fn takeback_by(&self) -> Option<Side> {
        each!(self, r => r.takeback().map(|(by, _)| by))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        each!(self, r => Game::is_check(r.judge().position()))
    }

    pub fn fen(&self) -> String {
        each!(self, r => Game::fen(r.judge().position()))
    }

    pub fn initial_fen(&self) -> String {
        match self {
            Live::Xiangqi(_) => Game::fen(&xiangqi::Position::start()),
            Live::Chess(_) => Game::fen(&<chess::Position as Game>::start()),
        }
    }

    /// The game as PGN: Event `arbiter serve`, Date the day it was created (UTC), Round `-`
    /// (no event's round), the game's id as `GameId`, the players by `names` (first, second;
    /// `?` where one has none); Site `?` (the server does not know its address as players see
    /// it).
    pub fn pgn(&self, id: &str, created: std::time::SystemTime, names: &[Option<String>; 2]) -> String {
        let date = records::pgn::write::date_value(created);
        let mut tags = vec![
            ("Event", "arbiter serve"),
            ("Date", date.as_str()),
            ("Round", "-"),
            ("GameId", id),
        ];
        for (tag, name) in ["White", "Black"].into_iter().zip(names) {
            if let Some(name) = name {
                tags.push((tag, name.as_str()));
            }
        }
        match self {
            Live::Xiangqi(r) => r.pgn(&xiangqi::Position::start(), &tags),
            Live::Chess(r) => r.pgn(&<chess::Position as Game>::start(), &tags),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_12_a_served_game_exports_the_seven_tag_roster() {
        let spec = Spec {
            kind: Kind::Xiangqi,
            ruleset: "online".into(),
            rules: "cxa".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        };
        let mut live = Live::new(&spec).unwrap();
        live.apply(0, Side::First, Command::Start);
        live.apply(1_000, Side::First, Command::Move("h2e2".into()));
        let created = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_006_232);
        let pgn = live.pgn("abc123", created, &[None, None]);
        let tags: Vec<&str> = pgn.lines().take_while(|l| l.starts_with('[')).collect();
        assert_eq!(
            tags[..9],
            [
                "[Event \"arbiter serve\"]",
                "[Site \"?\"]",
                "[Date \"2026.11.30\"]",
                "[Round \"-\"]",
                "[White \"?\"]",
                "[Black \"?\"]",
                "[Result \"*\"]",
                "[GameId \"abc123\"]",
                "[Red \"?\"]",
            ]
        );
        assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
        assert!(pgn.contains("1. 炮二平五 {[%clk "), "{pgn}");
    }

    #[test]
    fn point_19_a_game_takes_an_events_limits_from_its_rules() {
        let spec = |rules: &str| Spec {
            kind: Kind::Xiangqi,
            ruleset: "casual".into(),
            rules: rules.into(),
            clock: Some((0, 0)),
            per_move: None,
            rated: false,
            event: false,
        };
        // A referee's temporary limit of one round: drawn after two plies without a mate.
        let mut live = Live::new(&spec("cxa,temporary=1")).unwrap();
        live.apply(0, Side::First, Command::Start);
        live.apply(1, Side::First, Command::Move("h2e2".into()));
        assert!(live.ending().is_none(), "expected the game on after ply 1");
        live.apply(2, Side::Second, Command::Move("h9g7".into()));
        let ending = live
            .ending()
            .expect("expected the game drawn at ply 2 by the temporary limit");
        assert!(format!("{ending:?}").contains("临时限着"), "found: {ending:?}");
        // A limit above the rules' own is refused when the game is made.
        assert!(matches!(Live::new(&spec("cxa,limit=61")), Err(e) if e.to_string().contains("1 to 60")));
    }
}
