//! `pbem web`: read-only web pages of the games, served over HTTP by axum ([`serve`]).
//!
//! Pages: `/` (the game types), `/limit` (every game, paged), `/limit/101` (a board as SVG with its
//! move list; `?move=12` shows the game as move 12 was awaited), `/limit/ratings`, `/limit/standings`,
//! `/limit/player/alice` (a player's games, results and rating history; every name links there),
//! `/player/alice` (the player across every game type, linked from each of those pages).
//!
//! Read-only by construction: each worker holds a connection opened with SQLITE_OPEN_READ_ONLY, and
//! reads only what players may see of each other (userids, games, ratings): no query here selects an
//! address or a password hash. Every text from the database or the request is HTML-escaped; a request
//! that cannot be answered gets a 400 or 404 page that repeats no text of the request, only the
//! numbers read from it.

mod player;
mod serve;
mod stream;
mod target;

use std::fmt::Write as _;

pub use serve::run;

use crate::games::{GameRules, GameState, Registry, Status};
use crate::html::escape;
use crate::records;
use crate::storage::{Db, Listed, StorageError};
use crate::summary;

/// Games on one page of a game type's list.
pub const PAGE_SIZE: u32 = 50;

/// The longest query string read; a longer one is refused (400) without being looked at.
const MAX_QUERY: usize = 1024;

/// A page: the HTTP status and the whole HTML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// 200, 400, 404, 405, 500 or 503.
    pub status: u16,
    /// The HTML document (or, for a game record, the file's text).
    pub html: String,
    /// Its MIME type: HTML but for the game records (`record.txt`, `game.sgf`, `game.pgn`).
    pub content_type: &'static str,
}

/// The MIME type of every page but the game records.
pub const HTML: &str = "text/html; charset=utf-8";

/// The page for a request target (`/limit/101?move=12`), among `registry`'s games, on the server
/// whose mail address is `address` (the index tells newcomers to write there). Never panics on any
/// input; a storage failure is a 500 page (and a line on stderr).
pub fn answer(db: &mut Db, registry: &Registry, address: &str, target: &str) -> Page {
    match route(db, registry, address, target) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("pbem: web: {e}");
            error_page(500, "The database cannot be read just now; try again.")
        }
    }
}

fn route(
    db: &mut Db,
    registry: &Registry,
    address: &str,
    target: &str,
) -> Result<Page, StorageError> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if query.len() > MAX_QUERY {
        return Ok(error_page(400, "The query is too long."));
    }
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match parts[..] {
        [] => return index(db, registry, address),
        ["player", userid] => return player::across_games(db, registry, userid),
        _ => {}
    }
    // The address names the game exactly as its links write it: lowercase.
    let Some(rules) = registry.iter().find(|g| g.name() == parts[0]) else {
        return Ok(not_found());
    };
    match parts[1..] {
        [] => {
            let page = match number_param(query, "page") {
                Param::Absent => 1,
                Param::Number(n) if n >= 1 => n,
                _ => {
                    return Ok(error_page(
                        400,
                        "page must be a page number, 1 or more, like ?page=2.",
                    ));
                }
            };
            game_list(db, rules, page)
        }
        ["ratings"] => ratings(db, rules),
        ["standings"] => standings(db, rules),
        ["player", userid] => player::player_page(db, rules, userid),
        [board, file] => match parse_number(board) {
            Some(board) => record_file(db, rules, board, file),
            None => Ok(not_found()),
        },
        [board] => {
            let Some(board) = parse_number(board) else {
                return Ok(not_found());
            };
            let at = match number_param(query, "move") {
                Param::Absent => None,
                Param::Number(n) if n >= 1 => Some(n),
                _ => {
                    return Ok(error_page(
                        400,
                        "move must be a move number, 1 or more, like ?move=12.",
                    ));
                }
            };
            board_page(db, rules, board, at)
        }
        _ => Ok(not_found()),
    }
}

