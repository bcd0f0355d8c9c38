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
//!
//! A client that keeps reopening connections never leaves one idle long enough to be closed, so a
//! third rule (issue 34, item 5) keeps one [`Peer`] from taking every slot: it may hold at most
//! `max_connections_per_peer` of them (by default [`low_mark`], three quarters), the rest stay for
//! everyone else.

use std::fmt;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A connection is closed to make room only once it made no progress for this long: a client that
/// has just connected gets its chance to deliver.
pub const MIN_IDLE_TO_EVICT: Duration = Duration::from_secs(1);

/// How many open connections make the slots "low": three quarters of `max`, at least 1.
pub fn low_mark(max: usize) -> usize {
    (max - max / 4).max(1)
}

/// Who a connection comes from, as far as sharing the slots goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Peer {
    /// An IPv4 address (an IPv6-mapped one included).
    V4(std::net::Ipv4Addr),
    /// The first 64 bits of an IPv6 address: one host usually has a whole /64 to choose from.
    V6(u64),
    /// A process on this machine, on the Unix socket, by its user id: Postfix's `lmtp` runs as
    /// `postfix`, another local user is another peer.
    Uid(u32),
    /// A client on the Unix socket whose user could not be read.
    Local,
}

impl Peer {
    /// The peer of a TCP connection from `ip`.
    pub fn of_ip(ip: IpAddr) -> Peer {
        match ip {
            IpAddr::V4(v4) => Peer::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Peer::V4(v4),
                None => Peer::V6((u128::from(v6) >> 64) as u64),
            },
        }
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Peer::V4(ip) => write!(f, "{ip}"),
            Peer::V6(prefix) => {
                let ip = std::net::Ipv6Addr::from(u128::from(*prefix) << 64);
                write!(f, "{ip}/64")
            }
            Peer::Uid(uid) => write!(f, "uid {uid}"),
            Peer::Local => f.write_str("the Unix socket"),
        }
    }
}

/// The connections one peer may hold: `[lmtp] max_connections_per_peer`, or three quarters of
/// `max_connections` (24 of 32: more than Postfix's `lmtp_destination_concurrency_limit` of 20).
pub fn per_peer(cfg: &crate::config::LmtpConfig) -> usize {
    cfg.max_connections_per_peer
        .unwrap_or_else(|| low_mark(cfg.max_connections))
}

/// True when a new connection of `peer` would hold more than `per_peer` slots: it is refused,
/// whatever is free, so that one peer cannot take the slots that other peers' mail needs.
pub fn peer_is_full<'a>(
    slots: impl IntoIterator<Item = &'a Slot>,
    peer: Peer,
    per_peer: usize,
) -> bool {
    slots
        .into_iter()
        .filter(|s| s.peer == peer && !s.is_evicted())
        .count()
        >= per_peer
}

/// One open connection, as the accept loop and the connection's thread both see it.
#[derive(Debug)]
pub struct Slot {
    /// Where the connection comes from.
    peer: Peer,
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
    /// A slot for a connection from `peer` opened at `now`.
    pub fn new(epoch: Instant, now: Instant, peer: Peer) -> Slot {
        let s = Slot {
            peer,
            epoch,
            progress_ms: AtomicU64::new(0),
            delivering: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
        };
        s.progressed(now);
        s
    }

    /// Where the connection comes from.
    pub fn peer(&self) -> Peer {
        self.peer
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
        let old = Slot::new(epoch, at(0), Peer::Local);
        let older_but_delivering = Slot::new(epoch, at(0), Peer::Local);
        older_but_delivering.set_delivering(true);
        let recent = Slot::new(epoch, at(5), Peer::Local);
        let fresh = Slot::new(epoch, at(10), Peer::Local);
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

    #[test]
    fn peers_are_addresses_v6_prefixes_or_local_users_and_each_has_its_cap() {
        let ip = |s: &str| Peer::of_ip(s.parse().unwrap());
        assert_eq!(ip("192.0.2.7"), ip("::ffff:192.0.2.7"));
        assert_ne!(ip("192.0.2.7"), ip("192.0.2.8"));
        // One /64 is one peer: its host picks any address in it.
        assert_eq!(ip("2001:db8:1:2::1"), ip("2001:db8:1:2:ffff::9"));
        assert_ne!(ip("2001:db8:1:2::1"), ip("2001:db8:1:3::1"));
        assert_eq!(ip("2001:db8:1:2::1").to_string(), "2001:db8:1:2::/64");
        assert_eq!(Peer::Uid(107).to_string(), "uid 107");

        let now = Instant::now();
        let flood: Vec<Slot> = (0..3)
            .map(|_| Slot::new(now, now, ip("192.0.2.7")))
            .collect();
        let mta = Slot::new(now, now, Peer::Uid(107));
        let all = || flood.iter().chain([&mta]);
        assert!(peer_is_full(all(), ip("192.0.2.7"), 3));
        assert!(!peer_is_full(all(), ip("192.0.2.7"), 4));
        assert!(!peer_is_full(all(), Peer::Uid(107), 3));
        assert!(!peer_is_full(all(), ip("192.0.2.8"), 1));
        // A connection closed to make room no longer counts.
        flood[0].evict();
        assert!(!peer_is_full(all(), ip("192.0.2.7"), 3));
    }

    #[test]
    fn the_cap_per_peer_is_three_quarters_unless_set() {
        let mut cfg = crate::config::LmtpConfig::default();
        assert_eq!(per_peer(&cfg), 24);
        cfg.max_connections = 8;
        assert_eq!(per_peer(&cfg), 6);
        cfg.max_connections_per_peer = Some(8);
        assert_eq!(per_peer(&cfg), 8);
    }
}
