//! End-to-end: ratings, standings and the history of finished games, through the real binary (`pbem
//! ingest` with real .eml messages and `pbem` admin commands), a real SQLite file and the mails of the
//! file transport. The expected ratings are worked out by hand in the comments (the rules are in
//! src/ratings.rs: start 1600, K = 64 for the first 20 rated games, then 32; three-player games as pairs
//! with half the K each; each player's total rounded to the nearest point).

use crate::common;
use crate::common::{Env, SEED, eml};
use pbem::games::limit::layout::below;
use pbem::games::{GameOption, Outcome, Status};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// The mails of the last command that end a game: each player's board mail with the result.
fn over_mails(env: &Env, board: u32) -> Vec<common::Sent> {
    let mails: Vec<_> = env
        .take_mails()
        .into_iter()
        .filter(|m| m.first_line() == format!("Limit Board {board}: over"))
        .collect();
    assert!(!mails.is_empty(), "no mail says board {board} is over");
    mails
}

/// The block of rating changes a finished game's mail shows.
fn changes_block(lines: &[&str]) -> String {
    let mut s = "Rating changes:\n".to_string();
    for l in lines {
        s.push_str(&format!("  {l}\n"));
    }
    s
}

/// A game of `players` players on the tests' layout (default options) that random play ends with an
/// outcome `want` accepts: the moves, each with the seat that plays it. The random moves come from
/// seeded ChaCha streams tried in order, so the same game is found every time.
fn game_ending(players: usize, want: impl Fn(&Outcome) -> bool) -> Vec<(usize, String)> {
    let rules = pbem::games::Registry::standard().find("limit").unwrap();
    let options: Vec<GameOption> = Vec::new();
    for stream in 0..2000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(stream);
        let mut game = rules.new_game(&options, players, SEED).unwrap();
        let mut moves = Vec::new();
        while let Status::ToMove(seat) = game.status() {
            let legal = game.legal_moves();
            let mv = legal[below(&mut rng, legal.len())].clone();
            game.play(&mv).unwrap();
            moves.push((seat, mv));
        }
        if let Status::Over(o) = game.status()
            && want(&o)
        {
            return moves;
        }
    }
    panic!("no random game of {players} players ended as wanted");
}

/// Each of `players` accepts the game on `board` (`accept` with no open proposal): a game counts for
/// the ratings only once every player agreed to it.
fn accept_all(env: &Env, board: u32, players: &[&str]) {
    for u in players {
        env.deliver(&eml(
            &format!("{u}@example.org"),
            &format!("limit move {board} {u} pw-{u} accept"),
            "",
        ));
    }
    env.take_mails();
}

/// Plays the moves on `board` by mail, up to 20 commands a mail (the server's limit), with the
/// passwords `pw-<userid>` of the players in seat order.
fn play_by_mail(env: &Env, board: u32, seats: &[&str], moves: &[(usize, String)]) {
    for chunk in moves.chunks(20) {
        let body: String = chunk
            .iter()
            .map(|(seat, mv)| {
                let u = seats[*seat];
                format!("limit move {board} {u} pw-{u} {mv}\n")
            })
            .collect();
        env.deliver(&eml("referee@example.org", "multiple", &body));
    }
}

