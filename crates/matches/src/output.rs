//! The lines a match prints as fastchess and cutechess print them, so that the scripts their
//! users run on that output read arbiter's: `Started game`, `Finished game`, cutechess's
//! `Score of` line (wins - losses - draws), and fastchess's `Results of` block with `Elo`,
//! `LOS`, `Games` and `Ptnml(0-2)`.

use ratings::sprt::{elo_estimate, nelo_estimate, Status};

use crate::play::Control;
use crate::runner::{Job, MatchConfig, Summary};

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
