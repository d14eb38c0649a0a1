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

use std::any::Any;
use std::time::{Duration, SystemTime};

use game::{BySide, Game, Kind, Side};
use judge::{Judge, Outcome};
use records::pgn::write::utc;
use records::pgn::{chinese_for_cchess, CommentStyle, Movetext, PgnStyle};
use records::Tags;
use referee::clock::Millis;
use referee::{EventKind, Referee};

use crate::play::Control;
use engine::Score;

/// What the engine-match PGN adds to each engine move beyond `{score/depth time}` (fastchess's
/// `-pgnout timeleft=true nodes=true`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PgnOptions {
    /// `tl=1.234s`: the mover's clock after the move (only under a clock).
    pub time_left: bool,
    /// `n=123456`: the nodes the engine reported.
    pub nodes: bool,
    /// The readers written for (Xiangqi): the standard's, or cchess's (moves alone).
    pub style: PgnStyle,
}

/// What an engine said with one of its moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Its thinking time as measured.
    pub elapsed: Duration,
}

/// A score as fastchess writes it: pawns with two decimals and a sign (`0.00` without), mates
/// in plies (`+M5` mates in 3, `-M4` is mated in 2).
fn push_score(out: &mut String, score: Score) {
    match score {
        Score::Cp(0) => out.push_str("0.00"),
        Score::Cp(c) => {
            out.push(if c > 0 { '+' } else { '-' });
            let c = c.unsigned_abs();
            push_u64(out, u64::from(c / 100));
            out.push('.');
            push_padded(out, u64::from(c % 100), 2);
        }
        Score::Mate(m) if m > 0 => {
            out.push_str("+M");
            push_u64(out, (2 * i64::from(m) - 1).unsigned_abs());
        }
        Score::Mate(m) => {
            out.push_str("-M");
            push_u64(out, (2 * i64::from(m)).unsigned_abs());
        }
    }
}

/// `v` in decimal: every move's comment has a few numbers, and `format!` costs more than the
/// rest of it.
fn push_u64(out: &mut String, v: u64) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// `v` (below `10^width`) in decimal with leading zeros to `width` digits.
fn push_padded(out: &mut String, v: u64, width: usize) {
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(v);
    (digits.len()..width).for_each(|_| out.push('0'));
    out.push_str(digits);
}

/// Seconds with three decimals and an `s`, as fastchess writes times.
fn push_seconds(out: &mut String, ms: u128) {
    push_u64(out, u64::try_from(ms / 1000).unwrap_or(u64::MAX));
    out.push('.');
    push_padded(out, (ms % 1000) as u64, 3);
    out.push('s');
}

/// The comment of an engine move: `score/depth time` (an empty score and depth 0 when the
/// engine gave none, as fastchess writes them), then the options' fields after commas.
pub fn move_comment(info: &MoveInfo, time_left: Option<Millis>, options: PgnOptions) -> String {
    let mut s = String::with_capacity(32);
    push_move_comment(&mut s, info, time_left, options);
    s
}

fn push_move_comment(out: &mut String, info: &MoveInfo, time_left: Option<Millis>, options: PgnOptions) {
    if let Some(score) = info.score {
        push_score(out, score);
    }
    out.push('/');
    push_u64(out, u64::from(info.depth.unwrap_or(0)));
    out.push(' ');
    push_seconds(out, info.elapsed.as_millis());
    if let (true, Some(left)) = (options.time_left, time_left) {
        out.push_str(", tl=");
        push_seconds(out, u128::from(left));
    }
    if options.nodes {
        out.push_str(", n=");
        push_u64(out, info.nodes.unwrap_or(0));
    }
}

/// Seconds as the time control tag writes them: `60`, `0.6`, `0.05`.
fn secs(ms: Millis) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

/// A control as the `TimeControl` tag: `[moves/]time[+increment]` in seconds for a clock,
/// `T/move` for a fixed time a move, `-` when only nodes or depth limit the engine.
pub fn time_control_text(control: &Control) -> String {
    if let Some(tc) = control.tc {
        let mut s = String::new();
        if let Some(m) = tc.moves {
            s.push_str(&format!("{m}/"));
        }
        s.push_str(&secs(tc.time));
        if tc.increment > 0 {
            s.push_str(&format!("+{}", secs(tc.increment)));
        }
        return s;
    }
    match control.movetime {
        Some(st) => format!("{}/move", secs(st)),
        None => "-".to_string(),
    }
}