/// What a query string says of one parameter.
#[derive(Debug, PartialEq, Eq)]
enum Param {
    Absent,
    Number(u32),
    Bad,
}

/// The value of `name` in a query string (`a=1&page=2`), read as a whole number of at most 9 digits.
fn number_param(query: &str, name: &str) -> Param {
    let found = query
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == name);
    match found {
        None => Param::Absent,
        Some((_, v)) => parse_number(v).map_or(Param::Bad, Param::Number),
    }
}

/// Digits only (no sign, no space), at most 9 of them: `u32` without overflow.
fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;\
color:#222}table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;\
border-bottom:1px solid #ddd}nav a{margin-right:1em}.note{background:#fff3cd;padding:.5em}\
.board svg{width:100%;max-width:34em;height:auto}ol.moves{columns:3}.current{font-weight:bold}\
@media (max-width:600px){ol.moves{columns:1}}";

/// A whole document around `body` (already HTML); `title` is plain text.
fn document(status: u16, title: &str, body: &str) -> Page {
    Page {
        status,
        content_type: HTML,
        html: format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{t}</title><style>{STYLE}</style></head>\n<body>\n<h1>{t}</h1>\n{body}\
             </body></html>\n",
            t = escape(title)
        ),
    }
}

fn error_page(status: u16, message: &str) -> Page {
    let title = match status {
        400 => "Bad request",
        404 => "Not found",
        405 => "Method not allowed",
        503 => "Server busy",
        _ => "Server error",
    };
    document(
        status,
        title,
        &format!(
            "<p>{}</p>\n<p><a href=\"/\">All games</a></p>\n",
            escape(message)
        ),
    )
}

fn not_found() -> Page {
    error_page(404, "There is no such page here.")
}

fn nav(rules: &dyn GameRules) -> String {
    let n = rules.name();
    format!(
        "<nav><a href=\"/\">Home</a><a href=\"/{n}\">{t} games</a>\
         <a href=\"/{n}/ratings\">Ratings</a><a href=\"/{n}/standings\">Standings</a></nav>\n",
        t = escape(rules.title())
    )
}

fn index(db: &mut Db, registry: &Registry, address: &str) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let mut body = String::from("<p>The games this server hosts (read-only).</p>\n<ul>\n");
    for rules in registry.iter() {
        let (running, finished) = tx.game_counts(rules.name())?;
        let n = rules.name();
        let _ = writeln!(
            body,
            "<li><a href=\"/{n}\">{t}</a>: {running} running, {finished} finished \
             (<a href=\"/{n}/ratings\">ratings</a>, <a href=\"/{n}/standings\">standings</a>)</li>",
            t = escape(rules.title())
        );
    }
    body.push_str("</ul>\n");
    body.push_str(&how_to_join(registry, address));
    Ok(document(200, "pbem", &body))
}

/// The index's paragraph for a newcomer: everything is by mail to `address`, and what to write.
fn how_to_join(registry: &Registry, address: &str) -> String {
    let a = escape(address);
    let game = registry.names().first().copied().unwrap_or("limit");
    format!(
        "<h2>How to play</h2>\n<p>Everything is done by mail to <a href=\"mailto:{a}\">{a}</a>, \
         one command in the Subject:</p>\n<pre>\
         signup yourname yourpassword          (once: your mail address is the one you write from)\n\
         {game} challenge yourname theirname   (or robot1, robot2, robot3 for a robot)\n\
         {game} help                           (a game's rules; help: every command)</pre>\n\
         <p>Each move brings you the board by mail: reply to it with just your move.</p>\n"
    )
}

/// A listed game's status line: the saved one, or (a game not saved since migration 0011) from its
/// state.
fn listed_status(
    tx: &crate::storage::Tx<'_>,
    rules: &dyn GameRules,
    g: &Listed,
) -> Result<String, StorageError> {
    if let Some(s) = &g.status {
        return Ok(s.clone());
    }
    let json = tx.game_state(g.id)?;
    Ok(match rules.load(&json) {
        Ok(state) => summary::status_line(state.as_ref(), &g.players),
        Err(_) => "(unreadable)".to_string(),
    })
}

