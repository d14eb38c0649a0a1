//! A command whose output is closed (`arbiter judge --rulesets | head -c 600`) ends quietly.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe fails with `BrokenPipe` instead of ending
//! the process: `println!` panics, and `writeln!(…)?` returns the error. Restoring SIGPIPE's
//! default would end the process quietly too, but also whenever a write to an engine's pipe
//! or a client's socket fails (`arbiter match` with a crashed engine, `arbiter serve`), which
//! must stay an error those commands handle. So the failure is recognised where it surfaces:
//! a panic from printing to a closed stdout or stderr, and an error whose cause is a broken
//! pipe, both end the process with success and no message.

use std::io::ErrorKind;

/// Makes a panic from printing to a closed output end the process quietly.
pub fn install() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if text.is_some_and(is_closed_output_panic) {
            std::process::exit(0);
        }
        default(info)
    }));
}

/// `println!` and `eprintln!` panic with "failed printing to stdout: " and the I/O error.
fn is_closed_output_panic(text: &str) -> bool {
    let printing = text.starts_with("failed printing to stdout") || text.starts_with("failed printing to stderr");
    printing
        && (text.contains(&std::io::Error::from(ErrorKind::BrokenPipe).to_string())
            || text.contains(&broken_pipe_os_text()))
}

/// The OS's own words for EPIPE, as an `io::Error` from the OS prints them.
fn broken_pipe_os_text() -> String {
    #[cfg(unix)]
    {
        // EPIPE is 32 on every unix Rust supports.
        std::io::Error::from_raw_os_error(32).to_string()
    }
    #[cfg(not(unix))]
    {
        std::io::Error::from(ErrorKind::BrokenPipe).to_string()
    }
}

/// Whether the error was caused by writing to a closed output.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_print_panics_on_a_closed_pipe_only() {
        let epipe = broken_pipe_os_text();
        assert!(is_closed_output_panic(&format!("failed printing to stdout: {epipe}")));
        assert!(is_closed_output_panic(&format!("failed printing to stderr: {epipe}")));
        assert!(!is_closed_output_panic(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
        assert!(!is_closed_output_panic(&format!("index out of bounds; {epipe}")));
        let e = anyhow::Error::from(std::io::Error::from(ErrorKind::BrokenPipe)).context("writing");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("bad move")));
    }
}
