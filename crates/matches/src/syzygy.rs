//! Adjudication of chess games by Syzygy endgame tablebases (fastchess's `-tb`, `-tbpieces`,
//! `-tbadjudicate`, `-tbignore50`), probed with `shakmaty-syzygy`.
//!
//! After a move that leaves the game going, a position with at most [`Syzygy::pieces`] men and
//! no castling rights is looked up, and a known result ends the game:
//!
//! * The WDL table (only WDL files are needed for this) gives the value as if the position
//!   had just been reached by a capture or pawn move. A draw is a draw whatever the halfmove
//!   clock. A *cursed win* or *blessed loss* (a win that needs more than 50 moves to the next
//!   capture or pawn move) is a draw by the 50-move rule, or with `--tbignore50` a win.
//! * A plain win or loss with the halfmove clock at 0 is a win or loss. With the clock above 0
//!   the moves left before the 50-move rule may not suffice: the DTZ table decides
//!   (`shakmaty-syzygy`'s `probe_wdl`, DTZ plus the clock against 100 plies). Where DTZ
//!   rounding leaves it open (DTZ + clock exactly 100 with a rounded DTZ), a small search over
//!   the next plies settles it exactly, or, past [`SEARCH_BUDGET`] probes, the game goes on.
//!   Without the DTZ table the game goes on until the next capture or pawn move (where the WDL
//!   table alone decides, as fastchess does). With `--tbignore50` the clock is not looked at.
//!
//! Missing tables for a position's material (or for the materials it can reach) mean no
//! adjudication, not an error; a table directory that cannot be read, or directories with no
//! tables at all, are an error when the match starts.
//!
//! Differences from fastchess: fastchess probes only right after a capture or pawn move
//! (halfmove clock 0) and only the WDL tables; here positions with the clock above 0 are
//! adjudicated too, exactly under the 50-move rule with the DTZ tables. fastchess's
//! `-tbpieces` without `-tb`'s largest tables is unlimited; here the default is the largest
//! table found, which is the same limit in effect. fastchess splits `-tb` on `;` on Windows
//! and `:` elsewhere; here `:` (and `;` too, everywhere).

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use chess::shakmaty::zobrist::Zobrist64;
use chess::shakmaty::{Chess, Color, EnPassantMode, Position};
use shakmaty_syzygy::{AmbiguousWdl, Material, Tablebase, Wdl};

/// Positions a search may look at to settle a position that DTZ rounding leaves open.
pub const SEARCH_BUDGET: u32 = 20_000;

/// A search's budget left and the values it found, by position and halfmove clock.
struct Search {
    budget: u32,
    seen: HashMap<(u64, u32), i32>,
}

/// Which tablebase results end a game (fastchess's `-tbadjudicate`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum TbResults {
    /// Wins and losses only.
    WinLoss,
    /// Draws only.
    Draw,
    /// Both (the default).
    #[default]
    Both,
}

impl std::str::FromStr for TbResults {
    type Err = String;

    fn from_str(s: &str) -> Result<TbResults, String> {
        match s.to_ascii_uppercase().as_str() {
            "WIN_LOSS" => Ok(TbResults::WinLoss),
            "DRAW" => Ok(TbResults::Draw),
            "BOTH" => Ok(TbResults::Both),
            _ => Err(format!(
                "bad tablebase adjudication {s:?} (expected WIN_LOSS, DRAW or BOTH)"
            )),
        }
    }
}

/// A tablebase result for the position after a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbVerdict {
    /// `None`: a draw.
    pub winner: Option<Color>,
    /// The material, white's first: `KRvK`.
    pub material: String,
    /// The side that wins without the 50-move rule, when the rule makes it a draw.
    pub saved_by_fifty: Option<Color>,
    /// A cursed win (or blessed loss) counted as a win by `--tbignore50`.
    pub cursed: bool,
}

impl TbVerdict {
    /// The explanation written to the PGN: `adjudicated by Syzygy tablebases: KRvK, White wins`.
    pub fn explanation(&self) -> String {
        let name = |c: Color| if c == Color::White { "White" } else { "Black" };
        let what = match (self.winner, self.saved_by_fifty) {
            (Some(w), _) if self.cursed => {
                format!(
                    "{} wins (a win beyond the 50-move rule, which --tbignore50 ignores)",
                    name(w)
                )
            }
            (Some(w), _) => format!("{} wins", name(w)),
            (None, Some(w)) => format!("draw by the 50-move rule ({} would win without it)", name(w)),
            (None, None) => "draw".to_string(),
        };
        format!("adjudicated by Syzygy tablebases: {}, {what}", self.material)
    }
}

/// Syzygy tables and the match's settings for them.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    dirs: Vec<PathBuf>,
    pieces: usize,
    results: TbResults,
    ignore50: bool,
}

impl fmt::Debug for Syzygy {
    /// The settings (they are part of the match's identity for `--resume`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Syzygy")
            .field("dirs", &self.dirs)
            .field("pieces", &self.pieces)
            .field("results", &self.results)
            .field("ignore50", &self.ignore50)
            .finish()
    }
}

impl PartialEq for Syzygy {
    fn eq(&self, other: &Syzygy) -> bool {
        self.dirs == other.dirs
            && self.pieces == other.pieces
            && self.results == other.results
            && self.ignore50 == other.ignore50
    }
}

impl Eq for Syzygy {}

impl Hash for Syzygy {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (&self.dirs, self.pieces, self.results, self.ignore50).hash(state);
    }
}

