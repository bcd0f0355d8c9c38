//! `rematch` (issue 37, item 1): a bare `rematch` in reply to a finished game's mail starts the
//! same game again with the same options and the colours swapped, mailing both players as a
//! challenge does; `GAME rematch N userid password` does it by command. And a reply to a board
//! mail from an address that is not the player's registered one says to send from that one.
//! Real `.eml` replies to the signed Reply-To through `pbem ingest`, a real SQLite file.

use crate::common::{EVERY_ANSWER, Env, Sent, eml};

/// A reply to `mail`'s signed Reply-To from `from`, holding `body`.
fn reply(mail: &Sent, from: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: <r{}@example.org>\r\n\r\n{body}\r\n",
        mail.reply_address(),
        mail.subject,
        body.len()
    )
}

fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    mails
        .iter()
        .find(|m| m.to == [format!("{who}@example.org")])
        .unwrap_or_else(|| panic!("no mail to {who}: {mails:#?}"))
}

/// Hex board 101 on 5x5 without the swap, alice (Black) against bob, over: bob resigned. Gives
/// the game-over mails.
fn finished_hex() -> (Env, Vec<Sent>) {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "hex challenge -size=5 -no_swap alice bob",
        "",
    ));
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    env.take_mails();
    env.deliver(&eml("bob@example.org", "hex resign 101 bob pw-bob", ""));
    let over = env.take_mails();
    assert!(
        to(&over, "bob").first_line().ends_with(": over"),
        "{over:#?}"
    );
    (env, over)
}