fn game_list(db: &mut Db, rules: &'static dyn GameRules, page: u32) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let (running, finished) = tx.game_counts(rules.name())?;
    let total = running + finished;
    let pages = total.div_ceil(u64::from(PAGE_SIZE)).max(1);
    if u64::from(page) > pages {
        return Ok(error_page(
            404,
            &format!("There is no page {page}: the list has {pages} page(s)."),
        ));
    }
    let offset = u64::from(page - 1) * u64::from(PAGE_SIZE);
    let games = tx.games_page(rules.name(), PAGE_SIZE, offset)?;
    let n = rules.name();
    let mut body = nav(rules);
    let _ = writeln!(
        body,
        "<p>{running} running, {finished} finished; most recently moved first. Page {page} of \
         {pages}.</p>"
    );
    if games.is_empty() {
        body.push_str("<p>No games yet.</p>\n");
    } else {
        body.push_str(
            "<table>\n<tr><th>Board</th><th>Players</th><th>Status</th><th>Last move</th></tr>\n",
        );
        for g in &games {
            let status = listed_status(&tx, rules, g)?;
            let players: Vec<String> = g
                .players
                .iter()
                .map(|p| player::player_link(n, p))
                .collect();
            let _ = writeln!(
                body,
                "<tr><td><a href=\"/{n}/{b}\">{b}</a></td><td>{p}</td><td>{s}</td><td>{t}</td></tr>",
                b = g.board,
                p = players.join(", "),
                s = escape(&status),
                t = escape(&summary::format_time(g.updated_at)),
            );
        }
        body.push_str("</table>\n");
    }
    body.push_str("<p>");
    if page > 1 {
        let _ = write!(body, "<a href=\"/{n}?page={}\">Newer games</a> ", page - 1);
    }
    if u64::from(page) < pages {
        let _ = write!(body, "<a href=\"/{n}?page={}\">Older games</a>", page + 1);
    }
    body.push_str("</p>\n");
    Ok(document(200, &format!("{} games", rules.title()), &body))
}

/// A game's record as a file (records.md): `record.txt` for every game, `game.sgf` where the game
/// has an SGF form, `game.pgn` where it has a PGN one; without the players' comments.
fn record_file(
    db: &mut Db,
    rules: &'static dyn GameRules,
    board: u32,
    file: &str,
) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let Some(view) = tx.game_view(rules.name(), board)? else {
        return Ok(error_page(
            404,
            &format!("There is no {} board {board}.", rules.title()),
        ));
    };
    let state = match rules.load(&view.state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pbem: web: {} board {board}: {e}", rules.name());
            return Ok(error_page(500, "This game's record cannot be read."));
        }
    };
    let players: Vec<String> = view.players.iter().map(|(u, _)| u.clone()).collect();
    // No page shows a comment (they are the players' words to each other): the files carry the
    // moves only. `GAME history N -record` by mail has them.
    let info = records::RecordInfo {
        game: rules.name(),
        board,
        players: &players,
        started: view.created_at,
        last_move: view.updated_at,
        comments: &[],
    };
    let (text, content_type) = match file {
        "record.txt" => (
            Some(records::text_record(state.as_ref(), &info)),
            "text/plain; charset=utf-8",
        ),
        "game.sgf" => (
            records::sgf(state.as_ref(), &info),
            "application/x-go-sgf; charset=utf-8",
        ),
        "game.pgn" => (
            records::pgn(state.as_ref(), &info),
            "application/vnd.chess-pgn; charset=utf-8",
        ),
        _ => return Ok(not_found()),
    };
    Ok(match text {
        Some(text) => Page {
            status: 200,
            html: text,
            content_type,
        },
        None => error_page(
            404,
            &format!(
                "{} games have no {file}; the game's record is at /{}/{board}/record.txt.",
                rules.title(),
                rules.name()
            ),
        ),
    })
}

