//! A player's page of one game type (`/limit/player/alice`, issue 25 section 4): the rating (with the
//! provisional `P` the mails show), the record won/lost/drawn, every game of the type with its result,
//! and the rating history game by game. Every player's name on the other pages links here. And
//! `/player/alice` (issue 37, item 6): the player across every game type, with the running games
//! of all of them, linked from each game type's page of the player.

use std::fmt::Write as _;

use super::{Page, document, error_page, listed_status, nav};
use crate::games::{GameRules, Registry};
use crate::html::escape;
use crate::ratings::{PROVISIONAL_GAMES, Rating, SeatResult};
use crate::storage::{Db, GamesFilter, StorageError};
use crate::summary;

/// The longest userid a link can name (signup allows 20 characters).
const MAX_USERID: usize = 20;

/// The address of a player's page of a game type: bytes other than ASCII letters, digits, `_` and
/// `-` (which signup never lets in a userid) are percent-encoded.
pub(super) fn player_href(game: &str, userid: &str) -> String {
    format!("/{game}/player/{}", encoded(userid))
}

/// A userid as a path segment: bytes other than ASCII letters, digits, `_` and `-` percent-encoded.
fn encoded(userid: &str) -> String {
    let mut out = String::new();
    for b in userid.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The address of a player's page across every game type: `/player/alice`.
pub(super) fn across_href(userid: &str) -> String {
    format!("/player/{}", encoded(userid))
}

/// A player's name as a link to their page.
pub(super) fn player_link(game: &str, userid: &str) -> String {
    format!(
        "<a href=\"{}\">{}</a>",
        player_href(game, userid),
        escape(userid)
    )
}

/// `Red (<a>alice</a>)`: a seat as [`summary::seat_label`] writes it, the userid linked.
pub(super) fn seat_link(game: &str, side: &str, userid: &str) -> String {
    format!("{} ({})", escape(side), player_link(game, userid))
}

/// A rating as the mails write it: `1632`, with ` P` while provisional.
pub(super) fn rating_text(r: &Rating) -> String {
    if r.is_provisional() {
        format!("{} P", r.rating)
    } else {
        r.rating.to_string()
    }
}

/// The note under a table that shows a `P`.
pub(super) fn provisional_note() -> String {
    format!(
        "<p>P: provisional, for a player's first {PROVISIONAL_GAMES} rated games of the type.</p>\n"
    )
}

/// A userid as a link may name it; else the 404 page that says what a userid is.
fn check_userid(userid: &str) -> Result<(), Page> {
    let valid = !userid.is_empty()
        && userid.len() <= MAX_USERID
        && userid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if valid {
        Ok(())
    } else {
        Err(error_page(
            404,
            "There is no such player: a userid is 1 to 20 letters, digits, '_' or '-'.",
        ))
    }
}

/// The page of a player across every game type: for each type they played, the rating and the
/// record (linked to that type's page of them), then their running games of every type.
pub(super) fn across_games(
    db: &mut Db,
    registry: &Registry,
    userid: &str,
) -> Result<Page, StorageError> {
    if let Err(page) = check_userid(userid) {
        return Ok(page);
    }
    let tx = db.read()?;
    let Some((id, name)) = tx.player(userid)? else {
        return Ok(error_page(404, "There is no player of that name here."));
    };
    let mut body = String::from("<nav><a href=\"/\">Home</a></nav>\n<h2>Games by type</h2>\n");
    let mut table = String::new();
    let mut running_rows = String::new();
    let mut provisional = false;
    for rules in registry.iter() {
        let n = rules.name();
        let games = tx.games_of(id, n, GamesFilter::All)?;
        if games.is_empty() {
            continue;
        }
        let rating = tx.rating(n, id)?;
        provisional |= rating.is_provisional();
        let (won, lost, drew) = record(&games, &name);
        let running = games.iter().filter(|g| !g.finished).count();
        let _ = writeln!(
            table,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{won}</td><td>{lost}</td>\
             <td>{drew}</td><td>{running}</td></tr>",
            player_href(n, &name),
            escape(rules.title()),
            rating_text(&rating),
        );
        for g in games.iter().filter(|g| !g.finished) {
            let players: Vec<String> = g.players.iter().map(|p| player_link(n, p)).collect();
            let _ = writeln!(
                running_rows,
                "<tr><td>{}</td><td><a href=\"/{n}/{b}\">{b}</a></td><td>{}</td><td>{}</td></tr>",
                escape(rules.title()),
                players.join(", "),
                escape(&listed_status(&tx, rules, g)?),
                b = g.board,
            );
        }
    }
    if table.is_empty() {
        body.push_str("<p>No games yet.</p>\n");
    } else {
        let _ = writeln!(
            body,
            "<table>\n<tr><th>Game</th><th>Rating</th><th>Won</th><th>Lost</th><th>Drawn</th>\
             <th>Running</th></tr>\n{table}</table>"
        );
        if provisional {
            body.push_str(&provisional_note());
        }
    }
    body.push_str("<h2>Running games</h2>\n");
    if running_rows.is_empty() {
        body.push_str("<p>None.</p>\n");
    } else {
        let _ = writeln!(
            body,
            "<table>\n<tr><th>Game</th><th>Board</th><th>Players</th><th>Status</th></tr>\n\
             {running_rows}</table>"
        );
    }
    Ok(document(200, &format!("Player {name}"), &body))
}

/// Games won, lost and drawn by `name` among `games`.
fn record(games: &[crate::storage::Listed], name: &str) -> (u32, u32, u32) {
    let (mut won, mut lost, mut drew) = (0, 0, 0);
    for g in games {
        match g
            .results
            .iter()
            .find(|r| r.userid == name)
            .map(|r| r.result)
        {
            Some(SeatResult::Won) => won += 1,
            Some(SeatResult::Lost) => lost += 1,
            Some(SeatResult::Drew) => drew += 1,
            None => {}
        }
    }
    (won, lost, drew)
}

/// The page of `userid` (as written in the address) for the game type `rules`.
pub(super) fn player_page(
    db: &mut Db,
    rules: &'static dyn GameRules,
    userid: &str,
) -> Result<Page, StorageError> {
    if let Err(page) = check_userid(userid) {
        return Ok(page);
    }
    let tx = db.read()?;
    let Some((id, name)) = tx.player(userid)? else {
        return Ok(error_page(404, "There is no player of that name here."));
    };
    let n = rules.name();
    let rating = tx.rating(n, id)?;
    let games = tx.games_of(id, n, GamesFilter::All)?;
    let mut body = nav(rules);
    let (won, lost, drew) = record(&games, &name);
    let running = games.iter().filter(|g| !g.finished).count();
    let _ = writeln!(
        body,
        "<p>Rating <strong>{}</strong> after {} rated game{}. Won {won}, lost {lost}, drawn \
         {drew}; {running} running.</p>",
        rating_text(&rating),
        rating.games,
        if rating.games == 1 { "" } else { "s" },
    );
    if rating.is_provisional() {
        body.push_str(&provisional_note());
    }
    let _ = writeln!(
        body,
        "<p><a href=\"{}\">All games of {}</a>, of every type.</p>",
        across_href(&name),
        escape(&name)
    );

    body.push_str("<h2>Games</h2>\n");
    if games.is_empty() {
        let _ = writeln!(body, "<p>No {} games yet.</p>", escape(rules.title()));
    } else {
        body.push_str(
            "<table>\n<tr><th>Board</th><th>Players</th><th>Status</th><th>Result</th></tr>\n",
        );
        // Newest first, as the list of all games.
        let mut newest = games.iter().collect::<Vec<_>>();
        newest.sort_by_key(|g| std::cmp::Reverse((g.updated_at, g.board)));
        for g in newest {
            let players: Vec<String> = g.players.iter().map(|p| player_link(n, p)).collect();
            let result = g
                .results
                .iter()
                .find(|r| r.userid == name)
                .map(|r| {
                    format!(
                        "{}: {} &rarr; {}",
                        r.result.as_str(),
                        r.before.rating,
                        r.after
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                body,
                "<tr><td><a href=\"/{n}/{b}\">{b}</a></td><td>{}</td><td>{}</td><td>{result}</td></tr>",
                players.join(", "),
                escape(&listed_status(&tx, rules, g)?),
                b = g.board,
            );
        }
        body.push_str("</table>\n");
    }

    body.push_str("<h2>Rating history</h2>\n");
    let mut rated: Vec<_> = games
        .iter()
        .filter_map(|g| Some((g, g.results.iter().find(|r| r.userid == name)?)))
        .collect();
    // The games in the order they were rated: by the games played before each.
    rated.sort_by_key(|(g, r)| (r.before.games, g.updated_at));
    if rated.is_empty() {
        body.push_str("<p>No rated game yet; everyone starts at 1600.</p>\n");
    } else {
        body.push_str(
            "<table>\n<tr><th>#</th><th>Board</th><th>Ended</th><th>Result</th><th>Rating</th></tr>\n",
        );
        for (g, r) in rated {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td><a href=\"/{n}/{b}\">{b}</a></td><td>{}</td><td>{}</td>\
                 <td>{} &rarr; {}</td></tr>",
                r.before.games + 1,
                escape(&summary::format_time(g.updated_at)),
                r.result.as_str(),
                r.before.rating,
                r.after,
                b = g.board,
            );
        }
        body.push_str("</table>\n");
    }
    Ok(document(
        200,
        &format!("{} player {name}", rules.title()),
        &body,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_name_only_safe_bytes() {
        assert_eq!(player_href("limit", "alice_2-b"), "/limit/player/alice_2-b");
        assert_eq!(player_href("hex", "<b>a"), "/hex/player/%3Cb%3Ea");
        assert_eq!(
            player_link("limit", "<b>"),
            "<a href=\"/limit/player/%3Cb%3E\">&lt;b&gt;</a>"
        );
    }

    #[test]
    fn provisional_ratings_carry_a_p() {
        let r = |games| Rating {
            rating: 1632,
            games,
        };
        assert_eq!(rating_text(&r(3)), "1632 P");
        assert_eq!(rating_text(&r(PROVISIONAL_GAMES)), "1632");
    }
}
