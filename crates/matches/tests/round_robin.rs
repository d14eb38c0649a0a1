//! Three or more engines: a round robin played as a Berger event, written as a TRF the
//! tournament crate reads back, with standings after each round.

use std::time::{Duration, Instant};

use judge::xiangqi::{Rules, XiangqiJudge};
use matches::runner::{run_match, Entrant};
use tournament::result::{Bye, RoundResult};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::fake;
use support::{config, dir, nodes, pgn_tags};

/// Three engines play a round robin as a round-robin event: rounds in the order of the Berger
/// tables (each pairing's games in a row), the match written as a TRF that the tournament
/// crate reads back with every game once and the PGN's points, and standings with SB and DE
/// printed after each round and at the end.
#[test]
fn a_round_robin_of_three_is_a_berger_event_with_a_trf_and_standings() {
    let Some(alpha) = fake("alpha", "uci.py", &[]) else {
        return;
    };
    let Some(beta) = fake("beta", "uci.py", &[]) else {
        return;
    };
    let Some(dies) = fake("dies", "exit.py", &[]) else {
        return;
    };
    let d = dir("round-robin");
    let pgn = d.join("rr.pgn");
    let trf_path = d.join("rr.trf");
    let engines = [alpha, beta, dies]
        .into_iter()
        .map(|config| Entrant {
            config,
            control: nodes(100),
        })
        .collect();
    let mut cfg = config(engines, 2, &pgn);
    cfg.trf_out = Some(trf_path.clone());
    let started = Instant::now();
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let report = matches::runner::report(&summary, &cfg);
    println!("{out}{report}");
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());

    // Berger for three (4 is the bye): round 1 2-3, round 2 1-2, round 3 3-1; each pairing's
    // two games in a row, the table's colours first.
    let expected = [
        ("beta", "dies"),
        ("dies", "beta"),
        ("alpha", "beta"),
        ("beta", "alpha"),
        ("dies", "alpha"),
        ("alpha", "dies"),
    ];
    let mut finished = summary.finished.clone();
    finished.sort_by_key(|g| g.number);
    let order: Vec<(&str, &str)> = finished.iter().map(|g| (g.first.as_str(), g.second.as_str())).collect();
    assert_eq!(order, expected);
    let tags = pgn_tags(&pgn);
    assert_eq!(tags.len(), 6);
    let mut by_round: Vec<(u32, String, String, String)> = tags
        .iter()
        .map(|t| {
            (
                t["Round"].parse().unwrap(),
                t["Red"].clone(),
                t["Black"].clone(),
                t["Result"].clone(),
            )
        })
        .collect();
    by_round.sort();
    // The PGN's Round is the Berger round (both games of its pairing have it).
    let mut expected_rounds: Vec<(u32, &str, &str)> = expected
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| (i as u32 / 2 + 1, a, b))
        .collect();
    expected_rounds.sort();
    for ((round, red, black, _), (r, first, second)) in by_round.iter().zip(expected_rounds) {
        assert_eq!(
            (*round, red.as_str(), black.as_str()),
            (r, first, second),
            "round {round}"
        );
    }
    // In the schedule's order again.
    let by_round: Vec<(u32, String, String, String)> = expected
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            by_round
                .iter()
                .find(|(r, red, black, _)| *r == i as u32 / 2 + 1 && red == a && black == b)
                .unwrap()
                .clone()
        })
        .collect();
    // The engine that dies loses every game.
    for (_, red, black, result) in &by_round {
        if red == "dies" {
            assert_eq!(result, "0-1");
        } else if black == "dies" {
            assert_eq!(result, "1-0");
        }
    }

    // The TRF, read back by the tournament crate: every game once, in its colours, with its
    // result; the points are the PGN's.
    let trf = tournament::trf::Trf::parse(&std::fs::read_to_string(&trf_path).unwrap()).unwrap();
    let names: Vec<&str> = trf.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta", "dies"]);
    assert_eq!(trf.record("142"), Some("6"));
    let number = |name: &str| names.iter().position(|n| *n == name).unwrap() as u32 + 1;
    let mut games = 0;
    for p in &trf.players {
        assert_eq!(p.rounds.len(), 6);
        for (r, round) in p.rounds.iter().enumerate() {
            if round.opponent == 0 {
                // A bye: a pairing-allocated one worth nothing (`162  P 0.0`).
                assert_eq!(
                    round.result,
                    RoundResult::Bye(Bye::PairingAllocated),
                    "{} round {}",
                    p.name,
                    r + 1
                );
                continue;
            }
            assert!(round.played(), "{} round {}: {round:?}", p.name, r + 1);
            if round.colour == tournament::trf::Colour::White {
                games += 1;
                // TRF round (Berger round − 1) × 2 + game: the schedule's order, so game r + 1.
                let (_, red, black, result) = &by_round[r];
                assert_eq!(
                    (number(red), number(black)),
                    (p.number, round.opponent),
                    "round {}",
                    r + 1
                );
                let code = match result.as_str() {
                    "1-0" => RoundResult::WIN,
                    "0-1" => RoundResult::LOSS,
                    _ => RoundResult::DRAW,
                };
                assert_eq!(round.result, code, "round {}", r + 1);
            }
        }
        // Two games against each of the two others, two rounds of bye.
        assert_eq!(p.rounds.iter().filter(|r| r.played()).count(), 4, "{}", p.name);
    }
    assert_eq!(games, 6);
    for p in &trf.players {
        let from_pgn: f64 = by_round
            .iter()
            .map(|(_, red, black, result)| match result.as_str() {
                "1-0" if red == &p.name => 1.0,
                "0-1" if black == &p.name => 1.0,
                "1/2-1/2" if red == &p.name || black == &p.name => 0.5,
                _ => 0.0,
            })
            .sum();
        assert_eq!(p.points, from_pgn, "{}", p.name);
        let recounted: f64 = p.rounds.iter().filter(|r| r.played()).map(|r| r.points()).sum();
        assert_eq!(recounted, from_pgn, "{}", p.name);
    }
    assert_eq!(trf.record("202"), Some("SB,DE"));
    assert_eq!(tournament::event::point_system(&trf).pab, 0);

    // Standings by the tournament crate: after each round in the progress, and at the end in
    // the crate's order (points, SB, DE), with the ranks written in the TRF.
    let table = tournament::standings::standings(&trf, &matches::event::DEFAULT_TIEBREAKS);
    assert_eq!(table.last().unwrap().name, "dies");
    for row in &table {
        assert_eq!(row.points, trf.player(row.number).unwrap().points, "{}", row.name);
    }
    // Every round is announced once complete (with concurrency, several may complete at once).
    let mut announced = Vec::new();
    for line in out
        .lines()
        .filter(|l| l.ends_with(" of 3 complete; standings (points, then SB, DE):"))
    {
        let which = line.split(" of 3").next().unwrap();
        let (from, to) = match which.strip_prefix("Rounds ") {
            Some(range) => range.split_once('-').unwrap(),
            None => (
                which.strip_prefix("Round ").unwrap(),
                which.strip_prefix("Round ").unwrap(),
            ),
        };
        announced.extend(from.parse::<u32>().unwrap()..=to.parse::<u32>().unwrap());
    }
    assert_eq!(announced, [1, 2, 3], "{out}");
    let shown = report
        .split("Standings (points, then SB, DE):\n")
        .nth(1)
        .expect("standings in the report");
    let shown: Vec<&str> = shown.lines().take(3).collect();
    for (line, row) in shown.iter().zip(&table) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], format!("{}.", row.place), "{line}");
        assert_eq!(words[1], row.name, "{line}");
        assert_eq!(words[2].parse::<f64>().unwrap(), row.points, "{line}");
        assert!(line.contains(&format!("SB {}", row.tiebreaks[0])), "{line}");
        assert!(line.contains(&format!("DE {}", row.tiebreaks[1])), "{line}");
    }
    let text = std::fs::read_to_string(&trf_path).unwrap();
    for row in &table {
        let line = text
            .lines()
            .find(|l| l.starts_with("001") && l[14..].starts_with(&row.name))
            .unwrap();
        assert_eq!(line[85..89].trim(), row.place.to_string(), "{line}");
    }
    // Resumed when done, the match plays nothing and writes the same TRF from its state file.
    let mut again = cfg.clone();
    again.resume = true;
    std::fs::remove_file(&trf_path).unwrap();
    let s = run_match(&again, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!((s.played, s.finished.len()), (0, 6));
    // (But for the date, which may have turned.)
    let undated = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("042"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(undated(&std::fs::read_to_string(&trf_path).unwrap()), undated(&text));
}
