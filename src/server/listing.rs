//! The lists: `list` (the games hosted), `<game> history` (finished games), `<game> games` (a
//! player's games).

use super::{Handling, HostedGame, Outcome, Step};
use super::{listed_status, saved_status, userids};
use crate::command::{GamesFilter, HistoryForm};
use crate::decision::{Game, Hosted, ListRefusal, ListedGame, Listing, PlayerGames};
use crate::games::GameRules;
use crate::mail_out::FileAttachment;
use crate::records::{self, RecordInfo};
use crate::storage::Tx;
use crate::summary;

impl Handling<'_> {
    /// `list [gametype...]`: the games this server hosts; with names, those games with how many
    /// are running and finished.
    pub(super) fn list(&self, tx: &Tx<'_>, names: &[String]) -> Step<Outcome> {
        let chosen: Vec<&'static dyn GameRules> = if names.is_empty() {
            self.games.iter().collect()
        } else {
            names
                .iter()
                .map(|n| {
                    self.games.find(n).ok_or_else(|| ListRefusal::UnknownGame {
                        game: n.clone(),
                        hosted: self.hosted_games(),
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let mut games = Vec::new();
        for g in chosen {
            let counts = if names.is_empty() {
                None
            } else {
                Some(tx.game_counts(g.name())?)
            };
            games.push(Hosted {
                game: Game::of(g),
                players: g.players(),
                counts,
            });
        }
        Ok(Outcome::listed(Listing::Hosted {
            server: self.cfg.server.name.clone(),
            games,
        }))
    }

    pub(super) fn history(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        form: HistoryForm,
    ) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let players = userids(&row);
        if form != HistoryForm::Text {
            return self.record(tx, HostedGame::new(rules, &row, state.as_ref()), form);
        }
        let mut text = format!("History of {} Board {board}\n\n", rules.title());
        text.push_str(&summary::status_line(state.as_ref(), &players));
        // What the clock or the admin did to the game, with the reason.
        if let Some(verdict) = tx.game_clock(row.id)?.verdict {
            text.push('\n');
            text.push_str(verdict.trim_end());
        }
        text.push_str("\n\nMoves:\n");
        text.push_str(&summary::move_list(state.as_ref(), &players));
        let comments = tx.comments(row.id)?;
        if !comments.is_empty() {
            text.push_str("\nComments (by the move they came with):\n");
            for c in &comments {
                let with = match c.move_number {
                    0 => "the challenge".to_string(),
                    n => format!("move {n}"),
                };
                text.push_str(&format!(
                    "  {with} {} ({}):\n",
                    c.userid,
                    summary::format_time(c.created_at)
                ));
                for l in c.body.lines() {
                    text.push_str(&format!("    {l}\n"));
                }
            }
        }
        text.push_str(&format!(
            "\nGame started: {}\nLast move:    {}\n",
            summary::format_time(row.created_at),
            summary::format_time(row.updated_at)
        ));
        Ok(Outcome::reply(
            format!("{} Board {board} History", rules.title()),
            text,
        ))
    }

    /// `<game> history <board> -record | -sgf`: the game record in the body and attached as a file.
    fn record(&self, tx: &Tx<'_>, game: HostedGame<'_>, form: HistoryForm) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        let players = userids(row);
        let comments = tx.comments(row.id)?;
        let info = RecordInfo {
            game: rules.name(),
            board: row.board,
            players: &players,
            started: row.created_at,
            last_move: row.updated_at,
            comments: &comments,
        };
        let stem = format!("{}-{}", rules.name(), row.board);
        let (subject, text, file) = match form {
            HistoryForm::Sgf if state.pgn_start().is_some() => {
                let pgn = records::pgn(state, &info).expect("a game with a PGN start has a PGN");
                let text = format!(
                    "The game as PGN is attached ({stem}.pgn), as Ataxx engines and tools read \
                     it. The same file:\n\n{pgn}"
                );
                let file = FileAttachment {
                    filename: format!("{stem}.pgn"),
                    content_type: "application/vnd.chess-pgn; charset=utf-8".to_string(),
                    text: pgn,
                };
                (
                    format!("{} Board {} PGN", rules.title(), row.board),
                    text,
                    file,
                )
            }
            HistoryForm::Sgf => {
                let Some(sgf) = records::sgf(state, &info) else {
                    return Err(ListRefusal::NoSgf {
                        game: Game::of(rules),
                        board: row.board,
                    }
                    .into());
                };
                let text = format!(
                    "The game as SGF is attached ({stem}.sgf); it opens in the tools players of {} \
                     use. The same file:\n\n{sgf}",
                    rules.title()
                );
                let file = FileAttachment {
                    filename: format!("{stem}.sgf"),
                    content_type: "application/x-go-sgf; charset=utf-8".to_string(),
                    text: sgf,
                };
                (
                    format!("{} Board {} SGF", rules.title(), row.board),
                    text,
                    file,
                )
            }
            HistoryForm::Record | HistoryForm::Text => {
                let record = records::text_record(state, &info);
                let file = FileAttachment {
                    filename: format!("{stem}.txt"),
                    content_type: "text/plain; charset=utf-8".to_string(),
                    text: record.clone(),
                };
                (
                    format!("{} Board {} Record", rules.title(), row.board),
                    record,
                    file,
                )
            }
        };
        Ok(Outcome {
            attachments: vec![file],
            ..Outcome::reply(subject, text)
        })
    }

    /// `<game> games userid... [active|all|finished|next]`: each player's games of the type, by
    /// board, from the saved status lines (no game is loaded).
    pub(super) fn games(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        whose: &[String],
        filter: GamesFilter,
    ) -> Step<Outcome> {
        let mut players = Vec::new();
        for userid in whose {
            let user = tx.user(userid)?.ok_or_else(|| ListRefusal::NotRegistered {
                userid: userid.clone(),
                game: Game::of(rules),
            })?;
            if filter == GamesFilter::Next {
                // Games saved before the seat to move was kept: fill it in once.
                for board in tx.games_without_to_move(user.id, rules.name())? {
                    if let Some(row) = tx.game(rules.name(), board)?
                        && let Ok(state) = rules.load(&row.state)
                    {
                        tx.set_status(row.id, &saved_status(state.as_ref(), &userids(&row)))?;
                    }
                }
            }
            let mut games = Vec::new();
            for game in tx.games_of(user.id, rules.name(), filter)? {
                games.push(ListedGame {
                    board: game.board,
                    status: listed_status(tx, rules, &game)?,
                    players: game.players,
                });
            }
            players.push(PlayerGames {
                userid: user.userid,
                games,
            });
        }
        Ok(Outcome::listed(Listing::GamesOf {
            game: Game::of(rules),
            filter,
            players,
        }))
    }
}
