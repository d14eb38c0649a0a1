//! Opening books for engine matches: the positions games start from, read from the files match
//! runners take, every one checked by replaying it.
//!
//! Three formats, told apart by the extension and then the content ([`Format`]):
//!
//! - EPD/FEN lines (`.epd`, `.fen`): a position per line, chess EPD (four fields, operations
//!   after them ignored) or FEN (six fields), or Xiangqi FEN as the `xiangqi` crate reads it
//!   (`rnbakabnr/9/… w - - 0 1`, the `- -` and the counters optional).
//! - PGN (`.pgn`): the main line of each game from its `FEN` tag or the standard start, read by
//!   the `records` crate (chess in SAN; Xiangqi in Chinese, WXF or ICCS, UTF-8, GBK or Big5),
//!   cut to [`OpeningOptions::max_plies`] if given.
//! - Move lists (anything else): one opening per line from the standard start, `h2e2 h9g7 h0g2`
//!   or `e2e4 e7e5` (any notation the game reads; move numbers skipped). A line may also
//!   start from a FEN (`FEN moves m1 m2 …`) or be an engine command (`position startpos moves …`,
//!   `position fen FEN moves …`).
//!
//! In the line formats `#` starts a comment (at the start of a line or after a space, so SAN's
//! mate sign is not one) and blank lines are skipped. Moves come out in coordinates (ICCS for
//! Xiangqi, UCI for chess) whatever they were written in, and FENs as the game writes them.
//! An opening that does not replay is an error naming the file, the line (or game) and the
//! move; nothing is skipped silently.
//!
//! ```no_run
//! use std::path::Path;
//! use matches::openings::read_openings;
//!
//! let book = read_openings(game::Kind::Xiangqi, Path::new("openings.txt"))?;
//! for opening in &book {
//!     println!("{}: {:?} {}", opening.source, opening.fen, opening.moves.join(" "));
//! }
//! # Ok::<(), matches::openings::OpeningError>(())
//! ```

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use game::{Game, GameError, Kind};
use records::record::{ReadOptions, Record};

/// Where a game starts: a position (`None`: the standard start) and moves played from it, in
/// coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Opening {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// Where it was read: `file:line` or `file#game`.
    pub source: String,
}

impl Opening {
    /// The start position of the opening (its FEN or the standard start).
    pub fn start<G: Game>(&self) -> Result<G, GameError> {
        match &self.fen {
            Some(fen) => G::from_fen(fen),
            None => Ok(G::start()),
        }
    }

    /// The position after the opening's moves: where the engines take over.
    pub fn position<G: Game>(&self) -> Result<G, GameError> {
        let mut pos = self.start::<G>()?;
        for text in &self.moves {
            let m = pos.parse_move(text)?;
            pos.play(m);
        }
        Ok(pos)
    }
}

/// The formats of an opening file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A FEN or EPD line per opening.
    Epd,
    /// PGN games.
    Pgn,
    /// A list of moves per opening (optionally after a FEN or as a `position` command).
    Moves,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "epd" | "fen" => Ok(Format::Epd),
            "pgn" => Ok(Format::Pgn),
            "moves" | "txt" | "uci" | "iccs" => Ok(Format::Moves),
            _ => Err(format!("unknown opening format {s:?} (expected epd, pgn or moves)")),
        }
    }
}

/// How to read an opening file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpeningOptions {
    /// Keep at most this many plies of each opening (a PGN of whole games used as a book).
    pub max_plies: Option<usize>,
    /// The format, instead of telling it from the file.
    pub format: Option<Format>,
}

