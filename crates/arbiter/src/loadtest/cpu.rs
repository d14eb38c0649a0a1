//! The CPU time of a server running in this process, told apart from the clients' by its
//! threads' names: the server runtime's workers (named here) and the SQLite driver's workers.
//! PostgreSQL's own processes are not counted.

/// The name given to the in-process server's runtime threads.
pub const SERVER_THREADS: &str = "arbiter-serve";

/// CPU time (µs) the server's threads have run so far, from each thread's
/// `/proc/self/task/TID/schedstat` (nanoseconds on the CPU); `None` where that is not
/// readable (not Linux, or a kernel without schedstats).
pub fn server_cpu_us() -> Option<u64> {
    let mut total = 0u64;
    let mut found = false;
    for entry in std::fs::read_dir("/proc/self/task").ok()? {
        let Ok(entry) = entry else { continue };
        let dir = entry.path();
        let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let comm = comm.trim();
        if comm != SERVER_THREADS && !comm.starts_with("sqlx-sqlite") {
            continue;
        }
        // A thread may end between the listing and the read: it is skipped.
        let Ok(stat) = std::fs::read_to_string(dir.join("schedstat")) else {
            continue;
        };
        let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
        total += ns / 1000;
        found = true;
    }
    found.then_some(total)
}

/// CPU time (µs) this whole process has run so far: the server's threads and the clients'.
pub fn process_cpu_us() -> Option<u64> {
    // SAFETY: getrusage only writes the struct passed.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0).then_some(u)?
    };
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Some(us(usage.ru_utime) + us(usage.ru_stime))
}
