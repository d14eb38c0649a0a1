//! An event in words: rounds and their results, standings, a knockout's rounds, and one
//! standalone HTML page an organiser can post.

use std::fmt::Write;

use super::pairing::{Pairing, Round, Side, Verdict};
use super::progress::rule;
use super::{Error, Event, Table};
use crate::team::table::width;

/// Half points as a score is written: `1`, `½`, `2½`.
pub fn points(x: f64) -> String {
    let whole = x.floor();
    let half = (x - whole - 0.5).abs() < 1e-9;
    match (whole as i64, half) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) if (x - whole).abs() < 1e-9 => format!("{w}"),
        _ => format!("{x:.2}"),
    }
}

/// What a pairing stands at, from the first-named entrant's side: `1-0`, `½-½`, `2-1`,
/// `+/-`, `bye`, `1½-1½, lots: Ann`, or `-` while nothing is in.
pub fn score(event: &Event, s: usize, p: &Pairing) -> String {
    if p.second.is_none() {
        return "bye".into();
    }
    if p.games.is_empty() {
        return "-".into();
    }
    if p.games.iter().any(|g| g.double_forfeit) {
        return "-/-".into();
    }
    let (a, b) = p.game_points();
    let forfeit = p.games.iter().any(|g| g.forfeit);
    let boards = event.settings.boards as usize;
    let mut out = if forfeit && p.games.len() == 1 {
        if a > b { "+/-" } else { "-/+" }.to_string()
    } else if boards > 0 && p.games.len() > boards {
        // A tied team pairing's play-off matches, each on its own.
        let part = |g: &[super::Game]| {
            let mut q = p.clone();
            q.games = g.to_vec();
            let (a, b) = q.game_points();
            format!("{}-{}", points(a), points(b))
        };
        let mut parts = p.games.chunks(boards).map(part);
        let main = parts.next().unwrap_or_default();
        let rest: Vec<String> = parts.collect();
        format!("{main}, play-off {}", rest.join(", "))
    } else {
        format!("{}-{}", points(a), points(b))
    };
    if event.settings.board_points.is_some() && boards > 0 && !forfeit {
        // Board points rank teams before game points here, so the score shows both.
        let (x, y) = p.team_points(rule(event, s, p));
        let _ = write!(out, " (board points {}-{})", points(x), points(y));
    }
    if let Some(lot) = &p.lot {
        let who = p.entrant(lot.winner).map_or(String::new(), |id| event.name_of(id));
        let _ = write!(out, ", lots: {who}");
    }
    if p.verdict(rule(event, s, p)) == Verdict::Pending {
        out.push_str(" (playing)");
    }
    out
}

/// A round: each pairing's id, entrants and score; the card draw's record under it.
pub fn round_text(event: &Event, s: usize, round: &Round) -> String {
    let mut out = String::new();
    let w = round
        .pairings
        .iter()
        .map(|p| event.name_of(p.first).chars().count())
        .max()
        .unwrap_or(0);
    for p in &round.pairings {
        let first = event.name_of(p.first);
        let pad = w.saturating_sub(first.chars().count());
        let second = p.second.map_or("(bye)".to_string(), |id| event.name_of(id));
        let _ = writeln!(
            out,
            "{:>8}  {first}{} - {second}  {}",
            p.id,
            " ".repeat(pad),
            score(event, s, p)
        );
    }
    if let Some(d) = &round.draw {
        let _ = writeln!(out, "          ({d})");
    }
    if event.teams() {
        for p in round.pairings.iter().filter(|p| p.second.is_some()) {
            out.push_str(&boards_text(event, p));
        }
    }
    out
}

/// A team pairing board by board: who sits there (the first `boards` members, in order), who
/// has red (white) — board 1 of the first-named team, then alternating — and the board's
/// result once entered, the first team's side first; then each play-off match a tie sent it
/// to, on the same boards with the colours turned round.
pub fn boards_text(event: &Event, p: &Pairing) -> String {
    let mut out = String::new();
    let boards = event.settings.boards as usize;
    let member = |side, b: usize| event.board_player(p, side, b).unwrap_or_default();
    let due = (event.games_due(&p.id).unwrap_or(0) as usize)
        .max(p.games.len())
        .max(boards);
    for (m, start) in (0..due).step_by(boards.max(1)).enumerate() {
        match m {
            0 => writeln!(out, "{:>8}  boards:", p.id),
            m => writeln!(out, "{:>8}  play-off match {m}, on the boards:", p.id),
        }
        .expect("writing to a string");
        for b in 0..boards {
            let k = start + b;
            let (a, z) = (member(Side::First, b), member(Side::Second, b));
            let result = p.games.get(k).map_or("-".to_string(), |g| {
                let (x, y) = (g.score.points(), g.score.reversed().points());
                if g.double_forfeit {
                    "-/-".into()
                } else if g.forfeit {
                    if x > y { "+/-" } else { "-/+" }.into()
                } else {
                    format!("{}-{}", points(x), points(y))
                }
            });
            let (ca, cz) = if Pairing::first_red(k, event.settings.boards) {
                ("red/white", "black")
            } else {
                ("black", "red/white")
            };
            let _ = writeln!(out, "{:>10}. {a} ({ca}) - {z} ({cz})  {result}", b + 1);
        }
    }
    out
}

