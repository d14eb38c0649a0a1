//! FIDE C.07 (2026) tie-breaks on TV-TB-1 of the tournament spec (§5, copied into
//! `tests/data/specs/`): the TRF and every value Gacrux 1.9.57 gives for it, read from the vector.

use tournament::result::{Bye, RoundResult};
use tournament::tiebreak::compute;
use tournament::trf::Trf;

const PAB: RoundResult = RoundResult::Bye(Bye::PairingAllocated);

fn test_vector() -> (String, Vec<Vec<String>>) {
    let block = testdata::spec_test_vector("tournament.md", "TV-TB-1");
    let trf: String = block
        .lines()
        .filter(|l| l.starts_with("001") || l.starts_with("012"))
        .map(|l| format!("{l}\n"))
        .collect();
    let table = block
        .split("# 2026 rules")
        .nth(1)
        .unwrap()
        .split("# same file")
        .next()
        .unwrap();
    let rows = table
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    (trf, rows)
}

#[test]
fn every_value_of_tv_tb_1() {
    let (text, rows) = test_vector();
    let trf = Trf::parse(&text).unwrap();
    assert_eq!(trf.players.len(), 11);
    let values = compute(&trf);
    assert_eq!(rows.len(), 11, "the table's rows");
    assert!(rows.iter().all(|r| r.len() == 20), "{rows:?}");
    let mut diffs = Vec::new();
    let mut compared = 0;
    for row in &rows {
        let id: u32 = row[0].parse().unwrap();
        let v = values.iter().find(|v| v.number == id).unwrap();
        let got = formatted(v);
        for ((name, got), want) in got.iter().zip(&row[1..]) {
            compared += 1;
            let want = if want == "-" { "-0" } else { want.as_str() };
            if want != got {
                diffs.push(format!("player {id} {name}: expected {want}, got {got}"));
            }
        }
    }
    assert_eq!(compared, 11 * 19);
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn cxa_orders_of_tv_cxa_1() {
    let (text, _) = test_vector();
    let trf = Trf::parse(&text).unwrap();
    let block = testdata::spec_test_vector("tournament.md", "TV-CXA-1");
    let rows: Vec<Vec<&str>> = block
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 11);
    let values = tournament::cxa::compute(&trf);
    for row in rows {
        let id: u32 = row[0].parse().unwrap();
        let v = values.iter().find(|v| v.number == id).unwrap();
        let got = [
            v.score.to_string(),
            v.opponents.to_string(),
            v.progressive.to_string(),
            v.progressive_cut1.to_string(),
            v.wins.to_string(),
            v.black_games.to_string(),
            v.small_points.to_string(),
        ];
        assert_eq!(
            &row[1..],
            &got.iter().map(String::as_str).collect::<Vec<_>>()[..],
            "player {id}"
        );
    }
}

/// TV-TB-1 with a `162` record added.
fn with_points(text: &str, record: &str) -> Trf {
    Trf::parse(&format!("{record}\n{text}")).unwrap()
}

/// 2/1/0 is 1/½/0 doubled, byes and the 16.3/16.4 draws included: every score-based value
/// doubles (SB, a product of two scores, quadruples), the counts and the rating-based values stay,
/// and so does the order with DE.
#[test]
fn a_point_system_scales_the_score_based_values() {
    use tournament::standings::{standings, TieBreak};
    let (text, _) = test_vector();
    let plain = compute(&Trf::parse(&text).unwrap());
    let doubled = with_points(&text, "162  W 2.0    D 1.0");
    for (a, b) in plain.iter().zip(compute(&doubled)) {
        let scores = |v: &tournament::tiebreak::Values| [v.pts, v.bh, v.bh_c1, v.bh_c2, v.bh_m1, v.fb, v.ps, v.ps_c1];
        assert_eq!(scores(a).map(|x| 2.0 * x), scores(&b), "player {}", a.number);
        assert_eq!([4.0 * a.sb, 4.0 * a.sb_c1], [b.sb, b.sb_c1], "player {}", a.number);
        let counts = |v: &tournament::tiebreak::Values| (v.win, v.won, v.bpg, v.bwg, v.rep, v.vur);
        assert_eq!(counts(a), counts(&b));
        assert_eq!((a.aro, a.tpr, a.ptp), (b.aro, b.tpr, b.ptp));
    }
    let order = [TieBreak::De, TieBreak::Bh, TieBreak::De];
    let numbers = |t: &Trf| {
        standings(t, &order)
            .iter()
            .map(|l| (l.number, l.place))
            .collect::<Vec<_>>()
    };
    assert_eq!(numbers(&Trf::parse(&text).unwrap()), numbers(&doubled));
    // 3/1/0 is not a scaling: a win outweighs two draws.
    let three = compute(&with_points(&text, "162  W 3.0    D 1.0"));
    assert!(plain.iter().zip(&three).any(|(a, b)| 3.0 * a.pts != b.pts));
}

