//! What clients see: each referee event as one NDJSON line, rendered once when it happens (so
//! a client catching up with `?since=` reads the very lines it missed, states as they were).

use std::sync::Arc;

use game::{Game, Side};
use judge::Outcome;
use referee::clock::{Millis, Remaining};
use referee::{Event, EventKind};
use serde::Serialize;
use serde_json::{json, Value};

use crate::live::Live;

/// The state a stream shows, kept beside the referee.
#[derive(Debug, Default)]
pub struct View {
    /// Accepted moves in coordinates (UCI or ICCS).
    pub moves: Vec<String>,
    /// The same moves for people: Chinese (Xiangqi) or SAN (chess), as the referee wrote them.
    pub notation: Vec<String>,
    /// Xiangqi's moves in WXF, written from `shadow`, the position before each move.
    pub wxf: Vec<String>,
    shadow: Option<xiangqi::Position>,
    /// A standing draw offer, by this side.
    pub offer: Option<Side>,
    /// Events rendered so far (the next event's version).
    pub count: u64,
}

fn clock_ms(r: Remaining) -> u64 {
    r.main + r.period * u64::from(r.periods.min(1))
}

impl View {
    /// Follows `events` (just returned by the referee) and renders their lines.
    pub fn follow(&mut self, live: &Live, events: &[Event]) -> Vec<Arc<str>> {
        let mut lines = Vec::with_capacity(events.len());
        for e in events {
            match &e.kind {
                EventKind::MoveAccepted {
                    side,
                    coordinate,
                    notation,
                    offers_draw,
                    ..
                } => {
                    self.moves.push(coordinate.clone());
                    self.notation.push(notation.clone());
                    if live.kind() == game::Kind::Xiangqi {
                        let pos = self.shadow.get_or_insert_with(xiangqi::Position::start);
                        // The referee accepted it from this very position: it parses.
                        if let Ok(m) = Game::parse_move(pos, coordinate) {
                            self.wxf.push(xiangqi::notation::to_wxf(pos, m));
                            Game::play(pos, m);
                        }
                    }
                    // Moving answers the other side's offer (FIDE 9.1.2.3); one's own may go with it.
                    self.offer = offers_draw.then_some(*side);
                }
                EventKind::DrawOffered { by } => self.offer = Some(*by),
                EventKind::DrawDeclined { .. } | EventKind::GameOver(_) => self.offer = None,
                _ => {}
            }
            lines.push(Arc::from(self.line(live, e)));
            self.count = e.version + 1;
        }
        lines
    }

    /// An event's line: a `gameState` where the state changed, else a `notice`; serialized
    /// from borrowed fields, as it is made for every event of every game.
    fn line(&self, live: &Live, e: &Event) -> String {
        let state_changing = matches!(
            e.kind,
            EventKind::Started { .. }
                | EventKind::MoveAccepted { .. }
                | EventKind::DrawOffered { .. }
                | EventKind::DrawDeclined { .. }
                | EventKind::GameOver(_)
        );
        let clocks = match &e.kind {
            EventKind::MoveAccepted { clocks, .. } => *clocks,
            _ => [live.remaining(Side::First, e.at), live.remaining(Side::Second, e.at)],
        };
        let line = Line {
            state: state_changing.then(|| self.state(live, clocks)),
            notice: (!state_changing).then_some("notice"),
            version: e.version,
            at: e.at,
            event: &e.kind,
        };
        serde_json::to_string(&line).unwrap_or_default()
    }

    /// A `gameState` object (lichess's fields; `wtime`/`btime` are the first and second side's
    /// clocks in both games, red's in Xiangqi).
    pub fn state<'a>(&'a self, live: &Live, clocks: [Remaining; 2]) -> State<'a> {
        let kind = live.kind();
        let (status, winner) = match live.ending() {
            None if live.commands() == 0 => ("created", None),
            None => ("started", None),
            Some(end) => (
                // The judge's reason where it ruled (a claim found correct says which rule).
                end.verdict.as_ref().map_or(end.reason.code(), |v| v.reason.code()),
                match end.result {
                    Outcome::FirstWins | Outcome::SecondWins => Some(end.result.name(kind)),
                    _ => None,
                },
            ),
        };
        State {
            kind: "gameState",
            moves: Spaced(&self.moves),
            notation: match kind {
                game::Kind::Xiangqi => Notation::Xiangqi {
                    chinese: &self.notation,
                    wxf: &self.wxf,
                },
                game::Kind::Chess => Notation::Chess { san: &self.notation },
            },
            fen: live.fen(),
            turn: live.turn().name(kind),
            wtime: clock_ms(clocks[0]),
            btime: clock_ms(clocks[1]),
            clocks,
            status,
            winner,
            wdraw: self.offer == Some(Side::First),
            bdraw: self.offer == Some(Side::Second),
            explanation: live.ending().map(|e| e.explanation.clone()),
            legal: if live.ending().is_some() {
                Vec::new()
            } else {
                live.legal()
            },
            check: live.in_check(),
        }
    }

    /// The `gameFull` line a stream opens with: the game and its state at `now`.
    pub fn full(&self, id: &str, live: &Live, spec: &crate::live::Spec, now: Millis) -> Value {
        let clocks = [live.remaining(Side::First, now), live.remaining(Side::Second, now)];
        let mut state = serde_json::to_value(self.state(live, clocks)).unwrap_or_default();
        state["at"] = now.into();
        json!({
            "type": "gameFull",
            "id": id,
            "version": self.count as i64 - 1,
            "kind": spec.kind_name(),
            "ruleset": spec.ruleset,
            "rules": spec.rules,
            "clock": spec.clock.map(|(l, i)| json!({ "initial": l, "increment": i })),
            // The full control in force (stages, per-move limits, byo-yomi), the ruleset's own
            // when the game did not set a clock.
            "timeControl": live.time_control(),
            "initialFen": live.initial_fen(),
            "state": state,
        })
    }
}

/// One event's line.
#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    state: Option<State<'a>>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    notice: Option<&'static str>,
    version: u64,
    at: Millis,
    event: &'a EventKind,
}

/// A `gameState`.
#[derive(Serialize)]
pub struct State<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    /// The moves in coordinates (ICCS or UCI), space-separated, as lichess sends them.
    moves: Spaced<'a>,
    /// The same moves for people, one per move of `moves`.
    notation: Notation<'a>,
    fen: String,
    turn: &'static str,
    wtime: u64,
    btime: u64,
    clocks: [Remaining; 2],
    status: &'static str,
    winner: Option<&'static str>,
    wdraw: bool,
    bdraw: bool,
    explanation: Option<String>,
    /// For boards that show hints: the moves the side to move may make, and check.
    legal: Vec<String>,
    check: bool,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Notation<'a> {
    Xiangqi { chinese: &'a [String], wxf: &'a [String] },
    Chess { san: &'a [String] },
}

/// Strings written joined by spaces, without joining them first.
struct Spaced<'a>(&'a [String]);

impl Serialize for Spaced<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}", SpacedDisplay(self.0)))
    }
}

struct SpacedDisplay<'a>(&'a [String]);

impl std::fmt::Display for SpacedDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(m)?;
        }
        Ok(())
    }
}
