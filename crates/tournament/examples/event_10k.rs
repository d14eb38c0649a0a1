//! Times every operation of an event of every format but the Dutch on a large field (issue 27:
//! under a second each for 10,000 players, one core).
//!
//! ```sh
//! cargo run --profile ci -p arbiter-tournament --example event_10k -- --players 10000 --runs 5
//! ```
//!
//! Each line is the median of `--runs` timings, each on a fresh copy of the event. Results are
//! written straight into the pairings (not timed) so the set-up stays cheap — a round robin's
//! straight into its compact codes, so `--rr-rounds 5000` (a middle round, 25 million games)
//! sets up in seconds; entering one result through [`Event::result`] is timed on its own. `--write DIR` also saves the events, as the
//! command line keeps them, for timing `arbiter tournament pair`/`standings` end to end after
//! `arbiter tournament import`.

use std::path::PathBuf;
use std::time::Instant;

use tournament::competition::{Draw, Event, Format, Game, Plan};
use tournament::result::Score;

fn main() {
    let mut players = 10_000u32;
    let mut runs = 5usize;
    let mut rr_rounds = 10u32;
    let mut write: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage(&a));
        match a.as_str() {
            "--players" => players = value().parse().unwrap_or_else(|_| usage("--players")),
            "--runs" => runs = value().parse().unwrap_or_else(|_| usage("--runs")),
            "--rr-rounds" => rr_rounds = value().parse().unwrap_or_else(|_| usage("--rr-rounds")),
            "--write" => write = Some(PathBuf::from(value())),
            _ => usage(&a),
        }
    }
    let bench = Bench { runs };
    println!("{players} entrants, median of {runs} runs");
    let save = |e: &Event, file: &str| {
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir).expect("--write: cannot create the folder");
            std::fs::write(dir.join(file), e.to_text()).expect("--write: cannot write");
        }
    };

    // (a) Round robin: round 1, then a later round after `rr_rounds` played.
    let rr = field(Format::RoundRobin { cycles: 1 }, players);
    save(&rr, "rr-new.json");
    bench.pair("round robin: pair round 1", &rr);
    let mut rr_later = rr.clone();
    let t = Instant::now();
    play_rr(&mut rr_later, rr_rounds);
    println!(
        "(set up {rr_rounds} rounds in {:.1} s, not timed)",
        t.elapsed().as_secs_f64()
    );
    save(&rr_later, &format!("rr-{rr_rounds}.json"));
    bench.pair(&format!("round robin: pair round {}", rr_rounds + 1), &rr_later);
    bench.time(
        &format!("round robin: standings DE,WIN,SB after {rr_rounds} rounds"),
        || {
            rr_later.standings().expect("standings");
        },
    );
    let mut rr_open = rr_later.clone();
    rr_open.pair().expect("pairs");
    save(&rr_open, &format!("rr-{rr_rounds}-paired.json"));
    let id = rr_open.stages[0].rounds.last().expect("paired").pairings[players as usize / 4]
        .id
        .clone();
    bench.with(
        &format!("round robin: enter one result ({id}, round {})", rr_rounds + 1),
        &rr_open,
        |e| {
            e.result(&id, &["1-0"], false).expect("result");
        },
    );
    let middle = rr_rounds.div_ceil(2).max(1);
    let old = format!("{middle}.{}", players / 4 + 1);
    bench.with(
        &format!("round robin: correct one result of round {middle} ({old}, --replace)"),
        &rr_open,
        |e| {
            e.result(&old, &["1/2"], true).expect("result");
        },
    );
    let text = rr_later.to_text();
    bench.time(
        &format!(
            "round robin after {rr_rounds} rounds: to_text ({} MB)",
            text.len() >> 20
        ),
        || {
            rr_later.to_text();
        },
    );
    bench.time(&format!("round robin after {rr_rounds} rounds: from_text"), || {
        Event::from_text(&text).expect("reads");
    });

    // (b) Groups of 100 (or of ten when the field is small).
    let groups = (players / 100).max(2);
    let g = field(Format::Groups { groups, cycles: 1 }, players);
    bench.pair(&format!("groups ({groups}): deal and pair round 1"), &g);
    let mut g_later = g.clone();
    for _ in 0..3 {
        play_round(&mut g_later);
    }
    save(&g_later, "groups-3.json");
    bench.pair("groups: pair round 4", &g_later);
    bench.time("groups: standings (every table) after 3 rounds", || {
        g_later.standings().expect("standings");
    });

    // (c, d) Seeded and double knockout: the bracket, then round 2 after round 1.
    for (name, format) in [
        (
            "knockout",
            Format::Knockout {
                draw: Draw::Seeded,
                third_place: true,
            },
        ),
        ("double knockout", Format::DoubleKnockout),
    ] {
        let k = field(format, players);
        bench.pair(&format!("{name}: draw the bracket (round 1)"), &k);
        let mut k2 = k.clone();
        play_round(&mut k2);
        save(&k2, &format!("{}-1.json", name.replace(' ', "-")));
        bench.pair(&format!("{name}: pair round 2"), &k2);
        play_round(&mut k2);
        bench.time(&format!("{name}: placings after 2 rounds"), || {
            k2.standings().expect("standings");
        });
        let mut done = k2.clone();
        while play_round(&mut done) {}
        assert!(done.finished(), "{name} plays out");
        bench.time(&format!("{name}: placings when finished"), || {
            done.standings().expect("standings");
        });
    }

    // (e) The card draw.
    let cards = field(
        Format::Knockout {
            draw: Draw::Cards,
            third_place: true,
        },
        players,
    );
    bench.pair("card draw: round 1", &cards);
    let mut c2 = cards.clone();
    play_round(&mut c2);
    save(&c2, "cards-1.json");
    bench.pair("card draw: round 2", &c2);
    play_round(&mut c2);
    bench.time("card draw: placings after 2 rounds", || {
        c2.standings().expect("standings");
    });
}

