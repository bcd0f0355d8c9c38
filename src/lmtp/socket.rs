//! The sockets of `pbem lmtp`: the listener (a Unix socket file or a TCP port) and a client
//! connection, with who is on its other end ([`Peer`]).

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::slots::Peer;
use crate::config::Listen;

/// A listening socket.
pub(super) enum Listener {
    /// The socket file (removed at the end if it is still ours) and its inode.
    Unix(UnixListener, PathBuf, (u64, u64)),
    Tcp(TcpListener),
}

impl Listener {
    pub(super) fn bind(listen: &Listen) -> Result<Listener, String> {
        match listen {
            Listen::Inet(addr) => TcpListener::bind(addr.as_str())
                .map(Listener::Tcp)
                .map_err(|e| format!("cannot listen on inet:{addr}: {e}")),
            Listen::Unix(path) => bind_unix(path),
        }
    }

    pub(super) fn address(&self) -> String {
        match self {
            Listener::Unix(_, p, _) => format!("unix:{}", p.display()),
            Listener::Tcp(l) => match l.local_addr() {
                Ok(a) => format!("inet:{a}"),
                Err(_) => "inet:?".into(),
            },
        }
    }

    pub(super) fn fd(&self) -> RawFd {
        match self {
            Listener::Unix(l, _, _) => l.as_raw_fd(),
            Listener::Tcp(l) => l.as_raw_fd(),
        }
    }

    /// The next connection and who it comes from.
    pub(super) fn accept(&self) -> io::Result<(Conn, Peer)> {
        match self {
            Listener::Unix(l, _, _) => l.accept().map(|(s, _)| {
                let peer = unix_peer(&s);
                (Conn::Unix(s), peer)
            }),
            Listener::Tcp(l) => l.accept().map(|(s, from)| {
                // Replies are short and the client waits for each: no Nagle delay.
                let _ = s.set_nodelay(true);
                (Conn::Tcp(s), Peer::of_ip(from.ip()))
            }),
        }
    }

    /// Stops listening; a Unix socket file is removed unless another server has taken its place.
    pub(super) fn close(self) {
        if let Listener::Unix(l, path, id) = self {
            drop(l);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| (m.dev(), m.ino()) == id) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// The local user on the other end of a Unix socket (`SO_PEERCRED`), so that another user's
/// connections do not count against the MTA's.
fn unix_peer(s: &UnixStream) -> Peer {
    #[cfg(target_os = "linux")]
    {
        let mut cred = libc::ucred {
            pid: 0,
            uid: 0,
            gid: 0,
        };
        let mut len = libc::socklen_t::try_from(std::mem::size_of::<libc::ucred>())
            .expect("a ucred's size fits a socklen_t");
        // SAFETY: getsockopt writes at most `len` bytes into `cred`, the ucred that SO_PEERCRED
        // fills, on a descriptor that `s` keeps open.
        let rc = unsafe {
            libc::getsockopt(
                s.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&raw mut cred).cast(),
                &raw mut len,
            )
        };
        if rc == 0 {
            return Peer::Uid(cred.uid);
        }
    }
    let _ = s;
    Peer::Local
}

/// Listens on a Unix socket at `path`: a socket file left by a server that died is removed, one that
/// a running server listens on is left alone and refused.
fn bind_unix(path: &Path) -> Result<Listener, String> {
    let shown = path.display();
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_socket() => {
            if UnixStream::connect(path).is_ok() {
                return Err(format!(
                    "another process is listening on {shown}: stop it first, or give this one \
                     another socket with --listen unix:PATH or [lmtp] listen"
                ));
            }
            std::fs::remove_file(path)
                .map_err(|e| format!("cannot remove the stale socket {shown}: {e}"))?;
        }
        Ok(_) => {
            return Err(format!(
                "{shown} exists and is not a socket: move it away, or choose another path with \
                 --listen unix:PATH or [lmtp] listen"
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot look at {shown}: {e}")),
    }
    let l = UnixListener::bind(path).map_err(|e| {
        format!("cannot listen on unix:{shown}: {e} (the folder must exist and be writable)")
    })?;
    // Anyone who may reach the socket may deliver to it, as anyone may mail the server: who reaches
    // it is decided by the folder's rights.
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666));
    let id = std::fs::symlink_metadata(path)
        .map(|m| (m.dev(), m.ino()))
        .map_err(|e| format!("cannot look at {shown}: {e}"))?;
    Ok(Listener::Unix(l, path.to_path_buf(), id))
}

/// A client connection.
pub(super) enum Conn {
    Unix(UnixStream),
    Tcp(TcpStream),
}

impl Conn {
    pub(super) fn try_clone(&self) -> io::Result<Conn> {
        match self {
            Conn::Unix(s) => s.try_clone().map(Conn::Unix),
            Conn::Tcp(s) => s.try_clone().map(Conn::Tcp),
        }
    }

    /// Ends the input of the connection, which wakes the thread waiting on it.
    pub(super) fn shut_down_reading(&self) {
        let _ = match self {
            Conn::Unix(s) => s.shutdown(std::net::Shutdown::Read),
            Conn::Tcp(s) => s.shutdown(std::net::Shutdown::Read),
        };
    }

    /// Ends the connection both ways, whoever else holds a handle on it.
    pub(super) fn shut_down_both(&self) {
        let _ = match self {
            Conn::Unix(s) => s.shutdown(std::net::Shutdown::Both),
            Conn::Tcp(s) => s.shutdown(std::net::Shutdown::Both),
        };
    }

    /// Ends the output of the connection: the client reads the end after the last reply.
    pub(super) fn shut_down_writing(&self) {
        let _ = match self {
            Conn::Unix(s) => s.shutdown(std::net::Shutdown::Write),
            Conn::Tcp(s) => s.shutdown(std::net::Shutdown::Write),
        };
    }

    pub(super) fn set_write_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Conn::Unix(s) => s.set_write_timeout(t),
            Conn::Tcp(s) => s.set_write_timeout(t),
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Unix(s) => s.read(buf),
            Conn::Tcp(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Unix(s) => s.write(buf),
            Conn::Tcp(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl AsRawFd for Conn {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Conn::Unix(s) => s.as_raw_fd(),
            Conn::Tcp(s) => s.as_raw_fd(),
        }
    }
}
