//! A match as a tournament event, in the tournament crate's terms: a round robin is played in
//! the order of FIDE's Berger tables ([`crate::runner::schedule`]), the match is written as a
//! TRF-2026 file by the crate's writer ([`tournament::trf::Trf::write`]), and the standings
//! and their tie-breaks are the crate's ([`tournament::standings`]), so that
//! `arbiter tournament standings F.trf --tiebreaks SB,DE` reads the file to the same table.
//!
//! **How the games are written.** A TRF round gives each player one opponent, one colour and
//! one result (`1`, `=`, `0`), and neither TRF-2026 nor the crate's reader has a record for
//! several games between the same players in one round (TRF-2026's `W`/`D`/`L` are unrated
//! games, not game counts; a 1½–½ mini-match has no result code). So every game is a TRF
//! round of its own: in a round robin, game k (1 … G, G the games a pairing) of every pairing
//! of Berger round r is TRF round (r − 1)·G + k, so each game appears once, in the colour it
//! was played with (the side that moves first, White or Red, is `w`). In a gauntlet the first
//! engine plays every game, so each game is its own round.
//!
//! An engine without a game in a TRF round (an odd field's bye, a gauntlet's rounds of the
//! others) has a pairing-allocated bye worth nothing: `0000 - U` with `162  P 0.0` (TRF-2026's
//! points of a PAB). Not a zero-point bye (`Z`): the tournament crate reads tie-breaks by C.07
//! Article 16, where `Z` is a *requested* bye, and one in the last rounds (category 5) would
//! count as a draw in the engine's score as an opponent, so the SB of whoever met the engine
//! whose bye falls in the last Berger round would rise. A PAB is category 1, counted as
//! awarded: nothing. SB and DE then see only the games. Several games between two engines are
//! what C.07's Direct Encounter averages ("several games between two players count as their
//! average"); SB counts each game against the opponent's final score.
//!
//! Results are the PGN's: a decided game is a game played (`1`/`0`), a loss by a crash, a hang
//! or a broken protocol included, as the PGN scores it (a forfeit code would take the game out
//! of DE and change SB); a game not finished (the match stopped) keeps its pairing and a blank
//! result. Engines are players 1 … N in the order given, unrated; the records are `012` the
//! event, `022` the site, `042` the date, `062` the players, `092` what the match is, `142` the
//! rounds of the whole schedule, and `202`/`212` the tie-breaks of the standings.

use tournament::result::{Bye, RoundResult};
use tournament::standings::{standings, Line, TieBreak};
use tournament::trf::{Colour, Player, Round, Trf};

use ratings::sprt::Trinomial;

use crate::runner::{schedule, Finished, Job, MatchConfig};

/// Points, then Sonneborn-Berger, then Direct Encounter (BH is not for round robins: C.07).
pub const DEFAULT_TIEBREAKS: [TieBreak; 2] = [TieBreak::Sb, TieBreak::De];

/// Past this estimate of the tournament crate's work ([`tiebreak_cost`]) the standings are by
/// points only and the TRF is written without ranks (under a second's work).
const TIEBREAK_BUDGET: u64 = 200_000_000;

/// An estimate of the steps the tournament crate's tie-breaks take on `trf`: each game played
/// reads the opponent's whole record (its adjusted score, C.07 16.3), and each requested or
/// zero-point bye (`Z`, `H`, a forfeit loss) looks ahead past those that follow it (category 3
/// or 5), so about players × rounds² (the match's own byes are `U`, read at once). About 3 ns a
/// step: 7.2e7 for three engines and 6,000 rounds took a quarter of a second.
pub fn tiebreak_cost(trf: &Trf) -> u64 {
    // The work of reading each player's record once.
    let record: Vec<u64> = trf
        .players
        .iter()
        .map(|p| {
            let mut ahead = 0u64;
            let mut scan = 0u64;
            for r in p.rounds.iter().rev() {
                if r.played() || !r.voluntary_unplayed() {
                    ahead = 0;
                } else {
                    scan += ahead + 1;
                    ahead += 1;
                }
            }
            p.rounds.len() as u64 + scan
        })
        .collect();
    let mut cost = 0u64;
    for p in &trf.players {
        for r in p.rounds.iter().filter(|r| r.opponent != 0) {
            let i = trf.players.iter().position(|o| o.number == r.opponent);
            cost = cost.saturating_add(i.map_or(0, |i| record[i]));
        }
    }
    cost
}

