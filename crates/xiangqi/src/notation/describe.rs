//! The mover-relative description of a move that WXF and Chinese notation both spell out, and
//! the patterns a written move is read into.

use crate::{Bitboard, Color, Move, Position, Role, Square};

use super::NotationError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    /// 进, `+`: toward the opponent.
    Forward,
    /// 退, `-`
    Backward,
    /// 平, `.`
    Sideways,
}

/// A move described from its mover's side.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Description {
    pub color: Color,
    pub role: Role,
    /// File number 1–9 counted from the mover's right.
    pub file: u8,
    /// Position among the mover's pieces of this role on this file, 0 = the most advanced.
    pub index: u8,
    /// How many of the mover's pieces of this role stand on this file.
    pub count: u8,
    /// For pawns: how many files hold two or more of the mover's pawns.
    pub multi_files: u8,
    /// For pawns on such files: the xqbase number, 0-based, counting files from the mover's
    /// right, front to back within a file.
    pub global: Option<u8>,
    pub dir: Dir,
    /// Distance moved along the file, or the destination file number.
    pub number: u8,
}

/// How many of `squares` stand ahead of `sq` in `color`'s sense (toward the opponent).
fn ahead_of(color: Color, squares: Bitboard, sq: Square) -> u8 {
    let r = sq.rank().relative_to(color);
    squares.filter(|s| s.rank().relative_to(color) > r).count() as u8
}

pub(crate) fn describe(pos: &Position, m: Move) -> Description {
    let piece = pos.board().piece_at(m.from).expect("move from an occupied point");
    let (color, role) = (piece.color, piece.role);
    let same = pos.board().by_piece(piece);
    let on_file = same & file_bitboard(m.from.file());
    let index = ahead_of(color, on_file, m.from);

    let (mut multi_files, mut global) = (0u8, None);
    if role == Role::Pawn {
        let mut n = 0u8;
        for num in 1..=9u8 {
            let f = crate::File::from_number(num, color).expect("file number");
            let here = same & file_bitboard(f);
            let k = here.count() as u8;
            if k >= 2 {
                multi_files += 1;
                if f == m.from.file() {
                    global = Some(n + index);
                }
                n += k;
            }
        }
    }

    let from_rank = m.from.rank().relative_to(color) as i32;
    let to_rank = m.to.rank().relative_to(color) as i32;
    let to_file = m.to.file().number_for(color);
    let diagonal = matches!(role, Role::Advisor | Role::Elephant | Role::Horse);
    let (dir, number) = if to_rank == from_rank {
        (Dir::Sideways, to_file)
    } else {
        let dir = if to_rank > from_rank {
            Dir::Forward
        } else {
            Dir::Backward
        };
        (
            dir,
            if diagonal {
                to_file
            } else {
                (to_rank - from_rank).unsigned_abs() as u8
            },
        )
    };
    Description {
        color,
        role,
        file: m.from.file().number_for(color),
        index,
        count: on_file.count() as u8,
        multi_files,
        global,
        dir,
        number,
    }
}

/// The points of one file.
#[inline]
pub(crate) fn file_bitboard(f: crate::File) -> Bitboard {
    // Bits 0, 9, 18, … 81: file a.
    const FILE_A: u128 = 0x0002_0100_8040_2010_0804_0201;
    Bitboard(FILE_A << f.index())
}

/// Which of several pieces on a file is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Qual {
    /// 前: the most advanced of two or more.
    Front,
    /// 后/後: the rearmost.
    Rear,
    /// 中: the middle one of three (or five).
    Middle,
    /// 一…五: the xqbase number across files when pawns are doubled on two files, otherwise
    /// the position from the front on the one file.
    Ordinal(u8),
    /// Fairy-Stockfish's `27=8`: the position from the front on the given file.
    OrdinalInFile(u8),
    /// WXF `+`: front of two or three, second of four or five.
    WxfPlus,
    /// WXF `-`: rear of two or three, second from the back of four or five.
    WxfMinus,
    /// WXF `++` / `--`: the outermost of four or five.
    WxfFirst,
    WxfLast,
}

/// A written move, read into what it says (some parts may be left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub role: Option<Role>,
    pub file: Option<u8>,
    pub qual: Option<Qual>,
    pub dir: Dir,
    pub number: u8,
}

