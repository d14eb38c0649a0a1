//! The machine's floor for a runner's cost a ply: the CPU one thread spends handing a request
//! to a child over a pipe and reading the answer back, with nothing else done. `arbiter match`
//! does this once a ply (a write, a `poll` unless the answer is in, a read, the switch to the
//! engine and back) and judges the move besides, so its "runner CPU" a ply cannot go below
//! these figures on the same machine; BENCHMARKS.md reports them side by side.
//!
//!   cargo run --release -p arbiter-matches --example pipe_floor -- [ROUNDS] [BYTES] [--unpinned]
//!   cargo run --release -p arbiter-matches --example pipe_floor -- --engine CMD [--xiangqi] [PLIES] [NODES] [--unpinned]
//!
//! The first form answers with `cat`, at once: the cost of the pipes and the switches alone,
//! with the caches warm. The second has a real UCI engine play itself from the start position
//! with `go nodes NODES` (default 1000), the moves passed back unread and unchecked (a game
//! restarts at `bestmove (none)` or 200 plies): the same pipes after a search has run through
//! the caches, which is what a match pays.
//!
//! `--touch PAGES` reads a byte from each of PAGES distinct 4 kB pages of memory every ply: what
//! the runner's own work costs when it runs after a search has gone through the caches and
//! TLBs (~0.1 µs a page on a Xeon VM). `--stride BYTES` spaces the
//! reads (64: one a cache line, on few pages) and `--huge` puts the memory on 2 MB pages: cache
//! misses with and without TLB misses.
//!
//! By default the thread and its child share one CPU and the thread yields to it
//! (`SCHED_BATCH`); with `--idle` it then waits as an idle task, as `arbiter match --affinity`
//! runs a game slot, and with `--read-first` it reads before it polls, as such a slot does
//! (tools/bench/match_bench.sh passes both); `--unpinned` leaves both to the scheduler.

use std::io::{ErrorKind, Read, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pinned = !args.iter().any(|a| a == "--unpinned");
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let slot = value("--slot").and_then(|v| v.parse().ok()).unwrap_or(0);
    // Plain numbers are the counts; the values of flags are not.
    let mut numbers = args
        .iter()
        .enumerate()
        .filter(|&(i, _)| {
            i == 0
                || !matches!(
                    args[i - 1].as_str(),
                    "--slot" | "--json" | "--engine" | "--touch" | "--stride"
                )
        })
        .filter_map(|(_, a)| a.parse::<usize>().ok());
    if let Some(cmd) = value("--engine") {
        let floor = SelfPlay {
            xiangqi: args.iter().any(|a| a == "--xiangqi"),
            plies: numbers.next().unwrap_or(2_000).max(1),
            nodes: numbers.next().unwrap_or(1_000),
            pinned,
            wait: if args.iter().any(|a| a == "--socket") {
                Wait::Socket
            } else if args.iter().any(|a| a == "--blocking") {
                Wait::Blocking
            } else if args.iter().any(|a| a == "--read-first") {
                Wait::ReadFirst
            } else {
                Wait::Poll
            },
            idle: args.iter().any(|a| a == "--idle"),
            touch: value("--touch").and_then(|v| v.parse().ok()).unwrap_or(0),
            stride: value("--stride").and_then(|v| v.parse().ok()).unwrap_or(4096).max(64),
            huge: args.iter().any(|a| a == "--huge"),
            json: value("--json"),
            cmd,
        };
        if pinned {
            pin_and_yield(slot);
        }
        return floor.run();
    }
    let rounds = numbers.next().unwrap_or(20_000).max(1);
    let bytes = numbers.next().unwrap_or(120).max(1);
    if pinned {
        pin_and_yield(slot);
    }
    let mut child = match Command::new("cat").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pipe_floor: cannot start cat: {e}");
            std::process::exit(1);
        }
    };
    let mut to = child.stdin.take().expect("piped stdin");
    let mut from = child.stdout.take().expect("piped stdout");
    set_nonblocking(&from);
    let mut request = vec![b'x'; bytes];
    request[bytes - 1] = b'\n';
    let mut buf = vec![0u8; 1 << 16];
    let start = Measure::start();
    for _ in 0..rounds {
        to.write_all(&request).expect("write to cat");
        let mut got = 0;
        while got < bytes {
            // As the runner reads: wait for the pipe, then read what it holds.
            wait_readable(&from);
            match from.read(&mut buf) {
                Ok(0) => panic!("cat closed its output"),
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {}
                Err(e) => panic!("read from cat: {e}"),
            }
        }
    }
    let spent = start.stop();
    drop(to);
    let _ = child.wait();
    spent.report(
        &format!("{rounds} round trips of {bytes} bytes"),
        "a round trip",
        rounds,
        pinned,
    );
}