/// A pairing-allocated bye worth less than a win scores what the event says and is no win.
#[test]
fn a_half_point_pab_is_not_a_win() {
    let (text, _) = test_vector();
    let plain = compute(&Trf::parse(&text).unwrap());
    let trf = with_points(&text, "162  P 0.5");
    let half = compute(&trf);
    for ((a, b), p) in plain.iter().zip(&half).zip(&trf.players) {
        let pabs = p.rounds.iter().filter(|r| r.result == PAB).count();
        assert_eq!(a.pts - 0.5 * pabs as f64, b.pts, "player {}", p.number);
        assert_eq!(a.win - pabs as u32, b.win, "player {}", p.number);
        assert_eq!(a.rep, b.rep, "a PAB is a round one played");
    }
    assert!(trf.players.iter().any(|p| p.rounds.iter().any(|r| r.result == PAB)));
}

/// `0000 - -` (a forfeit loss without an opponent) is an absence, a zero-point bye, as Gacrux
/// reads it: no forfeit without a scheduled opponent (C.07 16.2).
#[test]
fn a_forfeit_without_an_opponent_is_a_zero_point_bye() {
    let (text, _) = test_vector();
    let mut zero = Trf::parse(&text).unwrap();
    // Player 10 absent in his last two rounds.
    let p = zero.players.iter_mut().find(|p| p.number == 10).unwrap();
    let last = p.rounds.len() - 1;
    for r in [last - 1, last] {
        p.rounds[r] = tournament::trf::Round {
            opponent: 0,
            colour: tournament::trf::Colour::None,
            result: RoundResult::Bye(Bye::Zero),
        };
    }
    let mut dash = zero.clone();
    for r in [last - 1, last] {
        dash.players.iter_mut().find(|p| p.number == 10).unwrap().rounds[r].result = RoundResult::ForfeitLoss;
    }
    // The others keep their rounds: only the view of player 10 changes.
    assert_eq!(compute(&zero), compute(&dash));
}

/// The CXA orders score 2/1/0 when the file states no point system, the event's own when it
/// does: a 积分编排制 event's `162` (2/1/0) changes nothing, and its score is the FIDE PTS.
#[test]
fn cxa_orders_count_the_event_points() {
    let (text, _) = test_vector();
    let plain = tournament::cxa::compute(&Trf::parse(&text).unwrap());
    let cxa_event = with_points(&text, "162  W 2.0    D 1.0");
    assert_eq!(tournament::cxa::compute(&cxa_event), plain);
    for (c, v) in plain.iter().zip(compute(&cxa_event)) {
        assert_eq!(c.score, v.pts, "player {}", c.number);
    }
    let three = tournament::cxa::compute(&with_points(&text, "162  W 3.0    D 1.0"));
    for (a, b) in plain.iter().zip(&three) {
        assert_eq!(b.score, a.score + f64::from(a.wins), "player {}", a.number);
        assert_eq!(a.wins, b.wins);
    }
}

