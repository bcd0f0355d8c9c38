//! Accounts: the rules for userids, passwords and mail addresses, and password hashing.
//!
//! Passwords are stored as argon2id PHC strings (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) and compared
//! exactly: unlike pbmserv, case matters. A login with an unknown userid must get the same answer in
//! the same time as a wrong password, so [`verify_or_burn`] does a full-cost hash either way.
//!
//! Every hash runs in a memory area that its thread keeps for its whole life, so that memory stays
//! flat however many passwords a long run checks: one area for `ingest`, one per worker of `lmtp`.
//!
//! No error here ever repeats a password: errors end up in mails and logs.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use thiserror::Error;

use serde::{Deserialize, Serialize};

/// Longest userid, in characters.
pub const MAX_USERID_LEN: usize = 20;
/// Longest password, in characters.
pub const MAX_PASSWORD_LEN: usize = 64;
/// Longest mail address, in bytes (the limit of an SMTP forward path).
pub const MAX_ADDRESS_LEN: usize = 254;

/// `[passwords]`: argon2id cost parameters for new hashes. Existing hashes keep the parameters they
/// were made with (they are part of the PHC string), so raising these affects new passwords only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PasswordConfig {
    /// Memory per hash, in KiB (at least 8 × parallelism).
    pub memory_kib: u32,
    /// Number of passes (at least 1).
    pub iterations: u32,
    /// Lanes (at least 1).
    pub parallelism: u32,
}

