//! The connection slots of `pbem lmtp`, and who gives one up when they run low (issue 22, item 3).
//!
//! Idle clients must not lock the MTA out. Each open connection has a [`Slot`] that records when it
//! last made progress (it opened, or a message of it was answered) and whether a message of it is
//! being ingested. Two rules use it:
//!
//! * once [`low_mark`] connections are open (three quarters of `max_connections`), a connection
//!   that has made no progress for `busy_idle_timeout_secs` is closed, whatever commands (NOOP,
//!   RSET) it sends meanwhile, and however slowly it sends a message;
//! * when every slot is taken, the connection that made no progress for longest ([`victim`]) is
//!   closed to make room for the new one, so a slot is always free for the MTA.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A connection is closed to make room only once it made no progress for this long: a client that
/// has just connected gets its chance to deliver.
pub const MIN_IDLE_TO_EVICT: Duration = Duration::from_secs(1);

/// How many open connections make the slots "low": three quarters of `max`, at least 1.
pub fn low_mark(max: usize) -> usize {
    (max - max / 4).max(1)
}

/// One open connection, as the accept loop and the connection's thread both see it.
#[derive(Debug)]
pub struct Slot {
    /// The moment everything is measured from.
    epoch: Instant,
    /// Milliseconds from `epoch` to the connection's last progress.
    progress_ms: AtomicU64,
    /// A message of this connection is being ingested: the wait is the server's, not the client's.
    delivering: AtomicBool,
    /// Closed to make room for a new connection.
    evicted: AtomicBool,
}

impl Slot {
    /// A slot for a connection opened at `now`.
    pub fn new(epoch: Instant, now: Instant) -> Slot {
        let s = Slot {
            epoch,
            progress_ms: AtomicU64::new(0),
            delivering: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
        };
        s.progressed(now);
        s
    }

    /// The connection made progress at `now` (a message of it was answered).
    pub fn progressed(&self, now: Instant) {
        let ms = u64::try_from(now.saturating_duration_since(self.epoch).as_millis())
            .unwrap_or(u64::MAX);
        self.progress_ms.store(ms, Ordering::SeqCst);
    }

    /// When the connection last made progress.
    pub fn last_progress(&self) -> Instant {
        self.epoch + Duration::from_millis(self.progress_ms.load(Ordering::SeqCst))
    }

    /// Marks a message of the connection as being ingested (true) or answered (false).
    pub fn set_delivering(&self, on: bool) {
        self.delivering.store(on, Ordering::SeqCst);
    }

    /// True once the connection was chosen to make room.
    pub fn is_evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }

    /// Chooses the connection to make room; false when it was already chosen.
    pub fn evict(&self) -> bool {
        !self.evicted.swap(true, Ordering::SeqCst)
    }

    fn evictable_since(&self, now: Instant) -> Option<Duration> {
        if self.is_evicted() || self.delivering.load(Ordering::SeqCst) {
            return None;
        }
        let idle = now.saturating_duration_since(self.last_progress());
        (idle >= MIN_IDLE_TO_EVICT).then_some(idle)
    }
}

/// Of the open connections, the one to close to make room at `now`: the one without progress for
/// longest, if it is not handing in a message and has had [`MIN_IDLE_TO_EVICT`] to make some.
pub fn victim<'a>(slots: impl IntoIterator<Item = &'a Slot>, now: Instant) -> Option<&'a Slot> {
    slots
        .into_iter()
        .filter_map(|s| s.evictable_since(now).map(|idle| (idle, s)))
        .max_by_key(|(idle, _)| *idle)
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_low_mark_is_three_quarters_of_the_slots() {
        assert_eq!(low_mark(32), 24);
        assert_eq!(low_mark(8), 6);
        assert_eq!(low_mark(4), 3);
        assert_eq!(low_mark(1), 1);
    }

    #[test]
    fn the_victim_is_the_longest_idle_that_is_not_delivering_nor_just_connected() {
        let epoch = Instant::now();
        let at = |s: u64| epoch + Duration::from_secs(s);
        let old = Slot::new(epoch, at(0));
        let older_but_delivering = Slot::new(epoch, at(0));
        older_but_delivering.set_delivering(true);
        let recent = Slot::new(epoch, at(5));
        let fresh = Slot::new(epoch, at(10));
        let now = at(10);
        let all = [&older_but_delivering, &recent, &old, &fresh];
        let chosen = victim(all.iter().copied(), now).unwrap();
        assert!(std::ptr::eq(chosen, &old));
        assert!(old.evict());
        assert!(!old.evict(), "chosen once");
        let chosen = victim(all.iter().copied(), now).unwrap();
        assert!(std::ptr::eq(chosen, &recent));
        // Progress makes a connection young again.
        recent.progressed(now);
        assert!(victim(all.iter().copied(), now).is_none());
        assert!(victim([&fresh], at(10) + MIN_IDLE_TO_EVICT).is_some());
    }
}
