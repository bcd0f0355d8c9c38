//! What pbem needs from the operating system beyond the standard library: who a process is (so that
//! the mail claimed by a process that died is sent at once by the next flush), a sendmail child that
//! dies with its parent (so that a killed pbem cannot leave a delivery half-recorded behind it), and
//! why the database cannot be written (so that the MTA is told to retry and the admin what to fix).
//!
//! Everything here is Linux-first: elsewhere the process identity is unknown (claims fall back to the
//! stale-claim rule) and the child is not tied to its parent.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A process as the kernel tells it apart from any later process with the same pid: its pid and its
/// start time, together with the boot and pid namespace both are valid in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessId {
    /// The pid.
    pub pid: i64,
    /// `<boot id>/<pid namespace>/<start time in clock ticks since boot>` (field 22 of
    /// `/proc/PID/stat`).
    pub start: String,
}

/// Whether the process that claimed a mail is still running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liveness {
    /// Still running: it will send or release the mail itself.
    Alive,
    /// Gone (its pid is free, reused by another process, or a zombie): the mail is orphaned.
    Dead,
    /// Cannot be told from here (another boot, another pid namespace or host, no `/proc`).
    Unknown,
}

impl ProcessId {
    /// This process, or `None` where `/proc` cannot tell.
    pub fn current() -> Option<ProcessId> {
        let pid = i64::from(std::process::id());
        let (_, ticks) = stat_of("self")?;
        Some(ProcessId {
            pid,
            start: format!("{}/{ticks}", host_key()?),
        })
    }

    /// The process `pid` (a child just started), or `None` where `/proc` cannot tell.
    pub fn of(pid: u32) -> Option<ProcessId> {
        let (_, ticks) = stat_of(&pid.to_string())?;
        Some(ProcessId {
            pid: i64::from(pid),
            start: format!("{}/{ticks}", host_key()?),
        })
    }

    /// Whether the process `pid` that started at `start` (as [`ProcessId::start`]) still runs.
    pub fn liveness(pid: i64, start: &str) -> Liveness {
        let Some((host, ticks)) = start.rsplit_once('/') else {
            return Liveness::Unknown;
        };
        let (Ok(ticks), Ok(pid_t)) = (ticks.parse::<u64>(), libc::pid_t::try_from(pid)) else {
            return Liveness::Unknown;
        };
        if pid_t <= 0 || host_key().as_deref() != Some(host) {
            return Liveness::Unknown;
        }
        match stat_of(&pid.to_string()) {
            // A zombie has finished: whatever it did not record, it never will.
            Some(('Z' | 'X' | 'x', _)) => Liveness::Dead,
            Some((_, t)) if t == ticks => Liveness::Alive,
            Some(_) => Liveness::Dead,
            None => {
                // /proc mounted with hidepid hides other users' processes: only "no such process"
                // proves it is gone.
                // SAFETY: signal 0 only checks that the pid exists and may be signalled.
                let r = unsafe { libc::kill(pid_t, 0) };
                if r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
                    Liveness::Dead
                } else {
                    Liveness::Unknown
                }
            }
        }
    }
}

/// The boot and pid namespace a pid means something in: a pid of another boot, container or host
/// cannot be looked up here.
fn host_key() -> Option<String> {
    let boot = fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let ns = fs::read_link("/proc/self/ns/pid").ok()?;
    Some(format!("{}/{}", boot.trim(), ns.display()))
}

/// The state letter and start time (field 3 and field 22) of `/proc/WHO/stat`.
fn stat_of(who: &str) -> Option<(char, u64)> {
    let text = fs::read_to_string(format!("/proc/{who}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
    let (_, rest) = text.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let start = fields.get(22 - 3)?.parse().ok()?;
    Some((state, start))
}

/// Makes the child of `cmd` die (SIGKILL) when this process dies, and gives it the default action of
/// SIGXFSZ back (this process ignores it, see [`ignore_file_size_signal`]).
///
/// A sendmail-compatible program delivers only after it has read the whole message and seen the end
/// of its input; killed before, it delivers nothing. So when pbem is killed while its sendmail runs,
/// the child dies too and the mail, still unsent in the outbox, goes out once with the next flush.
/// Only a kill in the short moment between the child's delivery and pbem's record of it still sends
/// the mail twice. The kernel drops this tie when the child executes a set-user-ID program (Exim's
/// sendmail often is one).
#[cfg(target_os = "linux")]
pub fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe functions
    // (prctl, getppid, signal, _exit); it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died between fork and prctl: the signal it set up will never come.
            if libc::getppid() != parent {
                libc::_exit(75);
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            Ok(())
        });
    }
}

/// Elsewhere the child outlives a killed parent; the claim on its mail is then taken over by the
/// stale-claim rule.
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_cmd: &mut Command) {}

