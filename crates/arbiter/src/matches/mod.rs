//! `arbiter match`: engine matches judged by the real rules, with fastchess's way of writing
//! options (`--engine name=A cmd=… proto=uci option.Hash=16 --each tc=10+0.1 …`; a single
//! dash works too). A round robin of three or more engines is played as a round-robin event
//! (Berger tables) and ends with standings and tie-breaks (`--tiebreaks`, default SB,DE);
//! `--trfout F.trf` writes the match as a TRF-2026 file (`matches::event`). Chess games can be
//! adjudicated by Syzygy tablebases (`--tb DIR[:DIR…]`, `--tbpieces`, `--tbadjudicate`,
//! `--tbignore50`, as fastchess's; see `matches::syzygy` for where they differ).

mod args;
mod setup;

use std::io::Write;

use ::matches::runner::{report, run_match, stable_hash, MatchConfig};
use anyhow::{bail, Context, Result};
use game::Kind;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};

use args::parse;
use setup::{adjudication, entrant, openings, sprt};

pub const USAGE: &str = "\
arbiter match --engine name=A cmd=PATH [args=\"…\"] [dir=D] [proto=uci|ucci] [coords=auto|fsf|iccs] [option.NAME=VALUE …]
              [tc=40/60+0.6] [st=0.1] [nodes=N] [depth=N | plies=N] [timemargin=MS] [timeout=S]
              --engine name=B cmd=… [--engine …]
              [--each KEY=VALUE …]                      (applies to every engine)
              [--game xiangqi|chess] [--rules cxa|axf|simplified|fide|automatic-draws] [--at-trigger]
              [--games N | --rounds R] [--concurrency C] [--gauntlet]
              [--openings file=F [format=epd|pgn|moves] [order=random|sequential] [seed=S] [plies=N]]
              [--pgnout F | --pgnout file=F [timeleft=true] [nodes=true] [style=cchess]] [--resume] [--trfout F.trf] [--tiebreaks SB,DE]
              [--resign movecount=N score=S] [--draw movenumber=M movecount=N score=S] [--maxmoves N]
              [--tb DIR[:DIR…] [--tbpieces N] [--tbadjudicate WIN_LOSS|DRAW|BOTH] [--tbignore50]]   (chess)
              [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]]
              [--event NAME] [--site NAME] [--quiet] [--ratinginterval N] [--affinity [--yield-to-engines]]
              [--srand S] [--repeat] [--recover]   (fastchess's; see the README)";

pub fn run(raw: &[String]) -> Result<()> {
    let args = parse(raw)?;
    let kind = args.game;
    if args.engines.len() < 2 {
        bail!("a match needs at least two engines (--engine …)\n{USAGE}");
    }
    let engines = args
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| entrant(&args.each, e, i))
        .collect::<Result<Vec<_>>>()?;
    let names: std::collections::HashSet<&str> = engines.iter().map(|e| e.config.name.as_str()).collect();
    if names.len() != engines.len() {
        bail!("engine names must differ (name=…)");
    }
    let (first, second) = (&engines[0].control, &engines[1].control);
    if engines
        .iter()
        .any(|e| e.control.tc != first.tc || e.control.movetime != first.movetime)
    {
        bail!("every engine needs the same tc= and st= (the referee's clock); nodes= and depth= may differ");
    }
    let _ = second;
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => 2 * r,
        (None, None) => 2,
    };
    let tiebreaks = match &args.tiebreaks {
        Some(list) => tournament::event::parse_tiebreaks(list).map_err(|e| anyhow::anyhow!("--tiebreaks: {}", e.0))?,
        None => Vec::new(),
    };
    let (openings, shuffle) = openings(kind, &args.openings, args.srand)?;
    let adjudication = adjudication(&args)?;
    if let (Some(tb), false) = (&adjudication.tablebase, args.quiet) {
        println!(
            "Syzygy tablebases: tables of up to {} men found; positions of at most {} men are adjudicated",
            tb.max_pieces(),
            tb.pieces()
        );
    }
    let sprt = sprt(&args)?;
    if sprt.is_some() && engines.len() != 2 {
        bail!("--sprt is for two engines");
    }
    // What makes it the same match (for --resume): not the concurrency, the output or the test.
    // A round robin of three or more is played in Berger order (a schedule unlike the earlier
    // pair-by-pair one, so a state of that one is not resumed).
    let order = if engines.len() > 2 && !args.gauntlet {
        "|berger"
    } else {
        ""
    };
    let identity = format!(
        "{kind:?}|{:?}|{}|{:?}|{:?}|{games}|{:?}|{:?}|{shuffle:?}|{adjudication:?}{order}",
        engines
            .iter()
            .map(|e| (
                &e.config.name,
                &e.config.command,
                &e.config.args,
                &e.config.options,
                &e.control
            ))
            .collect::<Vec<_>>(),
        args.gauntlet,
        args.rules,
        args.at_trigger,
        args.openings,
        openings.len(),
    );
    let config = MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        games,
        concurrency: args.concurrency.max(1),
        openings,
        shuffle,
        adjudication,
        pgn_out: args.pgnout.clone(),
        pgn: args.pgn,
        trf_out: args.trfout.clone(),
        tiebreaks,
        resume: args.resume,
        sprt,
        event: args.event.clone(),
        site: args.site.clone(),
        config_hash: stable_hash(&identity),
        progress: !args.quiet,
        affinity: args.affinity,
        yield_to_engines: args.yield_to_engines,
        rating_interval: args.rating_interval,
    };
    if config.yield_to_engines && !(config.affinity && ::matches::runner::untimed(&config)) {
        bail!(
            "--yield-to-engines needs --affinity and untimed searches (nodes= or depth=, no tc= or st=): \
             a yielding runner reads a timed answer late"
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let summary = match kind {
        Kind::Xiangqi => {
            let name = args.rules.as_deref().unwrap_or("cxa");
            let rules = Rules::by_name(name)
                .with_context(|| format!("unknown Xiangqi ruleset {name:?}; known: {}", Rules::NAMES.join(", ")))?;
            let rules = if args.at_trigger { rules.at_trigger() } else { rules };
            run_match(&config, |start| XiangqiJudge::new(start, rules.clone()), &mut out)?
        }
        Kind::Chess => {
            let name = args.rules.as_deref().unwrap_or("fide");
            let rules = ChessRules::by_name(name).with_context(|| {
                format!(
                    "unknown chess ruleset {name:?}; known: {}",
                    ChessRules::NAMES.join(", ")
                )
            })?;
            run_match(&config, |start| ChessJudge::new(start, rules), &mut out)?
        }
    };
    write!(out, "{}", report(&summary, &config))?;
    out.flush()?;
    Ok(())
}
