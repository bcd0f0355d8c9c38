//! Tests of the command table: that what it says (usage lines, password positions, words) is what the
//! parser, the masking and the recognisers do.

use super::table::{CommandDef, GROUPS, Scope, TABLE, defs, group, members};
use super::*;

/// The value a usage placeholder is filled with; `None` for a placeholder the test does not know,
/// which fails the test (a new placeholder needs a value here).
fn value(name: &str, secrets: &mut Vec<String>) -> Option<String> {
    if name.ends_with("password") {
        let pw = format!("Secret{}x", secrets.len() + 1);
        secrets.push(pw.clone());
        return Some(pw);
    }
    Some(
        match name {
            "userid" | "userid1" => "alice",
            "userid2" | "to userid" => "bob",
            "userid3" => "carol",
            "address" => "alice@example.org",
            "subject" | "game" => "limit",
            "code" => "C0de77",
            "first day" => "2026-12-01",
            "last day" => "2026-12-05",
            "board" => "101",
            "move" => "3-7,4",
            "n" | "N" => "3",
            _ => return None,
        }
        .to_string(),
    )
}

/// Splits at spaces outside `[...]` and `<...>`.
fn split_top(s: &'static str, sep: char) -> Vec<&'static str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '<' => depth += 1,
            ']' | '>' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A phrase of a usage form written out: the `choice`th of its choices (`a|b`; the last if there are
/// fewer), optional parts (`[...]`) put in or left out, placeholders (`<userid>`) filled in, `...`
/// dropped.
fn fill(
    phrase: &'static str,
    optional: bool,
    choice: usize,
    secrets: &mut Vec<String>,
) -> Vec<String> {
    let pick = |choices: Vec<&'static str>| choices[choice.min(choices.len() - 1)];
    // Choices between phrases are written ` | `, between words `|`.
    let chosen = if phrase.contains(" | ") {
        pick(split_top(phrase, '|'))
    } else {
        phrase
    };
    let mut out = Vec::new();
    for token in split_top(chosen, ' ') {
        let token = token.trim_end_matches("...");
        if let Some(inner) = token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if optional {
                out.extend(fill(inner, optional, choice, secrets));
            }
            continue;
        }
        let token = pick(split_top(token, '|'));
        // A word with an optional tail: `<move>[#N]`, `-option[=value]`.
        let (head, tail) = match token.find('[') {
            Some(i) if i > 0 => (&token[..i], Some(&token[i + 1..token.len() - 1])),
            _ => (token, None),
        };
        let mut word = match head.strip_prefix('<').and_then(|h| h.strip_suffix('>')) {
            Some(name) => value(name, secrets)
                .unwrap_or_else(|| panic!("no value for the placeholder <{name}>")),
            None => head.to_string(),
        };
        if let (Some(tail), true) = (tail, optional) {
            word.push_str(&tail.replace("#N", "#3"));
        }
        out.push(word);
    }
    out
}

/// Every form of every command's usage, written out with and without its optional parts and with
/// each of its choices: the line, the command and the passwords put in.
fn filled_forms() -> Vec<(String, &'static CommandDef, Vec<String>)> {
    let mut all: Vec<(String, &'static CommandDef, Vec<String>)> = Vec::new();
    for def in TABLE {
        for form in def.usage {
            let form = form.split("   (").next().unwrap();
            for optional in [false, true] {
                for choice in 0..4 {
                    let mut secrets = Vec::new();
                    let mut words = fill(form, optional, choice, &mut secrets);
                    if def.scope() == Scope::Game {
                        words.insert(0, "limit".into());
                    }
                    let line = words.join(" ");
                    if !all.iter().any(|(l, ..)| *l == line) {
                        all.push((line, def, secrets));
                    }
                }
            }
        }
    }
    all
}

#[test]
fn every_usage_form_parses_back_into_its_command() {
    for (line, def, _) in filled_forms() {
        let cmd = parse(&line).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"));
        let mut words = def.words.join(" ");
        if def.scope() == Scope::Game {
            words = format!("limit {words}");
        }
        let red = cmd.redacted();
        assert!(
            red == words || red.starts_with(&format!("{words} ")),
            "{line:?} parsed as {red:?}"
        );
    }
}

#[test]
fn the_table_says_where_the_parser_finds_passwords() {
    for (line, def, secrets) in filled_forms() {
        let cmd = parse(&line).unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let at: Vec<&str> = def
            .passwords
            .iter()
            .filter_map(|p| words.get(def.prefix_len() + p).copied())
            .collect();
        // A challenge's password is an option, found wherever it stands.
        let found: Vec<&str> = cmd
            .passwords()
            .into_iter()
            .filter(|pw| words.contains(pw))
            .collect();
        assert_eq!(
            found, at,
            "{line:?}: the parser's passwords, the table's places"
        );
        for pw in &secrets {
            assert!(
                at.contains(&pw.as_str()),
                "{line:?}: <...password> {pw} is not in `passwords`"
            );
        }
    }
}

#[test]
fn every_command_with_a_password_logs_in_with_it() {
    for (line, _, secrets) in filled_forms() {
        let cmd = parse(&line).unwrap();
        // `signup` makes the password; `password set` proves itself with the mailed code.
        let no_login = matches!(
            cmd,
            RawCommand::Signup { .. } | RawCommand::PasswordSet { .. }
        );
        match cmd.login() {
            Some((userid, pw)) => {
                assert_eq!(userid, "alice", "{line:?}: logs in as the wrong player");
                assert!(
                    secrets.iter().any(|s| s == pw.expose()),
                    "{line:?}: logs in with a word that is not one of its passwords"
                );
            }
            None => assert!(
                no_login || secrets.is_empty(),
                "{line:?} has a password but no login: its password would be checked inside \
                 the write lock (add it to RawCommand::login)"
            ),
        }
    }
}

#[test]
fn every_password_place_of_the_table_is_a_candidate() {
    for (line, def, _) in filled_forms() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for p in def.passwords {
            let i = def.prefix_len() + p;
            if i < words.len() {
                let want = words[i].strip_prefix("--password=").unwrap_or(words[i]);
                let c = password_candidates(&line, &["limit"]);
                assert!(c.contains(&want), "{line:?} -> {c:?}");
                // Also when the command's word is mistyped, and when the words after it are too
                // few to parse: there, it comes first.
                let mut typo = words.clone();
                let w = def.prefix_len() - 1;
                let misspelt = format!("{}x", typo[w]);
                typo[w] = &misspelt;
                let typo_line = typo[..=i].join(" ");
                let c = password_candidates(&typo_line, &["limit"]);
                assert!(c.contains(&want), "{typo_line:?} -> {c:?}");
            }
        }
    }
}

#[test]
fn every_command_word_of_the_table_is_recognised() {
    let games = ["limit"];
    for def in TABLE {
        let lines: Vec<String> = match def.scope() {
            Scope::Server => def
                .spellings()
                .map(|w| format!("{w} {}", def.words[1..].join(" ")))
                .collect(),
            Scope::Game => vec![format!("limit {}", def.words[0])],
        };
        for line in lines {
            let line = format!("{} 101", line.trim_end());
            assert!(looks_like_command(&line, &games), "{line:?}");
            assert!(may_be_command(&line, &games), "{line:?}");
            let upper = line.to_uppercase();
            assert!(looks_like_command(&upper, &games), "{upper:?}");
        }
    }
    // The first word of a group alone, or with an unknown second word, is not a command.
    for g in GROUPS {
        assert!(!looks_like_command(g.word, &games), "{}", g.word);
        assert!(!looks_like_command(&format!("{} of plans", g.word), &games));
    }
}

#[test]
fn every_command_is_in_the_lists_and_has_help() {
    let list = command_list();
    let help = format!("{}{}", help_list(Scope::Server), help_list(Scope::Game));
    for def in TABLE {
        assert!(!def.usage.is_empty(), "{:?}", def.words);
        // `queue` is explained with the proposals, in a section of the help of its own.
        assert_eq!(
            def.help.is_empty(),
            def.words == ["queue"],
            "{:?}",
            def.words
        );
        let name = match def.scope() {
            Scope::Server => def.words.join(" "),
            Scope::Game => format!("<game> {}", def.words[0]),
        };
        assert!(list.contains(&format!("  {name} ")) || list.contains(&format!("  {name}\n")));
        assert!(
            def.help.is_empty()
                || help.contains(&format!("  {name} "))
                || help.contains(&format!("  {name}\n")),
            "{name} is not in the help:\n{help}"
        );
        let subject: Vec<String> = name.split(' ').map(String::from).collect();
        let usage = command_usage(&subject).unwrap_or_else(|| panic!("no help on {name}"));
        assert!(usage.starts_with(&name), "{name}: {usage}");
    }
    // `unsubscribe` was missing from a hand-kept list of game commands.
    assert!(list.contains("<game> unsubscribe <board>"), "{list}");
}

#[test]
fn the_table_is_consistent() {
    for scope in [Scope::Server, Scope::Game] {
        let mut seen: Vec<String> = Vec::new();
        for def in defs(scope) {
            assert!(matches!(def.words.len(), 1 | 2), "{:?}", def.words);
            assert!(scope == Scope::Server || def.words.len() == 1);
            let key = def.words.join(" ");
            assert!(!seen.contains(&key), "{key} twice");
            seen.push(key);
            // Words and aliases are lowercase: the parser lowercases what it looks up.
            for w in def.words.iter().chain(def.aliases) {
                assert_eq!(*w, w.to_lowercase());
            }
            if def.words.len() == 2 {
                assert!(
                    group(def.words[0]).is_some(),
                    "{:?} has no group",
                    def.words
                );
            } else if scope == Scope::Server {
                assert!(
                    group(def.words[0]).is_none(),
                    "{:?} is also a group",
                    def.words
                );
            }
        }
    }
    for g in GROUPS {
        assert!(members(g).count() >= 2, "group {}", g.word);
        assert!(!g.unreadable.is_empty(), "group {}", g.word);
    }
    // Every keyword is reached by a typo of it: its last two letters swapped.
    for w in server_keywords().iter().chain(game_command_words()) {
        if w.len() >= 4 {
            let mut typo: Vec<char> = w.chars().collect();
            let n = typo.len();
            typo.swap(n - 1, n - 2);
            let typo: String = typo.into_iter().collect();
            assert_eq!(nearest_command(&typo), Some(*w), "{typo}");
        }
    }
}

#[test]
fn an_unknown_group_member_gets_the_group_usage() {
    for g in GROUPS {
        let err = parse(&format!("{} frobnicate alice x y", g.word))
            .unwrap_err()
            .to_string();
        for def in members(g) {
            assert!(err.contains(&def.words.join(" ")), "{err}");
        }
    }
}
