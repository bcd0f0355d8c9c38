//! Fills a pbem database with a year of play for `scripts/scale.sh`: users, games played with random
//! legal moves by the real rules engine, their results and ratings, the processed-message log and
//! the outbox as the server leaves them.
//!
//!   scale_db DB [--users N] [--games N] [--seed S] [--now UNIX] [--keep-days D]
//!
//! DB must already exist, created by a pbem binary (`pbem --db DB outbox list`), so that its schema
//! is that binary's: this writes rows with plain SQL into schema 10 (the state in `games`) or 11 and
//! later (the state in `game_states`, with the saved status line), so that an older and a newer
//! binary can be measured on the same games. Every user's password is `secret`.
//!
//! Without `--keep-days` every board mail stays in the outbox (as before outbox pruning); with it,
//! the mails are written in time order and, once a simulated day, the sent ones older than D days
//! are deleted with the same statement as `pbem cron`'s flush, followed by `PRAGMA
//! incremental_vacuum` as cron runs it: the file ends as a server pruning daily for a year leaves it.

use std::collections::HashMap;
use std::process::ExitCode;

use pbem::games::{self, GameState, Outcome, Status};
use pbem::ratings::{self, Rating};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rusqlite::{Connection, params};

const DAY: i64 = 86_400;

struct Args {
    db: String,
    users: usize,
    games: usize,
    seed: u64,
    now: i64,
    keep_days: Option<i64>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut a = Args {
        db: String::new(),
        users: 2_000,
        games: 10_000,
        seed: 1,
        now: 1_795_000_000,
        keep_days: None,
    };
    let num = |v: Option<String>, name: &str| -> Result<i64, String> {
        v.as_deref()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{name} needs a whole number, like {name} 100"))
    };
    while let Some(w) = it.next() {
        match w.as_str() {
            "--users" => a.users = num(it.next(), "--users")? as usize,
            "--games" => a.games = num(it.next(), "--games")? as usize,
            "--seed" => a.seed = num(it.next(), "--seed")? as u64,
            "--now" => a.now = num(it.next(), "--now")?,
            "--keep-days" => a.keep_days = Some(num(it.next(), "--keep-days")?),
            _ if a.db.is_empty() && !w.starts_with('-') => a.db = w,
            _ => return Err(format!("'{w}' is not an argument of scale_db")),
        }
    }
    if a.db.is_empty() || a.users < 3 {
        return Err(
            "usage: scale_db DB [--users N>=3] [--games N] [--seed S] [--now UNIX] \
                    [--keep-days D]"
                .into(),
        );
    }
    Ok(a)
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// One game as generated: its final state, players and the times of its moves.
struct Played {
    state: Box<dyn GameState>,
    players: Vec<usize>,
    created_at: i64,
    move_times: Vec<i64>,
}

fn play_game(rng: &mut ChaCha8Rng, a: &Args, n: usize) -> Played {
    let rules = games::Registry::standard()
        .find("limit")
        .expect("limit is hosted");
    let count = if below(rng, 100) < 85 { 2 } else { 3 };
    let mut players: Vec<usize> = Vec::new();
    // alice (user 0) plays about one game in a hundred, as in the figures (105 games).
    if below(rng, 100) == 0 {
        players.push(0);
    }
    while players.len() < count {
        let p = 1 + below(rng, a.users - 1);
        if !players.contains(&p) {
            players.push(p);
        }
    }
    let mut state = rules
        .new_game(&[], count, a.seed ^ (n as u64).wrapping_mul(0x9E37_79B9))
        .expect("a default game starts");
    // About a quarter of the games are played out; the others stop somewhere in the first 20 plies.
    let finish = below(rng, 100) < 26;
    let stop = if finish {
        usize::MAX
    } else {
        1 + below(rng, 20)
    };
    let mut played = 0;
    while played < stop {
        let moves = state.legal_moves();
        if moves.is_empty() {
            break;
        }
        state
            .play(&moves[below(rng, moves.len())])
            .expect("a listed move is legal");
        played += 1;
    }
    let year = 365 * DAY;
    let created_at = a.now - year + below(rng, (year - 2 * DAY) as usize) as i64;
    let running = matches!(state.status(), Status::ToMove(_));
    // Running games: most moved within the last six days (not due), the rest earlier (due).
    let last = if running && below(rng, 100) < 70 {
        a.now - below(rng, (6 * DAY) as usize) as i64
    } else {
        created_at + below(rng, (a.now - created_at) as usize) as i64
    };
    let last = last.max(created_at + 1);
    let entries = state.moves().len();
    let mut move_times: Vec<i64> = (0..entries)
        .map(|k| created_at + (last - created_at) * (k as i64 + 1) / entries.max(1) as i64)
        .collect();
    move_times.sort_unstable();
    Played {
        state,
        players,
        created_at,
        move_times,
    }
}

fn run(a: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut conn = Connection::open(&a.db)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "OFF")?;
    let version: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version < 10 {
        return Err(format!(
            "{} has schema version {version}; create it with a pbem of schema 10 or later",
            a.db
        )
        .into());
    }
    let split_state = version >= 11;
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let hash = pbem::accounts::hash_password(&Default::default(), "secret")?;
    let t0 = a.now - 366 * DAY;

