//! Team scoring and standings on small events worked out by hand in the comments.

use super::*;
use crate::lots::Stream;
use crate::result::Score::{self, Draw as D, Loss as L, Win as W};

fn pairing(round: u32, first: usize, second: usize, boards: &[Score]) -> TeamRound {
    TeamRound {
        round,
        first,
        second: Some(second),
        boards: boards.iter().map(|&s| Board::from(s)).collect(),
    }
}

fn bye(round: u32, team: usize) -> TeamRound {
    TeamRound {
        round,
        first: team,
        second: None,
        boards: Vec::new(),
    }
}

/// (team, place, tie-break values) of every line, in standings order.
fn summary(lines: &[TeamLine]) -> Vec<(usize, usize, Vec<f64>)> {
    lines.iter().map(|l| (l.team, l.place, l.tiebreaks.clone())).collect()
}

#[test]
fn colours_alternate_by_board_and_swap_in_the_second_cycle() {
    assert_eq!(board_colours(4), [true, false, true, false]);
    assert_eq!(board_colours(3), [true, false, true]);
    assert_eq!(board_colours_in_cycle(4, 1), board_colours(4));
    assert_eq!(board_colours_in_cycle(4, 2), [false, true, false, true]);
    assert_eq!(board_colours_in_cycle(4, 3), board_colours(4));
    assert!(board_colours(0).is_empty());
}

#[test]
fn a_match_is_won_on_game_points_and_empty_boards_lose() {
    let s = TeamScoring::default();
    // 1 + ½ + 0 + ½ = 2 against 2: drawn, a match point each.
    let r = team_match(&[W, D, L, D], &s);
    assert_eq!(
        (r.game_points, r.match_points, r.winner),
        ((2.0, 2.0), (1.0, 1.0), None)
    );
    // Board 4 empty on the first team's side: 1½ + 0 against ½ + 1 + 1 → the second wins 2½–1½.
    let boards = [
        Board::Played(W),
        Board::Played(D),
        Board::Played(L),
        Board::Forfeit { absent: Side::First },
    ];
    let r = team_match(&boards, &s);
    assert_eq!((r.game_points, r.match_points), ((1.5, 2.5), (0.0, 2.0)));
    assert_eq!(r.winner, Some(Side::Second));
    assert_eq!((r.score(Side::First), r.score(Side::Second)), (L, W));
    // Both absent on board 2: nobody scores there, 1–0 on the other.
    let r = team_match(&[Board::Played(W), Board::BothAbsent], &s);
    assert_eq!((r.game_points, r.winner), ((1.0, 0.0), Some(Side::First)));
    // 3/1/0 match points.
    let three = TeamScoring {
        win: 3.0,
        ..TeamScoring::default()
    };
    assert_eq!(team_match(&[W, W, L], &three).match_points, (3.0, 0.0));
}

/// Four teams A–D of four boards, a single round robin of three rounds (first-named team's
/// boards):
///
/// ```text
/// R1 A–B W D L W  2½–1½    C–D W L D D  2–2
/// R2 A–C D D D D  2–2      B–D D W L W  2½–1½
/// R3 A–D L W D D  2–2      B–C W L W D  2½–1½
/// ```
///
/// MP: A 2+1+1 = 4, B 0+2+2 = 4, C 1+1+0 = 2, D 1+0+1 = 2. GP: A 2½+2+2 = 6½, B 1½+2½+2½ =
/// 6½, C 2+2+1½ = 5½, D 2+1½+2 = 5½. Board points (boards 1–4): A 1½ 2 1 2, B 1½ 1½ 2 1½,
/// C 1½ 1½ 1 1½, D 1½ 1 2 1.
fn round_robin() -> Vec<TeamRound> {
    vec![
        pairing(1, 0, 1, &[W, D, L, W]),
        pairing(1, 2, 3, &[W, L, D, D]),
        pairing(2, 0, 2, &[D, D, D, D]),
        pairing(2, 1, 3, &[D, W, L, W]),
        pairing(3, 0, 3, &[L, W, D, D]),
        pairing(3, 1, 2, &[W, L, W, D]),
    ]
}

const NAMES: [&str; 4] = ["A", "B", "C", "D"];

