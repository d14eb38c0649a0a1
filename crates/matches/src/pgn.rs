//! The PGN of an engine game, written through the one PGN writer of `records` as engine match
//! runners write it (fastchess, cutechess), so that the tools engine authors use on their
//! output read ours:
//!
//! - the record starts where the opening starts (`FEN` only when that is not the standard
//!   start), its moves marked `{book}`, then the engines' moves;
//! - each engine move has `{score/depth time}`: the engine's last score from its own point of
//!   view in pawns (`+0.31`, `-1.05`, `0.00`) or as a mate in plies (`+M5`: it mates in three
//!   moves; `-M4`: it is mated in two), the depth, and its thinking time (`0.105s`); with
//!   [`PgnOptions`] also `, tl=…s` (the mover's clock after the move) and `, n=…` (nodes);
//!   the last move's comment ends with the end of the game as fastchess words it (`, White
//!   mates`, `, Black loses on time`, `, Draw by adjudication`);
//! - the Seven Tag Roster (for Xiangqi `Red` beside `White`, so that rating tools such as
//!   Ordo and BayesElo find the players), then tags as fastchess writes them: `GameDuration`,
//!   `GameStartTime`, `GameEndTime`, `PlyCount` (book moves included), `Termination` (the PGN
//!   standard's value: `normal`, `time forfeit`, `rules infraction`, `adjudication`,
//!   `abandoned`), `TimeControl` (`40/60+0.6`, `10+0.1`, `0.1/move`, `-` for nodes or depth
//!   only); arbiter's reason code and explanation of the ending as `TerminationDetails`
//!   (`perpetual_check: …`);
//! - the referee's notes (draw offers, fouls, a side told to vary) as further comments, and
//!   movetext wrapped at 80 columns;
//! - in [`PgnStyle::Cchess`], for the Python library cchess, the moves alone (see
//!   `records::pgn::PgnStyle`).
//!
//! The pieces of text (move comments, tags, endings) are in `text`; this file puts the record
//! together.

use std::any::Any;
use std::time::{Duration, SystemTime};

use game::{BySide, Game, Kind, Side};
use judge::{Judge, Outcome};
use records::pgn::{chinese_for_cchess, CommentStyle, Movetext, PgnStyle};
use records::Tags;
use referee::{EventKind, Referee};

use crate::play::Control;

mod text;

use text::push_move_comment;
pub use text::{
    date_text, datetime_text, duration_text, ending_words, move_comment, time_control_text, MoveInfo, PgnOptions,
};

/// Everything about a game the engine-match PGN records.
pub struct GameRecord<'a, G: Game> {
    /// Tags before Result (Event, Site, Date, Round, the players).
    pub tags: &'a [(String, String)],
    /// Where the record starts: the opening's own start.
    pub root: &'a G,
    /// The opening's moves from `root`, written `{book}`.
    pub book: &'a [G::Move],
    /// What the engines said with each of their moves, in order.
    pub moves: &'a [MoveInfo],
    pub result: Outcome,
    pub termination: &'a str,
    /// The explanation of an ending the runner ruled (the referee's is among its events).
    pub runner_end: Option<&'a str>,
    pub controls: BySide<&'a Control>,
    pub started: SystemTime,
    pub ended: SystemTime,
    pub duration: Duration,
    pub options: PgnOptions,
}

