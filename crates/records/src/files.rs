//! Record files of any supported format: detect the format, read every game (streaming where
//! the format allows), write PGN or the FEN-and-moves form.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use xiangqi::notation::Notation;

use crate::chess::{ChessGames, ChessRecord};
use crate::pgn::{PgnStyle, XiangqiGames};
use crate::record::{Refusal, XiangqiRecord};
use crate::text::{detect, TextEncoding};

/// The formats a record file can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Xiangqi PGN (Chinese, WXF or ICCS moves).
    XiangqiPgn,
    /// Chess PGN (SAN).
    ChessPgn,
    /// XQStudio binary.
    Xqf,
    /// 象棋桥 single game.
    Cbr,
    /// 象棋桥 library.
    Cbl,
    /// DhtmlXQ / UBB text (东萍).
    DhtmlXq,
    /// One game per line: `position fen <FEN> moves <m1> <m2> …` (or `startpos`), the form
    /// engines (UCI, UCCI) take; moves in ICCS for Xiangqi, UCI for chess.
    FenMoves,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "pgn" | "xiangqi-pgn" => Format::XiangqiPgn,
            "chess-pgn" => Format::ChessPgn,
            "xqf" => Format::Xqf,
            "cbr" => Format::Cbr,
            "cbl" => Format::Cbl,
            "dhtmlxq" | "ubb" => Format::DhtmlXq,
            "moves" | "fen-moves" | "uci" => Format::FenMoves,
            _ => {
                return Err(format!(
                    "unknown format {s:?}; expected pgn, chess-pgn, xqf, cbr, cbl, dhtmlxq or moves"
                ))
            }
        })
    }
}

/// Which game a record is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyRecord {
    Xiangqi(XiangqiRecord),
    Chess(ChessRecord),
}

impl AnyRecord {
    pub fn issues(&self) -> &[crate::Issue] {
        match self {
            AnyRecord::Xiangqi(r) => &r.issues,
            AnyRecord::Chess(r) => &r.issues,
        }
    }
}

/// A record that could not be read: the file, the game (1-based) and, where known, the ply.
#[derive(Debug, thiserror::Error)]
#[error("{}: game {game}{}: {message}", .file.display(), .ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
pub struct ReadError {
    pub file: PathBuf,
    pub game: usize,
    pub ply: Option<usize>,
    pub message: String,
}

/// The games of a file, each read or the error that stopped it.
pub type Games = Box<dyn Iterator<Item = Result<AnyRecord, ReadError>>>;

/// Guesses the format from the name and the first bytes.
pub fn detect_format(path: &Path, head: &[u8]) -> Format {
    if head.starts_with(b"XQ") && head.len() >= 4 && head[2] >= 10 {
        return Format::Xqf;
    }
    if head.starts_with(b"CCBridge Record") {
        return Format::Cbr;
    }
    if head.starts_with(b"CCBridgeLibrary") {
        return Format::Cbl;
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "xqf" => return Format::Xqf,
        "cbr" => return Format::Cbr,
        "cbl" => return Format::Cbl,
        _ => {}
    }
    let text = detect(head).decode(head);
    if text.contains("[DhtmlXQ") {
        return Format::DhtmlXq;
    }
    if text.trim_start().starts_with("position ") {
        return Format::FenMoves;
    }
    if looks_like_xiangqi_pgn(&text) {
        Format::XiangqiPgn
    } else {
        Format::ChessPgn
    }
}

fn looks_like_xiangqi_pgn(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.contains("chinese chess") || lower.contains("[variant \"xiangqi\"]") || lower.contains("[format \"") {
        return true;
    }
    // A FEN tag with ten ranks.
    if let Some(i) = lower.find("[fen \"") {
        let fen = &lower[i + 6..];
        let placement = fen.split([' ', '"']).next().unwrap_or("");
        if placement.split('/').count() == 10 {
            return true;
        }
    }
    text.chars().any(|c| {
        matches!(
            c,
            '炮' | '马' | '馬' | '车' | '車' | '兵' | '卒' | '进' | '進' | '平' | '退'
        )
    })
}

/// Reads every game of a file. PGN streams (a file of any size reads in flat memory); the
/// binary formats are read whole. Each item is one game or the error that stopped it.
pub fn read_file(path: &Path) -> io::Result<(Format, Games)> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let head = file.fill_buf()?.to_vec();
    let format = detect_format(path, &head);
    Ok((format, read_as(path, format, file)?))
}

