//! Why an event cannot do what was asked: the English a person reads (the command line's
//! words) and, for the refusals a server can meet, what kind of refusal it is with its values,
//! so a page can say it in its own language without reading the English.

/// Why an event cannot do what was asked. Nothing has changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The English, as the command line prints it.
    pub message: String,
    pub kind: ErrorKind,
}

/// The kind of a refusal, with the values its sentence names. Entrants are named by name,
/// pairings by id.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Anything else: an inconsistency of the event's own, a Swiss's TRF, a file.
    Other,
    UnknownFormat {
        format: String,
    },
    /// Registration after the first stage started.
    RegistrationClosed,
    NameNeeded,
    AlreadyRegistered {
        name: String,
    },
    TooFewMembers {
        team: String,
        members: usize,
        boards: u32,
    },
    /// Members given for an event of players.
    MembersForTeams,
    NoEntrant {
        entrant: u32,
    },
    AlreadyWithdrawn {
        name: String,
    },
    /// Pairing while pairings of the round are still without a result.
    ResultsMissing {
        pairings: Vec<String>,
    },
    Finished,
    TooFewEntrants {
        stage: usize,
        format: String,
        least: usize,
        has: usize,
    },
    NotAResult {
        text: String,
    },
    NoResult,
    NoPairing {
        pairing: String,
    },
    Bye {
        pairing: String,
    },
    /// A result for a pairing already decided, without asking to correct it.
    AlreadyDecided {
        pairing: String,
    },
    NoRoom {
        pairing: String,
        room: usize,
        given: usize,
    },
    DecidedAfter {
        pairing: String,
        games: usize,
        extra: usize,
    },
    StageOver {
        pairing: String,
    },
    PlayoffsAfter {
        pairing: String,
    },
    LaterRound {
        pairing: String,
    },
    /// A lineup in an event of players.
    NotTeams,
    NotInPairing {
        team: String,
        pairing: String,
    },
    /// A lineup once the pairing has results.
    LineupFixed {
        pairing: String,
    },
    LineupSize {
        boards: usize,
        given: usize,
    },
    NotOnRoster {
        name: String,
        team: String,
    },
    NamedTwice {
        name: String,
    },
    RosterOrder {
        name: String,
    },
    /// A lineup for a team that has withdrawn.
    TeamWithdrawn {
        team: String,
    },
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            kind,
        }
    }

    /// An error of no particular kind.
    pub fn other(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Other, message)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
