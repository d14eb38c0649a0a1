//! What went wrong with a request, as a code beside the English text of every error the API
//! answers: a page writes the sentence in its own language from the code and the error's
//! `args` (`web/errors.json`, both languages), a bot keeps reading the English `error`.

mod fen;

pub use fen::{chess_fen, fen_moves_start, xiangqi_fen};

/// One list makes the enum, its codes and each code's arguments, so none can go missing from
/// another: `Variant = "code" [arg, …]`, the arguments being the `{placeholders}` of its
/// sentences.
macro_rules! problems {
    ($($(#[$doc:meta])* $name:ident = $code:literal [$($param:ident),*],)*) => {
        /// The code of an error a person can meet through the pages (see the module's text).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Problem {
            $($(#[$doc])* $name,)*
        }

        impl Problem {
            /// Every problem, for the test that every one has its sentences.
            pub const ALL: &[Problem] = &[$(Problem::$name),*];

            pub fn code(self) -> &'static str {
                match self {
                    $(Problem::$name => $code,)*
                }
            }

            /// The names of the arguments its sentences take.
            pub fn params(self) -> &'static [&'static str] {
                match self {
                    $(Problem::$name => &[$(stringify!($param)),*],)*
                }
            }
        }
    };
}

problems! {
    // The request itself.
    /// A request only a hand-made client sends (bad JSON, wrong content type, a bad field):
    /// `detail` is the English explanation.
    BadRequest = "bad_request" [detail],
    /// A path no route serves.
    NoSuchEndpoint = "no_such_endpoint" [],
    /// A static file that is not one.
    NoSuchFile = "no_such_file" [file],
    /// A body over the limit.
    TooLarge = "too_large" [kib],
    /// Too many requests from one address; `seconds` until one is taken.
    TooManyRequests = "too_many_requests" [seconds],
    /// A fault of the server's own (500).
    Internal = "internal" [],
    /// The database could not be reached or failed.
    Storage = "storage" [],
    /// The server is shutting down.
    ShuttingDown = "shutting_down" [],
    /// A cluster's game moving between nodes.
    Moving = "moving" [],
    /// A cluster's node that did not answer a forwarded command in time.
    NodeTimeout = "node_timeout" [],
    /// A game that cannot be followed from this node (its events' channel is down).
    CannotFollow = "cannot_follow" [],

    // Games and seats.
    /// No seat token, or a malformed one.
    Unauthorized = "unauthorized" [],
    /// A seat token that holds no seat in the game.
    NotYourSeat = "not_your_seat" [],
    NoSuchGame = "no_such_game" [],
    /// A board device's route called with another token.
    NotTheDevice = "not_the_device" [],
    /// An arbiter's route called with another token.
    NotTheArbiter = "not_the_arbiter" [],
    /// A move text that reads as none.
    MalformedMove = "malformed_move" [text],

    // Accounts and sessions.
    /// An account name too short or too long.
    NameLength = "name_length" [min, max, count],
    /// An account name with a character outside letters, digits, `_` and `-`.
    NameCharacter = "name_character" [character],
    /// An account name beginning with `_` or `-`.
    NameStart = "name_start" [],
    PasswordShort = "password_short" [min],
    /// Longer than the hash takes, in bytes.
    PasswordLong = "password_long" [max],
    /// A display name empty or too long once trimmed.
    DisplayNameLength = "display_name_length" [max, count],
    DisplayNameControl = "display_name_control" [],
    NameTaken = "name_taken" [name],
    WrongPassword = "wrong_password" [],
    NoSuchPlayer = "no_such_player" [name],
    /// A request that needs the browser's session and carries none (cookies off).
    NoSession = "no_session" [],
    /// A rated game asked for without an account.
    RatedNeedsAccount = "rated_needs_account" [],

    // The lobby: settings and game creation.
    UnknownKind = "unknown_kind" [kind],
    /// A time control that is not one of the presets (`known`: their names).
    UnknownTime = "unknown_time" [known],
    UnknownColour = "unknown_colour" [],
    /// A seat asked for that is no side of the game.
    UnknownSeat = "unknown_seat" [first, second],
    /// A clock's main time or increment out of bounds (seconds).
    ClockBounds = "clock_bounds" [limit, increment],
    /// A per-move clock out of bounds (seconds).
    PerMoveBounds = "per_move_bounds" [max],
    /// The computer asked to play a side the game does not have.
    ComputerSide = "computer_side" [side],
    /// The computer's games at the server's limit.
    ComputerBusy = "computer_busy" [],
    /// No engine to play against.
    NoEngine = "no_engine" [],
    ComputerLevel = "computer_level" [level, max],
    UnknownRuleset = "unknown_ruleset" [ruleset, known],
    UnknownRules = "unknown_rules" [rules, known],
    /// Rules whose options do not read (`detail`: why, in English).
    BadRules = "bad_rules" [detail],

    // Seeks, challenges and rematches.
    TooManySeeks = "too_many_seeks" [max],
    /// Cancelled, taken, or its seeker left.
    NoSuchSeek = "no_such_seek" [],
    SeekNotYours = "seek_not_yours" [],
    /// Cancelling a seek someone accepted.
    SeekAccepted = "seek_accepted" [],
    OwnSeek = "own_seek" [],
    /// Accepting a seek another player accepted first.
    SeekTaken = "seek_taken" [],
    NoSuchChallenge = "no_such_challenge" [],
    ChallengeTaken = "challenge_taken" [],
    /// A rematch asked for by one who did not play.
    NoSeatInGame = "no_seat_in_game" [],
    GameNotOver = "game_not_over" [],
    NoRematchPartner = "no_rematch_partner" [],
    NoRematchOffered = "no_rematch_offered" [],
    RematchAccepted = "rematch_accepted" [],

    // Review and analysis.
    EmptyRecord = "empty_record" [],
    BinaryRecord = "binary_record" [],
    UnknownFormat = "unknown_format" [detail],
    GamesFromOne = "games_from_one" [],
    /// A record the reader gives up on (`detail`: the reader's English).
    RecordUnreadable = "record_unreadable" [detail],
    /// A game of the record that does not read.
    RecordGame = "record_game" [game, detail, format],
    /// A game of the record that does not read from a ply on.
    RecordPly = "record_ply" [game, ply, detail, format],
    NoGameInRecord = "no_game_in_record" [format],
    /// A game asked for past the record's last.
    RecordGameCount = "record_game_count" [game, count],
    TooManyMoves = "too_many_moves" [moves, max],
    AnalysisBusy = "analysis_busy" [],
    NoAnalysisEngine = "no_analysis_engine" [],
    /// An analysis stream's end: the engine did not start (`detail`: why, in English).
    EngineDidNotStart = "engine_did_not_start" [detail],
    /// An analysis stream's end: the engine failed on the position after `ply` plies.
    EngineFailed = "engine_failed" [ply, detail],
    /// An analysis stream's end: the analysis stopped on the server's side.
    AnalysisFailed = "analysis_failed" [],
    /// A move of the line to analyse that is not legal (`ply` from 1).
    IllegalMove = "line_illegal_move" [ply, text],

    // A xiangqi FEN that does not read (`rank` counts from the top, 1 to 10).
    FenEmpty = "fen_empty" [],
    FenRanks = "fen_ranks" [ranks],
    FenRankWidth = "fen_rank_width" [rank, files],
    FenCharacter = "fen_character" [rank, character],
    FenTurn = "fen_turn" [turn],
    /// The half-move clock or the move number not a number (`field`: 5 or 6, its place).
    FenNumber = "fen_number" [field, value],
    FenFields = "fen_fields" [fields],
    // A xiangqi FEN that reads but is no legal position: its first problem (`side`: red or
    // black, `square`: ICCS like e0).
    FenNoKing = "fen_no_king" [side],
    FenKings = "fen_kings" [side],
    FenKingOutsidePalace = "fen_king_outside_palace" [side, square],
    FenAdvisor = "fen_advisor" [side, square],
    FenElephant = "fen_elephant" [side, square],
    FenPawn = "fen_pawn" [side, square],
    /// More of a piece than a side owns (`piece`: its FEN letter).
    FenPieces = "fen_pieces" [side, piece, count, max],
    /// The side not to move in check.
    FenOppositeCheck = "fen_opposite_check" [side],
    FenKingsFacing = "fen_kings_facing" [],
    // A chess FEN that does not read, by field, or is no legal position.
    ChessFen = "chess_fen" [],
    ChessFenBoard = "chess_fen_board" [],
    ChessFenTurn = "chess_fen_turn" [],
    ChessFenCastling = "chess_fen_castling" [],
    ChessFenEnPassant = "chess_fen_en_passant" [],
    ChessFenNumber = "chess_fen_number" [],
    /// `detail`: shakmaty's English.
    ChessPosition = "chess_position" [detail],

    // The arbiter's console and events (their organisers).
    /// A setting or command of an arbiter or organiser not accepted (`detail`: why, English).
    NotAccepted = "not_accepted" [detail],
    EventNameLength = "event_name_length" [max],
    /// A Swiss's rounds out of bounds.
    EventRounds = "event_rounds" [max],
    GamesPerMatch = "games_per_match" [max],
    /// A player's name on joining an event, empty or too long.
    EntrantNameLength = "entrant_name_length" [max],
    NoSuchEvent = "no_such_event" [],
    /// No event token, or a malformed one.
    NoEventToken = "no_event_token" [],
    NotInEvent = "not_in_event" [],
    OrganiserOnly = "organiser_only" [],
    OrganiserPlaysNot = "organiser_plays_not" [],
    RegistrationClosed = "registration_closed" [],
    /// An event that changed between reading and publishing it.
    EventChanged = "event_changed" [],
    /// A change to an event refused by the event's own rules (`detail`: why, English).
    EventConflict = "event_conflict" [detail],

    // Creating an event: its settings (as `arbiter tournament create` checks them).
    EventUnknownFormat = "event_unknown_format" [format],
    KnockoutDraw = "knockout_draw" [draw],
    SwissNeedsRounds = "swiss_needs_rounds" [],
    /// Rounds asked for a format that pairs as many as it takes.
    RoundsForSwiss = "rounds_for_swiss" [],
    GroupsCount = "groups_count" [],
    /// A final stage that is a Swiss or groups.
    FinalFormat = "final_format" [],
    FinalNeedsAdvance = "final_needs_advance" [],
    AdvanceNeedsFinal = "advance_needs_final" [],
    BoardsBounds = "boards_bounds" [max],
    BoardPointsForTeams = "board_points_for_teams" [],
    BadBoardPoints = "bad_board_points" [text],
    PlayoffBounds = "playoff_bounds" [max],
    BadPoints = "bad_points" [text],
    UnknownTiebreak = "unknown_tiebreak" [code],
    UnknownSeeding = "unknown_seeding" [seeding],
    UnknownRatingSystem = "unknown_rating_system" [system],
    RatingSystemNeedsList = "rating_system_needs_list" [],
    RatingListLength = "rating_list_length" [max],

    // Running an event: what its model refuses (`tournament::competition::ErrorKind`) and
    // what the server checks before it. Entrants by name, pairings by id.
    /// Registering once the first round is paired.
    EventStarted = "event_started" [],
    AlreadyRegistered = "already_registered" [name],
    TooFewMembers = "too_few_members" [team, members, boards],
    MembersForTeams = "members_for_teams" [],
    NoEntrant = "no_entrant" [entrant],
    AlreadyWithdrawn = "already_withdrawn" [name],
    /// The next round asked for while `pairings` are still to be played.
    RoundNotOver = "round_not_over" [pairings],
    EventFinished = "event_finished" [],
    TooFewEntrants = "too_few_entrants" [stage, least, has],
    NotAResult = "not_a_result" [text],
    ResultsCount = "results_count" [max],
    NoSuchPairing = "no_such_pairing" [pairing],
    PairingIsBye = "pairing_is_bye" [pairing],
    /// A result for a decided pairing, not marked as a correction.
    AlreadyDecided = "already_decided" [pairing],
    NoRoomForResults = "no_room_for_results" [pairing, room, given],
    DecidedAfter = "decided_after" [pairing, games, extra],
    StageOver = "stage_over" [pairing],
    PlayoffsAfter = "playoffs_after" [pairing],
    LaterRoundPaired = "later_round_paired" [pairing],
    ReasonNeeded = "reason_needed" [],
    EntrantNumber = "entrant_number" [],
    NoRoundInPlay = "no_round_in_play" [],
    RoundNotPaused = "round_not_paused" [round],
    // A team's lineup.
    LineupNotTeams = "lineup_not_teams" [],
    TeamNotInPairing = "team_not_in_pairing" [team, pairing],
    /// The pairing has results.
    LineupFixed = "lineup_fixed" [pairing],
    /// A board of the pairing has begun (`board` from 1).
    LineupStarted = "lineup_started" [pairing, board],
    LineupSize = "lineup_size" [boards, given],
    NotOnRoster = "not_on_roster" [name, team],
    NamedTwice = "named_twice" [name],
    RosterOrder = "roster_order" [name],
    TeamWithdrawn = "team_withdrawn" [team],
    /// A captain's link setting another team's lineup.
    LineupNotYours = "lineup_not_yours" [],
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    fn placeholders(s: &str) -> BTreeSet<&str> {
        s.split('{')
            .skip(1)
            .filter_map(|p| p.split_once('}'))
            .map(|(name, _)| name)
            .collect()
    }

    /// Every code has its sentence in both languages, taking exactly the code's arguments;
    /// the table holds no sentence for a code that is none.
    #[test]
    fn every_problem_is_said_in_both_languages() {
        let table: HashMap<String, HashMap<String, String>> =
            serde_json::from_str(include_str!("../web/errors.json")).expect("web/errors.json: code → {en, zh}");
        let codes: BTreeSet<&str> = Problem::ALL.iter().map(|p| p.code()).collect();
        assert_eq!(codes.len(), Problem::ALL.len(), "two problems share a code");
        for p in Problem::ALL {
            let said = table
                .get(p.code())
                .unwrap_or_else(|| panic!("errors.json has no {}", p.code()));
            let params: BTreeSet<&str> = p.params().iter().copied().collect();
            for lang in ["en", "zh"] {
                let s = said.get(lang).map(String::as_str).unwrap_or_default();
                assert!(!s.trim().is_empty(), "{}: no {lang} sentence", p.code());
                assert_eq!(placeholders(s), params, "{} ({lang}): placeholders", p.code());
            }
            assert_eq!(said.len(), 2, "{}: en and zh only", p.code());
        }
        for code in table.keys() {
            assert!(
                codes.contains(code.as_str()),
                "errors.json: {code} is no problem's code"
            );
        }
    }
}