#[test]
fn standings_order_by_points_then_the_chosen_tiebreaks() {
    use tournament::standings::{standings, TieBreak};
    let (text, _) = test_vector();
    let trf = Trf::parse(&text).unwrap();
    let order: Vec<TieBreak> = ["BH-C1", "BH", "SB"]
        .iter()
        .map(|c| TieBreak::parse(c).unwrap())
        .collect();
    let table = standings(&trf, &order);
    let numbers: Vec<u32> = table.iter().map(|l| l.number).collect();
    // 2 (4.0); 1 and 5 (3.5): BH-C1 11.5 v 10.5; 6, 7, 3 (3.0): BH-C1 13.5, 12.0, 10.5;
    // 11 and 4 (2.5): 11.5 v 9.0; 8 (2.0); 10 and 9 (1.5): 12.5 v 10.5.
    assert_eq!(numbers, [2, 1, 5, 6, 7, 3, 11, 4, 8, 10, 9]);
    assert_eq!(
        table.iter().map(|l| l.place).collect::<Vec<_>>(),
        (1..=11).collect::<Vec<_>>()
    );
    // Without tie-breaks, equal points share the place.
    let plain = standings(&trf, &[]);
    assert_eq!(
        plain.iter().map(|l| l.place).collect::<Vec<_>>(),
        [1, 2, 2, 4, 4, 4, 7, 7, 9, 10, 10]
    );
    assert_eq!(TieBreak::parse("sb-c1"), Some(TieBreak::SbC1));
    assert_eq!(TieBreak::SbC1.code(), "SB-C1");
    assert_eq!(TieBreak::parse("de"), Some(TieBreak::De));
}

#[test]
fn a_trf_writes_back_to_itself() {
    let (text, _) = test_vector();
    let trf = Trf::parse(&text).unwrap();
    let written = trf.write(|n| Some(n as usize));
    let again = Trf::parse(&written).unwrap();
    assert_eq!(again, trf);
    // The player lines keep the standard columns, byte for byte.
    for (a, b) in text
        .lines()
        .filter(|l| l.starts_with("001"))
        .zip(written.lines().filter(|l| l.starts_with("001")))
    {
        assert_eq!(a[..4], b[..4]);
        assert_eq!(a[48..52], b[48..52], "rating column");
        assert_eq!(a[80..84], b[80..84], "points column");
        assert_eq!(a[91..].trim_end(), b[91..].trim_end(), "rounds");
    }
    assert!(written.starts_with("012 AutoTest Tournament 13\n"));
}

/// A fixture file of Gacrux's table: its name, its TRF and its rows (start number, then cells).
type GacruxFile = (String, Trf, Vec<Vec<String>>);

/// A Gacrux table (`tools/tiebreak_oracle.py`) of `tests/data`: its column names after `file`
/// and `StartNo`, and its rows file by file, with each file's TRF as the fixture has it.
fn gacrux_table(table: &str) -> (Vec<String>, Vec<GacruxFile>) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut lines = testdata::fixture_lines(dir.join(table));
    let header: Vec<String> = lines.next().unwrap().split('\t').skip(2).map(String::from).collect();
    let mut files: Vec<GacruxFile> = Vec::new();
    for line in lines {
        let mut cells = line.split('\t').map(String::from);
        let file = cells.next().unwrap();
        if files.last().is_none_or(|(f, _, _)| *f != file) {
            let text: Vec<String> = testdata::fixture_lines(dir.join("dutch").join(&file)).collect();
            files.push((file.clone(), Trf::parse(&text.join("\n")).unwrap(), Vec::new()));
        }
        files.last_mut().unwrap().2.push(cells.collect());
    }
    (header, files)
}

/// Every C.07 value of the table against ours: how many were compared, and the differences.
fn values_against_gacrux(header: &[String], files: &[GacruxFile]) -> (usize, Vec<String>) {
    // FB is asked for last: Gacrux 1.9.57 carries FB's "last round not absent" over to the
    // tie-breaks computed after it (an SB after FB differs from SB alone, e.g. g0625 player 27:
    // 12.00 instead of 12.50; 16.3 counts the requested bye before a forfeit loss as a draw).
    let codes = "PTS BH BH/C1 BH/C2 BH/M1 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP VUR ARO TPR PTP FB";
    assert_eq!(header[..19].join(" "), codes);
    let mut compared = 0;
    let mut diffs = Vec::new();
    for (file, trf, rows) in files {
        let values = compute(trf);
        // With an unrated player in the event Gacrux gives no rating tie-break (ARO, TPR, PTP:
        // None, printed -0) to anyone unless told a rating for the unrated (`-u`), which C.07
        // leaves to the regulations; we leave unrated opponents out. Only that is let through.
        let unrated = trf.players.iter().any(|p| p.rating == 0);
        for row in rows {
            let id: u32 = row[0].parse().unwrap();
            let v = values.iter().find(|v| v.number == id).unwrap();
            let ours = formatted(v);
            for (code, want) in header[..19].iter().zip(&row[1..]) {
                let code = code.replace('/', "-");
                if unrated && ["ARO", "TPR", "PTP"].contains(&code.as_str()) {
                    assert_eq!(want, "-0", "{file} player {id} {code}");
                    continue;
                }
                let got = &ours.iter().find(|(c, _)| *c == code).expect("a code we compute").1;
                compared += 1;
                if want != got {
                    diffs.push(format!("{file} player {id} {code}: Gacrux {want}, ours {got}"));
                }
            }
        }
    }
    (compared, diffs)
}

