//! How many analyses run at once on this server, and how many may wait for a place: an
//! engine search is a core's work for the whole request, so both are bounded, and a request
//! beyond them is refused at once rather than left to wait without end.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub struct Places {
    running: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    queue: usize,
}

/// A request's turn: a place now, or a place in the queue.
pub enum Turn {
    Now(OwnedSemaphorePermit),
    Later(Ticket),
}

/// A place in the queue, given back when dropped (the request ended or got its place).
pub struct Ticket {
    waiting: Arc<AtomicUsize>,
    running: Arc<Semaphore>,
    /// How many were waiting before this one.
    pub ahead: usize,
}

impl Places {
    /// `running` analyses at once (at least one), `queue` more waiting.
    pub fn new(running: usize, queue: usize) -> Places {
        Places {
            running: Arc::new(Semaphore::new(running.clamp(1, Semaphore::MAX_PERMITS))),
            waiting: Arc::new(AtomicUsize::new(0)),
            queue,
        }
    }

    /// A place to run in, or in the queue; `None` when both are full.
    pub fn enter(&self) -> Option<Turn> {
        if let Ok(permit) = self.running.clone().try_acquire_owned() {
            return Some(Turn::Now(permit));
        }
        let ahead = self
            .waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.queue).then_some(n + 1)
            })
            .ok()?;
        Some(Turn::Later(Ticket {
            waiting: self.waiting.clone(),
            running: self.running.clone(),
            ahead,
        }))
    }
}

impl Ticket {
    /// Waits for a place to run in, leaving the queue once it has one.
    pub async fn wait(self) -> Option<OwnedSemaphorePermit> {
        self.running.clone().acquire_owned().await.ok()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.waiting.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn places_then_queue_then_refused() {
        let places = Places::new(1, 2);
        let Some(Turn::Now(first)) = places.enter() else {
            panic!("a place")
        };
        let Some(Turn::Later(a)) = places.enter() else {
            panic!("queued")
        };
        let Some(Turn::Later(b)) = places.enter() else {
            panic!("queued")
        };
        assert_eq!((a.ahead, b.ahead), (0, 1));
        assert!(places.enter().is_none(), "full");
        // A waiting request that gives up frees its place in the queue.
        drop(b);
        let Some(Turn::Later(c)) = places.enter() else {
            panic!("queued again")
        };
        drop(first);
        let permit = a.wait().await.expect("the freed place");
        assert!(places.enter().is_some_and(|t| matches!(t, Turn::Later(_))));
        drop((permit, c));
    }
}
