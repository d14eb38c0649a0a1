//! The command line: every command of `arbiter` and its arguments, as clap reads them
//! (`main.rs` dispatches them).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

mod tournament;
pub(crate) use tournament::TournamentCommand;

#[derive(Parser)]
#[command(name = "arbiter", version, about = "A referee for Xiangqi and chess")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

// Parsed once per run: the tournament variant's size (create's options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub(crate) enum Command {
    /// Count the leaf nodes of the legal move tree (bulk-counted at the last ply).
    Perft {
        /// Position in Xiangqi FEN; `startpos` (the default) for the initial position.
        #[arg(long, default_value = "startpos")]
        fen: String,
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Also print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves of a position, one per line.
    Moves {
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// iccs (h2e2), fsf (h3e3, ranks 1-10), wxf (C2.5) or chinese (炮二平五).
        #[arg(long, default_value = "iccs")]
        notation: String,
    },
    /// Convert game records between formats (PGN, XQF, CBR/CBL, DhtmlXQ, FEN + moves).
    ///
    /// The input format is detected from the bytes and the name; the output format from the
    /// output name (`.pgn`, or `.txt` / `.moves` for `position fen … moves …` lines) unless
    /// `--to` says. Problems (an illegal move …) are reported with file, game and ply, and the
    /// rest is still converted.
    Convert {
        input: PathBuf,
        output: PathBuf,
        /// Move notation for Xiangqi PGN: chinese, wxf or iccs.
        #[arg(long, default_value = "chinese")]
        notation: String,
        /// Xiangqi PGN for which readers: standard, or cchess (the Python library: the main
        /// line's moves alone, tandem advisors and elephants marked 前/后).
        #[arg(long, default_value = "standard")]
        pgn_style: String,
        /// Output format: pgn or moves.
        #[arg(long)]
        to: Option<String>,
        /// Text encoding of the output: utf-8 (default), gbk or big5.
        #[arg(long)]
        encoding: Option<String>,
        /// Judge each game and write the verdict into its Result and Termination tags (games
        /// the rules did not end keep their own Result).
        #[arg(long)]
        judge: bool,
        /// Ruleset for --judge (as for `arbiter judge`).
        #[arg(long, requires = "judge")]
        ruleset: Option<String>,
    },
    /// Judge games: whether each has ended, who won, why, at which ply and under which rule.
    ///
    /// Every game of each file (any format `convert` reads), or one game from `--fen` and
    /// `--moves`. Result tags that contradict the board are flagged.
    Judge {
        /// Record files.
        files: Vec<PathBuf>,
        /// Ruleset: for Xiangqi cxa (default), axf or simplified; for chess fide (default) or
        /// automatic-draws. An event's limits may follow: `cxa,limit=40,temporary=20@80`.
        #[arg(long)]
        ruleset: Option<String>,
        /// Xiangqi: the natural move limit reduced to this many rounds (自然限着, reducible by
        /// the event's level).
        #[arg(long, value_name = "ROUNDS")]
        move_limit: Option<u32>,
        /// Xiangqi: a referee's temporary move limit (临时限着), ROUNDS from the start or
        /// ROUNDS@PLY from that ply; when it runs out without a mate the game is drawn.
        #[arg(long, value_name = "ROUNDS[@PLY]")]
        temporary_limit: Option<String>,
        /// One JSON object per game.
        #[arg(long)]
        json: bool,
        /// The language of the explanations: en or zh (Chinese, in the Chinese rules' terms:
        /// 将死, 困毙, 长将, 长捉, 自然限着 …). JSON carries both, `explanation` and
        /// `explanation_zh`, whichever is chosen.
        #[arg(long, value_name = "en|zh", default_value = "en", value_parser = parse_lang)]
        lang: ::judge::Lang,
        /// Rule a repetition at the occurrence that triggers it (as engines and automatic
        /// servers do) instead of telling the offender to vary first (the rulebooks).
        #[arg(long)]
        at_trigger: bool,
        /// Print the rulesets and their parameters, and exit.
        #[arg(long)]
        rulesets: bool,
        /// One game from the command line: xiangqi or chess.
        #[arg(long)]
        game: Option<String>,
        /// Its start (FEN; the standard start if left out).
        #[arg(long, requires = "game")]
        fen: Option<String>,
        /// Its moves, space-separated, in coordinates or the game's notation.
        #[arg(long, requires = "game", default_value = "")]
        moves: String,
    },
    /// Two people at one keyboard play a refereed game in the terminal (moves, `draw`,
    /// `accept`, `decline`, `claim`, `resign`, `board`, `help`, `quit`; one command a line).
    Play {
        /// xiangqi or chess.
        #[arg(long, default_value = "xiangqi")]
        game: String,
        #[arg(long)]
        fen: Option<String>,
        /// Time control: `5+3` (minutes + increment seconds), `60s` (a limit per move), `none`.
        #[arg(long, default_value = "10+5")]
        time: String,
        /// Referee rules: online (default), cxa, cxa-provincial, casual, fide.
        #[arg(long)]
        rules: Option<String>,
        /// Print the referee rulesets with every threshold, as JSON lines, and exit.
        #[arg(long)]
        list_rules: bool,
        /// Xiangqi: the natural move limit reduced to this many rounds (as for `judge`).
        #[arg(long, value_name = "ROUNDS")]
        move_limit: Option<u32>,
        /// Xiangqi: a referee's temporary move limit, ROUNDS or ROUNDS@PLY (as for `judge`).
        #[arg(long, value_name = "ROUNDS[@PLY]")]
        temporary_limit: Option<String>,
    },
    /// The game server: live refereed games over an HTTP API shaped like lichess's Board API,
    /// kept in the database the events share.
    Serve {
        /// Address to listen on (port 0: any free port; the address is printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The database: an SQLite file or a postgres:// URL; else $DATABASE_URL, else
        /// $ARBITER_DB, else the SQLite file arbiter.db.
        #[arg(long)]
        db: Option<String>,
        /// Commands one seat may send per second, sustained (a burst of twice that is allowed).
        #[arg(long, default_value_t = 50.0)]
        actions_per_second: f64,
        /// Games one client address may create per minute.
        #[arg(long, default_value_t = 60.0)]
        creates_per_minute: f64,
        /// Seconds after which a game that a side has not started moving in is aborted (0: never).
        #[arg(long, default_value_t = 3600)]
        abandon_after: u64,
        /// Games the computer may play at once (one engine process each); default 8 a core.
        #[arg(long)]
        computer_games: Option<usize>,
        /// Analyses run at once (one engine process each, `POST /api/analyse`); default half
        /// the cores.
        #[arg(long)]
        analyses: Option<usize>,
        /// Analyses that may wait for a place; more are refused (503).
        #[arg(long, default_value_t = server::limits::DEFAULT_ANALYSIS_QUEUE)]
        analysis_queue: usize,
        /// How log lines are written to standard error (their level: RUST_LOG, default info).
        #[arg(long, value_enum, default_value = "text")]
        log_format: crate::serve::LogFormat,
        /// Run as one node of a cluster: the NATS server (`nats://HOST:PORT`) the nodes talk
        /// through. Needs --node and a postgres:// --db shared by every node.
        #[arg(long, value_name = "NATS_URL", requires = "node")]
        cluster: Option<String>,
        /// This node's name in the cluster, unique among its nodes.
        #[arg(long, requires = "cluster")]
        node: Option<String>,
        /// What the cluster's NATS subjects start with, to keep clusters sharing one NATS
        /// server apart.
        #[arg(long, default_value = "arbiter", requires = "cluster")]
        cluster_prefix: String,
        /// How long a node's lease lasts unrenewed (milliseconds): a dead node's games are
        /// taken over about this long after it died. Renewed every third of it.
        #[arg(long, default_value_t = 3000, requires = "cluster",
              value_parser = clap::value_parser!(u64).range(300..=600_000))]
        lease_ms: u64,
        /// The URL clients reach this node at, named in the answers about the games it runs
        /// so clients can come straight to it (default: http:// and the address bound; give
        /// it when that is not what clients reach, e.g. behind a proxy or bound to 0.0.0.0).
        #[arg(long, value_name = "URL", requires = "cluster")]
        advertise: Option<String>,
    },
    /// Load on a game server: many games at once over loopback HTTP or WebSockets; prints moves
    /// per second, the latency of the moves (p50, p99) and the server's CPU time a move.
    Loadtest {
        /// A running server (`http://HOST:PORT`), or a cluster's nodes comma-separated (each
        /// game's creation taken by the next in turn, its sockets and requests by the node
        /// the creation's answer names as running it); without it one server is started here
        /// on --db.
        #[arg(long)]
        url: Option<String>,
        /// The database of the server started here (an SQLite file or a postgres:// URL; as
        /// for serve, else $DATABASE_URL, else $ARBITER_DB, else arbiter.db).
        #[arg(long)]
        db: Option<String>,
        /// Games played at once (half Xiangqi, half chess): 256 unless given (with
        /// --spectators, the games watched: 16).
        #[arg(long)]
        games: Option<usize>,
        /// How long to measure, in seconds.
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// Also read every game's NDJSON stream, as a watching board would.
        #[arg(long)]
        watch: bool,
        /// Instead of single games: a Swiss event of this many players (2 to 20000),
        /// registered through the API; times starting round 1, plays all its games at once
        /// with the players' own tokens, and times the results reaching the event.
        #[arg(long, conflicts_with_all = ["games", "seconds", "watch"],
              value_parser = clap::value_parser!(u32).range(2..=crate::loadtest::MAX_EVENT_PLAYERS as i64))]
        event_players: Option<u32>,
        /// With --event-players: the games together send at most this many moves a second
        /// (else as fast as the server answers).
        #[arg(long, requires = "event_players")]
        event_rate: Option<f64>,
        /// How the games are played: the Board API's HTTP requests, or one game socket
        /// (WebSocket) per seat. The server's CPU time per move is reported when it runs here.
        #[arg(long, value_enum, default_value_t = crate::loadtest::Transport::Http, conflicts_with = "event_players")]
        transport: crate::loadtest::Transport,
        /// Instead of games played flat out: this many watch-only game sockets held open at
        /// once over --games idle games (its default here: 16), the server's resident memory
        /// read before and with them open, then one move made in each game, which every
        /// socket must see. Against --url the memory a socket costs is the server's alone.
        #[arg(long, conflicts_with_all = ["event_players", "seconds", "watch", "transport"],
              value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        spectators: Option<u64>,
        /// With a cluster's nodes in --url: each socket and request goes to the next node in
        /// turn rather than to the game's own (to measure forwarding).
        #[arg(long)]
        any_node: bool,
        #[arg(long)]
        json: bool,
    },
    /// A rating list from game records (players from the Red/White and Black tags, results from
    /// Result): seed 001's levels and points, FIDE Elo, or Glicko-2.
    ///
    /// With --list the list is kept in the database: the files are one event, rated from each
    /// player's standing in the list (Elo and Glicko-2: the event is one rating period), and
    /// the new standings and what changed are saved together (see --show for the list).
    Rate {
        files: Vec<PathBuf>,
        /// Rate the games an event in the database played (over the board: forfeits and byes
        /// are not games) instead of record files; the list's history names the event.
        #[arg(long, conflicts_with = "files")]
        event: Option<String>,
        /// levels (the default), elo or glicko2; with --list, a new list's (an existing list
        /// keeps its own).
        #[arg(long)]
        system: Option<String>,
        #[arg(long)]
        json: bool,
        /// The rating list in the database to rate the games into (created when missing).
        #[arg(long)]
        list: Option<String>,
        /// Starting values for players not yet in the list, a CSV line each — levels:
        /// `name,level,points` (level 15级, 15, 无级别 or empty; the player's total points,
        /// 100 a level: 15级 is 1500-1599); elo: `name,rating[,games]`; glicko2:
        /// `name,rating,rd,volatility`. Others start new (无级别 0 points; 1500; 1500/350/0.06).
        #[arg(long, value_name = "FILE")]
        start: Option<PathBuf>,
        /// What the list's history calls this update (an event's name); default the files.
        #[arg(long, value_name = "LABEL")]
        source: Option<String>,
        /// Print the list (--list) and rate nothing.
        #[arg(long)]
        show: bool,
        /// Print what each update of the list (--list) changed, oldest first, and rate nothing.
        #[arg(long, conflicts_with = "show")]
        history: bool,
        /// The database: an SQLite file or a postgres:// URL; else $DATABASE_URL, else
        /// $ARBITER_DB, else arbiter.db.
        #[arg(long)]
        db: Option<String>,
    },
    /// Pair the next round of a Swiss event from its TRF (FIDE Dutch system, 2026 rules).
    ///
    /// Prints the pairing as bbpPairings and JaVaFo do with `-p`: the number of pairs, then one
    /// `white black` line a board in board order, the pairing-allocated bye as `id 0`. With
    /// `--check`, pairs every round of the file again and reports the rounds that differ
    /// (exit status 1 if any).
    Pair {
        file: PathBuf,
        /// Pairing system: `dutch` (FIDE C.04.3) or `cxa` (积分编排制, scores 2/1/0, Red/Black).
        #[arg(long, default_value = "dutch")]
        system: String,
        /// cxa: keep players of the same unit (the TRF federation column) apart where scores allow.
        #[arg(long)]
        avoid_same_team: bool,
        /// cxa: seed of the lots (round 1 halves, colours nothing else decides).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Re-pair every round and report differences.
        #[arg(long)]
        check: bool,
        /// Write the pairing to this file instead of standard output.
        #[arg(short = 'p', long = "output")]
        output: Option<PathBuf>,
    },
    /// Tournaments: Swiss events kept in a database (TRF-2026), standings of a TRF with FIDE
    /// tie-breaks, random Swiss events.
    Tournament {
        #[command(subcommand)]
        action: TournamentCommand,
    },
    /// An engine match judged by the real rules (UCI and UCCI engines, Xiangqi and chess), with
    /// fastchess's options: `--engine name=A cmd=… proto=uci --engine … --each tc=10+0.1
    /// --games 100 --concurrency 2 --openings file=F --pgnout F --sprt elo0=0 elo1=5`.
    /// `arbiter match --help` lists them all.
    #[command(disable_help_flag = true)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Perft speed on fixed positions; prints nodes, seconds and nodes per second.
    Bench {
        /// Depth for the start position (middle-game positions use the same depth).
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Runs per position; the best (fastest) is reported.
        #[arg(long, default_value_t = 3)]
        runs: u32,
        /// Extra FENs to time, besides the built-in ones.
        #[arg(long)]
        fen: Vec<String>,
        /// Copy the position at each node instead of make/unmake (to compare the two).
        #[arg(long)]
        copy: bool,
        /// List the last ply's moves instead of counting them (how Stockfish-family engines
        /// bulk-count), for a like-for-like comparison.
        #[arg(long, conflicts_with = "copy")]
        list: bool,
    },
}

/// `--lang`: `en` or `zh`.
fn parse_lang(text: &str) -> Result<::judge::Lang, String> {
    ::judge::Lang::parse(text).ok_or_else(|| format!("{text:?} is not a language: give en or zh"))
}
