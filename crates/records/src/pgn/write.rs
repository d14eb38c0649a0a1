//! The one PGN writer every part of arbiter writes games with: the converter, the referee's
//! export and the engine match.
//!
//! - [`Tags::write_pgn`]: a game's tags, written in export order — the Seven Tag Roster first, in its
//!   order, then the others as they were set — with values escaped per the PGN standard in one
//!   place ([`escape_tag_value`]);
//! - [`Movetext`]: moves with their numbers (`1.`, and `1...` for the second player's move after
//!   a comment, a variation or at the start), NAGs, comments, variations, wrapped at 80 columns,
//!   and the result token.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::record::Tags;

/// The PGN standard's Seven Tag Roster, in its export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Movetext lines end before this column, as the PGN export format asks (a single token longer
/// than a line, a long FEN-free comment word, stays whole).
pub const LINE_WIDTH: usize = 80;

/// A tag value as the PGN standard quotes it: `\` and `"` escaped with a backslash. A tag
/// cannot span lines, so a line break becomes a space.
pub fn escape_tag_value(value: &str) -> Cow<'_, str> {
    if !value.contains(['\\', '"', '\n', '\r']) {
        return Cow::Borrowed(value);
    }
    let mut s = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    Cow::Owned(s)
}

/// Writes one tag pair line: `[Name "value"]`.
pub fn write_tag(out: &mut impl fmt::Write, name: &str, value: &str) -> fmt::Result {
    writeln!(out, "[{name} \"{}\"]", escape_tag_value(value))
}

impl Tags {
    /// Sets a tag unless one of that name is already set.
    pub fn set_default(&mut self, name: &str, value: &str) {
        if self.get(name).is_none() {
            self.push(name, value);
        }
    }

    /// Fills in the Seven Tag Roster as the export format asks: `?` for an unknown Event, Site,
    /// Round or player, `????.??.??` for an unknown Date, `*` for an unknown Result.
    ///
    /// For Xiangqi (`xiangqi`), `Red` and `White` name the same player, and each missing one
    /// takes the other's value: Xiangqi readers (xqbase, cchess) look for `Red`, while rating
    /// tools (Ordo, BayesElo) and chess readers look for `White`.
    pub fn complete_roster(&mut self, xiangqi: bool) {
        if xiangqi {
            match (self.get("Red").map(str::to_owned), self.get("White").map(str::to_owned)) {
                (Some(red), None) => self.set("White", red),
                (None, Some(white)) => self.set("Red", white),
                _ => {}
            }
        }
        for name in SEVEN_TAG_ROSTER {
            let unknown = match name {
                "Date" => "????.??.??",
                "Result" => "*",
                _ => "?",
            };
            self.set_default(name, unknown);
        }
        if xiangqi {
            let white = self.get("White").unwrap_or("?").to_owned();
            self.set_default("Red", &white);
        }
    }

    /// Writes the PGN tag section: the Seven Tag Roster tags present, in the roster's order,
    /// then the others in their order (a repeated name once), then the blank line before the
    /// movetext.
    pub fn write_pgn(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for name in SEVEN_TAG_ROSTER {
            if let Some(value) = self.get(name) {
                write_tag(out, name, value)?;
            }
        }
        for (i, (name, value)) in self.iter().enumerate() {
            let roster = SEVEN_TAG_ROSTER.iter().any(|r| r.eq_ignore_ascii_case(name));
            let repeated = self.iter().take(i).any(|(n, _)| n.eq_ignore_ascii_case(name));
            if !roster && !repeated {
                write_tag(out, name, value)?;
            }
        }
        writeln!(out)
    }
}

/// How comments are written: `{ text }` (the chess habit: python-chess, lichess) or `{text}`
/// (xqbase's, and fastchess's for engine moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentStyle {
    Padded,
    Tight,
}

/// A game's movetext, written token by token into `out`.
pub struct Movetext<'a, W> {
    out: &'a mut W,
    col: usize,
    /// The next token follows without a space: right after `(`.
    glue: bool,
    style: CommentStyle,
    /// The second player's next move needs its number: at the start, after a comment or a
    /// variation (the export format's rule).
    need_number: bool,
    split_comments: bool,
    /// A token being built (a move number, a braced comment): one buffer reused token after
    /// token, as an engine match writes a game's record between two games.
    scratch: String,
}

