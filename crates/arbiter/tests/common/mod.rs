//! What the HTTP test files share: `arbiter serve` spawned on a free port of loopback.

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .args(options)
            .env_remove("DATABASE_URL")
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
    #[allow(dead_code)] // Not every test file kills its server.
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
