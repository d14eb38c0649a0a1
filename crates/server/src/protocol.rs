//! The messages a game socket takes (`socket`): small JSON objects named by `t`, with an
//! optional `id` the answer repeats.
//!
//! ```text
//! {"t":"hello","token":"SEAT TOKEN","since":12}   seat the socket and/or say where to resume
//! {"t":"move","move":"e2e4","draw":true}          a move, optionally offering a draw
//! {"t":"draw-offer"} {"t":"draw-accept"} {"t":"draw-decline"}
//! {"t":"takeback-offer"} {"t":"takeback-accept"} {"t":"takeback-decline"}
//! {"t":"claim-draw"} {"t":"claim-victory"} {"t":"resign"} {"t":"abort"}
//! {"t":"ping"}                                    answered {"t":"pong"}
//! ```
//!
//! Answers: `{"t":"ack",…}` with the HTTP answer's fields, or `{"t":"error","code":HTTP
//! STATUS,"error":…}` with the HTTP error's body.

use game::Kind;
use serde::Deserialize;
use serde_json::Value;

use crate::codec::parse_move;
use crate::error::ApiError;

/// A message read: its `id` (kept even when the rest is bad, for the error to name it) and
/// what it asks.
pub struct Parsed {
    pub id: Option<Value>,
    pub incoming: Result<Incoming, ApiError>,
}

#[derive(Debug, PartialEq)]
pub enum Incoming {
    Hello { token: Option<String>, since: Option<u64> },
    Ping,
    Command(Command),
}

/// What a seat may do, as the HTTP routes of the Board API.
#[derive(Debug, PartialEq)]
pub enum Command {
    Move { text: String, draw: bool },
    DrawOffer,
    DrawAccept,
    DrawDecline,
    TakebackOffer,
    TakebackAccept,
    TakebackDecline,
    ClaimDraw,
    ClaimVictory,
    Resign,
    Abort,
}

#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case", deny_unknown_fields)]
enum Wire {
    Hello {
        token: Option<String>,
        since: Option<u64>,
    },
    // Braces, so that an unknown field is refused in these too (serde takes any field in a
    // unit variant of a tagged enum).
    Ping {},
    Move {
        #[serde(rename = "move")]
        text: String,
        #[serde(default)]
        draw: bool,
    },
    DrawOffer {},
    DrawAccept {},
    DrawDecline {},
    TakebackOffer {},
    TakebackAccept {},
    TakebackDecline {},
    ClaimDraw {},
    ClaimVictory {},
    Resign {},
    Abort {},
}

pub fn parse(text: &str) -> Parsed {
    let mut value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Parsed {
                id: None,
                incoming: Err(ApiError::bad_request(format!("not a JSON message: {e}"))),
            }
        }
    };
    let id = value.as_object_mut().and_then(|o| o.remove("id"));
    let incoming = serde_json::from_value::<Wire>(value)
        .map_err(|e| ApiError::bad_request(format!("bad message: {e}")))
        .map(|w| match w {
            Wire::Hello { token, since } => Incoming::Hello { token, since },
            Wire::Ping {} => Incoming::Ping,
            Wire::Move { text, draw } => Incoming::Command(Command::Move { text, draw }),
            Wire::DrawOffer {} => Incoming::Command(Command::DrawOffer),
            Wire::DrawAccept {} => Incoming::Command(Command::DrawAccept),
            Wire::DrawDecline {} => Incoming::Command(Command::DrawDecline),
            Wire::TakebackOffer {} => Incoming::Command(Command::TakebackOffer),
            Wire::TakebackAccept {} => Incoming::Command(Command::TakebackAccept),
            Wire::TakebackDecline {} => Incoming::Command(Command::TakebackDecline),
            Wire::ClaimDraw {} => Incoming::Command(Command::ClaimDraw),
            Wire::ClaimVictory {} => Incoming::Command(Command::ClaimVictory),
            Wire::Resign {} => Incoming::Command(Command::Resign),
            Wire::Abort {} => Incoming::Command(Command::Abort),
        });
    Parsed { id, incoming }
}

impl Command {
    pub fn is_move(&self) -> bool {
        matches!(self, Command::Move { .. })
    }

    /// The referee's command, as the matching HTTP route makes it.
    pub fn into_referee(self, kind: Kind) -> Result<referee::Command, ApiError> {
        use referee::Command as R;
        Ok(match self {
            Command::Move { text, draw } => {
                let m = parse_move(kind, &text)?;
                if draw {
                    R::MoveOfferingDraw(m)
                } else {
                    R::Move(m)
                }
            }
            // As `draw/yes`: the game's task makes an offer an acceptance while the other
            // side's offer stands.
            Command::DrawOffer | Command::DrawAccept => R::OfferDraw,
            Command::DrawDecline => R::DeclineDraw,
            // As `takeback/yes`: asking while the other side asks is agreeing.
            Command::TakebackOffer | Command::TakebackAccept => R::ProposeTakeback,
            Command::TakebackDecline => R::DeclineTakeback,
            Command::ClaimDraw => R::ClaimDraw,
            Command::ClaimVictory => R::ClaimTime,
            Command::Resign => R::Resign,
            Command::Abort => R::Abort,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_and_bad_ones_say_why() {
        let p = parse(r#"{"t":"move","move":"e2e4","draw":true,"id":7}"#);
        assert_eq!(p.id, Some(Value::from(7)));
        assert_eq!(
            p.incoming.unwrap(),
            Incoming::Command(Command::Move {
                text: "e2e4".into(),
                draw: true
            })
        );
        let p = parse(r#"{"t":"hello","since":3}"#);
        assert_eq!(
            p.incoming.unwrap(),
            Incoming::Hello {
                token: None,
                since: Some(3)
            }
        );
        assert_eq!(parse(r#"{"t":"ping"}"#).incoming.unwrap(), Incoming::Ping);
        for (t, command) in [
            ("takeback-offer", referee::Command::ProposeTakeback),
            ("takeback-accept", referee::Command::ProposeTakeback),
            ("takeback-decline", referee::Command::DeclineTakeback),
        ] {
            let Incoming::Command(c) = parse(&format!(r#"{{"t":"{t}"}}"#)).incoming.unwrap() else {
                panic!("{t}: not a command")
            };
            assert_eq!(c.into_referee(Kind::Chess).unwrap(), command, "{t}");
        }
        for bad in [
            "not json",
            "[1,2]",
            r#"{"t":"fly"}"#,
            r#"{"move":"e2e4"}"#,
            r#"{"t":"move"}"#,
            r#"{"t":"resign","extra":1}"#,
            r#"{"t":"hello","since":-1}"#,
        ] {
            let p = parse(bad);
            assert!(
                matches!(&p.incoming, Err(e) if e.why() == Some("bad_request")),
                "{bad}: {:?}",
                p.incoming
            );
        }
        // The id is kept for the error to name it.
        assert_eq!(parse(r#"{"t":"fly","id":"a"}"#).id, Some(Value::from("a")));
    }
}
