//! Round robins and groups as an organiser runs them through `arbiter tournament …`: FIDE's
//! Berger tables for 10 and for a double round robin of 6, seeded groups into a knockout.

mod events_cli;

use events_cli::*;

#[test]
fn a_round_robin_of_10_plays_fides_berger_table() {
    let db = Db::new("rr");
    db.ok(&["create", "Club", "--format", "round-robin", "--tiebreaks", "DE,WIN,SB"]);
    let ratings = [1800, 2100, 1950, 2300, 1700, 2000, 2200, 1850, 2050, 1900];
    let (seeds, names) = register_field(&db, "Club", &ratings);
    let number = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;
    let table = fide_berger(10);

    let mut met = BTreeSet::new();
    // Per Berger number: points, wins, and (opponent, points scored against them).
    let mut score = [0.0f64; 11];
    let mut wins = [0u32; 11];
    let mut games: Vec<Vec<(u32, f64)>> = vec![Vec::new(); 11];
    // Per Berger number and round: the crosstable's cell.
    let mut cells = vec![Vec::new(); 11];
    for (r, fide) in table.iter().enumerate() {
        let round = db.pair("Club");
        let boards: Vec<(u32, u32)> = round
            .pairings
            .iter()
            .map(|p| (number(p.first), number(p.second.expect("an even field has no bye"))))
            .collect();
        assert_eq!(&boards, fide, "round {}: colours and boards as FIDE's table", r + 1);
        for (p, &(w, b)) in round.pairings.iter().zip(&boards) {
            assert_eq!(
                p.id,
                format!("{}.{}", r + 1, boards.iter().position(|x| *x == (w, b)).unwrap() + 1)
            );
            assert!(met.insert((w.min(b), w.max(b))), "{w} and {b} meet twice");
            let result = sheet(w, b);
            db.result("Club", &p.id, &[result]);
            let (pw, pb) = points(result);
            for (me, them, mine, colour) in [(w, b, pw, 'w'), (b, w, pb, 'b')] {
                score[me as usize] += mine;
                wins[me as usize] += u32::from(mine == 1.0);
                games[me as usize].push((them, mine));
                let shown = if mine == 1.0 {
                    "1"
                } else if mine == 0.0 {
                    "0"
                } else {
                    "½"
                };
                cells[me as usize].push(format!("{them}{colour}{shown}"));
            }
        }
    }
    assert_eq!(met.len(), 45, "every pair of ten meets once");
    let (ok, _, err) = db.run(&["pair", "Club"]);
    assert!(!ok && err.contains("finished"), "{err}");

    // Standings: points, wins and Sonneborn-Berger as the results give them, in order.
    let tables = db.standings("Club");
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0]["columns"], serde_json::json!(["DE", "WIN", "SB"]));
    let lines = tables[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 10);
    let mut previous: Option<Vec<f64>> = None;
    for (i, l) in lines.iter().enumerate() {
        let n = number(l["id"].as_u64().unwrap() as u32) as usize;
        let tb: Vec<f64> = l["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let sb: f64 = games[n].iter().map(|&(o, p)| p * score[o as usize]).sum();
        assert_eq!(l["points"].as_f64().unwrap(), score[n], "{l}");
        assert_eq!(tb[1], f64::from(wins[n]), "WIN of {l}");
        assert_eq!(tb[2], sb, "SB of {l}");
        // DE is a rank among the tied (1 first, 0 for the untied): two tied on points are
        // separated by their own game.
        let tied: Vec<usize> = (1..=10).filter(|&m| m != n && score[m] == score[n]).collect();
        match tied[..] {
            [] => assert_eq!(tb[0], 0.0, "{l}"),
            [m] => {
                let own = games[n].iter().find(|g| g.0 as usize == m).unwrap().1;
                let want = if own == 1.0 {
                    1.0
                } else if own == 0.0 {
                    2.0
                } else {
                    1.0
                };
                assert_eq!(tb[0], want, "DE of {l} against {m}");
            }
            _ => {}
        }
        let key: Vec<f64> = [score[n], -tb[0], tb[1], tb[2]].to_vec();
        if let Some(prev) = &previous {
            assert!(prev >= &key, "ranked by points then DE, WIN, SB: {lines:?}");
            let place = l["place"].as_u64().unwrap() as usize;
            assert_eq!(
                place == i + 1,
                prev != &key,
                "a shared place only for equal keys: {lines:?}"
            );
        }
        previous = Some(key);
    }

    // The crosstable, by Berger number: every round's opponent, colour and result.
    let crosstable = db.ok(&["crosstable", "Club"]);
    let mut rows = 0;
    for line in crosstable.lines().skip(2) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let n: usize = cols[1].parse().unwrap();
        assert_eq!(cols[2], names[&seeds[n - 1]], "{line}");
        assert_eq!(&cols[4..13], &cells[n][..], "{line}");
        assert_eq!(cols[13].parse::<f64>().unwrap(), score[n], "{line}");
        rows += 1;
    }
    assert_eq!(rows, 10, "{crosstable}");

    let html = db.ok(&["standings", "Club", "--html"]);
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"),
        "{html}"
    );
    for needed in ["<th>DE</th>", "<th>WIN</th>", "<th>SB</th>"] {
        assert!(html.contains(needed), "{needed}: {html}");
    }
    assert!(names.values().all(|n| html.contains(n.as_str())));
    assert!(
        !html.contains("<script") && !html.contains("<link") && !html.contains("src="),
        "standalone"
    );
}

