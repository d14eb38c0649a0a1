//! The explanations in English: the words every verdict's `explanation` carries.

use game::{Kind, Side};

use super::{Article, Because, ChessClaim, Cycle, DeadWhy, Effect, Offence, Table};
use crate::chess::Proof;

pub(super) fn render(b: &Because) -> String {
    match b {
        Because::NotOver => "the game is not over".to_string(),
        Because::Checkmate {
            game: Kind::Xiangqi,
            loser,
            ..
        } => format!("{} is checkmated (将死) and loses", xq(*loser)),
        Because::Checkmate { loser, article, .. } => {
            format!("{} is checkmated ({})", capital(chess(*loser)), article.unwrap_or(""))
        }
        Because::Stalemate {
            game: Kind::Xiangqi,
            side,
            ..
        } => format!(
            "{} has no legal move (困毙) and loses: a stalemated side loses in Xiangqi",
            xq(*side)
        ),
        Because::Stalemate { side, article, .. } => format!(
            "{} is not in check and has no legal move: stalemate ({})",
            capital(chess(*side)),
            article.unwrap_or("")
        ),
        Because::SelfCheck { loser, mv } => format!(
            "{} played {mv}, leaving its own king attacked or facing the other king (走棋后形成自杀 / 帅将对面), and loses",
            xq(*loser)
        ),
        Because::NoAttackers => "neither side has a rook, horse, cannon or pawn left: advisors and elephants never cross \
                                 the river, so no side can win (双方均无可能取胜的简单局势)"
            .to_string(),
        Because::MoveLimit { rounds, claim } => {
            let how = if *claim {
                "either side may claim the draw"
            } else {
                "drawn"
            };
            format!("{} without a capture (自然限着): {how}", rounds_text(*rounds))
        }
        Because::TemporaryLimit { rounds, from_ply, end } => format!(
            "the referee's temporary limit of {} from ply {from_ply} ran out at ply {end} without a mate (临时限着): drawn",
            rounds_text(*rounds)
        ),
        Because::Repetition(c) => cycle(c),
        Because::ChessRepetition {
            count,
            plies,
            how,
            article,
        } => match how {
            ChessClaim::Automatic => format!(
                "the same position stood for the {} time at plies {} ({article})",
                ordinal(*count),
                list(plies)
            ),
            ChessClaim::Now { by } => format!(
                "{}: {} may claim a draw; the same position stood at plies {} ({article})",
                fold(*count),
                chess(*by),
                list(plies)
            ),
            ChessClaim::ByMove { by, mv } => format!(
                "{}: {} may claim a draw by announcing {mv}, after which the position of plies {} stands for the {} \
                 time ({article})",
                fold(*count),
                chess(*by),
                list(plies),
                ordinal(*count)
            ),
        },
        Because::ChessMoveRule { moves, how, article } => match how {
            ChessClaim::Automatic => {
                format!("{moves} moves by each player without a capture or a pawn move ({article})")
            }
            ChessClaim::Now { by } => format!(
                "{moves}-move rule: {} may claim a draw; {moves} moves by each player without a capture or a pawn move \
                 ({article})",
                chess(*by)
            ),
            ChessClaim::ByMove { by, mv } => format!(
                "{moves}-move rule: {} may claim a draw by announcing {mv}, which completes {moves} moves by each \
                 player without a capture or a pawn move ({article})",
                chess(*by)
            ),
        },
        Because::ChessDead { why, claim, article } => {
            let why = match why {
                DeadWhy::Insufficient { material } => format!("insufficient material, {material}"),
                DeadWhy::Both { proof } => proof_text(*proof),
                DeadWhy::Each { white, black } => {
                    format!("white: {}; black: {}", proof_text(*white), proof_text(*black))
                }
            };
            let who = if *claim { "; either player may claim a draw" } else { "" };
            format!("neither player can checkmate by any series of legal moves ({why}){who} ({article})")
        }
    }
}

