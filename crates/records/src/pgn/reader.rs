//! A streaming PGN reader in the style of pgn-reader: the reader owns the loop and the buffers,
//! a [`Visitor`] receives tags, moves, comments, NAGs, variations and the result.
//!
//! The input is read a line at a time as raw bytes and decoded into one reusable `String`, so
//! memory stays flat whatever the file size and nothing is allocated per move. Splitting on
//! raw `\n` is safe for every encoding met here: neither GBK nor Big5 uses 0x0A as a trail byte.

use std::borrow::Cow;
use std::io::{self, BufRead};

use crate::text::{detect, TextEncoding};
use crate::Outcome;

/// Whether to skip the rest of a variation or game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// Receives the parts of each game in order.
pub trait Visitor {
    type Output;

    fn begin_game(&mut self) {}
    fn tag(&mut self, _name: &str, _value: &str) {}
    /// After the tags; returning `Skip(true)` skips the movetext.
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }
    /// A move as written (move numbers, `...` and trailing `!?` already removed).
    fn san(&mut self, _token: &str) {}
    fn nag(&mut self, _nag: u8) {}
    fn comment(&mut self, _text: &str) {}
    /// A variation: an alternative to the last move. `Skip(true)` skips it.
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }
    fn end_variation(&mut self) {}
    fn outcome(&mut self, _outcome: Outcome) {}
    fn end_game(&mut self) -> Self::Output;
}

/// Reads games from a byte stream.
pub struct PgnReader<R> {
    inner: R,
    encoding: Option<TextEncoding>,
    decoder: Option<encoding_rs::Decoder>,
    /// Decoded text not yet cut into lines, from `start` on.
    decoded: String,
    start: usize,
    line: String,
    /// A line read ahead that belongs to the next game.
    pending: bool,
    comment: String,
    /// Names of the tags of the game being read, `\n`-separated: a repeated one starts a game.
    seen_tags: String,
    line_no: u64,
    eof: bool,
}

