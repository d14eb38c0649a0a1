//! Reading engine output. Lines the protocols do not define are ignored, as both protocols tell
//! a GUI to do (engines print banners, debug text and worse); only an unreadable best move is
//! an error, because without it there is no move to referee.

use std::borrow::Cow;

use crate::{EngineOption, Score};

/// What an `info` line says that a reply keeps.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Info {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub score: Option<Score>,
    pub multipv: Option<u32>,
}

#[cfg(test)]
fn info(rest: &str) -> Info {
    info_bytes(rest.as_bytes())
}

/// [`info`] on bytes: an engine prints an `info` line many times a move, and its words are
/// ASCII, so the line (with its PV) need not be checked as UTF-8 first. A word that is not
/// UTF-8 reads as nothing, as it would after a lossy conversion.
pub(crate) fn info_bytes(rest: &[u8]) -> Info {
    fn num<T: TryFrom<i128>>(v: Option<&[u8]>) -> Option<T> {
        int(v?)
    }
    let mut out = Info::default();
    let mut t = Words(rest);
    while let Some(tok) = t.next() {
        match tok {
            b"depth" => out.depth = num(t.next()),
            b"nodes" => out.nodes = num(t.next()),
            b"multipv" => out.multipv = num(t.next()),
            b"score" => {
                out.score = match t.next() {
                    Some(b"cp") => num(t.next()).map(Score::Cp),
                    Some(b"mate") => num(t.next()).map(Score::Mate),
                    // UCCI: `score 30`.
                    v @ Some(_) => num(v).map(Score::Cp),
                    None => None,
                }
            }
            // The rest is free text or moves.
            b"string" | b"pv" | b"message" => break,
            _ => {}
        }
        // Nothing after these four is kept (`nps`, `hashfull`, `time` … and the PV); each is
        // said once a line.
        if out.depth.is_some() && out.score.is_some() && out.nodes.is_some() && out.multipv.is_some() {
            break;
        }
    }
    out
}

/// An integer in decimal as `str::parse` reads one (an optional `+` or `-`, then digits; out
/// of `T`'s range or anything else is `None`), read from bytes: no UTF-8 check and no
/// dispatch on the type's parsing code, on a path run for every move of a match.
fn int<T: TryFrom<i128>>(v: &[u8]) -> Option<T> {
    let (negative, digits) = match v {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, v),
    };
    if digits.is_empty() {
        return None;
    }
    // Every type read is at most 64 bits: a magnitude past `u64` is out of range for all.
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    // `-0` is no unsigned number to `str::parse`.
    if negative && T::try_from(-1).is_err() {
        return None;
    }
    let n = i128::from(n);
    T::try_from(if negative { -n } else { n }).ok()
}

/// The words of a line split at ASCII blanks, as `split_ascii_whitespace` splits text.
struct Words<'a>(&'a [u8]);

impl<'a> Iterator for Words<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        // Every ASCII blank is at most a space: most bytes are told apart by one comparison.
        let blank = |b: u8| b <= b' ' && b.is_ascii_whitespace();
        let s = self.0;
        let mut i = 0;
        while i < s.len() && blank(s[i]) {
            i += 1;
        }
        let start = i;
        while i < s.len() && !blank(s[i]) {
            i += 1;
        }
        self.0 = &s[i..];
        (i > start).then(|| &s[start..i])
    }
}

/// What a run of `info` lines leaves for a reply: each field as the last line that gave it
/// said (score and depth from the first PV only).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl Seen {
    /// Takes in what the `info` lines after those seen here left.
    pub fn then(&mut self, later: &Seen) {
        if later.score.is_some() {
            self.score = later.score;
        }
        if later.depth.is_some() {
            self.depth = later.depth;
        }
        if later.nodes.is_some() {
            self.nodes = later.nodes;
        }
    }
}

