//! Every statement that a mail, `show`, the lists and `pbem cron` run reads its rows by an index:
//! none walks a whole table of games, seats, moves or mail, so no mail costs more as the server
//! holds more games (issue 35, item 1).
//!
//! The test plays a whole scenario through a real server on a real file, with SQLite's trace on,
//! and asks SQLite for the plan of each statement it ran: a new query that scans is caught without
//! anyone having to name it here.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use super::Server;
use crate::config::{Config, Transport};

const NOW: i64 = 1_795_000_000;
const DAY: i64 = 86_400;

fn eml(n: &std::cell::Cell<u32>, from: &str, to: &str, subject: &str, body: &str) -> Vec<u8> {
    n.set(n.get() + 1);
    let n = n.get();
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Wed, 18 Nov 2026 10:00:00 +0000\r\n\
         Message-ID: <plan{n}@client.example>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The newest Reply-To of a mail to `to` in the outbox folder.
fn reply_address(outbox: &std::path::Path, to: &str) -> Option<String> {
    let mut files: Vec<_> = std::fs::read_dir(outbox)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files.iter().rev().find_map(|f| {
        let text = std::fs::read_to_string(f).ok()?;
        let head = text.split("\r\n\r\n").next()?;
        if !head.lines().any(|l| l.starts_with("To:") && l.contains(to)) {
            return None;
        }
        head.lines()
            .find_map(|l| l.strip_prefix("Reply-To: "))
            .map(|v| {
                v.trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_string()
            })
    })
}

/// The table that `name` (a table or an alias, as a plan line names it) stands for in `sql`;
/// `None` for what is no table of the schema (a CTE, a subquery).
fn table_of(sql: &str, name: &str, tables: &[String]) -> Option<String> {
    let is_table = |t: &str| tables.iter().any(|k| k.eq_ignore_ascii_case(t));
    if is_table(name) {
        return Some(name.to_string());
    }
    let words: Vec<&str> = sql
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    // `FROM table alias`, `JOIN table alias`, `FROM table AS alias`.
    words
        .windows(3)
        .find_map(|w| {
            let keyword = w[0].eq_ignore_ascii_case("FROM") || w[0].eq_ignore_ascii_case("JOIN");
            (keyword && w[2] == name && is_table(w[1])).then(|| w[1].to_string())
        })
        .or_else(|| {
            words.windows(4).find_map(|w| {
                let keyword =
                    w[0].eq_ignore_ascii_case("FROM") || w[0].eq_ignore_ascii_case("JOIN");
                (keyword && w[2].eq_ignore_ascii_case("AS") && w[3] == name && is_table(w[1]))
                    .then(|| w[1].to_string())
            })
        })
}

#[test]
fn every_statement_of_the_mail_path_and_of_cron_reads_by_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config::default();
    cfg.database.path = dir.path().join("pbem.sqlite");
    cfg.mail.transport = Transport::File;
    cfg.mail.outbox_dir = dir.path().join("outbox");
    // The cheapest argon2: this test is about queries, not passwords.
    cfg.passwords.memory_kib = 8;
    cfg.passwords.iterations = 1;
    cfg.passwords.parallelism = 1;
    let mut server = Server::open(cfg.clone(), NOW).unwrap().with_seed(Some(7));
    let statements = Arc::new(Mutex::new(BTreeSet::new()));
    let seen = Arc::clone(&statements);
    server.db.trace_statements(move |sql| {
        seen.lock().unwrap().insert(sql.trim().to_string());
    });

    let n = std::cell::Cell::new(0);
    let server_address = cfg.server.address.clone();
    let mail = |server: &mut Server, from: &str, subject: &str, body: &str| {
        let raw = eml(&n, from, &server_address, subject, body);
        server.ingest(&raw).unwrap();
    };
    for who in ["alice", "bob", "carol"] {
        mail(
            &mut server,
            &format!("{who}@example.org"),
            &format!("signup {who} secret"),
            "",
        );
    }
    let a = "alice@example.org";
    let b = "bob@example.org";
    let c = "carol@example.org";
    mail(&mut server, a, "hex challenge alice bob", "");
    mail(&mut server, a, "limit challenge -size=8 alice carol", "");
    mail(&mut server, a, "hex move 101 alice secret f6", "Good luck");
    // bob's move as a bare reply to his board mail.
    let reply =
        reply_address(&cfg.mail.outbox_dir, b).expect("bob got a board mail with a Reply-To");
    let raw = eml(&n, b, &reply, "Re: Hex Board 101", "e5\n");
    server
        .ingest_to(&raw, std::slice::from_ref(&reply))
        .unwrap();
    mail(&mut server, b, "hex chat 101 bob secret", "Nice game");
    mail(&mut server, c, "message carol secret alice", "Hello");
    for line in [
        "hex show 101",
        "hex history 101",
        "hex history 101 -record",
        "hex games alice",
        "hex games bob next",
        "list",
        "list hex",
        "hex ratings",
        "hex standings",
        "hex history",
        "hex preview 101 d4",
    ] {
        mail(&mut server, c, line, "");
    }
    mail(&mut server, a, "set alice secret digest on", "");
    mail(&mut server, a, "hex move 101 alice secret propose undo", "");
    mail(&mut server, b, "hex move 101 bob secret reject", "");
    mail(&mut server, b, "hex queue 101 bob secret d4", "");
    mail(&mut server, a, "hex move 101 alice secret d5", "");
    server.run_admin("hex show 101", "").unwrap();
    server.run_admin("limit show 102", "").unwrap();
    // The clock: nothing due, a nag due, a forfeit due; the digest; the outbox.
    for days in [0, 8, 15, 40] {
        server.set_now(NOW + days * DAY);
        server.cron().unwrap();
        server.flush_outbox().unwrap();
    }
    mail(&mut server, a, "hex resign 101 alice secret", "");

    let statements = statements.lock().unwrap().clone();
    assert!(
        statements.len() > 50,
        "the trace saw only {} statements",
        statements.len()
    );
    // Plans are asked of a fresh file: `pbem cron` ends with `PRAGMA optimize`, and the statistics
    // of this scenario's handful of rows would make SQLite prefer a scan that it would never choose
    // on a server's thousands of games.
    let fresh = crate::storage::Db::open(
        &dir.path().join("fresh.sqlite"),
        std::time::Duration::from_secs(5),
    )
    .unwrap();
    let tables = fresh.table_names().unwrap();
    let mut scans = Vec::new();
    for sql in &statements {
        if sql.starts_with("--") || sql.is_empty() {
            continue;
        }
        let Ok(plan) = fresh.query_plan(sql) else {
            continue;
        };
        for line in &plan {
            let Some(rest) = line.strip_prefix("SCAN ") else {
                continue;
            };
            if rest.contains(" USING ") {
                continue;
            }
            let name = rest.split_whitespace().next().unwrap_or("");
            if table_of(sql, name, &tables).is_none() {
                // A subquery, a constant row or a CTE's rows, bounded by the query that made them.
                continue;
            }
            scans.push(format!("{line}\n    in: {sql}"));
        }
    }
    assert!(
        scans.is_empty(),
        "{} whole-table scans:\n{}",
        scans.len(),
        scans.join("\n")
    );
}