impl Default for PasswordConfig {
    /// OWASP's recommended minimum for argon2id: 19 MiB, 2 passes, 1 lane.
    fn default() -> Self {
        PasswordConfig {
            memory_kib: 19456,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// What was wrong with a userid, password or address, worded for the player; or why a hash failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AccountError {
    /// The userid breaks the rules; the message says which and how to write one.
    #[error("{0}")]
    BadUserid(String),
    /// The password breaks the rules; the message never contains the password.
    #[error("{0}")]
    BadPassword(String),
    /// The address is not one plain `local@domain` mailbox.
    #[error("{0}")]
    BadAddress(String),
    /// The argon2 parameters were refused or hashing failed (a configuration problem, not the
    /// player's).
    #[error("password hashing failed: {0}")]
    Hashing(String),
}

/// The argon2id hasher for the configured cost.
fn hasher(cfg: &PasswordConfig) -> Result<Argon2<'static>, AccountError> {
    let params =
        Params::new(cfg.memory_kib, cfg.iterations, cfg.parallelism, None).map_err(|e| {
            AccountError::Hashing(format!(
                "argon2 parameters m={} t={} p={} refused: {e}",
                cfg.memory_kib, cfg.iterations, cfg.parallelism
            ))
        })?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

thread_local! {
    /// This thread's argon2 memory area (19 MiB at the default cost), reused by every hash it runs.
    /// Allocating a fresh block per hash let the heap fragment: a `pbem maildir` run over 1,000 mails
    /// grew to 5.9 GB. Grown once to the largest cost met, freed only when the thread ends. One per
    /// thread rather than one per process behind a lock, so that the workers of `pbem lmtp` hash at
    /// the same time instead of in turn.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// How many times this process has run argon2 (checks, dummy checks and new hashes).
static HASHES: AtomicU64 = AtomicU64::new(0);

/// The number of argon2 runs of this process so far (`PBEM_REPORT_RSS=1` prints it at exit).
pub fn hashes_run() -> u64 {
    HASHES.load(Ordering::Relaxed)
}

/// Runs argon2 in this thread's memory area.
fn run(argon: &Argon2<'_>, pw: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), argon2::Error> {
    let need = argon.params().block_count();
    MEMORY.with_borrow_mut(|memory| {
        if memory.len() < need {
            memory.resize(need, Block::new());
        }
        HASHES.fetch_add(1, Ordering::Relaxed);
        argon.hash_password_into_with_memory(pw, salt, out, &mut memory[..need])
    })
}

/// Hashes a password with a fresh random salt into an argon2id PHC string for storage.
pub fn hash_password(cfg: &PasswordConfig, pw: &str) -> Result<String, AccountError> {
    let argon = hasher(cfg)?;
    let fail = |e: &dyn std::fmt::Display| AccountError::Hashing(e.to_string());
    let salt = Salt::generate();
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    run(&argon, pw.as_bytes(), salt.as_ref(), &mut out).map_err(|e| fail(&e))?;
    let params = argon.params();
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params).map_err(|e| fail(&e))?,
        salt: Some(salt),
        hash: Some(Output::new(&out).map_err(|e| fail(&e))?),
    };
    Ok(hash.to_string())
}

/// True if `pw` is exactly the password `phc` was made from. A malformed PHC string never matches.
pub fn verify_password(phc: &str, pw: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    // The algorithm, version and cost come from the PHC string, not from the configuration.
    let Ok(algorithm) = Algorithm::try_from(hash.algorithm.as_str()) else {
        return false;
    };
    let version = match hash.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    if run(
        &Argon2::new(algorithm, version, params),
        pw.as_bytes(),
        salt.as_ref(),
        &mut out,
    )
    .is_err()
    {
        return false;
    }
    // `Output`'s equality is constant-time.
    Output::new(&out).is_ok_and(|computed| &computed == expected)
}

/// Spends the time of one [`verify_password`] against a hash made with `cfg`, and answers `false`.
/// Used for unknown userids, so that they cannot be told apart from wrong passwords by timing.
pub fn burn_verify(cfg: &PasswordConfig, pw: &str) -> bool {
    // A fixed salt is fine: the output is thrown away, only the work matters.
    const SALT: &[u8] = b"pbem-unknown-user-salt";
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    // Invalid cost parameters cannot be hashed with; the library defaults then still spend the time
    // of a real hash.
    let argon = hasher(cfg).unwrap_or_default();
    let _ = std::hint::black_box(run(&argon, pw.as_bytes(), SALT, &mut out));
    false
}

/// Checks a login: with the stored hash of a known userid, verifies it; with `None` (unknown userid),
/// burns the same time and answers `false`. Either way the caller gives the same answer.
pub fn verify_or_burn(cfg: &PasswordConfig, stored: Option<&str>, pw: &str) -> bool {
    match stored {
        Some(phc) => verify_password(phc, pw),
        None => burn_verify(cfg, pw),
    }
}

/// True if a stored hash was made with other parameters than `cfg` (or is not argon2id), so that it
/// should be replaced by a fresh hash the next time the player logs in successfully.
pub fn needs_rehash(cfg: &PasswordConfig, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return true;
    };
    if hash.algorithm.as_str() != "argon2id" {
        return true;
    }
    match Params::try_from(&hash) {
        Ok(p) => {
            p.m_cost() != cfg.memory_kib
                || p.t_cost() != cfg.iterations
                || p.p_cost() != cfg.parallelism
        }
        Err(_) => true,
    }
}

/// The form under which a userid is stored and looked up: userids are compared ignoring case.
pub fn userid_key(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// A userid is 1 to 20 ASCII letters, digits, `_` or `-`.
pub fn check_userid(s: &str) -> Result<(), AccountError> {
    const RULE: &str =
        "a userid is 1 to 20 characters of letters a-z or A-Z, digits, '_' or '-' (e.g. alice_99)";
    if s.is_empty() {
        return Err(AccountError::BadUserid(format!(
            "the userid is empty; {RULE}"
        )));
    }
    if let Some(c) = s
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(AccountError::BadUserid(format!(
            "the userid {} contains {}, which is not allowed; {RULE}",
            printable(s),
            describe_char(c)
        )));
    }
    if s.len() > MAX_USERID_LEN {
        return Err(AccountError::BadUserid(format!(
            "the userid {s} is {} characters long; {RULE}",
            s.len()
        )));
    }
    Ok(())
}

