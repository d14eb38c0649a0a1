//! `arbiter tournament …`: the commands that run an event in the database.

use std::path::PathBuf;

use clap::Subcommand;

// Parsed once per run: the size of the largest variant (create's options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub(crate) enum TournamentCommand {
    /// Standings of an event in the database, or of a TRF file (FIDE Tournament Report File):
    /// points, then the tie-breaks in order (C.07 2026 codes: DE, BH, BH-C1, BH-C2, BH-M1, FB,
    /// SB, SB-C1, PS, PS-C1, WIN, WON, BPG, BWG, REP, ARO, TPR, PTP; the CXA's orders CXA-OPP
    /// 对手分, CXA-PROG 累进分, CXA-PROG-C1, CXA-WIN 胜局, CXA-BLACK 后走局数, CXA-SMALL 小分, or
    /// `cxa` for all six in that order).
    Standings {
        /// An event's name, or a TRF file.
        event: String,
        /// Default: the event's, else the format's (DE,WIN,SB for round robins; BH-C1,BH,SB
        /// for a TRF).
        #[arg(long)]
        tiebreaks: Option<String>,
        #[arg(long)]
        json: bool,
        /// A standalone HTML page (standings and every round) to post.
        #[arg(long, conflicts_with = "json")]
        html: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Create an event in the database: --db FILE or postgres:// URL, else $DATABASE_URL
    /// (PostgreSQL), else $ARBITER_DB, else the SQLite file arbiter.db.
    Create {
        name: String,
        /// swiss, cxa-swiss (积分编排制), round-robin, double-round-robin, groups, double-groups,
        /// knockout or double-knockout.
        #[arg(long, default_value = "swiss")]
        format: String,
        /// Rounds of a Swiss.
        #[arg(long)]
        rounds: Option<usize>,
        /// A Swiss's pairing system: dutch (FIDE) or cxa (积分编排制; the same as --format
        /// cxa-swiss).
        #[arg(long, default_value = "dutch")]
        system: String,
        /// Colour drawn for the first board of a Swiss's round 1: white or black.
        #[arg(long, default_value = "white")]
        first: String,
        /// Points for win/draw/loss, e.g. 2/1/0 for Xiangqi; default 1/0.5/0, and 2/1/0 for
        /// cxa-swiss. A Swiss's byes score as wins and draws.
        #[arg(long)]
        points: Option<String>,
        /// Tie-breaks for the standings, e.g. BH-C1,BH,SB or DE,WIN,SB or cxa; a team event's
        /// from MP, GP, DE, BH:MP, BH:GP, ESB:MG …, BC, TBR (台次分), BBE (default GP,DE,TBR:
        /// the CXA's 局分, 直胜, 台次分).
        #[arg(long)]
        tiebreaks: Option<String>,
        /// Games a pairing plays (a match of N: 3 for 三局两胜); knockouts default to 3.
        #[arg(long)]
        games: Option<u32>,
        /// Play-off games for a tied match that needs a winner, before lots (0: lots at once);
        /// for a tied team pairing, play-off matches on its boards (seed 000 §6).
        #[arg(long, default_value_t = 1)]
        playoff: u32,
        /// The play-off games' own (faster) time control, as the arbiter announces it (e.g.
        /// 5+3); shown with every play-off game.
        #[arg(long)]
        playoff_time: Option<String>,
        /// A knockout's draw: seeded (a bracket fixed at the start, byes to the top seeds) or
        /// cards (seed 000 §9: the survivors draw cards every round, a K for the bye).
        #[arg(long, default_value = "seeded")]
        draw: String,
        /// A knockout plays a match for third place.
        #[arg(long)]
        third_place: bool,
        /// Groups of a grouped round robin.
        #[arg(long, default_value_t = 0)]
        groups: u32,
        /// Groups keep players (teams) of one club/region apart where the snake allows.
        #[arg(long)]
        separate: bool,
        /// How many go on to the final stage (per group for groups).
        #[arg(long, default_value_t = 0)]
        advance: u32,
        /// The final stage's format (any but a Swiss), for those who advance.
        #[arg(long = "final")]
        final_format: Option<String>,
        /// The final stage's knockout draw: seeded or cards.
        #[arg(long, default_value = "seeded")]
        final_draw: String,
        /// A team event: each team pairing is played on this many boards.
        #[arg(long, default_value_t = 0)]
        boards: u32,
        /// Match points of a team pairing won/drawn/lost.
        #[arg(long, default_value = "2/1/0")]
        match_points: String,
        /// Teams rank by game points (局分) first, match points after.
        #[arg(long)]
        game_points_first: bool,
        /// A team event's boards scored by colour, W/RD/BD/L: a win, a draw with red (white),
        /// a draw with black, a loss, e.g. 3/1/2/0 where a draw with black counts above one
        /// with red; the board points make the team pairing's result and its game points.
        #[arg(long)]
        board_points: Option<String>,
        /// Seeding: rating (then registration order) or registration.
        #[arg(long, default_value = "rating")]
        seeding: String,
        /// The seed every lot and card draw of the event is drawn from (logged, so anyone can
        /// replay them).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Change a Swiss's point system (before round 1 is paired) or an event's tie-breaks.
    Set {
        event: String,
        /// Points for win/draw/loss, e.g. 2/1/0.
        #[arg(long)]
        points: Option<String>,
        /// Tie-breaks, e.g. BH-C1,BH,SB; "" removes them.
        #[arg(long)]
        tiebreaks: Option<String>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Register a player (or a team, with --members) with the next number. In a Swiss, start
    /// numbers are by rating once round 1 is paired, and stay: a late entrant gets the next one.
    Register {
        event: String,
        name: String,
        #[arg(long, default_value_t = 0)]
        rating: u32,
        /// Federation, club or region (TRF columns 54-56; what --separate keeps apart).
        #[arg(long, alias = "club", default_value = "")]
        federation: String,
        /// A team's players in board order, comma-separated; those past the boards are reserves.
        #[arg(long)]
        members: Option<String>,
        /// A late entrant's rounds already paired in a Swiss: Z (absent) or H (half-point byes,
        /// where the organiser grants them).
        #[arg(long, default_value = "Z")]
        missed: char,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// A bye a Swiss player asked for: H (half point), Z (zero) or F (full point), in the next
    /// round or a later one.
    Bye {
        event: String,
        /// The player's (team's) number or name.
        player: String,
        #[arg(long, default_value = "H")]
        kind: char,
        /// The round (default: the next one).
        #[arg(long)]
        round: Option<usize>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Withdraw a player (team): not paired from then on. In a Swiss, zero-point byes from
    /// --from on (a round already paired needs its result first); in the other formats every
    /// open pairing of theirs is forfeited to the opponent, and so are later round-robin games.
    Withdraw {
        event: String,
        /// The player's (team's) number or name.
        player: String,
        /// First round without the player (a Swiss; default: the next one).
        #[arg(long)]
        from: Option<usize>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Take a withdrawn Swiss player back from a round not paired yet.
    Reenter {
        event: String,
        /// The player's (team's) number or name.
        player: String,
        /// First round with the player again (default: the next one).
        #[arg(long)]
        from: Option<usize>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Pair what comes next — the next round, the next round of a bracket, the card draw, a
    /// play-off, the next stage — and print it (every result of the last round must be in).
    Pair {
        event: String,
        /// Seed of a 积分编排制's lots (other formats draw from the event's --seed).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Enter a result. A Swiss: ROUND WHITE BLACK 1-0|0-1|1/2|+/-|-/+|-/-. Any other format:
    /// PAIRING RESULT… — the pairing's id as `pair` prints it, then its games in order as each
    /// scoresheet reads, red (white) first (a match's next games, play-offs too), or a team
    /// pairing's boards from board 1, the first-named team's side first.
    Result {
        event: String,
        /// Forfeits (`-/+`, `-/-`) start with a hyphen and still read as a result.
        #[arg(allow_hyphen_values = true, num_args = 1.., required = true)]
        args: Vec<String>,
        /// Replace what was entered for the pairing (a correction, while no later round stands
        /// on it).
        #[arg(long)]
        replace: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// A team's lineup in a pairing, before its results: the players board by board, from its
    /// roster (reserves may come in; the roster's order is kept). Without one the first
    /// members play.
    Lineup {
        event: String,
        pairing: String,
        /// The team's number or name.
        team: String,
        /// The players, board 1 first, comma-separated.
        players: String,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Every round so far with its pairings and results (and each card draw).
    Pairings {
        event: String,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// The crosstable in standings order, as text or an HTML page (a round robin's per group).
    Crosstable {
        event: String,
        #[arg(long)]
        html: bool,
        /// Each group's players with their rounds (opponent, colour, result), as JSON.
        #[arg(long, conflicts_with = "html")]
        json: bool,
        /// Default: the event's tie-breaks, else BH-C1,BH,SB.
        #[arg(long)]
        tiebreaks: Option<String>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// A knockout's bracket: every round with its matches and results, then the placings.
    Bracket {
        event: String,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Write the event out: a Swiss as a TRF-2026 file (ranks by points and the event's
    /// tie-breaks), any other format as its JSON document (which `import` reads back).
    Export {
        event: String,
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Make an event from a TRF (TRF16 with JaVaFo's XXR/XXC, or TRF-2026) or from the JSON
    /// document `export` wrote.
    Import {
        event: String,
        file: PathBuf,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// The events in the database, with their versions.
    List {
        #[arg(long)]
        json: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// Every change of an event: version, time, what.
    Log {
        event: String,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// A random Swiss tournament, every round paired by the Dutch system (FIDE's "random
    /// tournament generator"): random ratings, results from the rating difference, forfeits,
    /// requested half-point byes and withdrawals at the given rates (per mille, per player and
    /// round). The same seed gives the same file.
    Generate {
        #[arg(long, default_value_t = 40)]
        players: usize,
        #[arg(long, default_value_t = 9)]
        rounds: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Percent of games between equal players that are drawn.
        #[arg(long, default_value_t = 30)]
        draws: u32,
        #[arg(long, default_value_t = 10)]
        forfeits: u32,
        #[arg(long, default_value_t = 20)]
        half_byes: u32,
        #[arg(long, default_value_t = 5)]
        withdrawals: u32,
        /// Write the TRF here instead of standard output.
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
    },
}
