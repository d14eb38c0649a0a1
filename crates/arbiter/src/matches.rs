//! `arbiter match`: engine matches judged by the real rules, with fastchess's way of writing
//! options (`--engine name=A cmd=… proto=uci option.Hash=16 --each tc=10+0.1 …`; a single
//! dash works too). A round robin of three or more engines is played as a round-robin event
//! (Berger tables) and ends with standings and tie-breaks (`--tiebreaks`, default SB,DE);
//! `--trfout F.trf` writes the match as a TRF-2026 file (`matches::event`). Chess games can be
//! adjudicated by Syzygy tablebases (`--tb DIR[:DIR…]`, `--tbpieces`, `--tbadjudicate`,
//! `--tbignore50`, as fastchess's; see `matches::syzygy` for where they differ).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use ::matches::openings::{read_openings_with, OpeningOptions};
use ::matches::pgn::PgnOptions;
use ::matches::play::{seconds, Adjudication, Control, Tc};
use ::matches::runner::{report, run_match, stable_hash, Entrant, MatchConfig, Start};
use ::matches::syzygy::{split_dirs, Syzygy, TbResults};
use anyhow::{bail, Context, Result};
use engine::{Coordinates, EngineConfig, Protocol};
use game::Kind;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use ratings::sprt::{Model, Sprt};

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

/// The parsed command line.
struct Args {
    engines: Vec<Vec<(String, String)>>,
    each: Vec<(String, String)>,
    game: Kind,
    rules: Option<String>,
    at_trigger: bool,
    games: Option<u32>,
    rounds: Option<u32>,
    concurrency: usize,
    gauntlet: bool,
    openings: Vec<(String, String)>,
    pgnout: Option<PathBuf>,
    pgn: PgnOptions,
    trfout: Option<PathBuf>,
    tiebreaks: Option<String>,
    resume: bool,
    resign: Vec<(String, String)>,
    draw: Vec<(String, String)>,
    maxmoves: Option<u32>,
    tb: Option<String>,
    tbpieces: Option<usize>,
    tbadjudicate: Option<String>,
    tbignore50: bool,
    sprt: Vec<(String, String)>,
    sprt_given: bool,
    event: String,
    site: String,
    quiet: bool,
    affinity: bool,
    yield_to_engines: bool,
    srand: Option<u64>,
    rating_interval: u32,
}

fn key_values(tokens: &[String]) -> Result<Vec<(String, String)>> {
    tokens
        .iter()
        .map(|t| {
            t.split_once('=')
                .map(|(k, v)| (k.to_string(), v.trim_matches('"').to_string()))
                .with_context(|| format!("expected KEY=VALUE, found {t:?}"))
        })
        .collect()
}

fn one<T: std::str::FromStr>(option: &str, values: &[String]) -> Result<T> {
    match values {
        [v] => v.parse().map_err(|_| anyhow::anyhow!("--{option}: bad value {v:?}")),
        _ => bail!("--{option} takes one value"),
    }
}