/// Whether the tie-breaks of `trf` are cheap enough to compute.
pub fn tiebreaks_affordable(trf: &Trf) -> bool {
    tiebreak_cost(trf) <= TIEBREAK_BUDGET
}

/// The tie-breaks the match ranks by: those asked for, else [`DEFAULT_TIEBREAKS`].
pub fn order(config: &MatchConfig) -> Vec<TieBreak> {
    if config.tiebreaks.is_empty() {
        DEFAULT_TIEBREAKS.to_vec()
    } else {
        config.tiebreaks.clone()
    }
}

/// The match as a TRF: the schedule's games that are `finished` with their results, the other
/// games of the rounds written so far paired without a result. `date` is PGN's `YYYY.MM.DD`.
pub fn to_trf(config: &MatchConfig, finished: &[Finished], date: &str) -> Trf {
    let jobs = schedule(config.engines.len(), config.gauntlet, config.games, 0);
    trf_of(config, &jobs, finished, date)
}

fn trf_of(config: &MatchConfig, jobs: &[Job], finished: &[Finished], date: &str) -> Trf {
    let total = jobs.iter().map(|j| j.trf_round).max().unwrap_or(0) as usize;
    let bye = Round::bye(RoundResult::Bye(Bye::PairingAllocated));
    let mut players: Vec<Player> = config
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| Player {
            number: i as u32 + 1,
            name: e.config.name.clone(),
            rating: 0,
            federation: String::new(),
            points: 0.0,
            rounds: vec![bye; total],
            written: 0,
        })
        .collect();
    let mut results: Vec<Option<&str>> = vec![None; jobs.len()];
    for f in finished {
        if let Some(slot) = (f.number as usize).checked_sub(1).and_then(|i| results.get_mut(i)) {
            *slot = Some(f.result.as_str());
        }
    }
    // Rounds up to the last one with a finished game are written; a game of them still to be
    // played keeps a blank result.
    let written = jobs
        .iter()
        .zip(&results)
        .filter(|(_, r)| r.is_some())
        .map(|(j, _)| j.trf_round as usize)
        .max()
        .unwrap_or(0);
    for (job, result) in jobs.iter().zip(&results) {
        let round = job.trf_round as usize;
        if round > written {
            continue;
        }
        let (first, second) = match result {
            Some("1-0") => (RoundResult::WIN, RoundResult::LOSS),
            Some("0-1") => (RoundResult::LOSS, RoundResult::WIN),
            Some("1/2-1/2") => (RoundResult::DRAW, RoundResult::DRAW),
            _ => (RoundResult::Pending, RoundResult::Pending),
        };
        players[job.first].rounds[round - 1] = Round {
            opponent: job.second as u32 + 1,
            colour: Colour::White,
            result: first,
        };
        players[job.second].rounds[round - 1] = Round {
            opponent: job.first as u32 + 1,
            colour: Colour::Black,
            result: second,
        };
    }
    for p in &mut players {
        p.written = written;
        // Games only: a bye is worth nothing here (`Round::points` counts a `U` as a win).
        p.points = p.rounds.iter().filter(|r| r.opponent != 0).map(Round::points).sum();
    }
    let kind = if config.gauntlet {
        format!(
            "Engine gauntlet: the first engine against each other, {} games a pair, one game a round",
            config.games
        )
    } else {
        format!(
            "Engine round robin (Berger tables), {} games a pairing with colours alternating, one game a round",
            config.games
        )
    };
    let mut trf = Trf {
        players,
        other: vec![
            format!("012 {}", config.event),
            format!("022 {}", config.site),
            format!("042 {}", date.replace('.', "/")),
            format!("062 {}", config.engines.len()),
            format!("092 {kind}"),
            format!("142 {total}"),
        ],
    };
    if trf.players.iter().any(|p| p.rounds.iter().any(|r| r.opponent == 0)) {
        trf.set_records("162", vec!["162  P 0.0".to_string()]);
    }
    tournament::event::set_tiebreaks(&mut trf, &order(config));
    trf
}

/// The TRF's text, each engine ranked when the tie-breaks are affordable.
pub fn trf_text(trf: &Trf, order: &[TieBreak]) -> String {
    if !tiebreaks_affordable(trf) {
        return trf.write(|_| None);
    }
    let places: Vec<(u32, usize)> = standings(trf, order).iter().map(|l| (l.number, l.place)).collect();
    trf.write(|n| places.iter().find(|p| p.0 == n).map(|p| p.1))
}

