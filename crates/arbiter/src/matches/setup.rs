//! What the parsed options make: each engine and its limits, the openings, the adjudication
//! and the SPRT of a match, with a clear error for a value that makes no sense.

use std::path::PathBuf;
use std::sync::Arc;

use ::matches::openings::{read_openings_with, OpeningOptions};
use ::matches::play::{seconds, Adjudication, Control, Tc};
use ::matches::runner::{Entrant, Start};
use ::matches::syzygy::{split_dirs, Syzygy, TbResults};
use anyhow::{bail, Context, Result};
use engine::{Coordinates, EngineConfig, Protocol};
use game::Kind;
use ratings::sprt::{Model, Sprt};

use super::args::{number, Args};

/// An engine from its `KEY=VALUE`s (after `--each`'s, which they override).
pub(super) fn entrant(each: &[(String, String)], own: &[(String, String)], index: usize) -> Result<Entrant> {
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
pub(super) fn openings(kind: Kind, spec: &[(String, String)], srand: Option<u64>) -> Result<(Vec<Start>, Option<u64>)> {
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

pub(super) fn adjudication(args: &Args) -> Result<Adjudication> {
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

pub(super) fn sprt(args: &Args) -> Result<Option<Sprt>> {
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
