//! Where a game slot's thread runs, and what the runner's CPU time was.
//!
//! With `--affinity` a slot's thread and the engines it starts share the slot's CPUs. When no
//! search is timed (nodes, depth), the thread also yields to its engines: none of them preempts
//! another when it wakes (the engines inherit the thread's policy). An engine writes its `info`
//! lines and `bestmove` while the thread waits; each write makes the thread ready to run, but
//! it runs only once the engine waits for its next command (or its time slice of a few ms
//! ends), and then finds the whole answer in the pipe: about one hand-over a move at `go nodes
//! 1000`, whatever the engine prints, and the engine is not stopped to hand each line over.
//! Timed searches are left to wake the thread for each line: a yielding thread would time an
//! answer when the engine next waits, not when it wrote `bestmove`. The engines are started as
//! batch tasks and the thread then waits as an idle one ([`starting_engines`]), which keeps it
//! from taking the CPU mid-search where batch alone did not (two slots on a 6.18 kernel).

use std::time::Duration;

/// Keeps the calling thread (and the processes it starts from now on) on the CPUs of game slot
/// `slot`: `per_slot` of the CPUs the process may use, taken in turn. Where that cannot be
/// done the thread runs where the system puts it.
pub fn keep_on_cpus(slot: usize, per_slot: usize) {
    #[cfg(target_os = "linux")]
    {
        use rustix::thread::{sched_getaffinity, sched_setaffinity, CpuSet};
        let Ok(allowed) = sched_getaffinity(None) else { return };
        let cpus: Vec<usize> = (0..CpuSet::MAX_CPU).filter(|&c| allowed.is_set(c)).collect();
        if cpus.is_empty() {
            return;
        }
        let per_slot = per_slot.clamp(1, cpus.len());
        let mut set = CpuSet::new();
        for j in 0..per_slot {
            set.set(cpus[(slot * per_slot + j) % cpus.len()]);
        }
        let _ = sched_setaffinity(None, &set);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (slot, per_slot);
}

/// Makes the calling thread, and the processes it starts from now on, ones that never preempt
/// others when they wake (Linux `SCHED_BATCH`: "batch and idle tasks do not preempt non-idle
/// tasks"; each still gets its fair share of the CPU). True if the system did so.
///
/// Not also given long time slices (Linux 6.12's custom slices, `sched_setattr`), though they
/// would keep a ready runner from taking the CPU when an engine's slice ends mid-search (2.55
/// switches to the runner a move at `go nodes 10000` → 1.06): with 100 ms slices, two pinned
/// slots now and then ended a match with seconds of system time burnt in the runner (4 of 10
/// runs at concurrency 2, none of 12 under `perf`), a cost no saving is worth until it is
/// understood; nor did they keep two slots from the wake-ups [`starting_engines`] ends.
pub fn yield_to_engines() -> bool {
    set_policy(Policy::Batch)
}

/// Runs `start` (which starts engines) with the calling thread a batch task, so that what it
/// starts yields as [`yield_to_engines`] says; then leaves the thread an idle one (Linux
/// `SCHED_IDLE`) until the next call: it then runs only when nothing else on its CPUs (its
/// engines) wants to. For a yielding slot's thread, whose CPUs are its engines'.
///
/// Why: on a 6.18 kernel (AMD EPYC VM), with two pinned slots, a batch runner sometimes fell
/// into taking its engine's CPU at each `info` line (5–14 wake-ups a ply instead of one, three
/// to five times the CPU); as an idle task it woke once a ply in every run (BENCHMARKS.md,
/// "Engine matches").
pub fn starting_engines<T>(start: impl FnOnce() -> T) -> T {
    set_policy(Policy::Batch);
    let started = start();
    set_policy(Policy::Idle);
    started
}

enum Policy {
    Batch,
    Idle,
}

/// Sets the calling thread's policy; true if the system did.
fn set_policy(policy: Policy) -> bool {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        let policy = match policy {
            Policy::Batch => libc::SCHED_BATCH,
            Policy::Idle => libc::SCHED_IDLE,
        };
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: sched_setscheduler reads the parameter block it is given (valid for the
        // call) and changes only the calling thread's (pid 0) policy.
        unsafe { libc::sched_setscheduler(0, policy, &param) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = policy;
        false
    }
}

/// Whether the calling thread yields to its engines ([`yield_to_engines`]).
#[cfg(test)]
fn yields_to_engines() -> bool {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        // SAFETY: no arguments but the calling thread's id (0); reads its policy.
        let policy = unsafe { libc::sched_getscheduler(0) };
        policy == libc::SCHED_BATCH
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// This process's CPU time so far, summed over its threads (those that ended too).
#[derive(Debug, Clone, Copy)]
pub struct CpuTime {
    /// The system's count to the nanosecond (the process CPU clock).
    total: Duration,
    /// User and system time as /proc/self/stat counts them, in 10 ms ticks: only their ratio
    /// is used, to split `total`.
    ticks: (u64, u64),
}

impl CpuTime {
    pub fn now() -> Option<CpuTime> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // The command name may hold spaces and parentheses: fields are counted after its end.
        let mut fields = stat[stat.rfind(')')? + 1..].split_ascii_whitespace();
        let utime: u64 = fields.nth(11)?.parse().ok()?;
        let stime: u64 = fields.next()?.parse().ok()?;
        Some(CpuTime {
            total: process_clock()?,
            ticks: (utime, stime),
        })
    }

    /// The user and system time since `before`.
    pub fn since(&self, before: &CpuTime) -> (Duration, Duration) {
        let total = self.total.saturating_sub(before.total);
        let user = self.ticks.0.saturating_sub(before.ticks.0);
        let system = self.ticks.1.saturating_sub(before.ticks.1);
        // Less than a tick of either: the split is unknown, all of it counts as user time.
        let user = if user + system == 0 {
            total
        } else {
            total.mul_f64(user as f64 / (user + system) as f64)
        };
        (user, total - user)
    }
}

/// The process CPU clock (`CLOCK_PROCESS_CPUTIME_ID`), through the C library: rustix reads it
/// through the vDSO, which it finds in the auxiliary vector, and that crashes under valgrind
/// (the instruction counts of tools/bench/match_bench.sh `INSTR=1`).
fn process_clock() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes one timespec, which `t` is, and reads nothing else.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        (r == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scheduling policy of process `pid` (field 41 of /proc/PID/stat).
    fn policy_of(pid: u32) -> i32 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        fields[38].parse().unwrap()
    }

    /// A child that waits long enough to be looked at.
    fn sleeper() -> std::process::Command {
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("5");
        cmd
    }

    /// The scheduling policy of the child `start` starts, which is then ended.
    fn policy_of_child(start: impl FnOnce() -> std::process::Child) -> i32 {
        let mut child = start();
        let policy = policy_of(child.id());
        child.kill().unwrap();
        child.wait().unwrap();
        policy
    }

    #[test]
    fn a_yielding_thread_passes_it_on_to_its_engines_only() {
        std::thread::spawn(|| {
            if !yield_to_engines() {
                println!("skipped: the system would not set SCHED_BATCH");
                return;
            }
            assert!(yields_to_engines());
            let policy = policy_of_child(|| sleeper().spawn().unwrap());
            assert_eq!(
                policy,
                libc::SCHED_BATCH,
                "an engine started by a yielding thread yields too"
            );
        })
        .join()
        .unwrap();
        assert!(!yields_to_engines(), "other threads are left as they were");
        assert_eq!(policy_of(std::process::id()), libc::SCHED_OTHER);
    }

    #[test]
    fn engines_started_by_an_idle_waiter_yield_as_batch_tasks() {
        std::thread::spawn(|| {
            if !yield_to_engines() {
                println!("skipped: the system would not set SCHED_BATCH");
                return;
            }
            let policy = policy_of_child(|| starting_engines(|| sleeper().spawn().unwrap()));
            assert_eq!(policy, libc::SCHED_BATCH, "the engine is a batch task");
            // SAFETY: no arguments but the calling thread's id (0); reads its policy.
            #[allow(unsafe_code)]
            let mine = unsafe { libc::sched_getscheduler(0) };
            assert_eq!(mine, libc::SCHED_IDLE, "the thread waits as an idle task");
        })
        .join()
        .unwrap();
    }

    #[test]
    fn cpu_time_grows_with_work() {
        // Busy until the clock shows 20 ms of CPU, for at most 5 s of wall time (a loaded
        // machine may give this thread little of it): a clock that does not count fails.
        let before = CpuTime::now().unwrap();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        let mut used = Duration::ZERO;
        while used < Duration::from_millis(20) && start.elapsed() < Duration::from_secs(5) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            let (user, system) = CpuTime::now().unwrap().since(&before);
            used = user + system;
        }
        assert!(
            used >= Duration::from_millis(20),
            "{used:?} of CPU in {:?}",
            start.elapsed()
        );
    }
}