fn cycle(c: &Cycle) -> String {
    let at: Vec<String> = c
        .occurrences
        .iter()
        .map(|&p| match p {
            0 => "at the start".to_string(),
            p => format!("after ply {p}"),
        })
        .collect();
    let judged = match c.judged {
        Some((n, from)) => format!("; the last {n} are judged, from ply {from}"),
        None => String::new(),
    };
    let allowed = |f: bool| if f { "forbidden" } else { "allowed" };
    let body = format!(
        "the position stood for the {} time ({}{judged}); over the cycle red played {} ({}) and black {} ({}); {}",
        xiangqi_ordinal(c.occurrences.len() as u32),
        words(&at),
        c.red.pattern,
        allowed(c.red.forbidden),
        c.black.pattern,
        allowed(c.black.forbidden),
        table(&c.table, c.article)
    );
    match c.effect {
        Effect::Ruled => body,
        Effect::AtOnce { loser } => format!(
            "{} loses at once, ruled at the repetition without a warning (as engines and automatic servers rule). {body}",
            xq(loser)
        ),
        Effect::NotVaried { loser, warned } => {
            let side = xq(loser);
            format!(
                "{side} was told to vary at ply {warned} and the position came again unchanged: {side} loses \
                 (应变着而不变). {body}"
            )
        }
        Effect::MustVary { side } => format!(
            "{} must vary (应变着，不变判负): if the position comes again unchanged, {} loses. {}",
            xq(side),
            xq(side),
            capital(&body)
        ),
        Effect::DrawClaimable => format!(
            "a draw may be claimed or ruled (不变作和); play may go on. {}",
            capital(&body)
        ),
    }
}

fn table(t: &Table, article: Article) -> String {
    let article = match article {
        Article::Cxa => "棋例总则",
        Article::Axf => "AXF rules 3–8",
    };
    let loses = |side: Side, why: &str| format!("{} {why} ({article})", xq(side));
    match t {
        Table::BothAllowed => format!("both sides' moves are allowed: drawn (双方不变作和, {article})"),
        Table::BothForbidden => {
            format!("both sides' moves are forbidden: drawn (双方均为禁止着法，不变作和, {article})")
        }
        Table::Forbidden { loser, offence } => {
            let what = match offence {
                Offence::PerpetualCheck { pattern } => format!("plays {pattern} (perpetual check, forbidden)"),
                Offence::Chase { piece, pattern } => format!("chases {piece} on every move ({pattern}, forbidden)"),
                Offence::Attack { pattern } => format!("attacks on every move ({pattern}, a forbidden move)"),
            };
            loses(
                *loser,
                &format!("{what} while {}'s moves are allowed", xq(loser.other())),
            )
        }
        Table::OnlyOneChecks { loser } => loses(
            *loser,
            "checks perpetually against a side that does not (单方面长将, never allowed)",
        ),
        Table::PinnedRook { loser, piece } => loses(
            *loser,
            &format!(
                "chases {} on every move, a rook that cannot move because it shields its king from a horse (AXF rule \
                 19, diagrams 39–41), which weighs more than the other side's chase: the offence is this side's",
                piece.as_deref().unwrap_or("a rook")
            ),
        ),
    }
}

fn xq(s: Side) -> &'static str {
    s.name(Kind::Xiangqi)
}

fn chess(s: Side) -> &'static str {
    s.name(Kind::Chess)
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// "1 round", "60 rounds".
fn rounds_text(n: u32) -> String {
    if n == 1 {
        "1 round".to_string()
    } else {
        format!("{n} rounds")
    }
}

fn proof_text(p: Proof) -> String {
    match p {
        Proof::InsufficientMaterial => "insufficient material".to_string(),
        Proof::LockedPawns => "the pawns are locked and no piece can ever give check past them".to_string(),
        Proof::Exhausted { positions } => {
            format!("all {positions} positions reachable by legal moves were examined and none is mate")
        }
    }
}

/// `third`, `fifth`, `7th`.
fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        _ => format!("{n}th"),
    }
}

/// The Xiangqi explanations' own: `third`, `5th`.
fn xiangqi_ordinal(n: u32) -> String {
    match n {
        2..=4 => ordinal(n),
        n => format!("{n}th"),
    }
}

/// `threefold repetition`.
fn fold(n: u32) -> String {
    match n {
        3 => "threefold repetition".into(),
        5 => "fivefold repetition".into(),
        _ => format!("{n}-fold repetition"),
    }
}

/// `4, 8 and 12`.
fn list(plies: &[usize]) -> String {
    let texts: Vec<String> = plies.iter().map(|p| p.to_string()).collect();
    words(&texts)
}

/// "a", "a and b", "a, b and c".
fn words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
