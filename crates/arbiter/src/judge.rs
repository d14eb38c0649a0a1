//! `arbiter judge`: the verdict on every game of record files, or on one game given as a FEN
//! and moves, with the explanation; result tags that contradict the board are flagged.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use game::{Game, Kind};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{Judge, JudgeError, Outcome, Verdict};
use records::files::{self, AnyRecord};
use records::Record;
use serde_json::json;

pub struct Options {
    pub ruleset: Option<String>,
    pub json: bool,
    /// Rule repetitions at the triggering occurrence, as engines do, instead of telling the
    /// offender to vary.
    pub at_trigger: bool,
}

/// The Xiangqi ruleset named, or the default (CXA).
fn xiangqi_rules(opts: &Options) -> Result<Rules> {
    let rules = match opts.ruleset.as_deref() {
        None => Rules::cxa(),
        Some(n) => Rules::by_name(n)
            .with_context(|| format!("unknown Xiangqi ruleset {n:?}; known: {}", Rules::NAMES.join(", ")))?,
    };
    Ok(if opts.at_trigger { rules.at_trigger() } else { rules })
}

/// The chess rules named (`fide` by default); a Xiangqi ruleset name given for a chess game
/// falls back to FIDE, so one `--ruleset` can serve mixed files.
fn chess_rules(opts: &Options) -> Result<ChessRules> {
    match opts.ruleset.as_deref() {
        None => Ok(ChessRules::fide()),
        Some(n) => match ChessRules::by_name(n) {
            Some(r) => Ok(r),
            None if Rules::by_name(n).is_some() => Ok(ChessRules::fide()),
            None => bail!(
                "unknown ruleset {n:?}; chess: {}; xiangqi: {}",
                ChessRules::NAMES.join(", "),
                Rules::NAMES.join(", ")
            ),
        },
    }
}

/// The rules for files that may hold either game: a chess ruleset's name leaves Xiangqi games
/// the default, and a Xiangqi ruleset's name leaves chess games FIDE.
fn both_rules(opts: &Options) -> Result<(Rules, ChessRules)> {
    let xiangqi = xiangqi_rules(opts).or_else(|e| {
        ChessRules::by_name(opts.ruleset.as_deref().unwrap_or_default())
            .map(|_| {
                if opts.at_trigger {
                    Rules::cxa().at_trigger()
                } else {
                    Rules::cxa()
                }
            })
            .ok_or(e)
    })?;
    Ok((xiangqi, chess_rules(opts)?))
}

/// What judging one game gave: the verdict, and a move the rules refused (illegal, or after
/// the end), which stops the judging there.
struct Judged {
    kind: Kind,
    verdict: Verdict,
    /// A ruling waiting on a side (told to vary) at the end of the moves.
    pending: Option<Verdict>,
    stopped: Option<JudgeError>,
    plies: usize,
}

impl Judged {
    /// The verdict as JSON, with a refused move and a pending ruling where there are.
    fn to_json(&self) -> serde_json::Value {
        let mut v = self.verdict.to_json(self.kind);
        if let Some(e) = &self.stopped {
            v["error"] = json!(e.to_string());
        }
        if let Some(p) = &self.pending {
            v["pending"] = p.to_json(self.kind);
        }
        v
    }
}

fn judge_moves<J: Judge>(mut judge: J, moves: &[<J::Game as Game>::Move]) -> Judged {
    let ruling = judge::judge_line(&mut judge, moves);
    Judged {
        kind: <J::Game as Game>::KIND,
        verdict: ruling.verdict,
        pending: ruling.pending,
        stopped: ruling.stopped,
        plies: moves.len(),
    }
}

fn judge_xiangqi(start: xiangqi::Position, moves: &[xiangqi::Move], rules: &Rules) -> Judged {
    judge_moves(XiangqiJudge::new(start, rules.clone()), moves)
}

