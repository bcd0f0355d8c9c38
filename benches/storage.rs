//! Benchmarks of the queries that must not grow with the database (issue 12), in process, on a file
//! of 2,000 users and 10,000 games (7,400 running) written through the storage API: the clock's
//! choice of due games, one page of the history, a player's games, the standings.
//!
//! Run with `cargo bench --bench storage`. scripts/scale.sh measures the same paths as processes on a
//! database of real games.

use std::time::Duration;

use divan::Bencher;
use pbem::storage::{Db, GamesFilter, SavedStatus};

fn main() {
    divan::main();
}

const NOW: i64 = 1_795_000_000;
const DAY: i64 = 86_400;

/// A database of 10,000 games with a 6 KB state each; every game's players are user `n` and the
/// next, and user 1 is in about a hundred games.
fn big_db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut db = Db::open(&dir.path().join("b.sqlite"), Duration::from_secs(5)).expect("db");
    let tx = db.transaction().expect("tx");
    let users: Vec<i64> = (0..2_000)
        .map(|u| {
            tx.insert_user(&format!("user{u}"), "hash", &[], 1)
                .expect("user")
        })
        .collect();
    let state = "x".repeat(6_000);
    for n in 0..10_000usize {
        let finished = n % 100 < 26;
        let players = if n % 100 == 50 {
            [users[1], users[(n + 7) % 2_000]]
        } else {
            [users[n % 2_000], users[(n + 1) % 2_000]]
        };
        let status = SavedStatus {
            finished,
            to_move: (!finished).then_some(n % 2),
            line: "Red (user1) to move.".into(),
        };
        // Most running games moved within the last days; one in ten is a week or more behind.
        let age = if n % 10 == 0 {
            8 * DAY
        } else {
            (n as i64 % 6) * DAY
        };
        tx.insert_game(
            "limit",
            101 + n as u32,
            &state,
            &status,
            &players,
            NOW - age,
        )
        .expect("game");
    }
    tx.commit().expect("commit");
    (dir, db)
}

#[divan::bench]
fn clock_candidates(bencher: Bencher) {
    let (_dir, db) = big_db();
    bencher.bench_local(|| {
        db.clock_candidates(NOW, 7, 21, 2 * DAY)
            .expect("query")
            .len()
    });
}

#[divan::bench]
fn history_first_page(bencher: Bencher) {
    let (_dir, mut db) = big_db();
    bencher.bench_local(|| {
        let tx = db.transaction().expect("tx");
        tx.finished_page("limit", 50, 0).expect("query").len()
    });
}

#[divan::bench]
fn games_of_a_player(bencher: Bencher) {
    let (_dir, mut db) = big_db();
    bencher.bench_local(|| {
        let tx = db.transaction().expect("tx");
        let user = tx.user("user1").expect("query").expect("user1");
        tx.games_of(user.id, "limit", GamesFilter::All)
            .expect("query")
            .len()
    });
}

#[divan::bench]
fn standings(bencher: Bencher) {
    let (_dir, mut db) = big_db();
    bencher.bench_local(|| {
        let tx = db.transaction().expect("tx");
        tx.standings("limit").expect("query").len()
    });
}
