//! `GAME show BOARD#K` for a move K past the game's last (issue 36, section 1): every game refuses
//! it, saying which move the game is at, as the web page answers 404, and shows the boards that
//! exist. Y and
//! Unlur (pbem 8096aec) showed the last board instead, the other games refused; now all are on
//! one rule. Real mail through the real ingest path, the admin's `show` by the real binary.

use crate::common::{Env, eml};

/// The newest board of `game`.
fn newest_board(env: &Env, game: &str) -> u32 {
    env.sqlite()
        .query_row(
            "SELECT max(board) FROM games WHERE game_type = ?1",
            rusqlite::params![game],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn every_game_refuses_a_move_past_its_last_and_shows_the_ones_before() {
    let env = Env::new();
    env.players(&["alice", "bob", "dave", "erin"]);
    let games = pbem::games::Registry::standard().names();
    assert!(games.len() >= 11, "{games:?}");
    // Challenges nobody asked for are capped at 5 a day for each player named: three pairs.
    for (i, game) in games.iter().enumerate() {
        let (a, b) = [("alice", "bob"), ("bob", "alice"), ("dave", "erin")][i % 3];
        env.deliver(&eml(
            &format!("{a}@example.org"),
            &format!("{game} challenge {a} {b}"),
            "",
        ));
        let board = newest_board(&env, game);
        // One move by the seat to move (the challenger, seat 0), the first the game lists.
        let state = env.stored_game_of(game, board);
        assert_eq!(state.move_number(), 1, "{game}");
        let mv = state.legal_moves()[0].clone();
        env.deliver(&eml(
            &format!("{a}@example.org"),
            &format!("{game} move {board} {a} pw-{a} {mv}"),
            "",
        ));
        env.take_mails();
        assert_eq!(
            env.stored_game_of(game, board).move_number(),
            2,
            "{game}: {mv}"
        );

        for k in [1, 2] {
            let shown = env.admin_ok(&format!("{game} show {board}#{k}"));
            assert!(
                shown.contains(&format!("Board {board}")),
                "{game}#{k}: {shown}"
            );
        }
        for k in [3, 99] {
            let out = env.admin(&format!("{game} show {board}#{k}"));
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            // Every game on Match words it the same (Limit had its own words before it joined).
            assert!(
                text.contains("Your command was not carried out")
                    && text.contains(&format!("move {k} does not exist: this game is at move 2")),
                "{game} show {board}#{k}: {text}"
            );
        }
    }
}