/// The standings as text: place, engine, points of games, wins, draws and losses (`tally`,
/// by engine), and the tie-breaks in `order`, computed by the tournament crate from `trf`.
pub fn standings_text(trf: &Trf, order: &[TieBreak], tally: &[Trinomial]) -> String {
    let rounds = trf.players.first().map_or(0, |p| p.rounds.len());
    let lines: Vec<Line> = if tiebreaks_affordable(trf) {
        standings(trf, order)
    } else {
        // Points only: the tie-breaks would take too long.
        let mut lines: Vec<Line> = trf
            .players
            .iter()
            .map(|p| Line {
                place: 0,
                number: p.number,
                name: p.name.clone(),
                points: p.points,
                tiebreaks: Vec::new(),
            })
            .collect();
        lines.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.number.cmp(&b.number)));
        for i in 0..lines.len() {
            lines[i].place = if i > 0 && lines[i].points == lines[i - 1].points {
                lines[i - 1].place
            } else {
                i + 1
            };
        }
        lines
    };
    let width = lines.iter().map(|l| l.name.chars().count()).max().unwrap_or(0).max(6);
    let mut s = String::new();
    for l in &lines {
        let t = tally.get(l.number as usize - 1).copied().unwrap_or_default();
        s.push_str(&format!(
            "  {:>2}. {:<width$} {:>6.1} / {:<4} +{} ={} -{}",
            l.place,
            l.name,
            l.points,
            t.games(),
            t.wins,
            t.draws,
            t.losses
        ));
        for (tb, v) in order.iter().zip(&l.tiebreaks) {
            s.push_str(&format!("  {} {v}", tb.code()));
        }
        s.push('\n');
    }
    if lines.iter().any(|l| l.tiebreaks.len() < order.len()) {
        s.push_str(&format!(
            "  (by points only: the tie-breaks of {rounds} TRF rounds would take too long)\n"
        ));
    }
    s
}