/// A password is 1 to 64 printable characters without spaces or control characters (it travels in
/// a Subject line, between spaces).
pub fn check_password(s: &str) -> Result<(), AccountError> {
    const RULE: &str =
        "a password is 1 to 64 characters with no spaces, tabs or control characters";
    if s.is_empty() {
        return Err(AccountError::BadPassword(format!(
            "the password is empty; {RULE}"
        )));
    }
    let n = s.chars().count();
    if n > MAX_PASSWORD_LEN {
        return Err(AccountError::BadPassword(format!(
            "the password is {n} characters long; {RULE}"
        )));
    }
    // Never quote the password itself: the error goes back by mail and into logs.
    if let Some(c) = s.chars().find(|c| c.is_whitespace() || c.is_control()) {
        let what = if c.is_whitespace() {
            "a space or other blank"
        } else {
            "a control character"
        };
        return Err(AccountError::BadPassword(format!(
            "the password contains {what}; {RULE}"
        )));
    }
    if s.chars().any(is_invisible) {
        return Err(AccountError::BadPassword(format!(
            "the password contains an invisible formatting character; {RULE}"
        )));
    }
    Ok(())
}

/// An address is one plain mailbox `local@domain` in ASCII: no display name, no angle brackets, no
/// comments, no spaces or control characters, at most 254 characters.
pub fn check_address(s: &str) -> Result<(), AccountError> {
    const RULE: &str = "write one plain address like alice@example.org, without a name, \
                        quotes or angle brackets";
    let bad = |why: String| Err(AccountError::BadAddress(format!("{why}; {RULE}")));
    if s.is_empty() {
        return bad("the address is empty".to_string());
    }
    if let Some(c) = s
        .chars()
        .find(|c| c.is_control() || c.is_whitespace() || is_invisible(*c))
    {
        return bad(format!(
            "the address {} contains {}",
            printable(s),
            describe_char(c)
        ));
    }
    if !s.is_ascii() {
        return bad(format!(
            "the address {s} contains non-ASCII characters (write an international domain in its \
             xn-- form)"
        ));
    }
    if s.len() > MAX_ADDRESS_LEN {
        return bad(format!(
            "the address is {} characters long, more than {MAX_ADDRESS_LEN}",
            s.len()
        ));
    }
    if let Some(c) = s.chars().find(|c| {
        matches!(
            c,
            '<' | '>' | '"' | '(' | ')' | ',' | ';' | ':' | '[' | ']' | '\\'
        )
    }) {
        return bad(format!("the address {s} contains '{c}'"));
    }
    let Some((local, domain)) = s.rsplit_once('@') else {
        return bad(format!("the address {s} has no '@'"));
    };
    if local.is_empty() || local.contains('@') {
        return bad(format!(
            "the address {s} must have exactly one '@' with a name before it"
        ));
    }
    if local.len() > 64 {
        return bad(format!(
            "the part before '@' in {s} is longer than 64 characters"
        ));
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return bad(format!(
            "the part before '@' in {s} may not start or end with a dot or have two dots in a row"
        ));
    }
    // Everything left in the local part is RFC 5322 atext or a dot.
    if let Some(c) = local
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(*c)))
    {
        return bad(format!("the part before '@' in {s} contains '{c}'"));
    }
    let labels_ok = !domain.is_empty()
        && domain.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    if !labels_ok {
        return bad(format!(
            "the domain {domain:?} in {s} is not a host name (letters, digits and '-', separated \
             by dots)"
        ));
    }
    Ok(())
}