fn usage(what: &str) -> ! {
    eprintln!("{what}?\nusage: event_10k [--players N] [--runs N] [--rr-rounds N] [--write DIR]");
    std::process::exit(2)
}

struct Bench {
    runs: usize,
}

impl Bench {
    /// Times `f` on a fresh copy of `event` each run (the copy not timed).
    fn with(&self, what: &str, event: &Event, mut f: impl FnMut(&mut Event)) {
        let mut times = Vec::new();
        for _ in 0..self.runs {
            let mut e = event.clone();
            let t = Instant::now();
            f(&mut e);
            times.push(t.elapsed().as_secs_f64());
        }
        report(what, times);
    }

    fn pair(&self, what: &str, event: &Event) {
        self.with(what, event, |e| {
            e.pair().expect("pairs");
        });
    }

    fn time(&self, what: &str, mut f: impl FnMut()) {
        let times = (0..self.runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect();
        report(what, times);
    }
}

fn report(what: &str, mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let flag = if median < 1.0 { "" } else { "  (over 1 s)" };
    println!("{:>10.1} ms  {what}{flag}", median * 1000.0);
}

/// An event of `players` entrants with ratings spread like a large open.
fn field(format: Format, players: u32) -> Event {
    let mut e = Event::new("Bench", vec![Plan::new(format)]);
    e.seed = 27;
    for i in 0..players {
        let rating = 1000 + (tournament::lots::splitmix64(u64::from(i)) % 1800) as u32;
        e.register(&format!("Player {i:05}"), rating, "", &[])
            .expect("registers");
    }
    e
}

/// Plays `rounds` rounds of a round robin as the event keeps them once played: one result
/// code a board (`1`, `=`, `0`) in each round's codes, the higher-rated winning most games
/// and 20 % drawn, as [`play_round`] decides them.
fn play_rr(e: &mut Event, rounds: u32) {
    if rounds == 0 {
        return;
    }
    e.pair().expect("pairs round 1");
    let members = e.stages[0].groups[0].clone();
    let n = members.len() as u32;
    let rating = |id: u32| e.entrant(id).map_or(0, |x| x.rating);
    let ratings: Vec<u32> = members.iter().map(|&id| rating(id)).collect();
    let compact = (1..=rounds)
        .map(|r| {
            let boards = tournament::round_robin::berger_round(n, r).expect("a round of the table");
            boards
                .into_iter()
                .map(|b| match b {
                    tournament::round_robin::Pairing::Bye(_) => '.',
                    tournament::round_robin::Pairing::Game(w, k) => {
                        let first = members[w as usize - 1];
                        let (a, b) = (ratings[w as usize - 1], ratings[k as usize - 1]);
                        match (
                            tournament::lots::splitmix64(u64::from(first) << 32 | u64::from(r)) % 10,
                            a >= b,
                        ) {
                            (0..=1, _) => '=',
                            (0..=2, true) | (3..=9, false) => '0',
                            _ => '1',
                        }
                    }
                })
                .collect()
        })
        .collect();
    e.stages[0].rounds.clear();
    e.stages[0].compact = compact;
}

/// Pairs the next round and decides every pairing in it: the higher-rated wins most games,
/// a round robin has its draws; a tied knockout match would need play-offs, so knockouts have
/// none. Returns false when the event is finished.
fn play_round(e: &mut Event) -> bool {
    if e.finished() {
        return false;
    }
    let round = e.pair().expect("pairs");
    let knockout = e.plan[e.stages.len() - 1].format.needs_winner();
    let s = e.stages.len() - 1;
    let number = round.number as usize;
    let rating = |id: u32| e.entrant(id).map_or(0, |x| x.rating);
    let ratings: Vec<(u32, u32)> = round
        .pairings
        .iter()
        .map(|p| (rating(p.first), p.second.map_or(0, rating)))
        .collect();
    let rounds = &mut e.stages[s].rounds;
    let played = rounds.iter_mut().find(|r| r.number as usize == number).expect("paired");
    for (p, (a, b)) in played.pairings.iter_mut().zip(ratings) {
        if p.second.is_none() || !p.games.is_empty() {
            continue;
        }
        let r = tournament::lots::splitmix64(u64::from(p.first) << 32 | u64::from(number as u32)) % 10;
        let score = match (r, a >= b) {
            (0..=1, _) if !knockout => Score::Draw,
            (0..=2, true) | (3..=9, false) => Score::Loss,
            _ => Score::Win,
        };
        p.games.push(Game {
            score,
            forfeit: false,
            double_forfeit: false,
        });
    }
    debug_assert!(e.open_count() == 0 || knockout, "every game decided");
    true
}