impl Pattern {
    /// A maker of patterns that all share one direction and number (the last two symbols of a
    /// written move), differing in what names the piece.
    pub fn maker(dir: Dir, number: u8) -> impl Fn(Option<Role>, Option<u8>, Option<Qual>) -> Pattern {
        move |role, file, qual| Pattern {
            role,
            file,
            qual,
            dir,
            number,
        }
    }

    pub fn matches(&self, d: &Description) -> bool {
        if self.role.is_some_and(|r| r != d.role) || self.file.is_some_and(|f| f != d.file) {
            return false;
        }
        if self.dir != d.dir || self.number != d.number {
            return false;
        }
        let (i, n) = (d.index, d.count);
        match self.qual {
            None => true,
            Some(q) => {
                n >= 2
                    && match q {
                        Qual::Front => i == 0,
                        Qual::Rear => i == n - 1,
                        Qual::Middle => n % 2 == 1 && i == n / 2,
                        Qual::Ordinal(k) => {
                            if d.multi_files >= 2 {
                                d.global == Some(k.wrapping_sub(1))
                            } else {
                                i == k.wrapping_sub(1)
                            }
                        }
                        Qual::OrdinalInFile(k) => i == k.wrapping_sub(1),
                        Qual::WxfPlus => i == if n <= 3 { 0 } else { 1 },
                        Qual::WxfMinus => i == if n <= 3 { n - 1 } else { n - 2 },
                        Qual::WxfFirst => n >= 4 && i == 0,
                        Qual::WxfLast => n >= 4 && i == n - 1,
                    }
            }
        }
    }
}

/// Up to three patterns that are tried together.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Tier {
    pats: [Option<Pattern>; 3],
}

/// The readings of a written move in order of preference; fixed-size, so reading a move
/// allocates nothing.
pub(crate) type Tiers = [Tier; 2];

/// Tiers from slices (at most three patterns each; more are ignored).
pub(crate) fn tiers(first: &[Pattern], second: &[Pattern]) -> Tiers {
    let tier = |ps: &[Pattern]| {
        let mut t = Tier::default();
        for (slot, p) in t.pats.iter_mut().zip(ps) {
            *slot = Some(*p);
        }
        t
    };
    [tier(first), tier(second)]
}

/// Finds the one legal move that fits. `tiers` are tried in order; the first with any match
/// decides (a plain file on a file of three pawns means the middle one before it means "any").
///
/// Candidates come from the pieces a pattern can mean, not from the whole legal move list: the
/// destination follows from the piece, the direction and the number, so each candidate costs
/// one legality test.
pub(crate) fn resolve(pos: &Position, text: &str, tiers: &Tiers) -> Result<Move, NotationError> {
    let mut found = Found::default();
    for tier in tiers {
        found.len = 0;
        for p in tier.pats.iter().flatten() {
            candidates(pos, p, true, &mut found);
        }
        match found.len {
            0 => continue,
            1 => return Ok(found.moves[0].expect("one found")),
            _ => {
                let candidates = found
                    .slice()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(NotationError::Ambiguous {
                    text: text.to_string(),
                    candidates,
                });
            }
        }
    }
    Err(refused(pos, text, tiers))
}

/// Why no legal move fits: when exactly one move a piece can make fits (of the first tier
/// with any), the text names that move, and only its own king forbids it.
fn refused(pos: &Position, text: &str, tiers: &Tiers) -> NotationError {
    let mut found = Found::default();
    for tier in tiers {
        found.len = 0;
        for p in tier.pats.iter().flatten() {
            candidates(pos, p, false, &mut found);
        }
        match found.len {
            0 => continue,
            1 => {
                return NotationError::Illegal {
                    text: text.to_string(),
                    self_check: found.moves[0],
                }
            }
            _ => break,
        }
    }
    NotationError::NoMatch { text: text.to_string() }
}

/// The moves a pattern fits; a handful at most (any two already make the text ambiguous).
#[derive(Default)]
struct Found {
    moves: [Option<Move>; 8],
    len: usize,
}

impl Found {
    fn contains(&self, m: &Move) -> bool {
        self.moves[..self.len].iter().any(|x| x.as_ref() == Some(m))
    }

    fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = Some(m);
            self.len += 1;
        }
    }

    fn slice(&self) -> Vec<Move> {
        self.moves[..self.len].iter().flatten().copied().collect()
    }
}

