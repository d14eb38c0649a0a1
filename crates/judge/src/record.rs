//! A game record in, the judged game out: the one place where `arbiter judge` and the server's
//! review turn a record (or a start and moves typed by a user) into a verdict, with the same
//! words for a move the judging stopped at and for a result the board contradicts.
//!
//! Where judging stops, it says where and why: a move the record's reader refused (its issue
//! at that ply of the main line, with the move as written), a move the rules refuse, or a move
//! after the end. Under rules where a move that exposes the mover's own king loses (CXA, the
//! simplified rules), such a move is ruled as that loss, not refused: typed in any notation, or
//! in a record, where the reader keeps the move it refused (`records::RefusedMove`).

use game::{Game, Kind};
use records::files::AnyRecord;
use records::Record;
use serde_json::json;

use crate::chess::{ChessJudge, ChessRules};
use crate::xiangqi::{Rules, XiangqiJudge};
use crate::{judge_line, ruling_now, Judge, JudgeError, LineRuling, Outcome, Verdict};

/// The rules for either game: a file may hold both.
#[derive(Debug, Clone, Default)]
pub struct Rulesets {
    pub xiangqi: Rules,
    pub chess: ChessRules,
}

/// Where judging stopped: the ply (1-based) of the move not judged, and why, naming the move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    pub ply: usize,
    pub message: String,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.message)
    }
}

impl From<JudgeError> for Stop {
    fn from(e: JudgeError) -> Stop {
        match e {
            JudgeError::Illegal { ply, mv } => Stop {
                ply,
                message: format!("{mv} is not a legal move"),
            },
            JudgeError::AfterEnd { ply, ended_at } => Stop {
                ply,
                message: format!("a move after the end: the game already ended at ply {ended_at}"),
            },
        }
    }
}

/// A judged game.
#[derive(Debug, Clone)]
pub struct JudgedGame {
    pub kind: Kind,
    /// The verdict where judging ended (`Ongoing` at the last ply when nothing ended the game).
    pub verdict: Verdict,
    /// A ruling waiting on a side told to vary, at the end of the moves.
    pub pending: Option<Verdict>,
    /// The move judging stopped at, if it did not reach the end of the moves.
    pub stop: Option<Stop>,
    /// Plies judged.
    pub plies: usize,
    /// The record's own result (its `Result` tag), if it states one.
    pub result_tag: Option<String>,
    /// Whether that result agrees with the board (see [`agreement`]).
    pub agrees: Option<bool>,
    pub contradiction: Option<String>,
}

impl JudgedGame {
    fn new<J: Judge>(mut judge: J, moves: &[<J::Game as Game>::Move], refused: Option<Stop>) -> JudgedGame {
        let ruling = judge_line(&mut judge, moves);
        JudgedGame::from_ruling(&judge, ruling, refused)
    }

    fn from_ruling<J: Judge>(judge: &J, ruling: LineRuling, refused: Option<Stop>) -> JudgedGame {
        JudgedGame {
            kind: <J::Game as Game>::KIND,
            verdict: ruling.verdict,
            pending: ruling.pending,
            // The judge's refusal comes first: a reader's refusal lies after its last move.
            stop: ruling.stopped.map(Stop::from).or(refused),
            plies: judge.ply(),
            result_tag: None,
            agrees: None,
            contradiction: None,
        }
    }

    fn with_result_tag(mut self, tag: Option<&str>) -> JudgedGame {
        self.result_tag = tag.map(str::to_string);
        (self.agrees, self.contradiction) = agreement(&self.verdict, tag);
        self
    }

    /// Whether the rules ended the game (not a draw that is only claimable).
    pub fn ended_by_rule(&self) -> bool {
        self.verdict.result.is_over() && !self.verdict.claim
    }

    /// The verdict as JSON, with the pending ruling, the stop, the record's result and any
    /// contradiction where there are.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = self.verdict.to_json(self.kind);
        if let Some(p) = &self.pending {
            v["pending"] = p.to_json(self.kind);
        }
        if let Some(s) = &self.stop {
            v["stopped"] = json!(s.to_string());
            v["stopped_ply"] = json!(s.ply);
        }
        v["plies"] = json!(self.plies);
        if self.result_tag.is_some() {
            v["result_tag"] = json!(self.result_tag);
        }
        if let Some(c) = &self.contradiction {
            v["contradiction"] = json!(c);
        }
        v
    }
}

