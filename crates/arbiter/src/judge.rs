//! `arbiter judge`: the verdict on every game of record files, or on one game given as a FEN
//! and moves, with the explanation; result tags that contradict the board are flagged.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use game::Kind;
use judge::chess::ChessRules;
use judge::record::{judge_moves_line, judge_record, judge_text, JudgedGame, Rulesets};
use judge::xiangqi::{Rules, TemporaryLimit};
use records::files::{self, AnyRecord, Format};
use serde_json::json;

pub struct Options {
    /// A ruleset's name, with an event's limits where wanted (`cxa,limit=40`).
    pub ruleset: Option<String>,
    pub json: bool,
    /// The language of the text output's explanations (JSON carries both).
    pub lang: judge::Lang,
    /// Rule repetitions at the triggering occurrence, as engines do, instead of telling the
    /// offender to vary.
    pub at_trigger: bool,
    /// The natural move limit reduced to this many rounds (Xiangqi).
    pub move_limit: Option<u32>,
    /// A referee's temporary move limit: `ROUNDS` or `ROUNDS@PLY` (Xiangqi).
    pub temporary_limit: Option<String>,
}

/// The rules for either game. A Xiangqi ruleset's name leaves chess games FIDE and a chess
/// ruleset's name leaves Xiangqi games CXA, so one `--ruleset` serves mixed files.
pub fn rulesets(opts: &Options) -> Result<Rulesets> {
    let name = opts.ruleset.as_deref();
    let chess = match name {
        None => None,
        Some(n) => ChessRules::by_name(n),
    };
    let mut xiangqi = match name {
        None => Rules::cxa(),
        Some(_) if chess.is_some() => Rules::cxa(),
        Some(n) => Rules::parse(n).map_err(|e| {
            anyhow::anyhow!(
                "{e}{}",
                if Rules::by_name(n.split(',').next().unwrap_or_default()).is_some() {
                    String::new()
                } else {
                    format!("; chess: {}", ChessRules::NAMES.join(", "))
                }
            )
        })?,
    };
    if let Some(rounds) = opts.move_limit {
        xiangqi = xiangqi.with_natural_limit(rounds).map_err(anyhow::Error::msg)?;
    }
    if let Some(t) = &opts.temporary_limit {
        let (rounds, from_ply) = TemporaryLimit::parse(t).map_err(anyhow::Error::msg)?;
        xiangqi = xiangqi.with_temporary_limit(rounds, from_ply);
    }
    if opts.at_trigger {
        xiangqi = xiangqi.at_trigger();
    }
    Ok(Rulesets {
        xiangqi,
        chess: chess.unwrap_or_else(ChessRules::fide),
    })
}

/// Every ruleset by name with its parameters, as JSON lines.
pub fn print_rulesets() -> Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    for name in Rules::NAMES {
        let rules = Rules::by_name(name).expect("listed");
        writeln!(out, "{}", json!({"game": "xiangqi", "ruleset": rules}))?;
    }
    for name in ChessRules::NAMES {
        let rules = ChessRules::by_name(name).expect("listed");
        writeln!(out, "{}", json!({"game": "chess", "ruleset": rules}))?;
    }
    Ok(())
}

/// One game from the command line.
pub fn one(kind: &str, fen: Option<&str>, moves: &str, opts: &Options) -> Result<()> {
    let kind: Kind = kind.parse().map_err(anyhow::Error::msg)?;
    let judged = judge_text(kind, fen, moves, &rulesets(opts)?).map_err(anyhow::Error::msg)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    if opts.json {
        writeln!(out, "{}", judged.to_json())?;
    } else {
        write_text(&mut out, "game", &judged, opts.lang)?;
    }
    if let Some(s) = judged.stop {
        bail!("{s}");
    }
    Ok(())
}

/// Every game of every file.
pub fn files(paths: &[PathBuf], opts: &Options) -> Result<()> {
    let rules = rulesets(opts)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut summary = Summary::default();
    for path in paths {
        judge_file(path, &rules, opts, &mut out, &mut summary)?;
    }
    eprintln!(
        "{} games judged: {} ended by rule, {} ongoing or ended otherwise, {} result tags contradict the board, \
         {} games unreadable or stopped",
        summary.games, summary.ended, summary.ongoing, summary.contradictions, summary.errors
    );
    Ok(())
}

#[derive(Default)]
struct Summary {
    games: usize,
    ended: usize,
    ongoing: usize,
    contradictions: usize,
    errors: usize,
}

