//! An engine's output cut into the lines a runner acts on, from reads of any size.
//!
//! The waiting thread reads the pipe into [`Lines::room`] and takes the lines out with
//! [`Lines::next_line`]: the handshake, `readyok` and the end of a search, each with what the
//! `info` lines since the previous one said ([`Seen`]). `info` lines are only stepped over as
//! they come; the few a reply needs are read back from the last when a line is passed on, so a
//! search's output costs one parsed line. A line that outgrows the limit ([`MAX_LINE`] unless
//! [`Lines::with_sizes`] says otherwise) is skipped to its end. Nothing here touches the pipe:
//! the same bytes cut into any reads give the same lines ([`check_against_model`]).

use std::borrow::Cow;

pub use crate::parse::Seen;
use crate::parse::{self, Class};

/// How much of the engine's output is read at a time, by default.
pub const READ_CHUNK: usize = 1 << 16;
/// The longest line kept, by default; longer ones are skipped (an engine printing without
/// end must not grow the runner without end).
pub const MAX_LINE: usize = 1 << 20;

/// The buffer an engine's output is read into and cut from.
#[derive(Debug, Clone)]
pub struct Lines {
    /// Bytes read and not yet passed on are `buf[span..end]`: `buf[span..scan]` are whole
    /// `info` (or ignored) lines since the last line passed on, `buf[scan..end]` the lines not
    /// yet sorted. The rest of `buf` is room to read into.
    buf: Vec<u8>,
    span: usize,
    scan: usize,
    end: usize,
    /// What `info` lines of the span that no longer fit in the buffer said.
    older: Seen,
    /// A line longer than `max_line` is being skipped up to its end.
    skipping: bool,
    chunk: usize,
    max_line: usize,
    /// Whether PVs are kept ([`Lines::keep_pv`]); when not, none is looked for.
    keep_pv: bool,
    /// The PV the `info` lines of the span already folded ended with.
    older_pv: Vec<u8>,
    /// The PV the `info` lines before the last line passed on ended with.
    pv: Vec<u8>,
}

/// A line [`Lines::sort`] passes on: `buf[start..end]`, or its lossy copy.
pub(crate) struct Found {
    start: usize,
    end: usize,
    lossy: Option<String>,
    seen: Seen,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines::with_sizes(READ_CHUNK, MAX_LINE)
    }
}

impl Lines {
    /// Room for reads of `chunk` bytes (at least 1); lines past `max_line` bytes are skipped.
    pub fn with_sizes(chunk: usize, max_line: usize) -> Lines {
        let chunk = chunk.max(1);
        Lines {
            buf: vec![0; 2 * chunk],
            span: 0,
            scan: 0,
            end: 0,
            older: Seen::default(),
            skipping: false,
            chunk,
            max_line,
            keep_pv: false,
            older_pv: Vec::new(),
            pv: Vec::new(),
        }
    }

    /// Keeps, from now on, the principal variation the `info` lines before each line passed on
    /// ended with ([`Lines::pv`]), or stops doing so. Either way the PVs kept so far go.
    pub fn keep_pv(&mut self, on: bool) {
        self.keep_pv = on;
        self.older_pv.clear();
        self.pv.clear();
    }

    /// The moves (as the engine wrote them, separated by blanks) of the PV the `info` lines
    /// of the first PV before the last line passed on ended with (see `parse::fold_pv`);
    /// empty if there was none or PVs are not kept.
    pub fn pv(&self) -> &[u8] {
        &self.pv
    }

    /// Takes in the PVs of `buf[span..scan]` (whole lines) before they are dropped.
    fn fold_pv(&mut self) {
        if self.keep_pv {
            parse::fold_pv(&self.buf[self.span..self.scan], &mut self.older_pv);
        }
    }

    /// At least a chunk's worth of room to read into; report what was read with
    /// [`Lines::filled`].
    pub fn room(&mut self) -> &mut [u8] {
        self.make_room();
        &mut self.buf[self.end..]
    }

    /// `n` bytes were read into [`Lines::room`] (more than it offered counts as all of it).
    pub fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Whether all that was read has been passed on or stepped over (no partial line waits).
    pub fn is_empty(&self) -> bool {
        self.scan == self.end
    }

