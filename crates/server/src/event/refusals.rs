//! The event model's refusals as the API answers them: each kind of
//! [`tournament::competition::ErrorKind`] its problem's code and values, read from the kind
//! and never from the English, which is the command line's (it may name a flag; a page names
//! its own controls, in its sentences).

use tournament::competition::{Error, ErrorKind};

use crate::error::{ApiError, Problem};

/// The refusal `e` of the event's model, coded by its kind; anything else as not accepted,
/// in the model's words. Every one is a 400, as the model's refusals always were: the code
/// tells them apart, not the status.
pub fn model_error(e: Error) -> ApiError {
    use ErrorKind as K;
    let bad = |problem: Problem| ApiError::bad(problem, e.message.clone());
    match &e.kind {
        K::UnknownFormat { format } => bad(Problem::EventUnknownFormat).arg("format", format.as_str()),
        K::RegistrationClosed => bad(Problem::EventStarted),
        K::NameNeeded => bad(Problem::EntrantNameLength).arg("max", 100),
        K::AlreadyRegistered { name } => bad(Problem::AlreadyRegistered).arg("name", name.as_str()),
        K::TooFewMembers { team, members, boards } => bad(Problem::TooFewMembers)
            .arg("team", team.as_str())
            .arg("members", *members)
            .arg("boards", *boards),
        K::MembersForTeams => ApiError::bad(
            Problem::MembersForTeams,
            "members are for team events (an event with boards)",
        ),
        K::NoEntrant { entrant } => bad(Problem::NoEntrant).arg("entrant", *entrant),
        K::AlreadyWithdrawn { name } => bad(Problem::AlreadyWithdrawn).arg("name", name.as_str()),
        K::ResultsMissing { pairings } => bad(Problem::RoundNotOver).arg("pairings", pairings.join(", ")),
        K::Finished => bad(Problem::EventFinished),
        K::TooFewEntrants { stage, least, has, .. } => bad(Problem::TooFewEntrants)
            .arg("stage", *stage)
            .arg("least", *least)
            .arg("has", *has),
        K::NotAResult { text } => bad(Problem::NotAResult).arg("text", text.as_str()),
        K::NoResult => ApiError::bad(Problem::ResultsCount, "results: 1 to 99 of them").arg("max", 99),
        K::NoPairing { pairing } => {
            ApiError::bad(Problem::NoSuchPairing, format!("no pairing {pairing:?}")).arg("pairing", pairing.as_str())
        }
        K::Bye { pairing } => bad(Problem::PairingIsBye).arg("pairing", pairing.as_str()),
        K::AlreadyDecided { pairing } => ApiError::bad(
            Problem::AlreadyDecided,
            format!(
                "{pairing} is already decided: enter its results as a correction (\"replace\": true) to change them"
            ),
        )
        .arg("pairing", pairing.as_str()),
        K::NoRoom { pairing, room, given } => bad(Problem::NoRoomForResults)
            .arg("pairing", pairing.as_str())
            .arg("room", *room)
            .arg("given", *given),
        K::DecidedAfter { pairing, games, extra } => bad(Problem::DecidedAfter)
            .arg("pairing", pairing.as_str())
            .arg("games", *games)
            .arg("extra", *extra),
        K::StageOver { pairing } => bad(Problem::StageOver).arg("pairing", pairing.as_str()),
        K::PlayoffsAfter { pairing } => bad(Problem::PlayoffsAfter).arg("pairing", pairing.as_str()),
        K::LaterRound { pairing } => bad(Problem::LaterRoundPaired).arg("pairing", pairing.as_str()),
        K::NotTeams => bad(Problem::LineupNotTeams),
        K::NotInPairing { team, pairing } => bad(Problem::TeamNotInPairing)
            .arg("team", team.as_str())
            .arg("pairing", pairing.as_str()),
        K::LineupFixed { pairing } => bad(Problem::LineupFixed).arg("pairing", pairing.as_str()),
        K::LineupSize { boards, given } => bad(Problem::LineupSize).arg("boards", *boards).arg("given", *given),
        K::NotOnRoster { name, team } => bad(Problem::NotOnRoster)
            .arg("name", name.as_str())
            .arg("team", team.as_str()),
        K::NamedTwice { name } => bad(Problem::NamedTwice).arg("name", name.as_str()),
        K::RosterOrder { name } => bad(Problem::RosterOrder).arg("name", name.as_str()),
        K::TeamWithdrawn { team } => bad(Problem::TeamWithdrawn).arg("team", team.as_str()),
        _ => ApiError::not_accepted(e.message.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::competition::{Event, Format, Plan};

    fn body(e: Error) -> serde_json::Value {
        model_error(e).body()
    }

    /// The refusals an organiser meets come coded with their values, in words of the API (no
    /// command-line flag), the model's English being the command line's.
    #[test]
    fn the_models_refusals_are_coded_by_kind() {
        let mut e = Event::new("c", vec![Plan::new(Format::RoundRobin { cycles: 1 })]);
        for n in ["Ann", "Bo"] {
            e.register(n, 0, "", &[]).unwrap();
        }
        let members = e.register("Cy", 0, "", &["X".into()]).unwrap_err();
        assert!(members.message.contains("--boards"), "{members}");
        let b = body(members);
        assert_eq!(b["why"], "members_for_teams");
        assert!(!b["error"].as_str().unwrap().contains("--"), "{b}");
        let id = e.pair().unwrap().pairings[0].id.clone();
        e.result(&id, &["1-0"], false).unwrap();
        let decided = e.result(&id, &["0-1"], false).unwrap_err();
        assert!(
            decided.message.contains("--replace"),
            "the command line's words: {decided}"
        );
        let b = body(decided);
        assert_eq!(b["why"], "already_decided");
        assert_eq!(b["args"]["pairing"], id.as_str());
        assert!(!b["error"].as_str().unwrap().contains("--replace"), "{b}");
        let b = body(e.result(&id, &["2-0"], true).unwrap_err());
        assert_eq!(
            (b["why"].as_str(), b["args"]["text"].as_str()),
            (Some("not_a_result"), Some("2-0"))
        );
        let b = body(e.register("Di", 0, "", &[]).unwrap_err());
        assert_eq!(b["why"], "event_started");
    }
}