/// The game as PGN (see the module's description).
pub fn write<J: Judge>(referee: &Referee<J>, record: &GameRecord<'_, J::Game>) -> String {
    let kind = <J::Game as Game>::KIND;
    let cchess = record.options.style == PgnStyle::Cchess && kind == Kind::Xiangqi;
    let mut tags = Tags::default();
    for (k, v) in record.tags {
        tags.set(k, v);
    }
    tags.set("Result", record.result.pgn());
    tags.complete_roster(kind == Kind::Xiangqi);
    if kind == Kind::Xiangqi {
        tags.set("Variant", "xiangqi");
    }
    let fen = record.root.fen();
    if fen != <J::Game as Game>::start().fen() {
        tags.set("SetUp", "1");
        tags.set("FEN", &fen);
    }
    let engine_plies = referee
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::MoveAccepted { .. }))
        .count();
    tags.set("GameDuration", duration_text(record.duration));
    tags.set("GameStartTime", datetime_text(record.started));
    tags.set("GameEndTime", datetime_text(record.ended));
    tags.set("PlyCount", (record.book.len() + engine_plies).to_string());
    let (termination, words) = ending_words(kind, record.result, record.termination);
    tags.set("Termination", termination);
    // arbiter's reason code and explanation: what `Termination`'s few standard words cannot say
    // (which repetition rule, which tablebase).
    let explanation = record
        .runner_end
        .or_else(|| referee.ending().map(|e| e.explanation.as_str()))
        .unwrap_or("");
    tags.set(
        "TerminationDetails",
        if explanation.is_empty() {
            record.termination.to_string()
        } else {
            format!("{}: {explanation}", record.termination)
        },
    );
    let BySide { first, second } = record.controls.map(time_control_text);
    if first == second {
        tags.set("TimeControl", first);
    } else {
        let a = match kind {
            Kind::Xiangqi => "RedTimeControl",
            Kind::Chess => "WhiteTimeControl",
        };
        tags.set(a, first);
        tags.set("BlackTimeControl", second);
    }
    let mut out = String::with_capacity(2048);
    tags.write_pgn(&mut out).expect("a String takes any text");
    write_moves(referee, record, &words, cchess, &mut out).expect("a String takes any text");
    out
}

/// A move as the record writes it: in the game's notation, or as cchess reads Chinese.
fn written<G: Game + Any>(pos: &G, m: G::Move, cchess: bool) -> String
where
    G::Move: Any + Copy,
{
    if cchess {
        if let (Some(p), Some(&m)) = (
            (pos as &dyn Any).downcast_ref::<xiangqi::Position>(),
            (&m as &dyn Any).downcast_ref::<xiangqi::Move>(),
        ) {
            return chinese_for_cchess(p, m);
        }
    }
    pos.notation(m)
}

