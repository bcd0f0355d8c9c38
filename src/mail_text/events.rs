//! The prose that the play family's events add to the board mails: the new-game notice, the verdict
//! lines a game keeps, the rating changes.

use crate::decision::{Event, Settlement};
use crate::storage::GameResult;

/// The notice to the players who asked (`notify`) about new games of the type: the Subject and the
/// text, over `board` (the new board's mail). `None` for any event but [`Event::GameStarted`].
pub fn new_game_notice(event: &Event, board_text: &str) -> Option<(String, String)> {
    let Event::GameStarted {
        game,
        board,
        players,
    } = event
    else {
        return None;
    };
    let who = players.join(" vs ");
    let subject = format!("New {} Board {board} {who}", game.title);
    let text = format!(
        "A new {title} game has started on Board {board}: {who}.\n\n\
         To get every board mail of it:  {name} subscribe {board} <userid> <password>\n\
         To stop these notices:          {name} notify <userid> <password> off\n\n{board_text}",
        title = game.title,
        name = game.name,
    );
    Some((subject, text))
}

/// The verdict line an event leaves in the game's record (shown under the status of its board mails
/// and in `history`), if it leaves one.
pub fn verdict(event: &Event) -> Option<String> {
    match event {
        Event::Resigned {
            userid,
            declined: true,
            ..
        } => Some(format!(
            "{userid} declined the game: resigned before ever agreeing to it."
        )),
        Event::GameEnded {
            settlement: Settlement::NotAgreed(players),
            ..
        } => Some(format!(
            "Cancelled for the ratings: {} never agreed to this game (by a move or other \
             command with the password, by `accept`, or by a challenge with --password), \
             so it is not rated.",
            players.join(" and ")
        )),
        _ => None,
    }
}

/// `alice 1600 -> 1632 (+32)`: one seat's rating change.
pub fn rating_change(r: &GameResult) -> String {
    format!(
        "{} {} -> {} ({:+})",
        r.userid,
        r.before.rating,
        r.after,
        r.after - r.before.rating
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::Game;
    use crate::games;
    use crate::ratings::{Rating, SeatResult};

    const LIMIT: Game = Game {
        name: "limit",
        title: "Limit",
    };

    #[test]
    fn the_new_game_notice_heads_the_board() {
        let started = Event::GameStarted {
            game: LIMIT,
            board: 7,
            players: vec!["alice".into(), "bob".into()],
        };
        let (subject, text) = new_game_notice(&started, "BOARD\n").unwrap();
        assert_eq!(subject, "New Limit Board 7 alice vs bob");
        assert_eq!(
            text,
            "A new Limit game has started on Board 7: alice vs bob.\n\n\
             To get every board mail of it:  limit subscribe 7 <userid> <password>\n\
             To stop these notices:          limit notify <userid> <password> off\n\nBOARD\n"
        );
        assert_eq!(verdict(&started), None);
    }

    #[test]
    fn verdicts_for_a_declined_game_and_an_unagreed_one() {
        let declined = Event::Resigned {
            game: LIMIT,
            board: 7,
            seat: 1,
            userid: "bob".into(),
            declined: true,
        };
        assert_eq!(
            verdict(&declined).as_deref(),
            Some("bob declined the game: resigned before ever agreeing to it.")
        );
        let ended = Event::GameEnded {
            game: LIMIT,
            board: 7,
            result: games::Outcome::Winner(0),
            settlement: Settlement::NotAgreed(vec!["bob".into(), "carol".into()]),
        };
        assert_eq!(
            verdict(&ended).as_deref(),
            Some(
                "Cancelled for the ratings: bob and carol never agreed to this game (by a move or \
                 other command with the password, by `accept`, or by a challenge with \
                 --password), so it is not rated."
            )
        );
        let resigned = Event::Resigned {
            game: LIMIT,
            board: 7,
            seat: 1,
            userid: "bob".into(),
            declined: false,
        };
        assert_eq!(verdict(&resigned), None);
    }

    #[test]
    fn a_rating_change_is_signed() {
        let r = GameResult {
            seat: 0,
            userid: "alice".into(),
            result: SeatResult::Lost,
            before: Rating {
                rating: 1600,
                games: 3,
            },
            after: 1584,
        };
        assert_eq!(rating_change(&r), "alice 1600 -> 1584 (-16)");
    }
}