/// A UCI engine playing itself, the floor of a match at `go nodes`.
struct SelfPlay {
    cmd: String,
    xiangqi: bool,
    plies: usize,
    nodes: usize,
    pinned: bool,
    wait: Wait,
    /// `SCHED_IDLE` for the thread once the engine runs.
    idle: bool,
    /// Pages of memory read a ply (one byte each), to price what a runner's own work costs
    /// after a search has gone through the caches and TLBs.
    touch: usize,
    /// Bytes between two reads of `touch` (4096: one read a page; 64: one a cache line, on
    /// few pages).
    stride: usize,
    /// The touched memory on 2 MB pages (`MADV_HUGEPAGE`): cache misses without TLB misses.
    huge: bool,
    /// Where to write the figures as JSON (for tools/bench/match_bench.sh).
    json: Option<String>,
}

impl SelfPlay {
    fn run(self) {
        let SelfPlay {
            cmd,
            xiangqi,
            plies,
            nodes,
            pinned,
            wait: how,
            idle,
            touch,
            stride,
            huge,
            json,
        } = self;
        let pages = touched(touch * stride, huge);
        let mut sum = 0u8;
        let cmd = cmd.as_str();
        let mut command = Command::new(cmd);
        command.stdin(Stdio::piped()).stderr(Stdio::null());
        // The engine's output: a pipe, or one end of a socket pair (which can time out a read).
        let socket = match how {
            Wait::Socket => {
                use rustix::net::{socketpair, sockopt, AddressFamily, SocketFlags, SocketType};
                let (ours, theirs) = socketpair(AddressFamily::UNIX, SocketType::STREAM, SocketFlags::CLOEXEC, None)
                    .expect("socketpair");
                sockopt::set_socket_timeout(
                    &ours,
                    sockopt::Timeout::Recv,
                    Some(std::time::Duration::from_millis(50)),
                )
                .expect("SO_RCVTIMEO");
                command.stdout(Stdio::from(theirs));
                Some(ours)
            }
            _ => {
                command.stdout(Stdio::piped());
                None
            }
        };
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("pipe_floor: cannot start {cmd}: {e}");
                std::process::exit(1);
            }
        };
        // The engine's end of a socket pair must close here, or its output never ends.
        drop(command);
        if idle {
            set_idle();
        }
        let mut to = child.stdin.take().expect("piped stdin");
        let mut from = std::fs::File::from(match (socket, child.stdout.take()) {
            (Some(ours), _) => ours,
            (None, Some(pipe)) => std::os::fd::OwnedFd::from(pipe),
            (None, None) => unreachable!("stdout is piped"),
        });
        if matches!(how, Wait::Poll | Wait::ReadFirst) {
            set_nonblocking(&from);
        }
        let mut out = Output {
            buf: vec![0; 1 << 16],
            start: 0,
            end: 0,
            wait: how,
        };
        let variant = if xiangqi {
            "setoption name UCI_Variant value xiangqi\n"
        } else {
            ""
        };
        to.write_all(format!("uci\n{variant}isready\n").as_bytes())
            .expect("write to engine");
        out.until(&mut from, b"readyok");
        let mut moves = String::new();
        let mut game_plies = 0;
        let mut request = String::with_capacity(4096);
        let start = Measure::start();
        for _ in 0..plies {
            request.clear();
            request.push_str("position startpos");
            if !moves.is_empty() {
                request.push_str(" moves");
                request.push_str(&moves);
            }
            request.push_str("\ngo nodes ");
            request.push_str(&nodes.to_string());
            request.push('\n');
            to.write_all(request.as_bytes()).expect("write to engine");
            let best = out.until(&mut from, b"bestmove ");
            for p in 0..touch {
                sum = sum.wrapping_add(std::hint::black_box(pages[p * stride + (p * 64) % stride]));
            }
            let best = best.split(|b| b.is_ascii_whitespace()).next().unwrap_or_default();
            game_plies += 1;
            if best.is_empty() || best == b"(none)" || game_plies >= 200 {
                moves.clear();
                game_plies = 0;
            } else {
                moves.push(' ');
                moves.push_str(&String::from_utf8_lossy(best));
            }
        }
        let spent = start.stop();
        std::hint::black_box(sum);
        let _ = to.write_all(b"quit\n");
        drop(to);
        let _ = child.wait();
        if let Some(path) = json {
            let text = format!(
                "{{\"plies\": {plies}, \"wall_s\": {:.6}, \"cpu_s\": {:.6}, \"user_s\": {:.6}, \"sys_s\": {:.6}}}\n",
                spent.wall_us / 1e6,
                (spent.user_us + spent.sys_us) / 1e6,
                spent.user_us / 1e6,
                spent.sys_us / 1e6
            );
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("pipe_floor: cannot write {path}: {e}");
            }
        }
        spent.report(
            &format!("{plies} plies of {cmd} at go nodes {nodes}"),
            "a ply",
            plies,
            pinned,
        );
    }
}