/// Direct Encounter after each order in the table (`PTS>BH>DE`: points, BH, then DE), and the
/// rank it gives with it, against DE as [`standings`](tournament::standings::standings) works it
/// out on the players tied on everything before it: how many values were compared, how many
/// players DE separated, and the differences.
fn direct_encounter_against_gacrux(header: &[String], files: &[GacruxFile]) -> (usize, usize, Vec<String>) {
    use tournament::standings::{standings, TieBreak};
    let orders: Vec<(usize, Vec<TieBreak>)> = header
        .iter()
        .enumerate()
        .filter(|(_, name)| name.ends_with(">DE"))
        .map(|(i, name)| {
            let codes: Vec<&str> = name.split('>').collect();
            assert_eq!(codes[0], "PTS", "standings start from points");
            let order = codes[1..]
                .iter()
                .map(|c| TieBreak::parse(&c.replace('/', "-")).unwrap())
                .collect();
            assert_eq!(header[i + 1], format!("{name} rank"));
            (i + 1, order)
        })
        .collect();
    assert!(orders.len() >= 3, "{header:?}");
    let (mut compared, mut separated) = (0, 0);
    let mut diffs = Vec::new();
    for (file, trf, rows) in files {
        for (column, order) in &orders {
            let table = standings(trf, order);
            for row in rows {
                let line = table.iter().find(|l| l.number.to_string() == row[0]).unwrap();
                let de = line.tiebreaks.last().unwrap().to_string();
                let (want_de, want_rank) = (&row[*column], &row[column + 1]);
                compared += 2;
                separated += usize::from(de != "0");
                if (&de, &line.place.to_string()) != (want_de, want_rank) {
                    diffs.push(format!(
                        "{file} player {} after {order:?}: Gacrux DE {want_de} rank {want_rank}, \
                         ours DE {de} rank {}",
                        row[0], line.place
                    ));
                }
            }
        }
    }
    eprintln!("{} orders", orders.len());
    (compared, separated, diffs)
}

fn assert_no_differences(diffs: &[String]) {
    if let Ok(path) = std::env::var("TIEBREAK_DIFFS") {
        std::fs::write(path, diffs.join("\n")).unwrap();
    }
    assert!(
        diffs.is_empty(),
        "{} differences, e.g.\n{}",
        diffs.len(),
        diffs[..diffs.len().min(20)].join("\n")
    );
}

/// Every C.07 value FIDE's Gacrux (1.9.57, 2026 rules) gives on a sixth of the Dutch fixtures
/// (standard points; `tools/tiebreak_oracle.py` wrote the table): forfeits, byes of every kind,
/// withdrawals, 9 to 1,000 players.
#[test]
fn equal_to_gacrux_on_the_dutch_fixtures() {
    let (header, files) = gacrux_table("gacrux-tiebreaks.tsv.gz");
    let (compared, diffs) = values_against_gacrux(&header, &files);
    eprintln!("{} files, {compared} values, {} differences", files.len(), diffs.len());
    assert!(files.len() >= 100, "{} files", files.len());
    assert_no_differences(&diffs);
}