/// Reads a stream in a known format.
pub fn read_as<R: BufRead + 'static>(path: &Path, format: Format, mut input: R) -> io::Result<Games> {
    let file = path.to_path_buf();
    let err = move |game: usize, ply: Option<usize>, message: String| ReadError {
        file: file.clone(),
        game,
        ply,
        message,
    };
    Ok(match format {
        Format::XiangqiPgn => Box::new(
            XiangqiGames::new(input)
                .enumerate()
                .map(move |(i, g)| g.map(AnyRecord::Xiangqi).map_err(|e| err(i + 1, None, e.to_string()))),
        ),
        Format::ChessPgn => Box::new(
            ChessGames::new(input)
                .enumerate()
                .map(move |(i, g)| g.map(AnyRecord::Chess).map_err(|e| err(i + 1, None, e.to_string()))),
        ),
        Format::FenMoves => Box::new(input.lines().enumerate().filter_map(move |(i, line)| match line {
            Err(e) => Some(Err(err(i + 1, None, e.to_string()))),
            Ok(l) if l.trim().is_empty() => None,
            Ok(l) => Some(read_fen_moves(&l).map_err(|(ply, m)| err(i + 1, ply, m))),
        })),
        Format::Xqf | Format::Cbr | Format::Cbl | Format::DhtmlXq => {
            let mut bytes = Vec::new();
            input.read_to_end(&mut bytes)?;
            let games: Vec<Result<AnyRecord, ReadError>> =
                match format {
                    Format::Xqf => vec![crate::xqf::read_xqf(&bytes)
                        .map(AnyRecord::Xiangqi)
                        .map_err(|e| err(1, None, e.to_string()))],
                    Format::Cbr => vec![crate::cbr::read_cbr(&bytes)
                        .map(AnyRecord::Xiangqi)
                        .map_err(|e| err(1, None, e.to_string()))],
                    Format::Cbl => match crate::cbr::read_cbl(&bytes) {
                        Ok(lib) => {
                            lib.issues
                                .iter()
                                .map(|i| Err(err(0, i.ply, format!("library: {}", i.message))))
                                .collect::<Vec<_>>()
                                .into_iter()
                                .chain(lib.games.into_iter().enumerate().map(|(i, g)| {
                                    g.map(AnyRecord::Xiangqi).map_err(|e| err(i + 1, None, e.to_string()))
                                }))
                                .collect()
                        }
                        Err(e) => vec![Err(err(1, None, e.to_string()))],
                    },
                    _ => {
                        let (text, _) = crate::text::decode_detected(&bytes);
                        crate::dhtmlxq::read_dhtmlxq_blocks(&text)
                            .into_iter()
                            .enumerate()
                            .map(|(i, g)| g.map(AnyRecord::Xiangqi).map_err(|e| err(i + 1, None, e.to_string())))
                            .collect()
                    }
                };
            Box::new(games.into_iter())
        }
    })
}

/// The start a `position …` line gives (a FEN, or `startpos`), whether it is chess's, and
/// the moves' texts.
pub fn fen_moves_parts(line: &str) -> (&str, bool, Vec<&str>) {
    let line = line.trim();
    let line = line.strip_prefix("position").unwrap_or(line).trim();
    let (fen_part, moves) = match line.find(" moves") {
        Some(i) => (line[..i].trim(), line[i + 6..].split_whitespace().collect::<Vec<_>>()),
        None => (line, Vec::new()),
    };
    let fen = fen_part.strip_prefix("fen").map(str::trim).unwrap_or(fen_part);
    let chess = fen.split(' ').next().is_some_and(|p| p.split('/').count() == 8);
    (fen, chess, moves)
}

