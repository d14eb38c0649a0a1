//! The PGN of an engine game, written as engine match runners write it (fastchess, cutechess),
//! so that the tools engine authors use on their output read ours:
//!
//! - the record starts where the opening starts (`FEN` only when that is not the standard
//!   start), its moves marked `{book}`, then the engines' moves;
//! - each engine move has `{score/depth time}`: the engine's last score from its own point of
//!   view in pawns (`+0.31`, `-1.05`, `0.00`) or as a mate in plies (`+M5`: it mates in three
//!   moves; `-M4`: it is mated in two), the depth, and its thinking time (`0.105s`); with
//!   [`PgnOptions`] also `, tl=…s` (the mover's clock after the move) and `, n=…` (nodes);
//! - tags as fastchess writes them: `GameDuration`, `GameStartTime`, `GameEndTime`,
//!   `PlyCount` (book moves included), `Termination` (the referee's or runner's reason code),
//!   `TimeControl` (`40/60+0.6`, `10+0.1`, `0.1/move`, `-` for nodes or depth only);
//! - the referee's own notes (draw offers, fouls, a side told to vary, the ending's
//!   explanation) as further comments, and movetext wrapped at 80 columns.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use game::{Game, Kind, Side};
use judge::{Judge, Outcome};
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

/// Days since 1970-01-01 as a civil date (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn unix_secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// A date as the PGN `Date` tag writes it (UTC): `2026.11.30`.
pub fn date_text(t: SystemTime) -> String {
    let (y, m, d) = civil((unix_secs(t) / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A moment as fastchess's `GameStartTime` writes it, in UTC: `2026-11-30T02:37:12 +0000`.
pub fn datetime_text(t: SystemTime) -> String {
    let secs = unix_secs(t);
    let (y, m, d) = civil((secs / 86_400) as i64);
    let s = secs % 86_400;
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

/// Movetext as tokens joined by spaces, a new line before a token that would pass 80 columns.
struct Movetext {
    out: String,
    column: usize,
}

impl Movetext {
    /// Adds a token (a move with its comment, a comment, the result); one too long for a line
    /// (a long explanation) goes word by word.
    fn push(&mut self, token: &str) {
        let width = token.chars().count();
        if width > 80 && token.contains(' ') {
            for word in token.split(' ').filter(|w| !w.is_empty()) {
                self.push(word);
            }
            return;
        }
        if self.column > 0 && self.column + 1 + width > 80 {
            self.out.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(token);
        self.column += width;
    }
}

fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
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
    pub controls: [&'a Control; 2],
    pub started: SystemTime,
    pub ended: SystemTime,
    pub duration: Duration,
    pub options: PgnOptions,
}

/// The game as PGN (see the module's description).
pub fn write<J: Judge>(referee: &Referee<J>, record: &GameRecord<'_, J::Game>) -> String {
    let kind = <J::Game as Game>::KIND;
    let mut out = String::with_capacity(2048);
    let mut tag = |k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
    };
    for (k, v) in record.tags {
        tag(k, v);
    }
    tag("Result", record.result.pgn());
    if kind == Kind::Xiangqi {
        tag("Variant", "xiangqi");
    }
    let fen = record.root.fen();
    if fen != <J::Game as Game>::start().fen() {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    let engine_plies = referee
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::MoveAccepted { .. }))
        .count();
    tag("GameDuration", &duration_text(record.duration));
    tag("GameStartTime", &datetime_text(record.started));
    tag("GameEndTime", &datetime_text(record.ended));
    tag("PlyCount", &(record.book.len() + engine_plies).to_string());
    tag("Termination", record.termination);
    let [first, second] = record.controls.map(time_control_text);
    if first == second {
        tag("TimeControl", &first);
    } else {
        let (a, b) = match kind {
            Kind::Xiangqi => ("RedTimeControl", "BlackTimeControl"),
            Kind::Chess => ("WhiteTimeControl", "BlackTimeControl"),
        };
        tag(a, &first);
        tag(b, &second);
    }
    out.push('\n');

    let mut text = Movetext {
        out: String::with_capacity(1024),
        column: 0,
    };
    // Numbered on from the root's FEN (its sixth field): "… b KQkq - 0 1" opens "1...".
    let mut fullmove = fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let mut first_move = true;
    // A move's token, built in one buffer reused move after move.
    let mut token = String::with_capacity(64);
    let mut number = |token: &mut String, side: Side, text: &str| {
        token.clear();
        match side {
            Side::First => {
                push_u64(token, fullmove as u64);
                token.push_str(". ");
            }
            Side::Second if first_move => {
                push_u64(token, fullmove as u64);
                token.push_str("... ");
            }
            Side::Second => {}
        }
        token.push_str(text);
        if side == Side::Second {
            fullmove += 1;
        }
        first_move = false;
    };
    let mut pos = record.root.clone();
    for &m in record.book {
        number(&mut token, pos.turn(), &pos.notation(m));
        token.push_str(" {book}");
        text.push(&token);
        pos.play(m);
    }
    let mut infos = record.moves.iter();
    let timed = !referee.clock().control().stages.is_empty();
    for e in referee.events() {
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
                text.push(&comment(&n));
            }
            continue;
        };
        // The referee of an engine game leaves notation to the record (`set_live_notation`):
        // worked out here, move after move in one warm loop, not between two searches.
        let worked_out;
        let written = match pos.parse_move(coordinate) {
            Ok(m) => {
                worked_out = notation.is_empty().then(|| pos.notation(m));
                pos.play(m);
                worked_out.as_deref().unwrap_or(notation)
            }
            // Every accepted move was legal where it was made, so this is a bug; the record
            // still gets the move as the referee wrote it.
            Err(_) if notation.is_empty() => coordinate,
            Err(_) => notation,
        };
        number(&mut token, *side, written);
        if let Some(info) = infos.next() {
            let left = timed.then(|| {
                clocks[match side {
                    Side::First => 0,
                    Side::Second => 1,
                }]
                .main
            });
            // The comment's fields are numbers and words: no `}` to replace.
            token.push_str(" {");
            push_move_comment(&mut token, info, left, record.options);
            token.push('}');
        }
        text.push(&token);
        if *offers_draw {
            text.push("{draw offered}");
        }
    }
    if let Some(explanation) = record.runner_end {
        text.push(&comment(explanation));
    }
    text.push(record.result.pgn());
    out.push_str(&text.out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Tc;
    use referee::Command;

    fn score_text(score: Score) -> String {
        let mut s = String::new();
        push_score(&mut s, score);
        s
    }

    #[test]
    fn numbers_read_as_format_writes_them() {
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
                controls: [&control, &control],
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

    #[test]
    fn movetext_wraps_at_80_columns() {
        let mut t = Movetext {
            out: String::new(),
            column: 0,
        };
        for _ in 0..12 {
            t.push("1. e4 {+0.31/9 0.105s}");
        }
        assert!(t.out.lines().all(|l| l.chars().count() <= 80), "{}", t.out);
        assert_eq!(t.out.lines().count(), 4);
        let long = format!("{{{}}}", ["word"; 30].join(" "));
        t.push(&long);
        assert!(t.out.lines().all(|l| l.chars().count() <= 80), "{}", t.out);
        assert!(t.out.replace('\n', " ").contains(&long));
    }
}
