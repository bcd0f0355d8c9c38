//! Temporary folders and snapshot files for the tests, written here instead of taken from tempfile
//! and insta, whose dependencies (rustix, console, similar and more) the first `cargo test` compiled
//! (README "Tests"). The unit tests use it as `crate::scratch`; the end-to-end tests and the
//! benchmarks include this same file (it needs only std).

#![allow(dead_code)]

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A folder under the system's temporary folder, removed with everything in it when dropped.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Where the folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // A test that fails leaves nothing worse than a folder in /tmp: no panic in a drop.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Makes a new, empty folder under the system's temporary folder, with a name that no other test of
/// this process (a counter) or other process (the process id, the clock) uses.
pub fn tempdir() -> std::io::Result<TempDir> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("pbem-test-{}-{n}-{nanos:09}", std::process::id()));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(TempDir { path }),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Compares `text` with the snapshot file `DIR/NAME.snap` (`DIR` from the folder of the package under
/// test, which cargo names in `CARGO_MANIFEST_DIR` when it runs a test and makes the test's working
/// folder), as insta
/// wrote them: a header between two `---` lines, then the text; trailing white space and line ends
/// do not count. A missing or different snapshot fails the test and writes `NAME.snap.new` beside it
/// to look at (accept it by renaming it, or run with `PBEM_UPDATE_SNAPSHOTS=1` to write the snapshots).
#[track_caller]
pub fn assert_snapshot(dir: &str, name: &str, text: &str) {
    // Read when the test runs, not when this crate was built: the folder is the caller's package's.
    let package = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(PathBuf::new, PathBuf::from);
    let folder = package.join(dir);
    let file = folder.join(format!("{name}.snap"));
    let want = std::fs::read_to_string(&file).ok().map(|s| body(&s));
    let got = normal(text);
    if want.as_deref() == Some(got.as_str()) {
        return;
    }
    let written = format!("---\nsource: {dir}\n---\n{got}\n");
    if std::env::var_os("PBEM_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(&file, written).unwrap();
        return;
    }
    let new = folder.join(format!("{name}.snap.new"));
    let _ = std::fs::write(&new, written);
    match want {
        None => panic!(
            "no snapshot {}; the text is in {} (PBEM_UPDATE_SNAPSHOTS=1 writes it)",
            file.display(),
            new.display()
        ),
        Some(want) => {
            let line = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(got.lines().count()));
            panic!(
                "{} differs from line {}:\n  snapshot: {:?}\n  now:      {:?}\nthe new text is in {}",
                file.display(),
                line + 1,
                want.lines().nth(line).unwrap_or("(ends)"),
                got.lines().nth(line).unwrap_or("(ends)"),
                new.display()
            )
        }
    }
}

/// The text of a snapshot file: what follows its header.
fn body(file: &str) -> String {
    let file = file.replace("\r\n", "\n");
    let text = file
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n").map(|(_, text)| text))
        .unwrap_or(&file);
    normal(text)
}

fn normal(text: &str) -> String {
    text.replace("\r\n", "\n").trim_end().to_string()
}

#[cfg(test)]
mod tests {
    // Paths instead of `use super::*`: the benchmarks include this file, and their build drops the
    // tests, which left the import unused.
    #[test]
    fn a_temporary_folder_is_new_and_goes_when_dropped() {
        let a = super::tempdir().unwrap();
        let b = super::tempdir().unwrap();
        assert_ne!(a.path(), b.path());
        std::fs::write(a.path().join("x"), "y").unwrap();
        let kept = a.path().to_path_buf();
        drop(a);
        assert!(!kept.exists());
        assert!(b.path().is_dir());
    }

    #[test]
    fn a_snapshot_is_its_text_after_the_header() {
        assert_eq!(
            super::body("---\nsource: x\nexpression: y\n---\nab\n  c\n\n"),
            "ab\n  c"
        );
        assert_eq!(super::body("ab\r\n"), "ab");
    }
}