#[test]
fn a_double_round_robin_of_6_reverses_colours_in_its_second_cycle() {
    let db = Db::new("drr");
    db.ok(&[
        "create",
        "Double",
        "--format",
        "double-round-robin",
        "--points",
        "2/1/0",
    ]);
    let (seeds, _) = register_field(&db, "Double", &[1500, 1900, 1600, 2000, 1700, 1800]);
    let number = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;
    let fide = fide_berger(6);
    // FIDE's double round robin: the first cycle with its last two rounds swapped (so nobody
    // has three games running with one colour across the cycles), then the table again with
    // colours reversed.
    let mut expected: Vec<Vec<(u32, u32)>> = fide.clone();
    expected.swap(3, 4);
    expected.extend(fide.iter().map(|r| r.iter().map(|&(w, b)| (b, w)).collect::<Vec<_>>()));

    let mut colours: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut score = [0.0f64; 7];
    for (r, want) in expected.iter().enumerate() {
        let round = db.pair("Double");
        let boards: Vec<(u32, u32)> = round
            .pairings
            .iter()
            .map(|p| (number(p.first), number(p.second.unwrap())))
            .collect();
        assert_eq!(&boards, want, "round {}", r + 1);
        for (p, &(w, b)) in round.pairings.iter().zip(&boards) {
            *colours.entry((w, b)).or_default() += 1;
            let result = sheet(w, b);
            db.result("Double", &p.id, &[result]);
            let (pw, pb) = points(result);
            score[w as usize] += 2.0 * pw;
            score[b as usize] += 2.0 * pb;
        }
    }
    assert_eq!(expected.len(), 10);
    // Each pair meets twice, once with each colour.
    assert_eq!(colours.len(), 30);
    assert!(colours.values().all(|&c| c == 1));
    let (ok, _, err) = db.run(&["pair", "Double"]);
    assert!(!ok && err.contains("finished"), "{err}");

    let tables = db.standings("Double");
    let lines = tables[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6);
    for l in lines {
        let n = number(l["id"].as_u64().unwrap() as u32) as usize;
        assert_eq!(l["points"].as_f64().unwrap(), score[n], "2/1/0 points: {l}");
    }
    let points: Vec<f64> = lines.iter().map(|l| l["points"].as_f64().unwrap()).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert_eq!(points.iter().sum::<f64>(), 2.0 * 30.0, "two points a game");
}