    let tx = conn.transaction()?;
    // A newer schema has users already (the robot accounts): ours go after them.
    let base: i64 = tx.query_row("SELECT COALESCE(MAX(id), 0) FROM users", [], |r| r.get(0))?;
    let uid = |u: usize| base + u as i64 + 1;
    for u in 0..a.users {
        let userid = if u == 0 {
            "alice".to_string()
        } else {
            format!("user{u}")
        };
        tx.execute(
            "INSERT INTO users (id, userid, userid_key, password_hash, created_at)
             VALUES (?1, ?2, ?2, ?3, ?4)",
            params![uid(u), userid, hash, t0],
        )?;
        tx.execute(
            "INSERT INTO addresses (user_id, position, address) VALUES (?1, 0, ?2)",
            params![uid(u), format!("{userid}@example.org")],
        )?;
    }

    let mut ratings: HashMap<usize, Rating> = HashMap::new();
    let mut mails: Vec<(i64, String)> = Vec::new();
    let mut total_moves = 0usize;
    let mut running = 0usize;
    let mut played: Vec<Played> = (0..a.games).map(|n| play_game(&mut rng, a, n)).collect();
    // Games end in the order of their last move, so that ratings are computed in that order.
    played.sort_by_key(|p| p.move_times.last().copied().unwrap_or(p.created_at));
    for (n, p) in played.iter().enumerate() {
        let board = 101 + n as u32;
        let id = n as i64 + 1;
        let updated_at = p.move_times.last().copied().unwrap_or(p.created_at);
        let names: Vec<String> = p
            .players
            .iter()
            .map(|&u| {
                if u == 0 {
                    "alice".into()
                } else {
                    format!("user{u}")
                }
            })
            .collect();
        let status = p.state.status();
        let finished = matches!(status, Status::Over(_));
        if !finished {
            running += 1;
        }
        let json = p.state.to_json();
        if split_state {
            let to_move = match status {
                Status::ToMove(s) => Some(s as i64),
                Status::Over(_) => None,
            };
            tx.execute(
                "INSERT INTO games (id, game_type, board, finished, to_move, status, created_at,
                                    updated_at)
                 VALUES (?1, 'limit', ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    board,
                    finished,
                    to_move,
                    pbem::summary::status_line(p.state.as_ref(), &names),
                    p.created_at,
                    updated_at
                ],
            )?;
            tx.execute(
                "INSERT INTO game_states (game_id, state) VALUES (?1, ?2)",
                params![id, json],
            )?;
        } else {
            tx.execute(
                "INSERT INTO games (id, game_type, board, state, finished, created_at, updated_at)
                 VALUES (?1, 'limit', ?2, ?3, ?4, ?5, ?6)",
                params![id, board, json, finished, p.created_at, updated_at],
            )?;
        }
        for (seat, &u) in p.players.iter().enumerate() {
            tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, agreed_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, seat as i64, uid(u), p.created_at],
            )?;
        }
        if let Status::Over(outcome) = &status {
            let before: Vec<Rating> = p
                .players
                .iter()
                .map(|u| ratings.get(u).copied().unwrap_or_else(Rating::initial))
                .collect();
            let after = ratings::rate(&before, outcome)?;
            let results = ratings::seat_results(outcome, p.players.len())?;
            for (seat, &u) in p.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO game_results (game_id, seat, user_id, result, rating_before,
                         rating_after, games_before, settled_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        id,
                        seat as i64,
                        uid(u),
                        results[seat].as_str(),
                        before[seat].rating,
                        after[seat].rating,
                        before[seat].games,
                        updated_at
                    ],
                )?;
                ratings.insert(u, after[seat]);
            }
            let _: &Outcome = outcome;
        }
        // One board mail per move, to every player, as the server writes it: the summary's board.
        let body = format!(
            "Limit Board {board}\n\n{}\n{}",
            p.state.render(),
            pbem::summary::move_list(p.state.as_ref(), &names)
        );
        let to: Vec<String> = names.iter().map(|n| format!("{n}@example.org")).collect();
        for (k, &t) in p.move_times.iter().enumerate() {
            total_moves += 1;
            tx.execute(
                "INSERT INTO processed (message_key, processed_at) VALUES (?1, ?2)",
                params![format!("<m{board}.{k}@example.org> from {}", to[0]), t],
            )?;
            let mail = serde_json::json!({
                "from": "pbem <pbem@localhost>",
                "to": to,
                "subject": format!("Limit Board {board} {}", names[k % names.len()]),
                "body": body,
                "message_id": format!("<pbem.{board}.{k}@localhost>"),
                "in_reply_to": format!("<m{board}.{k}@example.org>"),
                "references": [format!("<m{board}.{k}@example.org>")],
                "auto_submitted": "auto-replied",
                "x_loop": "pbem@localhost",
                "date_unix": t,
            });
            mails.push((t, mail.to_string()));
        }
    }
    for (u, r) in &ratings {
        tx.execute(
            "INSERT INTO ratings (game_type, user_id, rating, games) VALUES ('limit', ?1, ?2, ?3)",
            params![uid(*u), r.rating, r.games],
        )?;
    }
    tx.commit()?;

    mails.sort_by_key(|(t, _)| *t);
    let mut day_end = t0 + DAY;
    let mut tx = conn.transaction()?;
    for (t, mail) in &mails {
        if let Some(keep) = a.keep_days
            && *t >= day_end
        {
            // What a daily `pbem cron` does to the outbox at the end of each simulated day.
            tx.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?1",
                [day_end - keep * DAY],
            )?;
            tx.commit()?;
            // Stepped to the end: the pragma frees one page a step.
            conn.prepare("PRAGMA incremental_vacuum")?
                .query_map([], |_| Ok(()))?
                .for_each(drop);
            tx = conn.transaction()?;
            while *t >= day_end {
                day_end += DAY;
            }
        }
        tx.execute(
            "INSERT INTO outbox (mail, created_at, claimed_at, sent_at, attempts)
             VALUES (?1, ?2, ?2, ?2, 1)",
            params![mail, t],
        )?;
    }
    tx.commit()?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
    println!(
        "scale_db: {} users, {} games ({running} running), {total_moves} moves, {} mails",
        a.users,
        a.games,
        mails.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("scale_db: {e}");
            return ExitCode::from(64);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scale_db: {e}");
            ExitCode::from(70)
        }
    }
}
