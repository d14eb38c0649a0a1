//! Events run round by round, through the stored text between steps as the command line runs
//! them.

use super::players::absent;
use super::*;
use crate::dutch::{Pairing, PointSystem};
use crate::result::{Bye, RoundResult};
use crate::standings::TieBreak;
use crate::trf::{Colour, RequestedBye, Round};

/// Through the stored text and back, as the command line does between steps.
fn through(trf: &Trf) -> Trf {
    Trf::parse(&text(trf)).unwrap()
}

fn results(trf: &mut Trf, round: usize, pairing: &Pairing, seed: &mut u64) {
    for &(w, b) in &pairing.boards {
        *seed = crate::lots::splitmix64(*seed);
        let result = ["1-0", "0-1", "1/2"][(*seed % 3) as usize];
        set_result(trf, round, w, b, result).unwrap();
    }
}

fn event(players: u32, rounds: usize, system: System) -> Trf {
    let mut trf = create("Club open", rounds, system, true);
    for i in 0..players {
        register(&mut trf, &format!("Player {i}"), 2200 - 37 * i, "CHN").unwrap();
    }
    trf
}

#[test]
fn a_whole_event_round_by_round_is_what_the_checker_expects() {
    for system in [System::Dutch, System::Cxa] {
        let mut trf = event(11, 5, system);
        let mut seed = 7u64;
        for round in 1..=5 {
            if round == 3 {
                assert_eq!(request_bye(&mut trf, 4, Bye::Half), Ok(3));
            }
            let pairing = pair(&mut trf, round as u64).unwrap();
            assert!(pair(&mut trf, 0).is_err(), "results are missing");
            results(&mut trf, round, &pairing, &mut seed);
            trf = through(&trf);
        }
        assert!(pair(&mut trf, 0).is_err(), "all rounds paired");
        if system == System::Dutch {
            assert!(dutch::check(&trf).is_empty());
        }
        let text = crosstable(&trf, &[]);
        assert_eq!(text.lines().count(), 12);
        assert!(crosstable_html(&trf, "<Club>", &[]).contains("&lt;Club&gt;"));
        // 5 boards and a bye a round (one a half-point bye in round 3): a win's worth each.
        let win = if system == System::Cxa { 2.0 } else { 1.0 };
        let total: f64 = trf.players.iter().map(|p| p.points).sum();
        assert!(total > 5.0 * 5.0 * win && total <= 6.0 * 5.0 * win, "{total}");
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
    let before = trf.clone();
    assert!(set_result(&mut trf, 1, b, w, "1-0").is_err());
    assert!(set_result(&mut trf, 1, w, b, "2-0").is_err());
    assert!(set_result(&mut trf, 2, w, b, "1-0").is_err());
    assert!(set_result(&mut trf, 1, w, p.boards[1].0, "1-0").is_err());
    assert_eq!(trf, before, "a refused result changes nothing");
    assert!(register(&mut trf, " ", 0, "").is_err());
    assert!(register_late(&mut trf, "Late", 0, "", Bye::Full).is_err());
}

#[test]
fn a_new_event_writes_trf_2026_records() {
    let trf = create("Xiangqi open", 7, System::Cxa, false);
    let text = text(&trf);
    assert_eq!(
        text,
        "012 Xiangqi open\n062 0\n142 7\n152 B\n162  W 2.0    D 1.0\n192 CXA_SWISS\n"
    );
    // Columns of 162: a letter at 6, its points at 7-10, the next letter at 15.
    let line = text.lines().find(|l| l.starts_with("162")).unwrap();
    assert_eq!(
        (&line[5..6], &line[6..10], &line[14..15], &line[15..19]),
        ("W", " 2.0", "D", " 1.0")
    );
    assert_eq!(point_system(&trf), CXA_POINTS);
    let dutch = create("Open", 9, System::Dutch, true);
    assert_eq!(
        text_lines(&dutch),
        ["012 Open", "062 0", "142 9", "152 W", "192 FIDE_DUTCH_2025"]
    );
    assert_eq!(point_system(&dutch), PointSystem::default());
}

fn text_lines(trf: &Trf) -> Vec<String> {
    text(trf).lines().map(str::to_string).collect()
}

/// The `162` line a point system is written as.
fn points_record(ps: &PointSystem) -> Option<String> {
    let mut trf = create("X", 1, System::Dutch, true);
    trf.set_point_system(ps);
    trf.other.into_iter().find(|l| l.starts_with("162"))
}

#[test]
fn point_systems_are_read_and_written_as_162() {
    assert_eq!(parse_points("2/1/0"), Ok(CXA_POINTS));
    let three = parse_points("3/1/0").unwrap();
    assert_eq!((three.win, three.draw, three.pab), (30, 10, 30));
    assert_eq!(points_record(&three).as_deref(), Some("162  W 3.0    D 1.0"));
    assert_eq!(points_record(&parse_points("1/0.5/0").unwrap()), None);
    assert_eq!(
        points_record(&parse_points("10/5/1").unwrap()).as_deref(),
        Some("162  W10.0    D 5.0    L 1.0")
    );
    for bad in ["2/1", "1/2/0", "2/1/0/0", "x/1/0", "100/1/0", "1.25/1/0", "0/0/0"] {
        assert!(parse_points(bad).is_err(), "{bad}");
    }
    // Read back the way the pairing engine reads it, bbp's BB* lines too.
    let mut trf = create("X", 5, System::Dutch, true);
    set_points(&mut trf, &three).unwrap();
    assert_eq!(point_system(&through(&trf)), three);
    assert_eq!(dutch::Event::before_round(&trf, 0).unwrap().points, three);
    let bbp = Trf::parse("XXR 5\nBBW 3.0\nBBD 1.0\nBBU 2.0\n").unwrap();
    assert_eq!(point_system(&bbp), PointSystem { pab: 20, ..three });
    // Tenths of TRF-2026's A (absence) code.
    let absences = Trf::parse("162  A 0.5    P 1.0\n").unwrap();
    let ps = point_system(&absences);
    assert_eq!((ps.zero_bye, ps.forfeit_loss, ps.pab, ps.win), (5, 5, 10, 10));
}

#[test]
fn a_xiangqi_event_scores_two_one_nothing_and_pairs_by_those_scores() {
    let mut trf = event(7, 4, System::Dutch);
    set_points(&mut trf, &CXA_POINTS).unwrap();
    let mut seed = 3;
    for round in 1..=4 {
        let pairing = pair(&mut trf, 0).unwrap();
        assert!(
            set_points(&mut trf, &PointSystem::default()).is_err(),
            "fixed after round 1"
        );
        results(&mut trf, round, &pairing, &mut seed);
        trf = through(&trf);
    }
    assert!(dutch::check(&trf).is_empty());
    for p in &trf.players {
        let expected: f64 = p
            .rounds
            .iter()
            .map(|r| match r.result {
                RoundResult::WIN | RoundResult::Bye(Bye::PairingAllocated) => 2.0,
                RoundResult::DRAW => 1.0,
                _ => 0.0,
            })
            .sum();
        assert_eq!(p.points, expected, "player {}", p.number);
    }
    // 3 boards and a bye a round, 2 points each.
    assert_eq!(trf.players.iter().map(|p| p.points).sum::<f64>(), 4.0 * 4.0 * 2.0);
}

#[test]
fn a_withdrawn_player_is_not_paired_again_and_keeps_past_results() {
    let mut trf = event(8, 5, System::Dutch);
    let mut seed = 11;
    let first = pair(&mut trf, 0).unwrap();
    let (w, b) = first.boards[0];
    // Paired in round 1 without a result: refused until the result is in.
    let e = withdraw(&mut trf, w, 1).unwrap_err();
    assert!(e.0.contains("enter that game's result first"), "{e}");
    set_result(&mut trf, 1, w, b, "-/+").unwrap();
    results(
        &mut trf,
        1,
        &Pairing {
            boards: first.boards[1..].to_vec(),
            bye: None,
        },
        &mut seed,
    );
    let e = withdraw(&mut trf, w, 1).unwrap_err();
    assert!(e.0.contains("withdraw from round 2 or later"), "{e}");
    assert_eq!(withdraw(&mut trf, w, 2), Ok(2));
    assert!(withdraw(&mut trf, 99, 2).is_err());
    assert!(withdraw(&mut trf, b, 6).is_err());
    assert!(withdraw(&mut trf, b, 0).is_err());
    trf = through(&trf);
    let zero: Vec<_> = trf.requested_byes().into_iter().filter(|x| x.player == w).collect();
    assert_eq!(
        zero.iter().map(|x| (x.round, x.kind)).collect::<Vec<_>>(),
        [(2, Bye::Zero), (3, Bye::Zero), (4, Bye::Zero), (5, Bye::Zero)]
    );
    for round in 2..=5 {
        let pairing = pair(&mut trf, 0).unwrap();
        assert!(pairing.boards.iter().all(|&(x, y)| x != w && y != w) && pairing.bye != Some(w));
        results(&mut trf, round, &pairing, &mut seed);
        trf = through(&trf);
    }
    let p = trf.player(w).unwrap();
    assert_eq!(
        p.rounds[0],
        Round {
            opponent: b,
            colour: Colour::White,
            result: RoundResult::ForfeitLoss
        }
    );
    assert!(p.rounds[1..].iter().all(|r| *r == absent(Bye::Zero)));
    assert!(trf.requested_byes().is_empty(), "all byes are in their columns now");
    assert!(dutch::check(&trf).is_empty());
}

#[test]
fn a_withdrawn_player_can_come_back() {
    let mut trf = event(6, 4, System::Cxa);
    let mut seed = 5;
    let pairing = pair(&mut trf, 0).unwrap();
    results(&mut trf, 1, &pairing, &mut seed);
    assert!(reenter(&mut trf, 2, 2).is_err(), "not withdrawn");
    withdraw(&mut trf, 2, 2).unwrap();
    trf = through(&trf);
    let pairing = pair(&mut trf, 0).unwrap();
    assert_eq!((pairing.boards.len(), pairing.bye.is_some()), (2, true));
    assert!(pairing.boards.iter().all(|&(x, y)| x != 2 && y != 2) && pairing.bye != Some(2));
    results(&mut trf, 2, &pairing, &mut seed);
    assert!(reenter(&mut trf, 2, 2).is_err(), "round 2 is paired");
    reenter(&mut trf, 2, 3).unwrap();
    assert!(trf.requested_byes().is_empty());
    trf = through(&trf);
    let pairing = pair(&mut trf, 0).unwrap();
    assert_eq!((pairing.boards.len(), pairing.bye), (3, None));
    assert_eq!(trf.player(2).unwrap().rounds[1], absent(Bye::Zero));
}

#[test]
fn late_entrants_miss_the_rounds_played_and_keep_everyone_s_numbers() {
    for missed in [Bye::Zero, Bye::Half] {
        let mut trf = event(6, 5, System::Dutch);
        let mut seed = 2;
        for round in 1..=2 {
            let pairing = pair(&mut trf, 0).unwrap();
            results(&mut trf, round, &pairing, &mut seed);
        }
        let names: Vec<(u32, String)> = trf.players.iter().map(|p| (p.number, p.name.clone())).collect();
        // A strong player after round 2: the next start number, not a place by rating.
        let late = register_late(&mut trf, "Late strong", 2700, "", missed).unwrap();
        assert_eq!(late, 7);
        trf = through(&trf);
        let p = trf.player(late).unwrap();
        assert_eq!(p.rounds, vec![absent(missed); 2]);
        assert_eq!(p.points, if missed == Bye::Half { 1.0 } else { 0.0 });
        for round in 3..=5 {
            let pairing = pair(&mut trf, 0).unwrap();
            assert!(pairing.boards.iter().any(|&(x, y)| x == late || y == late) || pairing.bye == Some(late));
            results(&mut trf, round, &pairing, &mut seed);
            trf = through(&trf);
        }
        for (number, name) in &names {
            assert_eq!(&trf.player(*number).unwrap().name, name);
        }
        assert!(dutch::check(&trf).is_empty());
    }
}

#[test]
fn byes_asked_before_round_1_follow_their_players_to_their_start_numbers() {
    let mut trf = create("X", 3, System::Dutch, true);
    for (name, rating) in [("Low", 1500), ("High", 2500), ("Mid", 2000), ("Top", 2600)] {
        register(&mut trf, name, rating, "").unwrap();
    }
    // "Low" is 1 until round 1 is paired, then 4.
    request_bye(&mut trf, 1, Bye::Half).unwrap();
    request_bye_in(&mut trf, 1, Bye::Full, 2).unwrap();
    assert!(request_bye_in(&mut trf, 1, Bye::Full, 4).is_err(), "3 rounds");
    trf = through(&trf);
    // Exported before round 1, the file is numbered and paired as the event will be.
    let exported = Trf::parse(&export(&trf)).unwrap();
    let pairing = pair(&mut trf, 0).unwrap();
    assert_eq!(dutch::pair_next(&exported), Ok(pairing.clone()));
    let low = trf.players.iter().find(|p| p.name == "Low").unwrap();
    assert_eq!(low.number, 4);
    assert_eq!(low.rounds, [absent(Bye::Half)]);
    assert_eq!(pairing.boards.len(), 1);
    assert!(pairing.bye.is_some() && pairing.bye != Some(4));
    assert_eq!(
        trf.requested_byes(),
        [RequestedBye {
            round: 2,
            player: 4,
            kind: Bye::Full
        }]
    );
    assert!(request_bye_in(&mut trf, 4, Bye::Half, 1).is_err(), "round 1 is paired");
}

#[test]
fn byes_asked_one_after_another_leave_the_others_to_be_paired() {
    let mut trf = event(6, 3, System::Dutch);
    let mut seed = 1;
    let pairing = pair(&mut trf, 0).unwrap();
    results(&mut trf, 1, &pairing, &mut seed);
    for number in [1, 2] {
        trf = through(&trf);
        request_bye(&mut trf, number, Bye::Half).unwrap();
        trf = through(&trf);
    }
    let pairing = pair(&mut trf, 0).unwrap();
    assert_eq!(pairing.boards.len(), 2);
    assert_eq!(
        (
            trf.player(1).unwrap().rounds[1].result,
            trf.player(2).unwrap().rounds[1].result
        ),
        (RoundResult::Bye(Bye::Half), RoundResult::Bye(Bye::Half))
    );
}

#[test]
fn old_style_files_read_and_are_written_back_in_trf_2026_records() {
    let old = "012 Old\nXXR 4\nXXC black1\n192 FIDE_DUTCH_2025\n\
               001    1      A                                 2000                             1.0          2 b 1\n\
               001    2      B                                 1900                             0.0          1 w 0\n\
               001    3      C                                 1800                             0.5          4 b =\n\
               001    4      D                                 1700                             1.0          3 w =  0000 - H\n";
    let trf = Trf::parse(old).unwrap();
    assert_eq!(total_rounds(&trf), 4);
    let new = export(&trf);
    assert!(
        new.starts_with("012 Old\n062 4\n142 4\n152 B\n192 FIDE_DUTCH_2025\n"),
        "{new}"
    );
    assert!(!new.contains("XXR") && !new.contains("XXC"));
    assert_eq!(export(&Trf::parse(&new).unwrap()), new, "export, import, export");
    // The same next round from either file; player 3's half-point bye stays in its column.
    let (a, b) = (
        dutch::pair_next(&trf).unwrap(),
        dutch::pair_next(&Trf::parse(&new).unwrap()).unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!((a.boards.len(), a.bye.is_some()), (1, true));
    assert!(a.boards.iter().all(|&(x, y)| x != 4 && y != 4) && a.bye != Some(4));
    // Ranks by points: A and D (with the half-point bye asked for round 2) share the first
    // place.
    let ranks: Vec<&str> = new
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| l[85..89].trim())
        .collect();
    assert_eq!(ranks, ["1", "4", "3", "1"]);
    let kept = Trf::parse("XXC rank white1\n").unwrap();
    assert_eq!(text(&kept), "XXC rank\n062 0\n152 W\n");
}

#[test]
fn tie_breaks_chosen_are_202_and_212() {
    let mut trf = create("X", 5, System::Dutch, true);
    let order = parse_tiebreaks("BH-C1, BH,SB").unwrap();
    set_tiebreaks(&mut trf, &order);
    let lines = text_lines(&trf);
    assert!(lines.contains(&"202 BH/C1,BH,SB".to_string()), "{lines:?}");
    assert!(lines.contains(&"212 PTS,BH/C1,BH,SB".to_string()), "{lines:?}");
    assert_eq!(tiebreaks(&through(&trf)), Ok(order));
    assert!(parse_tiebreaks("BH,XYZ").is_err());
    set_tiebreaks(&mut trf, &[]);
    assert!(!text_lines(&trf)
        .iter()
        .any(|l| l.starts_with("202") || l.starts_with("212")));
    assert_eq!(tiebreaks(&trf), Ok(Vec::new()));
    assert_eq!(tiebreaks(&Trf::parse("202 SB\n").unwrap()), Ok(vec![TieBreak::Sb]));
}
