//! Ratings (Elo per game type), standings and the history of finished games.
//!
//! A game is rated once, when it ends ([`Handling::settle_game`], called from `record_turn`): the players'
//! ratings before it and its outcome give the new ratings (the arithmetic is [`crate::ratings`]), and
//! every seat's result with its rating before and after is stored, so that the game's mails, `history`
//! and `standings` show what it did. Games that ended before this server kept ratings have no results:
//! `history` lists them as not rated and the standings do not count them.

use super::{Handling, HostedGame, Outcome, Step, listed_status};
use crate::decision::{Event, FinishedGame, Game, Listing, Settlement};
use crate::games::{GameRules, GameState, Status};
use crate::mail_text;

/// Finished games on one page of `history`.
pub const HISTORY_PAGE: u32 = 50;
use crate::ratings::{self, Rating};
use crate::storage::{GameRow, SeatRecord, StorageError, Tx};

/// The moves of their own (not the engine's, not a resignation) every person in a game against a
/// robot must have made for the game to move the robot's rating.
pub(super) const ROBOT_RATED_MOVES: usize = 4;

/// Whether every person (not robot) of the game made at least [`ROBOT_RATED_MOVES`] moves of
/// their own.
fn every_person_played(state: &dyn GameState, row: &GameRow) -> bool {
    let moves = state.moves();
    row.players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.robot.is_none())
        .all(|(seat, _)| {
            moves
                .iter()
                .filter(|m| m.seat == seat && !m.auto && m.text != "resign")
                .count()
                >= ROBOT_RATED_MOVES
        })
}

impl Handling<'_> {
    /// Settles a game that has just ended (called once, from `record_turn`): rates it and stores every
    /// seat's result and rating change. A game already settled is left as it is. The event says how
    /// it ended and what the ratings made of it (`None` while the game goes on).
    pub(super) fn settle_game(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
    ) -> Result<Option<Event>, StorageError> {
        let HostedGame { rules, row, state } = game;
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
        // Robots' ratings measure them against people: a game of robots alone says nothing of it.
        if row.players.iter().all(|p| p.robot.is_some()) {
            let event = ended(Settlement::RobotsOnly);
            if let Some(verdict) = mail_text::verdict(&event) {
                tx.add_verdict(row.id, &verdict)?;
            }
            return Ok(Some(event));
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
        let mut after = ratings::rate(&before, &outcome).map_err(bad)?;
        // A robot's rating says how it plays against people who play: a game a person left (a
        // resignation, a forfeit) before making a few moves says nothing of it, and twenty such
        // games took robot1's Cups rating from 1600 to 1829 (issue 34). The person's own rating
        // moves as in any game.
        if !every_person_played(state, row) {
            for (seat, player) in row.players.iter().enumerate() {
                if player.robot.is_some() {
                    after[seat] = before[seat];
                }
            }
        }
        let results = ratings::seat_results(&outcome, row.players.len()).map_err(bad)?;
        for (seat, player) in row.players.iter().enumerate() {
            let record = SeatRecord {
                seat,
                user_id: player.id,
                result: results[seat],
                before: before[seat],
                after: after[seat],
            };
            tx.record_result(game_type, row.id, &record, self.now)?;
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
        Ok(Outcome::listed(Listing::Ratings {
            game: Game::of(rules),
            rows: tx.rating_list(rules.name())?,
        }))
    }

    /// `<game> standings`: every player's finished games (won, lost, drawn) and games going on.
    pub(super) fn standings(&self, tx: &Tx<'_>, rules: &dyn GameRules) -> Step<Outcome> {
        Ok(Outcome::listed(Listing::Standings {
            game: Game::of(rules),
            rows: tx.standings(rules.name())?,
        }))
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
        let per_page = u64::from(HISTORY_PAGE);
        let pages = total.div_ceil(per_page).max(1);
        let page = u64::from(page.max(1));
        let mut games = Vec::new();
        for game in tx.finished_page(rules.name(), HISTORY_PAGE, (page - 1) * per_page)? {
            // An unrated game (no results) is shown by its status line.
            let status = if game.results.is_empty() {
                listed_status(tx, rules, &game)?
            } else {
                String::new()
            };
            games.push(FinishedGame {
                board: game.board,
                ended: game.updated_at,
                status,
                players: game.players,
                results: game.results,
            });
        }
        Ok(Outcome::listed(Listing::Finished {
            game: Game::of(rules),
            page,
            pages,
            total,
            per_page,
            games,
        }))
    }
}
