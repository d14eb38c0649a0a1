//! The explanations in Chinese, written from the same facts in the terms of the Chinese rules:
//! 象棋竞赛规则 (将死, 困毙, 长将, 长捉, 一将一捉, 自然限着, 不变作和, 判负) and the Chinese text
//! of the FIDE laws (将死, 逼和, 三次重复局面, 五十回合规则, 子力不足, 死局).

use game::{Kind, Side};

use super::{Article, Because, ChessClaim, Cycle, DeadWhy, Effect, Offence, Table};
use crate::chess::Proof;

pub(super) fn render(b: &Because) -> String {
    match b {
        Because::NotOver => "对局尚未结束".to_string(),
        Because::Checkmate {
            game: Kind::Xiangqi,
            loser,
            ..
        } => format!("{}被将死，判负", xq(*loser)),
        Because::Checkmate { loser, article, .. } => {
            format!("{}被将死，判负（{}）", chess(*loser), article.unwrap_or(""))
        }
        Because::Stalemate {
            game: Kind::Xiangqi,
            side,
            ..
        } => format!("{}无着可走（困毙），判负：象棋中被困毙的一方负", xq(*side)),
        Because::Stalemate { side, article, .. } => format!(
            "{}未被将军而无合法着法可走：逼和（{}）",
            chess(*side),
            article.unwrap_or("")
        ),
        Because::SelfCheck { loser, mv } => format!(
            "{}走{mv}后己方帅（将）被攻击或帅将对面（走棋后形成自杀），判负",
            xq(*loser)
        ),
        Because::NoAttackers => {
            "双方均已无车、马、炮、兵（卒），仕（士）相（象）不能过河，双方均无可能取胜的简单局势：作和".to_string()
        }
        Because::MoveLimit { rounds, claim } => {
            let how = if *claim {
                "任何一方可要求作和"
            } else {
                "作和"
            };
            format!("{}未吃子（自然限着）：{how}", rounds_text(*rounds))
        }
        Because::TemporaryLimit { rounds, from_ply, end } => {
            let from = match from_ply {
                0 => "开局".to_string(),
                p => format!("第{p}着"),
            };
            format!(
                "裁判员自{from}起规定的{}临时限着在第{end}着用完，未能杀棋（临时限着）：作和",
                rounds_text(*rounds)
            )
        }
        Because::Repetition(c) => cycle(c),
        Because::ChessRepetition {
            count,
            plies,
            how,
            article,
        } => match how {
            ChessClaim::Automatic => format!(
                "同一局面在{}{}出现（{article}）：和棋",
                occurrences(plies),
                times(*count)
            ),
            ChessClaim::Now { by } => format!(
                "{}：{}可要求和棋；同一局面出现在{}（{article}）",
                fold(*count),
                chess(*by),
                occurrences(plies)
            ),
            ChessClaim::ByMove { by, mv } => format!(
                "{}：{}可宣布走{mv}并要求和棋，此着之后{}的局面将{}出现（{article}）",
                fold(*count),
                chess(*by),
                occurrences(plies),
                times(*count)
            ),
        },
        Because::ChessMoveRule { moves, how, article } => match how {
            ChessClaim::Automatic => format!("双方各走{moves}步未吃子也未动兵（{article}）：和棋"),
            ChessClaim::Now { by } => format!(
                "{}：{}可要求和棋；双方各走{moves}步未吃子也未动兵（{article}）",
                move_rule(*moves),
                chess(*by)
            ),
            ChessClaim::ByMove { by, mv } => format!(
                "{}：{}可宣布走{mv}并要求和棋，此着使双方各走满{moves}步未吃子也未动兵（{article}）",
                move_rule(*moves),
                chess(*by)
            ),
        },
        Because::ChessDead { why, claim, article } => {
            let why = match why {
                DeadWhy::Insufficient { material } => format!("子力不足，{material}"),
                DeadWhy::Both { proof } => proof_text(*proof),
                DeadWhy::Each { white, black } => {
                    format!("白方：{}；黑方：{}", proof_text(*white), proof_text(*black))
                }
            };
            let who = if *claim { "；任何一方可要求和棋" } else { "" };
            format!("死局：任何一方都不能以任何合法着法序列将死对方（{why}）{who}（{article}）")
        }
    }
}

fn cycle(c: &Cycle) -> String {
    let judged = match c.judged {
        Some((n, from)) => format!("；只判最后{}次，自第{from}着起", numeral(n)),
        None => String::new(),
    };
    let allowed = |f: bool| if f { "禁止着法" } else { "允许着法" };
    let body = format!(
        "同一局面{}出现（{}{judged}）；循环中红方走{}（{}），黑方走{}（{}）；{}",
        times(c.occurrences.len() as u32),
        occurrences(&c.occurrences),
        pattern_text(&c.red.pattern),
        allowed(c.red.forbidden),
        pattern_text(&c.black.pattern),
        allowed(c.black.forbidden),
        table(&c.table, c.article)
    );
    match c.effect {
        Effect::Ruled => body,
        Effect::AtOnce { loser } => format!(
            "{}立即判负：重复出现时即判，不先警告（引擎和自动对局服务器的判法）。{body}",
            xq(loser)
        ),
        Effect::NotVaried { loser, warned } => {
            let side = xq(loser);
            format!("{side}在第{warned}着被告知变着，局面仍不变地再次出现：应变着而不变，{side}判负。{body}")
        }
        Effect::MustVary { side } => {
            let side = xq(side);
            format!("{side}必须变着（应变着，不变判负）：若局面不变再次出现，{side}判负。{body}")
        }
        Effect::DrawClaimable => format!("可要求或判为和棋（不变作和），也可继续对局。{body}"),
    }
}

