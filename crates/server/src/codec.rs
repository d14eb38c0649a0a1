//! Small, strict texts: commands as logged, moves as the API takes them, seat tokens.

use game::Kind;
use rand::Rng;
use referee::Command;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// A command as logged: `start`, `move e2e4`, `move+draw e2e4`, `move e2e4 lag=120` (a move
/// credited 120 ms of network lag), `offer`, `accept`, `decline`, `resign`, `claim`,
/// `claim-time`, `abort`, `tick`. Only what the API can issue.
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
        _ => return None,
    })
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
            _ => return None,
        },
    })
}

/// A move in coordinates only: UCI for chess (`e2e4`, `e7e8q`), ICCS for Xiangqi (`h2e2`, or
/// `H2-E2`), so what is logged is unambiguous and short. Returns it in lowercase.
pub fn parse_move(kind: Kind, text: &str) -> Result<String, ApiError> {
    let bad = || {
        ApiError::BadRequest(format!(
            "malformed move {:?}",
            text.chars().take(16).collect::<String>()
        ))
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
        ] {
            assert_eq!(decode(&encode(&c).unwrap()), Some(c));
        }
        assert_eq!(decode("move e2e4 lag=x"), None);
    }
}
