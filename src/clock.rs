//! The time the server acts at, passed in rather than read from the system where it is used, so that a
//! test, a fuzzer or a replay can run the server at any time they choose, and a long-running listener
//! reads the time afresh for each mail.
//!
//! The server reads its clock once as each mail or shell command begins and uses that one time for
//! everything the command does (the move's date, the reply's Date header, the throttle's window).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// A source of the current time, in unix seconds.
pub trait Clock: Send + Sync {
    /// The time now, in unix seconds.
    fn now(&self) -> i64;
}

/// The system's time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        chrono::Utc::now().timestamp()
    }
}

/// A clock that stands still until it is set: tests, fuzzers, and the binary under `PBEM_NOW`.
#[derive(Debug, Default)]
pub struct FixedClock(AtomicI64);

impl FixedClock {
    /// A clock that reads `now` until [`FixedClock::set`] moves it.
    pub fn new(now: i64) -> FixedClock {
        FixedClock(AtomicI64::new(now))
    }

    /// Moves the clock to `now` (forwards or back).
    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::Relaxed);
    }
}

impl Clock for FixedClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The binary's clock: `PBEM_NOW` (unix seconds) if that is set, for demos and tests that need a
/// known date, else the system time. Refuses a `PBEM_NOW` that is not a number.
pub fn from_env() -> Result<Arc<dyn Clock>, String> {
    from_value(std::env::var("PBEM_NOW").ok().as_deref())
}

/// [`from_env`] with the value of `PBEM_NOW` given (`None`: not set).
pub fn from_value(now: Option<&str>) -> Result<Arc<dyn Clock>, String> {
    match now {
        Some(v) => v
            .trim()
            .parse()
            .map(|n| Arc::new(FixedClock::new(n)) as Arc<dyn Clock>)
            .map_err(|_| format!("PBEM_NOW must be unix seconds, like 1795000000; it is '{v}'")),
        None => Ok(Arc::new(SystemClock)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_stands_still_until_set() {
        let c = FixedClock::new(1_795_000_000);
        assert_eq!(c.now(), 1_795_000_000);
        assert_eq!(c.now(), 1_795_000_000);
        c.set(1_795_086_400);
        assert_eq!(c.now(), 1_795_086_400);
    }

    #[test]
    fn the_system_clock_is_after_this_code_was_written() {
        // 2026-01-01: a clock that reads 0 or an old date would fail here.
        assert!(SystemClock.now() > 1_767_225_600);
    }
}
