//! The records pairing depends on besides the player lines: rounds (`142`/`XXR`), the initial
//! colour (`152`/`XXC`), the point system (`162`, bbpPairings' `BB*`), the Baku acceleration
//! (`192`), byes asked for (`240`), forbidden pairs (`260`, `XXP`) and accelerations (`250`,
//! `XXA`), read into the Dutch model's terms.

use super::{Colour, Trf};
use crate::dutch::model::{EventError, Forbidden, PointSystem, Tenths};

/// The records of a TRF besides the player lines that pairing depends on.
pub(crate) struct Settings {
    pub(crate) total_rounds: Option<usize>,
    pub(crate) initial: Colour,
    pub(crate) points: PointSystem,
    pub(crate) forbidden: Vec<Forbidden>,
    pub(crate) accelerations: Vec<Vec<Tenths>>,
    pub(crate) baku: bool,
    /// (round, player), both 0-based, from `240` records.
    pub(crate) byes: Vec<(usize, usize)>,
}

fn tenths(s: &str) -> Result<Tenths, EventError> {
    let s = s.trim();
    let bad = || EventError(format!("bad points {s:?}"));
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let frac: u32 = frac.get(..1).unwrap_or("0").parse().map_err(|_| bad())?;
    // Points up to 99.9, as TRF writes them.
    whole
        .checked_mul(10)
        .filter(|&w| w < 1000)
        .map(|w| w + frac)
        .ok_or_else(bad)
}

/// What each result is worth as the file states it: TRF-2026's `162` record or bbpPairings'
/// `BBW` … lines (`None` when it states neither).
pub(crate) fn stated_points(trf: &Trf) -> Result<Option<PointSystem>, EventError> {
    let mut ps = PointSystem::default();
    let (mut stated, mut pab_set) = (false, false);
    for line in &trf.other {
        let (code, rest) = (column(line, 0, 3), line.get(3..).unwrap_or(""));
        match code {
            "162" => {
                let mut col = 5;
                while col + 5 <= line.len() {
                    let value = tenths(column(line, col + 1, col + 5))?;
                    match column(line, col, col + 1) {
                        "W" => {
                            ps.win = value;
                            if !pab_set {
                                ps.pab = value;
                            }
                        }
                        "D" => ps.draw = value,
                        "L" => ps.loss = value,
                        // `A` is TRF-2026's letter for absences and forfeit losses, `Z` the
                        // one bbpPairings reads.
                        "A" | "Z" => (ps.zero_bye, ps.forfeit_loss) = (value, value),
                        // Unknown or adjourned results: no round of a player line can carry
                        // one, so its value changes nothing here.
                        "X" => {}
                        "P" => (ps.pab, pab_set) = (value, true),
                        other => return Err(EventError(format!("162: unknown result {other:?}"))),
                    }
                    col += 9;
                }
            }
            "BBW" => {
                ps.win = tenths(rest)?;
                if !pab_set {
                    ps.pab = ps.win;
                }
            }
            "BBD" => ps.draw = tenths(rest)?,
            "BBL" => ps.loss = tenths(rest)?,
            "BBZ" => ps.zero_bye = tenths(rest)?,
            "BBF" => ps.forfeit_loss = tenths(rest)?,
            "BBU" => (ps.pab, pab_set) = (tenths(rest)?, true),
            _ => continue,
        }
        stated = true;
    }
    Ok(stated.then_some(ps))
}

fn number(s: &str) -> Result<usize, EventError> {
    s.trim().parse().map_err(|_| EventError(format!("bad number {s:?}")))
}

/// A 1-based number (a player, a round), as a 0-based index.
fn index(s: &str) -> Result<usize, EventError> {
    number(s)?
        .checked_sub(1)
        .ok_or_else(|| EventError(format!("numbers start at 1, not {s:?}")))
}

fn column(line: &str, from: usize, to: usize) -> &str {
    line.get(from.min(line.len())..to.min(line.len())).unwrap_or("")
}