#[test]
fn four_seeded_groups_of_six_send_their_top_two_to_a_knockout() {
    let db = Db::new("groups");
    db.ok(&[
        "create",
        "Cup",
        "--format",
        "groups",
        "--groups",
        "4",
        "--advance",
        "2",
        "--final",
        "knockout",
    ]);
    let ratings: Vec<u32> = (0..24).map(|i| 2000 + (i * 7 % 24) * 10).collect();
    let (seeds, _) = register_field(&db, "Cup", &ratings);
    let seed_of = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;

    let first = db.pair("Cup");
    let stages = db.json(&["pairings", "Cup", "--json"]);
    let groups: Vec<Vec<u32>> = stages[0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect()
        })
        .collect();
    assert_eq!(groups.len(), 4);
    // Seeds dealt in snake order: A 1 8 9 16 17 24, B 2 7 10 15 18 23, …
    for (g, members) in groups.iter().enumerate() {
        let mut got: Vec<u32> = members.iter().map(|&id| seed_of(id)).collect();
        got.sort();
        let g = g as u32;
        assert_eq!(got, [g + 1, 8 - g, 9 + g, 16 - g, 17 + g, 24 - g], "group {g}");
    }
    let group_of = |id: u32| groups.iter().position(|m| m.contains(&id)).unwrap();
    // Each group finishes in an order the results force: group A by rating, the others with
    // their seeds rotated, so a top seed can finish last. The earlier in the order wins.
    let finish: Vec<Vec<u32>> = groups
        .iter()
        .enumerate()
        .map(|(g, m)| {
            let mut by_seed = m.clone();
            by_seed.sort_by_key(|&id| seed_of(id));
            by_seed.rotate_left(g);
            by_seed
        })
        .collect();
    let rank = |id: u32| finish[group_of(id)].iter().position(|&x| x == id).unwrap();

    let mut round = first;
    for r in 1..=5 {
        assert_eq!(
            round.games().len(),
            12,
            "round {r}: three boards in each of four groups"
        );
        let mut met = BTreeSet::new();
        for p in &round.pairings {
            let (a, b) = (p.first, p.second.unwrap());
            assert_eq!(group_of(a), group_of(b), "{p:?} stays in its group");
            let letter = (b'A' + group_of(a) as u8) as char;
            assert!(p.id.starts_with(&format!("{letter}{r}.")), "{p:?}");
            assert!(met.insert(a) && met.insert(b));
            db.result("Cup", &p.id, &[if rank(a) < rank(b) { "1-0" } else { "0-1" }]);
        }
        if r < 5 {
            round = db.pair("Cup");
        }
    }

    // The group tables: the forced order, 5 4 3 2 1 0 points, nobody sharing a place.
    let tables = db.standings("Cup");
    for (g, order) in finish.iter().enumerate() {
        let lines = tables[g]["lines"].as_array().unwrap();
        let got: Vec<(u64, u64, f64)> = lines
            .iter()
            .map(|l| {
                (
                    l["place"].as_u64().unwrap(),
                    l["id"].as_u64().unwrap(),
                    l["points"].as_f64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(u64, u64, f64)> = order
            .iter()
            .enumerate()
            .map(|(i, &id)| (i as u64 + 1, u64::from(id), 5.0 - i as f64))
            .collect();
        assert_eq!(got, want, "group {g}");
    }

    // The knockout of the top two: winners kept apart until the semi-finals, group mates apart
    // in the quarter-finals, each quarter-final a winner against a runner-up.
    let winners: Vec<u32> = finish.iter().map(|o| o[0]).collect();
    let runners: Vec<u32> = finish.iter().map(|o| o[1]).collect();
    let quarters = db.pair("Cup");
    assert_eq!(quarters.games().len(), 4, "{quarters:?}");
    assert!(quarters.byes().is_empty());
    let mut in_final = BTreeSet::new();
    for (k, p) in quarters.pairings.iter().enumerate() {
        let (a, b) = (p.first, p.second.unwrap());
        in_final.extend([a, b]);
        assert_ne!(group_of(a), group_of(b), "group mates in a quarter-final: {p:?}");
        assert_eq!(winners.contains(&a), runners.contains(&b), "{p:?}");
        assert!(winners.contains(&a) != winners.contains(&b), "{p:?}");
        // Two group winners go through, two runners-up beat theirs.
        let winner_wins = k < 2;
        let winner_first = winners.contains(&a);
        db.result("Cup", &p.id, &[if winner_wins == winner_first { "1-0" } else { "0-1" }]);
    }
    assert_eq!(in_final, winners.iter().chain(&runners).copied().collect());
    let semis = db.pair("Cup");
    assert_eq!(semis.games().len(), 2, "{semis:?}");
    for p in &semis.pairings {
        assert_ne!(
            group_of(p.first),
            group_of(p.second.unwrap()),
            "group mates in a semi-final: {p:?}"
        );
        db.result("Cup", &p.id, &["1-0"]);
    }
    let last = db.pair("Cup");
    assert_eq!(last.games().len(), 1, "{last:?}");
    let champion = last.pairings[0].second.unwrap();
    let out = db.result("Cup", &last.pairings[0].id, &["0-1"]);
    assert!(out.contains("the event is finished"), "{out}");
    let (ok, _, err) = db.run(&["pair", "Cup"]);
    assert!(!ok && err.contains("finished"), "{err}");

    let tables = db.standings("Cup");
    assert_eq!(tables.len(), 5, "four groups and the final");
    let final_table = &tables[4];
    assert_eq!(final_table["stage"], 1);
    let lines = final_table["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        (lines[0]["place"].as_u64(), lines[0]["id"].as_u64()),
        (Some(1), Some(u64::from(champion)))
    );
    assert_eq!(lines[1]["place"], 2);
}