/// Every ruleset by name with its parameters, as JSON lines.
pub fn print_rulesets() -> Result<()> {
    for name in Rules::NAMES {
        let rules = Rules::by_name(name).expect("listed");
        println!("{}", json!({"game": "xiangqi", "ruleset": rules}));
    }
    for name in ChessRules::NAMES {
        let rules = ChessRules::by_name(name).expect("listed");
        println!("{}", json!({"game": "chess", "ruleset": rules}));
    }
    Ok(())
}

/// One game from the command line.
pub fn one(kind: &str, fen: Option<&str>, moves: &str, opts: &Options) -> Result<()> {
    let kind: Kind = kind.parse().map_err(anyhow::Error::msg)?;
    let judged = match kind {
        Kind::Xiangqi => {
            let rules = xiangqi_rules(opts)?;
            let start = match fen {
                None | Some("startpos") => xiangqi::Position::start(),
                Some(f) => <xiangqi::Position as Game>::from_fen(f).map_err(anyhow::Error::msg)?,
            };
            let list = parse_moves(&start, moves)?;
            judge_xiangqi(start, &list, &rules)
        }
        Kind::Chess => {
            let rules = chess_rules(opts)?;
            let start = match fen {
                None | Some("startpos") => <chess::Position as Game>::start(),
                Some(f) => <chess::Position as Game>::from_fen(f).map_err(anyhow::Error::msg)?,
            };
            let list = parse_moves(&start, moves)?;
            judge_moves(ChessJudge::new(start, rules), &list)
        }
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    if opts.json {
        writeln!(out, "{}", judged.to_json())?;
    } else {
        write_text(&mut out, "game", &judged, None)?;
    }
    if let Some(e) = judged.stopped {
        bail!("{e}");
    }
    Ok(())
}

/// Reads moves in any notation the game accepts, each checked against the position it is
/// played in.
fn parse_moves<G: Game>(start: &G, text: &str) -> Result<Vec<G::Move>> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, t) in text.split_whitespace().enumerate() {
        let m = pos.parse_move(t).map_err(|e| anyhow::anyhow!("ply {}: {e}", i + 1))?;
        pos.play(m);
        out.push(m);
    }
    Ok(out)
}

/// Every game of every file.
pub fn files(paths: &[PathBuf], opts: &Options) -> Result<()> {
    let (rules, chess) = both_rules(opts)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut summary = Summary::default();
    for path in paths {
        judge_file(path, &rules, chess, opts, &mut out, &mut summary)?;
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
    rules: &Rules,
    chess: ChessRules,
    opts: &Options,
    out: &mut impl Write,
    summary: &mut Summary,
) -> Result<()> {
    let (mut reader, bar) = crate::convert::open_with_progress(path)?;
    let head = reader.fill_buf()?.to_vec();
    let format = files::detect_format(path, &head);
    for (i, game) in files::read_as(path, format, reader)?.enumerate() {
        let label = format!("{}: game {}", path.display(), i + 1);
        let record = match game {
            Ok(r) => r,
            Err(e) => {
                summary.errors += 1;
                bar.suspend(|| eprintln!("{e}"));
                continue;
            }
        };
        let (judged, tag) = judge_record(&record, rules, chess);
        summary.games += 1;
        if judged.verdict.result == Outcome::Ongoing || judged.verdict.claim {
            summary.ongoing += 1;
        } else {
            summary.ended += 1;
        }
        if judged.stopped.is_some() {
            summary.errors += 1;
        }
        let contradiction = contradiction(&judged.verdict, tag);
        if contradiction.is_some() {
            summary.contradictions += 1;
        }
        bar.suspend(|| -> Result<()> {
            if opts.json {
                let mut v = judged.to_json();
                v["file"] = json!(path.display().to_string());
                v["game"] = json!(i + 1);
                v["plies"] = json!(judged.plies);
                v["result_tag"] = json!(tag);
                if let Some(c) = &contradiction {
                    v["contradiction"] = json!(c);
                }
                writeln!(out, "{v}")?;
            } else {
                write_text(out, &label, &judged, contradiction.as_deref())?;
            }
            Ok(())
        })?;
    }
    bar.finish_and_clear();
    Ok(())
}

/// Judges a record's main line.
fn judge_record<'a>(record: &'a AnyRecord, rules: &Rules, chess: ChessRules) -> (Judged, Option<&'a str>) {
    match record {
        AnyRecord::Xiangqi(r) => {
            let start = records::pgn::start_position(r);
            let moves: Vec<xiangqi::Move> = r.tree.main_line().copied().collect();
            (judge_xiangqi(start, &moves, rules), result_tag(r))
        }
        AnyRecord::Chess(r) => {
            let start = records::chess::start_position(r);
            let mode = match r.tags.get("Variant") {
                Some(v) if v.contains("960") => chess::shakmaty::CastlingMode::Chess960,
                _ => chess::shakmaty::CastlingMode::Standard,
            };
            let moves: Vec<chess::shakmaty::Move> = r.tree.main_line().copied().collect();
            let judged = judge_moves(ChessJudge::new(chess::Position::new(start, mode), chess), &moves);
            (judged, result_tag(r))
        }
    }
}