impl Settings {
    pub(crate) fn read(trf: &Trf) -> Result<Settings, EventError> {
        let mut s = Settings {
            total_rounds: None,
            initial: Colour::None,
            points: stated_points(trf)?.unwrap_or_default(),
            forbidden: Vec::new(),
            accelerations: Vec::new(),
            baku: false,
            byes: Vec::new(),
        };
        let mut manual_acceleration = false;
        let mut everywhere: Vec<Vec<usize>> = Vec::new();
        for line in &trf.other {
            let (code, rest) = (column(line, 0, 3), line.get(3..).unwrap_or(""));
            match code {
                "XXR" | "142" => s.total_rounds = Some(number(rest)?),
                "XXC" => {
                    for word in rest.split_whitespace() {
                        match word {
                            "white1" => s.initial = Colour::White,
                            "black1" => s.initial = Colour::Black,
                            _ => {}
                        }
                    }
                }
                "152" => {
                    s.initial = match rest.trim() {
                        "W" => Colour::White,
                        "B" => Colour::Black,
                        other => return Err(EventError(format!("152: bad colour {other:?}"))),
                    }
                }
                "192" => match rest.trim() {
                    "FIDE_DUTCH_2025_BAKU" | "FIDE_DUTCH_BAKU" => s.baku = true,
                    _ => s.baku = false,
                },
                "240" => {
                    let round = index(column(line, 6, 9))?;
                    for p in line.get(10..).unwrap_or("").split_whitespace() {
                        s.byes.push((round, index(p)?));
                    }
                }
                "XXP" => everywhere.push(rest.split_whitespace().map(number).collect::<Result<_, _>>()?),
                "260" => {
                    let from = number(column(line, 4, 7))?;
                    let to = number(column(line, 8, 11))?;
                    let players = line.get(12..).unwrap_or("").split_whitespace().map(number);
                    s.forbidden.push(Forbidden {
                        players: players
                            .map(|p| p.and_then(|p| p.checked_sub(1).ok_or_else(|| EventError("player 0".into()))))
                            .collect::<Result<_, _>>()?,
                        from: from.saturating_sub(1),
                        to,
                    });
                }
                "XXA" => {
                    manual_acceleration = true;
                    let player = index(column(line, 4, 8))? + 1;
                    if player > 9999 {
                        return Err(EventError(format!("XXA: no player {player}")));
                    }
                    let mut values = Vec::new();
                    let mut col = 9;
                    while col + 4 <= line.len() {
                        let v = column(line, col, col + 4);
                        values.push(if v.trim().is_empty() { 0 } else { tenths(v)? });
                        col += 5;
                    }
                    set_len(&mut s.accelerations, player);
                    s.accelerations[player - 1] = values;
                }
                "250" => {
                    manual_acceleration = true;
                    let points = tenths(column(line, 9, 13))?;
                    let (from, to) = (index(column(line, 14, 17))? + 1, number(column(line, 18, 21))?);
                    let (first, last) = (index(column(line, 22, 26))? + 1, number(column(line, 27, 31))?);
                    if from > to || first > last || last > 9999 || to > 99 {
                        return Err(EventError(format!("250: bad ranges in {line:?}")));
                    }
                    set_len(&mut s.accelerations, last);
                    for acc in &mut s.accelerations[first - 1..last] {
                        if acc.len() < to {
                            acc.resize(to, 0);
                        }
                        for a in &mut acc[from - 1..to] {
                            *a = points;
                        }
                    }
                }
                _ => {}
            }
        }
        if manual_acceleration {
            s.baku = false;
        }
        let all = s.total_rounds.unwrap_or(usize::MAX);
        for players in everywhere {
            s.forbidden.push(Forbidden {
                players: players.into_iter().map(|p| p.saturating_sub(1)).collect(),
                from: 0,
                to: all,
            });
        }
        Ok(s)
    }
}

fn set_len(v: &mut Vec<Vec<Tenths>>, n: usize) {
    if v.len() < n {
        v.resize(n, Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dutch::Event;

    #[test]
    fn point_system_records_of_trf_2026_and_bbp() {
        let players = "001    1      A                                 2000                             0.0          \n\
                       001    2      B                                 1900                             0.0          \n";
        let read = |header: &str| Event::before_round(&Trf::parse(&format!("{header}{players}")).unwrap(), 1);
        let e = read("142 5\n162  W 3.0    D 1.0    L 0.0    A 0.0    X 1.0    P 1.0\n").unwrap();
        let expected = PointSystem {
            win: 30,
            draw: 10,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: 10,
        };
        assert_eq!(e.points, expected);
        let e = read("XXR 5\nBBW 3.0\nBBD 1.0\nBBU 1.0\n").unwrap();
        assert_eq!(e.points, expected);
        assert!(read("142 5\n162  Q 3.0\n").is_err());
    }
}
