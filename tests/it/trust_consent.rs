//! Games nobody asked for, end to end through the real `pbem` binary: a stranger's challenges neither
//! flood a player nor move anyone's rating; a game counts only when every player agreed to it.

use crate::common::{Env, NOW, Sent, eml, legal_moves_after};

const DAY: i64 = 86_400;

fn count(env: &Env, sql: &str) -> i64 {
    env.sqlite().query_row(sql, [], |r| r.get(0)).unwrap()
}

fn rating(env: &Env, userid: &str) -> i64 {
    env.sqlite()
        .query_row(
            "SELECT coalesce((SELECT rating FROM ratings r JOIN users u ON u.id = r.user_id
                              WHERE u.userid = ?1), 1600)",
            [userid],
            |r| r.get(0),
        )
        .unwrap()
}

fn cron(env: &mut Env, days: i64) -> Vec<Sent> {
    env.now = NOW + days * DAY;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    env.take_mails()
}

#[test]
fn a_strangers_challenges_are_capped_per_day_and_never_rated() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    let mut new_game_mails_to_alice = 0;
    let mut answers_to_stranger = 0;
    for _ in 0..12 {
        env.deliver(&eml(
            "mallory@evil.example",
            "limit challenge alice bob",
            "",
        ));
        for m in env.take_mails() {
            if m.to.iter().any(|t| t == "alice@example.org")
                && m.first_line().contains(": new game")
            {
                new_game_mails_to_alice += 1;
            }
            if m.to.iter().any(|t| t == "mallory@evil.example") {
                answers_to_stranger += 1;
            }
        }
    }
    assert_eq!(new_game_mails_to_alice, 5, "the default cap is 5 a day");
    assert_eq!(answers_to_stranger, 0, "the stranger hears nothing back");
    assert_eq!(count(&env, "SELECT count(*) FROM games"), 5);
    // The next day there is room again.
    env.now = NOW + DAY + 1;
    env.deliver(&eml(
        "mallory@evil.example",
        "limit challenge alice bob",
        "",
    ));
    assert_eq!(
        env.take_mails().len(),
        2,
        "one new-game mail to each player"
    );
    // Nobody ever acts; the clock nags, then ends all six games 23 days on: nobody's rating moves.
    assert_eq!(cron(&mut env, 14).len(), 6, "the nags");
    let over = cron(&mut env, 23);
    assert_eq!(over.len(), 12, "each game's last mail to both players");
    assert_eq!(
        count(&env, "SELECT count(*) FROM games WHERE finished = 0"),
        0
    );
    assert_eq!(count(&env, "SELECT count(*) FROM game_results"), 0);
    assert_eq!((rating(&env, "alice"), rating(&env, "bob")), (1600, 1600));
    assert!(
        over[0].body.contains("never agreed to this game") && over[0].body.contains("not rated"),
        "{}",
        over[0].body
    );
}

#[test]
fn a_game_counts_once_every_player_agreed() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    // With her password, the challenge is alice's agreement; the short form stays accepted too.
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge -size=8 --password=pw-alice alice bob",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2);
    for m in &mails {
        assert!(
            !m.raw.contains("pw-alice"),
            "the password leaked: {}",
            m.raw
        );
        // One line per player still to act (issue 25): bob's alone.
        assert!(
            !m.body.contains("limit move 101 alice <password> accept"),
            "{}",
            m.body
        );
        assert!(
            m.body
                .contains("\n  limit move 101 bob <password> accept\n"),
            "{}",
            m.body
        );
    }
    // bob moves: his agreement. alice resigns later: the game is rated.
    let mv = legal_moves_after(&["-size=8"], 2, &[]);
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {}", mv[0]),
        "",
    ));
    let mv2 = legal_moves_after(&["-size=8"], 2, &[&mv[0]]);
    env.deliver(&eml(
        "bob@example.org",
        &format!("limit move 101 bob pw-bob {}", mv2[0]),
        "",
    ));
    env.deliver(&eml(
        "alice@example.org",
        "limit resign 101 alice pw-alice",
        "",
    ));
    assert_eq!((rating(&env, "alice"), rating(&env, "bob")), (1568, 1632));

    // A wrong --password starts nothing.
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=guess alice bob",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].body.contains("do not match"), "{}", mails[0].body);
    assert!(!mails[0].raw.contains("guess"), "{}", mails[0].raw);
    assert_eq!(count(&env, "SELECT count(*) FROM games"), 1);
}

#[test]
fn accept_agrees_and_resign_or_reject_as_a_first_act_declines_unrated() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    for _ in 0..3 {
        env.deliver(&eml(
            "alice@example.org",
            "limit challenge --password=pw-alice alice bob",
            "",
        ));
    }
    env.take_mails();
    // 101: bob accepts, then resigns: rated.
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob accept",
        "",
    ));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .all(|m| m.body.contains("bob accepted the game")),
        "{mails:#?}"
    );
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", ""));
    assert_eq!((rating(&env, "alice"), rating(&env, "bob")), (1632, 1568));
    env.take_mails();
    // 102: bob resigns as his first act; 103: bob rejects it. Both end, neither is rated.
    env.deliver(&eml("bob@example.org", "limit resign 102 bob pw-bob", ""));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .all(|m| m.body.contains("bob declined the game") && m.body.contains("not rated")),
        "{mails:#?}"
    );
    env.deliver(&eml(
        "bob@example.org",
        "limit move 103 bob pw-bob reject",
        "",
    ));
    env.take_mails();
    assert_eq!(
        count(&env, "SELECT count(*) FROM games WHERE finished = 1"),
        3
    );
    assert_eq!((rating(&env, "alice"), rating(&env, "bob")), (1632, 1568));
    // An illegal first move is refused and agrees to nothing. (The challenge comes from another
    // address than carol's: from hers it would be her agreement, issue 25.)
    env.deliver(&eml(
        "someone@example.net",
        "limit challenge carol alice",
        "",
    ));
    env.take_mails();
    env.deliver(&eml(
        "carol@example.org",
        "limit move 104 carol pw-carol 99-98,1",
        "",
    ));
    assert_eq!(
        count(
            &env,
            "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id
             WHERE g.board = 104 AND s.agreed_at IS NOT NULL"
        ),
        0
    );
}