#[test]
fn the_cxa_order_breaks_one_tie_by_direct_encounter_and_one_by_board_order() {
    let lines = standings(&NAMES, &round_robin(), &TeamScoring::default(), &CXA_ORDER).unwrap();
    // A and B: 4 MP and 6½ GP each; A beat B, so DE puts A first; TBR then has each alone (0).
    // C and D: 2 MP and 5½ GP each, drawn 2–2 (DE 0); on board 1 both have 1½, on board 2 C
    // 1½ against D's 1: C first.
    assert_eq!(
        summary(&lines),
        [
            (0, 1, vec![6.5, 1.0, 0.0]),
            (1, 2, vec![6.5, 2.0, 0.0]),
            (2, 3, vec![5.5, 0.0, 1.0]),
            (3, 4, vec![5.5, 0.0, 2.0]),
        ]
    );
    assert_eq!((lines[0].match_points, lines[0].game_points), (4.0, 6.5));
    // The same by the Chinese codes.
    let codes = TeamTieBreak::parse_list("局分, 直胜, 台次分", Primary::MatchPoints).unwrap();
    assert_eq!(codes, CXA_ORDER);
}

#[test]
fn without_tie_breaks_equal_teams_share_the_place() {
    let lines = standings(&NAMES, &round_robin(), &TeamScoring::default(), &[]).unwrap();
    let places: Vec<(usize, usize)> = lines.iter().map(|l| (l.team, l.place)).collect();
    assert_eq!(places, [(0, 1), (1, 1), (2, 3), (3, 3)]);
}

#[test]
fn bottom_board_elimination_and_board_count() {
    // BBE: points without board 4, then without boards 3–4, then board 1 alone.
    // A 6½−2 = 4½, B 6½−1½ = 5: B first. C 5½−1½ = 4, D 5½−1 = 4½: D first.
    let order = [TeamTieBreak::Bbe, TeamTieBreak::Bc];
    let lines = standings(&NAMES, &round_robin(), &TeamScoring::default(), &order).unwrap();
    // BC = Σ board × points, lower first: A 1½+4+3+8 = 16½, B 1½+3+6+6 = 16½, C 1½+3+3+6 =
    // 13½, D 1½+2+6+4 = 13½.
    assert_eq!(
        summary(&lines),
        [
            (1, 1, vec![1.0, 16.5]),
            (0, 2, vec![2.0, 16.5]),
            (3, 3, vec![1.0, 13.5]),
            (2, 4, vec![2.0, 13.5]),
        ]
    );
}

#[test]
fn buchholz_and_the_sonneborn_berger_variants() {
    let codes = "BH:MP, SB, ESB:MG, EMGSB/C1, ESB:GG";
    let order = TeamTieBreak::parse_list(codes, Primary::MatchPoints).unwrap();
    let lines = standings(&NAMES, &round_robin(), &TeamScoring::default(), &order).unwrap();
    let by_team = |t: usize| lines.iter().find(|l| l.team == t).unwrap().tiebreaks.clone();
    // BH:MP: A B4+C2+D2 = 8, B 8, C D2+A4+B4 = 10, D 10.
    // SB (opponent's MP × own MP): A 4·2+2·1+2·1 = 12, B 4·0+2·2+2·2 = 8, C 2·1+4·1+4·0 = 6,
    // D 2·1+4·0+4·1 = 6.
    // ESB:MG (opponent's MP × own GP): A 4·2½+2·2+2·2 = 18, B 4·1½+2·2½+2·2½ = 16,
    // C 2·2+4·2+4·1½ = 18, D 2·2+4·1½+4·2 = 18.
    // /C1 cuts the contribution of the lowest-scored opponent (the lowest such): A 18−4 = 14,
    // B 16−5 = 11, C 18−4 = 14, D 18−4 = 14.
    // ESB:GG (opponent's GP × own GP): A 6½·2½+5½·2+5½·2 = 38¼, B 6½·1½+5½·2½+5½·2½ = 37.25,
    // C 5½·2+6½·2+6½·1½ = 33.75, D 5½·2+6½·1½+6½·2 = 33.75.
    assert_eq!(by_team(0), [8.0, 12.0, 18.0, 14.0, 38.25]);
    assert_eq!(by_team(1), [8.0, 8.0, 16.0, 11.0, 37.25]);
    assert_eq!(by_team(2), [10.0, 6.0, 18.0, 14.0, 33.75]);
    assert_eq!(by_team(3), [10.0, 6.0, 18.0, 14.0, 33.75]);
    // BH:MP ties A and B (8); SB then puts A first. C and D equal on everything: they share 3.
    let places: Vec<(usize, usize)> = lines.iter().map(|l| (l.team, l.place)).collect();
    assert_eq!(places, [(0, 1), (1, 2), (2, 3), (3, 3)]);
}