impl<'a, W: fmt::Write> Movetext<'a, W> {
    pub fn new(out: &'a mut W, style: CommentStyle) -> Self {
        Movetext {
            out,
            col: 0,
            glue: false,
            style,
            need_number: true,
            split_comments: true,
            scratch: String::new(),
        }
    }

    /// Whether a one-line comment too long for a line goes word by word (the default: lines
    /// stay within [`LINE_WIDTH`]). A converter keeps comments whole instead, since a reader
    /// reads the line breaks back as part of the comment.
    pub fn split_long_comments(mut self, split: bool) -> Self {
        self.split_comments = split;
        self
    }

    /// Writes a token, wrapping lines before [`LINE_WIDTH`] columns.
    fn token(&mut self, t: &str) -> fmt::Result {
        let width = t.chars().count();
        // Parentheses hug what they enclose: `(1... 炮８平５)`.
        let glue = self.glue || t == ")";
        if self.col > 0 && self.col + 1 + width > LINE_WIDTH {
            writeln!(self.out)?;
            self.col = 0;
        } else if self.col > 0 && !glue {
            self.out.write_char(' ')?;
            self.col += 1;
        }
        self.out.write_str(t)?;
        self.col += width;
        self.glue = t == "(";
        Ok(())
    }

    /// A move played from a position whose full move number is `fullmove`, by the first player
    /// (red, white) or the second: `12. e4`, or `12... e5` where the second player's move
    /// needs its number.
    pub fn play(&mut self, fullmove: u32, first_to_move: bool, text: &str) -> fmt::Result {
        if first_to_move || self.need_number {
            let mut number = std::mem::take(&mut self.scratch);
            number.clear();
            write!(number, "{fullmove}{}", if first_to_move { "." } else { "..." })?;
            let written = self.token(&number);
            self.scratch = number;
            written?;
        }
        self.need_number = false;
        self.token(text)
    }

    /// A numeric annotation glyph: `$1`.
    pub fn nag(&mut self, nag: u8) -> fmt::Result {
        self.token(&format!("${nag}"))
    }

    /// A comment. Braces cannot hold a `}` (PGN has no escape), so such a comment goes out as
    /// `;` comments, one per line, which read back joined by line breaks. A one-line comment
    /// too long for a line goes word by word (see [`Movetext::split_long_comments`]).
    pub fn comment(&mut self, text: &str) -> fmt::Result {
        self.need_number = true;
        if text.contains('}') {
            for line in text.lines() {
                self.token(&format!(";{line}"))?;
                writeln!(self.out)?;
                self.col = 0;
            }
            return Ok(());
        }
        let mut braced = std::mem::take(&mut self.scratch);
        braced.clear();
        match self.style {
            CommentStyle::Padded => write!(braced, "{{ {text} }}")?,
            CommentStyle::Tight => write!(braced, "{{{text}}}")?,
        }
        let written =
            if self.split_comments && braced.chars().count() > LINE_WIDTH && !text.contains('\n') && text.contains(' ')
            {
                braced
                    .split(' ')
                    .filter(|w| !w.is_empty())
                    .try_for_each(|word| self.token(word))
            } else {
                self.token(&braced)
            };
        self.scratch = braced;
        written
    }

    /// Opens a variation: the alternatives to the move just written.
    pub fn begin_variation(&mut self) -> fmt::Result {
        self.need_number = true;
        self.token("(")
    }

    pub fn end_variation(&mut self) -> fmt::Result {
        self.need_number = true;
        self.token(")")
    }