fn write_moves<J: Judge>(
    referee: &Referee<J>,
    record: &GameRecord<'_, J::Game>,
    end_words: &str,
    cchess: bool,
    out: &mut String,
) -> std::fmt::Result {
    let style = match <J::Game as Game>::KIND {
        Kind::Xiangqi => CommentStyle::Tight,
        // fastchess writes `{+0.31/9 0.105s}` for chess too.
        Kind::Chess => CommentStyle::Tight,
    };
    let mut text = Movetext::new(out, style);
    // Numbered on from the root's FEN (its sixth field): "… b KQkq - 0 1" opens "1...".
    let mut fullmove = record
        .root
        .fen()
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let mut pos = record.root.clone();
    let mut comment = String::with_capacity(64);
    for &m in record.book {
        let side = pos.turn();
        text.play(fullmove, side == Side::First, &written(&pos, m, cchess))?;
        if !cchess {
            text.comment("book")?;
        }
        if side == Side::Second {
            fullmove += 1;
        }
        pos.play(m);
    }
    let last_move = referee
        .events()
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::MoveAccepted { .. }));
    let mut infos = record.moves.iter();
    let timed = !referee.clock().control().stages.is_empty();
    let mut ended = false;
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
            // The ending is in the last move's comment and `TerminationDetails`.
            if let (false, false, Some(n)) = (
                cchess,
                matches!(e.kind, EventKind::GameOver(_)),
                e.kind.pgn_note(<J::Game as Game>::KIND),
            ) {
                text.comment(&n)?;
            }
            continue;
        };
        // The referee of an engine game leaves notation to the record (`set_live_notation`):
        // worked out here, move after move in one warm loop, not between two searches.
        let move_text = match pos.parse_move(coordinate) {
            Ok(m) => {
                let t = if notation.is_empty() || cchess {
                    written(&pos, m, cchess)
                } else {
                    notation.to_string()
                };
                pos.play(m);
                t
            }
            // Every accepted move was legal where it was made, so this is a bug; the record
            // still gets the move as the referee wrote it.
            Err(_) if notation.is_empty() => coordinate.to_string(),
            Err(_) => notation.to_string(),
        };
        text.play(fullmove, *side == Side::First, &move_text)?;
        if *side == Side::Second {
            fullmove += 1;
        }
        let last = Some(i) == last_move;
        comment.clear();
        if let Some(info) = infos.next() {
            let left = timed.then(|| clocks[*side].main);
            push_move_comment(&mut comment, info, left, record.options);
        }
        if last {
            if !comment.is_empty() {
                comment.push_str(", ");
            }
            comment.push_str(end_words);
            ended = true;
        }
        if !cchess && !comment.is_empty() {
            text.comment(&comment)?;
        }
        if *offers_draw && !cchess {
            text.comment("draw offered")?;
        }
    }
    if !ended && !cchess {
        // No engine move: the ending on its own.
        text.comment(end_words)?;
    }
    text.finish(record.result.pgn())
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::Command;

    /// A record from a referee that left the notation out (`set_live_notation(false)`, as
    /// `play_game` runs it) is the record from one that wrote it move by move: random games of
    /// both kinds, each after an opening of a few book moves.
    #[test]
    fn notation_worked_out_after_the_game_is_the_referees() {
        fn compare<J: Judge + Clone>(mut judge: J, seed: &mut u64) -> usize {
            let mut next = |n: usize| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                (*seed % n as u64) as usize
            };
            let root = judge.position().clone();
            let mut book = Vec::new();
            for _ in 0..4 {
                let moves = judge.position().legal_moves();
                let m = moves[next(moves.len())];
                judge.push(m).unwrap();
                book.push(m);
            }
            let rules = || crate::play::engine_rules(referee::clock::TimeControl::unlimited());
            let mut live = Referee::new(judge.clone(), rules());
            let mut late = Referee::new(judge, rules());
            late.set_live_notation(false);
            live.apply(0, Side::First, Command::Start);
            late.apply(0, Side::First, Command::Start);
            let mut infos = Vec::new();
            while live.ending().is_none() && infos.len() < 160 {
                let pos = live.judge().position();
                let moves = pos.legal_moves();
                let text = pos.coordinate(moves[next(moves.len())]);
                let side = pos.turn();
                live.apply(1, side, Command::Move(text.clone()));
                late.apply(1, side, Command::Move(text));
                infos.push(MoveInfo::default());
            }
            let blank = late
                .events()
                .iter()
                .any(|e| matches!(&e.kind, EventKind::MoveAccepted { notation, .. } if notation.is_empty()));
            assert!(blank, "the referee wrote notation it was told to leave out");
            let control = Control::default();
            let record = GameRecord {
                tags: &[],
                root: &root,
                book: &book,
                moves: &infos,
                result: live.ending().map_or(Outcome::Draw, |e| e.result),
                termination: "test",
                runner_end: None,
                controls: BySide::both(&control),
                started: SystemTime::UNIX_EPOCH,
                ended: SystemTime::UNIX_EPOCH,
                duration: Duration::ZERO,
                options: PgnOptions::default(),
            };
            assert_eq!(write(&late, &record), write(&live, &record));
            infos.len()
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut plies = 0;
        for _ in 0..30 {
            let rules = judge::chess::ChessRules::by_name("fide").unwrap();
            plies += compare(
                judge::chess::ChessJudge::new(chess::Position::start(), rules),
                &mut seed,
            );
            let rules = judge::xiangqi::Rules::by_name("cxa").unwrap();
            plies += compare(
                judge::xiangqi::XiangqiJudge::new(xiangqi::Position::start(), rules),
                &mut seed,
            );
        }
        assert!(plies > 3000, "{plies} plies");
    }
}
