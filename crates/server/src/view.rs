//! What clients see: each referee event as one NDJSON line, rendered once when it happens (so
//! a client catching up with `?since=` reads the very lines it missed, states as they were).

use std::sync::Arc;

use game::{BySide, Game, Side};
use judge::Outcome;
use referee::clock::{Millis, Remaining};
use referee::{Event, EventKind};
use serde_json::{json, Value};
use std::fmt::Write;

use crate::live::Live;

/// The state a stream shows, kept beside the referee.
#[derive(Debug, Default)]
pub struct View {
    /// Accepted moves in coordinates (UCI or ICCS).
    pub moves: Vec<String>,
    /// The moves as JSON fragments, written once each: coordinates space-separated, and the
    /// quoted items of the notation arrays — Chinese (Xiangqi) or SAN (chess) as the referee
    /// wrote them, and Xiangqi's WXF, written from `shadow`, the position before each move.
    /// Every state line repeats them all, so they are copied, not escaped again.
    moves_joined: String,
    notation_items: String,
    wxf_items: String,
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
        // Every line of a batch shows the state after the whole command, so only its first
        // state-changing event carries it: a move that ends the game sends the final state
        // once, and the `GameOver` after it goes out as a notice.
        let mut state_sent = false;
        for e in events {
            match &e.kind {
                EventKind::MoveAccepted {
                    side,
                    coordinate,
                    notation,
                    offers_draw,
                    ..
                } => {
                    let sep = if self.moves.is_empty() { "" } else { "," };
                    self.moves.push(coordinate.to_string());
                    if self.moves_joined.is_empty() {
                        // Coordinates are letters and digits: nothing to escape.
                        self.moves_joined += coordinate;
                    } else {
                        self.moves_joined += " ";
                        self.moves_joined += coordinate;
                    }
                    self.notation_items += sep;
                    self.notation_items += &json_string(notation);
                    if live.kind() == game::Kind::Xiangqi {
                        let pos = self.shadow.get_or_insert_with(xiangqi::Position::start);
                        // The referee accepted it from this very position: it parses.
                        if let Ok(m) = Game::parse_move(pos, coordinate) {
                            self.wxf_items += sep;
                            self.wxf_items += &json_string(&xiangqi::notation::to_wxf(pos, m));
                            Game::play(pos, m);
                        }
                    }
                    // Moving answers the other side's offer (FIDE 9.1.2.3); one's own may go with it.
                    self.offer = offers_draw.then_some(*side);
                }
                EventKind::Corrected { back_to: Some(ply), .. } | EventKind::TakenBack { back_to: ply, .. } => {
                    self.take_back_to(live.kind(), *ply);
                    self.offer = None;
                }
                EventKind::DrawOffered { by } => self.offer = Some(*by),
                EventKind::DrawDeclined { .. } | EventKind::GameOver(_) => self.offer = None,
                _ => {}
            }
            let as_state = !state_sent && changes_state(&e.kind);
            state_sent |= as_state;
            lines.push(Arc::from(self.line(live, e, as_state)));
            self.count = e.version + 1;
        }
        lines
    }

    /// The moves after the first `ply` taken back (an arbiter's correction): the fragments are
    /// written again from the moves that stand, as rare as corrections are.
    fn take_back_to(&mut self, kind: game::Kind, ply: usize) {
        let mut moves = std::mem::take(&mut self.moves);
        moves.truncate(ply);
        self.moves_joined = moves.join(" ");
        self.notation_items.clear();
        self.wxf_items.clear();
        self.shadow = None;
        match kind {
            game::Kind::Xiangqi => {
                let mut pos = xiangqi::Position::start();
                for (i, c) in moves.iter().enumerate() {
                    let Ok(m) = Game::parse_move(&pos, c) else { break };
                    let sep = if i == 0 { "" } else { "," };
                    self.notation_items += sep;
                    self.notation_items += &json_string(&Game::notation(&pos, m));
                    self.wxf_items += sep;
                    self.wxf_items += &json_string(&xiangqi::notation::to_wxf(&pos, m));
                    Game::play(&mut pos, m);
                }
                self.shadow = Some(pos);
            }
            game::Kind::Chess => {
                let mut pos = <chess::Position as Game>::start();
                for (i, c) in moves.iter().enumerate() {
                    let Ok(m) = Game::parse_move(&pos, c) else { break };
                    self.notation_items += if i == 0 { "" } else { "," };
                    self.notation_items += &json_string(&Game::notation(&pos, m));
                    Game::play(&mut pos, m);
                }
            }
        }
        self.moves = moves;
    }

    /// An event's line: a `gameState` (`as_state`), else a `notice`; serialized from borrowed
    /// fields, as it is made for every event of every game.
    fn line(&self, live: &Live, e: &Event, as_state: bool) -> String {
        let clocks = match &e.kind {
            EventKind::MoveAccepted { clocks, .. }
            | EventKind::TimeCorrected { clocks, .. }
            | EventKind::TakenBack { clocks, .. } => *clocks,
            _ => BySide::new(|side| live.remaining(side, e.at)),
        };
        let mut out = String::with_capacity(1024 + 2 * (self.moves_joined.len() + self.notation_items.len()));
        out.push('{');
        if as_state {
            self.state(live, clocks, e.at).write_fields(&mut out);
        } else {
            out += r#""type":"notice""#;
        }
        let _ = write!(out, r#","version":{},"at":{},"event":"#, e.version, e.at);
        out += &serde_json::to_string(&e.kind).unwrap_or_else(|_| "null".into());
        out.push('}');
        out
    }

    /// A `gameState` object (lichess's fields; `wtime`/`btime` are the first and second side's
    /// clocks in both games, red's in Xiangqi), as it stands at game time `at`.
    pub fn state<'a>(&'a self, live: &Live, clocks: BySide<Remaining>, at: Millis) -> State<'a> {
        let kind = live.kind();
        let (status, reason, winner) = match live.ending() {
            None if live.commands() == 0 => ("created", None, None),
            None => ("started", None, None),
            Some(end) => {
                let reason = referee::rule_code(end);
                let winner = match end.result {
                    Outcome::FirstWins | Outcome::SecondWins => Some(end.result.name(kind)),
                    _ => None,
                };
                (lichess_status(reason, winner.is_some()), Some(reason), winner)
            }
        };
        State {
            view: self,
            kind,
            fen: live.fen(),
            turn: live.turn().name(kind),
            wtime: clock_ms(clocks.first),
            btime: clock_ms(clocks.second),
            winc: live.increment(Side::First),
            binc: live.increment(Side::Second),
            clocks,
            status,
            reason,
            winner,
            wdraw: self.offer == Some(Side::First) && reason.is_none(),
            bdraw: self.offer == Some(Side::Second) && reason.is_none(),
            explanation: live.ending().map(|e| e.explanation.clone()),
            explanation_zh: live.ending().and_then(|e| e.explanation_zh.clone()),
            legal: if live.ending().is_some() {
                Vec::new()
            } else {
                live.legal()
            },
            check: live.in_check(),
            claimable: live.claimable(),
            move_left: live.ending().is_none().then(|| live.move_left(at)).flatten(),
            actions: Actions::of(live),
        }
    }

    /// The `gameFull` line a stream opens with: the game and its state at `now`.
    pub fn full(&self, id: &str, live: &Live, spec: &crate::live::Spec, now: Millis) -> Value {
        let clocks = BySide::new(|side| live.remaining(side, now));
        let mut text = String::from("{");
        self.state(live, clocks, now).write_fields(&mut text);
        text.push('}');
        let mut state: Value = serde_json::from_str(&text).unwrap_or_default();
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

/// A `gameState`, written as JSON by hand: it goes out for every move of every game, and its
/// longest parts (the moves so far) are fragments kept ready in the [`View`].
pub struct State<'a> {
    view: &'a View,
    kind: game::Kind,
    fen: String,
    turn: &'static str,
    wtime: u64,
    btime: u64,
    /// The increment each side gets for its next move (ms), as lichess's `winc`/`binc`.
    winc: u64,
    binc: u64,
    clocks: BySide<Remaining>,
    /// lichess's status name; `reason` is arbiter's exact one.
    status: &'static str,
    reason: Option<&'static str>,
    winner: Option<&'static str>,
    wdraw: bool,
    bdraw: bool,
    explanation: Option<String>,
    /// The same in Chinese where the judge decided the game (the page shows it in Chinese).
    explanation_zh: Option<String>,
    /// For boards that show hints: the moves the side to move may make, and check.
    legal: Vec<String>,
    check: bool,
    /// The draw that may be claimed now (its reason code).
    claimable: Option<&'static str>,
    /// What is left of the per-move limit for the move being thought over (ms); written only
    /// for a game with such a limit.
    move_left: Option<Millis>,
    actions: Actions,
}