/// The heading of the standings: `points, then SB, DE`.
pub fn heading(order: &[TieBreak]) -> String {
    let codes: Vec<&str> = order.iter().map(|t| t.code()).collect();
    if codes.is_empty() {
        "points".to_string()
    } else {
        format!("points, then {}", codes.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Control;
    use crate::runner::Entrant;
    use engine::EngineConfig;

    fn config(names: &[&str], games: u32, gauntlet: bool) -> MatchConfig {
        MatchConfig {
            engines: names
                .iter()
                .map(|n| Entrant {
                    config: EngineConfig::new(*n, "x"),
                    control: Control::default(),
                })
                .collect(),
            gauntlet,
            games,
            event: "E".into(),
            site: "S".into(),
            ..MatchConfig::default()
        }
    }

    fn finished(jobs: &[Job], results: &[&str]) -> Vec<Finished> {
        jobs.iter()
            .zip(results)
            .map(|(j, r)| Finished {
                number: j.number,
                first: String::new(),
                second: String::new(),
                result: r.to_string(),
                termination: String::new(),
            })
            .collect()
    }

    #[test]
    fn a_round_robin_as_a_trf_reads_back_with_every_game_once() {
        let cfg = config(&["A", "B", "C"], 2, false);
        let jobs = schedule(3, false, 2, 0);
        // Berger for 3 (4 is the bye): 2-3, then 1-2, then 3-1; two games a pairing.
        let order: Vec<(usize, usize, u32)> = jobs.iter().map(|j| (j.first, j.second, j.trf_round)).collect();
        assert_eq!(
            order,
            [(1, 2, 1), (2, 1, 2), (0, 1, 3), (1, 0, 4), (2, 0, 5), (0, 2, 6)]
        );
        let results = ["1-0", "1/2-1/2", "1-0", "0-1", "0-1", "1/2-1/2"];
        let trf = to_trf(&cfg, &finished(&jobs, &results), "2026.11.30");
        let text = trf_text(&trf, &DEFAULT_TIEBREAKS);
        let back = Trf::parse(&text).unwrap();
        assert_eq!(back.players.len(), 3);
        let points: Vec<f64> = back.players.iter().map(|p| p.points).collect();
        // A beat B twice and C once, drew once; B beat C once and drew once; C drew twice.
        assert_eq!(points, [3.5, 1.5, 1.0]);
        for p in &back.players {
            assert_eq!(p.rounds.len(), 6);
            // Two rounds of bye, four games.
            assert_eq!(
                p.rounds
                    .iter()
                    .filter(|r| r.opponent == 0 && r.result == RoundResult::Bye(Bye::PairingAllocated))
                    .count(),
                2
            );
            assert_eq!(p.rounds.iter().filter(|r| r.played()).count(), 4);
        }
        assert_eq!(back.record("142"), Some("6"));
        assert_eq!(back.record("202"), Some("SB,DE"));
        assert_eq!(back.record("042"), Some("2026/11/30"));
        // Byes are worth nothing (a PAB of 0 points), and count as nothing in an opponent's score.
        assert_eq!(back.record("162"), Some("P 0.0"));
        assert_eq!(tournament::event::point_system(&back).pab, 0);
        let table = standings(&back, &DEFAULT_TIEBREAKS);
        assert_eq!(
            table.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            ["A", "B", "C"]
        );
        assert_eq!(table.iter().map(|l| l.points).collect::<Vec<_>>(), [3.5, 1.5, 1.0]);
        // SB from the games alone: A beat B (1.5) twice, beat C (1.0) once and drew once.
        assert_eq!(table[0].tiebreaks[0], 2.0 * 1.5 + 1.0 + 0.5 * 1.0);
        // B's bye is in the last round and C's in the middle: as opponents they count alike.
        assert_eq!(table[1].tiebreaks[0], 1.0 + 0.5 * 1.0);
        assert_eq!(table[2].tiebreaks[0], 0.5 * 1.5 + 0.5 * 3.5);
        let tally = [Trinomial::default(); 3];
        let shown = standings_text(&back, &DEFAULT_TIEBREAKS, &tally);
        assert!(shown.contains("SB") && shown.contains("DE"), "{shown}");
    }

    #[test]
    fn unfinished_games_keep_their_pairing_without_a_result() {
        let cfg = config(&["A", "B", "C", "D"], 1, false);
        let jobs = schedule(4, false, 1, 0);
        let trf = to_trf(&cfg, &finished(&jobs[..1], &["1-0"]), "2026.11.30");
        let back = Trf::parse(&trf.write(|_| None)).unwrap();
        // Round 1 is written (1-4 played, 2-3 pending); rounds 2 and 3 are not.
        let one = &back.players[0].rounds[0];
        assert_eq!(
            (one.opponent, one.colour, one.result),
            (4, Colour::White, RoundResult::WIN)
        );
        let two = &back.players[1].rounds[0];
        assert_eq!((two.opponent, two.result), (3, RoundResult::Pending));
        assert_eq!(back.players[0].written, 1);
    }

    #[test]
    fn a_gauntlet_is_one_game_a_round() {
        let cfg = config(&["A", "B", "C"], 2, true);
        let jobs = schedule(3, true, 2, 0);
        let trf = to_trf(&cfg, &finished(&jobs, &["1-0", "1-0", "0-1", "1/2-1/2"]), "2026.11.30");
        let back = Trf::parse(&trf.write(|_| None)).unwrap();
        assert_eq!(back.players[0].rounds.iter().filter(|r| r.played()).count(), 4);
        assert_eq!(
            back.players.iter().map(|p| p.points).collect::<Vec<_>>(),
            [1.0 + 0.0 + 0.0 + 0.5, 1.0, 1.5]
        );
    }

    #[test]
    fn the_budget_keeps_tiebreaks_cheap() {
        let trf = |n: usize, games: u32| {
            let names: Vec<String> = (0..n).map(|i| format!("E{i}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let jobs = schedule(n, false, games, 0);
            let results: Vec<&str> = jobs
                .iter()
                .map(|j| ["1-0", "0-1", "1/2-1/2"][j.number as usize % 3])
                .collect();
            to_trf(&config(&names, games, false), &finished(&jobs, &results), "2026.11.30")
        };
        assert!(tiebreaks_affordable(&trf(10, 100)));
        assert!(tiebreaks_affordable(&trf(3, 100)));
        // 6,000 rounds of three: 7.2e7 steps, a quarter of a second.
        assert!(tiebreaks_affordable(&trf(3, 2000)));
        assert!(!tiebreaks_affordable(&trf(3, 5000)));
        let big = trf(3, 5000);
        let shown = standings_text(&big, &DEFAULT_TIEBREAKS, &[]);
        assert!(shown.contains("by points only"), "{shown}");
    }
}