/// Judges a record's main line. A main-line move the reader refused stops the judging there,
/// with the reader's words.
pub fn judge_record(record: &AnyRecord, rules: &Rulesets) -> JudgedGame {
    match record {
        AnyRecord::Xiangqi(r) => {
            let start = records::pgn::start_position(r);
            let mut moves: Vec<xiangqi::Move> = r.tree.main_line().copied().collect();
            let mut stop = refused(r, moves.len());
            if let Some(m) = ruled_refusal(r, rules) {
                // The reader could not know the rules: the move is judged, and loses.
                moves.push(m);
                stop = None;
            }
            JudgedGame::new(XiangqiJudge::new(start, rules.xiangqi.clone()), &moves, stop)
                .with_result_tag(result_tag(r))
        }
        AnyRecord::Chess(r) => {
            let mode = match r.tags.get("Variant") {
                Some(v) if v.contains("960") => chess::shakmaty::CastlingMode::Chess960,
                _ => chess::shakmaty::CastlingMode::Standard,
            };
            let start = chess::Position::new(records::chess::start_position(r), mode);
            let moves: Vec<chess::shakmaty::Move> = r.tree.main_line().copied().collect();
            JudgedGame::new(ChessJudge::new(start, rules.chess), &moves, refused(r, moves.len()))
                .with_result_tag(result_tag(r))
        }
    }
}

/// A main-line move the reader refused that the rules rule on instead: where leaving one's
/// own king in check or facing the other king loses (CXA), such a move was played, and lost.
fn ruled_refusal(r: &records::XiangqiRecord, rules: &Rulesets) -> Option<xiangqi::Move> {
    if !rules.xiangqi.self_check_loses {
        return None;
    }
    let main: Vec<xiangqi::Move> = r.tree.main_line().copied().collect();
    let m = refused_issue(r, main.len())?.refused.as_ref()?.self_check?;
    let mut end = records::pgn::start_position(r);
    main.iter().for_each(|&x| end.play_unchecked(x));
    end.is_pseudo_legal(m).then_some(m)
}

/// Puts the move the reader refused but the rules rule on (see [`judge_record`]) into the
/// record's main line, and drops the reader's issue for it, so that a record written out holds
/// the move its verdict is about. Returns whether there was one.
pub fn adopt_ruled_move(record: &mut AnyRecord, rules: &Rulesets) -> bool {
    let AnyRecord::Xiangqi(r) = record else {
        return false;
    };
    let Some(m) = ruled_refusal(r, rules) else {
        return false;
    };
    let last = r
        .tree
        .main_line_nodes()
        .last()
        .unwrap_or(records::MoveTree::<xiangqi::Move>::ROOT);
    let ply = r.tree.main_line().count() + 1;
    r.tree.add_child(last, m);
    r.issues
        .retain(|i| !(i.ply == Some(ply) && i.refused.as_ref().is_some_and(|x| x.self_check == Some(m))));
    true
}

/// The reader's issue at the ply after the main line's last move: the move it refused, with
/// the rest of the line.
fn refused<M>(r: &Record<M>, main_line: usize) -> Option<Stop> {
    refused_issue(r, main_line).map(|i| Stop {
        ply: main_line + 1,
        message: format!("the record's move was not read: {}", i.message),
    })
}

/// A refused move placed after a node other than the main line's last is a variation's, even
/// at the same ply.
fn refused_issue<M>(r: &Record<M>, main_line: usize) -> Option<&records::Issue> {
    let last = r.tree.main_line_nodes().last().unwrap_or(records::MoveTree::<M>::ROOT);
    r.issues.iter().find(|i| {
        i.ply == Some(main_line + 1)
            && i.refused
                .as_ref()
                .and_then(|m| m.after)
                .is_none_or(|after| after == last)
    })
}

fn result_tag<M>(r: &Record<M>) -> Option<&str> {
    r.tags.get("Result").map(str::trim).filter(|t| !t.is_empty())
}

/// One game typed by a user: a start (FEN, `startpos` or none for the standard start) and
/// moves separated by spaces, in any notation the game reads. A word that is no move here is
/// an error naming its ply; a move the rules rule on (a Xiangqi move, in any notation, that
/// exposes the mover's own king, under rules where that loses) is judged.
pub fn judge_text(kind: Kind, fen: Option<&str>, moves: &str, rules: &Rulesets) -> Result<JudgedGame, String> {
    match kind {
        Kind::Xiangqi => {
            let start = match fen {
                None | Some("startpos") => xiangqi::Position::start(),
                Some(f) => <xiangqi::Position as Game>::from_fen(f).map_err(|e| e.to_string())?,
            };
            let judge = XiangqiJudge::new(start, rules.xiangqi.clone());
            judge_words(judge, moves, |j, word| {
                // A move no rule allows may still be one the rules rule on: judged, not refused.
                j.rules()
                    .self_check_loses
                    .then(|| j.position().parse_self_check(word))
                    .flatten()
            })
        }
        Kind::Chess => {
            let start = match fen {
                None | Some("startpos") => <chess::Position as Game>::start(),
                Some(f) => <chess::Position as Game>::from_fen(f).map_err(|e| e.to_string())?,
            };
            judge_words(ChessJudge::new(start, rules.chess), moves, |_, _| None)
        }
    }
}

