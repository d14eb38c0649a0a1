//! Entering results: a game, the next games of a match, a team pairing's boards; a tie drawn
//! by lots where the rules say so.

use super::pairing::{Game, Lot, Verdict};
use super::progress::rule;
use super::{err, refuse, Error, ErrorKind, Event, Format};
use crate::result::Score;

/// A result as an arbiter writes it, red's (white's) side first: `1-0`, `0-1`, `1/2` (`½-½`,
/// `1/2-1/2`, `=`), forfeits `+-` (black did not show), `-+`, `--` (neither did; also `+/-`,
/// `-/+`, `-/-`). A game of a match is written as its scoresheet reads, with the colours of
/// that game; a team pairing's boards from the first-named team's side, as the match sheet
/// lists them.
pub fn parse_game(s: &str) -> Result<Game, Error> {
    let g = |score, forfeit, double_forfeit| Game {
        score,
        forfeit,
        double_forfeit,
    };
    Ok(match s.trim() {
        "1-0" => g(Score::Win, false, false),
        "0-1" => g(Score::Loss, false, false),
        "1/2" | "½" | "½-½" | "1/2-1/2" | "=" | "draw" => g(Score::Draw, false, false),
        "+-" | "+/-" | "+:-" => g(Score::Win, true, false),
        "-+" | "-/+" | "-:+" => g(Score::Loss, true, false),
        "--" | "-/-" | "-:-" => g(Score::Loss, false, true),
        other => {
            return refuse(
                ErrorKind::NotAResult { text: other.into() },
                format!("{other:?} is not a result: 1-0, 0-1, 1/2, +- (the second did not show), -+, --"),
            )
        }
    })
}

/// What entering a result came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Entered {
    pub id: String,
    pub verdict: Verdict,
    /// The lot drawn, when the result left the pairing tied with nothing more to play.
    pub lot: Option<Lot>,
}

impl Event {
    /// Enters the results of pairing `id` in order: the next games of a match (its play-off
    /// games too), each as its scoresheet reads ([`parse_game`]), or a team pairing's boards
    /// from board 1 (then a tie's play-off match, board 1 first). `replace` clears what was entered
    /// first (a correction, while nothing has been paired on it). Nothing changes on an error.
    pub fn result(&mut self, id: &str, results: &[&str], replace: bool) -> Result<Entered, Error> {
        if self.is_swiss() {
            return err("a Swiss event takes results through its TRF (crate::event::set_result)");
        }
        let games = results.iter().map(|r| parse_game(r)).collect::<Result<Vec<_>, _>>()?;
        if games.is_empty() {
            return refuse(ErrorKind::NoResult, "no result given");
        }
        let Some((s, id)) = self.locate(id) else {
            return refuse(
                ErrorKind::NoPairing { pairing: id.into() },
                format!("no pairing {id:?} (arbiter tournament pairings shows them)"),
            );
        };
        let mut next = self.clone();
        if replace {
            next.check_correctable(s, &id)?;
        }
        let mut p = next.pairing(&id).expect("located").into_owned();
        let rule = rule(&next, s, &p);
        if p.second.is_none() {
            return refuse(
                ErrorKind::Bye { pairing: id.clone() },
                format!("{id} is a bye: there is no game"),
            );
        }
        if replace {
            p.games.clear();
            p.lot = None;
        }
        let verdict = p.verdict(rule);
        if verdict != Verdict::Pending {
            return refuse(
                ErrorKind::AlreadyDecided { pairing: id.clone() },
                format!("{id} is already decided ({}); --replace corrects it", describe(verdict)),
            );
        }
        let room = if rule.boards > 0 && rule.needs_winner {
            // The match on the boards and every play-off match a tie may send it to.
            (1 + rule.playoff as usize) * rule.boards as usize - p.games.len()
        } else if rule.boards > 0 {
            rule.boards as usize - p.games.len()
        } else if rule.needs_winner {
            usize::MAX
        } else {
            rule.games as usize - p.games.len()
        };
        if games.len() > room {
            let kind = ErrorKind::NoRoom {
                pairing: id.clone(),
                room,
                given: games.len(),
            };
            return refuse(
                kind,
                format!("{id} has room for {room} more result(s), {} given", games.len()),
            );
        }
        for (k, g) in games.iter().enumerate() {
            if p.verdict(rule) != Verdict::Pending {
                let kind = ErrorKind::DecidedAfter {
                    pairing: id.clone(),
                    games: p.games.len(),
                    extra: games.len() - k,
                };
                return refuse(
                    kind,
                    format!(
                        "{id} was decided after {} game(s); {} result(s) too many",
                        p.games.len(),
                        games.len() - k
                    ),
                );
            }
            let mut g = *g;
            if rule.boards == 0 && p.next_first_colour() == super::Side::Second {
                g.score = g.score.reversed();
            }
            p.games.push(g);
        }
        let lot = p.due_lot(rule);
        if let Some(l) = &lot {
            p.lot = Some(l.clone());
        }
        let verdict = p.verdict(rule);
        next.put_pairing(s, p)?;
        if next.stages[s].trf.is_some() {
            super::swiss::record(&mut next, s, &id)?;
        }
        *self = next;
        Ok(Entered { id, verdict, lot })
    }