/// What the reader of an engine's output does with a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class<'a> {
    /// An `info` line, the words after `info`: read only if a reply needs what it says.
    Info(&'a [u8]),
    /// A line some wait may act on, passed on to it (as text; bytes that are not UTF-8 are
    /// replaced).
    Keep(Cow<'a, str>),
    /// A line every wait ignores.
    Drop,
}

/// Sorts a line of engine output. `Keep` covers every line the waits look at: the handshake
/// (`uciok`, `ucciok`, `id`, `option`), `readyok` (compared whole, as the wait compares it)
/// and the end of a search (`bestmove`, `nobestmove`). Only those end a wait.
pub(crate) fn class(line: &[u8]) -> Class<'_> {
    // The common case first, on bytes: an `info` line after ASCII blanks, if any.
    if let Some(rest) = line.trim_ascii_start().strip_prefix(b"info") {
        if rest.first().is_none_or(u8::is_ascii_whitespace) {
            return Class::Info(rest);
        }
    }
    // The end of a search, once a move: its text is checked as UTF-8 and borrowed, not copied.
    if let Some(rest) = line.strip_prefix(b"bestmove") {
        if rest.first().is_none_or(u8::is_ascii_whitespace) {
            if let Ok(text) = std::str::from_utf8(line) {
                return Class::Keep(Cow::Borrowed(text));
            }
        }
    }
    let text = String::from_utf8_lossy(line);
    match head(&text) {
        // `info` after other (Unicode) blanks: rare enough to copy.
        ("info", _) => match line.windows(4).position(|w| w == b"info") {
            Some(i) => Class::Info(&line[i + 4..]),
            None => Class::Drop,
        },
        ("bestmove" | "nobestmove" | "readyok" | "uciok" | "ucciok" | "id" | "option", _) => Class::Keep(text),
        _ if text.trim() == "readyok" => Class::Keep(text),
        _ => Class::Drop,
    }
}

/// What the `info` lines in `lines` (whole lines, each ending in a newline) leave for a reply,
/// over what the lines before them left (`older`). Read from the last line back, so that a
/// search's output costs one parsed line — the last, which says everything — rather than one
/// per line the engine printed.
pub(crate) fn fold_back(lines: &[u8], older: Seen) -> Seen {
    let mut seen = Seen::default();
    let mut end = lines.len();
    while end > 0 && !(seen.score.is_some() && seen.depth.is_some() && seen.nodes.is_some()) {
        let body = &lines[..end - 1];
        let start = memchr::memrchr(b'\n', body).map_or(0, |i| i + 1);
        if let Class::Info(rest) = class(&lines[start..end - 1]) {
            let info = info_bytes(rest);
            if info.multipv.is_none_or(|n| n == 1) {
                seen.score = seen.score.or(info.score);
                seen.depth = seen.depth.or(info.depth);
            }
            seen.nodes = seen.nodes.or(info.nodes);
        }
        end = start;
    }
    let mut out = older;
    out.then(&seen);
    out
}

/// The moves after `pv` on an `info` line (the words after `info`), if the line has a PV and
/// is of the first PV (`multipv` absent or 1). `string` ends the line's fields, as for
/// [`info_bytes`]: what follows it is free text, not a PV.
pub(crate) fn pv_of(rest: &[u8]) -> Option<&[u8]> {
    let mut t = Words(rest);
    let mut first = true;
    while let Some(tok) = t.next() {
        match tok {
            b"multipv" => first = t.next().and_then(int::<u32>) == Some(1),
            b"pv" => return (first && !t.0.trim_ascii().is_empty()).then(|| t.0.trim_ascii()),
            b"string" => return None,
            _ => {}
        }
    }
    None
}

/// Takes the PVs of the `info` lines in `lines` (whole lines, each ending in a newline) into
/// `pv`, the PV so far, in order: each line's replaces it, unless it has the same first move
/// and fewer moves. An engine stopped in the middle of an iteration prints the line it has so
/// far, often its first move or two; the previous iteration's line through the same move
/// says more.
pub(crate) fn fold_pv(lines: &[u8], pv: &mut Vec<u8>) {
    for line in lines.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Class::Info(rest) = class(line) {
            if let Some(words) = pv_of(rest) {
                take_pv(words, pv);
            }
        }
    }
}

/// `words`, a new PV, into `pv` (see [`fold_pv`]).
pub(crate) fn take_pv(words: &[u8], pv: &mut Vec<u8>) {
    let first = |line: &[u8]| Words(line).next().map(<[u8]>::to_vec);
    if !pv.is_empty() && first(words) == first(pv) && Words(pv).count() > Words(words).count() {
        return;
    }
    pv.clear();
    pv.extend_from_slice(words);
}

