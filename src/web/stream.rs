//! A client's TCP stream as hyper sees it: request targets made parseable on the way in
//! ([`TargetEscaper`]), and a write that makes no progress for [`WRITE_STALL`] failing, so that a
//! client that never reads its answers loses its connection instead of holding it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use super::target::TargetEscaper;

/// How long a write may wait for the client to read before the connection is dropped.
pub(super) const WRITE_STALL: Duration = Duration::from_secs(10);

/// Bytes read from the socket at a time.
const CHUNK: usize = 8 * 1024;

/// A client connection: the socket, the rewriting of what it sends, the timer of a stalled write.
pub(super) struct Guarded {
    inner: TcpStream,
    escaper: TargetEscaper,
    /// Rewritten bytes not yet handed to hyper, from `pending_at` on.
    pending: Vec<u8>,
    pending_at: usize,
    /// Armed while a write waits for the client; reset by any progress.
    stall: Option<Pin<Box<Sleep>>>,
}

impl Guarded {
    /// Wraps an accepted socket.
    pub(super) fn new(inner: TcpStream) -> Self {
        Guarded {
            inner,
            escaper: TargetEscaper::default(),
            pending: Vec::new(),
            pending_at: 0,
            stall: None,
        }
    }

    /// What a write returned, with the stall rule applied: pending for longer than [`WRITE_STALL`]
    /// is an error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stall = None;
            return polled;
        }
        let timer = self.stall.get_or_insert_with(|| {
            Box::pin(tokio::time::sleep_until(Instant::now() + WRITE_STALL))
        });
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of its answer for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.pending_at == this.pending.len() {
            let mut raw = [0u8; CHUNK];
            let mut raw_buf = ReadBuf::new(&mut raw);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut raw_buf))?;
            if raw_buf.filled().is_empty() {
                return Poll::Ready(Ok(())); // end of stream
            }
            this.pending.clear();
            this.pending_at = 0;
            this.escaper.push(raw_buf.filled(), &mut this.pending);
        }
        let n = buf.remaining().min(this.pending.len() - this.pending_at);
        buf.put_slice(&this.pending[this.pending_at..this.pending_at + n]);
        this.pending_at += n;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, data);
        this.watch(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.watch(cx, polled)
    }
}