/// A date as the PGN `Date` tag writes it (UTC): `2026.11.30`.
pub fn date_text(t: SystemTime) -> String {
    records::pgn::write::date_value(t)
}

/// A moment as fastchess's `GameStartTime` writes it, in UTC: `2026-11-30T02:37:12 +0000`.
pub fn datetime_text(t: SystemTime) -> String {
    let ((y, m, d), s) = utc(t);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02} +0000",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// A duration as `GameDuration` writes it: `hh:mm:ss`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

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

/// How a game ended, for the PGN: the standard's `Termination` value and the words fastchess
/// ends the last move's comment with. `code` is the runner's reason code (the judge's for a
/// ruling, the referee's, or the runner's own: `adjudicated_draw`, `crash` …).
pub fn ending_words(kind: Kind, result: Outcome, code: &str) -> (&'static str, String) {
    let name = |side: Side| match (kind, side) {
        (Kind::Xiangqi, Side::First) => "Red",
        (Kind::Chess, Side::First) => "White",
        (_, Side::Second) => "Black",
    };
    let (winner, loser) = match result {
        Outcome::FirstWins => (name(Side::First), name(Side::Second)),
        Outcome::SecondWins => (name(Side::Second), name(Side::First)),
        Outcome::Draw | Outcome::Ongoing => ("", ""),
    };
    let draw = result == Outcome::Draw;
    let (termination, words) = match code {
        "checkmate" => ("normal", format!("{winner} mates")),
        "stalemate" if draw => ("normal", "Draw by stalemate".to_string()),
        "stalemate" => ("normal", format!("{winner} wins by stalemate")),
        "threefold_repetition" => ("normal", "Draw by 3-fold repetition".to_string()),
        "fivefold_repetition" => ("normal", "Draw by 5-fold repetition".to_string()),
        "repetition_draw" => ("normal", "Draw by repetition".to_string()),
        "fifty_move_rule" => ("normal", "Draw by fifty moves rule".to_string()),
        "seventy_five_move_rule" => ("normal", "Draw by seventy-five moves rule".to_string()),
        "natural_move_limit" => ("normal", "Draw by move limit".to_string()),
        "dead_position" => ("normal", "Draw by insufficient mating material".to_string()),
        "agreement" => ("normal", "Draw by agreement".to_string()),
        "resignation" => ("normal", format!("{loser} resigns")),
        "perpetual_check" => ("rules infraction", format!("{loser} loses by perpetual check")),
        "forbidden_repetition" => ("rules infraction", format!("{loser} loses by forbidden repetition")),
        "self_check" | "illegal_move" | "illegal_moves" => {
            ("rules infraction", format!("{loser} makes an illegal move"))
        }
        "technical_fouls" | "clock_presses" | "false_claims" | "refused_rules" => {
            ("rules infraction", format!("{loser} loses by rules infraction"))
        }
        "time" | "lateness" => ("time forfeit", format!("{loser} loses on time")),
        "adjudicated_draw" | "max_moves" => ("adjudication", "Draw by adjudication".to_string()),
        "adjudicated_tablebase" | "adjudicated_resign" if draw => ("adjudication", "Draw by adjudication".to_string()),
        "adjudicated_tablebase" | "adjudicated_resign" => ("adjudication", format!("{winner} wins by adjudication")),
        "crash" | "error" if !winner.is_empty() => ("abandoned", format!("{loser} disconnects")),
        "aborted" | "crash" | "error" => ("abandoned", "Game aborted".to_string()),
        _ if result == Outcome::Ongoing => ("unterminated", "Game unterminated".to_string()),
        _ if draw => ("normal", "Draw".to_string()),
        _ => ("normal", format!("{winner} wins")),
    };
    (termination, words)
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
    use crate::play::Tc;
    use referee::Command;
    use std::time::UNIX_EPOCH;

    fn score_text(score: Score) -> String {
        let mut s = String::new();
        push_score(&mut s, score);
        s
    }

    #[test]
    fn numbers_written_by_hand_read_as_format_writes_them() {
        let mut values = vec![0, 1, 9, 10, 99, 100, 999, 1000, 12_345, u64::MAX, u64::MAX / 10];
        values.extend((0..19).map(|k| 10u64.pow(k)));
        values.extend((1..20).map(|k| 10u64.pow(k) - 1));
        for v in values {
            let mut s = String::new();
            push_u64(&mut s, v);
            assert_eq!(s, v.to_string());
            let mut s = String::new();
            push_seconds(&mut s, u128::from(v));
            assert_eq!(s, format!("{}.{:03}s", v / 1000, v % 1000));
        }
        for c in [
            -100_000,
            -101,
            -100,
            -99,
            -1,
            1,
            7,
            99,
            100,
            101,
            32_000,
            i32::MIN,
            i32::MAX,
        ] {
            let want = format!(
                "{}{}.{:02}",
                if c > 0 { '+' } else { '-' },
                c.unsigned_abs() / 100,
                c.unsigned_abs() % 100
            );
            assert_eq!(score_text(Score::Cp(c)), want);
        }
        assert_eq!(
            score_text(Score::Mate(i32::MIN)),
            format!("-M{}", -2 * i64::from(i32::MIN))
        );
        assert_eq!(
            score_text(Score::Mate(i32::MAX)),
            format!("+M{}", 2 * i64::from(i32::MAX) - 1)
        );
    }

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

    #[test]
    fn scores_as_fastchess_writes_them() {
        assert_eq!(score_text(Score::Cp(31)), "+0.31");
        assert_eq!(score_text(Score::Cp(-105)), "-1.05");
        assert_eq!(score_text(Score::Cp(-5)), "-0.05");
        assert_eq!(score_text(Score::Cp(0)), "0.00");
        assert_eq!(score_text(Score::Cp(1200)), "+12.00");
        // Mates in plies: mate in 3 moves is 5 plies, mated in 2 is 4.
        assert_eq!(score_text(Score::Mate(3)), "+M5");
        assert_eq!(score_text(Score::Mate(1)), "+M1");
        assert_eq!(score_text(Score::Mate(-2)), "-M4");
    }

    #[test]
    fn move_comments() {
        let info = MoveInfo {
            score: Some(Score::Cp(31)),
            depth: Some(9),
            nodes: Some(12_345),
            elapsed: Duration::from_micros(105_400),
        };
        let none = PgnOptions::default();
        assert_eq!(move_comment(&info, Some(1_593), none), "+0.31/9 0.105s");
        let all = PgnOptions {
            time_left: true,
            nodes: true,
            ..PgnOptions::default()
        };
        assert_eq!(
            move_comment(&info, Some(1_593), all),
            "+0.31/9 0.105s, tl=1.593s, n=12345"
        );
        // No clock: no time left.
        assert_eq!(move_comment(&info, None, all), "+0.31/9 0.105s, n=12345");
        let mate = MoveInfo {
            score: Some(Score::Mate(-1)),
            depth: Some(20),
            elapsed: Duration::from_millis(2_000),
            ..MoveInfo::default()
        };
        assert_eq!(move_comment(&mate, None, none), "-M2/20 2.000s");
        // An engine that said nothing but its move.
        let bare = MoveInfo {
            elapsed: Duration::from_millis(7),
            ..MoveInfo::default()
        };
        assert_eq!(move_comment(&bare, None, none), "/0 0.007s");
    }

    #[test]
    fn time_controls_and_times() {
        let mut c = Control {
            tc: Some(Tc::parse("40/60+0.6").unwrap()),
            ..Control::default()
        };
        assert_eq!(time_control_text(&c), "40/60+0.6");
        c.tc = Some(Tc::parse("10+0.05").unwrap());
        assert_eq!(time_control_text(&c), "10+0.05");
        c.tc = Some(Tc::parse("1:30").unwrap());
        assert_eq!(time_control_text(&c), "90");
        c.tc = None;
        c.movetime = Some(100);
        assert_eq!(time_control_text(&c), "0.1/move");
        c.movetime = None;
        c.nodes = Some(1000);
        assert_eq!(time_control_text(&c), "-");

        let t = UNIX_EPOCH + Duration::from_secs(1_796_006_232);
        assert_eq!(datetime_text(t), "2026-11-30T02:37:12 +0000");
        assert_eq!(date_text(t), "2026.11.30");
        assert_eq!(date_text(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000.02.29");
        assert_eq!(duration_text(Duration::from_millis(3_725_900)), "01:02:05");
    }
}
