//! A Swiss event run round by round, kept as its TRF: create it, register players, pair the
//! next round (FIDE Dutch or 积分编排制), enter results, and print standings and crosstables
//! (text or HTML). Plain functions on [`Trf`], so the command line and the server share them.

use crate::cxa_swiss;
use crate::dutch::{self, Pairing};
use crate::trf::{Colour, Player, Round, Trf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Dutch,
    Cxa,
}

impl System {
    pub fn parse(s: &str) -> Option<System> {
        match s {
            "dutch" => Some(System::Dutch),
            "cxa" => Some(System::Cxa),
            _ => None,
        }
    }

    fn code(self) -> &'static str {
        match self {
            System::Dutch => "FIDE_DUTCH_2025",
            System::Cxa => "CXA_SWISS",
        }
    }
}

/// Why an event cannot do what was asked (the same message-carrying error as reading one).
pub use crate::dutch::EventError;

fn err<T>(message: impl Into<String>) -> Result<T, EventError> {
    Err(EventError(message.into()))
}

/// A new event: its name (`012`), rounds (`XXR`), system (`192`) and the colour drawn for the
/// first board (`XXC`).
pub fn create(name: &str, rounds: usize, system: System, first_white: bool) -> Trf {
    Trf {
        players: Vec::new(),
        other: vec![
            format!("012 {name}"),
            format!("XXR {rounds}"),
            format!("XXC {}", if first_white { "white1" } else { "black1" }),
            format!("192 {}", system.code()),
        ],
    }
}

pub fn system(trf: &Trf) -> System {
    if trf.other.iter().any(|l| l.trim_end() == "192 CXA_SWISS") {
        System::Cxa
    } else {
        System::Dutch
    }
}

pub fn total_rounds(trf: &Trf) -> usize {
    trf.other
        .iter()
        .find_map(|l| l.strip_prefix("XXR").or_else(|| l.strip_prefix("142")))
        .and_then(|r| r.trim().parse().ok())
        .unwrap_or(0)
}

/// Adds a player with the next start number; rounds already paired count as absences.
pub fn register(trf: &mut Trf, name: &str, rating: u32, federation: &str) -> Result<u32, EventError> {
    if name.trim().is_empty() {
        return err("a player needs a name");
    }
    if trf.players.len() >= 9999 {
        return err("TRF holds at most 9,999 players");
    }
    let number = trf.players.len() as u32 + 1;
    let paired = dutch::rounds_paired(trf);
    trf.players.push(Player {
        number,
        name: name.trim().to_string(),
        rating,
        federation: federation.trim().to_string(),
        points: 0.0,
        rounds: vec![absent('Z'); paired],
        written: paired,
    });
    Ok(number)
}

fn absent(result: char) -> Round {
    Round {
        opponent: 0,
        colour: Colour::None,
        result,
    }
}

/// Games of the last paired round still without a result, as (white, black).
pub fn pending(trf: &Trf) -> Vec<(u32, u32)> {
    let round = dutch::rounds_paired(trf);
    if round == 0 {
        return Vec::new();
    }
    trf.players
        .iter()
        .filter_map(|p| {
            let r = p.rounds.get(round - 1)?;
            (r.opponent != 0 && r.colour == Colour::White && r.result == ' ').then_some((p.number, r.opponent))
        })
        .collect()
}

/// Marks a player as not to be paired in the next round: a requested half-point bye (`H`),
/// zero-point bye (`Z`) or full-point bye (`F`).
pub fn request_bye(trf: &mut Trf, number: u32, kind: char) -> Result<(), EventError> {
    if !matches!(kind, 'H' | 'Z' | 'F') {
        return err("a bye is H, Z or F");
    }
    let round = dutch::rounds_paired(trf);
    let p = player_mut(trf, number)?;
    if p.written > round {
        return err(format!("player {number} already has an entry for round {}", round + 1));
    }
    p.rounds.truncate(round);
    p.rounds.resize(round, absent('Z'));
    p.rounds.push(absent(kind));
    p.written = round + 1;
    refresh_points(trf);
    Ok(())
}

fn player_mut(trf: &mut Trf, number: u32) -> Result<&mut Player, EventError> {
    match trf.players.iter_mut().find(|p| p.number == number) {
        Some(p) => Ok(p),
        None => err(format!("no player {number}")),
    }
}

/// Pairs the next round and writes it into the event (results blank until entered).
pub fn pair(trf: &mut Trf, seed: u64) -> Result<Pairing, EventError> {
    if !pending(trf).is_empty() {
        return err(format!(
            "round {} still has games without a result",
            dutch::rounds_paired(trf)
        ));
    }
    let round = dutch::rounds_paired(trf);
    let total = total_rounds(trf);
    if total > 0 && round >= total {
        return err(format!("all {total} rounds are paired"));
    }
    if trf.players.len() < 2 {
        return err("pairing needs at least two players");
    }
    if round == 0 {
        // Pairing numbers before round 1: by rating, then name (C.04.2); start numbers follow.
        trf.players
            .sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        for (i, p) in trf.players.iter_mut().enumerate() {
            p.number = i as u32 + 1;
        }
    }
    let pairing = match system(trf) {
        System::Dutch => dutch::pair_next(trf).map_err(|e| EventError(e.to_string()))?,
        System::Cxa => {
            let options = cxa_swiss::Options {
                avoid_same_team: false,
                seed,
            };
            cxa_swiss::pair(&cxa_swiss::entrants(trf), round + 1, &options).map_err(|e| EventError(e.to_string()))?
        }
    };
    for p in &mut trf.players {
        if p.written <= round {
            p.rounds.truncate(round);
            p.rounds.resize(round, absent('Z'));
        }
    }
    let mut put = |number: u32, r: Round| {
        let p = &mut trf.players[number as usize - 1];
        p.rounds.push(r);
        p.written = p.rounds.len();
    };
    for &(w, b) in &pairing.boards {
        put(
            w,
            Round {
                opponent: b,
                colour: Colour::White,
                result: ' ',
            },
        );
        put(
            b,
            Round {
                opponent: w,
                colour: Colour::Black,
                result: ' ',
            },
        );
    }
    if let Some(b) = pairing.bye {
        put(b, absent('U'));
    }
    // Anyone neither paired nor excused (cannot happen with a complete pairing) stays absent.
    for p in &mut trf.players {
        if p.written <= round {
            p.rounds.push(absent('Z'));
            p.written = p.rounds.len();
        }
    }
    refresh_points(trf);
    Ok(pairing)
}