/// An opening file that could not be read, or an opening in it that does not replay.
#[derive(Debug)]
pub struct OpeningError {
    pub file: PathBuf,
    /// The line (1-based) of the opening, or of its game in a PGN where it is known.
    pub line: Option<usize>,
    /// The game (1-based) in a PGN.
    pub game: Option<usize>,
    /// The ply (1-based) of the move at fault.
    pub ply: Option<usize>,
    /// The move at fault as written.
    pub token: Option<String>,
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(game) = self.game {
            write!(f, " (game {game})")?;
        }
        f.write_str(": ")?;
        match (self.ply, &self.token) {
            (Some(ply), Some(token)) => write!(f, "ply {ply}, move {token:?}: ")?,
            (Some(ply), None) => write!(f, "ply {ply}: ")?,
            (None, Some(token)) => write!(f, "{token:?}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpeningError {}

impl OpeningError {
    fn new(file: &Path, message: impl Into<String>) -> OpeningError {
        OpeningError {
            file: file.to_path_buf(),
            line: None,
            game: None,
            ply: None,
            token: None,
            message: message.into(),
        }
    }
}

/// Reads the openings of a file for `kind`, the format told from the file.
pub fn read_openings(kind: Kind, path: &Path) -> Result<Vec<Opening>, OpeningError> {
    read_openings_with(kind, path, &OpeningOptions::default())
}

/// Reads the openings of a file for `kind` as `options` say.
pub fn read_openings_with(kind: Kind, path: &Path, options: &OpeningOptions) -> Result<Vec<Opening>, OpeningError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| OpeningError::new(path, e.to_string()))?;
    let format = match options.format {
        Some(f) => f,
        None => detect_format(path, &bytes),
    };
    let openings = match format {
        Format::Pgn => match kind {
            Kind::Xiangqi => read_pgn::<xiangqi::Position>(path, &bytes, options)?,
            Kind::Chess => read_pgn::<chess::Position>(path, &bytes, options)?,
        },
        Format::Epd | Format::Moves => match kind {
            Kind::Xiangqi => read_lines::<xiangqi::Position>(path, &bytes, format, options)?,
            Kind::Chess => read_lines::<chess::Position>(path, &bytes, format, options)?,
        },
    };
    if openings.is_empty() {
        return Err(OpeningError::new(path, "no openings in the file"));
    }
    Ok(openings)
}

/// Tells the format of an opening file from its name, then from its first line that is not
/// blank or a comment: a tag or a move number starts a PGN, a board (a `/`) an EPD.
pub fn detect_format(path: &Path, bytes: &[u8]) -> Format {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "pgn" => return Format::Pgn,
        "epd" | "fen" => return Format::Epd,
        _ => {}
    }
    let head = &bytes[..bytes.len().min(1 << 16)];
    let (text, _) = records::text::decode_detected(head);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';') && !l.starts_with('%'));
    match first {
        Some(l) if l.starts_with('[') || l.starts_with('{') => Format::Pgn,
        Some(l) if move_number(l.split_whitespace().next().unwrap_or("")) => Format::Pgn,
        Some(l) if l.split_whitespace().next().is_some_and(|t| t.contains('/')) => Format::Epd,
        _ => Format::Moves,
    }
}

/// `1.`, `12...`: a move number.
fn move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A failure inside one opening: where in it and why.
struct Fault {
    ply: Option<usize>,
    token: Option<String>,
    message: String,
}

impl Fault {
    fn at(ply: usize, token: &str, message: impl Into<String>) -> Fault {
        Fault {
            ply: Some(ply),
            token: Some(token.to_string()),
            message: message.into(),
        }
    }

    fn whole(message: impl Into<String>) -> Fault {
        Fault {
            ply: None,
            token: None,
            message: message.into(),
        }
    }
}

fn read_lines<G: Game>(
    path: &Path,
    bytes: &[u8],
    format: Format,
    options: &OpeningOptions,
) -> Result<Vec<Opening>, OpeningError> {
    let (text, _) = records::text::decode_detected(bytes);
    let name = path.display().to_string();
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let n = i + 1;
        let opening = read_line::<G>(line, format, options.max_plies).map_err(|fault| OpeningError {
            file: path.to_path_buf(),
            line: Some(n),
            game: None,
            ply: fault.ply,
            token: fault.token,
            message: fault.message,
        })?;
        let (fen, moves) = opening;
        openings.push(Opening {
            fen,
            moves,
            source: format!("{name}:{n}"),
        });
    }
    Ok(openings)
}