    /// What pairing `id` has come to so far, under its stage's rules (a match still to play
    /// is [`Verdict::Pending`]); `None` when there is no such pairing.
    pub fn verdict(&self, id: &str) -> Option<Verdict> {
        let (s, p) = self.find_pairing(id)?;
        Some(p.verdict(rule(self, s, &p)))
    }

    /// How many games pairing `id` has once the match now being played is complete — its next
    /// game for players; the last board of its match, or of the play-off match a tie sent it
    /// to, for teams — or its games' count when it is decided; `None` when there is no such
    /// pairing. A team pairing's board `b` of play-off match `k` is its game `k × boards + b`.
    pub fn games_due(&self, id: &str) -> Option<u32> {
        let (s, id) = self.locate(id)?;
        let p = self.pairing(&id)?;
        Some(p.games_due(rule(self, s, &p)) as u32)
    }

    /// The stage of pairing `id` and its id as written.
    fn locate(&self, id: &str) -> Option<(usize, String)> {
        self.find_pairing(id).map(|(s, p)| (s, p.id.clone()))
    }

    /// A result may be corrected while nothing stands on it: in the current stage, and in a
    /// knockout only in its latest round.
    fn check_correctable(&self, s: usize, id: &str) -> Result<(), Error> {
        if s + 1 != self.stages.len() {
            return refuse(
                ErrorKind::StageOver { pairing: id.into() },
                format!("{id} is in a stage that is over: its results are final"),
            );
        }
        let stage = &self.stages[s];
        if let Some(last) = stage.playoffs.last() {
            if !last.pairings.iter().any(|p| p.id == id) {
                return refuse(
                    ErrorKind::PlayoffsAfter { pairing: id.into() },
                    format!("{id}: play-offs have been paired after it"),
                );
            }
            return Ok(());
        }
        let knockout = matches!(self.plan[s].format, Format::Knockout { .. } | Format::DoubleKnockout);
        let in_last = stage
            .rounds
            .last()
            .is_some_and(|r| r.pairings.iter().any(|p| p.id == id));
        if knockout && !in_last {
            return refuse(
                ErrorKind::LaterRound { pairing: id.into() },
                format!("{id}: a later round has been paired on its result"),
            );
        }
        Ok(())
    }
}

/// A verdict in words.
pub fn describe(v: Verdict) -> &'static str {
    match v {
        Verdict::Pending => "to play",
        Verdict::Bye => "a bye",
        Verdict::Won(super::Side::First) => "won by the first",
        Verdict::Won(super::Side::Second) => "won by the second",
        Verdict::Drawn => "drawn",
    }
}
