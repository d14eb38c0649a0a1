//! A repetition cycle: each side's moves classified, named (长将, 一将一捉, 数将一闲 …), and
//! ruled by the ruleset's table.

use game::{BySide, Side};
use xiangqi::{Move, Position, Square};

use super::classify::{classify, Class};
use super::rules::{Rules, Style};
use crate::because::{Article, Offence, Table};
use crate::verdict::{CycleMove, MoveClass, Outcome, Reason, SidePattern};

/// A side's moves over the cycle, judged.
pub(crate) struct SideRuling {
    pub pattern: SidePattern,
    /// Forbidden and all checks (长将), the gravest.
    pub perpetual_check: bool,
    pub forbidden: bool,
    /// Under AXF: the piece chased by every move, as it stands at the end of the cycle.
    pub chased_piece: Option<String>,
    /// Under AXF: that piece is a rook that cannot move because it shields its king from a
    /// horse (rule 19, diagrams 39–41): chasing it is graver than other chases.
    pub pinned_rook_chase: bool,
}

/// Classifies the moves `moves` played from `start` (the position at `first_ply`), and names
/// and rules each side's part.
pub(crate) fn analyse(
    start: &Position,
    first_ply: usize,
    moves: &[Move],
    rules: &Rules,
) -> (Vec<CycleMove>, SideRuling, SideRuling) {
    // Piece identities follow the pieces through their moves (AXF: the same piece chased).
    let mut ids: [Option<u8>; 90] = [None; 90];
    for (sq, _) in start.board().pieces() {
        ids[sq.index()] = Some(sq.index() as u8);
    }
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut classes: BySide<Vec<(Class, Vec<u8>)>> = BySide::default();
    for (i, &m) in moves.iter().enumerate() {
        let side: Side = pos.turn().into();
        let mut after = pos.clone();
        after.play_unchecked(m);
        let id = ids[m.from.index()].take();
        ids[m.to.index()] = id;
        let class = classify(&pos, m, &after, rules);
        let chased_ids: Vec<u8> = class.chased.iter().filter_map(|s| ids[s.index()]).collect();
        out.push(CycleMove {
            ply: first_ply + i + 1,
            side: side.name(game::Kind::Xiangqi),
            coordinate: xiangqi::notation::to_iccs(m),
            notation: xiangqi::notation::to_chinese(&pos, m),
            class: describe(&class, &after),
        });
        classes[side].push((class, chased_ids));
        pos = after;
    }
    let end = pos;
    let rule = |list: &[(Class, Vec<u8>)]| side_ruling(list, rules, &ids, &end);
    (out, rule(&classes.first), rule(&classes.second))
}

fn describe(c: &Class, after: &Position) -> MoveClass {
    let name = |s: &Square| {
        let p = after.board().piece_at(*s).expect("a chased piece stands there");
        format!("{}@{}", p.chinese(), s)
    };
    let attack = c.is_attack();
    let mut idle = Vec::new();
    if !attack {
        if c.exchange {
            idle.push("兑".to_string());
        }
        if c.offer {
            idle.push("献".to_string());
        }
        if c.block {
            idle.push("拦".to_string());
        }
        if c.follow {
            idle.push("跟".to_string());
        }
        if idle.is_empty() {
            idle.push("闲".to_string());
        }
    }
    MoveClass {
        check: c.check,
        mate_threat: c.mate_threat,
        chases: c.chased.iter().map(name).collect(),
        capture_threat: c.capture_threat,
        idle,
        label: c.label().to_string(),
    }
}

