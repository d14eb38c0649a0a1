//! Small, strict texts: commands as logged, moves as the API takes them, seat tokens.

use game::Kind;
use judge::Outcome;
use rand::Rng;
use referee::touch::Touch;
use referee::{Command, Correction, Straightening};
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// A command as logged: `start`, `move e2e4`, `move+draw e2e4`, `move e2e4 lag=120` (a move
/// credited 120 ms of network lag), `offer`, `accept`, `decline`, `takeback`, `takeback-accept`,
/// `takeback-decline`, `resign`, `claim`,
/// `claim-time`, `abort`, `tick`; and the arbiter's: `touch own h2` (or `opponent`),
/// `foul <what>`, `refuses-rules`, `press-clock`, `adjourn`, `resume`, `straighten notice own
/// h2` (`accidental`, `unannounced`), `correct restore 12`, `correct board`, `correct colours`,
/// `time-add 60000 <reason>`, `time-set 60000 <reason>`, `decide 1-0 <reason>` (`0-1`, `1/2`: a
/// result the arbiter decided). Only what the API can issue; free
/// text (a foul, a reason) last, on one line.
pub fn encode(command: &Command) -> Option<String> {
    Some(match command {
        Command::Start => "start".into(),
        Command::Move(m) => format!("move {m}"),
        Command::MoveOfferingDraw(m) => format!("move+draw {m}"),
        Command::LaggedMove { text, offering, lag } => {
            format!("{} {text} lag={lag}", if *offering { "move+draw" } else { "move" })
        }
        Command::OfferDraw => "offer".into(),
        Command::AcceptDraw => "accept".into(),
        Command::DeclineDraw => "decline".into(),
        Command::Resign => "resign".into(),
        Command::ClaimDraw => "claim".into(),
        Command::ClaimTime => "claim-time".into(),
        Command::Abort => "abort".into(),
        Command::Tick => "tick".into(),
        Command::ProposeTakeback => "takeback".into(),
        Command::AcceptTakeback => "takeback-accept".into(),
        Command::DeclineTakeback => "takeback-decline".into(),
        Command::Touch(t) => format!("touch {}", touch_text(t)),
        Command::TechnicalFoul(what) => format!("foul {}", one_line(what)?),
        Command::RefusesRules => "refuses-rules".into(),
        Command::PressClock => "press-clock".into(),
        Command::Adjourn => "adjourn".into(),
        Command::Resume => "resume".into(),
        Command::Straighten { touch, how } => format!("straighten {} {}", how.code(), touch_text(touch)),
        Command::Correct(Correction::RestoreTo(ply)) => format!("correct restore {ply}"),
        Command::Correct(Correction::BoardTurned) => "correct board".into(),
        Command::Correct(Correction::ColoursSwapped) => "correct colours".into(),
        Command::AddTime { ms, reason } => format!("time-add {ms} {}", one_line(reason)?),
        Command::SetTime { ms, reason } => format!("time-set {ms} {}", one_line(reason)?),
        Command::Decide { result, reason } => {
            let r = match result {
                Outcome::FirstWins => "1-0",
                Outcome::SecondWins => "0-1",
                Outcome::Draw => "1/2",
                // The game called off, without a result.
                Outcome::Ongoing => "*",
            };
            format!("decide {r} {}", one_line(reason)?)
        }
    })
}

fn touch_text(t: &Touch) -> String {
    match t {
        Touch::Own(s) => format!("own {s}"),
        Touch::Opponent(s) => format!("opponent {s}"),
    }
}

/// Free text as logged: non-empty, on one line (a line is one command).
fn one_line(text: &str) -> Option<&str> {
    (!text.trim().is_empty() && !text.contains(['\n', '\r'])).then_some(text)
}

fn touch_of(text: &str) -> Option<Touch> {
    let (whose, square) = text.split_once(' ')?;
    let square = square.to_string();
    let ok = square.len() >= 2
        && square.as_bytes()[0].is_ascii_lowercase()
        && square[1..].bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return None;
    }
    match whose {
        "own" => Some(Touch::Own(square)),
        "opponent" => Some(Touch::Opponent(square)),
        _ => None,
    }
}