/// The line up to a `#` that starts it or follows whitespace.
fn strip_comment(line: &str) -> &str {
    let line = line.trim_start_matches('\u{feff}');
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            return &line[..i];
        }
        prev_space = c.is_whitespace();
    }
    line
}

type Line = (Option<String>, Vec<String>);

fn read_line<G: Game>(line: &str, format: Format, max_plies: Option<usize>) -> Result<Line, Fault> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (fen, moves): (Option<String>, &[&str]) = if tokens[0] == "position" {
        match tokens.get(1) {
            Some(&"startpos") => (None, after_moves(&tokens[2..])?),
            Some(&"fen") => {
                let end = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
                (Some(tokens[2..end].join(" ")), after_moves(&tokens[end..])?)
            }
            _ => return Err(Fault::whole("expected `position startpos` or `position fen`")),
        }
    } else if tokens[0].contains('/') {
        let (fen, used) = fen_fields(G::KIND, &tokens);
        let rest = &tokens[used..];
        let moves = match rest.iter().position(|&t| t == "moves") {
            Some(at) => &rest[at + 1..],
            // EPD operations (`bm e4; id "…";`) and anything else after the position.
            None => &[][..],
        };
        (Some(fen), moves)
    } else if format == Format::Epd {
        return Err(Fault::whole(format!("expected a FEN, found {:?}", tokens[0])));
    } else {
        (None, &tokens[..])
    };
    let start = match &fen {
        Some(fen) => G::from_fen(fen).map_err(|e| Fault::whole(format!("FEN {fen:?}: {e}")))?,
        None => G::start(),
    };
    let fen = fen.map(|_| start.fen());
    let moves: Vec<&str> = moves
        .iter()
        .copied()
        .filter(|t| !move_number(t) && !matches!(*t, "*" | "1-0" | "0-1" | "1/2-1/2"))
        .collect();
    let coordinates = replay_text(start, &moves, max_plies)?;
    Ok((fen, coordinates))
}

/// The moves after a `moves` keyword (none if the tokens are empty).
fn after_moves<'a>(tokens: &'a [&'a str]) -> Result<&'a [&'a str], Fault> {
    match tokens.first() {
        None => Ok(&[]),
        Some(&"moves") => Ok(&tokens[1..]),
        Some(t) => Err(Fault::whole(format!("expected `moves`, found {t:?}"))),
    }
}

/// The FEN at the start of an EPD or FEN line, and how many tokens it took: the board and the
/// side to move, then in chess the castling and en-passant fields (EPD's four), in Xiangqi
/// those fields only where they are `-`; then the two counters where both are numbers.
fn fen_fields(kind: Kind, tokens: &[&str]) -> (String, usize) {
    let mut fields: Vec<&str> = tokens.iter().take(2).copied().collect();
    let mut used = fields.len();
    match kind {
        Kind::Chess => {
            let more = tokens
                .iter()
                .skip(2)
                .take(2)
                .copied()
                .take_while(|t| *t != "moves" && !t.ends_with(';'));
            for t in more {
                fields.push(t);
                used += 1;
            }
        }
        Kind::Xiangqi => {
            while used < tokens.len() && used < 4 && tokens[used] == "-" {
                fields.push("-");
                used += 1;
            }
        }
    }
    let number = |t: Option<&&str>| t.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    if number(tokens.get(used)) && number(tokens.get(used + 1)) {
        if kind == Kind::Xiangqi && fields.len() == 2 {
            fields.extend(["-", "-"]);
        }
        fields.extend([tokens[used], tokens[used + 1]]);
        used += 2;
    }
    (fields.join(" "), used)
}

/// Plays moves written in any notation the game reads and writes them in coordinates.
fn replay_text<G: Game>(mut pos: G, moves: &[&str], max_plies: Option<usize>) -> Result<Vec<String>, Fault> {
    let keep = max_plies.unwrap_or(usize::MAX).min(moves.len());
    let mut out = Vec::with_capacity(keep);
    for (i, text) in moves.iter().enumerate().take(keep) {
        let m = pos
            .parse_move(text)
            .map_err(|e| Fault::at(i + 1, text, format!("{} to move: {e}", pos.turn().name(G::KIND))))?;
        if !pos.is_legal(m) {
            return Err(Fault::at(i + 1, text, "not a legal move"));
        }
        out.push(pos.coordinate(m));
        pos.play(m);
    }
    Ok(out)
}

/// The two games' PGN records, as the replay needs them.
trait PgnGame: Game {
    fn games(bytes: &[u8]) -> Box<dyn Iterator<Item = std::io::Result<Record<Self::Move>>> + '_>;
}

impl PgnGame for xiangqi::Position {
    fn games(bytes: &[u8]) -> Box<dyn Iterator<Item = std::io::Result<Record<xiangqi::Move>>> + '_> {
        Box::new(records::pgn::XiangqiGames::new(BufReader::new(bytes)).with_options(ReadOptions::MAIN_LINE))
    }
}