/// Reads `position fen <FEN> moves …` / `position startpos moves …` (also a bare FEN followed
/// by `moves`). Xiangqi or chess is told from the FEN (ten ranks or eight). A move that cannot
/// be played ends the moves read, with an issue naming it, as in every other format; only a
/// start that cannot be read is an error.
pub fn read_fen_moves(line: &str) -> Result<AnyRecord, (Option<usize>, String)> {
    let (fen, chess, moves) = fen_moves_parts(line);
    if chess {
        use shakmaty::{uci::UciMove, CastlingMode, Chess, Position};
        let mut pos: Chess = if fen == "startpos" {
            Chess::default()
        } else {
            shakmaty::fen::Fen::from_ascii(fen.as_bytes())
                .map_err(|e| (None, format!("FEN {fen:?}: {e}")))?
                .into_position(CastlingMode::Standard)
                .map_err(|e| (None, format!("FEN {fen:?}: {e}")))?
        };
        let mut rec =
            ChessRecord::new(shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string());
        let mut node = crate::MoveTree::<shakmaty::Move>::ROOT;
        for (i, t) in moves.iter().enumerate() {
            let m = match t.parse::<UciMove>() {
                Ok(u) => u.to_move(&pos).map_err(|_| (Refusal::Illegal, "not a legal move here")),
                Err(_) => Err((Refusal::NotAMove, "not a move in UCI coordinates (e2e4, e7e8q)")),
            };
            match m {
                Ok(m) => {
                    node = rec.tree.add_child(node, m);
                    pos.play_unchecked(m);
                }
                Err((why, said)) => {
                    rec.issues.push(refused_issue(i + 1, pos.turn(), t, said, why, None));
                    break;
                }
            }
        }
        Ok(AnyRecord::Chess(rec))
    } else {
        let pos = if fen == "startpos" {
            Ok(xiangqi::Position::start())
        } else {
            xiangqi::Position::from_fen(fen)
        };
        let mut pos = pos.map_err(|e| (None, format!("FEN {fen:?}: {e}")))?;
        let mut rec = XiangqiRecord::new(pos.fen().to_string());
        let mut node = crate::MoveTree::<xiangqi::Move>::ROOT;
        for (i, t) in moves.iter().enumerate() {
            match Notation::Iccs.parse(&pos, t).or_else(|e| {
                // Fairy-Stockfish's ranks where ICCS cannot read the text at all.
                Notation::Fsf
                    .parse(&pos, t)
                    .map_err(|f| if e.is_syntax() { f } else { e })
            }) {
                Ok(m) => {
                    node = rec.tree.add_child(node, m);
                    pos.play_unchecked(m);
                }
                Err(e) => {
                    let r = crate::RefusedMove::xiangqi(t, &e);
                    let said = match r.why {
                        Refusal::NotAMove => "not a move in coordinates (h2e2, or h3e3 with ranks 1-10)",
                        _ if r.self_check.is_some() => {
                            "not a legal move here: it leaves the mover's king in check or facing the other king"
                        }
                        _ => "not a legal move here",
                    };
                    let self_check = r.self_check;
                    rec.issues
                        .push(refused_issue(i + 1, pos.turn(), t, said, r.why, self_check));
                    break;
                }
            }
        }
        Ok(AnyRecord::Xiangqi(rec))
    }
}

/// The issue of a move the `moves` form cannot play: the rest of the line is not read.
fn refused_issue(
    ply: usize,
    side: impl fmt::Display,
    written: &str,
    said: &str,
    why: Refusal,
    self_check: Option<xiangqi::Move>,
) -> crate::Issue {
    crate::Issue {
        ply: Some(ply),
        message: format!("{side} to move: {written:?} is {said}; the rest of the moves are not read"),
        refused: Some(crate::RefusedMove {
            written: written.to_string(),
            why,
            self_check,
            after: None,
        }),
    }
}

/// Writes a record's main line as `position fen <FEN> moves …`.
pub fn write_fen_moves(record: &AnyRecord, out: &mut impl fmt::Write) -> fmt::Result {
    match record {
        AnyRecord::Xiangqi(r) => {
            write!(out, "position fen {}", r.start_fen)?;
            write_moves(out, r.tree.main_line().map(|m| m.to_string()))
        }
        AnyRecord::Chess(r) => {
            write!(out, "position fen {}", r.start_fen)?;
            write_moves(
                out,
                r.tree
                    .main_line()
                    .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
            )
        }
    }
}

fn write_moves(out: &mut impl fmt::Write, moves: impl Iterator<Item = String>) -> fmt::Result {
    let mut first = true;
    for m in moves {
        if first {
            out.write_str(" moves")?;
            first = false;
        }
        write!(out, " {m}")?;
    }
    writeln!(out)
}

/// Writes a record as PGN: Xiangqi moves in `notation`, chess in SAN.
pub fn write_pgn(record: &AnyRecord, notation: Notation, out: &mut impl fmt::Write) -> fmt::Result {
    write_pgn_styled(record, notation, PgnStyle::Standard, out)
}

/// Writes a record as PGN for the readers `style` names (a Xiangqi style; chess is standard).
pub fn write_pgn_styled(
    record: &AnyRecord,
    notation: Notation,
    style: PgnStyle,
    out: &mut impl fmt::Write,
) -> fmt::Result {
    match record {
        AnyRecord::Xiangqi(r) => crate::pgn::write_pgn_styled(r, notation, style, out),
        AnyRecord::Chess(r) => crate::chess::write_pgn(r, out),
    }
}

/// The encoding a written Xiangqi PGN should use (UTF-8 unless asked otherwise).
pub fn output_encoding(name: Option<&str>) -> Result<TextEncoding, String> {
    match name.map(str::to_ascii_lowercase).as_deref() {
        None | Some("utf-8" | "utf8") => Ok(TextEncoding::Utf8),
        Some("gbk" | "gb18030" | "gb2312") => Ok(TextEncoding::Gbk),
        Some("big5") => Ok(TextEncoding::Big5),
        Some(other) => Err(format!("unknown encoding {other:?}; expected utf-8, gbk or big5")),
    }
}
