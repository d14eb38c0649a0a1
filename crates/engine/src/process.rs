//! The child process and its pipes.
//!
//! The engine's output is read by the thread that waits for it, from a non-blocking pipe, with
//! `poll` for the deadline (std has no timed read on a pipe): no reader thread to hand each
//! answer over, so an answer costs the waiting thread one wake-up, not two threads' worth.
//! Lines are sorted as they are read ([`Lines`]); `info` lines are kept in the buffer unread
//! and read back from the answer only as far as the reply needs.
//! A search whose answer is not timed against a clock (nodes, depth) may be given a quiet
//! period: the thread sleeps through the engine's first lines instead of waking for each.
//! stderr is drained on a thread of its own, so that a full stderr pipe never stops an engine
//! that writes to it.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, IoSlice, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

use crate::lines::{Lines, Seen, MAX_LINE};
use crate::{EngineConfig, EngineError};

/// How many of the engine's last stderr lines are kept for error reports.
const STDERR_LINES: usize = 20;
/// How long an engine that closed its output gets to exit before its status is given up on.
const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long an engine told to `quit` gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(250);

/// A line of engine output that some wait may act on, with the moment it was read, so that
/// thinking time is measured at the pipe rather than when the runner got round to the line.
pub(crate) struct Line<'a> {
    pub at: Instant,
    /// Borrowed from the buffer the line was read into (a copy only if it was not UTF-8).
    pub text: Cow<'a, str>,
    /// What the `info` lines read since the previous line passed on said.
    pub seen: Seen,
}

/// The engine's stdout, read by the waiting thread.
struct Output {
    pipe: ChildStdout,
    lines: Lines,
    /// When the last bytes were read.
    read_at: Instant,
    /// The last read emptied the pipe: the next waits for more before reading (a read that
    /// finds nothing would cost a system call for nothing).
    drained: bool,
    closed: bool,
}

pub(crate) enum Wait {
    Timeout,
    Closed,
}

pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Option<Output>,
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
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_done = Arc::new(AtomicBool::new(false));
        let out = stdout.map(|pipe| Output {
            pipe,
            lines: Lines::default(),
            read_at: Instant::now(),
            drained: false,
            closed: false,
        });
        let process = Process {
            child,
            stdin,
            out,
            stderr: stderr.clone(),
            stderr_done: stderr_done.clone(),
            dead: false,
        };
        let spawned = (|| {
            if let Some(out) = &process.out {
                set_nonblocking(&out.pipe)?;
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
        self.send_parts([text.as_bytes()])
    }

    /// Writes `parts` one after the other in one go (one system call where the pipe takes
    /// them all, as it does a request's few hundred bytes).
    pub fn send_parts<const N: usize>(&mut self, parts: [&[u8]; N]) -> Result<(), EngineError> {
        let ok = match (&mut self.stdin, self.dead) {
            (Some(stdin), false) => write_all_parts(stdin, parts).is_ok(),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.crashed())
        }
    }

    /// The next read looks at the pipe before waiting for it: for a thread that runs only once
    /// its engine waits (a yielding slot, see the `cpu` module of crate `matches`), the answer
    /// to a command is already in the pipe when the thread reads, so a poll would only cost a system call.
    pub fn read_before_waiting(&mut self) {
        if let Some(out) = &mut self.out {
            out.drained = false;
        }
    }

    /// Keeps the PV before each line passed on, or not ([`Lines::keep_pv`]).
    pub fn keep_pv(&mut self, on: bool) {
        if let Some(out) = &mut self.out {
            out.lines.keep_pv(on);
        }
    }

    /// The PV the `info` lines before the last line passed on ended with ([`Lines::pv`]).
    pub fn pv(&self) -> &[u8] {
        self.out.as_ref().map_or(&[], |out| out.lines.pv())
    }

    /// The next line a wait may act on, or why there is none by `deadline`. Before `quiet`
    /// the pipe is not looked at (the thread sleeps until then unless a line is already in).
    pub fn next_line(&mut self, deadline: Instant, quiet: Option<Instant>) -> Result<Line<'_>, Wait> {
        let Some(out) = &mut self.out else {
            return Err(Wait::Closed);
        };
        let mut quiet = quiet.filter(|&q| q < deadline);
        loop {
            if let Some(found) = out.lines.sort() {
                let (text, seen) = out.lines.take(found);
                return Ok(Line {
                    at: out.read_at,
                    text,
                    seen,
                });
            }
            if out.closed {
                return Err(Wait::Closed);
            }
            if let Some(q) = quiet.take() {
                let now = Instant::now();
                if q > now {
                    precise_sleeps();
                    thread::sleep(q - now);
                    out.drained = false;
                }
            }
            if !out.drained {
                match out.fill() {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(_) => out.closed = true,
                }
                if out.closed {
                    continue;
                }
            }
            let now = Instant::now();
            if now >= deadline || !readable(&out.pipe, deadline - now) {
                return Err(Wait::Timeout);
            }
            out.drained = false;
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

impl Output {
    /// Reads what the pipe holds: true if anything came, false if nothing is there yet.
    /// The end of the output sets `closed`.
    fn fill(&mut self) -> std::io::Result<bool> {
        let room = self.lines.room();
        let offered = room.len();
        match self.pipe.read(room) {
            Ok(0) => {
                self.closed = true;
                Ok(false)
            }
            Ok(n) => {
                self.read_at = Instant::now();
                // A pipe gives all it holds up to the room offered.
                self.drained = n < offered;
                self.lines.filled(n);
                Ok(true)
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                self.drained = true;
                Ok(false)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Asks that this thread's sleeps end when asked (Linux lets a sleep run up to 50 µs late by
/// default, a tenth of a fast engine's move), once per thread.
fn precise_sleeps() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        thread_local!(static SET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
        if !SET.replace(true) {
            let _ = rustix::thread::set_current_timer_slack(std::num::NonZeroU64::new(5_000));
        }
    }
}

/// `write_all` over several buffers (`Write::write_all_vectored` is not stable).
fn write_all_parts<const N: usize>(out: &mut impl Write, parts: [&[u8]; N]) -> std::io::Result<()> {
    let mut slices = parts.map(IoSlice::new);
    let mut slices = &mut slices[..];
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn set_nonblocking(pipe: &ChildStdout) -> std::io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(pipe)?;
    rustix::fs::fcntl_setfl(pipe, flags | rustix::fs::OFlags::NONBLOCK)?;
    Ok(())
}

/// Waits until the pipe has something to read (or has closed) for at most `wait`; false if it
/// has not.
fn readable(pipe: &ChildStdout, wait: Duration) -> bool {
    let mut fds = [PollFd::new(pipe, PollFlags::IN)];
    let ts = Timespec {
        tv_sec: wait.as_secs() as _,
        tv_nsec: wait.subsec_nanos() as _,
    };
    // An interrupted wait counts as a wake-up: the caller reads and checks the deadline.
    !matches!(poll(&mut fds, Some(&ts)), Ok(0))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes at most `step` bytes a call, from one buffer or several.
    struct Trickle {
        out: Vec<u8>,
        step: usize,
    }

    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.step);
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(self.step - n);
                self.out.extend_from_slice(&b[..take]);
                n += take;
                if n == self.step {
                    break;
                }
            }
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn parts_are_written_whole_and_in_order_by_short_writes() {
        let line = b"position startpos moves e2e4 e7e5";
        let rest = b"\ngo nodes 1000\n";
        for step in 1..=line.len() + rest.len() {
            let mut w = Trickle { out: Vec::new(), step };
            write_all_parts(&mut w, [&line[..], &rest[..]]).unwrap();
            assert_eq!(w.out, [&line[..], &rest[..]].concat(), "step {step}");
            let mut w = Trickle { out: Vec::new(), step };
            write_all_parts(&mut w, [&b""[..], &rest[..]]).unwrap();
            assert_eq!(w.out, rest, "step {step}");
        }
        let mut w = Trickle {
            out: Vec::new(),
            step: 0,
        };
        assert_eq!(
            write_all_parts(&mut w, [&line[..]]).unwrap_err().kind(),
            ErrorKind::WriteZero
        );
    }
}
