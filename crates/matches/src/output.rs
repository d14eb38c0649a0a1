//! The lines a match prints as fastchess and cutechess print them, so that the scripts their
//! users run on that output read arbiter's: `Started game`, `Finished game`, cutechess's
//! `Score of` line (wins - losses - draws), and fastchess's `Results of` block with `Elo`,
//! `LOS`, `Games` and `Ptnml(0-2)`.

use std::time::Duration;

use ratings::sprt::{elo_estimate, nelo_estimate, Status};

use crate::play::Control;
use crate::runner::{Done, Job, MatchConfig, Summary};

/// `Started game 3 of 100 (A vs B)`: the first engine named has the first move.
pub fn started(job: &Job, total: usize, names: &[String]) -> String {
    format!(
        "Started game {} of {total} ({} vs {})",
        job.number, names[job.first], names[job.second]
    )
}

/// `Finished game 3 (A vs B): 1-0 {how it ended}`.
pub fn finished(job: &Job, names: &[String], result: &str, explanation: &str) -> String {
    format!(
        "Finished game {} ({} vs {}): {result} {{{explanation}}}",
        job.number, names[job.first], names[job.second]
    )
}

/// cutechess's `Score of A vs B: W - L - D  [0.550] N`, from the first engine's side (against
/// the field with more than two engines).
pub fn score(summary: &Summary, names: &[String]) -> String {
    let t = &summary.tally.trinomial;
    let games = t.wins + t.draws + t.losses;
    let ratio = if games == 0 {
        0.0
    } else {
        (t.wins as f64 + 0.5 * t.draws as f64) / games as f64
    };
    format!(
        "Score of {} vs {}: {} - {} - {}  [{ratio:.3}] {games}",
        names[0],
        opponents(names),
        t.wins,
        t.losses,
        t.draws
    )
}

fn opponents(names: &[String]) -> &str {
    if names.len() == 2 {
        &names[1]
    } else {
        "the field"
    }
}

/// fastchess's block between two rules: `Results of A vs B (tc, threads, hash):`, `Elo:` and
/// `nElo:` (from the pairs), `LOS:` and `DrawRatio:`, `Games:` with wins, losses, draws and
/// points, `Ptnml(0-2):` (pairs scoring 0, ½, 1, 1½ and 2), and the SPRT's `LLR:` when one runs.
pub fn results(summary: &Summary, config: &MatchConfig, names: &[String]) -> String {
    let rule = "--------------------------------------------------\n";
    let mut s = String::from(rule);
    let first = &config.engines[0];
    let same = |f: &dyn Fn(&crate::runner::Entrant) -> String| {
        let a = f(first);
        match config.engines.iter().map(f).find(|b| *b != a) {
            Some(b) => format!("{a} - {b}"),
            None => a,
        }
    };
    let option = |e: &crate::runner::Entrant, name: &str, unit: &str| {
        e.config
            .options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or_else(|| "NULL".to_string(), |(_, v)| format!("{v}{unit}"))
    };
    s.push_str(&format!(
        "Results of {} vs {} ({}, {}, {}):\n",
        names[0],
        opponents(names),
        same(&|e| limit_text(&e.control)),
        same(&|e| option(e, "Threads", "t")),
        same(&|e| option(e, "Hash", "MB")),
    ));
    let p = &summary.tally.pentanomial;
    let t = &summary.tally.trinomial;
    if p.pairs() > 0 {
        let e = elo_estimate(p);
        let n = nelo_estimate(p);
        s.push_str(&format!(
            "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}\n",
            e.elo, e.error95, n.elo, n.error95
        ));
        let draws = (p.counts[2] as f64) / p.pairs() as f64 * 100.0;
        s.push_str(&format!("LOS: {:.2} %, DrawRatio: {draws:.2} %\n", e.los * 100.0));
    }
    let games = t.wins + t.draws + t.losses;
    let points = t.wins as f64 + 0.5 * t.draws as f64;
    let ratio = if games == 0 { 0.0 } else { points / games as f64 * 100.0 };
    s.push_str(&format!(
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({ratio:.2} %)\n",
        t.wins, t.losses, t.draws
    ));
    let c = p.counts;
    s.push_str(&format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]\n",
        c[0], c[1], c[2], c[3], c[4]
    ));
    if let (Some(sprt), Some((llr, status))) = (config.sprt, summary.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match status {
            Status::AcceptH0 => " - H0 was accepted",
            Status::AcceptH1 => " - H1 was accepted",
            Status::Continue => "",
        };
        s.push_str(&format!(
            "LLR: {llr:.2} ({lo:.2}, {hi:.2}) [{:.2}, {:.2}]{verdict}\n",
            sprt.elo0, sprt.elo1
        ));
    }
    s.push_str(rule);
    s
}

/// A limit as fastchess writes it in its results: `10+0.1`, `40/60`, `0.1/move`, `1000
/// nodes`, `12 plies` (depth).
fn limit_text(c: &Control) -> String {
    let secs = |ms: u64| {
        let s = format!("{}", ms as f64 / 1000.0);
        s.trim_end_matches(".0").to_string()
    };
    if let Some(tc) = c.tc {
        let moves = tc.moves.map_or(String::new(), |m| format!("{m}/"));
        let inc = if tc.increment > 0 {
            format!("+{}", secs(tc.increment))
        } else {
            String::new()
        };
        return format!("{moves}{}{inc}", secs(tc.time));
    }
    if let Some(ms) = c.movetime {
        return format!("{}/move", secs(ms));
    }
    if let Some(n) = c.nodes {
        return format!("{n} nodes");
    }
    match c.depth {
        Some(d) => format!("{d} plies"),
        None => "-".to_string(),
    }
}