/// Every round of every stage, play-offs included.
pub fn pairings_text(event: &Event) -> String {
    let mut out = String::new();
    for (s, stage) in event.stages.iter().enumerate() {
        if event.plan.len() > 1 {
            let _ = writeln!(out, "== stage {}: {} ==", s + 1, event.plan[s].format.name());
        }
        for r in event.stage_rounds(s) {
            let _ = writeln!(out, "round {}", r.number);
            out.push_str(&round_text(event, s, &r));
        }
        for r in &stage.playoffs {
            let _ = writeln!(out, "play-off {}", r.number);
            out.push_str(&round_text(event, s, r));
        }
    }
    out
}

/// The standings as aligned text, one table after another.
pub fn standings_text(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        let _ = writeln!(out, "{}", t.title);
        let w = t.lines.iter().map(|l| width(&l.name)).max().unwrap_or(4).max(4);
        let name = |n: &str| format!("{n}{}", " ".repeat(w - width(n)));
        let knockout = t.columns.is_empty() && t.lines.iter().all(|l| l.points == 0.0);
        if knockout {
            for l in &t.lines {
                let _ = writeln!(out, "{:>4}  {}  {}", l.place, name(&l.name), l.note);
            }
        } else {
            let _ = write!(out, "{:>4}  {}  {:>5}", "Pl", name("Name"), "Pts");
            for c in &t.columns {
                let _ = write!(out, "  {c:>7}");
            }
            out.push('\n');
            for l in &t.lines {
                let _ = write!(out, "{:>4}  {}  {:>5}", l.place, name(&l.name), points(l.points));
                for v in &l.tiebreaks {
                    let _ = write!(out, "  {:>7}", trim(*v));
                }
                if !l.note.is_empty() {
                    let _ = write!(out, "  {}", l.note);
                }
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}

fn trim(v: f64) -> String {
    if v == v.trunc() {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One standalone page: the standings and every round, no script, no outside resource.
pub fn html(event: &Event) -> Result<String, Error> {
    let tables = event.standings()?;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n<style>body{{font-family:sans-serif;margin:2em}}\
         table{{border-collapse:collapse;margin-bottom:1.5em}}td,th{{border:1px solid #999;padding:.2em .5em}}\
         td.n{{text-align:right}}caption{{font-weight:bold;text-align:left}}</style></head><body>\n<h1>{0}</h1>\n",
        esc(&event.name)
    );
    for t in &tables {
        let _ = write!(
            out,
            "<table><caption>{}</caption><tr><th>Pl</th><th>Name</th>",
            esc(&t.title)
        );
        let knockout = t.columns.is_empty();
        if knockout {
            out.push_str("<th></th></tr>\n");
        } else {
            out.push_str("<th>Pts</th>");
            for c in &t.columns {
                let _ = write!(out, "<th>{}</th>", esc(c));
            }
            out.push_str("</tr>\n");
        }
        for l in &t.lines {
            let _ = write!(out, "<tr><td class=n>{}</td><td>{}</td>", l.place, esc(&l.name));
            if knockout {
                let _ = write!(out, "<td>{}</td>", esc(&l.note));
            } else {
                let _ = write!(out, "<td class=n>{}</td>", points(l.points));
                for v in &l.tiebreaks {
                    let _ = write!(out, "<td class=n>{}</td>", trim(*v));
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }
    for (s, stage) in event.stages.iter().enumerate() {
        let rounds: Vec<_> = event.stage_rounds(s).collect();
        let playoffs: Vec<_> = stage.playoffs.iter().map(std::borrow::Cow::Borrowed).collect();
        for (kind, rounds) in [("Round", &rounds), ("Play-off", &playoffs)] {
            for r in rounds.iter() {
                let _ = writeln!(out, "<table><caption>{kind} {}</caption>", r.number);
                for p in &r.pairings {
                    let second = p.second.map_or("(bye)".to_string(), |id| event.name_of(id));
                    let _ = writeln!(
                        out,
                        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        esc(&p.id),
                        esc(&event.name_of(p.first)),
                        esc(&second),
                        esc(&score(event, s, p))
                    );
                }
                if let Some(d) = &r.draw {
                    let _ = writeln!(out, "<tr><td colspan=4><small>{}</small></td></tr>", esc(d));
                }
                out.push_str("</table>\n");
            }
        }
    }
    out.push_str("</body></html>\n");
    Ok(out)
}

/// The side that won, in words, for messages.
pub fn winner_name(event: &Event, p: &Pairing, side: Side) -> String {
    p.entrant(side).map_or(String::new(), |id| event.name_of(id))
}
