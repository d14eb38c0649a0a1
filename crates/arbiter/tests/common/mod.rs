//! What the HTTP test files share: `arbiter serve` spawned on a free port of loopback, and one
//! JSON request to it.

// Each test file uses its own part of this.
#![allow(dead_code)]

pub mod browser;

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdout, Command, Stdio};

/// A running `arbiter serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, as the server printed it.
    pub base: String,
    /// Kept open: the server may print more, and a closed pipe would make that fail.
    _stdout: BufReader<ChildStdout>,
}

impl Server {
    /// Starts the binary on `db` (a file or a URL) with extra `options`, and waits for the line
    /// that gives its address.
    pub fn start_with(db: &str, options: &[&str]) -> Server {
        Server::start_with_env(db, options, &[])
    }

    /// The same, with `vars` set in its environment.
    pub fn start_with_env(db: &str, options: &[&str], vars: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .args(options)
            .env_remove("DATABASE_URL")
            .envs(vars.iter().copied())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn arbiter serve");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address printed: {line:?}"))
            .to_string();
        Server {
            child,
            base: format!("http://{addr}"),
            _stdout: stdout,
        }
    }

    /// SIGKILL: no chance to flush or close anything.
    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One JSON request to the server's API (`GET` or `POST`), with a Bearer token and a body if
/// given; it must succeed. Its answer (`null` when it has no JSON body).
pub async fn api(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> serde_json::Value {
    let http = reqwest::Client::new();
    let mut r = if method == "GET" {
        http.get(format!("{base}{path}"))
    } else {
        http.post(format!("{base}{path}"))
    };
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status();
    let v: serde_json::Value = r.json().await.unwrap_or_default();
    assert!(status.is_success(), "{method} {path}: {status} {v}");
    v
}