fn parse(raw: &[String]) -> Result<Args> {
    let mut args = Args {
        engines: Vec::new(),
        each: Vec::new(),
        game: Kind::Xiangqi,
        rules: None,
        at_trigger: false,
        games: None,
        rounds: None,
        concurrency: 1,
        gauntlet: false,
        openings: Vec::new(),
        pgnout: None,
        pgn: PgnOptions::default(),
        trfout: None,
        tiebreaks: None,
        resume: false,
        resign: Vec::new(),
        draw: Vec::new(),
        maxmoves: None,
        tb: None,
        tbpieces: None,
        tbadjudicate: None,
        tbignore50: false,
        sprt: Vec::new(),
        sprt_given: false,
        event: "arbiter match".to_string(),
        site: "arbiter".to_string(),
        quiet: false,
        affinity: false,
        yield_to_engines: false,
        srand: None,
        rating_interval: 10,
    };
    let mut i = 0;
    while i < raw.len() {
        let token = &raw[i];
        let Some(name) = token.strip_prefix("--").or_else(|| token.strip_prefix('-')) else {
            bail!("unexpected {token:?}\n{USAGE}");
        };
        let mut j = i + 1;
        // A value is anything up to the next option (negative numbers are values).
        while j < raw.len() && !(raw[j].starts_with('-') && raw[j].parse::<f64>().is_err()) {
            j += 1;
        }
        let values = &raw[i + 1..j];
        i = j;
        match name {
            "engine" => args.engines.push(key_values(values)?),
            "each" => args.each.extend(key_values(values)?),
            "game" | "variant" => args.game = one::<String>(name, values)?.parse().map_err(anyhow::Error::msg)?,
            "rules" | "ruleset" => args.rules = Some(one(name, values)?),
            "at-trigger" => args.at_trigger = true,
            "games" => args.games = Some(one(name, values)?),
            "rounds" => args.rounds = Some(one(name, values)?),
            "concurrency" => args.concurrency = one(name, values)?,
            "gauntlet" => args.gauntlet = true,
            "tournament" => args.gauntlet = one::<String>(name, values)? == "gauntlet",
            "openings" => args.openings = key_values(values)?,
            "pgnout" => match values {
                // A bare path, or fastchess's `-pgnout file=F timeleft=true nodes=true`.
                [v] if !v.contains('=') => args.pgnout = Some(PathBuf::from(v)),
                _ => {
                    for (k, v) in key_values(values)? {
                        let on = || match v.as_str() {
                            "true" => Ok(true),
                            "false" => Ok(false),
                            _ => Err(anyhow::anyhow!("--pgnout {k}={v}: expected true or false")),
                        };
                        match k.as_str() {
                            "file" => args.pgnout = Some(PathBuf::from(&v)),
                            "timeleft" => args.pgn.time_left = on()?,
                            "nodes" => args.pgn.nodes = on()?,
                            "style" => args.pgn.style = v.parse().map_err(anyhow::Error::msg)?,
                            _ => bail!("--pgnout: unknown setting {k:?} (file, timeleft, nodes, style)"),
                        }
                    }
                    if args.pgnout.is_none() {
                        bail!("--pgnout needs file=F");
                    }
                }
            },
            "trfout" => {
                let v: String = one(name, values)?;
                args.trfout = Some(PathBuf::from(v.strip_prefix("file=").unwrap_or(&v)));
            }
            // The tournament crate's codes, as `arbiter tournament create --tiebreaks` reads them.
            "tiebreaks" => args.tiebreaks = Some(values.join(",")),
            "resume" => args.resume = true,
            // fastchess's `-recover`: play on when an engine crashes or hangs (its game is
            // lost, the engine restarted), which arbiter always does.
            "recover" => {
                if !values.is_empty() {
                    bail!("--recover takes no value");
                }
            }
            // fastchess's `-repeat`: each opening twice, colours reversed, which arbiter
            // always does.
            "repeat" => match values {
                [] => {}
                [n] if n == "2" => {}
                _ => bail!(
                    "--repeat: arbiter plays each opening exactly twice, colours reversed (--repeat or --repeat 2)"
                ),
            },
            // fastchess's `-srand`: the seed of a random opening order.
            "srand" => args.srand = Some(one(name, values)?),
            "ratinginterval" => args.rating_interval = one(name, values)?,
            "resign" => args.resign = key_values(values)?,
            "draw" => args.draw = key_values(values)?,
            "maxmoves" => args.maxmoves = Some(one(name, values)?),
            // Syzygy tablebases (fastchess's -tb, -tbpieces, -tbadjudicate, -tbignore50).
            "tb" => args.tb = Some(one(name, values)?),
            "tbpieces" => args.tbpieces = Some(one(name, values)?),
            "tbadjudicate" => args.tbadjudicate = Some(one(name, values)?),
            "tbignore50" => args.tbignore50 = true,
            "sprt" => {
                args.sprt = key_values(values)?;
                args.sprt_given = true;
            }
            "event" => args.event = values.join(" "),
            "site" => args.site = values.join(" "),
            "quiet" => args.quiet = true,
            // fastchess: `-use-affinity`.
            "affinity" | "use-affinity" => args.affinity = true,
            "yield-to-engines" => args.yield_to_engines = true,
            "help" | "h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => bail!("unknown option {token:?}\n{USAGE}"),
        }
    }
    Ok(args)
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T> {
    v.parse().map_err(|_| anyhow::anyhow!("{key}={v}: not a number"))
}

/// An engine from its `KEY=VALUE`s (after `--each`'s, which they override).
fn entrant(each: &[(String, String)], own: &[(String, String)], index: usize) -> Result<Entrant> {
    let mut config = EngineConfig::new(format!("engine{}", index + 1), "");
    let mut control = Control::default();
    let mut command = None;
    let mut coords = None;
    for (k, v) in each.iter().chain(own) {
        match k.as_str() {
            "name" => config.name = v.clone(),
            "cmd" => command = Some(PathBuf::from(v)),
            "args" => config.args = v.split_whitespace().map(str::to_string).collect(),
            "dir" => config.working_dir = Some(PathBuf::from(v)),
            "proto" => {
                config.protocol = match v.to_ascii_lowercase().as_str() {
                    "uci" => Protocol::Uci,
                    "ucci" => Protocol::Ucci,
                    _ => bail!("proto={v}: expected uci or ucci"),
                }
            }
            "coords" => {
                coords = Some(match v.to_ascii_lowercase().as_str() {
                    "fsf" | "fairy" => Coordinates::Fsf,
                    "auto" | "detect" => Coordinates::Detect,
                    "iccs" | "ucci" | "pikafish" => Coordinates::Iccs,
                    _ => bail!("coords={v}: expected fsf, iccs or auto"),
                })
            }
            "tc" => control.tc = Some(Tc::parse(v).map_err(anyhow::Error::msg)?),
            "st" => control.movetime = Some(seconds(v).with_context(|| format!("st={v}: not seconds"))?),
            "nodes" => control.nodes = Some(number(k, v)?),
            // fastchess's `plies=` is a depth limit.
            "depth" | "plies" => control.depth = Some(number(k, v)?),
            // fastchess restarts an engine for every game with `restart=on`.
            "restart" => match v.as_str() {
                "off" => {}
                "on" => bail!(
                    "restart=on is not supported: arbiter keeps each engine between games (ucinewgame) and \
                     restarts only an engine that crashed or hung"
                ),
                _ => bail!("restart={v}: expected on or off"),
            },
            "timemargin" => control.margin = number(k, v)?,
            "timeout" => control.timeout = seconds(v).with_context(|| format!("timeout={v}: not seconds"))?,
            _ => match k.strip_prefix("option.") {
                Some(name) => {
                    config.options.retain(|(n, _)| n != name);
                    config.options.push((name.to_string(), v.clone()));
                }
                None => bail!("unknown engine setting {k:?}"),
            },
        }
    }
    config.command = command.with_context(|| format!("engine {}: no cmd=", config.name))?;
    // Without a word, the engine is asked: Fairy-Stockfish, which writes ranks 1-10, offers
    // `xiangqi` in its UCI_Variant option (engine::Coordinates::Detect).
    config.coordinates = coords.unwrap_or(Coordinates::Detect);
    if control.tc.is_none() && control.movetime.is_none() && control.nodes.is_none() && control.depth.is_none() {
        bail!("engine {}: no limit (tc=, st=, nodes= or depth=)", config.name);
    }
    Ok(Entrant { config, control })
}

/// Openings from a file (EPD/FEN lines, PGN, move lists), by the engine crate's reader.
fn openings(kind: Kind, spec: &[(String, String)], srand: Option<u64>) -> Result<(Vec<Start>, Option<u64>)> {
    let mut file = None;
    let mut random = false;
    let mut seed = srand.unwrap_or(0);
    let mut options = OpeningOptions::default();
    for (k, v) in spec {
        match k.as_str() {
            "file" => file = Some(PathBuf::from(v)),
            "order" => random = v == "random",
            "seed" => seed = number(k, v)?,
            "format" => options.format = Some(v.parse().map_err(anyhow::Error::msg)?),
            "plies" => options.max_plies = Some(number(k, v)?),
            _ => bail!("--openings: unknown setting {k:?}"),
        }
    }
    let Some(file) = file else {
        if spec.is_empty() {
            return Ok((Vec::new(), None));
        }
        bail!("--openings needs file=F");
    };
    let list: Vec<Start> = read_openings_with(kind, &file, &options)?
        .into_iter()
        .map(|o| Start {
            fen: o.fen,
            moves: o.moves,
            source: o.source,
        })
        .collect();
    if list.is_empty() {
        bail!("{}: no openings", file.display());
    }
    Ok((list, random.then_some(seed)))
}

fn adjudication(args: &Args) -> Result<Adjudication> {
    let get = |kv: &[(String, String)], key: &str, option: &str| -> Result<i64> {
        let v = kv
            .iter()
            .find(|(k, _)| k == key)
            .with_context(|| format!("--{option} needs {key}="))?;
        number(key, &v.1)
    };
    let mut adj = Adjudication {
        max_moves: args.maxmoves,
        ..Adjudication::default()
    };
    if args.tb.is_none() && (args.tbpieces.is_some() || args.tbadjudicate.is_some() || args.tbignore50) {
        bail!("--tbpieces, --tbadjudicate and --tbignore50 go with --tb DIR");
    }
    if let Some(list) = &args.tb {
        if args.game != Kind::Chess {
            bail!("--tb (Syzygy tablebases) is for chess (--game chess)");
        }
        let results: TbResults = match &args.tbadjudicate {
            Some(v) => v.parse().map_err(|e: String| anyhow::anyhow!("--tbadjudicate: {e}"))?,
            None => TbResults::Both,
        };
        let tables =
            Syzygy::open(&split_dirs(list), args.tbpieces, results, args.tbignore50).map_err(anyhow::Error::msg)?;
        adj.tablebase = Some(Arc::new(tables));
    }
    if !args.resign.is_empty() {
        adj.resign = Some((
            get(&args.resign, "movecount", "resign")? as u32,
            get(&args.resign, "score", "resign")? as i32,
        ));
    }
    if !args.draw.is_empty() {
        adj.draw = Some((
            get(&args.draw, "movenumber", "draw")? as u32,
            get(&args.draw, "movecount", "draw")? as u32,
            get(&args.draw, "score", "draw")? as i32,
        ));
    }
    Ok(adj)
}

fn sprt(args: &Args) -> Result<Option<Sprt>> {
    if !args.sprt_given {
        return Ok(None);
    }
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
    };
    for (k, v) in &args.sprt {
        match k.as_str() {
            "elo0" => s.elo0 = number(k, v)?,
            "elo1" => s.elo1 = number(k, v)?,
            "alpha" => s.alpha = number(k, v)?,
            "beta" => s.beta = number(k, v)?,
            "model" => {
                s.model = match v.as_str() {
                    "normalized" => Model::Normalized,
                    "logistic" => Model::Logistic,
                    _ => bail!("--sprt model={v}: expected normalized or logistic"),
                }
            }
            _ => bail!("--sprt: unknown setting {k:?}"),
        }
    }
    if s.elo1 <= s.elo0 || !(0.0..1.0).contains(&s.alpha) || !(0.0..1.0).contains(&s.beta) {
        bail!("--sprt: need elo0 < elo1 and alpha, beta in (0, 1)");
    }
    Ok(Some(s))
}

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