    /// Ends the movetext with the result token (`1-0`, `0-1`, `1/2-1/2`, `*`) and a newline.
    pub fn finish(&mut self, result: &str) -> fmt::Result {
        self.token(result)?;
        writeln!(self.out)
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

/// A moment as UTC date and seconds into the day.
pub fn utc(t: SystemTime) -> ((i64, u32, u32), u64) {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    (civil((secs / 86_400) as i64), secs % 86_400)
}

/// A date as the `Date` tag writes it (UTC): `2026.11.30`.
pub fn date_value(t: SystemTime) -> String {
    let ((y, m, d), _) = utc(t);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A clock reading as the `[%clk h:mm:ss]` comment command writes it (lichess, chess.com). Whole
/// seconds, rounded up as arbiter's page shows a running clock: 0.4 s left reads `0:00:01`,
/// and only a fallen flag reads `0:00:00`.
pub fn clk(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn tag_values_escaped_in_one_place() {
        assert_eq!(escape_tag_value("plain"), "plain");
        assert_eq!(escape_tag_value(r#"a "b" \c"#), r#"a \"b\" \\c"#);
        assert_eq!(escape_tag_value("two\nlines"), "two lines");
        let mut out = String::new();
        write_tag(&mut out, "Event", r#"say "hi""#).unwrap();
        assert_eq!(out, "[Event \"say \\\"hi\\\"\"]\n");
    }

    #[test]
    fn roster_first_then_the_rest_in_order() {
        let mut t = Tags::default();
        t.set("Variant", "xiangqi");
        t.set("Result", "1-0");
        t.set("Red", "许银川");
        t.set("Event", "Cup");
        t.set("Black", "吕钦");
        t.complete_roster(true);
        let mut out = String::new();
        t.write_pgn(&mut out).unwrap();
        assert_eq!(
            out,
            "[Event \"Cup\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1-0\"]\n\
             [Variant \"xiangqi\"]\n[Red \"许银川\"]\n\n"
        );
        // Setting again replaces, whatever the case of the name.
        t.set("result", "0-1");
        assert_eq!(t.get("Result"), Some("0-1"));
        assert_eq!(t.iter().filter(|(n, _)| n.eq_ignore_ascii_case("result")).count(), 1);
        // A repeated name (files do repeat tags) is written once.
        t.push("Variant", "again");
        let mut again = String::new();
        t.write_pgn(&mut again).unwrap();
        assert_eq!(again.matches("[Variant ").count(), 1);
    }

    #[test]
    fn movetext_numbers_wraps_and_ends() {
        let mut out = String::new();
        let mut m = Movetext::new(&mut out, CommentStyle::Padded);
        m.play(1, true, "e4").unwrap();
        m.play(1, false, "e5").unwrap();
        m.play(2, true, "Nf3").unwrap();
        m.comment("[%clk 0:05:00]").unwrap();
        m.play(2, false, "Nc6").unwrap();
        m.begin_variation().unwrap();
        m.play(2, false, "d6").unwrap();
        m.end_variation().unwrap();
        m.play(3, true, "Bb5").unwrap();
        m.nag(1).unwrap();
        m.comment("a } brace").unwrap();
        m.play(3, false, "a6").unwrap();
        m.finish("*").unwrap();
        assert_eq!(
            out,
            "1. e4 e5 2. Nf3 { [%clk 0:05:00] } 2... Nc6 (2... d6) 3. Bb5 $1 ;a } brace\n3... a6 *\n"
        );

        let mut out = String::new();
        let mut m = Movetext::new(&mut out, CommentStyle::Tight);
        for n in 1..=12 {
            m.play(n, true, "e4").unwrap();
            m.comment("+0.31/9 0.105s").unwrap();
        }
        let long = ["word"; 30].join(" ");
        m.comment(&long).unwrap();
        m.finish("1-0").unwrap();
        assert!(out.lines().all(|l| l.chars().count() <= LINE_WIDTH), "{out}");
        assert!(out.replace('\n', " ").contains(&format!("{{{long}}}")));
        assert!(out.ends_with(" 1-0\n"));
    }

    #[test]
    fn dates_and_clocks() {
        let t = UNIX_EPOCH + Duration::from_secs(1_796_006_232);
        assert_eq!(date_value(t), "2026.11.30");
        assert_eq!(date_value(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000.02.29");
        assert_eq!(clk(0), "[%clk 0:00:00]");
        assert_eq!(clk(1), "[%clk 0:00:01]");
        assert_eq!(clk(59_001), "[%clk 0:01:00]");
        assert_eq!(clk(3_600_000), "[%clk 1:00:00]");
    }
}
