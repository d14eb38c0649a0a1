use std::marker::PhantomData;
use std::time::{Duration, Instant};

use game::{Game, Kind};

use crate::command::Commander;
use crate::parse::{self, Seen};
use crate::process::{Process, Wait};
use crate::{Coordinates, EngineConfig, EngineError, EngineOption, Go, MoveText, Protocol, Reply, MAX_PV};

/// A running engine playing `G` (one game kind per engine: the coordinates and the rules used
/// to follow the game depend on it).
///
/// Every call returns within its timeout or deadline whatever the engine does; once an engine
/// has crashed every further call says so. Dropping the engine ends its process.
pub struct Engine<G: Game> {
    process: Process,
    name: String,
    id_name: Option<String>,
    id_author: Option<String>,
    options: Vec<EngineOption>,
    protocol: Protocol,
    ready_timeout: Duration,
    commander: Commander<G>,
    /// The engine was told to `stop` after a timeout and its `bestmove` is still to come: it
    /// must be read before the next search, or it would be taken for that search's answer.
    searching: bool,
    /// How long recent searches that no clock times took: a quiet period for the next.
    pace: Pace,
    /// The thread that waits for this engine runs only once the engine waits (see
    /// [`Engine::set_yielding`]).
    yielding: bool,
    _game: PhantomData<fn() -> G>,
}

/// The thinking times of an engine's recent untimed searches (`go nodes`, `go depth`). Such a
/// search's answer may be read a little late without harm (no clock is charged), so the
/// waiting thread sleeps through the first part of the search — where an engine prints most
/// of its `info` lines — instead of waking up for each: it sleeps until 9/10 of the shortest
/// of the last [`Pace::N`] searches. An answer that comes sooner than that is read late by at
/// most that much; one search in `N` or fewer, as the times go.
#[derive(Debug, Default)]
struct Pace {
    recent: [Duration; Pace::N],
    count: usize,
}

impl Pace {
    const N: usize = 16;

    fn add(&mut self, d: Duration) {
        self.recent[self.count % Pace::N] = d;
        self.count += 1;
    }

    /// The quiet period, once enough searches have been timed.
    fn quiet(&self) -> Option<Duration> {
        (self.count >= Pace::N).then(|| self.recent.iter().min().copied().unwrap_or_default() * 9 / 10)
    }
}