/// `[12/100] A vs B 1-0 checkmate (84 plies) | A: +5 =4 -3 (54.2%) | Elo 29.0 ± 95.3 (LOS 72.1%) | 11.3 games/min | LLR …`
pub(crate) fn progress_line(
    summary: &Summary,
    done: &Done,
    names: &[String],
    total: usize,
    config: &MatchConfig,
) -> String {
    let p = &done.played;
    let t = &summary.tally.trinomial;
    let games = t.games().max(1) as f64;
    let pct = (t.wins as f64 + 0.5 * t.draws as f64) / games * 100.0;
    let mut line = format!(
        "[{}/{total}] game {}: {} vs {} {} {} ({} plies) | {}: +{} ={} -{} ({pct:.1}%)",
        summary.finished.len(),
        done.job.number,
        names[done.job.first],
        names[done.job.second],
        p.result.pgn(),
        p.termination,
        p.plies,
        names[0],
        t.wins,
        t.draws,
        t.losses,
    );
    if summary.tally.pentanomial.pairs() > 0 {
        let e = elo_estimate(&summary.tally.pentanomial);
        line.push_str(&format!(
            " | Elo {:.1} ± {:.1} (LOS {:.1}%)",
            e.elo,
            e.error95,
            e.los * 100.0
        ));
    }
    if names.len() > 2 {
        // Points only (cheap); the tie-breaks come with each complete round and at the end.
        let mut rows: Vec<(usize, f64)> = summary
            .tally
            .standings
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.wins as f64 + 0.5 * t.draws as f64))
            .collect();
        rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let rows: Vec<String> = rows.iter().map(|(i, p)| format!("{} {p}", names[*i])).collect();
        line.push_str(&format!(" | {}", rows.join(", ")));
    }
    line.push_str(&format!(" | {:.1} games/min", summary.games_per_minute()));
    if let (Some(s), Some((llr, status))) = (config.sprt, summary.sprt) {
        let (lo, hi) = s.bounds();
        line.push_str(&format!(" | LLR {llr:.2} ({lo:.2}, {hi:.2})"));
        match status {
            Status::AcceptH0 => line.push_str(" H0 accepted"),
            Status::AcceptH1 => line.push_str(" H1 accepted"),
            Status::Continue => {}
        }
    }
    line
}

/// The match's summary as text: results, the first engine's statistics, standings, how games
/// ended, speed and the runner's overhead.
pub fn report(summary: &Summary, config: &MatchConfig) -> String {
    let names: Vec<&str> = config.engines.iter().map(|e| e.config.name.as_str()).collect();
    let mut s = String::new();
    let owned: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    s.push_str(&crate::output::results(summary, config, &owned));
    s.push_str(&crate::output::score(summary, &owned));
    s.push('\n');
    if let (Some(sprt), Some((llr, status))) = (config.sprt, summary.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match status {
            Status::AcceptH0 => "H0 accepted",
            Status::AcceptH1 => "H1 accepted",
            Status::Continue => "no decision",
        };
        s.push_str(&format!(
            "SPRT ({:.1}, {:.1}) {:?}: LLR {llr:.2} ({lo:.2}, {hi:.2}): {verdict}\n",
            sprt.elo0, sprt.elo1, sprt.model
        ));
    }
    if names.len() > 2 {
        // The tournament crate's standings of the match as an event.
        let order = crate::event::order(config);
        let trf = crate::event::to_trf(config, &summary.finished, &crate::runner::pgn_date());
        s.push_str(&format!("Standings ({}):\n", crate::event::heading(&order)));
        s.push_str(&crate::event::standings_text(&trf, &order, &summary.tally.standings));
    }
    let mut ends = summary.terminations.clone();
    ends.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let ends: Vec<String> = ends.iter().map(|(c, n)| format!("{c} {n}")).collect();
    if !ends.is_empty() {
        s.push_str(&format!("Endings: {}\n", ends.join(", ")));
    }
    s.push_str(&format!(
        "{} games in {:.1} s ({:.1} games/min), {} plies; engines thought {:.1} s\n",
        summary.played,
        summary.wall.as_secs_f64(),
        summary.games_per_minute(),
        summary.plies,
        summary.engine_time.as_secs_f64()
    ));
    s.push_str(&format!(
        "runner overhead: {:.1} µs/ply (of which the runner's own code {:.1} µs/ply; the rest is pipes and \
         wake-ups)\n",
        summary.overhead_per_ply_us(),
        summary.work_per_ply_us()
    ));
    if let (Some((user, sys)), true) = (summary.cpu, summary.plies > 0) {
        let per = |d: Duration| d.as_secs_f64() * 1e6 / summary.plies as f64;
        s.push_str(&format!(
            "runner CPU: {:.1} µs/ply (user {:.1}, system {:.1})\n",
            per(user + sys),
            per(user),
            per(sys)
        ));
    }
    s
}
