//! FIDE C.07 (2026) tie-breaks on TV-TB-1 of `shared/specs/tournament.md` §5: the TRF and every
//! value Gacrux 1.9.57 gives for it, read from the spec itself.

use tournament::tiebreak::compute;
use tournament::trf::Trf;

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
            let want = if want == "-" { "0" } else { want.as_str() };
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
        let small = v.small_points_halves as f64 / 2.0;
        let got = [
            v.score.to_string(),
            v.opponents.to_string(),
            v.progressive.to_string(),
            v.progressive_cut1.to_string(),
            v.wins.to_string(),
            v.black_games.to_string(),
            if small.fract() == 0.0 {
                format!("{small:.0}")
            } else {
                format!("{small}")
            },
        ];
        assert_eq!(
            &row[1..],
            &got.iter().map(String::as_str).collect::<Vec<_>>()[..],
            "player {id}"
        );
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

/// Gacrux's table (`tools/tiebreak_oracle.py`): its column names after `file` and `StartNo`, and
/// its rows file by file.
fn gacrux_table() -> (Vec<String>, Vec<GacruxFile>) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut lines = testdata::fixture_lines(dir.join("gacrux-tiebreaks.tsv.gz"));
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

/// Every C.07 value FIDE's Gacrux (1.9.57, 2026 rules) gives on a sixth of the Dutch fixtures
/// (standard points; `tools/tiebreak_oracle.py` wrote the table): forfeits, byes of every kind,
/// withdrawals, 9 to 1,000 players.
#[test]
fn equal_to_gacrux_on_the_dutch_fixtures() {
    let (header, files) = gacrux_table();
    // FB is asked for last: Gacrux 1.9.57 carries FB's "last round not absent" over to the
    // tie-breaks computed after it (an SB after FB differs from SB alone, e.g. g0625 player 27:
    // 12.00 instead of 12.50; 16.3 counts the requested bye before a forfeit loss as a draw).
    let codes = "PTS BH BH/C1 BH/C2 BH/M1 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP VUR ARO TPR PTP FB";
    assert_eq!(header[..19].join(" "), codes);
    let mut compared = 0;
    let mut diffs = Vec::new();
    for (file, trf, rows) in &files {
        let values = compute(trf);
        for row in rows {
            let id: u32 = row[0].parse().unwrap();
            let v = values.iter().find(|v| v.number == id).unwrap();
            let ours = formatted(v);
            for (code, want) in header[..19].iter().zip(&row[1..]) {
                let code = code.replace('/', "-");
                let got = &ours.iter().find(|(c, _)| *c == code).expect("a code we compute").1;
                compared += 1;
                if want != got {
                    diffs.push(format!("{file} player {id} {code}: Gacrux {want}, ours {got}"));
                }
            }
        }
    }
    eprintln!("{} files, {compared} values, {} differences", files.len(), diffs.len());
    assert!(files.len() >= 100, "{} files", files.len());
    assert!(
        diffs.is_empty(),
        "{} differences, e.g.\n{}",
        diffs.len(),
        diffs[..diffs.len().min(20)].join("\n")
    );
}

/// Direct Encounter after each order in Gacrux's table (`PTS>BH>DE`: points, BH, then DE), and
/// the rank it gives with it: DE as [`standings`](tournament::standings::standings) works it
/// out on the players tied on everything before it.
#[test]
fn direct_encounter_equal_to_gacrux_on_the_dutch_fixtures() {
    use tournament::standings::{standings, TieBreak};
    let (header, files) = gacrux_table();
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
    for (file, trf, rows) in &files {
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
    eprintln!(
        "{} orders, {compared} values ({separated} players separated by DE), {} differences",
        orders.len(),
        diffs.len()
    );
    assert!(separated >= 100, "{separated} separated: DE is hardly tested");
    assert!(
        diffs.is_empty(),
        "{} differences, e.g.\n{}",
        diffs.len(),
        diffs[..diffs.len().min(20)].join("\n")
    );
}

/// Every value as Gacrux prints it, by C.07 code: one decimal for Buchholz-like sums, two for
/// SB, whole numbers for counts and ratings (0 where there is none).
fn formatted(v: &tournament::tiebreak::Values) -> Vec<(&'static str, String)> {
    let rating = |x: Option<i64>| x.map_or("0".into(), |x| x.to_string());
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
