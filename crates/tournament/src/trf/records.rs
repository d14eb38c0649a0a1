//! The records of a TRF other than the players: read and replaced by code, and the ones an
//! event keeps read and written as what they mean — the number of rounds (`142`, JaVaFo's
//! `XXR`), the colour drawn for the first board (`152`, `XXC`), the pairing system (`192`),
//! the point system (`162`), the tie-breaks (`202`, `212`) and the byes asked for ahead (`240`).

use serde::Serialize;

use super::{codes, field, Colour, Trf};
use crate::dutch::PointSystem;
use crate::result::Bye;

impl Trf {
    /// The byes asked for ahead of their rounds (`240` records).
    pub fn requested_byes(&self) -> Vec<RequestedBye> {
        self.other
            .iter()
            .filter(|l| l.starts_with("240"))
            .filter_map(|l| read_byes(l).ok())
            .flatten()
            .collect()
    }

    /// Replaces the `240` records: one a round and kind, rounds in order.
    pub fn set_requested_byes(&mut self, byes: &[RequestedBye]) {
        let mut byes = byes.to_vec();
        byes.sort_by_key(|b| (b.round, b.kind, b.player));
        byes.dedup();
        let mut lines: Vec<String> = Vec::new();
        let mut last = None;
        for b in byes {
            if last != Some((b.round, b.kind)) {
                lines.push(format!("240 {} {:03}", codes::bye_letter(b.kind), b.round));
                last = Some((b.round, b.kind));
            }
            let line = lines.last_mut().expect("a line was started");
            line.push_str(&format!(" {:>4}", b.player));
        }
        self.set_records("240", lines);
    }

    /// Replaces every record with this code (`142`, `240` …) by `lines`: where the first of them
    /// was, else before the first record with a higher numeric code, so a file keeps the order
    /// of the TRF specification.
    pub fn set_records(&mut self, code: &str, lines: Vec<String>) {
        let is = |l: &String| l.get(..3) == Some(code);
        let at = self.other.iter().position(is).unwrap_or_else(|| {
            self.other
                .iter()
                .position(|l| {
                    l.get(..3)
                        .is_some_and(|c| c.bytes().all(|b| b.is_ascii_digit()) && c > code)
                })
                .unwrap_or(self.other.len())
        });
        self.other.retain(|l| !is(l));
        let at = at.min(self.other.len());
        self.other.splice(at..at, lines);
    }

    /// The first record with this code, without the code.
    pub fn record(&self, code: &str) -> Option<&str> {
        self.other
            .iter()
            .find(|l| l.get(..3) == Some(code))
            .map(|l| l.get(3..).unwrap_or("").trim())
    }

    /// The number of rounds (`142`, or JaVaFo's `XXR`); 0 when the file does not say.
    pub fn total_rounds(&self) -> usize {
        self.record("142")
            .or_else(|| self.record("XXR"))
            .and_then(|r| r.parse().ok())
            .unwrap_or(0)
    }

    pub fn set_total_rounds(&mut self, rounds: usize) {
        self.set_records("142", vec![format!("142 {rounds}")]);
    }

    /// The event's name (`012`).
    pub fn set_name(&mut self, name: &str) {
        self.set_records("012", vec![format!("012 {name}")]);
    }

    /// The colour drawn for the first player of round 1 (`152`).
    pub fn set_first_colour(&mut self, colour: Colour) {
        let letter = codes::colour_letter(colour).to_ascii_uppercase();
        self.set_records("152", vec![format!("152 {letter}")]);
    }

    /// The coded type of the tournament (`192`: `FIDE_DUTCH_2025`, `CXA_SWISS` …).
    pub fn coded_type(&self) -> Option<&str> {
        self.record("192")
    }

    pub fn set_coded_type(&mut self, code: &str) {
        self.set_records("192", vec![format!("192 {code}")]);
    }

    /// Writes the point system as a `162` record (none for 1/½/0), replacing bbpPairings'
    /// `BB*` lines: only the values that differ from the defaults, a letter and four columns
    /// each, nine columns apart from column 6, as bbpPairings writes it (`162  W 2.0    D 1.0`).
    pub fn set_point_system(&mut self, ps: &PointSystem) {
        for code in ["BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"] {
            self.set_records(code, Vec::new());
        }
        self.set_records("162", points_record(ps).into_iter().collect());
    }

    /// The tie-break codes the organiser chose: the `212` list without its `PTS`, else `202`;
    /// modifiers as written (`BH/C1`).
    pub fn tiebreak_codes(&self) -> Vec<String> {
        let words = |list: &str| -> Vec<String> {
            list.split([',', ' '])
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        };
        match self.record("212") {
            Some(list) => words(list)
                .into_iter()
                .filter(|c| !c.eq_ignore_ascii_case("PTS"))
                .collect(),
            None => self.record("202").map(words).unwrap_or_default(),
        }
    }

    /// Sets the tie-breaks (`202`, and `212` with `PTS` first); an empty list removes them.
    pub fn set_tiebreak_codes(&mut self, codes: &[String]) {
        let (tb, standings) = if codes.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            (
                vec![format!("202 {}", codes.join(","))],
                vec![format!("212 PTS,{}", codes.join(","))],
            )
        };
        self.set_records("202", tb);
        self.set_records("212", standings);
    }

    /// The records in TRF-2026 form: `XXR` becomes `142`, `XXC white1|black1` becomes `152`,
    /// and `062` counts the players. Everything else stays as it was.
    pub fn tidy(&mut self) {
        if let Some(rounds) = self.record("XXR").map(str::to_string) {
            if self.record("142").is_none() {
                self.set_records("142", vec![format!("142 {rounds}")]);
            }
            self.set_records("XXR", Vec::new());
        }
        if let Some(xxc) = self.record("XXC").map(str::to_string) {
            let mut rest = Vec::new();
            for word in xxc.split_whitespace() {
                let colour = match word {
                    "white1" => Colour::White,
                    "black1" => Colour::Black,
                    _ => {
                        // `rank` (pairing numbers from the rank column) has no TRF-2026 record.
                        rest.push(word);
                        continue;
                    }
                };
                if self.record("152").is_none() {
                    self.set_first_colour(colour);
                }
            }
            let keep = (!rest.is_empty()).then(|| format!("XXC {}", rest.join(" ")));
            self.set_records("XXC", keep.into_iter().collect());
        }
        self.set_records("062", vec![format!("062 {}", self.players.len())]);
    }
}