/// Reads and judges the words one by one, each in the position it is played in; `ruled`
/// gives a move the judge rules on although it is not legal.
fn judge_words<J: Judge>(
    mut judge: J,
    text: &str,
    ruled: impl Fn(&J, &str) -> Option<<J::Game as Game>::Move>,
) -> Result<JudgedGame, String> {
    let mut stopped = None;
    for (i, word) in text.split_whitespace().enumerate() {
        if let Some(v) = judge.verdict() {
            stopped = Some(JudgeError::AfterEnd {
                ply: judge.ply() + 1,
                ended_at: v.ply,
            });
            break;
        }
        let m = match judge.parse_move(word) {
            Ok(m) => m,
            Err(e) => ruled(&judge, word).ok_or_else(|| format!("ply {}: {e}", i + 1))?,
        };
        if let Err(e) = judge.push(m) {
            stopped = Some(e);
            break;
        }
    }
    let ruling = ruling_now(&judge, stopped);
    Ok(JudgedGame::from_ruling(&judge, ruling, None))
}

/// Whether a record's stated result agrees with the board: `Some(true)` or `Some(false)`
/// (with why) when the rules ended the game, or a claimable draw is recorded as a draw;
/// `None` when the board cannot tell — the game was not ended by rule (resignation, time and
/// agreement end games too), or the record states no result (`*` or none).
pub fn agreement(v: &Verdict, stated: Option<&str>) -> (Option<bool>, Option<String>) {
    let Some(said) = stated.and_then(Outcome::from_pgn) else {
        return (None, None);
    };
    if !said.is_over() || !v.result.is_over() {
        return (None, None);
    }
    if v.claim {
        // A player could claim the draw; whether one did, the board does not say.
        return ((said == Outcome::Draw).then_some(true), None);
    }
    if said == v.result {
        (Some(true), None)
    } else {
        let text = format!(
            "the record's Result says {} but the board says {} ({} at ply {})",
            said.pgn(),
            v.result.pgn(),
            v.reason.code(),
            v.ply
        );
        (Some(false), Some(text))
    }
}

