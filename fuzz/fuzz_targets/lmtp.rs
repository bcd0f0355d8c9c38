//! The LMTP protocol state machine (`pbem lmtp`), without sockets.
//!
//! The input is a client's byte stream; its first byte picks the sizes of the reads it arrives in
//! (so that lines and the end-of-message dot fall across reads) and its second whether the server
//! starts shutting down half way. Properties: no panic; what the session holds never exceeds its
//! bound; a delivered message is never longer than `max_message_bytes + 1`; every reply is whole lines
//! with a code; one reply per recipient after a message; after a shutdown nothing but 421 comes out
//! of a command; the same stream cut into reads differently gives the same conversation.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::lmtp::protocol::{Session, Step, Verdict};

const MAX: usize = 1024;

/// Runs `stream` through a session in reads of `chunk` bytes: the replies and the messages.
fn talk(stream: &[u8], chunk: usize, shutdown_at: Option<usize>) -> (String, Vec<Vec<u8>>) {
    let mut s = Session::new("fuzz.example", MAX);
    let (mut out, mut mails) = (String::new(), Vec::new());
    for (i, piece) in stream.chunks(chunk).enumerate() {
        if shutdown_at == Some(i) {
            s.shut_down();
        }
        let shutting = shutdown_at.is_some_and(|at| i >= at);
        let mut rest = piece;
        while let Some(step) = s.feed(&mut rest) {
            assert!(s.held_bytes() <= Session::max_held_bytes(MAX));
            match step {
                Step::Reply(r) | Step::Close(r) => {
                    assert!(r.ends_with("\r\n"), "{r:?}");
                    for line in r.lines() {
                        assert!(line.len() >= 4 && line.as_bytes()[..3].iter().all(u8::is_ascii_digit));
                    }
                    if shutting && !r.starts_with("500 5.5.2 line too long") {
                        assert!(r.ends_with("421 4.3.2 shutting down\r\n"), "{r:?}");
                    }
                    out.push_str(&r);
                }
                Step::Deliver(m) => {
                    assert!(m.raw.len() <= MAX + 1 && m.size >= m.raw.len());
                    assert!(!m.recipients.is_empty());
                    let replies = s.delivered(&Verdict::Accepted("ok".into()));
                    assert_eq!(replies.lines().count(), m.recipients.len());
                    out.push_str(&replies);
                    mails.push(m.raw);
                }
            }
        }
        assert!(s.held_bytes() <= Session::max_held_bytes(MAX));
        if s.is_closed() {
            break;
        }
    }
    (out, mails)
}

fuzz_target!(|data: &[u8]| {
    let [sizes, shut, stream @ ..] = data else {
        return;
    };
    let chunk = usize::from(*sizes % 64) + 1;
    let shutdown_at = (*shut & 1 == 1).then_some(usize::from(*shut >> 1));
    let cut = talk(stream, chunk, shutdown_at);
    if shutdown_at.is_none() {
        assert_eq!(cut, talk(stream, stream.len().max(1), None), "the reads changed the conversation");
    }
});