#[test]
fn game_points_first_ranks_by_them_and_offers_match_points() {
    let scoring = TeamScoring {
        order: Primary::GamePoints,
        ..TeamScoring::default()
    };
    // Two rounds, two boards: R1 P–Q 2–0, R–S 1½–½; R2 P–R ½–1½, Q–S 1½–½.
    // MP: P 2, Q 2, R 4, S 0. GP: P 2½, Q 1½, R 3, S 1.
    let rounds = [
        pairing(1, 0, 1, &[W, W]),
        pairing(1, 2, 3, &[W, D]),
        pairing(2, 0, 2, &[L, D]),
        pairing(2, 1, 3, &[W, D]),
    ];
    let names = ["P", "Q", "R", "S"];
    let lines = standings(&names, &rounds, &scoring, &[TeamTieBreak::Mp]).unwrap();
    // By GP: R 3, P 2½, Q 1½, S 1; MP alongside.
    assert_eq!(
        summary(&lines),
        [
            (2, 1, vec![4.0]),
            (0, 2, vec![2.0]),
            (1, 3, vec![2.0]),
            (3, 4, vec![0.0])
        ]
    );
    // By match points P and Q tie on 2; game points (2½ against 1½) put P ahead, and so does
    // DE (P beat Q 2–0).
    let mp = TeamScoring::default();
    for order in [[TeamTieBreak::Gp], [TeamTieBreak::De]] {
        let lines = standings(&names, &rounds, &mp, &order).unwrap();
        let teams: Vec<usize> = lines.iter().map(|l| l.team).collect();
        assert_eq!(teams, [2, 0, 1, 3]);
    }
}

#[test]
fn a_bye_scores_as_the_options_say_and_counts_a_capped_dummy() {
    // Three teams X, Y, Z of two boards, one bye a round:
    // R1 X–Y W D (1½–½), Z bye; R2 Y–Z W W (2–0), X bye; R3 Z–X W L (1–1), Y bye.
    let rounds = [
        pairing(1, 0, 1, &[W, D]),
        bye(1, 2),
        pairing(2, 1, 2, &[W, W]),
        bye(2, 0),
        pairing(3, 2, 0, &[W, L]),
        bye(3, 1),
    ];
    let names = ["X", "Y", "Z"];
    let bh = TeamTieBreak::Bh {
        points: Points::Match,
        cut: false,
    };
    // Default: a won match with both boards won (2 MP, 2 GP).
    // MP: X 2+2+1 = 5, Y 0+2+2 = 4, Z 2+0+1 = 3. GP: X 1½+2+1 = 4½, Y ½+2+2 = 4½, Z 2+0+1 = 3.
    // BH:MP, the bye a dummy scoring the team's own MP capped at 3 rounds × 1 = 3:
    // X: Y 4 + dummy min(5, 3) + Z 3 = 10; Y: X 5 + Z 3 + min(4, 3) = 11; Z: min(3, 3) + 4 + 5 = 12.
    let lines = standings(&names, &rounds, &TeamScoring::default(), &[TeamTieBreak::Gp, bh]).unwrap();
    let got: Vec<(usize, f64, f64, Vec<f64>)> = lines
        .iter()
        .map(|l| (l.team, l.match_points, l.game_points, l.tiebreaks.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (0, 5.0, 4.5, vec![4.5, 10.0]),
            (1, 4.0, 4.5, vec![4.5, 11.0]),
            (2, 3.0, 3.0, vec![3.0, 12.0]),
        ]
    );
    // The old Olympiad rule: a drawn match with half the boards (1 MP, 1 GP).
    // MP: X 2+1+1 = 4, Y 0+2+1 = 3, Z 1+0+1 = 2. GP: X 1½+1+1 = 3½, Y ½+2+1 = 3½, Z 1+0+1 = 2.
    let drawn = TeamScoring {
        bye: ByeScoring { result: D, boards: D },
        ..TeamScoring::default()
    };
    let lines = standings(&names, &rounds, &drawn, &[]).unwrap();
    let got: Vec<(usize, f64, f64)> = lines.iter().map(|l| (l.team, l.match_points, l.game_points)).collect();
    assert_eq!(got, [(0, 4.0, 3.5), (1, 3.0, 3.5), (2, 2.0, 2.0)]);
}

