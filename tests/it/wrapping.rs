//! Issue 37, section 5: every help page and every answer a player can get is wrapped at 72
//! columns by words. No line is wider; no paragraph is broken into a fragment left on a line of
//! its own (`(the 8` / `cells` / `around it` under another column, as Ataxx's and Go's option
//! tables were); no parenthesis is left open at the end of a paragraph. The pages and answers
//! come from the real server: help for the server, for every command word and for every game
//! (both spellings), and the answers and refusals of a list of commands of every family, right
//! and wrong, sent as `.eml` mails through `pbem ingest`.

use crate::common::{EVERY_ANSWER, Env, Sent, eml};

/// What is wrong with the layout of `text` (a mail body): each finding names the line.
fn layout_faults(name: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    // Players' own words are quoted as written (`> ...`, comments between rows of asterisks).
    let rule = |l: &&str| l.len() == 70 && l.chars().all(|c| c == '*');
    let (first, last) = (lines.iter().position(rule), lines.iter().rposition(rule));
    let quoted = |i: usize| {
        lines[i].starts_with('>') || matches!((first, last), (Some(a), Some(b)) if a <= i && i <= b)
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut faults = Vec::new();
    let mut open = 0i32;
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            open = 0;
            continue;
        }
        if quoted(i) {
            continue;
        }
        let width = l.chars().count();
        if width > 72 {
            faults.push(format!("{name}: {width} columns: {l}"));
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let next = lines.get(i + 1).copied().unwrap_or("");
        // A fragment: a word or two of a sentence alone on a line, the sentence going on under
        // another column.
        let ends_sentence = l.trim_end().ends_with(['.', ':', ';', ',', '!', '?', ')']);
        let heading = l.trim() == l.trim().to_uppercase();
        // ... and the sentence came from the line above it, at the same indentation.
        let prev = if i == 0 { "" } else { lines[i - 1] };
        // (a table's row, two columns apart, is whole in itself).
        let table_row = prev.trim().contains("  ");
        let continues = !prev.trim().is_empty()
            && indent(prev) == indent(l)
            && !table_row
            && !prev.trim_end().ends_with(['.', ':', ';', '!', '?']);
        if (1..=2).contains(&words.len())
            && continues
            && !ends_sentence
            && !heading
            && !next.trim().is_empty()
            && indent(next) > indent(l)
            && !quoted(i + 1)
        {
            faults.push(format!("{name}: a fragment {l:?} before {next:?}"));
        }
        // A parenthesis left open where the paragraph ends (quotes and examples aside).
        open += l.matches('(').count() as i32 - l.matches(')').count() as i32;
        if open > 0 && next.trim().is_empty() {
            faults.push(format!("{name}: a parenthesis left open in: {l:?}"));
        }
    }
    faults
}

#[test]
fn the_fault_finder_finds_the_faults_issue_37_saw() {
    let ataxx = "A turn is one of:\n  clone put a new piece on an empty cell next to one of yours (the 8\n  cells\n         around it, diagonals too).\n";
    assert_eq!(layout_faults("t", ataxx).len(), 1, "{ataxx}");
    let open = "Options: (GTP's\nfixed handicap\n\nnext\n";
    assert_eq!(layout_faults("t", open).len(), 1);
    let wide = format!("{}\n", "word ".repeat(20));
    assert_eq!(layout_faults("t", &wide).len(), 1);
    let fine = "OPTIONS\n  -size=N   a board (default 11)\n\nRobots play Hex at any time: send\n    hex challenge <you> robot1\n> a quoted line that is much wider than seventy-two columns, as the player wrote it\n";
    assert!(
        layout_faults("t", fine).is_empty(),
        "{:?}",
        layout_faults("t", fine)
    );
}

#[test]
fn every_help_page_and_answer_is_wrapped_at_72_columns_by_words() {
    let env = Env::new().with_config(&format!(
        "{EVERY_ANSWER}replies_per_address_per_hour = 100000\nunsolicited_challenges_per_day = 100\n"
    ));
    let mut mails: Vec<Sent> = Vec::new();
    let mut send = |from: &str, subject: &str, body: &str| {
        env.deliver(&eml(&format!("{from}@example.org"), subject, body));
        mails.extend(env.take_mails());
    };
    for who in ["alice", "bob", "carol"] {
        send(who, &format!("signup {who} pw-{who}"), "");
    }
    // Every help page: the server's, every command's, every game's (both ways of asking).
    send("alice", "help", "");
    for word in pbem::command::server_keywords() {
        send("alice", &format!("help {word}"), "");
    }
    let games = pbem::games::Registry::standard().names();
    for game in &games {
        send("alice", &format!("{game} help"), "");
        send("alice", &format!("help {game}"), "");
        for word in pbem::command::game_command_words() {
            send("alice", &format!("help {game} {word}"), "");
        }
    }
    // A game of each, and the answers and refusals of every family around them.
    for game in &games {
        send("alice", &format!("{game} challenge alice bob"), "");
    }
    for line in [
        "limit move 101 alice pw-alice 99-99,99",
        "limit move 101 bob pw-bob 1-1,1",
        "limit move 101 alice wrong-pw 1-1,1",
        "limit move 999 alice pw-alice 1-1,1",
        "limit mvoe 101 alice pw-alice 1-1,1",
        "limit move 101 alice pw-alice 1-1,1#7",
        "hex move 101 alice pw-alice z99",
        "hex move 101 alice pw-alice swap",
        "go move 101 alice pw-alice i9",
        "go move 101 alice pw-alice dead a1",
        "ataxx move 101 alice pw-alice a7-a4",
        "cups move 101 alice pw-alice x9",
        "limit challenge alice alice",
        "limit challenge alice nobody",
        "limit challenge -size=99 alice bob",
        "limit challenge --nagtime=0 alice bob",
        "go challenge -size=40 alice bob",
        "limit rematch 101 alice pw-alice",
        "limit move 101 alice pw-alice propose draw",
        "limit move 101 bob pw-bob reject",
        "limit move 101 alice pw-alice propose undo",
        "limit move 101 bob pw-bob accept",
        "limit move 101 bob pw-bob propose undo",
        "limit queue 101 bob pw-bob 1-1,1",
        "limit show 101",
        "limit show 101#1",
        "limit show 999",
        "limit history 101",
        "limit history 101 -record",
        "limit games alice",
        "limit ratings",
        "limit standings",
        "limit subscribe 101 carol pw-carol",
        "limit notify carol pw-carol on",
        "limit limit carol pw-carol 2",
        "limit accept carol pw-carol alice",
        "message alice pw-alice bob",
        "message alice pw-alice nobody",
        "vacation alice pw-alice 2026-12-01 2026-12-05",
        "vacation alice pw-alice 2026-12-05 2026-12-01",
        "vacation alice pw-alice off",
        "set alice pw-alice digest on",
        "set alice pw-alice digest off",
        "set alice pw-alice subject sideways",
        "password reset alice",
        "signup alice again",
        "signup x",
        "change address alice pw-alice",
        "frobnicate",
        "list",
        "limit preview 101 1-1,1",
        "hex resign 101 bob pw-bob",
        "hex rematch 101 bob pw-bob",
        "chameleon resign 101 alice pw-alice",
    ] {
        send("alice", line, "A line of text.\n");
    }
    assert!(mails.len() > 150, "{}", mails.len());
    let faults: Vec<String> = mails
        .iter()
        .flat_map(|m| layout_faults(&format!("{} / {}", m.subject, m.first_line()), &m.body))
        .collect();
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