/// The moves `p` fits among the legal moves, or (not `legal`) among the moves the pieces can
/// make with the mover's king safety aside.
fn candidates(pos: &Position, p: &Pattern, legal: bool, found: &mut Found) {
    let us = pos.turn();
    let board = pos.board();
    let file_mask = match p.file {
        Some(n) => match crate::File::from_number(n, us) {
            Some(f) => file_bitboard(f),
            None => return,
        },
        None => Bitboard::FULL,
    };
    for role in Role::ALL {
        if p.role.is_some_and(|r| r != role) {
            continue;
        }
        let pieces = board.by_piece(role.of(us)) & file_mask;
        // A qualifier (前, 中, …) picks one of two or more on its file: with fewer, nothing fits.
        // Most moves read as "the middle one" first (炮二 on a file of three pawns), so this
        // skips a legality test and a description for nearly every move.
        if p.qual.is_some() && p.file.is_some() && pieces.count() < 2 {
            continue;
        }
        for from in pieces {
            let Some(to) = destination(from, role, us, p.dir, p.number) else {
                continue;
            };
            let m = Move::new(from, to);
            let playable = if legal { pos.is_legal(m) } else { pos.is_pseudo_legal(m) };
            if found.contains(&m) || !playable {
                continue;
            }
            if p.qual.is_none() || p.matches(&describe(pos, m)) {
                found.push(m);
            }
        }
    }
}

/// Where a `role` on `from` ends up when it moves in `dir` by `number` (a distance along the
/// file, or a destination file for sideways and diagonal moves), if that is a point at all.
fn destination(from: Square, role: Role, us: Color, dir: Dir, number: u8) -> Option<Square> {
    let forward: i32 = if us == Color::Red { 1 } else { -1 };
    let (f, r) = (from.file().index() as i32, from.rank().index() as i32);
    let sign = match dir {
        Dir::Forward => forward,
        Dir::Backward => -forward,
        Dir::Sideways => 0,
    };
    match role {
        Role::Advisor | Role::Elephant | Role::Horse => {
            if sign == 0 {
                return None;
            }
            let tf = crate::File::from_number(number, us)?.index() as i32;
            let df = (tf - f).abs();
            let dr = match (role, df) {
                (Role::Advisor, 1) => 1,
                (Role::Elephant, 2) => 2,
                (Role::Horse, 1) => 2,
                (Role::Horse, 2) => 1,
                _ => return None,
            };
            Square::from_xy(tf, r + sign * dr)
        }
        _ if sign == 0 => {
            let tf = crate::File::from_number(number, us)?.index() as i32;
            if tf == f {
                return None;
            }
            Square::from_xy(tf, r)
        }
        _ => Square::from_xy(f, r + sign * i32::from(number)),
    }
}

/// The qualifier a careful writer uses for this move, or `None` for the plain piece-and-file
/// form. Advisors, elephants and kings are never marked: 进/退 already tells two apart.
pub(crate) fn canonical_qual(d: &Description, wxf: bool) -> Option<Qual> {
    if d.count < 2 || matches!(d.role, Role::King | Role::Advisor | Role::Elephant) {
        return None;
    }
    if d.role == Role::Pawn && d.multi_files >= 2 {
        return if wxf {
            // WXF writes the file and a sign: 3+.4, 33.4 (middle), 3-.4.
            Some(match (d.index, d.count) {
                (0, _) => Qual::Front,
                (i, n) if i == n - 1 => Qual::Rear,
                _ => Qual::Middle,
            })
        } else {
            Some(Qual::Ordinal(d.global.expect("pawn on a multi-pawn file") + 1))
        };
    }
    let (i, n) = (d.index, d.count);
    Some(match n {
        2 => [Qual::Front, Qual::Rear][i as usize],
        3 => [Qual::Front, Qual::Middle, Qual::Rear][i as usize],
        _ if wxf => match i {
            0 => Qual::WxfFirst,
            1 => Qual::WxfPlus,
            _ if i == n - 1 => Qual::WxfLast,
            _ if i == n - 2 => Qual::WxfMinus,
            _ => Qual::Middle,
        },
        _ => Qual::Ordinal(i + 1),
    })
}

/// Whether the position holds no more pieces of a kind than the standard set, so that the
/// canonical forms of WXF and Chinese notation are unambiguous. Composed problems (排局)
/// accepted with extra pawns may need a more explicit form.
pub(crate) fn standard_material(pos: &Position) -> bool {
    let b = pos.board();
    Color::ALL.iter().all(|&c| {
        Role::ALL
            .iter()
            .all(|&r| b.by_piece(r.of(c)).count() as usize <= r.max_count())
    })
}
