//! Ratings (Elo per game type), standings and the history of finished games.
//!
//! A game is rated once, when it ends ([`Core::settle_game`], called from `record_turn`): the players'
//! ratings before it and its outcome give the new ratings (the arithmetic is [`crate::ratings`]), and
//! every seat's result with its rating before and after is stored, so that the game's mails, `history`
//! and `standings` show what it did. Games that ended before this server kept ratings have no results:
//! `history` lists them as not rated and the standings do not count them.

use super::{Core, Outcome, Step, listed_status};
use crate::decision::{Event, Game, Settlement};
use crate::games::{GameRules, GameState, Status};
use crate::mail_text;

/// Finished games on one page of `history`.
pub const HISTORY_PAGE: u32 = 50;
use crate::ratings::{self, PROVISIONAL_GAMES, Rating, SeatResult};
use crate::storage::{GameResult, GameRow, StorageError, Tx};
use crate::summary;

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
    /// seat's result and rating change. A game already settled is left as it is. The event says how
    /// it ended and what the ratings made of it (`None` while the game goes on).
    pub(super) fn settle_game(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
    ) -> Result<Option<Event>, StorageError> {
        let Status::Over(outcome) = state.status() else {
            return Ok(None);
        };
        let ended = |settlement| Event::GameEnded {
            game: Game::of(rules),
            board: row.board,
            result: outcome.clone(),
            settlement,
        };
        if tx.is_settled(row.id)? || tx.is_cancelled(row.id)? {
            return Ok(Some(ended(Settlement::Unchanged)));
        }
        // A game counts only when every player agreed to it: a stranger's challenge cannot move
        // anyone's rating.
        let not_agreed = self.not_agreed(tx, row)?;
        if !not_agreed.is_empty() {
            let event = ended(Settlement::NotAgreed(not_agreed));
            if let Some(verdict) = mail_text::verdict(&event) {
                tx.add_verdict(row.id, &verdict)?;
            }
            return Ok(Some(event));
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
        Ok(Some(ended(Settlement::Rated(tx.game_results(row.id)?))))
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
        Ok(tx
            .game_results(row.id)?
            .iter()
            .map(mail_text::rating_change)
            .collect())
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

    /// `<game> history [page N]` without a board: one page of the finished games of the type,
    /// newest first, with their players, results and rating changes; one query, no game loaded.
    pub(super) fn history_all(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        page: u32,
    ) -> Step<Outcome> {
        let total = tx.finished_count(rules.name())?;
        let per = u64::from(HISTORY_PAGE);
        let pages = total.div_ceil(per).max(1);
        let page = u64::from(page.max(1));
        let games = tx.finished_page(rules.name(), HISTORY_PAGE, (page - 1) * per)?;
        let mut text = format!("Finished {} games, newest first", rules.title(),);
        if total > per {
            text.push_str(&format!(" (page {page} of {pages}, {total} games)"));
        }
        text.push_str(&format!(
            "\n\nSend `{} history <board>` for a game's moves and comments.\n",
            rules.name()
        ));
        if page < pages {
            text.push_str(&format!(
                "Send `{} history page {}` for older games.\n",
                rules.name(),
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
        for game in &games {
            // The stored results say who won; a game without them (unrated) has its status line.
            let status = if game.results.is_empty() {
                listed_status(tx, rules, game)?
            } else {
                result_line(&game.results)
            };
            text.push_str(&format!(
                "\nBoard {}: {} (ended {})\n  {status}\n",
                game.board,
                game.players.join(" vs "),
                summary::format_time(game.updated_at)
            ));
            if game.results.is_empty() {
                text.push_str("  Not rated.\n");
            }
            for r in &game.results {
                text.push_str(&format!("  {}\n", mail_text::rating_change(r)));
            }
        }
        Ok(Outcome::reply(format!("{} History", rules.title()), text))
    }
}
