//! Several server nodes on one PostgreSQL database and a NATS server (`arbiter serve
//! --cluster`): any node takes any request, each live game runs on exactly one of them.
//!
//! - State is PostgreSQL's: games, command logs, and each node's lease and the games it owns
//!   (`store::lease`). Every node writes through a log fenced by its lease, so a node that
//!   lost its lease (paused, cut off) writes nothing once another took its games.
//! - Messages are NATS's: a command for a game another node runs is forwarded to it by
//!   request and reply on `PREFIX.node.NODE.act` ([`forward`]); the node running a game sends
//!   each new event line, with its version, on `PREFIX.game.ID`, and a node that holds the
//!   game without running it subscribes to that subject alone while it holds it, its streams
//!   and sockets following from it ([`fanout`]). What a follower answers from those lines is
//!   never older than a command already acknowledged ([`fresh`]).
//! - Each node advertises the URL clients reach it at (`--advertise`), kept with its lease:
//!   a game's answers name its owner and that URL, so clients that go there are served
//!   without a forward. Any node still takes any request; the name is a hint.
//! - The lease is renewed every third of its time; each renewal also looks for nodes whose
//!   leases ended with games unfinished and takes them over, replaying their logs ([`lease`]).
//! - A node that saves a change of an event tells the others its version on
//!   `PREFIX.event.ID`, so their streams of the event read it at once ([`events`]).
//! - On SIGTERM a node hands its games to the others before it leaves ([`drain`]).
//!
//! A game taken over resumes its clock at its last logged command (see `crate::table`): the
//! player to move is charged nothing for the time between that command and the takeover —
//! at most the dead node's unlogged moments, its lease's time to run out (`--lease-ms`) and
//! one renewal period for the takeover to be noticed — and so gains at most that much.

pub mod drain;
pub mod events;
pub mod fanout;
pub mod forward;
pub mod fresh;
pub mod lease;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::Duration;

use store::{Lease, LeaseError, Store};
use tokio::sync::mpsc;

use crate::app::App;
use crate::db::Db;
use crate::error::ApiError;
use crate::metrics::Metrics;