/// The links to a game's record files, for its page.
fn record_links(state: &dyn GameState, n: &str, board: u32) -> String {
    let mut links = vec![format!(
        "<a href=\"/{n}/{board}/record.txt\">text record</a>"
    )];
    if state.sgf_form().is_some() {
        links.push(format!("<a href=\"/{n}/{board}/game.sgf\">SGF</a>"));
    }
    if state.pgn_start().is_some() {
        links.push(format!("<a href=\"/{n}/{board}/game.pgn\">PGN</a>"));
    }
    format!("<p>The game as a file: {}.</p>", links.join(", "))
}

fn board_page(
    db: &mut Db,
    rules: &'static dyn GameRules,
    board: u32,
    at: Option<u32>,
) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let Some(view) = tx.game_view(rules.name(), board)? else {
        return Ok(error_page(
            404,
            &format!("There is no {} board {board}.", rules.title()),
        ));
    };
    let now_state = match rules.load(&view.state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pbem: web: {} board {board}: {e}", rules.name());
            return Ok(error_page(500, "This game's record cannot be read."));
        }
    };
    let current = now_state.move_number();
    let at = at.filter(|&m| m != current);
    let shown: Box<dyn GameState> = match at {
        None => now_state.clone_box(),
        Some(m) if m > current => {
            return Ok(error_page(
                404,
                &format!("Board {board} has moves 1 to {current} only."),
            ));
        }
        Some(m) => match now_state.at_move(m) {
            Ok(s) => s,
            Err(_) => {
                return Ok(error_page(
                    404,
                    &format!("Board {board} has no position at move {m}."),
                ));
            }
        },
    };
    let players: Vec<String> = view.players.iter().map(|(u, _)| u.clone()).collect();
    let results = tx.game_results(view.id)?;
    let n = rules.name();
    let mut body = nav(rules);
    if let Some(m) = at {
        let _ = writeln!(
            body,
            "<p class=\"note\">This is an old position: the game as move {m} was awaited. \
             The game is now at move {current}: <a href=\"/{n}/{board}\">see it as it stands</a>.</p>"
        );
    }
    // A finished game has no move awaited: it says how many were played.
    let when = match shown.status() {
        Status::ToMove(_) => format!("Move {}.", shown.move_number()),
        Status::Over(_) => {
            let played = shown.moves().len();
            format!(
                "{played} move{} played.",
                if played == 1 { "" } else { "s" }
            )
        }
    };
    let _ = writeln!(
        body,
        "<p><strong>{}</strong> {when}</p>",
        escape(&summary::status_line(shown.as_ref(), &players)),
    );
    // What the board mail's summary says under the status: for Go the komi and the score the
    // players agreed, with the dead groups marked (issue 37, section 6).
    let notes = shown.notes();
    if !notes.is_empty() {
        let _ = writeln!(
            body,
            "<pre class=\"notes\">{}</pre>",
            escape(&notes.join("\n"))
        );
    }
    match shown.svg() {
        Some(svg) => {
            let _ = writeln!(body, "<div class=\"board\">{svg}</div>");
        }
        None => {
            let _ = writeln!(body, "<pre>{}</pre>", escape(&shown.render()));
        }
    }
    let shown_number = shown.move_number();
    body.push_str("<p>");
    if shown_number > 1 {
        let _ = write!(
            body,
            "<a href=\"/{n}/{board}?move={}\">&larr; Move {}</a> ",
            shown_number - 1,
            shown_number - 1
        );
    }
    if shown_number < current {
        let next = shown_number + 1;
        let href = if next == current {
            format!("/{n}/{board}")
        } else {
            format!("/{n}/{board}?move={next}")
        };
        let _ = write!(body, "<a href=\"{href}\">Move {next} &rarr;</a>");
    }
    body.push_str("</p>\n");

    body.push_str("<h2>Players</h2>\n<table>\n<tr><th>Side</th><th>Player</th><th>Rating</th>");
    if !results.is_empty() {
        body.push_str("<th>Result</th>");
    }
    body.push_str("</tr>\n");
    let sides = now_state.seat_names();
    for (seat, (userid, rating)) in view.players.iter().enumerate() {
        let _ = write!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{} ({} game{})</td>",
            escape(sides.get(seat).map(String::as_str).unwrap_or("?")),
            player::player_link(n, userid),
            player::rating_text(rating),
            rating.games,
            if rating.games == 1 { "" } else { "s" }
        );
        if let Some(r) = results.iter().find(|r| r.seat == seat) {
            let _ = write!(
                body,
                "<td>{}: {} &rarr; {}</td>",
                escape(r.result.as_str()),
                r.before.rating,
                r.after
            );
        } else if !results.is_empty() {
            body.push_str("<td></td>");
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</table>\n");
    if view.players.iter().any(|(_, r)| r.is_provisional()) {
        body.push_str(&player::provisional_note());
    }
    let _ = writeln!(
        body,
        "<p>Options: {}. Started {}, last move {}.</p>",
        escape(&now_state.options_summary()),
        escape(&summary::format_time(view.created_at)),
        escape(&summary::format_time(view.updated_at))
    );
    let _ = writeln!(body, "{}", record_links(now_state.as_ref(), n, board));

    body.push_str("<h2>Moves</h2>\n");
    let moves = now_state.moves();
    if moves.is_empty() {
        body.push_str("<p>No moves yet.</p>\n");
    } else {
        let _ = writeln!(
            body,
            "<p>Each move links to the board as it was after it; \
             <a href=\"/{n}/{board}?move=1\">the start</a>.</p>\n<ol class=\"moves\">"
        );
        for (i, m) in moves.iter().enumerate() {
            // Entry i (1-based) was played while move i was awaited: after it, move i + 1 is.
            let after = i as u32 + 2;
            let href = if after >= current {
                format!("/{n}/{board}")
            } else {
                format!("/{n}/{board}?move={after}")
            };
            let class = if after == shown_number {
                " class=\"current\""
            } else {
                ""
            };
            let side = sides.get(m.seat).map(String::as_str).unwrap_or("?");
            let who = players.get(m.seat).map(String::as_str).unwrap_or("?");
            let _ = writeln!(
                body,
                "<li{class}><a href=\"{href}\">{}</a> {}{}</li>",
                escape(&m.text),
                player::seat_link(n, side, who),
                if m.auto { " (Auto)" } else { "" }
            );
        }
        body.push_str("</ol>\n");
    }
    if matches!(now_state.status(), Status::Over(_)) && at.is_none() {
        body.push_str("<p>The game is over.</p>\n");
    }
    let title = format!("{} Board {board}", rules.title());
    Ok(document(200, &title, &body))
}

