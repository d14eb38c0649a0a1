//! Crosstables (成绩表) in standings order, as text and as an HTML page.

use crate::result::{Bye, RoundResult, Score};
use crate::standings::TieBreak;
use crate::trf::{Colour, Round, Trf};

fn cell(r: &Round) -> String {
    if r.opponent == 0 {
        return match r.result {
            RoundResult::Bye(Bye::PairingAllocated) => "PAB".into(),
            RoundResult::Bye(Bye::Half) => "½ bye".into(),
            RoundResult::Bye(Bye::Full) => "1 bye".into(),
            _ => "–".into(),
        };
    }
    let colour = if r.colour == Colour::White { 'w' } else { 'b' };
    let result = match r.result {
        RoundResult::Game { score: Score::Win, .. } => "1",
        RoundResult::Game { score: Score::Loss, .. } => "0",
        RoundResult::Game { score: Score::Draw, .. } => "½",
        RoundResult::ForfeitWin => "+",
        RoundResult::ForfeitLoss => "−",
        _ => "",
    };
    format!("{}{colour}{result}", r.opponent)
}

/// The crosstable in standings order (points, then the given tie-breaks).
pub fn crosstable(trf: &Trf, order: &[TieBreak]) -> String {
    let lines = crate::standings::standings(trf, order);
    let rounds = trf.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut out = format!("{:>4} {:>4} {:<28} {:>4}", "Rk", "No", "Name", "Rtg");
    for r in 1..=rounds {
        out.push_str(&format!(" {:>7}", format!("R{r}")));
    }
    out.push_str("   Pts\n");
    for l in &lines {
        let p = trf.player(l.number).expect("a standings line is a player");
        out.push_str(&format!(
            "{:>4} {:>4} {:<28} {:>4}",
            l.place, p.number, p.name, p.rating
        ));
        for r in &p.rounds {
            out.push_str(&format!(" {:>7}", cell(r)));
        }
        out.push_str(&format!(" {:>5.1}\n", p.points));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The crosstable as a standalone HTML page.
pub fn crosstable_html(trf: &Trf, title: &str, order: &[TieBreak]) -> String {
    let lines = crate::standings::standings(trf, order);
    let rounds = trf.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n\
         <style>table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:2px 6px;text-align:right}}\
         td.name{{text-align:left}}</style></head><body>\n<h1>{0}</h1>\n<table>\n<tr><th>Rk</th><th>No</th>\
         <th>Name</th><th>Rtg</th>",
        escape(title)
    );
    for r in 1..=rounds {
        out.push_str(&format!("<th>R{r}</th>"));
    }
    out.push_str("<th>Pts</th>");
    for t in order {
        out.push_str(&format!("<th>{}</th>", t.code()));
    }
    out.push_str("</tr>\n");
    for l in &lines {
        let p = trf.player(l.number).expect("a standings line is a player");
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td class=\"name\">{}</td><td>{}</td>",
            l.place,
            p.number,
            escape(&p.name),
            p.rating
        ));
        for r in &p.rounds {
            out.push_str(&format!("<td>{}</td>", escape(&cell(r))));
        }
        out.push_str(&format!("<td>{:.1}</td>", p.points));
        for v in &l.tiebreaks {
            out.push_str(&format!("<td>{v}</td>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</body></html>\n");
    out
}