/// How a node joins its cluster.
#[derive(Clone, Debug)]
pub struct Options {
    /// The NATS server, `nats://HOST:PORT`.
    pub nats: String,
    /// This node's name, unique in the cluster.
    pub node: String,
    /// What every subject starts with: clusters (or tests) sharing a NATS server apart.
    pub prefix: String,
    /// How long a lease lasts unrenewed; it is renewed every third of it.
    pub lease: Duration,
    /// The URL clients reach this node at (`http://HOST:PORT`); `serve_node` makes it
    /// `http://` and the address bound when none is given.
    pub advertise: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cluster mode keeps its state in PostgreSQL: --db must be a postgres:// URL (found an SQLite database)")]
    NotPostgres,
    #[error("node name {0:?}: expected 1 to 64 letters, digits, '-' or '_'")]
    BadName(String),
    #[error("subject prefix {0:?}: expected letters, digits, '-', '_' or '.' (not at either end)")]
    BadPrefix(String),
    #[error("advertised URL {0:?}: expected http:// or https:// and a host, without spaces")]
    BadAdvertise(String),
    #[error("cannot reach NATS at {0}: {1}")]
    Nats(String, String),
    #[error("lease: {0}")]
    Lease(#[from] LeaseError),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

/// This node: its lease, its NATS connection, and what it knows of who runs which game.
pub struct Node {
    pub name: String,
    prefix: String,
    client: async_nats::Client,
    store: Store,
    lease: RwLock<Lease>,
    ttl: Duration,
    /// Holding a lease and not draining: `/health/ready` says so.
    ready: AtomicBool,
    /// Handing its games over: it starts none.
    draining: AtomicBool,
    app: OnceLock<Weak<App>>,
    /// Event lines for the other nodes, sent in order by one task.
    out: mpsc::UnboundedSender<(String, bytes::Bytes)>,
    /// The owners of games followed here, as last read.
    owners: Mutex<HashMap<String, String>>,
    /// Where the next game handed over goes.
    next: AtomicUsize,
    /// The live nodes at the last renewal, to notice one leaving.
    members: Mutex<Vec<String>>,
    /// The URL clients reach this node at.
    url: String,
    /// The other live nodes' URLs, as read at the last renewal.
    urls: RwLock<HashMap<String, String>>,
    /// The games followed here (held, run by another node): each one's subscription's task.
    follows: Mutex<HashMap<String, tokio::task::JoinHandle<()>>>,
    metrics: Arc<Metrics>,
}

fn valid_name(s: &str) -> bool {
    (1..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Node {
    /// Connects to NATS, takes the node's lease (waiting for a lease of the same name that a
    /// dead process left to run out) and makes `db` write through the lease's fenced log.
    pub async fn join(options: Options, db: &Db) -> Result<Arc<Node>, ClusterError> {
        if !db.store().is_postgres() {
            return Err(ClusterError::NotPostgres);
        }
        if !valid_name(&options.node) {
            return Err(ClusterError::BadName(options.node));
        }
        let prefix_ok = !options.prefix.starts_with('.')
            && !options.prefix.ends_with('.')
            && options.prefix.split('.').all(valid_name);
        if !prefix_ok {
            return Err(ClusterError::BadPrefix(options.prefix));
        }
        let url = options.advertise.clone().unwrap_or_default();
        let url_ok = ["http://", "https://"]
            .iter()
            .any(|s| url.strip_prefix(s).is_some_and(|rest| !rest.is_empty()))
            && url.len() <= 512
            && url.bytes().all(|b| b.is_ascii_graphic());
        if !url_ok {
            return Err(ClusterError::BadAdvertise(url));
        }
        let url = url.trim_end_matches('/').to_string();
        let client = async_nats::ConnectOptions::new()
            .name(format!("arbiter {}", options.node))
            .request_timeout(Some(forward::ANSWER_WAIT))
            // A node's own games' lines need not come back to it.
            .no_echo()
            .connect(&options.nats)
            .await
            .map_err(|e| ClusterError::Nats(options.nats.clone(), e.to_string()))?;
        let store = db.store().clone();
        let ttl = options.lease;
        let lease = lease::take(&store, &options.node, ttl).await?;
        store.advertise(&lease, &url).await?;
        db.set_log(store.fenced_command_log(lease.clone()));
        tracing::info!(node = %options.node, epoch = lease.epoch, "joined the cluster");
        let (out, queue) = mpsc::unbounded_channel();
        tokio::spawn(fanout::send(client.clone(), queue));
        Ok(Arc::new(Node {
            name: options.node,
            prefix: options.prefix,
            client,
            store,
            lease: RwLock::new(lease),
            ttl,
            ready: AtomicBool::new(true),
            draining: AtomicBool::new(false),
            app: OnceLock::new(),
            out,
            owners: Mutex::default(),
            next: AtomicUsize::new(rand::random::<u16>() as usize),
            members: Mutex::default(),
            url,
            urls: RwLock::default(),
            follows: Mutex::default(),
            metrics: db.metrics(),
        }))
    }

    /// Starts the node's work for `app`: answering forwarded commands, following the other
    /// nodes' games, renewing the lease and taking dead nodes' games over.
    pub async fn attach(self: &Arc<Self>, app: &Arc<App>) -> Result<(), ClusterError> {
        let _ = self.app.set(Arc::downgrade(app));
        let asks = self
            .client
            .subscribe(self.node_subject(&self.name))
            .await
            .map_err(|e| ClusterError::Nats(self.name.clone(), e.to_string()))?;
        let events = self
            .client
            .subscribe(self.events_subject())
            .await
            .map_err(|e| ClusterError::Nats(self.name.clone(), e.to_string()))?;
        // Sent before a subscription is on the server, a message would miss it.
        self.client
            .flush()
            .await
            .map_err(|e| ClusterError::Nats(self.name.clone(), e.to_string()))?;
        tokio::spawn(forward::answer(self.clone(), asks));
        tokio::spawn(events::follow(self.clone(), events));
        lease::read_members(self).await;
        tokio::spawn(lease::keep(self.clone()));
        Ok(())
    }

    /// Rebuilds the unfinished games this node owns (a node restarted under its name before
    /// another took its games); returns how many.
    pub async fn restore_owned(&self, app: &App) -> Result<usize, ApiError> {
        let ids = self.store.owned_games(&self.name).await?;
        for id in &ids {
            app.localize(id).await?;
        }
        Ok(ids.len())
    }

    pub fn is_ready(&self) -> bool {
        self.ready.load(Ordering::Acquire) && !self.draining.load(Ordering::Acquire)
    }

    pub(crate) fn draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    fn app(&self) -> Option<Arc<App>> {
        self.app.get().and_then(Weak::upgrade)
    }

    /// The database with the log of now (see [`Db::pin`]), while the server runs.
    pub(crate) fn pinned_db(&self) -> Option<Db> {
        self.app().map(|app| app.db().pin())
    }

    pub(crate) fn lease(&self) -> Lease {
        self.lease.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn node_subject(&self, node: &str) -> String {
        format!("{}.node.{node}.act", self.prefix)
    }

    fn game_subject(&self, id: &str) -> String {
        format!("{}.game.{id}", self.prefix)
    }

    /// Whether game `id` runs on this node: it owns it, or claims it now that no node does
    /// (a game made by an event's round, or before the cluster).
    pub(crate) async fn runs_here(&self, id: &str) -> Result<bool, ApiError> {
        if self.draining() {
            return Ok(false);
        }
        let owner = self.store.owner(id).await?;
        let here = match owner {
            Some(owner) => owner == self.name,
            None => self
                .store
                .place_game(&self.lease(), id, &self.name)
                .await
                .map_err(lease_error)?,
        };
        Ok(here)
    }

    /// Picks the node a new game runs on — the live nodes in turn, each node starting its
    /// turns at a random one, so games spread evenly whichever nodes their creators ask — and
    /// records it.
    pub(crate) async fn place(&self, id: &str) -> Result<String, ApiError> {
        let live = self.store.live_nodes().await?;
        let to = match live.len() {
            0 => self.name.clone(),
            n => live[self.next.fetch_add(1, Ordering::Relaxed) % n].clone(),
        };
        self.store
            .place_game(&self.lease(), id, &to)
            .await
            .map_err(lease_error)?;
        Ok(to)
    }
}

/// The node that runs a game, as clients are told: its name and the URL it advertised.
#[derive(Clone, Debug)]
pub struct Owner {
    pub name: String,
    pub url: Option<String>,
}

impl Node {
    /// The URL node `name` advertised, as last read; read again when it is not known (a node
    /// that joined since).
    async fn url_of(&self, name: &str) -> Option<String> {
        if name == self.name {
            return Some(self.url.clone());
        }
        let known = |node: &Node| node.urls.read().unwrap_or_else(|e| e.into_inner()).get(name).cloned();
        if let Some(url) = known(self) {
            return Some(url);
        }
        lease::read_members(self).await;
        known(self)
    }

    /// Who runs game `table`, as far as this node knows (none: no node yet, or the database
    /// did not answer — the hint is left out, never the request failed for it).
    pub async fn owner(&self, table: &crate::table::Table) -> Option<Owner> {
        let name = if table.is_local() {
            self.name.clone()
        } else {
            self.owner_of(&table.id).await.ok().flatten()?
        };
        Some(self.owner_named(&name).await)
    }

    /// [`Node::owner`] of a game on node `name`.
    pub async fn owner_named(&self, name: &str) -> Owner {
        Owner {
            name: name.to_string(),
            url: self.url_of(name).await,
        }
    }
}

/// A lease lost while placing a game: the node is between leases, so the request is retried.
fn lease_error(e: LeaseError) -> ApiError {
    match e {
        LeaseError::Db(e) => ApiError::Storage(e),
        LeaseError::Lost(_) | LeaseError::Held(_) => ApiError::Moved,
    }
}