/// `60000 the reason`: milliseconds, then the reason.
fn time_of(text: &str) -> Option<(u64, String)> {
    let (ms, reason) = text.split_once(' ')?;
    Some((ms.parse().ok()?, one_line(reason)?.to_string()))
}

pub fn decode(text: &str) -> Option<Command> {
    Some(match text.split_once(' ') {
        Some((kind @ ("move" | "move+draw"), rest)) => {
            let offering = kind == "move+draw";
            match rest.split_once(" lag=") {
                Some((m, lag)) => Command::LaggedMove {
                    text: m.into(),
                    offering,
                    lag: lag.parse().ok()?,
                },
                None if offering => Command::MoveOfferingDraw(rest.into()),
                None => Command::Move(rest.into()),
            }
        }
        Some(("touch", rest)) => Command::Touch(touch_of(rest)?),
        Some(("foul", what)) => Command::TechnicalFoul(one_line(what)?.to_string()),
        Some(("straighten", rest)) => {
            let (how, touch) = rest.split_once(' ')?;
            Command::Straighten {
                touch: touch_of(touch)?,
                how: Straightening::from_code(how)?,
            }
        }
        Some(("correct", what)) => Command::Correct(match what.split_once(' ') {
            Some(("restore", ply)) => Correction::RestoreTo(ply.parse().ok()?),
            None if what == "board" => Correction::BoardTurned,
            None if what == "colours" => Correction::ColoursSwapped,
            _ => return None,
        }),
        Some(("time-add", rest)) => {
            let (ms, reason) = time_of(rest)?;
            Command::AddTime { ms, reason }
        }
        Some(("decide", rest)) => {
            let (result, reason) = rest.split_once(' ')?;
            let result = match result {
                "1-0" => Outcome::FirstWins,
                "0-1" => Outcome::SecondWins,
                "1/2" => Outcome::Draw,
                "*" => Outcome::Ongoing,
                _ => return None,
            };
            Command::Decide {
                result,
                reason: one_line(reason)?.to_string(),
            }
        }
        Some(("time-set", rest)) => {
            let (ms, reason) = time_of(rest)?;
            Command::SetTime { ms, reason }
        }
        Some(_) => return None,
        None => match text {
            "start" => Command::Start,
            "offer" => Command::OfferDraw,
            "accept" => Command::AcceptDraw,
            "decline" => Command::DeclineDraw,
            "resign" => Command::Resign,
            "claim" => Command::ClaimDraw,
            "claim-time" => Command::ClaimTime,
            "abort" => Command::Abort,
            "tick" => Command::Tick,
            "takeback" => Command::ProposeTakeback,
            "takeback-accept" => Command::AcceptTakeback,
            "takeback-decline" => Command::DeclineTakeback,
            "refuses-rules" => Command::RefusesRules,
            "press-clock" => Command::PressClock,
            "adjourn" => Command::Adjourn,
            "resume" => Command::Resume,
            _ => return None,
        },
    })
}