/// `bestmove <m> [ponder <m>] [draw|resign]`, the words after `bestmove`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BestMove<'a> {
    pub best: Option<&'a str>,
    pub ponder: Option<&'a str>,
    pub draw: bool,
    pub resign: bool,
}

pub(crate) fn bestmove(rest: &str) -> BestMove<'_> {
    let mut out = BestMove::default();
    let mut t = rest.split_ascii_whitespace();
    let first = t.next();
    out.resign = first == Some("resign");
    out.best = first.filter(|m| !is_null(m));
    while let Some(tok) = t.next() {
        match tok {
            "ponder" => out.ponder = t.next().filter(|m| !is_null(m)),
            "draw" => out.draw = true,
            "resign" => out.resign = true,
            _ => {}
        }
    }
    out
}

/// The ways engines say "no move".
fn is_null(m: &str) -> bool {
    matches!(m, "(none)" | "0000" | "none" | "null" | "resign")
}

/// The option declared by `option …` (the words after `option`). UCI names the name
/// (`name Hash type spin`); UCCI does not (`hashsize type spin`). Values may contain spaces,
/// so each runs to the next keyword.
pub(crate) fn option(rest: &str) -> Option<EngineOption> {
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut opt = EngineOption::default();
    let mut key = "name";
    let mut value: Vec<&str> = Vec::new();
    let mut commit = |key: &str, value: &mut Vec<&str>| {
        let v = value.join(" ");
        value.clear();
        match key {
            "name" => opt.name = v,
            "type" => opt.kind = v,
            "default" => opt.default = Some(if v == "<empty>" { String::new() } else { v }),
            "min" => opt.min = Some(v),
            "max" => opt.max = Some(v),
            _ => opt.vars.push(v),
        }
    };
    let mut first = true;
    for tok in rest.split_ascii_whitespace() {
        if first && tok == "name" {
            first = false;
            continue;
        }
        first = false;
        if KEYS[1..].contains(&tok) {
            commit(key, &mut value);
            key = tok;
        } else {
            value.push(tok);
        }
    }
    commit(key, &mut value);
    (!opt.name.is_empty()).then_some(opt)
}

