//! The command line of `arbiter match`, fastchess's way: `--option KEY=VALUE …` groups into
//! [`Args`], checked for shape only; what the values mean is [`super::setup`]'s.

use std::path::PathBuf;

use ::matches::pgn::PgnOptions;
use anyhow::{bail, Context, Result};
use game::Kind;

use super::USAGE;

/// The parsed command line.
pub(super) struct Args {
    pub(super) engines: Vec<Vec<(String, String)>>,
    pub(super) each: Vec<(String, String)>,
    pub(super) game: Kind,
    pub(super) rules: Option<String>,
    pub(super) at_trigger: bool,
    pub(super) games: Option<u32>,
    pub(super) rounds: Option<u32>,
    pub(super) concurrency: usize,
    pub(super) gauntlet: bool,
    pub(super) openings: Vec<(String, String)>,
    pub(super) pgnout: Option<PathBuf>,
    pub(super) pgn: PgnOptions,
    pub(super) trfout: Option<PathBuf>,
    pub(super) tiebreaks: Option<String>,
    pub(super) resume: bool,
    pub(super) resign: Vec<(String, String)>,
    pub(super) draw: Vec<(String, String)>,
    pub(super) maxmoves: Option<u32>,
    pub(super) tb: Option<String>,
    pub(super) tbpieces: Option<usize>,
    pub(super) tbadjudicate: Option<String>,
    pub(super) tbignore50: bool,
    pub(super) sprt: Vec<(String, String)>,
    pub(super) sprt_given: bool,
    pub(super) event: String,
    pub(super) site: String,
    pub(super) quiet: bool,
    pub(super) affinity: bool,
    pub(super) yield_to_engines: bool,
    pub(super) srand: Option<u64>,
    pub(super) rating_interval: u32,
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

pub(super) fn parse(raw: &[String]) -> Result<Args> {
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

pub(super) fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T> {
    v.parse().map_err(|_| anyhow::anyhow!("{key}={v}: not a number"))
}