/// Writes the judge's verdict into a record's tags, for `convert --judge`: `Result` when the
/// rules ended the game (the record's own otherwise: resignation, time and agreement end games
/// too), and `Termination` with the reason and the explanation. Returns a warning when the
/// record's Result tag contradicts the board.
pub fn annotate(record: &mut AnyRecord, opts: &Options) -> Result<Option<String>> {
    let (rules, chess) = both_rules(opts)?;
    let (judged, tag) = judge_record(record, &rules, chess);
    let warning = contradiction(&judged.verdict, tag);
    let v = &judged.verdict;
    let tags = match record {
        AnyRecord::Xiangqi(r) => &mut r.tags,
        AnyRecord::Chess(r) => &mut r.tags,
    };
    if v.result != Outcome::Ongoing && !v.claim {
        tags.set("Result", v.result.pgn());
        tags.set(
            "Termination",
            format!(
                "{} at ply {} ({}): {}",
                v.reason.code(),
                v.ply,
                v.ruleset,
                v.explanation
            ),
        );
    }
    Ok(warning)
}

fn result_tag<M>(r: &Record<M>) -> Option<&str> {
    r.tags.get("Result").map(str::trim).filter(|t| !t.is_empty())
}

/// A result tag the board contradicts: the rules ended the game one way and the tag says
/// another. A tag on a game the rules did not end is not contradicted (resignation, time,
/// agreement end games too), nor a draw tag where a draw could be claimed.
fn contradiction(v: &Verdict, tag: Option<&str>) -> Option<String> {
    let tag = tag?;
    let said = records::Outcome::from_pgn(tag)?;
    let board = match v.result {
        Outcome::Ongoing => return None,
        _ if v.claim => return None,
        Outcome::FirstWins => records::Outcome::FirstWins,
        Outcome::SecondWins => records::Outcome::SecondWins,
        Outcome::Draw => records::Outcome::Draw,
    };
    (said != board && said != records::Outcome::Unknown).then(|| {
        format!(
            "the Result tag says {tag} but the board says {} ({})",
            v.result.pgn(),
            v.reason.code()
        )
    })
}

fn write_text(out: &mut impl Write, label: &str, j: &Judged, contradiction: Option<&str>) -> Result<()> {
    let v = &j.verdict;
    let claim = if v.claim { ", by claim" } else { "" };
    writeln!(
        out,
        "{label}: {} ({}{claim}) at ply {} [{}]: {}",
        v.result.name(j.kind),
        v.reason.code(),
        v.ply,
        v.ruleset,
        v.explanation
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
        writeln!(out, "    pending at ply {}: {}", p.ply, p.explanation)?;
    }
    if let Some(c) = contradiction {
        writeln!(out, "    warning: {c}")?;
    }
    if let Some(e) = &j.stopped {
        writeln!(out, "    stopped: {e}")?;
    }
    Ok(())
}
