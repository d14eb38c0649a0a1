//! The child process and its pipes. Output is read on threads so that the runner can wait for a
//! line with a deadline (std has no timed read on a pipe), and so that a full stderr pipe never
//! stops an engine that writes to it.
//!
//! The stdout reader sorts lines as it reads them ([`parse::class`]): `info` lines are folded
//! where they are read and the rest that no wait looks at are dropped, so the waiting thread is
//! woken once per answer (`bestmove`, `readyok`, …), not once per line the engine prints.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::parse::{self, Class, Seen};
use crate::{EngineConfig, EngineError};

/// How many of the engine's last stderr lines are kept for error reports.
const STDERR_LINES: usize = 20;
/// A line longer than this is cut: a runaway engine must not eat the runner's memory.
const MAX_LINE: usize = 1 << 20;
/// How long an engine that closed its output gets to exit before its status is given up on.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long an engine told to `quit` gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(250);

/// A line of engine output that some wait may act on, with the moment it was read, so that
/// thinking time is measured at the pipe rather than when the runner got round to the line.
pub(crate) struct Line {
    pub at: Instant,
    pub text: String,
    /// What the `info` lines read since the previous line passed on said.
    pub seen: Seen,
}

pub(crate) enum Wait {
    Timeout,
    Closed,
}

pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Set when stderr reaches its end, so a crash report can wait for the engine's last words.
    stderr_done: Arc<AtomicBool>,
    /// Set once the engine is known to be gone; nothing more is written to it.
    dead: bool,
}

impl Process {
    pub fn spawn(config: &EngineConfig) -> Result<Process, EngineError> {
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.working_dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn {
            command: config.command.display().to_string(),
            error: e.to_string(),
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (tx, lines) = mpsc::channel();
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_done = Arc::new(AtomicBool::new(false));
        let process = Process {
            child,
            stdin,
            lines,
            stderr: stderr.clone(),
            stderr_done: stderr_done.clone(),
            dead: false,
        };
        let spawned = (|| {
            if let Some(out) = stdout {
                thread::Builder::new()
                    .name(format!("engine-out-{}", config.name))
                    .spawn(move || read_stdout(out, tx))?;
            }
            if let Some(err) = stderr_pipe {
                thread::Builder::new()
                    .name(format!("engine-err-{}", config.name))
                    .spawn(move || {
                        let mut reader = BufReader::new(err);
                        let mut buf = Vec::new();
                        while read_line(&mut reader, &mut buf) {
                            let text = String::from_utf8_lossy(&buf).into_owned();
                            buf.clear();
                            let Ok(mut tail) = stderr.lock() else { break };
                            if tail.len() == STDERR_LINES {
                                tail.pop_front();
                            }
                            tail.push_back(text);
                        }
                        stderr_done.store(true, Ordering::Release);
                    })?;
            }
            Ok::<(), std::io::Error>(())
        })();
        match spawned {
            Ok(()) => Ok(process),
            // Dropping `process` kills the child.
            Err(e) => Err(EngineError::Spawn {
                command: config.command.display().to_string(),
                error: format!("cannot start a reader thread: {e}"),
            }),
        }
    }

    /// Writes `text` (whole commands, each ending in a newline) in one go.
    pub fn send(&mut self, text: &str) -> Result<(), EngineError> {
        let ok = match (&mut self.stdin, self.dead) {
            (Some(stdin), false) => stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()).is_ok(),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.crashed())
        }
    }

    /// The next line a wait may act on, or why there is none by `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<Line, Wait> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
        }
    }

    /// The error for an engine found gone, with its exit status if it exits soon.
    pub fn crashed(&mut self) -> EngineError {
        self.dead = true;
        self.stdin = None;
        let status = self.wait_exit(EXIT_GRACE);
        // The stderr thread may still be reading the engine's last words.
        let settle = Instant::now() + Duration::from_millis(100);
        while status.is_some() && !self.stderr_done.load(Ordering::Acquire) && Instant::now() < settle {
            thread::sleep(Duration::from_millis(1));
        }
        let stderr = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        EngineError::Crashed { status, stderr }
    }

    fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }
}

impl Drop for Process {
    /// `quit`, then closed input (which ends most engines too), then a kill: a game must end
    /// its engine even when the engine will not end itself.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            if !self.dead {
                let _ = stdin.write_all(b"quit\n").and_then(|_| stdin.flush());
            }
        }
        if self.wait_exit(QUIT_GRACE).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The stdout reader: passes on the lines a wait may act on, each with the `info` lines read
/// before it folded, until the output ends or nobody listens. Dropping `tx` at the end tells
/// the runner the output is closed.
fn read_stdout(out: ChildStdout, tx: Sender<Line>) {
    let mut reader = BufReader::with_capacity(1 << 16, out);
    let mut buf = Vec::with_capacity(256);
    let mut seen = Seen::default();
    while read_line(&mut reader, &mut buf) {
        let at = Instant::now();
        match parse::class(&buf) {
            Class::Info(info) => seen.add(&info),
            Class::Drop => {}
            Class::Keep(text) => {
                let line = Line {
                    at,
                    text: text.into_owned(),
                    seen: std::mem::take(&mut seen),
                };
                if tx.send(line).is_err() {
                    break;
                }
            }
        }
    }
}

/// Reads one line without its end into `buf` (cut at [`MAX_LINE`]); false at the end of the
/// output or on a read error (which also ends the engine's usefulness).
fn read_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> bool {
    buf.clear();
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return any,
        };
        if chunk.is_empty() {
            return any;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        reader.consume(take);
        if done {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            return true;
        }
    }
}
