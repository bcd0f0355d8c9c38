//! The cost of argon2 alone, as pbem pays it per mail: one hash per signup or password change, one
//! verify per command that carries a password (move, resign, chat, ...), one burned verify for an
//! unknown userid. `scripts/timing.sh` runs this next to its timing of whole `pbem ingest` runs, so that
//! the closing note can give the mail times with and without argon2.
//!
//! `cargo run --release --features tools --example argon2_timing -- [RUNS]` (default 30) prints the median in ms of each,
//! in one warm process. `... -- cold` prints the ms of a single verify, the first argon2 call of a fresh
//! process (its 19 MiB are new memory), which is what one `pbem ingest` pays; the script runs it many
//! times.

use std::time::Instant;

use pbem::accounts;
use pbem::config::PasswordConfig;

fn median_ms(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2.0
    }
}

fn time_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let samples = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    median_ms(samples)
}

/// `pw-alice` hashed by `pbem` at the default cost: a cold verify must not hash first (that would warm
/// the process up).
const ALICE_PHC: &str = "$argon2id$v=19$m=19456,t=2,p=1$Hm1kt6IqcJ3ACKDbP62mkQ$mSUijGTGv4GXEQPWXoBTS05tm7MZIN713cizIluUbUQ";

fn main() {
    let runs: usize = match std::env::args().nth(1) {
        None => 30,
        Some(s) if s == "cold" => {
            let t = Instant::now();
            let ok = std::hint::black_box(accounts::verify_password(ALICE_PHC, "pw-alice"));
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            assert!(ok, "the stored hash no longer matches pw-alice");
            println!("{ms:.3}");
            return;
        }
        Some(s) => match s.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!(
                    "argon2_timing: write RUNS (a whole number above 0, like 30) or `cold`; it is '{s}'"
                );
                std::process::exit(64);
            }
        },
    };
    // The server's default cost (config/pbem.toml, [passwords]).
    let cfg = PasswordConfig::default();
    let phc = accounts::hash_password(&cfg, "pw-alice").expect("the default cost is valid");
    let hash = time_ms(runs, || {
        std::hint::black_box(accounts::hash_password(&cfg, "pw-alice").unwrap());
    });
    let mut all_matched = true;
    let verify = time_ms(runs, || {
        all_matched &= std::hint::black_box(accounts::verify_password(&phc, "pw-alice"));
    });
    let mut none_matched = true;
    let wrong = time_ms(runs, || {
        none_matched &= !std::hint::black_box(accounts::verify_password(&phc, "pw-wrong"));
    });
    let burn = time_ms(runs, || {
        std::hint::black_box(accounts::burn_verify(&cfg, "pw-alice"));
    });
    assert!(
        all_matched && none_matched,
        "verify_password answered wrongly"
    );
    println!(
        "argon2id m={} KiB t={} p={}, median of {runs} runs:",
        cfg.memory_kib, cfg.iterations, cfg.parallelism
    );
    println!("  hash_password                 {hash:8.2} ms");
    println!("  verify_password (right)       {verify:8.2} ms");
    println!("  verify_password (wrong)       {wrong:8.2} ms");
    println!("  burn_verify (unknown userid)  {burn:8.2} ms");
}
