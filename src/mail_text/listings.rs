//! The English of the answers that show things ([`Listing`]): `list`, `games`, `ratings`,
//! `standings`, and `history` without a board.

use super::rating_change;
use crate::decision::{Listing, PlayerGames};
use crate::model::GamesFilter;
use crate::ratings::{INITIAL_RATING, PROVISIONAL_GAMES, SeatResult};
use crate::storage::GameResult;
use crate::summary;

/// The Subject and text of a listing.
pub fn listing(listing: &Listing) -> (String, String) {
    match listing {
        Listing::Hosted { server, games } => {
            let mut text = format!("Games hosted by {server}:\n\n");
            for h in games {
                let g = h.game;
                // "2 players" for a game with one player count; within 72 columns.
                let players = if h.players.start() == h.players.end() {
                    h.players.start().to_string()
                } else {
                    format!("{}-{}", h.players.start(), h.players.end())
                };
                text.push_str(&format!(
                    "  {:<10} {} ({players} players): rules by `{} help`\n",
                    g.name, g.title, g.name
                ));
                if let Some((running, finished)) = h.counts {
                    text.push_str(&format!(
                        "  {:<10} {running} running, {finished} finished; your move in:\n  \
                         {:<10} `{} games <userid> next`\n",
                        "", "", g.name
                    ));
                }
            }
            (format!("{server} games"), text)
        }
        Listing::GamesOf {
            game,
            filter,
            players,
        } => {
            let word = match filter {
                GamesFilter::Active => "active",
                GamesFilter::All => "all",
                GamesFilter::Finished => "finished",
                GamesFilter::Next => "their turn",
            };
            let mut text = String::new();
            for PlayerGames { userid, games } in players {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&format!("{} games of {userid} ({word}):\n\n", game.title));
                if games.is_empty() {
                    text.push_str("  none\n");
                }
                for g in games {
                    text.push_str(&format!(
                        "  Board {}: {}  {}\n",
                        g.board,
                        g.players.join(" vs "),
                        g.status
                    ));
                }
            }
            let names: Vec<&str> = players.iter().map(|p| p.userid.as_str()).collect();
            (format!("{} games {}", game.title, names.join(" ")), text)
        }
        Listing::Ratings { game, rows } => {
            let mut text = format!(
                "{} ratings\n\nEveryone starts at {}. A player is provisional (P) for their\n\
                 first {} rated games. Send `{} help` for how the ratings are\n\
                 computed.\n\n",
                game.title, INITIAL_RATING, PROVISIONAL_GAMES, game.name
            );
            if rows.is_empty() {
                text.push_str("  No game has been rated yet.\n");
            } else {
                text.push_str(&format!(
                    "  {:>4}  {:<20}  {:>6}  {:>5}\n",
                    "Rank", "Player", "Rating", "Games"
                ));
                for (i, (userid, r)) in rows.iter().enumerate() {
                    let mark = if r.is_provisional() { "  P" } else { "" };
                    text.push_str(&format!(
                        "  {:>4}  {userid:<20}  {:>6}  {:>5}{mark}\n",
                        i + 1,
                        r.rating,
                        r.games
                    ));
                }
            }
            (format!("{} Ratings", game.title), text)
        }
        Listing::Standings { game, rows } => {
            let mut text = format!(
                "{} standings\n\nPlayed counts the finished games; a player left out of a\n\
                 shared draw lost it.\n\n",
                game.title
            );
            if rows.is_empty() {
                text.push_str("  Nobody has played yet.\n");
            } else {
                text.push_str(&format!(
                    "  {:<20}  {:>6}  {:>4}  {:>4}  {:>5}  {:>6}\n",
                    "Player", "Played", "Won", "Lost", "Drawn", "Active"
                ));
                for s in rows {
                    text.push_str(&format!(
                        "  {:<20}  {:>6}  {:>4}  {:>4}  {:>5}  {:>6}\n",
                        s.userid, s.played, s.won, s.lost, s.drawn, s.active
                    ));
                }
            }
            (format!("{} Standings", game.title), text)
        }
        Listing::Finished {
            game,
            page,
            pages,
            total,
            per_page,
            games,
        } => {
            let (page, pages, total) = (*page, *pages, *total);
            let mut text = format!("Finished {} games, newest first", game.title);
            if total > *per_page {
                text.push_str(&format!(" (page {page} of {pages}, {total} games)"));
            }
            text.push_str(&format!(
                "\n\nSend `{} history <board>` for a game's moves and comments.\n",
                game.name
            ));
            if page < pages {
                text.push_str(&format!(
                    "Send `{} history page {}` for older games.\n",
                    game.name,
                    page + 1
                ));
            }
            if total == 0 {
                text.push_str("\n  No game has finished yet.\n");
            } else if games.is_empty() {
                text.push_str(&format!(
                    "\n  There is no page {page}: the last is page {pages}.\n"
                ));
            }
            for g in games {
                // The stored results say who won; a game without them (unrated) has its status line.
                let status = if g.results.is_empty() {
                    g.status.clone()
                } else {
                    result_line(&g.results)
                };
                text.push_str(&format!(
                    "\nBoard {}: {} (ended {})\n  {status}\n",
                    g.board,
                    g.players.join(" vs "),
                    summary::format_time(g.ended)
                ));
                if g.results.is_empty() {
                    text.push_str("  Not rated.\n");
                }
                for r in &g.results {
                    text.push_str(&format!("  {}\n", rating_change(r)));
                }
            }
            (format!("{} History", game.title), text)
        }
    }
}