/// Splits `--tb`'s list of directories (`:`- or `;`-separated).
pub fn split_dirs(list: &str) -> Vec<PathBuf> {
    list.split([':', ';'])
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

fn material(pos: &Chess) -> String {
    Material::from_board(pos.board()).to_string()
}

impl Syzygy {
    /// Opens the tables of `dirs` (files are opened lazily, when first probed). `pieces`:
    /// probe positions with at most this many men (default: the largest table found).
    pub fn open(dirs: &[PathBuf], pieces: Option<usize>, results: TbResults, ignore50: bool) -> Result<Syzygy, String> {
        if dirs.is_empty() {
            return Err("--tb: no tablebase directory".to_string());
        }
        let mut tables = Tablebase::new();
        let mut found = 0;
        for dir in dirs {
            found += tables
                .add_directory(dir)
                .map_err(|e| format!("--tb: cannot read Syzygy tables in {}: {e}", dir.display()))?;
        }
        if found == 0 {
            return Err(format!(
                "--tb: no Syzygy tables (*.rtbw, *.rtbz) in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let pieces = pieces.unwrap_or(tables.max_pieces());
        Ok(Syzygy {
            tables,
            dirs: dirs.to_vec(),
            pieces,
            results,
            ignore50,
        })
    }

    /// The most men a probed position may have.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The most men of the tables found.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The adjudication after a move: the verdict when the tables know it and the match's
    /// `--tbadjudicate` takes it.
    pub fn adjudicate(&self, pos: &Chess) -> Option<TbVerdict> {
        let v = self.probe(pos)?;
        let take = matches!(
            (v.winner, self.results),
            (_, TbResults::Both) | (Some(_), TbResults::WinLoss) | (None, TbResults::Draw)
        );
        take.then_some(v)
    }

    /// The result of `pos` under the 50-move rule with its halfmove clock (without the rule
    /// with `--tbignore50`), or `None` when the tables cannot tell (too many men, castling
    /// rights, a missing or unreadable table, a search over budget).
    pub fn probe(&self, pos: &Chess) -> Option<TbVerdict> {
        if pos.board().occupied().count() > self.pieces || pos.castles().any() {
            return None;
        }
        let wdl = self.tables.probe_wdl_after_zeroing(pos).ok()?;
        let us = pos.turn();
        let side = |sign: i32| if sign > 0 { us } else { !us };
        let mut verdict = TbVerdict {
            winner: None,
            material: material(pos),
            saved_by_fifty: None,
            cursed: false,
        };
        match wdl {
            Wdl::Draw => {}
            Wdl::CursedWin | Wdl::BlessedLoss if self.ignore50 => {
                verdict.winner = Some(side(wdl.signum()));
                verdict.cursed = true;
            }
            Wdl::CursedWin | Wdl::BlessedLoss => verdict.saved_by_fifty = Some(side(wdl.signum())),
            Wdl::Win | Wdl::Loss if self.ignore50 || pos.halfmoves() == 0 => {
                verdict.winner = Some(side(wdl.signum()));
            }
            Wdl::Win | Wdl::Loss => {
                let mut search = Search {
                    budget: SEARCH_BUDGET,
                    seen: HashMap::new(),
                };
                match self.value50(pos, &mut search)? {
                    0 => verdict.saved_by_fifty = Some(side(wdl.signum())),
                    v => verdict.winner = Some(side(v)),
                }
            }
        }
        Some(verdict)
    }

    /// The value of `pos` for the side to move under the 50-move rule with its halfmove clock:
    /// 1 a win, 0 a draw, -1 a loss; `None` when a table is missing or the search ran out of
    /// its budget.
    fn value50(&self, pos: &Chess, search: &mut Search) -> Option<i32> {
        search.budget = search.budget.checked_sub(1)?;
        if pos.is_checkmate() {
            return Some(-1);
        }
        if pos.halfmoves() >= 100 || pos.is_stalemate() || pos.is_insufficient_material() {
            return Some(0);
        }
        match self.tables.probe_wdl(pos).ok()? {
            AmbiguousWdl::Win => Some(1),
            AmbiguousWdl::Loss => Some(-1),
            AmbiguousWdl::CursedWin | AmbiguousWdl::Draw | AmbiguousWdl::BlessedLoss => Some(0),
            AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => {
                // DTZ + clock is 100 with a rounded DTZ: look one ply further (a win stops
                // the search). Lines that transpose meet the same clock: each is searched once.
                let key = (pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0, pos.halfmoves());
                if let Some(&v) = search.seen.get(&key) {
                    return Some(v);
                }
                let mut best = -1;
                for m in pos.legal_moves() {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    let v = if m.is_zeroing() {
                        self.value_after_zeroing(&child)?
                    } else {
                        self.value50(&child, search)?
                    };
                    best = best.max(-v);
                    if best == 1 {
                        break;
                    }
                }
                search.seen.insert(key, best);
                Some(best)
            }
        }
    }

    /// The value of `pos`, reached by a capture or pawn move, under the 50-move rule.
    fn value_after_zeroing(&self, pos: &Chess) -> Option<i32> {
        if pos.is_checkmate() {
            return Some(-1);
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            return Some(0);
        }
        Some(match self.tables.probe_wdl_after_zeroing(pos).ok()? {
            Wdl::Win => 1,
            Wdl::Loss => -1,
            _ => 0,
        })
    }
}
