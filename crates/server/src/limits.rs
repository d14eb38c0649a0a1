//! Rate limits: token buckets per key (a seat, an address), refused with 429 and how long to
//! wait. Every command is logged, refused ones too (fouls count), so a flood of commands would
//! grow a game's log without end; and game creation costs a row each.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// What the server allows; [`Limits::default`] is what `arbiter serve` uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Commands a seat may send per second, sustained (moves, offers, claims …).
    pub actions_per_second: f64,
    /// Commands a seat may send at once, after a pause.
    pub actions_burst: f64,
    /// Games one address may create per minute, sustained, and at once.
    pub creates_per_minute: f64,
    pub creates_burst: f64,
    /// A game in which a side has not made its first move this long after the game was created
    /// (or after the first move) is aborted by the server; `None` keeps such games forever.
    pub abandon_after: Option<Duration>,
    /// Games the computer may play at once on this server (one engine process each): a new
    /// game against it is refused beyond, and a game restored beyond waits for a place.
    pub computer_games: usize,
    /// Analyses (`POST /api/analyse`, one engine process each) run at once on this server,
    /// and how many more may wait for a place; one beyond both is refused (503).
    pub analyses: usize,
    pub analysis_queue: usize,
}

/// Analyses at once by default: each keeps a core busy for the whole request, so half the
/// cores, leaving the rest to the games.
pub fn default_analyses() -> usize {
    (std::thread::available_parallelism().map_or(2, usize::from) / 2).max(1)
}

/// Analyses that may wait for a place by default: a minute or two of waiting at most.
pub const DEFAULT_ANALYSIS_QUEUE: usize = 8;

/// The computer's games at once by default: an engine thinks only on its turn and for well
/// under a second at most levels, while a person thinks for several, so a core serves a few.
pub fn default_computer_games() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from) * 8
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // Far above any person and above an engine at bullet speed; a flood stops here.
            actions_per_second: 50.0,
            actions_burst: 100.0,
            creates_per_minute: 60.0,
            creates_burst: 60.0,
            abandon_after: Some(Duration::from_secs(3600)),
            computer_games: default_computer_games(),
            analyses: default_analyses(),
            analysis_queue: DEFAULT_ANALYSIS_QUEUE,
        }
    }
}

impl Limits {
    /// No limits at all (a load test measuring the server, not its limits).
    pub fn none() -> Limits {
        Limits {
            actions_per_second: f64::INFINITY,
            actions_burst: f64::INFINITY,
            creates_per_minute: f64::INFINITY,
            creates_burst: f64::INFINITY,
            abandon_after: None,
            computer_games: default_computer_games(),
            analyses: default_analyses(),
            analysis_queue: DEFAULT_ANALYSIS_QUEUE,
        }
    }
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Token buckets: each key holds up to `burst` tokens, refilled at `rate` a second.
pub struct Limiter<K> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq> Limiter<K> {
    pub fn new(rate: f64, burst: f64) -> Limiter<K> {
        Limiter {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `key` now, or says (429) how long until one is there.
    pub fn take(&self, key: K) -> Result<(), ApiError> {
        self.take_at(key, Instant::now())
    }

    fn take_at(&self, key: K, now: Instant) -> Result<(), ApiError> {
        if self.rate.is_infinite() {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let b = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        b.tokens = (b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * self.rate).min(self.burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            return Ok(());
        }
        let wait = Duration::from_secs_f64((1.0 - b.tokens) / self.rate);
        Err(ApiError::TooManyRequests(wait))
    }

    /// Forgets the buckets that have refilled (they are the same as no bucket): memory stays
    /// bounded by the keys active lately.
    pub fn sweep(&self) {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        buckets.retain(|_, b| b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * self.rate < self.burst);
    }

    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let l = Limiter::new(10.0, 3.0);
        let t0 = Instant::now();
        for _ in 0..3 {
            l.take_at("a", t0).unwrap();
        }
        let e = l.take_at("a", t0).unwrap_err();
        assert!(
            matches!(&e, ApiError::TooManyRequests(_)) && e.to_string().contains("101 ms"),
            "{e}"
        );
        // Another key has its own bucket.
        l.take_at("b", t0).unwrap();
        // 10 a second: one token back after 100 ms, not two.
        let t1 = t0 + Duration::from_millis(100);
        l.take_at("a", t1).unwrap();
        assert!(l.take_at("a", t1).is_err());
        // Refilled buckets are forgotten; the drained one stays.
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(l.len(), 2);
        let full = Limiter::new(1e9, 3.0);
        full.take_at("x", Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        full.sweep();
        assert!(full.is_empty());
    }

    #[test]
    fn no_limits_never_refuse() {
        let l = Limiter::new(f64::INFINITY, f64::INFINITY);
        let t0 = Instant::now();
        for _ in 0..10_000 {
            l.take_at(1u32, t0).unwrap();
        }
        assert!(l.is_empty());
    }
}