#[test]
fn before_any_game_the_lists_say_so() {
    let env = Env::new();
    let r = env.admin_ok("limit ratings");
    assert!(r.contains("No game has been rated yet."), "{r}");
    let s = env.admin_ok("limit standings");
    assert!(s.contains("Nobody has played yet."), "{s}");
    let h = env.admin_ok("limit history");
    assert!(h.contains("No game has finished yet."), "{h}");
    // Extra words are refused with the usage, by mail too.
    env.players(&["alice"]);
    env.deliver(&eml("alice@example.org", "limit ratings 101", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "Limit Error");
    assert!(
        mails[0]
            .body
            .contains("'limit ratings' takes no words after it"),
        "{}",
        mails[0].body
    );
}

#[test]
fn a_series_of_games_is_rated_as_worked_out_by_hand() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol", "dave", "erin"]);

    // Board 101: alice (Red) against bob; bob resigns by a move `resign`.
    // Both new: 1600 each, K = 64, E = 1 / (1 + 10^0) = 0.5.
    // alice: 64 * (1 - 0.5) = +32 -> 1632; bob: 64 * (0 - 0.5) = -32 -> 1568.
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice bob",
        "",
    ));
    env.take_mails();
    accept_all(&env, 101, &["bob"]);
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob resign",
        "",
    ));
    let mails = over_mails(&env, 101);
    assert_eq!(mails.len(), 2, "one mail to each player");
    let block = changes_block(&["alice 1600 -> 1632 (+32)", "bob 1600 -> 1568 (-32)"]);
    for m in &mails {
        assert!(
            m.body.contains("Game over: Red (alice) wins."),
            "{}",
            m.body
        );
        assert!(m.body.contains(&block), "{}", m.body);
    }
    // `show` of the finished game shows the same changes, but not of the game before its end.
    assert!(env.admin_ok("limit show 101").contains(&block));
    let earlier = env.admin_ok("limit show 101#1");
    assert!(earlier.contains("Red (alice) to move."), "{earlier}");
    assert!(!earlier.contains("Rating changes"), "{earlier}");

    // Board 102: bob (Red) against alice; alice resigns with `resign`.
    // Before: bob 1568 (1 game), alice 1632 (1 game), both still K = 64.
    // E(bob) = 1 / (1 + 10^((1632 - 1568) / 400)) = 1 / (1 + 10^0.16) = 1 / 2.445440 = 0.408924.
    // bob: 64 * (1 - 0.408924) = 37.829 -> +38 -> 1606; alice: 64 * (0 - 0.591076) = -37.829 -> -38
    // -> 1594.
    env.deliver(&eml("bob@example.org", "limit challenge bob alice", ""));
    let new_game = env.take_mails();
    assert!(
        new_game.iter().all(|m| !m.body.contains("Rating changes")),
        "a new game has no rating changes"
    );
    accept_all(&env, 102, &["bob", "alice"]);
    let out = env.admin_ok("limit resign 102 alice pw-alice");
    assert!(out.contains("Game over: Red (bob) wins."), "{out}");
    let block = changes_block(&["bob 1568 -> 1606 (+38)", "alice 1632 -> 1594 (-38)"]);
    for m in over_mails(&env, 102) {
        assert!(m.body.contains(&block), "{}", m.body);
    }

    // Board 103, three players: alice (Red), bob (Blue), carol (Green). alice resigns, the other two
    // play on, then bob resigns: carol wins. Pairwise: carol beats alice and bob, alice and bob draw.
    // Before: alice 1594, bob 1606, carol 1600, all provisional: per-pair K = 64 / 2 = 32.
    // E(alice vs bob) = 1 / (1 + 10^(12/400)) = 0.482737; E(alice vs carol) = 1 / (1 + 10^(6/400))
    // = 0.491366; E(bob vs carol) = 1 / (1 + 10^(-6/400)) = 0.508634.
    // alice: 32 * (0.5 - 0.482737) + 32 * (0 - 0.491366) = 0.552 - 15.724 = -15.171 -> -15 -> 1579.
    // bob:   32 * (0.5 - 0.517263) + 32 * (0 - 0.508634) = -0.552 - 16.276 = -16.829 -> -17 -> 1589.
    // carol: 32 * (1 - 0.508634) + 32 * (1 - 0.491366) = 15.724 + 16.276 = 32.000 -> +32 -> 1632.
    env.deliver(&eml(
        "carol@example.org",
        "limit challenge alice bob carol",
        "",
    ));
    env.take_mails();
    accept_all(&env, 103, &["alice", "bob", "carol"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit resign 103 alice pw-alice",
        "",
    ));
    let mails = env.take_mails();
    assert!(
        mails.iter().all(|m| !m.body.contains("Rating changes")),
        "the game goes on after one resignation: nothing is rated yet"
    );
    env.deliver(&eml("bob@example.org", "limit resign 103 bob pw-bob", ""));
    let mails = over_mails(&env, 103);
    assert_eq!(mails.len(), 3, "one mail to each of the three players");
    let block = changes_block(&[
        "alice 1594 -> 1579 (-15)",
        "bob 1606 -> 1589 (-17)",
        "carol 1600 -> 1632 (+32)",
    ]);
    for m in &mails {
        assert!(
            m.body.contains("Game over: Green (carol) wins."),
            "{}",
            m.body
        );
        assert!(m.body.contains(&block), "{}", m.body);
    }

    // Board 104, three players, a draw shared by the first two: dave (Red) and erin (Blue) share it,
    // alice (Green) is left out. The moves are a random game that ends so (found by the engine);
    // the server plays them from mail. Pairwise: dave and erin draw, each beats alice.
    // Before: dave 1600, erin 1600 (new), alice 1579 (3 games), all provisional: per-pair K = 32.
    // E(dave vs alice) = 1 / (1 + 10^((1579 - 1600) / 400)) = 1 / (1 + 10^-0.0525) = 1 / 1.886135
    // = 0.530185.
    // dave: 32 * (0.5 - 0.5) + 32 * (1 - 0.530185) = 15.034 -> +15 -> 1615; erin the same -> 1615.
    // alice: 2 * 32 * (0 - 0.469815) = -30.068 -> -30 -> 1549.
    let moves = game_ending(3, |o| *o == Outcome::Draw(vec![0, 1]));
    env.deliver(&eml(
        "dave@example.org",
        "limit challenge dave erin alice",
        "",
    ));
    env.take_mails();
    play_by_mail(&env, 104, &["dave", "erin", "alice"], &moves);
    let mails = over_mails(&env, 104);
    assert_eq!(mails.len(), 3, "{mails:#?}");
    let block = changes_block(&[
        "dave 1600 -> 1615 (+15)",
        "erin 1600 -> 1615 (+15)",
        "alice 1579 -> 1549 (-30)",
    ]);
    for m in &mails {
        assert!(
            m.body
                .contains("Game over: a draw between Red (dave) and Blue (erin)."),
            "{}",
            m.body
        );
        assert!(m.body.contains(&block), "{}", m.body);
    }

    // Board 105, two players, a draw: bob (Red) and carol (Blue).
    // Before: bob 1589 (3 games), carol 1632 (1 game), both K = 64.
    // E(bob) = 1 / (1 + 10^(43/400)) = 1 / (1 + 1.280855) = 0.438432.
    // bob: 64 * (0.5 - 0.438432) = 3.940 -> +4 -> 1593; carol: 64 * (0.5 - 0.561568) = -3.940 -> -4
    // -> 1628.
    let moves = game_ending(2, |o| matches!(o, Outcome::Draw(_)));
    env.deliver(&eml("bob@example.org", "limit challenge bob carol", ""));
    env.take_mails();
    play_by_mail(&env, 105, &["bob", "carol"], &moves);
    let block = changes_block(&["bob 1589 -> 1593 (+4)", "carol 1632 -> 1628 (-4)"]);
    for m in over_mails(&env, 105) {
        assert!(m.body.contains("Game over: a draw between"), "{}", m.body);
        assert!(m.body.contains(&block), "{}", m.body);
    }

    // Board 106 stays open between carol and dave: it counts as active in the standings only.
    env.deliver(&eml("carol@example.org", "limit challenge carol dave", ""));
    env.take_mails();

    // The rating list, best first: carol 1628 (2 games: 103 and 105), dave 1615 (1), erin 1615 (1), bob 1593 (4),
    // alice 1549 (4); everyone provisional (fewer than 20 games). dave and erin tie: by userid.
    env.deliver(&eml("erin@example.org", "limit ratings", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["erin@example.org"]);
    assert_eq!(mails[0].subject, "Limit Ratings");
    let r = &mails[0].body;
    let rows: Vec<Vec<&str>> = r
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Rank"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["1", "carol", "1628", "2", "P"],
            vec!["2", "dave", "1615", "1", "P"],
            vec!["3", "erin", "1615", "1", "P"],
            vec!["4", "bob", "1593", "4", "P"],
            vec!["5", "alice", "1549", "4", "P"],
        ],
        "{r}"
    );

    // Standings: played (finished), won, lost, drawn, active.
    // alice: 101 won, 102 lost, 103 lost, 104 lost (left out of the draw) -> 4 played, 1-3-0.
    // bob:   101 lost, 102 won, 103 lost, 105 drawn -> 4 played, 1-2-1.
    // carol: 103 won, 105 drawn, 106 active -> 2 played, 1-0-1, 1 active.
    // dave:  104 drawn, 106 active -> 1 played, 0-0-1, 1 active.  erin: 104 drawn -> 1, 0-0-1.
    // Ordered by won, then drawn, then fewest lost, then userid: bob and carol both won 1 and drew 1,
    // carol lost fewer.
    let s = env.admin_ok("limit standings");
    let rows: Vec<Vec<&str>> = s
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Player"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["carol", "2", "1", "0", "1", "1"],
            vec!["bob", "4", "1", "2", "1", "0"],
            vec!["alice", "4", "1", "3", "0", "0"],
            vec!["dave", "1", "0", "0", "1", "1"],
            vec!["erin", "1", "0", "0", "1", "0"],
        ],
        "{s}"
    );

    // The history of the type: every finished game, its result and its changes; not the open one.
    let h = env.admin_ok("limit history");
    for needle in [
        "Board 101: alice vs bob",
        "  Won by alice.\n  alice 1600 -> 1632 (+32)\n  bob 1600 -> 1568 (-32)\n",
        "Board 102: bob vs alice",
        "  bob 1568 -> 1606 (+38)\n  alice 1632 -> 1594 (-38)\n",
        "Board 103: alice vs bob vs carol",
        "  Won by carol.\n  alice 1594 -> 1579 (-15)\n  bob 1606 -> 1589 (-17)\n  \
         carol 1600 -> 1632 (+32)\n",
        "Board 104: dave vs erin vs alice",
        "  A draw between dave and erin.\n",
        "  alice 1579 -> 1549 (-30)\n",
        "Board 105: bob vs carol",
        "  A draw between bob and carol.\n",
        "  bob 1589 -> 1593 (+4)\n  carol 1632 -> 1628 (-4)\n",
    ] {
        assert!(h.contains(needle), "history lacks {needle:?}:\n{h}");
    }
    assert!(!h.contains("Board 106"), "{h}");
    // The history of one board is still the move list.
    let one = env.admin_ok("limit history 103");
    assert!(one.contains("History of Limit Board 103"), "{one}");
    assert!(one.contains("resign"), "{one}");

    // A finished game is rated once: a command on it afterwards changes no rating.
    let out = env.admin("limit resign 101 alice pw-alice");
    assert!(!out.status.success());
    env.take_mails();
    assert_eq!(env.admin_ok("limit ratings"), r.as_str());

    // A game that ended before the server kept ratings (no stored results) is listed as not rated
    // (issue 12 shortened the line: games of players who never agreed are not rated either), its
    // result taken from the status line saved with the game...
    env.sqlite()
        .execute(
            "DELETE FROM game_results WHERE game_id = (SELECT id FROM games WHERE board = 101)",
            [],
        )
        .unwrap();
    let expected = "Board 101: alice vs bob (ended 2026-11-18 11:06 UTC)\n  Game over: Red (alice) wins.\n  \
                    Not rated.\n";
    let h = env.admin_ok("limit history");
    assert!(h.contains(expected), "{h}");
    // ...or, for a game saved before the lists kept it (migration 0011), from the game itself,
    // once: the line is then saved.
    env.sqlite()
        .execute("UPDATE games SET status = NULL WHERE board = 101", [])
        .unwrap();
    let h = env.admin_ok("limit history");
    assert!(h.contains(expected), "{h}");
    let saved: Option<String> = env
        .sqlite()
        .query_row("SELECT status FROM games WHERE board = 101", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(saved.as_deref(), Some("Game over: Red (alice) wins."));
}