/// What each side may do besides moving, so a page shows a button only where the referee
/// would take it: offer a draw (not after its declined offer until the opponent has offered;
/// `offerWithMove`: only together with its next move), ask for a takeback, and whose takeback
/// request stands.
struct Actions {
    may_offer: BySide<bool>,
    offer_with_move: bool,
    may_takeback: BySide<bool>,
    takeback: Option<&'static str>,
}

impl Actions {
    fn of(live: &Live) -> Actions {
        let over = live.ending().is_some();
        Actions {
            may_offer: BySide::new(|s| !over && live.may_offer_draw(s)),
            offer_with_move: live.offer_with_move(),
            may_takeback: BySide::new(|s| !over && live.may_propose_takeback(s)),
            takeback: live.takeback_by().filter(|_| !over).map(|s| s.name(live.kind())),
        }
    }

    fn write(&self, out: &mut String) {
        let _ = write!(
            out,
            r#","mayOffer":[{},{}],"offerWithMove":{},"mayTakeback":[{},{}],"takeback":{}"#,
            self.may_offer.first,
            self.may_offer.second,
            self.offer_with_move,
            self.may_takeback.first,
            self.may_takeback.second,
            self.takeback.map_or("null".into(), |s| format!("\"{s}\"")),
        );
    }
}

