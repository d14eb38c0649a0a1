//! Team events end to end through the `arbiter` binary: eight teams of four boards in a round
//! robin, by match points or game points first.

mod events_support;

use events_support::*;

/// The designed team results: team `i`'s boards against team `j` (i < j), from i's side.
/// By default the lower-numbered team wins 2½-1½; the exceptions make the ties below.
fn team_boards(i: u64, j: u64) -> [&'static str; 4] {
    match (i, j) {
        // T3 and T4 end level on match and game points; T3 beat T4, so 直胜 (DE) decides.
        (3, 5) | (3, 6) => ["1/2"; 4],
        // T7 and T8 level on everything but the boards: T7 took board 1 off T1 (台次分, TBR).
        (7, 8) => ["1/2"; 4],
        (1, 7) => ["0-1", "1-0", "1-0", "1/2"],
        // T6's 4-0 over T2: by game points first, T6 is second.
        (2, 6) => ["0-1"; 4],
        _ => ["1-0", "1/2", "1/2", "1/2"],
    }
}

fn reversed(r: &str) -> &'static str {
    match r {
        "1-0" => "0-1",
        "0-1" => "1-0",
        _ => "1/2",
    }
}

/// Team `t`'s members as registered: four boards and a reserve.
fn members(t: u64) -> Vec<String> {
    ["a", "b", "c", "d", "e"].iter().map(|m| format!("T{t}{m}")).collect()
}

/// Checks a team pairing's boards as `pair`/`pairings` print them: the first four members of
/// each team in board order, board 1 of the first-named team red/white, then alternating.
fn check_boards(text: &str, id: &str, first: u64, second: u64) {
    let start = text
        .lines()
        .position(|l| l.trim() == format!("{id}  boards:"))
        .unwrap_or_else(|| panic!("no boards of {id}: {text}"));
    let boards: Vec<&str> = text.lines().skip(start + 1).take(4).collect();
    let (a, b) = (members(first), members(second));
    for (k, line) in boards.iter().enumerate() {
        let (ca, cb) = if k % 2 == 0 {
            ("red/white", "black")
        } else {
            ("black", "red/white")
        };
        let want = format!("{}. {} ({ca}) - {} ({cb})", k + 1, a[k], b[k]);
        assert!(
            line.trim_start().starts_with(&want),
            "{id} board {}: {line:?}, want {want:?}",
            k + 1
        );
    }
}