/// Zero-width and direction-changing characters: not controls, yet they make two strings that
/// look the same differ.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// A string as it can be safely quoted back: control characters escaped, length bounded.
fn printable(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    format!("\"{out}\"")
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '\t' => "a tab".to_string(),
        '\r' | '\n' => "a line break".to_string(),
        c if c.is_control() || is_invisible(c) => {
            format!("the invisible character U+{:04X}", c as u32)
        }
        c if c.is_whitespace() => format!("the blank U+{:04X}", c as u32),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap cost for tests that only check correctness, not timing.
    fn cheap() -> PasswordConfig {
        PasswordConfig {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        }
    }

    #[test]
    fn hash_is_an_argon2id_phc_string_with_the_configured_cost() {
        let cfg = PasswordConfig::default();
        let phc = hash_password(&cfg, "s3cret!").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(!phc.contains("s3cret"));
        assert!(!needs_rehash(&cfg, &phc));
        assert!(needs_rehash(&cheap(), &phc));
    }

    #[test]
    fn verify_is_exact_and_case_sensitive() {
        let phc = hash_password(&cheap(), "Hunter2").unwrap();
        assert!(verify_password(&phc, "Hunter2"));
        assert!(!verify_password(&phc, "hunter2"));
        assert!(!verify_password(&phc, "HUNTER2"));
        assert!(!verify_password(&phc, "Hunter2 "));
        assert!(!verify_password(&phc, "Hunter"));
        assert!(!verify_password(&phc, ""));
    }

    #[test]
    fn same_password_gets_a_fresh_salt() {
        let a = hash_password(&cheap(), "pw").unwrap();
        let b = hash_password(&cheap(), "pw").unwrap();
        assert_ne!(a, b);
        assert!(verify_password(&a, "pw") && verify_password(&b, "pw"));
    }

    #[test]
    fn malformed_hash_never_matches() {
        assert!(!verify_password("", "pw"));
        assert!(!verify_password("pw", "pw"));
        assert!(!verify_password("$argon2id$v=19$m=64,t=1,p=1$", "pw"));
        assert!(needs_rehash(&cheap(), "plain"));
    }

    #[test]
    fn verify_or_burn_answers_false_for_unknown_users() {
        let cfg = cheap();
        let phc = hash_password(&cfg, "pw").unwrap();
        assert!(verify_or_burn(&cfg, Some(&phc), "pw"));
        assert!(!verify_or_burn(&cfg, Some(&phc), "px"));
        assert!(!verify_or_burn(&cfg, None, "pw"));
    }

    #[test]
    fn unknown_users_burn_the_same_argon2id_cost_as_stored_hashes() {
        // Timing itself is measured by scripts/timing.sh, not here (shared machines are noisy): this
        // checks that both paths run argon2id at the configured cost, so they do the same work.
        let cfg = PasswordConfig::default();
        let phc = hash_password(&cfg, "right").unwrap();
        let stored = PasswordHash::new(&phc).unwrap();
        assert_eq!(stored.algorithm.as_str(), "argon2id");
        let burn = hasher(&cfg).unwrap();
        let p = burn.params();
        let text = phc.to_string();
        assert!(
            text.contains(&format!(
                "m={},t={},p={}",
                p.m_cost(),
                p.t_cost(),
                p.p_cost()
            )),
            "{text}"
        );
        assert!(!burn_verify(&cfg, "right"));
        assert!(!verify_or_burn(&cfg, None, "right"));
        assert!(verify_or_burn(&cfg, Some(&phc), "right"));
    }

    #[test]
    fn each_thread_hashes_in_its_own_memory_kept_for_its_life() {
        let cfg = cheap();
        let phc = hash_password(&cfg, "pw").unwrap();
        let blocks = hasher(&cfg).unwrap().params().block_count();
        let area = || MEMORY.with_borrow(|m| (m.as_ptr() as usize, m.len()));
        // All three hold their area at once, so that none can be handed another's freed memory.
        let together = std::sync::Barrier::new(3);
        let mut areas: Vec<usize> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        assert_eq!(area().1, 0, "a new thread starts without an area");
                        assert!(verify_password(&phc, "pw"));
                        let first = area();
                        assert_eq!(first.1, blocks);
                        assert!(!verify_password(&phc, "px"));
                        assert_eq!(area(), first, "the area is reused, not made anew");
                        together.wait();
                        first.0
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        areas.sort();
        areas.dedup();
        assert_eq!(areas.len(), 3, "threads shared an area");
    }

    #[test]
    fn bad_cost_is_a_hashing_error() {
        let cfg = PasswordConfig {
            memory_kib: 1,
            iterations: 1,
            parallelism: 1,
        };
        assert!(matches!(
            hash_password(&cfg, "pw"),
            Err(AccountError::Hashing(_))
        ));
        assert!(!burn_verify(&cfg, "pw"));
    }

    #[test]
    fn userid_rules() {
        for ok in [
            "a",
            "alice",
            "Bob_99",
            "x-y",
            "A234567890123456789Z",
            "_",
            "-",
        ] {
            assert_eq!(check_userid(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "al ice",
            "alice!",
            "élise",
            "A2345678901234567890Z",
            "a\nb",
            "a.b",
            "a@b",
        ] {
            let e = check_userid(bad).unwrap_err();
            assert!(matches!(e, AccountError::BadUserid(_)), "{bad}");
            assert!(e.to_string().contains("1 to 20"), "{e}");
        }
        let e = check_userid("al ice").unwrap_err().to_string();
        assert!(e.contains("a space"), "{e}");
        let e = check_userid("a\r\nb").unwrap_err().to_string();
        assert!(!e.contains('\r') && !e.contains('\n'), "{e}");
    }

    #[test]
    fn userid_key_ignores_case() {
        assert_eq!(userid_key("Alice_X"), "alice_x");
        assert_eq!(userid_key("ALICE_X"), userid_key("alice_x"));
    }

    #[test]
    fn password_rules() {
        for ok in ["x", "Hunter2", "p@$$w0rd!", "ünïcödé", &"a".repeat(64)] {
            assert_eq!(check_password(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "two words",
            "tab\there",
            "nl\nx",
            "nul\0",
            "zw\u{200B}sp",
            &"a".repeat(65),
        ] {
            let e = check_password(bad).unwrap_err();
            assert!(matches!(e, AccountError::BadPassword(_)), "{bad:?}");
            assert!(e.to_string().contains("1 to 64"), "{e}");
        }
    }

    #[test]
    fn password_errors_never_repeat_the_password() {
        for bad in ["secret word", "secret\u{7}", &"secret".repeat(20)] {
            let e = check_password(bad).unwrap_err().to_string();
            assert!(!e.contains("secret"), "{e}");
        }
    }

    #[test]
    fn address_rules() {
        for ok in [
            "alice@example.org",
            "a.b+games@mail.example.co.uk",
            "bob@localhost",
            "x_y-z@sub-domain.example",
            "o'neil@example.ie",
        ] {
            assert_eq!(check_address(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "alice",
            "@example.org",
            "alice@",
            "alice@@example.org",
            "a@b@example.org",
            "Alice <alice@example.org>",
            "<alice@example.org>",
            "alice@example.org\r\nBcc: victim@example.org",
            "alice@example.org\n",
            "ali ce@example.org",
            "alice@exa mple.org",
            "\"alice\"@example.org",
            "alice@example..org",
            "alice@-example.org",
            ".alice@example.org",
            "al..ice@example.org",
            "alice@example.org,bob@example.org",
            "alice(comment)@example.org",
            "alice@[127.0.0.1]",
            "élise@example.org",
            "nul\0@example.org",
        ] {
            let e = check_address(bad).unwrap_err();
            assert!(matches!(e, AccountError::BadAddress(_)), "{bad:?}");
            let msg = e.to_string();
            assert!(msg.contains("alice@example.org"), "no example in: {msg}");
            assert!(!msg.contains('\r') && !msg.contains('\n'), "{msg:?}");
        }
        let long = format!("{}@{}.org", "a".repeat(64), "b".repeat(200));
        assert!(check_address(&long).is_err());
    }
}