#[test]
fn a_forfeited_match_counts_a_dummy_capped_at_the_opponent_and_is_no_encounter() {
    // R1 A–B, B absent on both boards (A 2–0); R2 B–C D D (1–1); R3 C–A W L (1–1).
    // MP: A 2+1 = 3, B 0+1 = 1, C 1+1 = 2.
    let forfeit = TeamRound {
        round: 1,
        first: 0,
        second: Some(1),
        boards: vec![Board::Forfeit { absent: Side::Second }; 2],
    };
    let rounds = [forfeit, pairing(2, 1, 2, &[D, D]), pairing(3, 2, 0, &[W, L])];
    let bh = TeamTieBreak::parse("BH", Primary::MatchPoints).unwrap();
    let lines = standings(&["A", "B", "C"], &rounds, &TeamScoring::default(), &[bh]).unwrap();
    // BH:MP: A min(3, B's 1) + C 2 = 3; B min(1, A's 3) + C 2 = 3; C B 1 + A 3 = 4.
    let got: Vec<(usize, f64, Vec<f64>)> = lines
        .iter()
        .map(|l| (l.team, l.match_points, l.tiebreaks.clone()))
        .collect();
    assert_eq!(got, [(0, 3.0, vec![3.0]), (2, 2.0, vec![4.0]), (1, 1.0, vec![3.0])]);
    // A and B again, B absent in R1 (A 2–0) and B winning R2 2–0 over the board: 2 MP and
    // 2 GP each. DE counts only R2 (B 2 MP against A's 0): B first. Had the forfeit counted,
    // each would average 1 over the two matches and DE would separate none.
    let rematch = [rounds[0].clone(), pairing(2, 1, 0, &[W, W])];
    let lines = standings(&["A", "B"], &rematch, &TeamScoring::default(), &[TeamTieBreak::De]).unwrap();
    assert_eq!(summary(&lines), [(1, 1, vec![1.0]), (0, 2, vec![2.0])]);
}

#[test]
fn direct_encounter_in_a_swiss_ranks_first_only_who_could_not_be_caught() {
    // Six teams A–F of two boards, three rounds, winners named first:
    // R1 A–B, C–D, F–E; R2 A–C (1½–½), B–E (1½–½), D–F; R3 E–A, B–D, C–F.
    // MP: A 2+2+0 = 4, B 0+2+2 = 4, C 2+0+2 = 4, D 0+2+0 = 2, E 0+0+2 = 2, F 2+0+0 = 2.
    let rounds = [
        pairing(1, 0, 1, &[W, W]),
        pairing(1, 2, 3, &[W, W]),
        pairing(1, 5, 4, &[W, W]),
        pairing(2, 0, 2, &[W, D]),
        pairing(2, 1, 4, &[W, D]),
        pairing(2, 3, 5, &[W, W]),
        pairing(3, 4, 0, &[W, W]),
        pairing(3, 1, 3, &[W, W]),
        pairing(3, 2, 5, &[W, W]),
    ];
    let names = ["A", "B", "C", "D", "E", "F"];
    let lines = standings(&names, &rounds, &TeamScoring::default(), &[TeamTieBreak::De]).unwrap();
    // A, B, C: A beat both (4 MP among them); B and C did not meet, so each could have made at
    // most 0 + 2: A is first whatever B–C would have been. B and C then have no encounter: tied.
    // D, E, F: D beat F, F beat E, D and E did not meet. D and F have 2, E 0 but could have had
    // 2 and D's 2 does not beat that best case: DE separates none.
    assert_eq!(
        summary(&lines),
        [
            (0, 1, vec![1.0]),
            (1, 2, vec![2.0]),
            (2, 2, vec![2.0]),
            (3, 4, vec![0.0]),
            (4, 4, vec![0.0]),
            (5, 4, vec![0.0]),
        ]
    );
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let s = TeamScoring::default();
    let names = ["A", "B", "C"];
    let err = |rounds: &[TeamRound]| standings(&names, rounds, &s, &[]).unwrap_err();
    assert_eq!(
        err(&[pairing(1, 0, 3, &[W])]),
        TeamError::UnknownTeam { round: 1, team: 3 }
    );
    assert_eq!(
        err(&[pairing(2, 1, 1, &[W])]),
        TeamError::SelfPairing { round: 2, team: 1 }
    );
    assert_eq!(
        err(&[pairing(1, 0, 1, &[W]), bye(1, 1)]),
        TeamError::PairedTwice { round: 1, team: 1 }
    );
    assert_eq!(
        err(&[pairing(1, 0, 1, &[])]),
        TeamError::Boards {
            round: 1,
            team: 0,
            boards: 0
        }
    );
    let mut b = bye(1, 2);
    b.boards.push(Board::Played(W));
    assert_eq!(
        err(&[b]),
        TeamError::Boards {
            round: 1,
            team: 2,
            boards: 1
        }
    );
    let upside_down = TeamScoring {
        win: 0.0,
        loss: 2.0,
        ..s
    };
    assert!(standings(&names, &[], &upside_down, &[]).is_err());
    let nan = TeamScoring { draw: f64::NAN, ..s };
    assert!(nan.check().is_err());
    for code in ["XX", "ESB:MX", "EMMMSB", "DE/C1", ""] {
        assert!(TeamTieBreak::parse(code, Primary::MatchPoints).is_err(), "{code}");
    }
    assert!(err(&[pairing(1, 0, 3, &[W])]).to_string().contains("team 3"));
}

