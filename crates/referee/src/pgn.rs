//! A refereed game as PGN, through the one writer of `records`, and the notes a record keeps of
//! what was not a move.

use game::{Game, Kind, Side};
use judge::Judge;
use records::pgn::write::clk;
use records::pgn::{CommentStyle, Movetext};
use records::Tags;

use crate::events::{EndReason, Ending, EventKind};
use crate::Referee;

/// The PGN standard's `Termination` value for an ending (`unterminated` for a game still
/// going): `time forfeit` for a flag or lateness; `rules infraction` for a loss by breaking
/// the rules — a forbidden repetition (长将, 长捉 …), a move into check or facing kings where it
/// loses, too many illegal moves or fouls, refusing the rules; `abandoned` for a game aborted or called off; `adjudication` for an arbiter's decision;
/// `normal` for the rest (mate, stalemate, agreement, resignation, a drawn repetition …).
pub fn termination(ending: Option<&Ending>) -> &'static str {
    let Some(e) = ending else { return "unterminated" };
    match e.reason {
        EndReason::Time | EndReason::Lateness => "time forfeit",
        EndReason::IllegalMoves
        | EndReason::TechnicalFouls
        | EndReason::ClockPresses
        | EndReason::FalseClaims
        | EndReason::RefusedRules => "rules infraction",
        EndReason::Aborted | EndReason::CalledOff => "abandoned",
        EndReason::Rules | EndReason::Claim => e.verdict.as_ref().map_or("normal", |v| v.reason.pgn_termination()),
        EndReason::Agreement | EndReason::Resignation => "normal",
        EndReason::Arbiter => "adjudication",
    }
}

/// The game as PGN: the Seven Tag Roster (`tags` given by the caller, `?` for what it left
/// out; for Xiangqi `Red` beside `White`), `Variant` for Xiangqi, the start's `SetUp`/`FEN`
/// when it is not the standard one, `Termination`; the moves in the game's notation, each
/// followed by the mover's clock after the move (`[%clk h:mm:ss]`, rounded up as the page
/// shows it), offers and the referee's notes as comments.
pub fn pgn<J: Judge>(referee: &Referee<J>, start: &J::Game, tags: &[(&str, &str)]) -> String {
    let kind = <J::Game as Game>::KIND;
    let mut t = Tags::default();
    for &(k, v) in tags {
        t.set(k, v);
    }
    let result = referee.ending().map_or("*", |e| e.result.pgn());
    t.set("Result", result);
    t.complete_roster(kind == Kind::Xiangqi);
    if kind == Kind::Xiangqi {
        t.set("Variant", "xiangqi");
    }
    let fen = start.fen();
    if fen != <J::Game as Game>::start().fen() {
        t.set("SetUp", "1");
        t.set("FEN", &fen);
    }
    t.set("Termination", termination(referee.ending()));
    let mut out = String::with_capacity(1024);
    t.write_pgn(&mut out).expect("a String takes any text");
    let style = match kind {
        Kind::Xiangqi => CommentStyle::Tight,
        Kind::Chess => CommentStyle::Padded,
    };
    let mut text = Movetext::new(&mut out, style);
    // Numbered on from the start's FEN (its sixth field): "… b KQkq - 0 1" opens "1...".
    let mut fullmove = fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let timed = !referee.clock().control().stages.is_empty();
    let standing = standing_moves(referee.events());
    for (i, e) in referee.events().iter().enumerate() {
        let EventKind::MoveAccepted {
            side,
            coordinate,
            notation,
            clocks,
            offers_draw,
            ..
        } = &e.kind
        else {
            if let Some(n) = e.kind.pgn_note(kind) {
                text.comment(&n).expect("a String takes any text");
            }
            continue;
        };
        // A move an arbiter's correction took back is no move of the record.
        if !standing.contains(&i) {
            continue;
        }
        // Without live notation, the coordinates.
        let written = if notation.is_empty() {
            coordinate.as_str()
        } else {
            notation.as_str()
        };
        text.play(fullmove, *side == Side::First, written)
            .expect("a String takes any text");
        if *side == Side::Second {
            fullmove += 1;
        }
        if timed {
            let left = clocks[*side].main;
            text.comment(&clk(left)).expect("a String takes any text");
        }
        if *offers_draw {
            text.comment("draw offered").expect("a String takes any text");
        }
    }
    text.finish(result).expect("a String takes any text");
    out
}

/// The indexes of the accepted moves that stand: those no correction took back.
fn standing_moves(events: &[crate::Event]) -> std::collections::HashSet<usize> {
    let mut stack = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match &e.kind {
            EventKind::MoveAccepted { .. } => stack.push(i),
            EventKind::Corrected { back_to: Some(ply), .. } => stack.truncate(*ply),
            _ => {}
        }
    }
    stack.into_iter().collect()
}

impl EventKind {
    /// What a PGN record says of an event other than a move, as a comment: the ending's
    /// explanation, fouls, rejected claims, warnings, a side told to vary.
    pub fn pgn_note(&self, kind: game::Kind) -> Option<String> {
        let name = |s: &Side| s.name(kind);
        match self {
            EventKind::GameOver(end) => Some(end.explanation.clone()),
            EventKind::Foul { side, what, count, .. } => Some(format!("foul by {}: {what} ({count})", name(side))),
            EventKind::ClaimRejected { by, reason, .. } => Some(format!("{} claimed: {reason}", name(by))),
            EventKind::Warning { side, what, .. } => Some(format!("warning to {}: {what}", name(side))),
            EventKind::MustVary { side, .. } => Some(format!("{} must vary", name(side))),
            EventKind::Obligation { side, rule, .. } => Some(format!("{} touched: {rule}", name(side))),
            EventKind::Corrected { article, ruling, .. } => Some(format!("arbiter ({article}): {ruling}")),
            EventKind::TimeCorrected { side, reason, .. } => {
                Some(format!("arbiter corrected {}'s time: {reason}", name(side)))
            }
            _ => None,
        }
    }
}

impl<J: Judge> Referee<J> {
    /// The game as PGN, `tags` (Event, Site, Date, Round, players …) among its tags: see
    /// [`pgn`].
    pub fn pgn(&self, start: &J::Game, tags: &[(&str, &str)]) -> String {
        pgn(self, start, tags)
    }
}