impl State<'_> {
    /// The fields, comma-separated, without the braces.
    fn write_fields(&self, out: &mut String) {
        let v = self.view;
        // `moves` in coordinates space-separated as lichess sends them; `notation` the same
        // moves for people, one per move.
        let _ = write!(out, r#""type":"gameState","moves":"{}","notation":"#, v.moves_joined);
        match self.kind {
            game::Kind::Xiangqi => {
                let _ = write!(out, r#"{{"chinese":[{}],"wxf":[{}]}}"#, v.notation_items, v.wxf_items);
            }
            game::Kind::Chess => {
                let _ = write!(out, r#"{{"san":[{}]}}"#, v.notation_items);
            }
        }
        let _ = write!(
            out,
            r#","fen":{},"turn":"{}","wtime":{},"btime":{},"winc":{},"binc":{},"clocks":{},"status":"{}","reason":{},"winner":{},"wdraw":{},"bdraw":{},"explanation":{},"explanation_zh":{},"legal":["#,
            json_string(&self.fen),
            self.turn,
            self.wtime,
            self.btime,
            self.winc,
            self.binc,
            serde_json::to_string(&self.clocks).unwrap_or_else(|_| "null".into()),
            self.status,
            self.reason.map_or("null".into(), |r| format!("\"{r}\"")),
            self.winner.map_or("null".into(), json_string),
            self.wdraw,
            self.bdraw,
            self.explanation.as_deref().map_or("null".into(), json_string),
            self.explanation_zh.as_deref().map_or("null".into(), json_string),
        );
        for (i, m) in self.legal.iter().enumerate() {
            out.push_str(if i == 0 { "\"" } else { ",\"" });
            out.push_str(m);
            out.push('"');
        }
        let _ = write!(
            out,
            r#"],"check":{},"claimable":{}"#,
            self.check,
            self.claimable.map_or("null".into(), json_string)
        );
        if let Some(ms) = self.move_left {
            let _ = write!(out, r#","moveLeft":{ms}"#);
        }
        self.actions.write(out);
    }
}

/// Whether an event changes what a `gameState` shows.
fn changes_state(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Started { .. }
            | EventKind::MoveAccepted { .. }
            | EventKind::DrawOffered { .. }
            | EventKind::DrawDeclined { .. }
            | EventKind::GameOver(_)
            | EventKind::Corrected { back_to: Some(_), .. }
            | EventKind::TimeCorrected { .. }
            | EventKind::TakebackProposed { .. }
            | EventKind::TakebackDeclined { .. }
            | EventKind::TakenBack { .. }
    )
}

/// lichess's status name for an ending with arbiter's `reason` ([`referee::rule_code`]): its clients
/// know these. What lichess has no name for — a Xiangqi repetition ruling, self-check, a
/// loss by fouls — is `variantEnd` (a rule of this game decided it); `reason` says which.
pub fn lichess_status(reason: &str, decisive: bool) -> &'static str {
    match reason {
        "checkmate" => "mate",
        "stalemate" => "stalemate",
        "resignation" => "resign",
        "time" => "outoftime",
        "lateness" => "noStart",
        "aborted" | "called_off" => "aborted",
        _ if !decisive => "draw",
        _ => "variantEnd",
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::Spec;
    use referee::Command;

    #[test]
    fn point_08_claim_only_when_claimable() {
        let spec = Spec {
            kind: game::Kind::Chess,
            ruleset: "online".into(),
            rules: "fide".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        };
        let mut live = Live::new(&spec).unwrap();
        let mut view = View::default();
        let mut last_state = |live: &mut Live, side: Side, command: Command| -> Value {
            let events = live.apply(0, side, command);
            let lines = view.follow(live, &events);
            serde_json::from_str(lines.last().unwrap()).unwrap()
        };
        assert_eq!(
            last_state(&mut live, Side::First, Command::Start)["claimable"],
            Value::Null
        );
        let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"];
        for (i, m) in moves.iter().enumerate() {
            let side = if i % 2 == 0 { Side::First } else { Side::Second };
            let state = last_state(&mut live, side, Command::Move(m.to_string()));
            // From the seventh ply black may claim the threefold repetition with its Ng8.
            let expected = if i == 6 {
                json!("threefold_repetition")
            } else {
                Value::Null
            };
            assert_eq!(state["claimable"], expected, "after ply {}: {state}", i + 1);
        }
        let state = last_state(&mut live, Side::Second, Command::ClaimDraw);
        assert_eq!(
            (&state["status"], &state["reason"]),
            (&json!("draw"), &json!("threefold_repetition")),
            "{state}"
        );
        assert_eq!(state["claimable"], Value::Null, "nothing is claimable once over");
    }

    /// A correction taking moves back (seed 000 5.8) rewrites the moves a state shows, and play
    /// goes on from the position that stands.
    #[test]
    fn a_correction_takes_the_shown_moves_back() {
        let spec = Spec {
            kind: game::Kind::Chess,
            ruleset: "fide".into(),
            rules: "fide".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        };
        let mut live = Live::new(&spec).unwrap();
        let mut view = View::default();
        let mut last_state = |live: &mut Live, side: Side, command: Command| -> Value {
            let events = live.apply(0, side, command);
            let lines = view.follow(live, &events);
            serde_json::from_str(lines.first().unwrap()).unwrap()
        };
        last_state(&mut live, Side::First, Command::Start);
        for (side, m) in [(Side::First, "e2e4"), (Side::Second, "e7e5"), (Side::First, "g1f3")] {
            last_state(&mut live, side, Command::Move(m.into()));
        }
        let state = last_state(
            &mut live,
            Side::First,
            Command::Correct(referee::Correction::RestoreTo(1)),
        );
        assert_eq!(state["type"], "gameState", "{state}");
        assert_eq!((&state["moves"], &state["turn"]), (&json!("e2e4"), &json!("black")));
        assert_eq!(state["notation"]["san"], json!(["e4"]));
        let state = last_state(&mut live, Side::Second, Command::Move("d7d5".into()));
        assert_eq!(state["moves"], "e2e4 d7d5");
        assert_eq!(state["notation"]["san"], json!(["e4", "d5"]));
    }

    /// With the seeds' per-move limit (每步限时), each state says what is left of it for the
    /// move being thought over: all of it after a move, less as the turn goes on.
    #[test]
    fn a_per_move_limit_is_counted_down_in_the_state() {
        let spec = Spec {
            kind: game::Kind::Xiangqi,
            ruleset: "online".into(),
            rules: "cxa".into(),
            clock: Some((600_000, 0)),
            per_move: Some(60_000),
            rated: false,
            event: false,
        };
        let mut live = Live::new(&spec).unwrap();
        let mut view = View::default();
        let events = live.apply(0, Side::First, Command::Start);
        view.follow(&live, &events);
        let events = live.apply(15_000, Side::First, Command::Move("h2e2".into()));
        let state: Value = serde_json::from_str(view.follow(&live, &events).last().unwrap()).unwrap();
        assert_eq!(state["moveLeft"], 60_000, "{state}");
        assert_eq!(state["wtime"], 585_000, "{state}");
        let full = view.full("g", &live, &spec, 40_000);
        assert_eq!(full["state"]["moveLeft"], 35_000, "{full}");
        // Without the limit, nothing is written.
        let plain = Spec { per_move: None, ..spec };
        let mut live = Live::new(&plain).unwrap();
        let events = live.apply(0, Side::First, Command::Start);
        let state: Value = serde_json::from_str(View::default().follow(&live, &events).last().unwrap()).unwrap();
        assert!(state.get("moveLeft").is_none(), "{state}");
    }
}