#[test]
fn codes_read_and_print_back() {
    for code in [
        "MP",
        "GP",
        "DE",
        "BC",
        "TBR",
        "BBE",
        "BH:MP",
        "BH:GP/C1",
        "ESB:MG",
        "ESB:GM/C1",
    ] {
        let tb = TeamTieBreak::parse(code, Primary::MatchPoints).unwrap();
        assert_eq!(tb.code(), code);
    }
    let p = |c| TeamTieBreak::parse(c, Primary::GamePoints).unwrap().code();
    assert_eq!(p("sb"), "ESB:GG");
    assert_eq!(p("SB:MP"), "ESB:MM");
    assert_eq!(p("EMGSB/C1"), "ESB:MG/C1");
    assert_eq!(p("bh/c1"), "BH:GP/C1");
}

#[test]
fn the_table_aligns_names_of_any_width() {
    let names = ["北京队", "B", "Shanghai", "D"];
    let lines = standings(&names, &round_robin(), &TeamScoring::default(), &CXA_ORDER).unwrap();
    let text = table::render(&lines, &CXA_ORDER);
    let expected = "\
Place  Team      MP   GP   GP  DE  TBR
    1  北京队     4  6.5  6.5   1    0
    2  B          4  6.5  6.5   2    0
    3  Shanghai   2  5.5  5.5   0    1
    4  D          2  5.5  5.5   0    2
";
    assert_eq!(text, expected);
    assert_eq!(table::width("北京队"), 6);
}

/// Random pairings: a pairing's match points are a win's and a loss's, or two draws', and its
/// game points add up to its boards; the standings' totals are the pairings' totals.
#[test]
fn match_and_game_points_add_up_in_every_pairing() {
    let mut lots = Stream::new(2026);
    for _ in 0..200 {
        let loss = lots.below(2) as f64;
        let draw = loss + lots.below(3) as f64;
        let scoring = TeamScoring {
            win: draw + 1.0 + lots.below(2) as f64,
            draw,
            loss,
            ..TeamScoring::default()
        };
        let teams = 2 + lots.below(7) as usize;
        let boards = 1 + lots.below(8) as usize;
        let mut rounds = Vec::new();
        let (mut mp, mut gp) = (0.0, 0.0);
        for round in 1..=3 {
            let mut order: Vec<usize> = (0..teams).collect();
            lots.shuffle(&mut order);
            for pair in order.chunks(2) {
                let [a, b] = *pair else {
                    rounds.push(bye(round, pair[0]));
                    mp += scoring.win;
                    gp += boards as f64;
                    continue;
                };
                let bs: Vec<Board> = (0..boards)
                    .map(|_| match lots.below(8) {
                        0 => Board::Forfeit { absent: Side::First },
                        1 => Board::Forfeit { absent: Side::Second },
                        n => Board::Played([W, D, L][n as usize % 3]),
                    })
                    .collect();
                let r = team_match(&bs, &scoring);
                let sum = r.match_points.0 + r.match_points.1;
                let expected = match r.winner {
                    Some(_) => scoring.win + scoring.loss,
                    None => 2.0 * scoring.draw,
                };
                assert_eq!(sum, expected, "{bs:?}");
                assert_eq!(r.game_points.0 + r.game_points.1, boards as f64, "{bs:?}");
                assert_eq!(r.winner.is_none(), r.game_points.0 == r.game_points.1);
                mp += sum;
                gp += boards as f64;
                rounds.push(TeamRound {
                    round,
                    first: a,
                    second: Some(b),
                    boards: bs,
                });
            }
        }
        let names: Vec<String> = (0..teams).map(|t| format!("T{t}")).collect();
        let lines = standings(&names, &rounds, &scoring, &CXA_ORDER).unwrap();
        assert_eq!(lines.iter().map(|l| l.match_points).sum::<f64>(), mp);
        assert_eq!(lines.iter().map(|l| l.game_points).sum::<f64>(), gp);
        // Places never go down the table, and the primary score never goes up.
        for w in lines.windows(2) {
            assert!(w[0].place <= w[1].place && w[0].match_points >= w[1].match_points);
        }
    }
}