    /// The next line a wait may act on (without its line end; bytes that are not UTF-8
    /// replaced) and what the `info` lines before it said, or None until more is read.
    pub fn next_line(&mut self) -> Option<(Cow<'_, str>, Seen)> {
        let found = self.sort()?;
        Some(self.take(found))
    }

    /// The line [`Lines::sort`] found, borrowed from the buffer where it can be.
    pub(crate) fn take(&self, found: Found) -> (Cow<'_, str>, Seen) {
        let text = match found.lossy {
            Some(copy) => Cow::Owned(copy),
            // `sort` found these bytes UTF-8.
            None => Cow::Borrowed(std::str::from_utf8(&self.buf[found.start..found.end]).unwrap_or_default()),
        };
        (text, found.seen)
    }

    /// Sorts the lines read: the next line a wait may act on, with what the `info` lines before
    /// it said, or None when more must be read. (Found by place, so that a caller looping on
    /// reads can return it borrowed: [`Lines::take`].)
    pub(crate) fn sort(&mut self) -> Option<Found> {
        while let Some(i) = memchr::memchr(b'\n', &self.buf[self.scan..self.end]) {
            let end = self.scan + i + 1;
            if self.skipping {
                // The end of an overlong line: dropped, with what came before it in the span.
                self.skipping = false;
                self.fold_pv();
                self.older = parse::fold_back(&self.buf[self.span..self.scan], self.older);
                self.span = end;
                self.scan = end;
                continue;
            }
            let mut line = &self.buf[self.scan..end - 1];
            // The common line, told at once (hot path; `class` would say the same): `info`
            // lines stay in the span, unread.
            if line.starts_with(b"info ") {
                self.scan = end;
                continue;
            }
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            match parse::class(line) {
                Class::Info(_) | Class::Drop => self.scan = end,
                Class::Keep(text) => {
                    // Passed on as the bytes' place in the buffer (they were found UTF-8), or
                    // as a copy where they were not; either way without line ends.
                    let start = self.scan;
                    let trimmed = line
                        .iter()
                        .rposition(|&b| b != b'\r' && b != b'\n')
                        .map_or(0, |i| i + 1);
                    let lossy = match text {
                        Cow::Owned(copy) => Some(copy.trim_end_matches(['\r', '\n']).to_string()),
                        Cow::Borrowed(_) => None,
                    };
                    let seen = parse::fold_back(&self.buf[self.span..self.scan], std::mem::take(&mut self.older));
                    if self.keep_pv {
                        self.fold_pv();
                        std::mem::swap(&mut self.pv, &mut self.older_pv);
                        self.older_pv.clear();
                    }
                    self.span = end;
                    self.scan = end;
                    return Some(Found {
                        start,
                        end: start + trimmed,
                        lossy,
                        seen,
                    });
                }
            }
        }
        None
    }

    /// Leaves at least a chunk of bytes to read into: lines passed on are dropped, and when
    /// the span of `info` lines grows long it is read (backwards, as usual) and dropped too. A
    /// line longer than `max_line` is skipped to its end.
    fn make_room(&mut self) {
        // All passed on: the next read goes to the start again, into lines (and a page) the
        // last reads touched, rather than on through the buffer into cold memory.
        if self.span == self.end {
            (self.span, self.scan, self.end) = (0, 0, 0);
        }
        if self.buf.len() - self.end >= self.chunk {
            return;
        }
        if self.scan - self.span > self.chunk {
            self.fold_pv();
            self.older = parse::fold_back(&self.buf[self.span..self.scan], self.older);
            self.span = self.scan;
        }
        // (Only a line still without its end: lines not yet taken out with `next_line` stay.)
        if self.end - self.scan > self.max_line && memchr::memchr(b'\n', &self.buf[self.scan..self.end]).is_none() {
            self.end = self.scan;
            self.skipping = true;
        }
        self.buf.copy_within(self.span..self.end, 0);
        (self.scan, self.end) = (self.scan - self.span, self.end - self.span);
        self.span = 0;
        if self.buf.len() - self.end < self.chunk {
            self.buf.resize(self.end + 2 * self.chunk, 0);
        }
    }
}