/// A move in coordinates only: UCI for chess (`e2e4`, `e7e8q`), ICCS for Xiangqi (`h2e2`, or
/// `H2-E2`), so what is logged is unambiguous and short. Returns it in lowercase.
pub fn parse_move(kind: Kind, text: &str) -> Result<String, ApiError> {
    let bad = || {
        let shown: String = text.chars().take(16).collect();
        ApiError::bad(
            crate::problem::Problem::MalformedMove,
            format!("malformed move {shown:?}"),
        )
        .arg("text", shown)
    };
    let t: String = text.to_ascii_lowercase().chars().filter(|&c| c != '-').collect();
    if text.len() > 6 || !text.is_ascii() {
        return Err(bad());
    }
    let b = t.as_bytes();
    let ok = match kind {
        Kind::Chess => {
            let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
            (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
                && sq(b[0], b[1])
                && sq(b[2], b[3])
                && !text.contains('-')
        }
        Kind::Xiangqi => {
            let sq = |f: u8, r: u8| (b'a'..=b'i').contains(&f) && r.is_ascii_digit();
            b.len() == 4 && sq(b[0], b[1]) && sq(b[2], b[3])
        }
    };
    if ok {
        Ok(t)
    } else {
        Err(bad())
    }
}

/// A fresh random id of `n` letters and digits.
pub fn random_id(n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::thread_rng();
    (0..n)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Tokens are stored only as hashes: a leaked database seats no one.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_strict() {
        assert_eq!(parse_move(Kind::Chess, "e2e4").unwrap(), "e2e4");
        assert_eq!(parse_move(Kind::Chess, "e7e8q").unwrap(), "e7e8q");
        assert!(parse_move(Kind::Chess, "e2e9").is_err());
        assert!(parse_move(Kind::Chess, "Nf3").is_err());
        assert_eq!(parse_move(Kind::Xiangqi, "H2-E2").unwrap(), "h2e2");
        assert!(parse_move(Kind::Xiangqi, "炮二平五").is_err());
        assert!(parse_move(Kind::Xiangqi, "j0a0").is_err());
    }

    #[test]
    fn commands_round_trip() {
        for c in [
            Command::Start,
            Command::Move("e2e4".into()),
            Command::MoveOfferingDraw("h2e2".into()),
            Command::LaggedMove {
                text: "h2e2".into(),
                offering: false,
                lag: 120,
            },
            Command::LaggedMove {
                text: "e7e8q".into(),
                offering: true,
                lag: 0,
            },
            Command::Tick,
            Command::Resign,
            Command::OfferDraw,
            Command::AcceptDraw,
            Command::DeclineDraw,
            Command::ClaimDraw,
            Command::ClaimTime,
            Command::Abort,
            Command::ProposeTakeback,
            Command::AcceptTakeback,
            Command::DeclineTakeback,
            // The arbiter's.
            Command::Touch(Touch::Own("h2".into())),
            Command::Touch(Touch::Opponent("e10".into())),
            Command::TechnicalFoul("连续提和，干扰对方 (§8 (一))".into()),
            Command::RefusesRules,
            Command::PressClock,
            Command::Adjourn,
            Command::Resume,
            Command::Straighten {
                touch: Touch::Own("b0".into()),
                how: Straightening::WithNotice,
            },
            Command::Straighten {
                touch: Touch::Opponent("c7".into()),
                how: Straightening::Accidental,
            },
            Command::Straighten {
                touch: Touch::Own("a1".into()),
                how: Straightening::Unannounced,
            },
            Command::Correct(Correction::RestoreTo(12)),
            Command::Correct(Correction::BoardTurned),
            Command::Correct(Correction::ColoursSwapped),
            Command::AddTime {
                ms: 120_000,
                reason: "false claim: FIDE 9.5.3".into(),
            },
            Command::SetTime {
                ms: 0,
                reason: "clock malfunction".into(),
            },
            Command::Decide {
                result: Outcome::SecondWins,
                reason: "the organiser's result: red did not return".into(),
            },
            Command::Decide {
                result: Outcome::Draw,
                reason: "agreed at the table".into(),
            },
            Command::Decide {
                result: Outcome::Ongoing,
                reason: "the match was decided without it".into(),
            },
        ] {
            let text = encode(&c).unwrap();
            assert!(!text.contains('\n'), "{text}");
            assert_eq!(decode(&text), Some(c));
        }
        assert_eq!(decode("move e2e4 lag=x"), None);
        for bad in [
            "touch mine h2",
            "touch own 2h",
            "foul ",
            "straighten maybe own h2",
            "correct restore x",
            "correct nothing",
            "time-add x why",
            "time-set 100",
            "decide 2-0 why",
            "decide 1-0",
            "decide 1-0 ",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
        }
        // Free text that would break the log's lines is not logged.
        assert_eq!(encode(&Command::TechnicalFoul("a\nmove e2e4".into())), None);
        assert_eq!(encode(&Command::TechnicalFoul(" ".into())), None);
    }
}
