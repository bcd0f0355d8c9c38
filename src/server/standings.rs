//! Ratings (Elo per game type), standings and the history of finished games.
//!
//! A game is rated once, when it ends ([`Core::settle_game`], called from `record_turn`): the players'
//! ratings before it and its outcome give the new ratings (the arithmetic is [`crate::ratings`]), and
//! every seat's result with its rating before and after is stored, so that the game's mails, `history`
//! and `standings` show what it did. Games that ended before this server kept ratings have no results:
//! `history` lists them as not rated and the standings do not count them.

use super::{Core, Outcome, Step, userids};
use crate::games::{GameRules, GameState, Status};
use crate::ratings::{self, PROVISIONAL_GAMES, Rating, SeatResult};
use crate::storage::{GameResult, GameRow, StorageError, Tx};
use crate::summary;

/// `alice 1600 -> 1632 (+32)`: one seat's rating change.
fn change_line(r: &GameResult) -> String {
    format!(
        "{} {} -> {} ({:+})",
        r.userid,
        r.before.rating,
        r.after,
        r.after - r.before.rating
    )
}

/// `Won by alice.`, `A draw between dave and erin.`: a settled game's result from its stored results.
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

impl Core {
    /// Settles a game that has just ended (called once, from `record_turn`): rates it and stores every
    /// seat's result and rating change. A game already settled is left as it is.
    pub(super) fn settle_game(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
    ) -> Result<(), StorageError> {
        let Status::Over(outcome) = state.status() else {
            return Ok(());
        };
        if tx.is_settled(row.id)? {
            return Ok(());
        }
        // A game counts only when every player agreed to it: a stranger's challenge cannot move
        // anyone's rating.
        let not_agreed = self.not_agreed(tx, row)?;
        if !not_agreed.is_empty() {
            tx.add_verdict(
                row.id,
                &format!(
                    "Cancelled for the ratings: {} never agreed to this game (by a move or other \
                     command with the password, by `accept`, or by a challenge with --password), \
                     so it is not rated.",
                    not_agreed.join(" and ")
                ),
            )?;
            return Ok(());
        }
        let game_type = rules.name();
        let before = row
            .players
            .iter()
            .map(|p| tx.rating(game_type, p.id))
            .collect::<Result<Vec<Rating>, _>>()?;
        let bad = |e: ratings::RatingError| {
            StorageError::Corrupt(format!("{game_type} board {}: {e}", row.board))
        };
        let after = ratings::rate(&before, &outcome).map_err(bad)?;
        let results = ratings::seat_results(&outcome, row.players.len()).map_err(bad)?;
        for (seat, player) in row.players.iter().enumerate() {
            tx.record_result(
                game_type,
                row.id,
                seat,
                player.id,
                results[seat],
                before[seat],
                after[seat],
                self.now,
            )?;
        }
        Ok(())
    }

    /// The rating changes a finished game's summary shows, one line a player (empty otherwise).
    pub(super) fn rating_lines(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        if !row.finished {
            return Ok(Vec::new());
        }
        Ok(tx.game_results(row.id)?.iter().map(change_line).collect())
    }

    /// `<game> ratings`: the rating list of a game type, best first.
    pub(super) fn ratings(&self, tx: &Tx<'_>, rules: &dyn GameRules) -> Step<Outcome> {
        let list = tx.rating_list(rules.name())?;
        let mut text = format!(
            "{} ratings\n\nEveryone starts at {}. A player is provisional (P) for their first {} rated \
             games.\nSend `{} help` for how the ratings are computed.\n\n",
            rules.title(),
            ratings::INITIAL_RATING,
            PROVISIONAL_GAMES,
            rules.name()
        );
        if list.is_empty() {
            text.push_str("  No game has been rated yet.\n");
        } else {
            text.push_str(&format!(
                "  {:>4}  {:<20}  {:>6}  {:>5}\n",
                "Rank", "Player", "Rating", "Games"
            ));
            for (i, (userid, r)) in list.iter().enumerate() {
                let mark = if r.is_provisional() { "  P" } else { "" };
                text.push_str(&format!(
                    "  {:>4}  {userid:<20}  {:>6}  {:>5}{mark}\n",
                    i + 1,
                    r.rating,
                    r.games
                ));
            }
        }
        Ok(Outcome::reply(format!("{} Ratings", rules.title()), text))
    }

    /// `<game> standings`: every player's finished games (won, lost, drawn) and games going on.
    pub(super) fn standings(&self, tx: &Tx<'_>, rules: &dyn GameRules) -> Step<Outcome> {
        let rows = tx.standings(rules.name())?;
        let mut text = format!(
            "{} standings\n\nPlayed counts the finished games; a player left out of a shared draw \
             lost it.\n\n",
            rules.title()
        );
        if rows.is_empty() {
            text.push_str("  Nobody has played yet.\n");
        } else {
            text.push_str(&format!(
                "  {:<20}  {:>6}  {:>4}  {:>4}  {:>5}  {:>6}\n",
                "Player", "Played", "Won", "Lost", "Drawn", "Active"
            ));
            for s in &rows {
                text.push_str(&format!(
                    "  {:<20}  {:>6}  {:>4}  {:>4}  {:>5}  {:>6}\n",
                    s.userid, s.played, s.won, s.lost, s.drawn, s.active
                ));
            }
        }
        Ok(Outcome::reply(format!("{} Standings", rules.title()), text))
    }

    /// `<game> history` without a board: every finished game of the type, with its players, its result
    /// and its rating changes.
    pub(super) fn history_all(&self, tx: &Tx<'_>, rules: &dyn GameRules) -> Step<Outcome> {
        let games = tx.finished_games(rules.name())?;
        let mut text = format!(
            "Finished {} games\n\nSend `{} history <board>` for a game's moves and comments.\n",
            rules.title(),
            rules.name()
        );
        if games.is_empty() {
            text.push_str("\n  No game has finished yet.\n");
        }
        for row in &games {
            let players = userids(row);
            let results = tx.game_results(row.id)?;
            // The stored results say who won; only a game that ended before ratings were kept needs
            // its state loaded (which replays it), so a long history stays quick.
            let status = if results.is_empty() {
                match rules.load(&row.state) {
                    Ok(s) => summary::status_line(s.as_ref(), &players),
                    Err(e) => format!("unreadable: {e}"),
                }
            } else {
                result_line(&results)
            };
            text.push_str(&format!(
                "\nBoard {}: {} (ended {})\n  {status}\n",
                row.board,
                players.join(" vs "),
                summary::format_time(row.updated_at)
            ));
            if results.is_empty() {
                text.push_str("  Not rated (it ended before this server kept ratings).\n");
            }
            for r in &results {
                text.push_str(&format!("  {}\n", change_line(r)));
            }
        }
        Ok(Outcome::reply(format!("{} History", rules.title()), text))
    }
}