/// Turns off Nagle's algorithm (sets TCP_NODELAY) on every TCP socket this process holds. The SMTP
/// client (lettre) gives no access to its socket, and pbem holds no other TCP socket, so the SMTP
/// transport calls this once it is connected.
#[cfg(target_os = "linux")]
pub fn tcp_nodelay_on_all_sockets() {
    let Ok(entries) = fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<libc::c_int> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    for fd in fds {
        let mut protocol: libc::c_int = 0;
        let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: `protocol` and `len` are valid out-pointers of the sizes given; on a descriptor
        // that is not a socket (or was the closed directory handle) the call just fails.
        let is_tcp = unsafe {
            libc::getsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_PROTOCOL,
                (&raw mut protocol).cast(),
                &mut len,
            )
        } == 0
            && protocol == libc::IPPROTO_TCP;
        if is_tcp {
            let one: libc::c_int = 1;
            // SAFETY: `one` is a valid c_int for the length given.
            unsafe {
                libc::setsockopt(
                    fd,
                    libc::IPPROTO_TCP,
                    libc::TCP_NODELAY,
                    (&raw const one).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                );
            }
        }
    }
}

/// Elsewhere the SMTP transport keeps Nagle's algorithm.
#[cfg(not(target_os = "linux"))]
pub fn tcp_nodelay_on_all_sockets() {}

/// Ignores SIGXFSZ, so that a file-size limit (`ulimit -f`) makes a write fail with EFBIG, which
/// SQLite reports and pbem turns into exit status 75, instead of killing the process (the MTA would
/// then see a signal, not "try again later").
pub fn ignore_file_size_signal() {
    // SAFETY: setting a signal to SIG_IGN installs no handler and races with nothing in this
    // single-threaded start of the program.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Why the database cannot be written, in words an admin can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unwritable {
    /// The database file, absolute.
    pub path: PathBuf,
    /// What is wrong (`permission denied: ...`, `the disk is full: ...`).
    pub why: String,
    /// What to do about it.
    pub fix: String,
}

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write the database {} ({}): {}",
            self.path.display(),
            self.why,
            self.fix
        )
    }
}

/// Below this much free space a failed write is blamed on a full disk: pbem's transactions are a few
/// pages, so a file system with more than this left did not fail for lack of room.
const FULL_BELOW_BYTES: u64 = 1 << 20;
/// A file within this distance of the file-size limit is taken to have hit it (a WAL frame, the 32 KiB
/// shared-memory file, with room to spare).
const LIMIT_MARGIN_BYTES: u64 = 1 << 20;

/// Looks, after SQLite failed to open or write the database at `path`, for a cause an admin can fix:
/// a missing folder, a file or folder this user may not write, a read-only file system, a full disk,
/// a file-size limit. `None` when none of them is found.
pub fn diagnose_database(path: &Path) -> Option<Unwritable> {
    let configured = path;
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("/"),
    };
    let user = user_name();
    let found = |why: String, fix: String| {
        Some(Unwritable {
            path: path.clone(),
            why,
            fix,
        })
    };
    match fs::metadata(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return found(
                format!("its folder {} does not exist", dir.display()),
                relative_fix(configured, &dir).unwrap_or_else(|| {
                    format!(
                        "create it (mkdir -p {}) and give {user} write access to it",
                        dir.display()
                    )
                }),
            );
        }
        Ok(m) if !m.is_dir() => {
            return found(
                format!("{} is not a folder", dir.display()),
                "set [database] path to a file in a folder".to_string(),
            );
        }
        _ => {}
    }
    let fs_info = statvfs(&dir);
    if fs_info.as_ref().is_some_and(|s| s.read_only) {
        return found(
            format!("the file system of {} is read-only", dir.display()),
            "remount it read-write, or set [database] path to a writable place".to_string(),
        );
    }
    let wal = sibling(&path, "-wal");
    let shm = sibling(&path, "-shm");
    for file in [&path, &wal, &shm] {
        if file.exists() && !may(file, libc::W_OK | libc::R_OK) {
            let why = if file == &path {
                format!("permission denied for {user}")
            } else {
                format!("permission denied for {user} on {}", file.display())
            };
            return found(
                why,
                relative_fix(configured, &dir)
                    .unwrap_or_else(|| "give that user write access to it and its folder".into()),
            );
        }
    }
    if !may(&dir, libc::W_OK | libc::X_OK) {
        return found(
            format!(
                "permission denied for {user} on its folder {}, where SQLite keeps the -wal and \
                 -shm files",
                dir.display()
            ),
            relative_fix(configured, &dir).unwrap_or_else(|| {
                "give that user write access to the folder and the database file".into()
            }),
        );
    }
    if let Some(s) = &fs_info
        && s.free_bytes < FULL_BELOW_BYTES
    {
        return found(
            format!(
                "the disk is full: {} KiB free for {user} on the file system of {}",
                s.free_bytes / 1024,
                dir.display()
            ),
            "free space on that file system".to_string(),
        );
    }
    if let Some(limit) = file_size_limit() {
        let largest = [&path, &wal, &shm]
            .iter()
            .filter_map(|f| fs::metadata(f).ok())
            .map(|m| m.len())
            .max()
            .unwrap_or(0);
        if largest.saturating_add(LIMIT_MARGIN_BYTES) > limit {
            return found(
                format!("the file-size limit (ulimit -f) of {limit} bytes is reached"),
                "raise or remove the limit for the program that runs pbem (the MTA's pipe \
                 service, cron)"
                    .to_string(),
            );
        }
    }
    None
}