impl<G: Game> std::fmt::Debug for Engine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("id_name", &self.id_name)
            .field("protocol", &self.protocol)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Engine<G> {
    /// Starts the engine, shakes hands, sets the options and waits until it is ready.
    pub fn start(config: &EngineConfig) -> Result<Engine<G>, EngineError> {
        let process = Process::spawn(config)?;
        let mut engine = Engine {
            process,
            name: config.name.clone(),
            id_name: None,
            id_author: None,
            options: Vec::new(),
            protocol: config.protocol,
            ready_timeout: config.ready_timeout,
            commander: Commander::new(config.protocol, config.coordinates),
            searching: false,
            pace: Pace::default(),
            yielding: false,
            _game: PhantomData,
        };
        let (hello, ok) = match config.protocol {
            Protocol::Uci => ("uci\n", "uciok"),
            Protocol::Ucci => ("ucci\n", "ucciok"),
        };
        engine.process.send(hello)?;
        let deadline = Instant::now() + config.handshake_timeout;
        loop {
            let line = engine.line(deadline, ok, config.handshake_timeout)?;
            let (word, rest) = parse::head(&line);
            match word {
                w if w == ok => break,
                "id" => {
                    let (field, value) = parse::head(rest);
                    match field {
                        "name" => engine.id_name = Some(value.to_string()),
                        "author" => engine.id_author = Some(value.to_string()),
                        _ => {}
                    }
                }
                "option" => engine.options.extend(parse::option(rest)),
                _ => {}
            }
        }

        let ucci = config.protocol == Protocol::Ucci;
        let variants = engine.variants();
        // An engine that names the variants it plays must name this game.
        let game = match G::KIND {
            Kind::Xiangqi => "xiangqi",
            Kind::Chess => "chess",
        };
        if !ucci && !variants.is_empty() && !variants.iter().any(|v| v.eq_ignore_ascii_case(game)) {
            return Err(EngineError::Request(format!(
                "the engine does not play {game}: its UCI_Variant option offers {}",
                variants.join(", ")
            )));
        }
        let coordinates = match config.coordinates {
            Coordinates::Detect => {
                let fairy = engine
                    .id_name
                    .as_deref()
                    .is_some_and(|n| n.to_ascii_lowercase().contains("fairy-stockfish"));
                let xiangqi = variants.iter().any(|v| v.eq_ignore_ascii_case("xiangqi"));
                if G::KIND == Kind::Xiangqi && !ucci && (xiangqi || fairy) {
                    Coordinates::Fsf
                } else {
                    Coordinates::Iccs
                }
            }
            c => c,
        };
        engine.commander = Commander::new(config.protocol, coordinates);

        let mut setup = String::new();
        // UCI: `setoption name Hash value 64`; UCCI: `setoption hashsize 64`.
        let set = |setup: &mut String, name: &str, value: &str| {
            setup.push_str(if ucci { "setoption " } else { "setoption name " });
            setup.push_str(name);
            if !value.is_empty() {
                setup.push_str(if ucci { " " } else { " value " });
                setup.push_str(value);
            }
            setup.push('\n');
        };
        let told = |name: &str| config.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        if G::KIND == Kind::Xiangqi && coordinates == Coordinates::Fsf && !ucci && !told("UCI_Variant") {
            set(&mut setup, "UCI_Variant", "xiangqi");
        }
        // UCCI engines with this option (ElephantEye) count `go time` in seconds unless it is
        // set; those without it (Fairy-Stockfish) count milliseconds, like the runner's clocks.
        if ucci && engine.option("usemillisec").is_some() && !told("usemillisec") {
            set(&mut setup, "usemillisec", "true");
        }
        for (name, value) in &config.options {
            set(&mut setup, name, value);
        }
        for (name, value) in &config.if_declared {
            if let Some(declared) = engine.option(name) {
                let bound = |b: &Option<String>| b.as_deref().and_then(|b| b.trim().parse::<i64>().ok());
                let mut value = *value;
                if let Some(min) = bound(&declared.min) {
                    value = value.max(min);
                }
                if let Some(max) = bound(&declared.max) {
                    value = value.min(max);
                }
                set(&mut setup, &declared.name, &value.to_string());
            }
        }
        if !setup.is_empty() {
            engine.process.send(&setup)?;
        }
        engine.sync()?;
        Ok(engine)
    }

    /// The name the configuration gave.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the engine that it shares its CPU with a thread that yields to it (a match's game
    /// slot pinned with its engines, crate `matches`): that thread runs only once the engine
    /// waits, so an answer is read at once after a request instead of after a poll,
    /// and an untimed search is not slept through at first (see `Pace`), which would save no
    /// wake-up and cost a timer. Off by default.
    pub fn set_yielding(&mut self, yes: bool) {
        self.yielding = yes;
    }

    /// The engine's own name (`id name`), if it gave one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    pub fn id_author(&self) -> Option<&str> {
        self.id_author.as_deref()
    }

    /// How this engine writes Xiangqi squares (never [`Coordinates::Detect`]: what it decided).
    pub fn coordinates(&self) -> Coordinates {
        self.commander.coordinates()
    }

    /// The variants the engine's `UCI_Variant` option offers (empty without one).
    pub fn variants(&self) -> Vec<String> {
        self.option("UCI_Variant").map(|o| o.vars.clone()).unwrap_or_default()
    }

    /// The options the engine declared.
    pub fn options(&self) -> &[EngineOption] {
        &self.options
    }

    /// A declared option by name (case-insensitive, as UCI compares them).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Tells the engine a new game starts (UCI `ucinewgame`; UCCI `setoption newgame` where
    /// the engine has it) and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.settle()?;
        self.commander.reset();
        match self.protocol {
            Protocol::Uci => self.process.send("ucinewgame\n")?,
            Protocol::Ucci => {
                if self.option("newgame").is_some() {
                    self.process.send("setoption newgame\n")?;
                }
            }
        }
        self.sync()
    }

    /// `isready` until `readyok`, within the ready timeout.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.settle()?;
        self.process.send("isready\n")?;
        let deadline = Instant::now() + self.ready_timeout;
        while self.line(deadline, "readyok", self.ready_timeout)?.trim() != "readyok" {}
        Ok(())
    }

    /// Asks for a move. `deadline` bounds the whole wait: without a `bestmove` by then the
    /// engine is told to `stop` and the answer is [`EngineError::Timeout`] (the late move is
    /// read and dropped before the next request).
    pub fn go<S: AsRef<str>>(&mut self, req: &Go<'_, S>, deadline: Instant) -> Result<Reply, EngineError> {
        self.settle()?;
        self.commander.prepare(req)?;
        self.process.keep_pv(req.pv);
        // Timed from before the write: once the bytes are in the pipe the engine may run (and
        // on a busy machine take the CPU) before the write returns.
        let sent = Instant::now();
        self.process.send_parts(self.commander.request())?;
        if self.yielding {
            self.process.read_before_waiting();
        }
        let l = &req.limits;
        let untimed = l.wtime.is_none() && l.btime.is_none() && l.movetime.is_none();
        let untimed = untimed && (l.nodes.is_some() || l.depth.is_some());
        let quiet_periods = untimed && !self.yielding;
        let mut quiet = quiet_periods.then(|| self.pace.quiet()).flatten().map(|q| sent + q);
        let mut reply = Reply {
            best: None,
            ponder: None,
            score: None,
            depth: None,
            nodes: None,
            pv: Vec::new(),
            draw: false,
            resign: false,
            elapsed: Duration::ZERO,
        };
        let mut seen = Seen::default();
        loop {
            let line = match self.process.next_line(deadline, quiet.take()) {
                Ok(line) => line,
                Err(Wait::Timeout) => {
                    self.searching = true;
                    self.process.send("stop\n")?;
                    return Err(EngineError::Timeout {
                        waiting_for: "bestmove",
                        after: sent.elapsed(),
                    });
                }
                Err(Wait::Closed) => return Err(self.process.crashed()),
            };
            // The `info` lines come folded with the next line that is passed on.
            seen.then(&line.seen);
            let (word, rest) = parse::head(&line.text);
            match word {
                "bestmove" => {
                    (reply.score, reply.depth, reply.nodes) = (seen.score, seen.depth, seen.nodes);
                    reply.elapsed = line.at.saturating_duration_since(sent);
                    if untimed {
                        self.pace.add(reply.elapsed);
                    }
                    let b = parse::bestmove(rest);
                    reply.best = b.best.map(|m| self.commander.engine_move(m)).transpose()?;
                    // A bad ponder move costs nothing: the runner does not ponder.
                    reply.ponder = b.ponder.and_then(|m| self.commander.engine_move(m).ok());
                    reply.draw = b.draw;
                    reply.resign = b.resign;
                    if req.pv {
                        reply.pv = self.pv();
                    }
                    return Ok(reply);
                }
                "nobestmove" => {
                    (reply.score, reply.depth, reply.nodes) = (seen.score, seen.depth, seen.nodes);
                    reply.elapsed = line.at.saturating_duration_since(sent);
                    if req.pv {
                        reply.pv = self.pv();
                    }
                    return Ok(reply);
                }
                _ => {}
            }
        }
    }

    /// The PV the last search's `info` lines ended with, in the project's coordinates, up to
    /// the first move that cannot be read and at most [`MAX_PV`] moves.
    fn pv(&self) -> Vec<MoveText> {
        let words = self
            .process
            .pv()
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        words
            .map_while(|w| {
                std::str::from_utf8(w)
                    .ok()
                    .and_then(|m| self.commander.engine_move(m).ok())
            })
            .take(MAX_PV)
            .collect()
    }

    /// Reads the `bestmove` owed after a `stop`, then synchronises: an engine that answers a
    /// `stop` it received when already idle with another `bestmove` must not have that taken
    /// for the next search's answer either.
    fn settle(&mut self) -> Result<(), EngineError> {
        if !self.searching {
            return Ok(());
        }
        let deadline = Instant::now() + self.ready_timeout;
        loop {
            let line = self.line(deadline, "bestmove (after stop)", self.ready_timeout)?;
            if matches!(parse::head(&line).0, "bestmove" | "nobestmove") {
                self.searching = false;
                return self.sync();
            }
        }
    }

    /// The next line by `deadline`, as an error when there is none.
    fn line(&mut self, deadline: Instant, waiting_for: &'static str, after: Duration) -> Result<String, EngineError> {
        match self.process.next_line(deadline, None) {
            Ok(line) => Ok(line.text.into_owned()),
            Err(Wait::Timeout) => Err(EngineError::Timeout { waiting_for, after }),
            Err(Wait::Closed) => Err(self.process.crashed()),
        }
    }
}
