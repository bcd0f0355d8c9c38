//! Reading a line: [`parse`] finds the command in the [`table`](super::table) by its first words and
//! hands the rest of the line to the command's parse function.

use super::args::{Args, Problem};
use super::ast::RawCommand;
use super::candidates::may_be_password;
use super::error::CommandError;
use super::mask::{PLACEHOLDER, mask_secrets};
use super::recognise::ADMIN;
use super::spelling::closest;
use super::table::{
    CommandDef, Parse, game_command_words, game_def, group, member, server_def, server_keywords,
};
use super::usage::{group_usage, usage};
use super::words::is_placeholder;

/// Reads one command line. The line is checked for form only (see the module documentation). An
/// error quotes the words it is about as written: a line that does not parse has no password places
/// to mask, and whoever shows the error hides the passwords of the mail in it.
pub fn parse(line: &str) -> Result<RawCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let cmd = dispatch(&words)?;
    // Our own mails show commands with `<password>` in place of the password. A line that still holds
    // the placeholder was copied back unchanged (often by an autoresponder quoting our answer): it is
    // refused here, before any password check, so that an echo costs no argon2 work. The line is
    // quoted with its other passwords masked and the placeholder as written.
    let passwords = cmd.passwords();
    if passwords.iter().any(|pw| is_placeholder(pw)) {
        let real: Vec<&str> = passwords
            .into_iter()
            .filter(|pw| !is_placeholder(pw))
            .collect();
        return Err(CommandError::Usage {
            problem: "the command still holds the placeholder `<password>`: write your own \
                      password in its place"
                .into(),
            usage: mask_secrets(&words.join(" "), &real),
        });
    }
    Ok(cmd)
}

/// Finds the command the first words name and reads the rest with its parse function.
fn dispatch(words: &[&str]) -> Result<RawCommand, CommandError> {
    let Some(first) = words.first() else {
        return Err(CommandError::Empty);
    };
    let first = first.to_lowercase();
    if first == ADMIN {
        return Err(CommandError::Unknown {
            what:
                "'admin' is the server admin's, at the shell (`pbem admin ...`); it is not taken \
                   by mail"
                    .to_string(),
        });
    }
    if let Some(g) = group(&first) {
        let second = words.get(1).map(|w| w.to_lowercase());
        return match second.as_deref().and_then(|w| member(g, w)) {
            Some(def) => run_server(def, &def.words.join(" "), &words[2..]),
            None => Err(CommandError::Usage {
                problem: (g.problem)(words.get(1).copied()),
                usage: group_usage(g),
            }),
        };
    }
    if let Some(def) = server_def(&first) {
        return run_server(def, &first, &words[1..]);
    }
    let game = first;
    let g = game.clone();
    let Some(word) = words.get(1) else {
        // One word: a mistyped server command ("frobnicate", "sigup"), or a game's name alone.
        let hint = closest(&game, server_keywords())
            .map(|c| format!(" (did you mean '{c}'?)"))
            .unwrap_or_default();
        return Err(CommandError::Unknown {
            what: format!("'{g}' is not a command{hint} (a game's name needs a command after it)"),
        });
    };
    let word = word.to_lowercase();
    let Some(def) = game_def(&word) else {
        // "limit mvoe ...": a mistyped game command; "sigup alice ...": a mistyped server command
        // read as a game's name.
        let what = format!("'{} {}' is not a command", words[0], words[1]);
        let fix = closest(&word, game_command_words())
            .and_then(|c| game_def(c).map(|d| (format!("{} {c}", words[0]), d, &words[2..])))
            .or_else(|| {
                closest(&game, server_keywords())
                    .and_then(|c| server_def(c).map(|d| (c.to_string(), d, &words[1..])))
            });
        let what = match fix {
            Some((head, def, rest)) => {
                format!("{what}; did you mean:\n{}", fixed_line(&head, def, rest))
            }
            None => what,
        };
        return Err(CommandError::Unknown { what });
    };
    let Parse::Game(parse) = def.parse else {
        unreachable!("game_def finds only games' commands");
    };
    let name = format!("{g} {word}");
    let args = Args {
        words: &words[2..],
        name: &name,
        game: &g,
    };
    let command = parse(&args).map_err(|p| problem(p, usage(def, &g)))?;
    Ok(RawCommand::Game { game, command })
}

/// The line a mistyped command was meant to be, to send as it is: the right command words, then
/// the words as written, `<password>` where the command has its passwords, indented as an example:
/// `    limit move 101 bob <password> 2-1,9#4`. Past the first password place it stops, with `...`,
/// at the first word that may be a password (`limit mvoe 101 bob x PW`: the words may be out of
/// place), since the answer does not quote that part of a line it could not read.
fn fixed_line(head: &str, def: &CommandDef, rest: &[&str]) -> String {
    let first_password = def.passwords.iter().min().copied().unwrap_or(usize::MAX);
    let mut words: Vec<&str> = Vec::new();
    for (i, w) in rest.iter().enumerate() {
        if def.passwords.contains(&i) {
            words.push(PLACEHOLDER);
        } else if i > first_password && may_be_password(w, &[]) {
            words.push("...");
            break;
        } else {
            words.push(w);
        }
    }
    if words.is_empty() {
        format!("    {head}")
    } else {
        format!("    {head} {}", words.join(" "))
    }
}

/// Reads a server command's words.
fn run_server(def: &CommandDef, name: &str, words: &[&str]) -> Result<RawCommand, CommandError> {
    let Parse::Server(parse) = def.parse else {
        unreachable!("server_def and member find only server commands");
    };
    let args = Args {
        words,
        name,
        game: "",
    };
    parse(&args).map_err(|p| problem(p, usage(def, "")))
}

fn problem(p: Problem, usage: String) -> CommandError {
    CommandError::Usage {
        problem: p.0,
        usage,
    }
}
