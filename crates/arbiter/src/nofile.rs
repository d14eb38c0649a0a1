//! The open-file limit: every socket is a file descriptor, and the usual soft limit (1,024)
//! is far below the sockets a server or a load test holds, so both raise it to the hard limit,
//! which an unprivileged process may do.

/// Raises the soft limit on open files to the hard one; returns the limit now in force
/// (`None` where it cannot be read).
pub fn raise() -> Option<u64> {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim = raised;
            }
        }
        Some(lim.rlim_cur)
    }
}

/// Raises the limit and fails, saying what to do, when `needed` descriptors would not fit.
pub fn ensure(needed: u64, what: &str) -> anyhow::Result<()> {
    match raise() {
        Some(limit) if limit < needed => anyhow::bail!(
            "{what} needs about {needed} open files, but this process may open only {limit} \
             (the hard limit; `ulimit -Hn` as root, or LimitNOFILE= for a service, raises it)"
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn raising_reaches_at_least_the_old_soft_limit() {
        let limit = super::raise().expect("Linux reads RLIMIT_NOFILE");
        assert!(limit >= 64, "{limit}");
        assert!(super::ensure(u64::MAX, "a test").is_err());
        assert!(super::ensure(8, "a test").is_ok());
    }
}
