//! Reading engine output. Lines the protocols do not define are ignored, as both protocols tell
//! a GUI to do (engines print banners, debug text and worse); only an unreadable best move is
//! an error, because without it there is no move to referee.

use crate::{EngineOption, Score};

/// What an `info` line says that a reply keeps.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Info {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub score: Option<Score>,
    pub multipv: Option<u32>,
}

pub(crate) fn info(rest: &str) -> Info {
    let mut out = Info::default();
    let mut t = rest.split_ascii_whitespace();
    while let Some(tok) = t.next() {
        match tok {
            "depth" => out.depth = t.next().and_then(|v| v.parse().ok()),
            "nodes" => out.nodes = t.next().and_then(|v| v.parse().ok()),
            "multipv" => out.multipv = t.next().and_then(|v| v.parse().ok()),
            "score" => {
                out.score = match t.next() {
                    Some("cp") => t.next().and_then(|v| v.parse().ok()).map(Score::Cp),
                    Some("mate") => t.next().and_then(|v| v.parse().ok()).map(Score::Mate),
                    // UCCI: `score 30`.
                    Some(v) => v.parse().ok().map(Score::Cp),
                    None => None,
                }
            }
            // The rest is free text or moves.
            "string" | "pv" | "message" => break,
            _ => {}
        }
    }
    out
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
    let line = line.trim_start();
    match line.find(|c: char| c.is_ascii_whitespace()) {
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