/// One line of the `moves` format, `position fen <FEN> moves …` or `position startpos moves …`
/// (the game told from the FEN's ranks: ten for Xiangqi, eight for chess; `startpos` is
/// Xiangqi's), judged as [`judge_text`] judges typed moves: a move that exposes the mover's
/// king is ruled where the rules say it loses, which a record reader cannot do.
pub fn judge_moves_line(line: &str, rules: &Rulesets) -> Result<JudgedGame, String> {
    let line = line.trim();
    let line = line.strip_prefix("position").unwrap_or(line).trim();
    let (start, moves) = match line.find(" moves") {
        Some(i) => (line[..i].trim(), &line[i + 6..]),
        None => (line, ""),
    };
    let fen = start.strip_prefix("fen").map(str::trim).unwrap_or(start);
    let ranks = fen.split(' ').next().map_or(0, |p| p.split('/').count());
    let kind = if ranks == 8 { Kind::Chess } else { Kind::Xiangqi };
    judge_text(kind, Some(fen), moves, rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reason;

    #[test]
    fn point_01_facing_kings_move_is_a_loss_under_cxa_typed_or_in_a_moves_line() {
        let fen = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";
        let cxa = Rulesets::default();
        for game in [
            judge_text(Kind::Xiangqi, Some(fen), "e0d0", &cxa).unwrap(),
            judge_moves_line(&format!("position fen {fen} moves e0d0"), &cxa).unwrap(),
        ] {
            assert_eq!(
                (game.verdict.result, game.verdict.reason, game.verdict.ply, game.stop),
                (Outcome::SecondWins, Reason::SelfCheck, 1, None),
                "{}",
                game.verdict.explanation
            );
        }
        // Under AXF the move is refused: judging stops there, saying where and which move.
        let axf = Rulesets {
            xiangqi: Rules::axf(),
            ..Rulesets::default()
        };
        let e = judge_text(Kind::Xiangqi, Some(fen), "e0d0", &axf).unwrap_err();
        assert!(e.starts_with("ply 1:") && e.contains("e0d0"), "{e}");
        // A word that is no move at all is an error under every ruleset.
        assert!(judge_text(Kind::Xiangqi, Some(fen), "hello", &cxa).is_err());
    }

    #[test]
    fn point_01_facing_kings_move_in_a_record_is_a_loss_under_cxa() {
        use records::files::{read_as, Format};
        let pgn = "[Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1\"]\n[Result \"0-1\"]\n\n1. 帅五平六 0-1\n";
        let read = |text: &str| {
            read_as(
                std::path::Path::new("t"),
                Format::XiangqiPgn,
                std::io::Cursor::new(text.as_bytes().to_vec()),
            )
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
        };
        let record = read(pgn);
        assert_eq!(record.issues().len(), 1, "the reader refuses the move");
        let game = judge_record(&record, &Rulesets::default());
        assert_eq!(
            (game.verdict.reason, game.verdict.ply, game.stop, game.agrees),
            (Reason::SelfCheck, 1, None, Some(true)),
            "{}",
            game.verdict.explanation
        );
        // In coordinates too; under AXF the refusal stands, at its ply, with the move named.
        let iccs = pgn
            .replace("帅五平六", "e0-d0")
            .replace("[Result", "[Format \"ICCS\"]\n[Result");
        let record = read(&iccs);
        assert_eq!(
            judge_record(&record, &Rulesets::default()).verdict.reason,
            Reason::SelfCheck
        );
        let axf = Rulesets {
            xiangqi: Rules::axf(),
            ..Rulesets::default()
        };
        let stop = judge_record(&record, &axf).stop.expect("refused under AXF");
        assert!(stop.ply == 1 && stop.message.contains("e0"), "{stop}");
    }

    #[test]
    fn point_01_facing_kings_move_in_a_dhtmlxq_record_is_a_loss_under_cxa_and_refused_under_axf() {
        // The red king (5th of the piece list) on x4 y9, a red pawn on x2 y6, the black king on
        // x3 y0: e0d0 (4939) faces the kings.
        let binit: String = (0..32)
            .map(|i| match i {
                4 => "49",
                11 => "26",
                20 => "30",
                _ => "99",
            })
            .collect();
        let text = format!(
            "[DhtmlXQ]\n[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]4939[/DhtmlXQ_movelist]\n\
             [DhtmlXQ_result]黑胜[/DhtmlXQ_result]\n[/DhtmlXQ]\n"
        );
        let record = AnyRecord::Xiangqi(records::dhtmlxq::read_dhtmlxq_block(&text).unwrap());
        let refused = record.issues()[0].refused.clone().expect("the reader keeps the move");
        assert_eq!(refused.written, "4939");
        let game = judge_record(&record, &Rulesets::default());
        assert_eq!(
            (game.verdict.result, game.verdict.reason, game.verdict.ply, game.stop),
            (Outcome::SecondWins, Reason::SelfCheck, 1, None),
            "{}",
            game.verdict.explanation
        );
        let axf = Rulesets {
            xiangqi: Rules::axf(),
            ..Rulesets::default()
        };
        let game = judge_record(&record, &axf);
        assert_eq!((game.verdict.result, game.plies), (Outcome::Ongoing, 0));
        let stop = game.stop.expect("refused under AXF");
        assert!(stop.ply == 1 && stop.message.contains("4939"), "{stop}");
    }

    #[test]
    fn point_01_a_chinese_move_typed_that_faces_the_kings_is_a_loss_under_cxa() {
        let fen = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";
        let game = judge_text(Kind::Xiangqi, Some(fen), "帅五平六", &Rulesets::default()).unwrap();
        assert_eq!((game.verdict.reason, game.verdict.ply), (Reason::SelfCheck, 1));
    }

    #[test]
    fn moves_after_the_end_stop_the_judging_where_they_start() {
        let fen = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";
        let game = judge_text(Kind::Xiangqi, Some(fen), "e0d0 d9e9", &Rulesets::default()).unwrap();
        assert_eq!(game.verdict.reason, Reason::SelfCheck);
        let stop = game.stop.expect("stopped at ply 2");
        assert_eq!(
            stop.to_string(),
            "ply 2: a move after the end: the game already ended at ply 1"
        );
    }

    #[test]
    fn a_variations_refused_move_is_not_the_main_lines_stop() {
        use records::files::{read_as, Format};
        let read = |text: &str| {
            read_as(
                std::path::Path::new("t"),
                Format::XiangqiPgn,
                std::io::Cursor::new(text.as_bytes().to_vec()),
            )
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
        };
        // The main line is one move; the variation's second move (ply 2, the main line's
        // next ply) cannot be played: the rook's file is blocked by its own pawn.
        let record = read("[Game \"Chinese Chess\"]\n\n1. 炮二平五 (1. 兵七进一 车9进9) *\n");
        assert_eq!(record.issues().len(), 1, "the reader refuses the variation's move");
        assert_eq!(record.issues()[0].ply, Some(2));
        let game = judge_record(&record, &Rulesets::default());
        assert_eq!((game.plies, game.stop), (1, None));
        // The same move refused in the main line stops it there.
        let record = read("[Game \"Chinese Chess\"]\n\n1. 炮二平五 车9进9 *\n");
        let stop = judge_record(&record, &Rulesets::default())
            .stop
            .expect("the main line stops");
        assert_eq!(stop.ply, 2, "{stop}");
    }
}