impl PgnGame for chess::Position {
    fn games(bytes: &[u8]) -> Box<dyn Iterator<Item = std::io::Result<Record<Self::Move>>> + '_> {
        Box::new(records::chess::ChessGames::new(bytes).with_options(ReadOptions::MAIN_LINE))
    }
}

fn read_pgn<G: PgnGame>(path: &Path, bytes: &[u8], options: &OpeningOptions) -> Result<Vec<Opening>, OpeningError> {
    let name = path.display().to_string();
    let mut openings = Vec::new();
    for (i, game) in G::games(bytes).enumerate() {
        let n = i + 1;
        let fail = |fault: Fault| OpeningError {
            file: path.to_path_buf(),
            line: game_line(bytes, n),
            game: Some(n),
            ply: fault.ply,
            token: fault.token,
            message: fault.message,
        };
        let record = game.map_err(|e| fail(Fault::whole(e.to_string())))?;
        let (fen, moves) = replay_record::<G>(&record, options.max_plies).map_err(fail)?;
        openings.push(Opening {
            fen,
            moves,
            source: format!("{name}#{n}"),
        });
    }
    Ok(openings)
}

fn replay_record<G: Game>(record: &Record<G::Move>, max_plies: Option<usize>) -> Result<Line, Fault> {
    let keep = max_plies.unwrap_or(usize::MAX);
    // What the reader had to skip: an unreadable or illegal move (the rest of its line is
    // gone), a FEN tag it could not read. A book must replay whole, so each is an error, unless
    // it lies beyond the plies kept.
    if let Some(issue) = record.issues.iter().find(|i| i.ply.is_none_or(|p| p <= keep)) {
        return Err(Fault {
            ply: issue.ply,
            token: None,
            message: issue.message.clone(),
        });
    }
    let start = G::from_fen(&record.start_fen).map_err(|e| Fault::whole(format!("FEN {:?}: {e}", record.start_fen)))?;
    let fen = (record.tags.get("FEN").is_some() || start.fen() != G::start().fen()).then(|| start.fen());
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, &m) in record.tree.main_line().enumerate().take(keep) {
        if !pos.is_legal(m) {
            let text = pos.coordinate(m);
            return Err(Fault::at(i + 1, &text, "not a legal move"));
        }
        moves.push(pos.coordinate(m));
        pos.play(m);
    }
    Ok((fen, moves))
}

/// The line on which game `n` (1-based) of a PGN starts, counting a run of tag lines after
/// movetext as the start of a game; `None` where the games have no tags.
fn game_line(bytes: &[u8], n: usize) -> Option<usize> {
    let mut games = 0;
    let mut in_tags = false;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let tag = trimmed.starts_with(b"[");
        if tag && !in_tags {
            games += 1;
            if games == n {
                return Some(i + 1);
            }
        }
        in_tags = tag;
    }
    None
}
