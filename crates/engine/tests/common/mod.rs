//! What the engine test files share: finding Debian's engines, and the fake engines of
//! `crates/engine/tests/fake/` (Python scripts). The match crate's tests use this module too.
#![allow(dead_code)] // Each test file uses part of it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use engine::EngineConfig;

/// An installed engine (Debian puts them in /usr/games), or `None` and a SKIPPED line (a
/// failure on CI).
pub fn find(name: &str) -> Option<PathBuf> {
    let games = PathBuf::from("/usr/games").join(name);
    if games.exists() {
        return Some(games);
    }
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.exists()));
    if found.is_none() {
        testdata::skip(format!("{name} is not installed"));
    }
    found
}

fn python() -> Option<PathBuf> {
    // The system interpreter starts fastest (a version manager's shim costs a shell).
    let direct = Path::new("/usr/bin/python3");
    if direct.exists() {
        return Some(direct.into());
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("python3"))
            .find(|p| p.exists())
    });
    if found.is_none() {
        testdata::skip("no python3 for the fake engines");
    }
    found
}

/// A configuration named `name` for the fake engine `script` with `args`, or `None` (and a
/// SKIPPED line) without Python.
pub fn fake(name: &str, script: &str, args: &[&str]) -> Option<EngineConfig> {
    // The fake engines live with the engine crate, whose tests use them too.
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/fake")
        .join(script);
    let mut config = EngineConfig::new(name, python()?);
    config.args = ["-u".to_string(), path.display().to_string()]
        .into_iter()
        .chain(args.iter().map(|a| a.to_string()))
        .collect();
    config.handshake_timeout = Duration::from_secs(5);
    config.ready_timeout = Duration::from_secs(2);
    Some(config)
}