/// Where the reader is inside a game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Tags,
    Moves,
    /// After the result: the rest until the next tag section is ignored (xqbase adverts).
    Trailer,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader that detects the encoding from the first bytes.
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader {
            inner,
            encoding: None,
            decoder: None,
            decoded: String::with_capacity(1 << 16),
            start: 0,
            line: String::with_capacity(256),
            pending: false,
            comment: String::new(),
            seen_tags: String::new(),
            line_no: 0,
            eof: false,
        }
    }

    /// A reader for a known encoding.
    pub fn with_encoding(inner: R, encoding: TextEncoding) -> PgnReader<R> {
        let mut r = PgnReader::new(inner);
        r.encoding = Some(encoding);
        r
    }

    /// The encoding in use (detected on the first read when not given).
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.encoding
    }

    /// The 1-based number of the line last read.
    pub fn line_number(&self) -> u64 {
        self.line_no
    }

    fn detect_encoding(&mut self) -> io::Result<TextEncoding> {
        if let Some(e) = self.encoding {
            return Ok(e);
        }
        let sample = self.inner.fill_buf()?;
        let e = detect(sample);
        // A UTF-8 BOM is not text.
        if e == TextEncoding::Utf8 && sample.starts_with(&[0xef, 0xbb, 0xbf]) {
            self.inner.consume(3);
        }
        self.encoding = Some(e);
        Ok(e)
    }

    /// Reads the next line into `self.line`; false at the end of input.
    ///
    /// Text is decoded a buffer at a time (much faster than line by line for GBK and Big5)
    /// into `decoded`, and lines are cut from it.
    fn next_line(&mut self) -> io::Result<bool> {
        if self.pending {
            self.pending = false;
            return Ok(true);
        }
        loop {
            // memchr's SIMD search: `str::find` scans byte by byte.
            if let Some(i) = memchr::memchr(b'\n', &self.decoded.as_bytes()[self.start..]) {
                let end = self.start + i;
                self.line.clear();
                self.line.push_str(self.decoded[self.start..end].trim_end_matches('\r'));
                self.start = end + 1;
                self.line_no += 1;
                return Ok(true);
            }
            if self.eof {
                if self.start < self.decoded.len() {
                    self.line.clear();
                    self.line.push_str(self.decoded[self.start..].trim_end_matches('\r'));
                    self.start = self.decoded.len();
                    self.line_no += 1;
                    return Ok(true);
                }
                return Ok(false);
            }
            self.fill()?;
        }
    }

    /// Decodes the next chunk of input onto `decoded`, dropping what was already read.
    fn fill(&mut self) -> io::Result<()> {
        let enc = self.detect_encoding()?;
        self.decoded.drain(..self.start);
        self.start = 0;
        let decoder = self.decoder.get_or_insert_with(|| enc.new_decoder());
        let chunk = self.inner.fill_buf()?;
        let last = chunk.is_empty();
        if let Some(n) = decoder.max_utf8_buffer_length(chunk.len()) {
            self.decoded.reserve(n);
        }
        let (_, read, _) = decoder.decode_to_string(chunk, &mut self.decoded, last);
        self.inner.consume(read);
        self.eof = last;
        Ok(())
    }

    /// Reads one game, or returns `None` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        // Skip blank lines and stray text until a tag section or movetext begins.
        loop {
            if !self.next_line()? {
                return Ok(None);
            }
            let t = self.line.trim();
            if !t.is_empty() && !t.starts_with('%') {
                self.pending = true;
                break;
            }
        }
        visitor.begin_game();
        let mut state = State::Tags;
        self.seen_tags.clear();
        let mut skip_depth: Option<usize> = None;
        let mut depth = 0usize;
        let mut in_comment = false;
        let mut skip_moves = false;

        while self.next_line()? {
            let line = std::mem::take(&mut self.line);
            let trimmed = line.trim_start();
            // A tag line starts a new game when moves were seen, or when a tag repeats
            // (a game without movetext followed by the next game's tags).
            if !in_comment && trimmed.starts_with('[') {
                if let Some((name, value)) = parse_tag(trimmed) {
                    let repeat = self.seen_tags.split('\n').any(|n| n.eq_ignore_ascii_case(name));
                    if state != State::Tags || repeat {
                        self.line = line;
                        self.pending = true;
                        break;
                    }
                    self.seen_tags.push_str(name);
                    self.seen_tags.push('\n');
                    visitor.tag(name, &value);
                    self.line = line;
                    continue;
                }
            }
            if state == State::Trailer {
                self.line = line;
                continue;
            }
            if state == State::Tags {
                if trimmed.is_empty() || trimmed.starts_with('%') {
                    self.line = line;
                    continue;
                }
                state = State::Moves;
                skip_moves = visitor.begin_movetext().0;
            }
            let ended = self.movetext_line(&line, visitor, &mut in_comment, &mut depth, &mut skip_depth, skip_moves);
            self.line = line;
            if ended {
                state = State::Trailer;
            }
        }
        if state == State::Tags {
            visitor.begin_movetext();
        }
        if in_comment {
            let c = std::mem::take(&mut self.comment);
            visitor.comment(c.trim_matches(|c: char| c.is_ascii_whitespace()));
        }
        for _ in 0..depth {
            visitor.end_variation();
        }
        Ok(Some(visitor.end_game()))
    }

    /// Tokenises one line of movetext; returns true when the result token ended the game.
    fn movetext_line<V: Visitor>(
        &mut self,
        line: &str,
        visitor: &mut V,
        in_comment: &mut bool,
        depth: &mut usize,
        skip_depth: &mut Option<usize>,
        skip_moves: bool,
    ) -> bool {
        let mut rest = line;
        if !*in_comment && rest.trim_start().starts_with('%') {
            return false;
        }
        loop {
            if *in_comment {
                match memchr::memchr(b'}', rest.as_bytes()) {
                    Some(i) => {
                        self.comment.push_str(&rest[..i]);
                        *in_comment = false;
                        if skip_depth.is_none() && !skip_moves {
                            visitor.comment(self.comment.trim_matches(|c: char| c.is_ascii_whitespace()));
                        }
                        self.comment.clear();
                        rest = &rest[i + 1..];
                    }
                    None => {
                        self.comment.push_str(rest);
                        self.comment.push('\n');
                        return false;
                    }
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { return false };
            let quiet = skip_depth.is_some() || skip_moves;
            match c {
                '{' => {
                    *in_comment = true;
                    self.comment.clear();
                    rest = &rest[1..];
                }
                ';' => {
                    if !quiet {
                        // Kept as written after the `;`: the tree's normal form trims only what it must.
                        visitor.comment(&rest[1..]);
                    }
                    return false;
                }
                '(' => {
                    *depth += 1;
                    if !quiet && visitor.begin_variation().0 {
                        *skip_depth = Some(*depth);
                    }
                    rest = &rest[1..];
                }
                ')' => {
                    if *depth > 0 {
                        if *skip_depth == Some(*depth) {
                            *skip_depth = None;
                        } else if !quiet {
                            visitor.end_variation();
                        }
                        *depth -= 1;
                    }
                    rest = &rest[1..];
                }
                _ => {
                    let end = token_end(rest);
                    let (token, tail) = rest.split_at(end.max(c.len_utf8()));
                    rest = tail;
                    if let Some(o) = outcome_token(token) {
                        if *depth == 0 {
                            if !skip_moves {
                                visitor.outcome(o);
                            }
                            return true;
                        }
                        continue;
                    }
                    if quiet {
                        continue;
                    }
                    if let Some(n) = token.strip_prefix('$') {
                        if let Ok(n) = n.parse() {
                            visitor.nag(n);
                        }
                        continue;
                    }
                    let (mv, nag) = split_token(token);
                    if !mv.is_empty() {
                        visitor.san(mv);
                    }
                    if let Some(n) = nag {
                        visitor.nag(n);
                    }
                }
            }
        }
    }
}

/// Parses `[Name "value"]`, unescaping `\"` and `\\`.
fn parse_tag(line: &str) -> Option<(&str, Cow<'_, str>)> {
    let inner = line.trim().strip_prefix('[')?;
    let inner = inner.strip_suffix(']').unwrap_or(inner).trim();
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || !c.is_ascii())
    {
        return None;
    }
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?;
    let body = body.strip_suffix('"').unwrap_or(body);
    if !body.contains('\\') {
        return Some((name, Cow::Borrowed(body)));
    }
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((name, Cow::Owned(value)))
}