fn judge_file(
    path: &Path,
    rules: &Rulesets,
    opts: &Options,
    out: &mut impl Write,
    summary: &mut Summary,
) -> Result<()> {
    let (mut reader, bar) = crate::convert::open_with_progress(path)?;
    let head = reader.fill_buf()?.to_vec();
    let format = files::detect_format(path, &head);
    // Each game judged, or why it could not be read: the file, the game and the ply.
    let games: Box<dyn Iterator<Item = std::result::Result<JudgedGame, String>>> = if format == Format::FenMoves {
        // Lines are judged as typed moves are, so a move exposing the mover's king is ruled.
        let name = path.display().to_string();
        let lines = reader
            .lines()
            .filter(|l| l.as_ref().map_or(true, |l| !l.trim().is_empty()));
        Box::new(lines.enumerate().map(move |(i, line)| {
            let unreadable = |e: String| format!("{name}: game {}, {e}", i + 1);
            match line {
                Err(e) => Err(unreadable(e.to_string())),
                Ok(l) => judge_moves_line(&l, rules).map_err(unreadable),
            }
        }))
    } else {
        Box::new(files::read_as(path, format, reader)?.map(|game| match game {
            Ok(r) => Ok(judge_record(&r, rules)),
            Err(e) => Err(e.to_string()),
        }))
    };
    for (i, game) in games.enumerate() {
        let label = format!("{}: game {}", path.display(), i + 1);
        let judged = match game {
            Ok(j) => j,
            Err(e) => {
                summary.errors += 1;
                bar.suspend(|| eprintln!("{e}"));
                continue;
            }
        };
        summary.games += 1;
        if judged.ended_by_rule() {
            summary.ended += 1;
        } else {
            summary.ongoing += 1;
        }
        if judged.stop.is_some() {
            summary.errors += 1;
        }
        if judged.contradiction.is_some() {
            summary.contradictions += 1;
        }
        bar.suspend(|| -> Result<()> {
            if opts.json {
                let mut v = judged.to_json();
                v["file"] = json!(path.display().to_string());
                v["game"] = json!(i + 1);
                writeln!(out, "{v}")?;
            } else {
                write_text(out, &label, &judged, opts.lang)?;
            }
            Ok(())
        })?;
    }
    bar.finish_and_clear();
    Ok(())
}

/// Writes the judge's verdict into a record's tags, for `convert --judge`: `Result` when the
/// rules ended the game (the record's own otherwise: resignation, time and agreement end games
/// too), `Termination` with the PGN standard's word and `TerminationDetails` with arbiter's
/// reason, explanation, ply and rules (as the referee's and a match's PGN write them). Returns
/// a warning when the
/// record's Result tag contradicts the board.
pub fn annotate(record: &mut AnyRecord, opts: &Options) -> Result<Option<String>> {
    let rules = rulesets(opts)?;
    judge::record::adopt_ruled_move(record, &rules);
    let judged = judge_record(record, &rules);
    let v = &judged.verdict;
    let tags = match record {
        AnyRecord::Xiangqi(r) => &mut r.tags,
        AnyRecord::Chess(r) => &mut r.tags,
    };
    if judged.ended_by_rule() {
        tags.set("Result", v.result.pgn());
        tags.set("Termination", v.reason.pgn_termination());
        tags.set(
            "TerminationDetails",
            format!(
                "{}: {} (ply {}, {} rules)",
                v.reason.code(),
                v.explanation,
                v.ply,
                v.ruleset
            ),
        );
    }
    Ok(judged.contradiction)
}

fn write_text(out: &mut impl Write, label: &str, j: &JudgedGame, lang: judge::Lang) -> Result<()> {
    let v = &j.verdict;
    let claim = if v.claim { ", by claim" } else { "" };
    writeln!(
        out,
        "{label}: {} ({}{claim}) at ply {} [{}]: {}",
        v.result.name(j.kind),
        v.reason.code(),
        v.ply,
        v.ruleset,
        v.explain(lang)
    )?;
    if let Some(r) = &v.repetition {
        for m in &r.moves {
            let what = if m.class.chases.is_empty() {
                m.class.idle.join("")
            } else {
                format!("捉 {}", m.class.chases.join(" "))
            };
            let label = if m.class.check {
                "将"
            } else if m.class.mate_threat {
                "杀"
            } else {
                ""
            };
            writeln!(
                out,
                "    {:>4}. {:<5} {} {:<8} {label}{what}",
                m.ply, m.side, m.coordinate, m.notation
            )?;
        }
    }
    if let Some(p) = &j.pending {
        writeln!(out, "    pending at ply {}: {}", p.ply, p.explain(lang))?;
    }
    if let Some(c) = &j.contradiction {
        writeln!(out, "    warning: {c}")?;
    }
    if let Some(s) = &j.stop {
        writeln!(out, "    stopped at {s}")?;
    }
    Ok(())
}