fn ratings(db: &mut Db, rules: &'static dyn GameRules) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let list = tx.rating_list(rules.name())?;
    let mut body = nav(rules);
    if list.is_empty() {
        body.push_str("<p>No rated games yet.</p>\n");
    } else {
        body.push_str("<table>\n<tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr>\n");
        for (i, (userid, r)) in list.iter().enumerate() {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                player::player_link(rules.name(), userid),
                player::rating_text(r),
                r.games
            );
        }
        body.push_str("</table>\n");
        if list.iter().any(|(_, r)| r.is_provisional()) {
            body.push_str(&player::provisional_note());
        }
    }
    Ok(document(200, &format!("{} ratings", rules.title()), &body))
}

fn standings(db: &mut Db, rules: &'static dyn GameRules) -> Result<Page, StorageError> {
    let tx = db.read()?;
    let list = tx.standings(rules.name())?;
    let mut body = nav(rules);
    if list.is_empty() {
        body.push_str("<p>No games yet.</p>\n");
    } else {
        body.push_str(
            "<table>\n<tr><th>Player</th><th>Played</th><th>Won</th><th>Lost</th><th>Drawn</th>\
             <th>Running</th></tr>\n",
        );
        for s in &list {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                player::player_link(rules.name(), &s.userid),
                s.played,
                s.won,
                s.lost,
                s.drawn,
                s.active
            );
        }
        body.push_str("</table>\n");
    }
    Ok(document(
        200,
        &format!("{} standings", rules.title()),
        &body,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The page for `target` among the standard games.
    fn get(db: &mut Db, target: &str) -> Page {
        answer(db, &Registry::standard(), "pbem@localhost", target)
    }

    #[test]
    fn numbers_are_digits_only_and_bounded() {
        assert_eq!(parse_number("12"), Some(12));
        assert_eq!(parse_number("999999999"), Some(999_999_999));
        for bad in [
            "",
            "-1",
            "+1",
            "1e3",
            "abc",
            " 1",
            "%00",
            "9999999999",
            "1.0",
        ] {
            assert_eq!(parse_number(bad), None, "{bad:?}");
        }
        assert_eq!(number_param("a=1&move=7", "move"), Param::Number(7));
        assert_eq!(number_param("page=2", "move"), Param::Absent);
        assert_eq!(number_param("move", "move"), Param::Bad);
        assert_eq!(number_param("move=<script>", "move"), Param::Bad);
    }

    #[test]
    fn pages_of_an_empty_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        drop(Db::open(&path, Duration::from_secs(5)).unwrap());
        let mut db = Db::open_read_only(&path, Duration::from_secs(5)).unwrap();
        assert_eq!(get(&mut db, "/").status, 200);
        let list = get(&mut db, "/limit");
        assert_eq!(list.status, 200);
        assert!(list.html.contains("No games yet."));
        assert_eq!(get(&mut db, "/limit?page=2").status, 404);
        assert_eq!(get(&mut db, "/limit?page=0").status, 400);
        assert_eq!(get(&mut db, "/limit/101").status, 404);
        assert_eq!(get(&mut db, "/nogame").status, 404);
        assert_eq!(get(&mut db, "/limit/ratings").status, 200);
        assert_eq!(get(&mut db, "/limit/standings").status, 200);
        let long = format!("/limit?page={}", "1".repeat(5000));
        assert_eq!(get(&mut db, &long).status, 400);
    }

    #[test]
    fn the_list_is_paged_newest_first_and_stored_text_is_escaped() {
        use crate::storage::SavedStatus;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        {
            let mut db = Db::open(&path, Duration::from_secs(5)).unwrap();
            let tx = db.transaction().unwrap();
            // Userids are checked on signup, not by storage: a page must escape whatever is stored.
            let a = tx.insert_user("<b>ann", "h", &[], 1).unwrap();
            let b = tx.insert_user("bo&b", "h", &[], 1).unwrap();
            for i in 0..51u32 {
                let status = SavedStatus {
                    finished: i % 2 == 0,
                    to_move: None,
                    line: format!("line {i} <script>"),
                };
                tx.insert_game(
                    "limit",
                    101 + i,
                    "{}",
                    &status,
                    &[a, b],
                    1000 + i64::from(i),
                )
                .unwrap();
            }
            tx.commit().unwrap();
        }
        let mut db = Db::open_read_only(&path, Duration::from_secs(5)).unwrap();
        let first = get(&mut db, "/limit");
        assert_eq!(first.status, 200);
        assert!(
            first.html.contains("25 running, 26 finished"),
            "{}",
            first.html
        );
        assert!(first.html.contains("Page 1 of 2."));
        assert_eq!(first.html.matches("<tr><td><a href").count(), 50);
        // Newest first: board 151 (moved last) leads, board 101 is on page 2.
        assert!(first.html.contains("href=\"/limit/151\""));
        assert!(!first.html.contains("href=\"/limit/101\""));
        assert!(first.html.contains("href=\"/limit?page=2\">Older games"));
        assert!(
            first.html.contains(
                "<a href=\"/limit/player/%3Cb%3Eann\">&lt;b&gt;ann</a>, \
                 <a href=\"/limit/player/bo%26b\">bo&amp;b</a>"
            ),
            "{}",
            first.html
        );
        assert!(first.html.contains("line 50 &lt;script&gt;"));
        assert!(!first.html.contains("<script>") && !first.html.contains("<b>ann"));
        let second = get(&mut db, "/limit?page=2");
        assert_eq!(second.status, 200);
        assert_eq!(second.html.matches("<tr><td><a href").count(), 1);
        assert!(second.html.contains("href=\"/limit/101\""));
        assert!(second.html.contains("href=\"/limit?page=1\">Newer games"));
        assert_eq!(get(&mut db, "/limit?page=3").status, 404);
        // The standings page escapes the stored userids too.
        let standings = get(&mut db, "/limit/standings");
        assert!(
            standings.html.contains("&lt;b&gt;ann"),
            "{}",
            standings.html
        );
    }

    #[test]
    fn the_read_only_connection_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        drop(Db::open(&path, Duration::from_secs(5)).unwrap());
        let mut db = Db::open_read_only(&path, Duration::from_secs(5)).unwrap();
        let tx = db.read().unwrap();
        assert!(tx.insert_user("mallory", "h", &[], 1).is_err());
    }

    #[test]
    fn a_games_record_files_and_the_links_to_them() {
        use crate::storage::SavedStatus;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let registry = Registry::standard();
        {
            let mut db = Db::open(&path, Duration::from_secs(5)).unwrap();
            let tx = db.transaction().unwrap();
            let a = tx.insert_user("ann", "h", &[], 1).unwrap();
            let b = tx.insert_user("bob", "h", &[], 1).unwrap();
            let status = SavedStatus {
                finished: false,
                to_move: Some(1),
                line: "White to move".into(),
            };
            for (game, first) in [("hex", "c3"), ("y", "c3"), ("ataxx", "b6")] {
                let mut g = registry.find(game).unwrap().new_game(&[], 2, 0).unwrap();
                g.play(first).unwrap();
                tx.insert_game(game, 101, &g.to_json(), &status, &[a, b], 1000)
                    .unwrap();
            }
            tx.commit().unwrap();
        }
        let mut db = Db::open_read_only(&path, Duration::from_secs(5)).unwrap();
        let page = get(&mut db, "/hex/101");
        assert!(
            page.html.contains("href=\"/hex/101/record.txt\""),
            "{}",
            page.html
        );
        assert!(page.html.contains("href=\"/hex/101/game.sgf\""));
        let sgf = get(&mut db, "/hex/101/game.sgf");
        assert_eq!(
            (sgf.status, sgf.content_type),
            (200, "application/x-go-sgf; charset=utf-8")
        );
        assert!(
            sgf.html.contains("GM[11]") && sgf.html.contains(";B[c3]"),
            "{}",
            sgf.html
        );
        let record = get(&mut db, "/hex/101/record.txt");
        assert_eq!(record.content_type, "text/plain; charset=utf-8");
        assert!(
            record
                .html
                .starts_with("Game: hex 101\nBlack: ann\nWhite: bob\n")
        );
        assert!(record.html.contains("\n1. black c3\n"), "{}", record.html);
        // Y has no SGF form: no link, and the file says where the record is.
        assert!(!get(&mut db, "/y/101").html.contains("game.sgf"));
        let none = get(&mut db, "/y/101/game.sgf");
        assert_eq!(none.status, 404);
        assert!(none.html.contains("/y/101/record.txt"), "{}", none.html);
        assert!(
            get(&mut db, "/ataxx/101")
                .html
                .contains("href=\"/ataxx/101/game.pgn\"")
        );
        assert!(get(&mut db, "/ataxx/101/game.pgn").html.contains("1. b6 *"));
        assert_eq!(get(&mut db, "/hex/101/other.txt").status, 404);
        assert_eq!(get(&mut db, "/hex/102/record.txt").status, 404);
        assert_eq!(get(&mut db, "/hex/x/record.txt").status, 404);
    }
}
