//! The computer's games on this server: at most one engine a game, and a bounded number at
//! once, so a flood of games against the computer cannot start an engine process each.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Engines;

pub struct Computers {
    engines: OnceLock<Engines>,
    /// The games whose computer plays from this server now.
    playing: Mutex<HashSet<String>>,
    places: Arc<Semaphore>,
    limit: usize,
}

impl Computers {
    pub fn new(limit: usize) -> Computers {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Computers {
            engines: OnceLock::new(),
            playing: Mutex::new(HashSet::new()),
            places: Arc::new(Semaphore::new(limit)),
            limit,
        }
    }

    /// The engine, found on first use.
    pub fn engines(&self) -> &Engines {
        self.engines.get_or_init(|| Engines::find(None))
    }

    /// How many games the computer may play at once here.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether a new game could have the computer now.
    pub fn has_room(&self) -> bool {
        self.places.available_permits() > 0
    }

    /// Marks game `id`'s computer as playing from here; false if it already does.
    pub(super) fn enter(&self, id: &str) -> bool {
        self.lock().insert(id.to_string())
    }

    pub(super) fn leave(&self, id: &str) {
        self.lock().remove(id);
    }

    /// A place to play in, waiting for one to free up if need be.
    pub(super) async fn place(&self) -> Option<OwnedSemaphorePermit> {
        self.places.clone().acquire_owned().await.ok()
    }

    /// How many games the computer plays from here now.
    pub fn playing(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.playing.lock().unwrap_or_else(|e| e.into_inner())
    }
}