/// Direct Encounter after each order in Gacrux's table, and the rank it gives with it.
#[test]
fn direct_encounter_equal_to_gacrux_on_the_dutch_fixtures() {
    let (header, files) = gacrux_table("gacrux-tiebreaks.tsv.gz");
    let (compared, separated, diffs) = direct_encounter_against_gacrux(&header, &files);
    eprintln!(
        "{compared} values ({separated} players separated by DE), {} differences",
        diffs.len()
    );
    assert!(separated >= 100, "{separated} separated: DE is hardly tested");
    assert_no_differences(&diffs);
}

/// The fixtures with another point system in Gacrux's second table (`tiebreak_oracle.py
/// --points`: every one of at most 100 players), each with the point system it states.
fn gacrux_points_table() -> (Vec<String>, Vec<GacruxFile>) {
    use tournament::event::{point_system, stated_point_system};
    let (header, files) = gacrux_table("gacrux-tiebreaks-points.tsv.gz");
    let systems: std::collections::BTreeSet<String> = files
        .iter()
        .map(|(file, trf, _)| {
            assert!(stated_point_system(trf).is_some(), "{file}: no point system");
            let ps = point_system(trf);
            format!("{}/{}/{} PAB {}", ps.win, ps.draw, ps.loss, ps.pab)
        })
        .collect();
    // In tenths: 3/1/0, 2/1/0, and 1/½/0 with a pairing-allocated bye worth ½.
    for system in ["30/10/0 PAB 30", "20/10/0 PAB 20", "10/5/0 PAB 5"] {
        assert!(systems.contains(system), "{system} not among {systems:?}");
    }
    (header, files)
}

/// Every C.07 value Gacrux gives with the event's own point system (`162`, or bbpPairings'
/// `BB*` lines, which the oracle hands Gacrux as `162`): scores, Buchholz and its 16.3/16.4
/// adjustments, SB's products, PS, WIN/WON/BWG as results worth a win; ARO, TPR and PTP on
/// 1/½/0.
#[test]
fn equal_to_gacrux_with_other_point_systems() {
    let (header, files) = gacrux_points_table();
    let (compared, diffs) = values_against_gacrux(&header, &files);
    eprintln!("{} files, {compared} values, {} differences", files.len(), diffs.len());
    assert!(files.len() >= 100, "{} files", files.len());
    assert_no_differences(&diffs);
}

/// Direct Encounter with the event's point system (a missing game could have given a win's
/// points), after each order of the table.
#[test]
fn direct_encounter_equal_to_gacrux_with_other_point_systems() {
    let (header, files) = gacrux_points_table();
    let (compared, separated, diffs) = direct_encounter_against_gacrux(&header, &files);
    eprintln!(
        "{compared} values ({separated} players separated by DE), {} differences",
        diffs.len()
    );
    assert!(separated >= 100, "{separated} separated: DE is hardly tested");
    assert_no_differences(&diffs);
}

/// Every value as Gacrux prints it, by C.07 code: one decimal for Buchholz-like sums, two for
/// SB, whole numbers for counts and ratings (`-0`, Gacrux's None, where there is none).
fn formatted(v: &tournament::tiebreak::Values) -> Vec<(&'static str, String)> {
    let rating = |x: Option<i64>| x.map_or("-0".into(), |x| x.to_string());
    vec![
        ("PTS", format!("{:.1}", v.pts)),
        ("BH", format!("{:.1}", v.bh)),
        ("BH-C1", format!("{:.1}", v.bh_c1)),
        ("BH-C2", format!("{:.1}", v.bh_c2)),
        ("BH-M1", format!("{:.1}", v.bh_m1)),
        ("FB", format!("{:.1}", v.fb)),
        ("SB", format!("{:.2}", v.sb)),
        ("SB-C1", format!("{:.2}", v.sb_c1)),
        ("PS", format!("{:.1}", v.ps)),
        ("PS-C1", format!("{:.1}", v.ps_c1)),
        ("WIN", v.win.to_string()),
        ("WON", v.won.to_string()),
        ("BPG", v.bpg.to_string()),
        ("BWG", v.bwg.to_string()),
        ("REP", v.rep.to_string()),
        ("VUR", v.vur.to_string()),
        ("ARO", rating(v.aro)),
        ("TPR", rating(v.tpr)),
        ("PTP", rating(v.ptp)),
    ]
}