/// This thread's CPU and the wall time over a stretch of the run, in microseconds.
struct Measure {
    wall_us: f64,
    user_us: f64,
    sys_us: f64,
}

/// The start of a [`Measure`].
struct Started(Instant, (f64, f64));

impl Measure {
    fn start() -> Started {
        Started(Instant::now(), usage())
    }

    /// One line: the figures for each of `count` round trips.
    fn report(&self, what: &str, unit: &str, count: usize, pinned: bool) {
        let per = |us: f64| us / count as f64;
        println!(
            "{what} ({}): thread CPU {:.1} µs {unit} (user {:.1}, system {:.1}); wall {:.1} µs",
            if pinned { "pinned, yielding" } else { "unpinned" },
            per(self.user_us + self.sys_us),
            per(self.user_us),
            per(self.sys_us),
            per(self.wall_us),
        );
    }
}

impl Started {
    fn stop(self) -> Measure {
        let (user, sys) = usage();
        Measure {
            wall_us: self.0.elapsed().as_secs_f64() * 1e6,
            user_us: user - self.1 .0,
            sys_us: sys - self.1 .1,
        }
    }
}

/// How the engine's output is waited for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// `poll`, then a read of a non-blocking pipe (as `arbiter match` reads).
    Poll,
    /// A read of a non-blocking pipe first, `poll` only when it finds nothing (as `arbiter
    /// match --affinity` reads after a request: its thread runs once the engine waits).
    ReadFirst,
    /// A blocking read of the pipe.
    Blocking,
    /// A blocking read of a socket whose reads time out (`SO_RCVTIMEO`).
    Socket,
}

/// An engine's output, read as the runner reads it: wait, read what the pipe holds into one
/// buffer reused throughout, look for the line wanted; lines looked at are passed over, so each
/// byte is looked at once (but for a line cut by a read).
struct Output {
    buf: Vec<u8>,
    /// `buf[start..end]` is read and not yet looked at.
    start: usize,
    end: usize,
    wait: Wait,
}