const NUMERALS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// 长将, 长捉, 长杀, 闲, or the mix: 一将一捉, 一将一要抽吃, 二将一闲 …
fn pattern_name(list: &[(Class, Vec<u8>)]) -> String {
    let labels: Vec<&str> = list.iter().map(|(c, _)| c.label()).collect();
    if let Some(first) = labels.first() {
        if labels.iter().all(|l| l == first) {
            return if *first == "闲" {
                "闲".to_string()
            } else {
                format!("长{first}")
            };
        }
    }
    // The span holds the cycle twice (or more): name one cycle, 一将一捉 rather than 二将二捉.
    const KINDS: [&str; 5] = ["将", "杀", "捉", "要抽吃", "闲"];
    let counts = KINDS.map(|k| labels.iter().filter(|l| **l == k).count());
    let g = counts.iter().copied().filter(|&n| n > 0).fold(0, gcd);
    let mut name = String::new();
    for (kind, n) in KINDS.into_iter().zip(counts) {
        let n = n / g.max(1);
        if n > 0 {
            name.push_str(NUMERALS.get(n).copied().unwrap_or("数"));
            name.push_str(kind);
        }
    }
    name
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn side_ruling(list: &[(Class, Vec<u8>)], rules: &Rules, ids: &[Option<u8>; 90], end: &Position) -> SideRuling {
    let all_checks = !list.is_empty() && list.iter().all(|(c, _)| c.check);
    let name = pattern_name(list);
    let mut pinned_rook = false;
    let (forbidden, chased_piece) = match rules.style {
        Style::Cxa => (!list.is_empty() && list.iter().all(|(c, _)| c.is_attack()), None),
        Style::Axf => {
            // One piece chased by every move, followed through its own moves.
            let mut common: Option<Vec<u8>> = None;
            for (_, chased) in list {
                common = Some(match common {
                    None => chased.clone(),
                    Some(c) => c.into_iter().filter(|i| chased.contains(i)).collect(),
                });
            }
            let square = common
                .and_then(|c| c.first().copied())
                .and_then(|id| (0..90).find(|&s| ids[s] == Some(id)))
                .and_then(|s| Square::new(s as u8));
            pinned_rook = square.is_some_and(|sq| rook_pinned_by_horse(end, sq));
            let piece = square.and_then(|sq| {
                let p = end.board().piece_at(sq)?;
                Some(format!("{}@{}", p.chinese(), sq))
            });
            (all_checks || (!list.is_empty() && piece.is_some()), piece)
        }
    };
    let name = match (&chased_piece, all_checks) {
        (Some(p), false) => format!("长捉{p}"),
        _ => name,
    };
    SideRuling {
        pattern: SidePattern {
            name,
            forbidden,
            perpetual_check: all_checks,
        },
        perpetual_check: all_checks,
        forbidden,
        chased_piece,
        pinned_rook_chase: pinned_rook,
    }
}

/// Whether the piece on `sq` is a rook standing on the leg of an enemy horse that would check
/// its king if the rook left.
fn rook_pinned_by_horse(pos: &Position, sq: Square) -> bool {
    let Some(p) = pos.board().piece_at(sq).filter(|p| p.role == xiangqi::Role::Rook) else {
        return false;
    };
    let Some(king) = pos.board().king_of(p.color) else {
        return false;
    };
    let horses = pos.board().by_piece(xiangqi::Role::Horse.of(!p.color));
    let occ = pos.board().occupied();
    let with = pos.board().attackers_to(king, !p.color, occ) & horses;
    let without = pos.board().attackers_to(king, !p.color, occ.without(sq)) & horses;
    (without & !with).any()
}

/// The repetition rules a ruling under `rules` rests on.
pub(crate) fn article(rules: &Rules) -> Article {
    match rules.style {
        Style::Cxa => Article::Cxa,
        Style::Axf => Article::Axf,
    }
}

/// The table: who loses, or a draw, and why — what the cycle amounts to; when the loss takes
/// effect (at once, or after a warning) is the caller's to say.
pub(crate) fn rule(red: &SideRuling, black: &SideRuling) -> (Outcome, Reason, Table) {
    let loses = |loser: Side, reason: Reason, table: Table| (Outcome::win(loser.other()), reason, table);
    let forbidden = |loser: Side, s: &SideRuling| {
        let pattern = s.pattern.name.clone();
        let offence = match &s.chased_piece {
            _ if s.perpetual_check => Offence::PerpetualCheck { pattern },
            Some(p) => Offence::Chase {
                piece: p.clone(),
                pattern,
            },
            None => Offence::Attack { pattern },
        };
        loses(loser, reason_of(s), Table::Forbidden { loser, offence })
    };
    match (red.forbidden, black.forbidden) {
        (false, false) => (Outcome::Draw, Reason::RepetitionDraw, Table::BothAllowed),
        (true, false) => forbidden(Side::First, red),
        (false, true) => forbidden(Side::Second, black),
        (true, true) => match (red.perpetual_check, black.perpetual_check) {
            (true, false) => loses(
                Side::First,
                Reason::PerpetualCheck,
                Table::OnlyOneChecks { loser: Side::First },
            ),
            (false, true) => loses(
                Side::Second,
                Reason::PerpetualCheck,
                Table::OnlyOneChecks { loser: Side::Second },
            ),
            // AXF rule 19: chasing a rook pinned by a horse is graver than the other chase.
            _ if red.pinned_rook_chase != black.pinned_rook_chase => {
                let (loser, who) = if red.pinned_rook_chase {
                    (Side::First, red)
                } else {
                    (Side::Second, black)
                };
                let table = Table::PinnedRook {
                    loser,
                    piece: who.chased_piece.clone(),
                };
                loses(loser, Reason::ForbiddenRepetition, table)
            }
            _ => (Outcome::Draw, Reason::RepetitionDraw, Table::BothForbidden),
        },
    }
}

fn reason_of(s: &SideRuling) -> Reason {
    if s.perpetual_check {
        Reason::PerpetualCheck
    } else {
        Reason::ForbiddenRepetition
    }
}