/// Who won a rated game, or who shared its draw.
fn result_line(results: &[GameResult]) -> String {
    let who = |want: SeatResult| -> Vec<&str> {
        results
            .iter()
            .filter(|r| r.result == want)
            .map(|r| r.userid.as_str())
            .collect()
    };
    let won = who(SeatResult::Won);
    if won.is_empty() {
        format!("A draw between {}.", who(SeatResult::Drew).join(" and "))
    } else {
        format!("Won by {}.", won.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::{Hosted, ListedGame};

    use super::super::LIMIT;

    #[test]
    fn hosted_games_with_their_counts() {
        let (subject, text) = listing(&Listing::Hosted {
            server: "pbem".into(),
            games: vec![Hosted {
                game: LIMIT,
                players: 2..=3,
                counts: Some((4, 9)),
            }],
        });
        assert_eq!(subject, "pbem games");
        assert_eq!(
            text,
            "Games hosted by pbem:\n\n  limit      Limit (2-3 players): rules by `limit help`\n  \
             \x20          4 running, 9 finished; your move in:\n  \
             \x20          `limit games <userid> next`\n"
        );
    }

    #[test]
    fn games_of_two_players_one_without_games() {
        let (subject, text) = listing(&Listing::GamesOf {
            game: LIMIT,
            filter: GamesFilter::Next,
            players: vec![
                PlayerGames {
                    userid: "alice".into(),
                    games: vec![ListedGame {
                        board: 101,
                        players: vec!["alice".into(), "bob".into()],
                        status: "Red (alice) to move.".into(),
                    }],
                },
                PlayerGames {
                    userid: "carol".into(),
                    games: Vec::new(),
                },
            ],
        });
        assert_eq!(subject, "Limit games alice carol");
        assert_eq!(
            text,
            "Limit games of alice (their turn):\n\n  Board 101: alice vs bob  Red (alice) to move.\n\n\
             Limit games of carol (their turn):\n\n  none\n"
        );
    }

    #[test]
    fn an_empty_history_and_a_page_past_the_end() {
        let page = |page, total| {
            listing(&Listing::Finished {
                game: LIMIT,
                page,
                pages: 2,
                total,
                per_page: 50,
                games: Vec::new(),
            })
            .1
        };
        assert!(page(1, 0).ends_with("\n  No game has finished yet.\n"));
        let past = page(3, 60);
        assert!(past.starts_with("Finished Limit games, newest first (page 3 of 2, 60 games)"));
        assert!(past.ends_with("\n  There is no page 3: the last is page 2.\n"));
    }
}