impl Output {
    /// The rest of the first line that starts with `prefix`; what came before is dropped.
    fn until(&mut self, from: &mut std::fs::File, prefix: &[u8]) -> Vec<u8> {
        loop {
            while let Some(i) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                let line = &self.buf[self.start..self.start + i];
                self.start += i + 1;
                if let Some(rest) = line.strip_prefix(prefix) {
                    return rest.to_vec();
                }
            }
            // Keep the cut line at the front and read after it.
            self.buf.copy_within(self.start..self.end, 0);
            (self.start, self.end) = (0, self.end - self.start);
            if self.end == self.buf.len() {
                self.buf.resize(2 * self.buf.len(), 0);
            }
            if self.wait == Wait::Poll {
                wait_readable(from);
            }
            match from.read(&mut self.buf[self.end..]) {
                Ok(0) => panic!("the engine closed its output"),
                Ok(n) => self.end += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock && self.wait == Wait::ReadFirst => wait_readable(from),
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {}
                Err(e) => panic!("read from the engine: {e}"),
            }
        }
    }
}

/// Waits until `from` has something to read (or has closed).
fn wait_readable(from: &impl std::os::fd::AsFd) {
    let mut fds = [PollFd::new(from, PollFlags::IN)];
    let _ = poll(&mut fds, None);
}

fn set_nonblocking(fd: &impl std::os::fd::AsFd) {
    let flags = rustix::fs::fcntl_getfl(fd).expect("fcntl");
    rustix::fs::fcntl_setfl(fd, flags | rustix::fs::OFlags::NONBLOCK).expect("fcntl");
}

/// Makes this thread run only when nothing else on its CPU wants to (`SCHED_IDLE`); the child
/// already started keeps its own policy.
fn set_idle() {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: reads the parameter block given; changes only this thread's policy.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } != 0 {
            eprintln!("pipe_floor: could not set SCHED_IDLE");
        }
    }
}

/// This thread's user and system CPU in microseconds.
fn usage() -> (f64, f64) {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        // SAFETY: getrusage writes one rusage into the zeroed block it is given.
        let mut r: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut r) };
        let us = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
        (us(r.ru_utime), us(r.ru_stime))
    }
    #[cfg(not(target_os = "linux"))]
    (0.0, 0.0)
}

/// Keeps this thread (and the child it starts) on one CPU and makes it yield to the child, as
/// a pinned game slot does (`matches::cpu`).
fn pin_and_yield(slot: usize) {
    matches::cpu::keep_on_cpus(slot, 1);
    if !matches::cpu::yield_to_engines() {
        eprintln!("pipe_floor: could not set SCHED_BATCH; measuring without it");
    }
}

/// `len` bytes of memory, filled; with `huge`, at a 2 MB boundary and advised onto huge pages.
fn touched(len: usize, huge: bool) -> &'static [u8] {
    #[cfg(target_os = "linux")]
    if huge && len > 0 {
        return on_huge_pages(len);
    }
    let _ = huge;
    Vec::leak((0..len).map(|i| i as u8).collect())
}

#[cfg(target_os = "linux")]
fn on_huge_pages(len: usize) -> &'static [u8] {
    const HUGE: usize = 2 << 20;
    let size = len.div_ceil(HUGE) * HUGE;
    #[allow(unsafe_code)]
    // SAFETY: a fresh private anonymous mapping, larger by one huge page so that an aligned
    // start lies within it; it is only read and written through the slice made here, and
    // never unmapped (the slice is 'static).
    unsafe {
        let raw = libc::mmap(
            std::ptr::null_mut(),
            size + HUGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert!(raw != libc::MAP_FAILED, "mmap");
        let start = (raw as usize).next_multiple_of(HUGE) as *mut u8;
        libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
        let bytes = std::slice::from_raw_parts_mut(start, len);
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = i as u8;
        }
        bytes
    }
}
