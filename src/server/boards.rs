//! Boards: the summary a board mail shows, the mails of a new position, `show`.

use super::{Handling, HostedGame, Letter, Outcome, Picture, Refused, Sign, Step};
use crate::decision::PlayRefusal;
use crate::games::{GameRules, GameState, Status};
use crate::mail_out::BoardPage;
use crate::news::{self, News, RatingChange, Reader};
use crate::reply_token::Target;
use crate::storage::{Comment, GameRow, Listed, SavedStatus, StorageError, Tx};
use crate::summary::{self, SubjectState, Summary};

impl Handling<'_> {
    /// The PNG of `state`'s board for the mails of game `row`: the one kept with the game when
    /// this position was painted before (keyed by [`crate::picture::digest`] of its
    /// SVG, so a changed position never finds another's), else painted now and kept. `None` for
    /// a game without a picture, or one that could not be painted (said on stderr).
    fn board_picture(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        state: &dyn GameState,
    ) -> Result<Option<Vec<u8>>, StorageError> {
        let Some(svg) = state.svg() else {
            return Ok(None);
        };
        let digest = crate::picture::digest(&svg);
        if let Some(png) = tx.picture(row.id, &digest)? {
            return Ok(Some(png));
        }
        match state.png() {
            Some(Ok(png)) => {
                tx.keep_picture(row.id, &digest, &png, self.now)?;
                Ok(Some(png))
            }
            Some(Err(e)) => {
                eprintln!("pbem: no picture for board {}: {e}", row.board);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    /// The current summary of a board, if it exists and loads (for error mails).
    pub(super) fn board_text(
        &self,
        tx: &Tx<'_>,
        game_type: &str,
        board: u32,
    ) -> Result<Option<String>, StorageError> {
        let Some(rules) = self.games.find(game_type) else {
            return Ok(None);
        };
        let Some(row) = tx.game(game_type, board)? else {
            return Ok(None);
        };
        let Ok(state) = rules.load(&row.state) else {
            return Ok(None);
        };
        Ok(Some(self.summary(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &[],
        )?))
    }

    /// A board's summary as its mails show it, with what the server adds to the game itself: open
    /// proposals and vacations under the status, rating changes, subscribers.
    pub(super) fn summary(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        comments: &[Comment],
    ) -> Result<String, StorageError> {
        self.summary_with(tx, game, comments, true)
    }

    /// [`Handling::summary`], with the ASCII board or without it (the HTML part shows the picture).
    fn summary_with(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        comments: &[Comment],
        with_board: bool,
    ) -> Result<String, StorageError> {
        let HostedGame { rules, row, state } = game;
        let players = userids(row);
        let mut status_notes = self.proposal_lines(tx, game)?;
        status_notes.extend(self.agreement_lines(tx, game)?);
        status_notes.extend(self.away_lines(tx, row)?);
        // `show 101#5` of a finished game shows a position before its end: no rating changes there.
        let rating_changes = if matches!(state.status(), Status::Over(_)) {
            self.rating_lines(tx, row)?
        } else {
            Vec::new()
        };
        let subscribers = self.subscriber_names(tx, row)?;
        let web = self.cfg.web.game_url(rules.name(), row.board);
        let summary = Summary {
            title: rules.title(),
            board: row.board,
            state,
            players: &players,
            comments,
            status_notes: &status_notes,
            rating_changes: &rating_changes,
            subscribers: &subscribers,
            started: row.created_at,
            last_move: row.updated_at,
            now: self.now,
            time_used: &tx.time_used(row.id)?,
            game: rules.name(),
            web: web.as_deref(),
        };
        Ok(if with_board {
            summary.render()
        } else {
            summary.render_without_board()
        })
    }

    /// Every player's own board mail, and each subscriber's: the news for its reader and the line to
    /// send on top ([`news::top_of_mail`]), then the summary. `actor` is the seat that acted (their
    /// mail is the reply); `since` the move that was awaited before this change (its moves are the
    /// news), `None` when no move was played.
    pub(super) fn board_mails(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        comments: &[Comment],
        new: bool,
        actor: Option<usize>,
        since: Option<u32>,
    ) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        let players = userids(row);
        // A new game's mail tells every move made in its run (a robot that moves first).
        let since = if new { Some(1) } else { since };
        let mut body = self.summary(tx, HostedGame::new(rules, row, state), comments)?;
        let web_line = self
            .cfg
            .web
            .game_url(rules.name(), row.board)
            .map(|url| format!("The game on the web: {url}\n"))
            .unwrap_or_default();
        body.push_str(&web_line);
        let seats_now = seats_in(state);
        let was_in = match since.map(|n| state.at_move(n)) {
            Some(Ok(before)) => seats_in(before.as_ref()),
            _ => seats_now.clone(),
        };
        let open = self.open_proposal_news(tx, row, state)?;
        let ratings: Vec<RatingChange> = if row.finished {
            tx.game_results(row.id)?
                .iter()
                .map(|r| RatingChange {
                    seat: r.seat,
                    before: r.before.rating,
                    after: r.after,
                })
                .collect()
        } else {
            Vec::new()
        };
        let news = News {
            game: rules.name(),
            board: row.board,
            state,
            players: &players,
            since: since.map(|n| n.saturating_sub(1) as usize),
            was_in: &was_in,
            seats_in: &seats_now,
            proposal: open.as_ref().map(|(p, _)| p),
            ratings: &ratings,
            new_game: new.then(|| rules.title()),
        };
        let subject = |reader: Option<usize>| {
            summary::board_subject(
                rules.title(),
                row.board,
                state,
                &players,
                SubjectState {
                    reader,
                    new,
                    proposal: open.as_ref().map(|(_, words)| *words),
                    with_comment: !comments.is_empty(),
                },
            )
        };
        let with_top = |top: String| {
            if top.is_empty() {
                body.clone()
            } else {
                format!("{top}\n{body}")
            }
        };
        // One picture for every mail of this position, painted here from it (no SVG read back)
        // and kept with the game, so that a later mail of the same position (a chat's, a
        // proposal's, another process's) reads it; a picture that cannot be painted leaves the
        // mails as text alone.
        let picture = match self.cfg.mail.pictures {
            true => self.board_picture(tx, row, state)?.map(|png| {
                let details =
                    self.summary_with(tx, HostedGame::new(rules, row, state), comments, false)?;
                Ok::<_, StorageError>((
                    crate::mail_out::Png(std::sync::Arc::new(png)),
                    details + &web_line,
                ))
            }),
            false => None,
        }
        .transpose()?;
        // The HTML part says what the text part says: the same news and line to send.
        // Whether a bare reply works for a reader: their letter gets a signed Reply-To only when
        // their account has a password (`Handling::reply_address`).
        let signed: Vec<bool> = row
            .players
            .iter()
            .map(|p| tx.reply_generation(p.id).map(|g| g.is_some()))
            .collect::<Result<_, _>>()?;
        let bare = |seat: usize| signed.get(seat).copied().unwrap_or(false);
        let picture_for = |reader: Reader| {
            picture.as_ref().map(|(png, details)| Picture {
                png: png.clone(),
                page: BoardPage {
                    // Set as the mail is made (`letters_to_mails`), as the text part's.
                    headline: String::new(),
                    news: news::news_of(&news, reader),
                    send: match reader {
                        Reader::Seat(seat) => {
                            news::line_to_send(&news, seat, bare(seat)).unwrap_or_default()
                        }
                        Reader::Spectator => String::new(),
                    },
                    caption: caption(HostedGame::new(rules, row, state)),
                    details: details.clone(),
                },
            })
        };
        let topic = summary::game_subject(rules.title(), row.board);
        let mut letters = Vec::new();
        for (seat, p) in row.players.iter().enumerate() {
            let plain = tx.mail_settings(p.id)?.plain_subject;
            letters.push(Letter {
                to: p.addresses.clone(),
                subject: match plain {
                    true => topic.clone(),
                    false => subject(Some(seat)),
                },
                body: with_top(news::top_of_mail(&news, Reader::Seat(seat), bare(seat))),
                reply: Some(seat) == actor,
                picture: picture_for(Reader::Seat(seat)),
                sign: Some(Sign {
                    reader: p.id,
                    target: Target::Board(row.id),
                }),
                thread: Some(self.thread_of(tx, row.id, p.id, &topic)?),
                headline: plain.then(|| subject(Some(seat))),
            });
        }
        let spectators = with_top(news::top_of_mail(&news, Reader::Spectator, false));
        letters.extend(
            self.subscriber_letters(tx, row, [&subject(None), &topic], &spectators)?
                .into_iter()
                .map(|l| Letter {
                    picture: picture_for(Reader::Spectator),
                    ..l
                }),
        );
        Ok(Outcome {
            ok: true,
            text: spectators,
            subject: subject(None),
            letters,
            ..Outcome::default()
        })
    }

    /// `show`: the summary of each board asked for. Its Subject is the game's one Subject, as a
    /// board mail's (issue 37), with the state as the first line of each board's part, unless the
    /// sender (`reply_to`; `None` at the shell) chose `subject state`; an answer to one of the
    /// game's players says "your move" for them, and sits in their thread of the game with their
    /// signed Reply-To, as their board mails do.
    pub(super) fn show(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        boards: &[(u32, Option<u32>)],
        reply_to: Option<&str>,
    ) -> Step<Outcome> {
        let state_subject = match reply_to {
            Some(address) => tx.state_subject_at(address)?,
            None => false,
        };
        let mut text = String::new();
        let mut subject = None;
        let mut in_game = None;
        for &(board, at) in boards {
            let (row, state) = self.load_game(tx, rules, board)?;
            let now_at = state.move_number();
            let state = match at {
                Some(n) => state
                    .at_move(n)
                    .map_err(|e| Refused::on(PlayRefusal::Rules(e), rules.name(), board))?,
                None => state,
            };
            let players = userids(&row);
            let reader = reply_to.and_then(|address| {
                row.players
                    .iter()
                    .position(|p| p.addresses.iter().any(|a| a.eq_ignore_ascii_case(address)))
            });
            let state_line = summary::board_subject(
                rules.title(),
                board,
                state.as_ref(),
                &players,
                SubjectState {
                    reader,
                    new: false,
                    proposal: None,
                    with_comment: false,
                },
            );
            if subject.is_none() {
                // Only a player of the game has a thread of it (a stranger's `show` reads no
                // more than before).
                if let (Some(address), Some(_)) = (reply_to, reader) {
                    in_game = self.answer_in_game(tx, rules.name(), board, address)?;
                }
                subject = Some(match state_subject {
                    true => state_line.clone(),
                    false => summary::game_subject(rules.title(), board),
                });
            }
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            if !state_subject {
                text.push_str(&state_line);
                text.push_str("\n\n");
            }
            if let Some(n) = at.filter(|&n| n != now_at) {
                let note = format!(
                    "This is board {board} as it was at move {n}; the game is now at move \
                     {now_at}. Send `{} show {board}` for the board as it stands.",
                    rules.name()
                );
                for part in summary::wrap(&note, summary::ERROR_WIDTH) {
                    text.push_str(part);
                    text.push('\n');
                }
                text.push('\n');
            }
            // The comments that came with the last move, as its board mail showed them.
            let comments: Vec<Comment> = if at.is_none() {
                tx.comments(row.id)?
                    .into_iter()
                    .filter(|c| c.created_at == row.updated_at)
                    .collect()
            } else {
                Vec::new()
            };
            text.push_str(&self.summary(
                tx,
                HostedGame::new(rules, &row, state.as_ref()),
                &comments,
            )?);
        }
        Ok(Outcome {
            in_game,
            ..Outcome::reply(
                subject.unwrap_or_else(|| format!("{} show", rules.title())),
                text,
            )
        })
    }
}

pub(super) fn userids(row: &GameRow) -> Vec<String> {
    row.players.iter().map(|p| p.userid.clone()).collect()
}

/// The caption of a board's picture: the game, the board, the move and who plays which side.
pub(super) fn caption(game: HostedGame<'_>) -> String {
    let HostedGame { rules, row, state } = game;
    let players = userids(row);
    let seats: Vec<String> = (0..players.len())
        .map(|s| summary::seat_label(state, &players, s))
        .collect();
    let when = match state.status() {
        Status::ToMove(_) => format!("move {}", state.move_number()),
        Status::Over(_) => format!("game over after {} moves", state.moves().len()),
    };
    format!(
        "{} Board {}, {when}: {}",
        rules.title(),
        row.board,
        seats.join(", ")
    )
}

/// What the lists show of a game, saved with its state.
pub(super) fn saved_status(state: &dyn GameState, players: &[String]) -> SavedStatus {
    let (finished, to_move) = match state.status() {
        Status::ToMove(seat) => (false, Some(seat)),
        Status::Over(_) => (true, None),
    };
    SavedStatus {
        finished,
        to_move,
        line: summary::status_line(state, players),
    }
}

/// A listed game's status line: the saved one, or, for a game not saved since the lists began to
/// keep it, its state's (which is then saved, so that this happens once a game).
pub(super) fn listed_status(
    tx: &Tx<'_>,
    rules: &dyn GameRules,
    game: &Listed,
) -> Result<String, StorageError> {
    if let Some(line) = &game.status {
        return Ok(line.clone());
    }
    match rules.load(&tx.game_state(game.id)?) {
        Ok(state) => {
            let status = saved_status(state.as_ref(), &game.players);
            tx.set_status(game.id, &status)?;
            Ok(status.line)
        }
        Err(e) => Ok(format!("unreadable: {e}")),
    }
}

/// The seats still in the game (none once it is over). The trait has no direct question for this;
/// a seat is in exactly when the rules would still let it resign, which is asked of a copy.
pub(super) fn seats_in(state: &dyn GameState) -> Vec<usize> {
    if matches!(state.status(), Status::Over(_)) {
        return Vec::new();
    }
    (0..state.seat_names().len())
        .filter(|&s| state.clone_box().resign(s).is_ok())
        .collect()
}