/// Where the token at the start of `s` ends: at whitespace (Unicode's, which records use: the
/// ideographic space U+3000 among others) or at a movetext delimiter.
///
/// By bytes, not chars: a Chinese move is all multi-byte characters, and decoding each to test
/// it cost a fifth of reading a file. Only four lead bytes begin a non-ASCII whitespace
/// character (U+0085 and U+00A0; U+1680; U+2000–U+205F; U+3000); others are skipped whole.
fn token_end(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let len = match c {
            b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']' => return i,
            _ if c.is_ascii_whitespace() || c == 0x0b => return i,
            0x00..=0x7f => 1,
            0xc2 | 0xe1 | 0xe2 | 0xe3 => {
                let ch = s[i..].chars().next().expect("a character starts here");
                if ch.is_whitespace() {
                    return i;
                }
                ch.len_utf8()
            }
            0x80..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        i += len;
    }
    b.len()
}

fn outcome_token(t: &str) -> Option<Outcome> {
    // Most tokens are moves: reject them on the first byte.
    if !t.starts_with(['1', '0', '*', '½']) {
        return None;
    }
    match t {
        "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½" => Outcome::from_pgn(t),
        _ => None,
    }
}

/// Strips a move number (`12.`, `12...`, glued or not) and trailing annotation marks.
fn split_token(token: &str) -> (&str, Option<u8>) {
    let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
    // A move number is digits and dots followed by nothing or by a move that does not start
    // with a digit: `12.炮二平五` is numbered, WXF's `33.4` and FSF's `27=8` are moves.
    let after_dots = t.trim_start_matches('.');
    let numbered = t.len() < token.len() && t.starts_with('.') && !after_dots.starts_with(|c: char| c.is_ascii_digit());
    let t = if numbered { after_dots } else { token };
    // `1...` leaves `..` here; no move starts with a dot.
    let t = t.trim_start_matches(['.', '…']);
    let body = t.trim_end_matches(['!', '?']);
    let nag = match &t[body.len()..] {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    };
    (body, nag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_ends_match_char_rules() {
        let delimiters = |c: char| c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']');
        for s in [
            "炮二平五 马８进７",
            "炮二平五\u{3000}马",
            "e4{c}",
            "车一进一\u{a0}x",
            "兵\u{2003}",
            "ab\u{85}c",
            "俥\u{1680}",
            "x\u{b}y",
            "plain",
            "",
            "é(",
            "𝄞]",
        ] {
            assert_eq!(token_end(s), s.find(delimiters).unwrap_or(s.len()), "{s:?}");
        }
    }

    #[test]
    fn tokens() {
        assert_eq!(split_token("12.炮二平五"), ("炮二平五", None));
        assert_eq!(split_token("1..."), ("", None));
        assert_eq!(split_token("h2e2!?"), ("h2e2", Some(5)));
        assert_eq!(split_token("27=8"), ("27=8", None));
        assert_eq!(split_token("C2.5"), ("C2.5", None));
        assert_eq!(split_token("33.4"), ("33.4", None));
        assert_eq!(
            parse_tag(r#"[Event "a \"b\""]"#),
            Some(("Event", Cow::Owned("a \"b\"".to_string())))
        );
        assert_eq!(parse_tag(r#"[Site "x"]"#), Some(("Site", Cow::Borrowed("x"))));
        assert_eq!(parse_tag("[1. h2e2"), None);
    }
}