/// Splits a line into its first word and the rest.
pub(crate) fn head(line: &str) -> (&str, &str) {
    // Lines start with their ASCII word but for rare ones, which are trimmed of any blanks.
    let line = if line.as_bytes().first().is_some_and(u8::is_ascii_graphic) {
        line
    } else {
        line.trim_start()
    };
    // An ASCII byte is never part of another character, so the split is found on bytes.
    match line.bytes().position(|c| c.is_ascii_whitespace()) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infos() {
        let i = info("depth 6 seldepth 5 multipv 1 score cp 108 nodes 1000 nps 142857 pv h10g8 e3c3");
        assert_eq!(i.depth, Some(6));
        assert_eq!(i.nodes, Some(1000));
        assert_eq!(i.score, Some(Score::Cp(108)));
        assert_eq!(info("depth 3 score mate -2 lowerbound").score, Some(Score::Mate(-2)));
        assert_eq!(info("depth 5 score 30 pv h2e2").score, Some(Score::Cp(30)));
        assert_eq!(info("string depth 9"), Info::default());
        assert_eq!(info("score cp"), Info::default());
        assert_eq!(info("depth x nodes 5").nodes, Some(5));
        // Read up to the last of the four fields kept, in whatever order they come.
        let full = "depth 5 seldepth 6 multipv 1 score cp 94 upperbound nodes 1000 nps 142857 tbhits 0 time 7 pv h1g3";
        let want = Info {
            depth: Some(5),
            nodes: Some(1000),
            score: Some(Score::Cp(94)),
            multipv: Some(1),
        };
        assert_eq!(info(full), want);
        assert_eq!(
            info("nodes 1000 time 7 score cp 94 seldepth 6 depth 5 hashfull 3 multipv 1"),
            want
        );
    }

    #[test]
    fn folds() {
        let depth = |line: &[u8]| match class(line) {
            Class::Info(rest) => info_bytes(rest).depth,
            _ => None,
        };
        assert_eq!(depth(b" info depth 4"), Some(4));
        assert_eq!(depth("\u{2003}info depth 4".as_bytes()), Some(4));
        let i = Info {
            depth: Some(5),
            score: Some(Score::Cp(3)),
            ..Info::default()
        };
        assert_eq!(info_bytes(b" depth 5 score cp 3 pv e2e4 \xff\xfe"), i);
        assert_eq!(
            info_bytes(b" depth 5\xff nodes 9"),
            Info {
                nodes: Some(9),
                ..Info::default()
            }
        );
        assert_eq!(class(b"info"), Class::Info(b""));
        // Read back from the end: the last line that says a thing says it.
        let lines = b"info depth 1 score cp 5 nodes 20 pv e2e4\ninfo depth 2 multipv 2 score cp -9 nodes 40 pv d2d4\nStockfish says hi\n";
        let s = fold_back(lines, Seen::default());
        assert_eq!((s.score, s.depth, s.nodes), (Some(Score::Cp(5)), Some(1), Some(40)));
        let older = Seen {
            score: Some(Score::Mate(3)),
            depth: Some(9),
            nodes: Some(7),
        };
        let s = fold_back(b"info string hello\ninfo depth 3\n", older);
        assert_eq!((s.score, s.depth, s.nodes), (Some(Score::Mate(3)), Some(3), Some(7)));
        assert_eq!(fold_back(b"", older), older);
        for keep in [
            "bestmove e2e4",
            "nobestmove",
            "readyok",
            " readyok\u{a0}",
            "uciok",
            "ucciok",
            "id name x",
        ] {
            assert_eq!(class(keep.as_bytes()), Class::Keep(keep.into()), "{keep}");
        }
        assert_eq!(class(b"bestmove \xff"), Class::Keep("bestmove \u{fffd}".into()));
        assert!(matches!(class(b"option name Hash type spin"), Class::Keep(_)));
        for drop in [
            "",
            "Stockfish 15.1 by the Stockfish developers",
            "informed",
            "readyokay",
            "copyprotection ok",
        ] {
            assert_eq!(class(drop.as_bytes()), Class::Drop, "{drop}");
        }
        assert_eq!(class(b"\xffinfo depth 3"), Class::Drop);
    }

    /// PV lines as Fairy-Stockfish and Stockfish print them.
    #[test]
    fn principal_variations() {
        let fsf = b" depth 12 seldepth 16 multipv 1 score cp 43 nodes 52143 nps 1042860 hashfull 20 tbhits 0 time 50 pv h3e3 h10g8 h1g3 i10h10 i1h1";
        assert_eq!(pv_of(fsf), Some(&b"h3e3 h10g8 h1g3 i10h10 i1h1"[..]));
        // Not the first line of a multi-PV search.
        assert_eq!(pv_of(b" depth 12 multipv 2 score cp 20 pv b3e3 h10g8"), None);
        assert_eq!(pv_of(b" depth 12 multipv 1 score cp 20 pv b3e3"), Some(&b"b3e3"[..]));
        // A line without a PV, an empty PV, a PV in free text.
        assert_eq!(pv_of(b" depth 3 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(pv_of(b" depth 3 score cp 9 pv  \r"), None);
        assert_eq!(pv_of(b" string pv e2e4"), None);
        // Junk bytes in a PV stay for the reader of moves to refuse.
        assert_eq!(
            pv_of(b" depth 5 pv e2e4 \xff\xfe e7e5"),
            Some(&b"e2e4 \xff\xfe e7e5"[..])
        );
        let folded = |lines: &[u8]| {
            let mut pv = Vec::new();
            fold_pv(lines, &mut pv);
            String::from_utf8(pv).unwrap()
        };
        let out = b"info depth 9 multipv 1 score cp 30 nodes 900 pv e2e4 e7e5 g1f3\r\ninfo depth 10 multipv 2 score cp 10 nodes 999 pv d2d4 d7d5\ninfo depth 10 currmove d2d4 currmovenumber 2\ninfo string NNUE evaluation using nn.nnue\n";
        assert_eq!(folded(out), "e2e4 e7e5 g1f3");
        // Fairy-Stockfish stopped by its time in the middle of depth 13: that line is cut
        // short, and depth 12's, through the same move, is kept.
        let cut = b"info depth 12 seldepth 18 multipv 1 score cp -44 nodes 34174 nps 359726 tbhits 0 time 95 pv e7e6 b1c3 c7c6 g1f3 d7d5\ninfo depth 13 seldepth 22 multipv 1 score cp -53 nodes 54727 nps 362430 tbhits 0 time 151 pv e7e6 b1c3\n";
        assert_eq!(folded(cut), "e7e6 b1c3 c7c6 g1f3 d7d5");
        // A new best move replaces the line, however short.
        let changed = b"info depth 12 score cp 20 pv e7e6 b1c3 c7c6\ninfo depth 13 score cp 25 lowerbound pv c7c5\n";
        assert_eq!(folded(changed), "c7c5");
        assert_eq!(folded(b"info depth 1 score cp 0\n"), "");
        assert_eq!(folded(b""), "");
    }

    /// `int` reads what `str::parse` reads, for each type an `info` line's numbers have.
    #[test]
    fn integers_read_as_str_parse_reads_them() {
        fn same(text: &str) {
            let b = text.as_bytes();
            assert_eq!(int::<u32>(b), text.parse::<u32>().ok(), "u32 {text:?}");
            assert_eq!(int::<u64>(b), text.parse::<u64>().ok(), "u64 {text:?}");
            assert_eq!(int::<i32>(b), text.parse::<i32>().ok(), "i32 {text:?}");
        }
        for text in [
            "",
            "0",
            "-0",
            "+0",
            "+",
            "-",
            "--1",
            "+-1",
            "1000",
            "-7",
            "+42",
            "007",
            " 1",
            "1 ",
            "1e3",
            "0x10",
            "4294967295",
            "4294967296",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "18446744073709551615",
            "18446744073709551616",
            "-18446744073709551615",
            "000000000000000000000000000000000000000000000000001",
            "99999999999999999999999999999999999999999999999999",
        ] {
            same(text);
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let alphabet = b"0123456789+- x";
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 24) as usize;
            let text: String = (0..len)
                .map(|i| {
                    let pick = (seed >> (i % 8 * 8)) as usize ^ i;
                    // Mostly digits, so that long numbers (and overflows) come up.
                    let pick = if pick.is_multiple_of(5) { pick / 5 } else { pick % 10 };
                    alphabet[pick % alphabet.len()] as char
                })
                .collect();
            same(&text);
        }
        assert_eq!(info_bytes(b"depth 4 score cp -0 nodes +12").score, Some(Score::Cp(0)));
        assert_eq!(info_bytes(b"depth -4 nodes -12").nodes, None);
    }

    #[test]
    fn heads() {
        assert_eq!(head("bestmove e2e4 ponder e7e5"), ("bestmove", "e2e4 ponder e7e5"));
        assert_eq!(head("readyok"), ("readyok", ""));
        assert_eq!(head("  \u{a0}id name  x"), ("id", "name  x"));
        assert_eq!(head("\u{2003}bestmove\t\u{a0}e2e4"), ("bestmove", "e2e4"));
        assert_eq!(head("é x"), ("é", "x"));
        assert_eq!(head(""), ("", ""));
    }

    #[test]
    fn bestmoves() {
        let b = bestmove("h2e2 ponder h9g7 draw");
        assert_eq!(
            (b.best, b.ponder, b.draw, b.resign),
            (Some("h2e2"), Some("h9g7"), true, false)
        );
        assert_eq!(bestmove("(none)").best, None);
        assert_eq!(bestmove("").best, None);
        assert!(bestmove("a0a1 resign").resign);
    }

    #[test]
    fn options() {
        let o = option("name Skill Level type spin default 20 min -20 max 20").unwrap();
        assert_eq!(o.name, "Skill Level");
        assert_eq!(o.kind, "spin");
        assert_eq!(o.default.as_deref(), Some("20"));
        assert_eq!((o.min.as_deref(), o.max.as_deref()), (Some("-20"), Some("20")));
        let o = option("name UCI_Variant type combo default chess var 3check var xiangqi").unwrap();
        assert_eq!(o.vars, ["3check", "xiangqi"]);
        let o = option("usemillisec type check default false").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str()), ("usemillisec", "check"));
        let o = option("name VariantPath type string default <empty>").unwrap();
        assert_eq!(o.default.as_deref(), Some(""));
        let o = option("newgame type button").unwrap();
        assert_eq!(o.name, "newgame");
        assert!(option("type spin").is_none());
        assert_eq!(head("  bestmove  h2e2 ponder x"), ("bestmove", "h2e2 ponder x"));
        assert_eq!(head("readyok"), ("readyok", ""));
    }
}
