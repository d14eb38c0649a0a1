use super::*;
use crate::result::Score;

fn field(e: &mut Event, n: u32) {
    for i in 1..=n {
        e.register(&format!("P{i}"), 3000 - i, "", &[]).unwrap();
    }
}

/// Plays every open pairing of the current round: the first-named wins unless `score` says.
fn play_round(e: &mut Event, round: &Round, mut score: impl FnMut(&Pairing) -> Vec<&'static str>) {
    for p in round.pairings.iter().filter(|p| p.second.is_some()) {
        if e.pairing(&p.id).unwrap().games.is_empty() {
            e.result(&p.id, &score(p), false).unwrap();
        }
    }
}

#[test]
fn a_round_robin_meets_every_pair_once_and_then_is_finished() {
    let mut e = Event::new("rr", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
    field(&mut e, 5);
    let mut met = std::collections::HashSet::new();
    for _ in 0..5 {
        let round = e.pair().unwrap();
        for p in &round.pairings {
            if let Some(b) = p.second {
                assert!(met.insert((p.first.min(b), p.first.max(b))), "{p:?} met twice");
            }
        }
        play_round(&mut e, &round, |_| vec!["1/2"]);
    }
    assert_eq!(met.len(), 10);
    assert!(e.finished());
    assert!(e.pair().unwrap_err().0.contains("finished"));
    let t = &e.standings().unwrap()[0];
    assert!(t.lines.iter().all(|l| l.points == 2.0 && l.place == 1));
}

#[test]
fn a_round_is_not_paired_while_results_are_missing_and_nothing_changes() {
    let mut e = Event::new("rr", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
    field(&mut e, 4);
    e.pair().unwrap();
    let before = e.clone();
    let msg = e.pair().unwrap_err().0;
    assert!(msg.contains("without a result"), "{msg}");
    assert_eq!(e, before);
    assert!(e.result("9.9", &["1-0"], false).is_err());
    assert!(e.result("1.1", &["2-0"], false).is_err());
    assert_eq!(e, before);
}

#[test]
fn a_best_of_three_is_clinched_early_and_a_tie_goes_to_a_play_off_then_lots() {
    let ko = Format::Knockout {
        draw: Draw::Cards,
        third_place: false,
    };
    let mut e = Event::new("ko", vec![Plan::new(ko)]);
    e.settings.games = 3;
    e.settings.playoff = 1;
    field(&mut e, 4);
    let r1 = e.pair().unwrap();
    let (a, b) = (&r1.pairings[0].id, &r1.pairings[1].id);
    let done = e.result(a, &["1-0", "0-1"], false).unwrap();
    assert_eq!(done.verdict, Verdict::Won(Side::First), "2-0 after two games");
    assert!(e.result(a, &["1-0"], false).is_err(), "no third game after the clinch");
    // Three draws, then a drawn play-off game: lots.
    let tied = e.result(b, &["1/2", "1/2", "1/2"], false).unwrap();
    assert_eq!(tied.verdict, Verdict::Pending);
    let lot = e.result(b, &["1/2"], false).unwrap();
    assert!(lot.lot.is_some(), "{lot:?}");
    assert!(matches!(lot.verdict, Verdict::Won(_)));
    let r2 = e.pair().unwrap();
    assert_eq!(r2.pairings.len(), 1);
    assert!(r2.draw.as_deref().unwrap().contains("card draw"));
}

#[test]
fn thirteen_players_draw_cards_with_a_k_for_the_bye_every_round() {
    let ko = Format::Knockout {
        draw: Draw::Cards,
        third_place: false,
    };
    let mut e = Event::new("cards", vec![Plan::new(ko)]);
    e.seed = 42;
    field(&mut e, 13);
    let mut shapes = Vec::new();
    while !e.finished() {
        let r = e.pair().unwrap();
        shapes.push((
            r.pairings.iter().filter(|p| p.second.is_some()).count(),
            r.pairings.iter().any(|p| p.second.is_none()),
        ));
        play_round(&mut e, &r, |_| vec!["1-0"]);
    }
    assert_eq!(shapes, vec![(6, true), (3, true), (2, false), (1, false)]);
    let t = &e.standings().unwrap()[0];
    assert_eq!(t.lines[0].place, 1);
    assert_eq!(t.lines[1].place, 2);
}

#[test]
fn groups_send_their_top_two_on_and_a_tie_on_the_cut_goes_to_a_play_off() {
    let mut groups = Plan::new(Format::Groups { groups: 2, cycles: 1 });
    groups.advance = 2;
    let fin = Plan::new(Format::RoundRobin { cycles: 1 });
    let mut e = Event::new("two", vec![groups, fin]);
    field(&mut e, 6);
    // Every group game drawn: three tied in each group for two places.
    for _ in 0..3 {
        let r = e.pair().unwrap();
        play_round(&mut e, &r, |_| vec!["1/2"]);
    }
    let po = e.pair().unwrap();
    assert!(po.pairings.iter().all(|p| p.id.contains("PO")), "{po:?}");
    assert_eq!(po.pairings.len(), 6, "three pairs in each group");
    play_round(&mut e, &po, |_| vec!["1-0"]);
    let fin = e.pair().unwrap();
    assert!(fin.pairings.iter().all(|p| p.id.starts_with('F')));
    assert_eq!(e.stages[1].entrants.len(), 4);
}

#[test]
fn withdrawing_forfeits_open_games_and_later_ones() {
    let mut e = Event::new("rr", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
    field(&mut e, 4);
    let r = e.pair().unwrap();
    let gone = r.pairings[0].first;
    let forfeited = e.withdraw(gone).unwrap();
    assert_eq!(forfeited, vec![r.pairings[0].id.clone()]);
    play_round(&mut e, &r, |_| vec!["1-0"]);
    let r2 = e.pair().unwrap();
    let p = r2
        .pairings
        .iter()
        .find(|p| p.first == gone || p.second == Some(gone))
        .unwrap();
    assert!(p.games[0].forfeit);
}

#[test]
fn an_event_survives_its_text() {
    let mut e = Event::new("rr", vec![Plan::new(Format::RoundRobin { cycles: 2 })]);
    field(&mut e, 3);
    let r = e.pair().unwrap();
    play_round(&mut e, &r, |_| vec!["0-1"]);
    assert_eq!(Event::from_text(&e.to_text()).unwrap(), e);
    let _ = Score::Win;
}

fn play_out(e: &mut Event, mut score: impl FnMut(&Pairing) -> Vec<&'static str>) -> usize {
    let mut rounds = 0;
    while !e.finished() {
        let r = e.pair().unwrap();
        play_round(e, &r, &mut score);
        rounds += 1;
    }
    rounds
}

#[test]
fn a_seeded_knockout_gives_the_byes_to_the_top_seeds_and_places_everyone() {
    let ko = Format::Knockout {
        draw: Draw::Seeded,
        third_place: true,
    };
    let mut e = Event::new("ko", vec![Plan::new(ko)]);
    e.settings.games = 1;
    field(&mut e, 6);
    let r1 = e.pair().unwrap();
    // 6 in a bracket of 8: seeds 1 and 2 have byes, so round 1 is 3-6 and 4-5.
    let firsts: Vec<(u32, Option<u32>)> = r1.pairings.iter().map(|p| (p.first, p.second)).collect();
    assert_eq!(firsts.len(), 2, "{firsts:?}");
    assert!(firsts.iter().all(|&(a, b)| a > 2 && b.unwrap() > 2));
    play_round(&mut e, &r1, |_| vec!["1-0"]);
    play_out(&mut e, |_| vec!["1-0"]);
    let t = &e.standings().unwrap()[0];
    assert_eq!(t.lines[0].id, 1, "the top seed won every game with red: {t:?}");
    assert_eq!(t.lines[0].note, "champion");
}

#[test]
fn a_double_knockout_plays_2n_minus_2_or_2n_minus_1_matches() {
    for n in [5, 8, 13] {
        let mut e = Event::new("dk", vec![Plan::new(Format::DoubleKnockout)]);
        e.settings.games = 1;
        field(&mut e, n);
        let mut k = 0u32;
        play_out(&mut e, |_| {
            k += 1;
            if k.is_multiple_of(3) {
                vec!["0-1"]
            } else {
                vec!["1-0"]
            }
        });
        let played = e.pairings().filter(|p| p.second.is_some()).count() as u32;
        assert!(played == 2 * n - 2 || played == 2 * n - 1, "{n}: {played}");
    }
}

#[test]
fn a_swiss_preliminary_sends_its_top_four_to_a_knockout() {
    let mut swiss = Plan::new(Format::Swiss {
        system: crate::event::System::Dutch,
        rounds: 3,
    });
    swiss.advance = 4;
    let ko = Plan::new(Format::Knockout {
        draw: Draw::Seeded,
        third_place: false,
    });
    let mut e = Event::new("sw", vec![swiss, ko]);
    field(&mut e, 9);
    for _ in 0..3 {
        let r = e.pair().unwrap();
        assert!(r.pairings.iter().any(|p| p.second.is_none()), "nine players: a bye");
        play_round(&mut e, &r, |_| vec!["1/2"]);
    }
    // The TRF inside the stage counts what the pairings hold.
    let trf = crate::trf::Trf::parse(e.stages[0].trf.as_deref().unwrap()).unwrap();
    assert_eq!(crate::dutch::rounds_paired(&trf), 3);
    assert!(crate::event::pending(&trf).is_empty());
    let table = &e.standings().unwrap()[0];
    assert_eq!(table.lines.len(), 9);
    let total: f64 = table.lines.iter().map(|l| l.points).sum();
    assert_eq!(total, 3.0 * 4.0 * 1.0 + 3.0, "twelve drawn games and three byes");
    // Every game drawn: those level across the fourth place play off first.
    let mut next = e.pair().unwrap();
    if next.pairings.iter().any(|p| p.id.starts_with("PO")) {
        play_round(&mut e, &next, |_| vec!["1-0"]);
        next = e.pair().unwrap();
    }
    assert!(next.pairings.iter().all(|p| p.id.starts_with('F')), "{next:?}");
    assert_eq!(e.stages[1].entrants.len(), 4);
    assert_eq!(Event::from_text(&e.to_text()).unwrap(), e);
}

#[test]
fn a_reserve_comes_in_by_the_lineup_and_the_roster_order_is_kept() {
    let mut e = Event::new("teams", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
    e.settings.boards = 2;
    let roster = |t: &str| -> Vec<String> { (1..=3).map(|i| format!("{t}{i}")).collect() };
    for t in ["A", "B"] {
        e.register(t, 0, "", &roster(t)).unwrap();
    }
    assert!(
        e.register("C", 0, "", &["C1".into()]).is_err(),
        "one player for two boards"
    );
    let r = e.pair().unwrap();
    let id = r.pairings.iter().find(|p| p.second.is_some()).unwrap().id.clone();
    let before = e.clone();
    assert!(
        e.set_lineup(&id, 1, &["A3".into(), "A1".into()]).is_err(),
        "A3 above A1"
    );
    assert!(
        e.set_lineup(&id, 1, &["A1".into(), "B2".into()]).is_err(),
        "not on A's roster"
    );
    assert!(e.set_lineup(&id, 1, &["A1".into()]).is_err(), "two boards");
    assert_eq!(e, before);
    e.set_lineup(&id, 1, &["A1".into(), "A3".into()]).unwrap();
    e.result(&id, &["1-0", "1/2"], false).unwrap();
    assert!(
        e.set_lineup(&id, 2, &["B2".into(), "B3".into()]).is_err(),
        "results are in"
    );
    let games = e.played_games();
    let names: Vec<(&str, &str)> = games.iter().map(|g| (g.red.as_str(), g.black.as_str())).collect();
    let p = e.pairing(&id).unwrap();
    // Board 1: the first-named team's player has red; board 2: the other's.
    let expected = if p.first == 1 {
        vec![("A1", "B1"), ("B2", "A3")]
    } else {
        vec![("B1", "A1"), ("A3", "B2")]
    };
    assert_eq!(names, expected);
}

#[test]
fn a_tied_team_knockout_goes_to_the_higher_board_then_lots() {
    let ko = Format::Knockout {
        draw: Draw::Seeded,
        third_place: false,
    };
    let teams = |n: u32| {
        let mut e = Event::new("tk", vec![Plan::new(ko)]);
        e.settings.boards = 4;
        for t in 1..=n {
            let roster: Vec<String> = (1..=4).map(|b| format!("T{t}-{b}")).collect();
            e.register(&format!("T{t}"), 0, "", &roster).unwrap();
        }
        e
    };
    let mut e = teams(2);
    let r = e.pair().unwrap();
    let id = r.pairings[0].id.clone();
    // 2-2, the first team lost board 1 and won board 2: the second goes on.
    let done = e.result(&id, &["0-1", "1-0", "1/2", "1/2"], false).unwrap();
    assert_eq!(done.verdict, Verdict::Won(Side::Second));
    assert!(done.lot.is_none());
    let mut e = teams(2);
    let r = e.pair().unwrap();
    let id = r.pairings[0].id.clone();
    let all_drawn = e.result(&id, &["1/2", "1/2", "1/2", "1/2"], false).unwrap();
    assert!(all_drawn.lot.is_some(), "every board drawn: lots");
    assert!(e.finished());
}

#[test]
fn a_swiss_of_teams_pairs_on_match_results_and_keeps_its_json() {
    let mut e = Event::new(
        "team swiss",
        vec![Plan::new(Format::Swiss {
            system: crate::event::System::Dutch,
            rounds: 3,
        })],
    );
    e.settings.boards = 2;
    for t in 1..=6 {
        let roster: Vec<String> = (1..=2).map(|b| format!("T{t}-{b}")).collect();
        e.register(&format!("T{t}"), 2000 - t, "", &roster).unwrap();
    }
    assert!(!e.is_swiss(), "a Swiss of teams is a stage of the general model");
    let mut met = std::collections::HashSet::new();
    for _ in 0..3 {
        let r = e.pair().unwrap();
        for p in &r.pairings {
            assert!(met.insert((p.first.min(p.second.unwrap()), p.first.max(p.second.unwrap()))));
        }
        play_round(&mut e, &r, |_| vec!["1-0", "1/2"]);
    }
    assert!(e.finished());
    let total: f64 = e.standings().unwrap()[0].lines.iter().map(|l| l.points).sum();
    assert_eq!(total, 18.0, "nine team matches won, each worth two match points");
    assert!(e.to_text().starts_with('{'));
    assert_eq!(Event::from_text(&e.to_text()).unwrap(), e);
}

/// The event as documents were written before rounds were kept compact: every round in full.
fn unfolded(e: &Event) -> Event {
    let mut old = e.clone();
    for s in 0..old.stages.len() {
        let rounds: Vec<Round> = e.stage_rounds(s).map(std::borrow::Cow::into_owned).collect();
        old.stages[s].compact.clear();
        old.stages[s].rounds = rounds;
    }
    old
}

#[test]
fn a_document_with_every_round_in_full_still_reads_and_folds_at_the_next_pairing() {
    let mut e = Event::new("rr", vec![Plan::new(Format::RoundRobin { cycles: 2 })]);
    field(&mut e, 5);
    let results = ["1-0", "1/2", "0-1", "+-", "--"];
    let mut k = 0;
    for _ in 0..4 {
        let round = e.pair().unwrap();
        play_round(&mut e, &round, |_| {
            k += 1;
            vec![results[k % results.len()]]
        });
    }
    // Rounds 1-3 compact, round 4 (just played) in full.
    assert_eq!((e.stages[0].compact.len(), e.stages[0].rounds.len()), (3, 1));
    let old_text = unfolded(&e).to_text();
    assert!(!old_text.contains("compact") && old_text.contains("\"games\""));
    let mut old = Event::from_text(&old_text).unwrap();
    assert_eq!(old.stages[0].rounds.len(), 4);
    assert_eq!(old.standings().unwrap(), e.standings().unwrap());
    assert_eq!(render::pairings_text(&old), render::pairings_text(&e));
    assert_eq!(old.pairing("2.1"), e.pairing("2.1"));
    assert_eq!(old.verdict("3.2"), e.verdict("3.2"));
    // A correction to a round kept compact, and to the same round in full.
    old.result("2.2", &["0-1"], true).unwrap();
    e.result("2.2", &["0-1"], true).unwrap();
    assert_eq!(old.pair().unwrap(), e.pair().unwrap());
    assert_eq!(old, e, "pairing folds the old document's played rounds");
    assert_eq!(e.stages[0].compact.len(), 4);
    assert_eq!(Event::from_text(&e.to_text()).unwrap(), e);
}

#[test]
fn a_team_double_round_robin_reverses_colours_in_the_second_cycle() {
    let mut e = Event::new("teams", vec![Plan::new(Format::RoundRobin { cycles: 2 })]);
    e.settings.boards = 2;
    for t in 1..=4 {
        let members: Vec<String> = (1..=2).map(|b| format!("T{t}B{b}")).collect();
        e.register(&format!("T{t}"), 2000 - t, "", &members).unwrap();
    }
    while let Ok(round) = e.pair() {
        play_round(&mut e, &round, |_| vec!["1/2", "1-0"]);
    }
    assert!(e.finished());
    // Each board's two games between the same members: red once each.
    let games = e.played_games();
    assert_eq!(games.len(), 6 * 2 * 2);
    for g in &games {
        let twice: Vec<_> = games
            .iter()
            .filter(|h| (h.red == g.red && h.black == g.black) || (h.red == g.black && h.black == g.red))
            .collect();
        assert_eq!(twice.len(), 2, "{g:?}");
        assert!(
            twice.iter().any(|h| h.red == g.black),
            "{} has red in both cycles: {g:?}",
            g.red
        );
    }
}