/// The fix when the database's path was given relative (`[database] path = "pbem.sqlite"`, the
/// default): its folder is then only the working directory of whatever started pbem (an MTA's is its
/// queue folder), whose rights are not to be changed. The setting is what to fix. `None` for an
/// absolute path.
fn relative_fix(configured: &Path, dir: &Path) -> Option<String> {
    configured.is_relative().then(|| {
        let cwd = std::env::current_dir().unwrap_or_else(|_| dir.to_path_buf());
        format!(
            "the path {:?} is relative, so it lies in the working directory {} of the program that \
             started pbem (an MTA's is its queue folder); set [database] path in the configuration \
             file (or --db) to an absolute path in a folder of the pbem user, e.g. \
             path = \"/var/lib/pbem/pbem.sqlite\"",
            configured.display().to_string(),
            cwd.display()
        )
    })
}

/// `FILE-wal`, `FILE-shm`: the files SQLite keeps next to a database in WAL mode.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

fn c_path(path: &Path) -> Option<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes()).ok()
}

/// True when this process (its effective ids, as the kernel checks them on open) may access `path`
/// in `mode`.
fn may(path: &Path, mode: libc::c_int) -> bool {
    let Some(c) = c_path(path) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), mode, libc::AT_EACCESS) == 0 }
}

struct FsInfo {
    read_only: bool,
    /// Bytes this user may still write (root may use the reserved blocks too).
    free_bytes: u64,
}

// The block counts and limits are 32 bits wide on some targets.
#[allow(clippy::useless_conversion)]
fn statvfs(dir: &Path) -> Option<FsInfo> {
    let c = c_path(dir)?;
    // SAFETY: an all-zero statvfs is a valid value of the plain C struct.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid path and `s` a valid out-pointer for the call.
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    // SAFETY: geteuid cannot fail.
    let blocks = if unsafe { libc::geteuid() } == 0 {
        s.f_bfree
    } else {
        s.f_bavail
    };
    Some(FsInfo {
        read_only: s.f_flag & libc::ST_RDONLY != 0,
        free_bytes: u64::from(blocks).saturating_mul(u64::from(s.f_frsize)),
    })
}

/// The file-size limit of this process in bytes (`ulimit -f`), if there is one.
#[allow(clippy::useless_conversion)]
fn file_size_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `r` is a valid out-pointer.
    if unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut r) } != 0
        || r.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    Some(u64::from(r.rlim_cur))
}

/// `user NAME (uid N)` for the effective user: the one who needs the access.
fn user_name() -> String {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let mut buf = vec![0u8; 4096];
    // SAFETY: an all-zero passwd is a valid value of the plain C struct.
    let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call and `buf` is as long as we say.
    let rc = unsafe {
        libc::getpwuid_r(
            uid,
            &mut pw,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut result,
        )
    };
    if rc == 0 && !result.is_null() && !pw.pw_name.is_null() {
        // SAFETY: getpwuid_r succeeded, so pw_name points at a NUL-terminated string inside `buf`.
        let name = unsafe { std::ffi::CStr::from_ptr(pw.pw_name) };
        format!("user {} (uid {uid})", name.to_string_lossy())
    } else {
        format!("uid {uid}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_made_up_start_time_is_not() {
        let me = ProcessId::current().expect("Linux has /proc");
        assert_eq!(ProcessId::liveness(me.pid, &me.start), Liveness::Alive);
        let (host, ticks) = me.start.rsplit_once('/').unwrap();
        let other = format!("{host}/{}", ticks.parse::<u64>().unwrap() + 1);
        assert_eq!(ProcessId::liveness(me.pid, &other), Liveness::Dead);
        assert_eq!(
            ProcessId::liveness(me.pid, &format!("other-boot/ns/{ticks}")),
            Liveness::Unknown
        );
        assert_eq!(ProcessId::liveness(me.pid, "junk"), Liveness::Unknown);
    }

    #[test]
    fn a_reaped_child_is_dead() {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = i64::from(child.id());
        let start = stat_of(&pid.to_string()).map(|(_, t)| t);
        child.wait().unwrap();
        let host = host_key().unwrap();
        if let Some(t) = start {
            assert_eq!(
                ProcessId::liveness(pid, &format!("{host}/{t}")),
                Liveness::Dead
            );
        }
    }

    #[test]
    fn a_missing_folder_is_named() {
        let d = diagnose_database(Path::new("/nonexistent-pbem-dir/x/pbem.sqlite")).unwrap();
        assert_eq!(
            d.to_string().split(" (").next().unwrap(),
            "cannot write the database /nonexistent-pbem-dir/x/pbem.sqlite"
        );
        assert!(
            d.why.contains("/nonexistent-pbem-dir/x does not exist"),
            "{d}"
        );
        assert!(d.fix.starts_with("create it (mkdir -p"), "{d}");
    }

    #[test]
    fn a_healthy_folder_has_no_diagnosis() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(diagnose_database(&dir.path().join("pbem.sqlite")), None);
    }
}
