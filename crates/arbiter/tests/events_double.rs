//! A 64-player double elimination run end to end through the `arbiter` binary, with and without
//! the grand-final reset.

mod events_support;

use events_support::*;

/// A 64-player double elimination, every game picked by the generator except the first game
/// of the grand final, which goes to the losers' bracket finalist when `reset`.
fn double_elimination(reset: bool) {
    let started = Instant::now();
    let mut db = Db::new(if reset { "de-reset" } else { "de-straight" });
    let n = 64u64;
    db.run(&[
        "tournament",
        "create",
        "DE",
        "--format",
        "double-knockout",
        "--games",
        "1",
        "--seed",
        "64",
    ]);
    for i in 1..=n {
        let rating = (2600 - 10 * i).to_string();
        db.run(&["tournament", "register", "DE", &format!("P{i}"), "--rating", &rating]);
    }
    let mut rng = if reset { 11 } else { 12 };
    let mut losses: BTreeMap<u64, u32> = (1..=n).map(|i| (i, 0)).collect();
    let mut played = 0;
    let mut ids = HashSet::new();
    let mut grand_final = Vec::new();
    // The round (the id before its dot: W3, L5, GF) in which each entrant lost the second time.
    let mut out_in: HashMap<u64, String> = HashMap::new();
    for round in 1.. {
        let (ok, out, err) = db.try_run(&["tournament", "pair", "DE", "--json"]);
        if !ok {
            assert!(err.contains("finished"), "round {round}: {err}");
            break;
        }
        let r: Value = serde_json::from_str(&out).unwrap();
        let ps = pairings(&r);
        if round == 1 {
            // Seed 1 meets seed 64, seed 2 meets seed 63, …: 32 first-round matches, no bye.
            assert_eq!(ps.len(), 32);
            for (id, a, b) in &ps {
                assert!(id.starts_with("W1."), "{id}");
                assert_eq!(a + b.unwrap(), n + 1, "{id}: seeds pair from the outside in");
            }
        }
        for (id, a, b) in ps {
            assert!(ids.insert(id.clone()), "{id} paired twice");
            let b = b.expect("a 64-bracket has no byes");
            assert!(losses[&a] < 2 && losses[&b] < 2, "{id}: someone out is still playing");
            let first_wins = if id == "GF.1" {
                // The winners' bracket finalist comes in unbeaten, the other with one loss.
                let (lb_finalist_first, wb_finalist_first) = (losses[&a] == 1, losses[&a] == 0);
                assert!(losses[&a] + losses[&b] == 1, "GF.1: one finalist has lost once");
                if reset {
                    lb_finalist_first
                } else {
                    wb_finalist_first
                }
            } else {
                next(&mut rng).is_multiple_of(2)
            };
            if id.starts_with("GF.") {
                grand_final.push(id.clone());
            }
            let out = db.run(&[
                "tournament",
                "result",
                "DE",
                &id,
                if first_wins { "1-0" } else { "0-1" },
            ]);
            assert!(out.contains("won by"), "{out}");
            let loser = if first_wins { b } else { a };
            *losses.get_mut(&loser).unwrap() += 1;
            if losses[&loser] == 2 {
                out_in.insert(loser, id.split('.').next().unwrap().to_string());
            }
            played += 1;
        }
        assert!(round < 40, "the bracket does not end");
    }
    assert_eq!(played, if reset { 2 * n - 1 } else { 2 * n - 2 });
    let expected_gf: Vec<&str> = if reset { vec!["GF.1", "GF.2"] } else { vec!["GF.1"] };
    assert_eq!(grand_final, expected_gf);
    let unbeaten_twice: Vec<u64> = losses.iter().filter(|(_, &l)| l < 2).map(|(&i, _)| i).collect();
    assert_eq!(
        unbeaten_twice.len(),
        1,
        "only the champion has not lost twice: {losses:?}"
    );
    let champion = unbeaten_twice[0];
    assert_eq!(
        losses[&champion],
        u32::from(reset),
        "the champion lost only a reset GF.1"
    );
    assert!(losses.values().all(|&l| l <= 2));

    let standings = db.json(&["tournament", "standings", "DE", "--json"]);
    let table = lines(&standings[0]);
    assert_eq!(table.len(), 64);
    assert_eq!(table[0].0, 1);
    assert_eq!(table[0].1, champion);
    assert_eq!(table[1].0, 2, "one runner-up");
    assert!(table.windows(2).all(|w| w[0].0 <= w[1].0), "places in order");
    let names: HashSet<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(names.len(), 64, "everyone placed once");
    // Below the final, those out in the same losers' round share a place, a later round placing
    // higher.
    for w in table[1..].windows(2) {
        let (x, y) = (&out_in[&w[0].1], &out_in[&w[1].1]);
        assert_eq!(
            w[0].0 == w[1].0,
            x == y,
            "{} (out in {x}) and {} (out in {y})",
            w[0].2,
            w[1].2
        );
    }
    assert!(table[2..].iter().all(|l| out_in[&l.1].starts_with('L')));
    assert_eq!(table[2].0, 3, "the losers' final's loser is third alone");
    let bracket = db.run(&["tournament", "bracket", "DE"]);
    let champ_line = format!("P{champion} ");
    assert!(
        bracket
            .lines()
            .any(|l| l.contains("champion") && l.contains(&champ_line)),
        "{bracket}"
    );
    assert!(bracket.contains("runner-up"), "{bracket}");
    assert!(bracket.contains("    GF.1  "), "{bracket}");
    assert_eq!(bracket.contains("    GF.2  "), reset, "{bracket}");
    let text = db.run(&["tournament", "standings", "DE"]);
    assert!(text.starts_with("double-knockout\n"), "{text}");
    eprintln!(
        "double elimination of 64 (reset: {reset}): {} commands in {:.1?}",
        db.spawns,
        started.elapsed()
    );
}

#[test]
fn double_elimination_of_64_without_a_reset() {
    double_elimination(false);
}

#[test]
fn double_elimination_of_64_with_the_grand_final_reset() {
    double_elimination(true);
}