#[test]
fn a_bare_rematch_to_the_game_over_mail_starts_the_same_game_with_colours_swapped() {
    let (env, over) = finished_hex();
    // bob, who lost, replies `rematch` (with a word of table talk under it).
    env.deliver(&reply(
        to(&over, "bob"),
        "bob@example.org",
        "rematch\r\n\r\nOne more?",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    // Board 102: bob first (Black), alice second, the same options.
    let game = env.stored_game_of("hex", 102);
    assert_eq!(game.options_summary(), "-size=5 -no_swap");
    let seats: Vec<String> = env
        .sqlite()
        .prepare(
            "SELECT u.userid FROM seats s JOIN users u ON u.id = s.user_id
             JOIN games g ON g.id = s.game_id WHERE g.board = 102 ORDER BY s.seat",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(seats, ["bob", "alice"]);
    // Both get the new game's mail, as after a challenge; bob is to move.
    assert_eq!(
        to(&mails, "bob").first_line(),
        "Hex Board 102: new game, your move (with a comment)"
    );
    assert_eq!(
        to(&mails, "alice").first_line(),
        "Hex Board 102: new game, bob to move (with a comment)"
    );
    assert!(
        to(&mails, "alice").body.contains("One more?"),
        "{}",
        to(&mails, "alice").body
    );
    // bob's reply was his agreement to the new game (he sent it from his registered address).
    let agreed: Vec<bool> = env
        .sqlite()
        .prepare(
            "SELECT s.agreed_at IS NOT NULL FROM seats s JOIN games g ON g.id = s.game_id
             WHERE g.board = 102 ORDER BY s.seat",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(agreed, [true, false]);
    // And the new game plays: bob's bare reply to his new board mail is his move.
    env.deliver(&reply(to(&mails, "bob"), "bob@example.org", "b2"));
    let moved = env.take_mails();
    assert!(
        to(&moved, "alice").body.contains("bob played b2"),
        "{moved:#?}"
    );
}

#[test]
fn rematch_by_command_and_its_refusals_say_what_would_work() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml(
        "alice@example.org",
        "hex challenge -size=5 alice bob",
        "",
    ));
    env.take_mails();
    // A game still being played: no rematch, and the answer names the challenge that would work.
    env.deliver(&eml(
        "alice@example.org",
        "hex rematch 101 alice pw-alice",
        "",
    ));
    let refused = env.only_mail_to("alice@example.org");
    let text = refused.flat_body();
    assert!(
        text.contains("Hex board 101 is still being played")
            && text.contains("a rematch starts once it is over")
            && text.contains("send `hex challenge alice bob`"),
        "{text}"
    );
    assert!(
        env.sqlite()
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
            .unwrap()
            == 1
    );
    // A move on the finished game says rematch is what works there.
    env.deliver(&eml("bob@example.org", "hex resign 101 bob pw-bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice d4",
        "",
    ));
    let over = env.only_mail_to("alice@example.org").flat_body();
    assert!(
        over.contains("Hex board 101 is over")
            && over.contains("reply `rematch` to its mail, or send `hex rematch 101"),
        "{over}"
    );
    // carol did not play it.
    env.deliver(&eml(
        "carol@example.org",
        "hex rematch 101 carol pw-carol",
        "",
    ));
    let not_hers = env.only_mail_to("carol@example.org").flat_body();
    assert!(
        not_hers.contains("carol does not play Hex board 101"),
        "{not_hers}"
    );
    // By command, from alice: board 102 with bob first.
    env.deliver(&eml(
        "alice@example.org",
        "hex rematch 101 alice pw-alice",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(
        to(&mails, "bob").first_line(),
        "Hex Board 102: new game, your move"
    );
    assert_eq!(
        to(&mails, "alice").first_line(),
        "Hex Board 102: new game, bob to move"
    );
}

#[test]
fn a_reply_from_an_unregistered_address_says_to_send_from_the_registered_one() {
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    let mails = env.take_mails();
    // alice replies with her move, but from her phone's other address.
    env.deliver(&reply(to(&mails, "alice"), "alice@phone.example", "c3"));
    let answer = env.only_mail_to("alice@phone.example");
    let text = answer.flat_body();
    assert!(
        text.contains("came from an address that is not registered to the player")
            && text.contains("send from your registered address")
            && text.contains("`hex move 101 <userid> <password> <move>`"),
        "{text}"
    );
    // It names nobody, and nothing was played.
    assert!(!text.contains("alice"), "{text}");
    assert!(env.stored_game_of("hex", 101).moves().is_empty());
    // A reply with a token that is not right gets the ordinary answer, not this one.
    let forged = reply(to(&mails, "alice"), "alice@phone.example", "c3")
        .replace(
            &to(&mails, "alice").reply_address(),
            "pbem+g1x000000000000000000000000@localhost",
        )
        .replace("<r2@example.org>", "<forged@example.org>");
    env.deliver(&forged);
    let plain = env.only_mail_to("alice@phone.example").flat_body();
    assert!(!plain.contains("registered address"), "{plain}");
}

/// What `rematch` carries over of a game's options: each game's options as a challenge wrote
/// them come back whole from its options line, so the new game is the same game.
#[test]
fn every_games_options_line_starts_the_same_game_again() {
    let cases: &[(&str, &[&str])] = &[
        (
            "limit",
            &["-size=4", "-manual", "-move_or_remove", "-no_equaliser"],
        ),
        ("limit", &["-classic"]),
        ("limit", &["-must_touch=2", "-free_edges=2", "-can_isolate"]),
        ("hex", &["-size=7", "-no_swap"]),
        ("chameleon", &["-size=5"]),
        ("y", &["-size=9", "-no_swap"]),
        ("unlur", &["-size=5"]),
        ("go", &["-size=9", "-handicap=2", "-komi=0.5"]),
        ("go", &["-size=13", "-komi=6"]),
        ("ataxx", &[]),
        ("hexxagon", &[]),
        ("cups", &[]),
    ];
    let registry = pbem::games::Registry::standard();
    for (game, options) in cases {
        let rules = registry.find(game).unwrap();
        let parse = |words: &[&str]| -> Vec<pbem::games::GameOption> {
            words
                .iter()
                .map(|w| pbem::games::GameOption::parse(w).unwrap())
                .collect()
        };
        let players = *rules.players().start();
        let first = rules.new_hosted_game(&parse(options), players, 7).unwrap();
        let line = first.options_summary();
        let words: Vec<&str> = line.split_whitespace().collect();
        let again = rules.new_hosted_game(&parse(&words), players, 7).unwrap();
        assert_eq!(again.options_summary(), line, "{game} {options:?}");
        assert_eq!(
            again.to_json(),
            first.to_json(),
            "{game} {options:?}: {line}"
        );
    }
}

/// A rematch keeps the finished game's own nag and forfeit times (issue 37): the new game nags
/// after two days, as the first did, not after the server's seven.
#[test]
fn a_rematch_keeps_the_games_own_nag_and_forfeit_times() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "hex challenge -size=5 --nagtime=2 --forfeittime=5 alice bob",
        "",
    ));
    env.take_mails();
    env.deliver(&eml("bob@example.org", "hex resign 101 bob pw-bob", ""));
    let over = env.take_mails();
    env.deliver(&reply(to(&over, "bob"), "bob@example.org", "rematch"));
    env.take_mails();
    let clock = |board: u32| -> (Option<u32>, Option<u32>) {
        env.sqlite()
            .query_row(
                "SELECT c.nag_days, c.forfeit_days FROM game_clocks c
                 JOIN games g ON g.id = c.game_id WHERE g.game_type = 'hex' AND g.board = ?1",
                [board],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap_or((None, None))
    };
    assert_eq!(clock(101), (Some(2), Some(5)));
    assert_eq!(clock(102), (Some(2), Some(5)));
    // bob, Black in the rematch, is to move; two days later he is reminded.
    env.now = crate::common::NOW + 2 * 86_400 + 60;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let nags = env.take_mails();
    let bob = to(&nags, "bob");
    assert!(
        bob.flat_body().contains("it is your move on Hex Board 102"),
        "{}",
        bob.body
    );
    assert!(
        bob.flat_body().contains("reminded every 2 days"),
        "{}",
        bob.body
    );
}