/// Checks [`Lines`] against a plain model on one input, panicking where they differ: for
/// cargo-fuzz (`fuzz/fuzz_targets/engine_output.rs`) and this crate's tests; not part of the
/// API.
///
/// `data`: two bytes pick the sizes (a chunk of 1–64 bytes, lines up to 1–128), two more seed
/// the sizes of the reads (1 byte to twice the room offered is asked for; a pipe gives at most
/// the room), the rest is the engine's output. The model cuts the whole output at newlines
/// and sorts each line alone; the lines [`Lines::next_line`] passes on, and what each says the
/// `info` lines before it said, must be the model's, whatever the reads. Where a line is
/// longer than the limit, lines passed on must still be the model's, in order, but the
/// overlong ones may go (when is up to the reads), and with them their `info`.
#[doc(hidden)]
pub fn check_against_model(data: &[u8]) {
    let [a, b, c, d, output @ ..] = data else { return };
    let (chunk, max_line) = (1 + usize::from(a % 64), 1 + usize::from(b % 128));
    let mut state = u32::from_le_bytes([*c, *d, 0x5a, 0xa5]);
    let mut next_size = |room: usize| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state as usize % (2 * room)).max(1).min(room)
    };
    let mut lines = Lines::with_sizes(chunk, max_line);
    // PVs are kept on half the inputs, so both paths are checked.
    let keep_pv = b & 0x80 != 0;
    lines.keep_pv(keep_pv);
    let mut got: Vec<(String, Seen)> = Vec::new();
    let mut got_pvs: Vec<Vec<u8>> = Vec::new();
    let mut at = 0;
    while at < output.len() {
        let room = lines.room();
        assert!(room.len() >= chunk, "room {} for a chunk of {chunk}", room.len());
        let n = next_size(room.len()).min(output.len() - at);
        room[..n].copy_from_slice(&output[at..at + n]);
        lines.filled(n);
        at += n;
        // Lines are taken out after most reads, and all at the end.
        if next_size(4) > 1 || at == output.len() {
            while let Some((text, seen)) = lines.next_line() {
                got.push((text.into_owned(), seen));
                got_pvs.push(lines.pv().to_vec());
            }
        }
    }
    let cut: Vec<&[u8]> = {
        let mut cut: Vec<&[u8]> = output.split(|&b| b == b'\n').collect();
        // What follows the last newline is no line yet.
        cut.pop();
        cut
    };
    // Lines longer than the limit matter only if the model would act on them: where they
    // are ignored lines, dropping them changes nothing.
    let mut overlong = false;
    let mut want: Vec<(String, Seen)> = Vec::new();
    // The model's lines no longer than the limit, which no reads may lose.
    let mut short = 0;
    let mut seen = Seen::default();
    let mut want_pvs: Vec<Vec<u8>> = Vec::new();
    let mut pv: Vec<u8> = Vec::new();
    for line in cut {
        let raw = line.len();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let class = parse::class(line);
        overlong |= raw > max_line && class != Class::Drop;
        match class {
            Class::Info(rest) => {
                let info = parse::info_bytes(rest);
                if info.multipv.is_none_or(|n| n == 1) {
                    seen.score = info.score.or(seen.score);
                    seen.depth = info.depth.or(seen.depth);
                }
                seen.nodes = info.nodes.or(seen.nodes);
                if let Some(words) = parse::pv_of(rest) {
                    parse::take_pv(words, &mut pv);
                }
            }
            Class::Keep(text) => {
                short += usize::from(line.len() < max_line);
                want_pvs.push(if keep_pv { std::mem::take(&mut pv) } else { Vec::new() });
                pv.clear();
                let text = text.trim_end_matches(['\r', '\n']).to_string();
                want.push((text, std::mem::take(&mut seen)));
            }
            Class::Drop => {}
        }
    }
    if !overlong {
        assert_eq!(got, want, "chunk {chunk}, max_line {max_line}");
        assert_eq!(got_pvs, want_pvs, "PVs: chunk {chunk}, max_line {max_line}");
        return;
    }
    // The texts passed on are the model's, in order, and those the model keeps that are no
    // longer than the limit all come.
    let mut wanted = want.iter();
    for (text, _) in &got {
        assert!(
            wanted.any(|(w, _)| w == text),
            "{text:?} out of order or not in the output (chunk {chunk}, max_line {max_line})"
        );
    }
    assert!(got.len() >= short, "lines lost (chunk {chunk}, max_line {max_line})");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    /// Engine-like output and bytes at random, cut into reads of every size.
    #[test]
    fn lines_are_the_models_whatever_the_reads() {
        const WORDS: [&str; 25] = [
            "info depth 3 seldepth 4 multipv 1 score cp 25 nodes 1000 nps 9 pv e2e4 e7e5\n",
            "info depth 4 multipv 2 score mate -3 nodes 77 pv d2d4\n",
            "info depth 4 multipv 1 score cp 20 pv e2e4\n",
            "info string hello\n",
            "info nodes 12 time 3\r\n",
            "info depth 9 score 30\n",
            "bestmove e2e4 ponder e7e5\n",
            "bestmove h2e2\r\n",
            "bestmove (none)\n",
            "nobestmove\n",
            "readyok\n",
            " readyok \n",
            "uciok\n",
            "id name Stockfish 17\n",
            "option name Hash type spin default 16 min 1 max 33554432\n",
            "Stockfish by the developers\n",
            "\n",
            "\r\n",
            "info",
            " depth",
            "\u{2003}info depth 2 score cp 4\n",
            "bestmove \u{fffd}\n",
            "\u{ff}\u{fe}",
            "informed\n",
            "info depth 1 score cp -9999999999999999999 nodes 5\n",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let mut data: Vec<u8> = (0..4).map(|_| rand() as u8).collect();
            for _ in 0..rand() % 40 {
                match rand() % 10 {
                    0 => data.extend((0..rand() % 200).map(|_| b"ab \n\rinfo"[rand() as usize % 9])),
                    1 => data.push(rand() as u8),
                    _ => data.extend_from_slice(WORDS[rand() as usize % WORDS.len()].as_bytes()),
                }
            }
            check_against_model(&data);
        }
    }

    #[test]
    fn a_search_read_in_pieces() {
        let out = b"info depth 1 score cp 5 nodes 20 pv e2e4\ninfo depth 2 multipv 2 score cp -9 nodes 40\nbestmove e2e4\r\nreadyok\n";
        for chunk in [1, 3, 7, 64] {
            let mut lines = Lines::with_sizes(chunk, 1000);
            let mut got = Vec::new();
            for piece in out.chunks(chunk) {
                lines.room()[..piece.len()].copy_from_slice(piece);
                lines.filled(piece.len());
                while let Some((text, seen)) = lines.next_line() {
                    got.push((text.into_owned(), seen.score, seen.depth, seen.nodes));
                }
            }
            assert_eq!(
                got,
                [
                    ("bestmove e2e4".to_string(), Some(Score::Cp(5)), Some(1), Some(40)),
                    ("readyok".to_string(), None, None, None),
                ],
                "chunk {chunk}"
            );
            assert!(lines.is_empty());
        }
    }

    #[test]
    fn a_pv_read_in_pieces() {
        let out = b"info depth 1 score cp 5 pv e2e4\ninfo depth 2 score cp 7 pv d2d4 d7d5\ninfo depth 2 multipv 2 score cp -9 pv g1f3\ninfo depth 3 currmove e2e4\nbestmove d2d4\nreadyok\n";
        for chunk in [1, 3, 7, 64] {
            let mut lines = Lines::with_sizes(chunk, 1000);
            lines.keep_pv(true);
            let mut got = Vec::new();
            for piece in out.chunks(chunk) {
                lines.room()[..piece.len()].copy_from_slice(piece);
                lines.filled(piece.len());
                while let Some((text, _)) = lines.next_line() {
                    let text = text.into_owned();
                    got.push((text, String::from_utf8(lines.pv().to_vec()).unwrap()));
                }
            }
            assert_eq!(
                got,
                [
                    ("bestmove d2d4".to_string(), "d2d4 d7d5".to_string()),
                    ("readyok".to_string(), String::new()),
                ],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn an_endless_line_is_skipped() {
        let mut lines = Lines::with_sizes(16, 32);
        for _ in 0..100 {
            let room = lines.room();
            room[..16].fill(b'x');
            lines.filled(16);
            assert!(lines.next_line().is_none());
        }
        // Memory stays bounded by the limit, not by what the engine printed.
        assert!(lines.buf.len() <= 32 + 4 * 16, "{}", lines.buf.len());
        let piece = b"x\ninfo depth 7\nbestmove a1a2\n";
        lines.room()[..piece.len()].copy_from_slice(piece);
        lines.filled(piece.len());
        let (text, seen) = lines.next_line().expect("the line after");
        assert_eq!((text.as_ref(), seen.depth), ("bestmove a1a2", Some(7)));
    }
}