/// Enters a result of round `round` (1-based): `1-0`, `0-1`, `1/2`, `+/-`, `-/+` or `-/-`.
pub fn set_result(trf: &mut Trf, round: usize, white: u32, black: u32, result: &str) -> Result<(), EventError> {
    let (w, b) = match result {
        "1-0" => ('1', '0'),
        "0-1" => ('0', '1'),
        "1/2" | "1/2-1/2" | "=" => ('=', '='),
        "+/-" => ('+', '-'),
        "-/+" => ('-', '+'),
        "-/-" => ('-', '-'),
        _ => return err(format!("unknown result {result:?} (1-0, 0-1, 1/2, +/-, -/+, -/-)")),
    };
    let i = round
        .checked_sub(1)
        .ok_or_else(|| EventError("rounds start at 1".into()))?;
    for (me, them, colour, res) in [(white, black, Colour::White, w), (black, white, Colour::Black, b)] {
        let p = player_mut(trf, me)?;
        match p.rounds.get_mut(i) {
            Some(r) if r.opponent == them && r.colour == colour => r.result = res,
            _ => return err(format!("round {round} has no game {white} (white) - {black} (black)")),
        }
    }
    refresh_points(trf);
    Ok(())
}

fn refresh_points(trf: &mut Trf) {
    for p in &mut trf.players {
        p.points = p.rounds.iter().map(Round::points).sum();
    }
}

fn cell(r: &Round) -> String {
    if r.opponent == 0 {
        return match r.result {
            'U' => "PAB".into(),
            'H' => "½ bye".into(),
            'F' => "1 bye".into(),
            _ => "–".into(),
        };
    }
    let colour = if r.colour == Colour::White { 'w' } else { 'b' };
    let result = match r.result {
        '1' => "1",
        '0' => "0",
        '=' => "½",
        '+' => "+",
        '-' => "−",
        _ => "",
    };
    format!("{}{colour}{result}", r.opponent)
}

/// The crosstable in standings order (points, then the given tie-breaks).
pub fn crosstable(trf: &Trf, order: &[crate::standings::TieBreak]) -> String {
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
pub fn crosstable_html(trf: &Trf, title: &str, order: &[crate::standings::TieBreak]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_event_round_by_round_is_what_the_checker_expects() {
        for system in [System::Dutch, System::Cxa] {
            let mut trf = create("Club open", 5, system, true);
            for i in 0..11 {
                register(&mut trf, &format!("Player {i}"), 2200 - 37 * i, "CHN").unwrap();
            }
            let mut seed = 7u64;
            for round in 1..=5 {
                if round == 3 {
                    request_bye(&mut trf, 4, 'H').unwrap();
                }
                let pairing = pair(&mut trf, round as u64).unwrap();
                assert!(pair(&mut trf, 0).is_err(), "results are missing");
                for (w, b) in pairing.boards {
                    seed = referee::matches::splitmix64(seed);
                    let result = ["1-0", "0-1", "1/2"][(seed % 3) as usize];
                    set_result(&mut trf, round, w, b, result).unwrap();
                }
                // Through the file format and back.
                trf = Trf::parse(&trf.write(|_| None)).unwrap();
            }
            assert!(pair(&mut trf, 0).is_err(), "all rounds paired");
            if system == System::Dutch {
                assert!(dutch::check(&trf).is_empty());
            }
            let text = crosstable(&trf, &[]);
            assert_eq!(text.lines().count(), 12);
            assert!(crosstable_html(&trf, "<Club>", &[]).contains("&lt;Club&gt;"));
            let total: f64 = trf.players.iter().map(|p| p.points).sum();
            assert!(total > 20.0 && total <= 30.0, "{total}");
        }
    }

    #[test]
    fn wrong_results_are_refused() {
        let mut trf = create("X", 3, System::Dutch, true);
        for i in 0..4 {
            register(&mut trf, &format!("P{i}"), 2000, "").unwrap();
        }
        let p = pair(&mut trf, 0).unwrap();
        let (w, b) = p.boards[0];
        assert!(set_result(&mut trf, 1, b, w, "1-0").is_err());
        assert!(set_result(&mut trf, 1, w, b, "2-0").is_err());
        assert!(set_result(&mut trf, 2, w, b, "1-0").is_err());
        assert!(register(&mut trf, " ", 0, "").is_err());
    }
}
