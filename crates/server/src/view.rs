//! What clients see: each referee event as one NDJSON line, rendered once when it happens (so
//! a client catching up with `?since=` reads the very lines it missed, states as they were).

use std::sync::Arc;

use game::Side;
use judge::Outcome;
use referee::clock::{Millis, Remaining};
use referee::{Event, EventKind};
use serde_json::{json, Value};

use crate::live::Live;

/// The state a stream shows, kept beside the referee.
#[derive(Debug, Default)]
pub struct View {
    /// Accepted moves in coordinates (UCI or ICCS).
    pub moves: Vec<String>,
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
                    offers_draw,
                    ..
                } => {
                    self.moves.push(coordinate.clone());
                    // Moving answers the other side's offer (FIDE 9.1.2.3); one's own may go with it.
                    self.offer = offers_draw.then_some(*side);
                }
                EventKind::DrawOffered { by } => self.offer = Some(*by),
                EventKind::DrawDeclined { .. } | EventKind::GameOver(_) => self.offer = None,
                _ => {}
            }
            let line = self.line(live, e);
            lines.push(Arc::from(line.to_string()));
            self.count = e.version + 1;
        }
        lines
    }

    fn line(&self, live: &Live, e: &Event) -> Value {
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
        let mut v = if state_changing {
            self.state(live, clocks)
        } else {
            json!({ "type": "notice" })
        };
        v["version"] = e.version.into();
        v["at"] = e.at.into();
        v["event"] = serde_json::to_value(&e.kind).unwrap_or(Value::Null);
        v
    }

    /// A `gameState` object (lichess's fields; `wtime`/`btime` are the first and second side's
    /// clocks in both games, red's in Xiangqi).
    pub fn state(&self, live: &Live, clocks: [Remaining; 2]) -> Value {
        let kind = live.kind();
        let (status, winner) = match live.ending() {
            None if live.commands() == 0 => ("created", Value::Null),
            None => ("started", Value::Null),
            Some(end) => (
                // The judge's reason where it ruled (a claim found correct says which rule).
                end.verdict.as_ref().map_or(end.reason.code(), |v| v.reason.code()),
                match end.result {
                    Outcome::FirstWins | Outcome::SecondWins => end.result.name(kind).into(),
                    _ => Value::Null,
                },
            ),
        };
        json!({
            "type": "gameState",
            "moves": self.moves.join(" "),
            "fen": live.fen(),
            "turn": live.turn().name(kind),
            "wtime": clock_ms(clocks[0]),
            "btime": clock_ms(clocks[1]),
            "clocks": clocks,
            "status": status,
            "winner": winner,
            "wdraw": self.offer == Some(Side::First),
            "bdraw": self.offer == Some(Side::Second),
            "explanation": live.ending().map(|e| e.explanation.clone()),
            // For boards that show hints: the moves the side to move may make, and check.
            "legal": if live.ending().is_some() { Vec::new() } else { live.legal() },
            "check": live.in_check(),
        })
    }

    /// The `gameFull` line a stream opens with: the game and its state at `now`.
    pub fn full(&self, id: &str, live: &Live, spec: &crate::live::Spec, now: Millis) -> Value {
        let clocks = [live.remaining(Side::First, now), live.remaining(Side::Second, now)];
        let mut state = self.state(live, clocks);
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
