//! Cluster nodes for the tests: `arbiter serve --cluster` processes on one fresh PostgreSQL
//! database and the machine's NATS server, with subjects of their own (a prefix unique to the
//! run), so runs never hear each other.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use store::scratch::Scratch;

pub const NATS: &str = "nats://127.0.0.1:4222";
/// Short, so a dead node's games are taken over within about two seconds.
pub const LEASE_MS: u64 = 1500;

/// What the cluster runs on, or `None` (said with `SKIPPED`) when PostgreSQL or NATS is missing
/// — under `CI=true` a panic instead: there it must run.
pub struct Backing {
    pub db: Scratch,
    pub prefix: String,
    pub dir: PathBuf,
}

impl Backing {
    pub fn new(test: &str) -> Option<Backing> {
        if let Err(e) = std::net::TcpStream::connect_timeout(&"127.0.0.1:4222".parse().unwrap(), Duration::from_secs(2))
        {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{test}: no NATS server at {NATS} ({e}), and CI=true: it must run");
            }
            println!("SKIPPED: {test}: no NATS server at {NATS} ({e})");
            return None;
        }
        let db = Scratch::postgres(test)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let prefix = format!("test{}x{nanos}", std::process::id());
        let dir = std::env::temp_dir().join(format!("arbiter-{test}-{prefix}"));
        std::fs::create_dir_all(&dir).unwrap();
        Some(Backing { db, prefix, dir })
    }
}

/// One node, killed when dropped.
pub struct Node {
    pub base: String,
    child: Option<Child>,
    /// Its log (standard error), to read what it said.
    pub log: PathBuf,
    _stdout: BufReader<ChildStdout>,
}

impl Node {
    pub fn start(b: &Backing, name: &str) -> Node {
        let log = b.dir.join(format!("{name}.log"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", &b.db.url])
            .args(["--cluster", NATS, "--node", name, "--cluster-prefix", &b.prefix])
            .args(["--lease-ms", &LEASE_MS.to_string()])
            .args(["--actions-per-second", "1000", "--creates-per-minute", "100000"])
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "info,sqlx=warn")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("spawn arbiter serve --cluster");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| {
                let said = std::fs::read_to_string(&log).unwrap_or_default();
                panic!("node {name}: no address printed: {line:?}; its log: {said}")
            })
            .to_string();
        Node {
            base: format!("http://{addr}"),
            child: Some(child),
            log,
            _stdout: stdout,
        }
    }

    pub fn pid(&self) -> i32 {
        self.child.as_ref().unwrap().id() as i32
    }

    pub fn signal(&self, signal: i32) {
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// SIGKILL: no drain, no lease given back.
    pub fn kill9(&mut self) {
        if let Some(mut c) = self.child.take() {
            c.kill().unwrap();
            c.wait().unwrap();
        }
    }

    /// What the node logged.
    pub fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            // A node left stopped (the fencing test) must be woken for the kill to end it.
            unsafe { libc::kill(c.id() as i32, libc::SIGCONT) };
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The database the nodes share, to look into.
pub async fn store(b: &Backing) -> store::Store {
    store::Store::connect(&b.db.url).await.unwrap()
}

/// Game `id`'s owner, as the database says.
pub async fn owner(s: &store::Store, id: &str) -> Option<String> {
    s.owner(id).await.unwrap()
}

/// Creates a game through `base`: the server's answer (id, seats, arbiter).
pub async fn create_game(base: &str, kind: &str) -> serde_json::Value {
    reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .json(&serde_json::json!({ "kind": kind }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Creates a game through `base`: its id and seat tokens (first, second).
pub async fn create(base: &str, kind: &str) -> (String, [String; 2]) {
    let v = create_game(base, kind).await;
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    (
        v["id"]
            .as_str()
            .unwrap_or_else(|| panic!("no game made: {v}"))
            .to_string(),
        [token(0), token(1)],
    )
}

/// Creates games of `kind` through `base` until one is placed on node `owner` (new games
/// alternate between the live nodes): its id and seat tokens.
pub async fn create_on(s: &store::Store, base: &str, kind: &str, owner: &str) -> (String, [String; 2]) {
    for _ in 0..6 {
        let (id, tokens) = create(base, kind).await;
        if self::owner(s, &id).await.as_deref() == Some(owner) {
            return (id, tokens);
        }
    }
    panic!("no game placed on node {owner} in 6 tries");
}