fn table(t: &Table, article: Article) -> String {
    let article = match article {
        Article::Cxa => "棋例总则",
        Article::Axf => "亚洲象棋联合会棋例第3–8条",
    };
    match t {
        Table::BothAllowed => format!("双方着法均属允许：双方不变作和（{article}）"),
        Table::BothForbidden => format!("双方均为禁止着法：不变作和（{article}）"),
        Table::Forbidden { loser, offence } => {
            let what = match offence {
                Offence::PerpetualCheck { pattern } => format!("走{}（禁止着法）", pattern_text(pattern)),
                Offence::Chase { piece, pattern } => {
                    format!("每着都捉{}（{}，禁止着法）", piece_text(piece), pattern_text(pattern))
                }
                Offence::Attack { pattern } => format!("每着都是攻击着法（{}，禁止着法）", pattern_text(pattern)),
            };
            format!(
                "{}{what}，{}着法属允许：{}不变判负（{article}）",
                xq(*loser),
                xq(loser.other()),
                xq(*loser)
            )
        }
        Table::OnlyOneChecks { loser } => format!(
            "{}长将而对方不是长将（单方面长将，一律禁止）：{}不变判负（{article}）",
            xq(*loser),
            xq(*loser)
        ),
        Table::PinnedRook { loser, piece } => format!(
            "{}每着都捉{}，该车为遮挡对方马将军而不能走动（亚洲象棋联合会棋例第19条，图39–41），其罪重于对方之捉：{}判负（{article}）",
            xq(*loser),
            piece.as_deref().map_or("车".to_string(), piece_text),
            xq(*loser)
        ),
    }
}

/// A pattern naming its chased piece, `长捉车@b7`, as `长捉b7的车`.
fn pattern_text(p: &str) -> String {
    match p.find('@') {
        Some(at) => {
            let piece_start = p[..at].char_indices().last().map_or(0, |(i, _)| i);
            format!("{}{}", &p[..piece_start], piece_text(&p[piece_start..]))
        }
        None => p.to_string(),
    }
}

/// `车@b7` as `b7的车`.
fn piece_text(p: &str) -> String {
    match p.split_once('@') {
        Some((piece, square)) => format!("{square}的{piece}"),
        None => p.to_string(),
    }
}

fn xq(s: Side) -> &'static str {
    match s {
        Side::First => "红方",
        Side::Second => "黑方",
    }
}

fn chess(s: Side) -> &'static str {
    match s {
        Side::First => "白方",
        Side::Second => "黑方",
    }
}

/// 六十回合 for 60: the limit as the Chinese rules name it.
fn rounds_text(n: u32) -> String {
    format!("{}回合", numeral(n))
}

/// 一 … 九十九 for 1–99, digits beyond.
fn numeral(n: u32) -> String {
    const D: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => D[n as usize].to_string(),
        10..=19 => format!("十{}", if n == 10 { "" } else { D[(n - 10) as usize] }),
        20..=99 => format!(
            "{}十{}",
            D[(n / 10) as usize],
            if n.is_multiple_of(10) { "" } else { D[(n % 10) as usize] }
        ),
        _ => n.to_string(),
    }
}

/// 第三次.
fn times(n: u32) -> String {
    format!("第{}次", numeral(n))
}

/// 三次重复局面.
fn fold(n: u32) -> String {
    format!("{}次重复局面", numeral(n))
}

/// 五十回合规则.
fn move_rule(moves: u32) -> String {
    format!("{}回合规则", numeral(moves))
}

fn proof_text(p: Proof) -> String {
    match p {
        Proof::InsufficientMaterial => "子力不足".to_string(),
        Proof::LockedPawns => "兵形完全封锁，任何棋子都不能越过它们将军".to_string(),
        Proof::Exhausted { positions } => format!("已检查合法着法可达的全部{positions}个局面，无一将死"),
    }
}

/// `开局时、第4着后和第8着后`.
fn occurrences(plies: &[usize]) -> String {
    let texts: Vec<String> = plies
        .iter()
        .map(|&p| match p {
            0 => "开局时".to_string(),
            p => format!("第{p}着后"),
        })
        .collect();
    words(&texts)
}

/// "甲", "甲和乙", "甲、乙和丙".
fn words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{}和{last}", rest.join("、")),
    }
}