/// Eight teams of four boards (and a reserve) in a round robin, the boards entered from the
/// first-named team's side: 7 rounds, standings by match points 2/1/0 (or game points first)
/// and the CXA's order 局分, 直胜, 台次分.
fn team_round_robin(game_points_first: bool) -> Vec<(u64, u64, String, f64, Vec<f64>)> {
    let mut db = Db::new(if game_points_first { "teams-gp" } else { "teams-mp" });
    let mut create = vec![
        "tournament",
        "create",
        "Teams",
        "--format",
        "round-robin",
        "--boards",
        "4",
    ];
    if game_points_first {
        create.push("--game-points-first");
    }
    db.run(&create);
    for t in 1..=8u64 {
        let out = db.run(&[
            "tournament",
            "register",
            "Teams",
            &format!("T{t}"),
            "--members",
            &members(t).join(","),
        ]);
        assert!(out.starts_with(&format!("{t} T{t}")), "{out}");
    }
    let mut met = HashSet::new();
    for round in 1..=7 {
        let r = db.json(&["tournament", "pair", "Teams", "--json"]);
        let ps = pairings(&r);
        assert_eq!(ps.len(), 4, "round {round}: 8 teams, 4 matches");
        for (id, a, b) in &ps {
            assert_eq!(id, &format!("{round}.{}", id.split('.').nth(1).unwrap()));
            let b = b.expect("no byes with 8 teams");
            assert!(met.insert((*a.min(&b), *a.max(&b))), "T{a} and T{b} met twice");
            let boards: Vec<&str> = if *a < b {
                team_boards(*a, b).to_vec()
            } else {
                team_boards(b, *a).iter().map(|r| reversed(r)).collect()
            };
            let mut args = vec!["tournament", "result", "Teams", id.as_str()];
            args.extend(boards);
            db.run(&args);
        }
        let shown = db.run(&["tournament", "pairings", "Teams"]);
        for (id, a, b) in &ps {
            check_boards(&shown, id, *a, b.unwrap());
        }
        assert!(
            !shown.contains(&format!("T{}e", ps[0].1)),
            "a reserve does not play: {shown}"
        );
    }
    assert_eq!(met.len(), 28);
    let (ok, _, err) = db.try_run(&["tournament", "pair", "Teams"]);
    assert!(!ok && err.contains("finished"), "{err}");

    // Match and game points counted here from the designed results.
    let mut mp = [0.0; 9];
    let mut gp = [0.0; 9];
    for i in 1..=8u64 {
        for j in i + 1..=8 {
            let pts: f64 = team_boards(i, j)
                .iter()
                .map(|r| match *r {
                    "1-0" => 1.0,
                    "1/2" => 0.5,
                    _ => 0.0,
                })
                .sum();
            gp[i as usize] += pts;
            gp[j as usize] += 4.0 - pts;
            let (mi, mj) = match pts {
                p if p > 2.0 => (2.0, 0.0),
                p if p < 2.0 => (0.0, 2.0),
                _ => (1.0, 1.0),
            };
            mp[i as usize] += mi;
            mp[j as usize] += mj;
        }
    }
    let tables = db.json(&["tournament", "standings", "Teams", "--json"]);
    assert_eq!(tables.as_array().unwrap().len(), 1);
    let columns: Vec<&str> = tables[0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(columns, ["GP", "DE", "TBR"], "the CXA's team order by default");
    let table = lines(&tables[0]);
    for (_, id, name, points, tb) in &table {
        let primary = if game_points_first {
            gp[*id as usize]
        } else {
            mp[*id as usize]
        };
        assert_eq!(*points, primary, "{name}");
        assert_eq!(tb[0], gp[*id as usize], "{name}: game points");
    }
    let places: Vec<u64> = table.iter().map(|l| l.0).collect();
    assert_eq!(places, (1..=8).collect::<Vec<_>>(), "every tie is broken");
    let text = db.run(&["tournament", "standings", "Teams"]);
    assert!(text.contains("TBR"), "{text}");
    let cross = db.run(&["tournament", "crosstable", "Teams"]);
    assert!(cross.contains("T8"), "{cross}");
    table
}

#[test]
fn eight_teams_of_four_boards_in_a_round_robin_with_match_points() {
    let table = team_round_robin(false);
    let order: Vec<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(order, ["T1", "T2", "T3", "T4", "T6", "T5", "T7", "T8"]);
    let by = |name: &str| table.iter().find(|l| l.2 == name).unwrap().clone();
    let (t3, t4) = (by("T3"), by("T4"));
    assert_eq!((t3.3, t3.4[0]), (8.0, 14.5));
    assert_eq!((t4.3, t4.4[0]), (8.0, 14.5), "level with T3 on MP and GP");
    assert_eq!((t3.4[1], t4.4[1]), (1.0, 2.0), "直胜: T3 beat T4");
    let (t7, t8) = (by("T7"), by("T8"));
    assert_eq!((t7.3, t7.4[0], t8.3, t8.4[0]), (1.0, 11.0, 1.0, 11.0));
    assert_eq!((t7.4[1], t8.4[1]), (0.0, 0.0), "their drawn match separates nothing");
    assert_eq!((t7.4[2], t8.4[2]), (1.0, 2.0), "台次分: T7's board-1 win");
}

#[test]
fn eight_teams_ranked_by_game_points_first() {
    let table = team_round_robin(true);
    let order: Vec<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(order, ["T1", "T6", "T3", "T4", "T2", "T5", "T7", "T8"]);
    let by = |name: &str| table.iter().find(|l| l.2 == name).unwrap().clone();
    let (t2, t5) = (by("T2"), by("T5"));
    assert_eq!((t2.3, t5.3), (14.0, 14.0), "level on game points");
    assert_eq!((t2.4[1], t5.4[1]), (1.0, 2.0), "T2 beat T5");
}

/// Points of each team in a one-table event's standings, by id.
fn points_by_id(db: &mut Db, event: &str) -> HashMap<u64, f64> {
    let tables = db.json(&["tournament", "standings", event, "--json"]);
    lines(&tables[0]).into_iter().map(|l| (l.1, l.3)).collect()
}

/// A correction of a team Swiss's match entered board by board: while only part of it is in,
/// the Swiss counts nothing of the result it replaces (not in the standings, not for pairing),
/// and once complete the next round's Dutch pairing follows it.
#[test]
fn a_team_swiss_correction_entered_in_part_counts_nothing_until_complete() {
    let mut db = Db::new("team-swiss-correction");
    db.run(&[
        "tournament",
        "create",
        "TS",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--boards",
        "2",
    ]);
    for t in 1..=4u64 {
        let members = format!("T{t}a,T{t}b");
        db.run(&["tournament", "register", "TS", &format!("T{t}"), "--members", &members]);
    }
    let r1 = pairings(&db.json(&["tournament", "pair", "TS", "--json"]));
    let [(a_id, a1, a2), (b_id, b1, b2)] = &r1[..] else {
        panic!("two matches: {r1:?}")
    };
    let (a2, b2) = (a2.unwrap(), b2.unwrap());
    db.run(&["tournament", "result", "TS", a_id, "1/2", "1/2"]);
    db.run(&["tournament", "result", "TS", b_id, "1-0", "1-0"]);
    let p = points_by_id(&mut db, "TS");
    assert!(p[a1] > 0.0 && p[a1] == p[&a2] && p[a1] < p[b1], "{p:?}");

    // The correction's first board only: the drawn match no longer counts.
    db.run(&["tournament", "result", "TS", a_id, "1-0", "--replace"]);
    let p = points_by_id(&mut db, "TS");
    assert_eq!((p[a1], p[&a2]), (p[&b2], p[&b2]), "nothing counted for {a_id}: {p:?}");
    let (ok, _, err) = db.try_run(&["tournament", "pair", "TS"]);
    assert!(!ok && err.contains(a_id.as_str()), "{err}");

    // Its second board: a 2-0 win for the first-named team, which meets the other winner.
    db.run(&["tournament", "result", "TS", a_id, "1-0"]);
    let p = points_by_id(&mut db, "TS");
    assert_eq!((p[a1], p[&a2]), (p[b1], p[&b2]), "{p:?}");
    let r2 = pairings(&db.json(&["tournament", "pair", "TS", "--json"]));
    let met: HashSet<(u64, u64)> = r2
        .iter()
        .map(|(_, x, y)| ((*x).min(y.unwrap()), (*x).max(y.unwrap())))
        .collect();
    let pair = |x: u64, y: u64| (x.min(y), x.max(y));
    assert_eq!(
        met,
        HashSet::from([pair(*a1, *b1), pair(a2, b2)]),
        "winners meet: {r2:?}"
    );
}

/// The designed boards of a team Swiss match between teams `i` < `j`, from i's side: the
/// lower number wins, by a margin that varies with the pair, so teams level on match points
/// differ in game points and boards; T2-T3 is drawn.
fn swiss_boards(i: u64, j: u64) -> [&'static str; 3] {
    match (i, j) {
        (2, 3) => ["1-0", "0-1", "1/2"],
        _ if (i + j).is_multiple_of(3) => ["1-0", "1-0", "1-0"],
        _ if (i + j) % 3 == 1 => ["1-0", "1/2", "1/2"],
        _ => ["0-1", "1-0", "1-0"],
    }
}

fn board_points(r: &str) -> f64 {
    match r {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    }
}

/// Six teams of three boards in a three-round Swiss (FIDE Dutch on the match results), ranked
/// as a team table: match points 2/1/0 (or game points first), then the CXA's 局分, 直胜,
/// 台次分, as the team round robin is.
fn team_swiss(game_points_first: bool) {
    let mut db = Db::new(if game_points_first {
        "team-swiss-gp"
    } else {
        "team-swiss"
    });
    let mut create = vec![
        "tournament",
        "create",
        "TS",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--boards",
        "3",
    ];
    if game_points_first {
        create.push("--game-points-first");
    }
    db.run(&create);
    for t in 1..=6u64 {
        let members = format!("T{t}a,T{t}b,T{t}c");
        let rating = (2000 - t).to_string();
        db.run(&[
            "tournament",
            "register",
            "TS",
            &format!("T{t}"),
            "--members",
            &members,
            "--rating",
            &rating,
        ]);
    }
    // Match points, game points and each board's points, recounted here from what was entered.
    let (mut mp, mut gp) = ([0.0f64; 7], [0.0f64; 7]);
    let mut outcome: HashMap<(u64, u64), f64> = HashMap::new();
    for _ in 1..=3 {
        let r = db.json(&["tournament", "pair", "TS", "--json"]);
        for (id, a, b) in pairings(&r) {
            let b = b.expect("six teams, no bye");
            let boards: Vec<&str> = if a < b {
                swiss_boards(a, b).to_vec()
            } else {
                swiss_boards(b, a).iter().map(|x| reversed(x)).collect()
            };
            let ga: f64 = boards.iter().map(|x| board_points(x)).sum();
            let (ma, mb) = match ga {
                x if x > 1.5 => (2.0, 0.0),
                x if x < 1.5 => (0.0, 2.0),
                _ => (1.0, 1.0),
            };
            (mp[a as usize], mp[b as usize]) = (mp[a as usize] + ma, mp[b as usize] + mb);
            (gp[a as usize], gp[b as usize]) = (gp[a as usize] + ga, gp[b as usize] + 3.0 - ga);
            outcome.insert((a, b), ma / 2.0);
            outcome.insert((b, a), mb / 2.0);
            let mut args = vec!["tournament", "result", "TS", id.as_str()];
            args.extend(boards);
            db.run(&args);
        }
    }
    let tables = db.json(&["tournament", "standings", "TS", "--json"]);
    let columns: Vec<&str> = tables[0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        columns,
        ["GP", "DE", "TBR"],
        "the team order, as the team round robin has it"
    );
    let table = lines(&tables[0]);
    assert_eq!(table.len(), 6);
    let (first, second) = if game_points_first { (&gp, &mp) } else { (&mp, &gp) };
    for (_, id, name, points, tb) in &table {
        assert_eq!(*points, first[*id as usize], "{name}");
        assert_eq!(tb[0], gp[*id as usize], "{name}: game points");
    }
    let key = |id: u64| (first[id as usize], second[id as usize]);
    assert!(
        table.windows(2).all(|w| key(w[0].1) >= key(w[1].1)),
        "ranked by {} then game points: {table:?}",
        if game_points_first {
            "game points"
        } else {
            "match points"
        }
    );
    // Ties on match points that a tie-break decides (by game points, the designed results
    // leave none).
    let decided = table
        .windows(2)
        .filter(|w| first[w[0].1 as usize] == first[w[1].1 as usize] && w[0].0 < w[1].0)
        .count();
    assert!(game_points_first || decided > 0, "a tie broken: {table:?}");

    // The crosstable: each team's matches, won, drawn or lost as entered.
    let cross = db.json(&["tournament", "crosstable", "TS", "--json"]);
    let teams = cross[0]["players"].as_array().unwrap();
    assert_eq!(teams.len(), 6);
    for t in teams {
        let name = t["name"].as_str().unwrap();
        let me: u64 = name[1..].parse().unwrap();
        let number = |n: u64| {
            let p = teams.iter().find(|p| p["number"].as_u64() == Some(n)).unwrap();
            p["name"].as_str().unwrap()[1..].parse::<u64>().unwrap()
        };
        let rounds = t["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 3, "{name}");
        for r in rounds {
            let them = number(r["opponent"].as_u64().unwrap());
            let score = r["result"]["Game"]["score"].as_str().unwrap();
            let want = match outcome[&(me, them)] {
                1.0 => "Win",
                0.5 => "Draw",
                _ => "Loss",
            };
            assert_eq!(score, want, "{name} against T{them}");
        }
    }
    let text = db.run(&["tournament", "crosstable", "TS"]);
    assert!(text.contains("T6"), "{text}");
}

#[test]
fn a_team_swiss_is_ranked_as_a_team_table() {
    team_swiss(false);
}

#[test]
fn a_team_swiss_ranked_by_game_points_first() {
    team_swiss(true);
}