/// Tenths of a point as TRF writes them (`2.0`).
fn show(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// The `162` record of a point system (`None` for 1/½/0).
fn points_record(ps: &PointSystem) -> Option<String> {
    let d = PointSystem::default();
    let groups: Vec<String> = [
        ('W', ps.win, ps.win != d.win),
        ('D', ps.draw, ps.draw != d.draw),
        ('L', ps.loss, ps.loss != d.loss),
        ('P', ps.pab, ps.pab != ps.win),
    ]
    .iter()
    .filter(|g| g.2)
    .map(|&(letter, value, _)| format!("{letter}{:>4}", show(value)))
    .collect();
    (!groups.is_empty()).then(|| format!("162  {}", groups.join("    ")))
}

/// A bye asked for before its round is paired (TRF-2026 `240`): a full-point (`F`), half-point
/// (`H`) or zero-point bye (`Z`, also every round after a withdrawal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RequestedBye {
    /// 1-based.
    pub round: usize,
    pub player: u32,
    /// Full, half or zero-point (never the pairing-allocated bye, which only pairing gives).
    pub kind: Bye,
}

/// A `240` record: the kind in column 5 (blank reads as `Z`), the round in 7-9, then start
/// numbers, four columns each with a blank between.
pub(super) fn read_byes(line: &str) -> Result<Vec<RequestedBye>, String> {
    let kind = match line.chars().nth(4).unwrap_or(' ') {
        ' ' => Bye::Zero,
        letter => match codes::bye_of(letter) {
            Some(bye @ (Bye::Full | Bye::Half | Bye::Zero)) => bye,
            _ => return Err(format!("240: a bye is F, H or Z (column 5): {line:?}")),
        },
    };
    let round = field(line, 6, 9)
        .parse::<usize>()
        .ok()
        .filter(|&r| r > 0)
        .ok_or_else(|| format!("240: no round number in columns 7-9: {line:?}"))?;
    line.get(10..)
        .unwrap_or("")
        .split_whitespace()
        .map(|id| match id.parse::<u32>() {
            Ok(player @ 1..=9999) => Ok(RequestedBye { round, player, kind }),
            _ => Err(format!("240: bad start number {id:?}")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "012 Two\n142 3\n\
        001    1      A                                 2000                             1.0          2 w 1\n\
        001    2      B                                 1900                             0.0          1 b 0  0000 - H\n";

    #[test]
    fn records_are_replaced_in_place_or_put_in_code_order() {
        let mut trf = Trf::parse("012 X\nXXR 5\n192 FIDE_DUTCH_2025\n260   1   5    1    2\n").unwrap();
        assert_eq!(trf.record("192"), Some("FIDE_DUTCH_2025"));
        assert_eq!(trf.record("XXR"), Some("5"));
        trf.set_records("142", vec!["142 5".into()]);
        trf.set_records("XXR", Vec::new());
        trf.set_records("012", vec!["012 Y".into()]);
        trf.set_records("240", vec!["240 H 002    1".into()]);
        trf.set_records("062", vec!["062 0".into()]);
        assert_eq!(
            trf.other,
            [
                "012 Y",
                "062 0",
                "142 5",
                "192 FIDE_DUTCH_2025",
                "240 H 002    1",
                "260   1   5    1    2"
            ]
        );
    }

    #[test]
    fn byes_asked_ahead_are_240_records() {
        let mut trf = Trf::parse(TWO).unwrap();
        let bye = |round, player, kind| RequestedBye { round, player, kind };
        trf.set_requested_byes(&[
            bye(3, 2, Bye::Zero),
            bye(3, 1, Bye::Zero),
            bye(2, 1, Bye::Half),
            bye(3, 1, Bye::Zero),
        ]);
        let text = trf.write(|_| None);
        assert!(text.contains("\n240 H 002    1\n240 Z 003    1    2\n"), "{text}");
        // Columns as the specification has them: kind 5, round 7-9, players from 11.
        let line = text.lines().find(|l| l.starts_with("240 Z")).unwrap();
        assert_eq!(
            (&line[4..5], &line[6..9], &line[10..14], &line[15..19]),
            ("Z", "003", "   1", "   2")
        );
        let again = Trf::parse(&text).unwrap();
        assert_eq!(
            again.requested_byes(),
            [bye(2, 1, Bye::Half), bye(3, 1, Bye::Zero), bye(3, 2, Bye::Zero)]
        );
        // The spec's example, zero-padded, and a blank kind (a zero-point bye).
        let spec = Trf::parse("240 H 003  026  047\n240   004    5\n").unwrap();
        assert_eq!(
            spec.requested_byes(),
            [bye(3, 26, Bye::Half), bye(3, 47, Bye::Half), bye(4, 5, Bye::Zero)]
        );
        for bad in ["240 X 003    1", "240 H      1", "240 H 003    0", "240 H 003    x"] {
            let e = Trf::parse(&format!("012 X\n{bad}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{bad}: {e}");
        }
        trf.set_requested_byes(&[]);
        assert!(!trf.write(|_| None).contains("240"));
    }
}
