//! What the command-line test files share: the `arbiter` binary run as a user runs it.
#![allow(dead_code)] // Each test file uses part of it.

use std::process::Command;

/// Runs the binary with `args` to its end: whether it succeeded, its stdout and its stderr.
pub fn arbiter(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// One line of JSON output, or a panic that shows the line.
pub fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}
