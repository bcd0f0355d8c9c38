//! A small benchmark harness on std alone, shared by the files of `benches/` (`harness = false`): each
//! benchmark is timed in up to 100 samples (fewer when they pass 5 s in all), a sample being as many
//! calls as fill about 10 ms, and the fastest, median and slowest time per call are printed, with
//! the median throughput when the benchmark counts items. It replaced divan, which every `cargo
//! test` compiled (dev-dependencies are built for the tests too) although only benchmarks use it.
//!
//! `cargo bench --bench NAME -- WORD...` runs the benchmarks whose name holds one of the words.
//! Without `--bench` on the command line (`cargo test --benches`) each benchmark runs once, as a test.

#![allow(dead_code)]

use std::time::{Duration, Instant};

pub use std::hint::black_box;

/// The most samples of one benchmark.
const SAMPLES: usize = 100;
/// The time one sample aims at.
const SAMPLE_TIME: Duration = Duration::from_millis(10);
/// After this long, a benchmark stops taking samples (it has at least `MIN_SAMPLES`).
const MAX_TIME: Duration = Duration::from_secs(5);
const MIN_SAMPLES: usize = 10;

/// A benchmark: its name and the function that times it.
pub type Bench = (&'static str, fn(Bencher));

/// How many items one call handles, for the throughput column.
#[derive(Clone, Copy)]
pub struct ItemsCount(usize);

impl ItemsCount {
    /// `n` items per call.
    pub fn new(n: usize) -> ItemsCount {
        ItemsCount(n)
    }
}

/// What a benchmark function is given: it calls `bench` (or `bench_local`) once with the code to time.
pub struct Bencher {
    name: &'static str,
    items: Option<usize>,
    quick: bool,
}

impl Bencher {
    /// Counts `items` per call.
    pub fn counter(mut self, items: ItemsCount) -> Bencher {
        self.items = Some(items.0);
        self
    }

    /// Times `f`.
    pub fn bench<T>(self, f: impl FnMut() -> T) {
        self.bench_local(f)
    }

    /// Times `f` (which may hold state between calls).
    pub fn bench_local<T>(self, mut f: impl FnMut() -> T) {
        if self.quick {
            black_box(f());
            println!("{}: ran once (pass --bench to time it)", self.name);
            return;
        }
        // One call to learn how many fill a sample.
        let t = Instant::now();
        black_box(f());
        let once = t.elapsed().max(Duration::from_nanos(1));
        let iters = (SAMPLE_TIME.as_nanos() / once.as_nanos()).clamp(1, 1_000_000) as u32;
        let start = Instant::now();
        let mut per_call: Vec<Duration> = Vec::with_capacity(SAMPLES);
        while per_call.len() < SAMPLES
            && (per_call.len() < MIN_SAMPLES || start.elapsed() < MAX_TIME)
        {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(f());
            }
            per_call.push(t.elapsed() / iters);
        }
        per_call.sort_unstable();
        let median = per_call[per_call.len() / 2];
        let throughput = self
            .items
            .map(|n| format!("{}/s", si(n as f64 / median.as_secs_f64(), "item")))
            .unwrap_or_default();
        println!(
            "{:<24} {:>10} {:>10} {:>10} {:>5} x {:<7} {}",
            self.name,
            time(per_call[0]),
            time(median),
            time(per_call[per_call.len() - 1]),
            per_call.len(),
            iters,
            throughput
        );
    }
}

/// Runs the benchmarks the command line selects.
pub fn main(benches: &[Bench]) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let timed = args.iter().any(|a| a == "--bench");
    let words: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if timed {
        println!(
            "{:<24} {:>10} {:>10} {:>10} {:>15} median throughput",
            "per call", "fastest", "median", "slowest", "samples x calls"
        );
    }
    for &(name, run) in benches {
        if words.is_empty() || words.iter().any(|w| name.contains(w.as_str())) {
            run(Bencher {
                name,
                items: None,
                quick: !timed,
            });
        }
    }
}

fn time(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn si(v: f64, unit: &str) -> String {
    if v >= 1e6 {
        format!("{:.2} M{unit}", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.2} K{unit}", v / 1e3)
    } else {
        format!("{v:.2} {unit}")
    }
}
