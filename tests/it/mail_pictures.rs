//! Board mails with a picture (issue "See the board", item 2): with `[mail] pictures = true` a board
//! mail is `multipart/alternative`: the unchanged text first, then HTML showing the board as an inline
//! PNG (`multipart/related`, `cid:`). Through the real binary, with the mails read back from the file
//! transport.

use crate::common::{Env, eml};
use mail_parser::{MessageParser, MimeHeaders};

fn deliver_with(env: &Env, config: &std::path::Path, message: &str) {
    let out = env
        .cmd()
        .arg("--config")
        .arg(config)
        .arg("ingest")
        .write_stdin(message.as_bytes().to_vec())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// A server with this configuration file, alice and bob signed up and game 101 started between them;
/// the mails so far are left in the outbox. Returns the server and its configuration's path.
fn game_with(config_text: &str) -> (Env, std::path::PathBuf) {
    let env = Env::new();
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(&config, config_text).unwrap();
    for who in ["alice", "bob"] {
        let signup = eml(
            &format!("{who}@example.org"),
            &format!("signup {who} pw-{who}"),
            "",
        );
        deliver_with(&env, &config, &signup);
    }
    let challenge = eml("alice@example.org", "limit challenge alice bob", "");
    deliver_with(&env, &config, &challenge);
    (env, config)
}

#[test]
fn a_board_mail_carries_the_board_as_an_inline_png_after_the_same_text() {
    // The same game with pictures off: its text is what the text part must be.
    let (plain, _) = game_with("[mail]\npictures = false\n");
    let text_only = plain
        .take_mails()
        .into_iter()
        .find(|m| m.to == ["bob@example.org"] && m.subject.starts_with("New"))
        .unwrap();
    assert!(
        !text_only.raw.contains("multipart"),
        "pictures = false: text alone"
    );

    // On by default: the configuration does not mention them.
    let (env, config) = game_with("");
    let mail = env
        .take_mails()
        .into_iter()
        .find(|m| m.to == ["bob@example.org"] && m.subject.starts_with("New"))
        .unwrap();
    assert!(mail.raw.len() <= 60_000, "{} bytes", mail.raw.len());
    // The text part is the mail a text reader gets without pictures.
    assert_eq!(mail.body, text_only.body);

    let msg = MessageParser::default().parse(mail.raw.as_bytes()).unwrap();
    let root = msg.content_type().unwrap();
    assert_eq!(
        (root.ctype(), root.subtype()),
        ("multipart", Some("alternative")),
        "{}",
        &mail.raw[..600.min(mail.raw.len())]
    );
    let html = msg.body_html(0).unwrap();
    assert!(html.contains("<img src=\"cid:board@pbem\""), "{html}");
    assert!(html.contains("Summary of Limit Board 101"), "{html}");
    let png = msg
        .attachments()
        .find(|a| a.content_id() == Some("board@pbem"))
        .expect("the picture, by its Content-ID");
    let ct = png.content_type().unwrap();
    assert_eq!((ct.ctype(), ct.subtype()), ("image", Some("png")));
    assert_eq!(&png.contents()[..8], b"\x89PNG\r\n\x1a\n");
    // The reply to the sender (no board) stays plain text.
    deliver_with(&env, &config, &eml("carol@example.net", "help", ""));
    let help = env.take_mails().into_iter().next().unwrap();
    assert!(!help.raw.contains("multipart"), "{}", help.raw);
}

#[test]
fn with_a_web_address_every_board_mail_links_to_its_game_page() {
    let (env, _) = game_with("[web]\nbase_url = \"https://pbem.example.org/\"\n");
    let mails = env.take_mails();
    let boards: Vec<_> = mails
        .iter()
        .filter(|m| m.subject.starts_with("New Limit Board 101"))
        .collect();
    assert_eq!(boards.len(), 2, "{mails:#?}");
    for m in boards {
        assert!(
            m.body
                .contains("The game on the web: https://pbem.example.org/limit/101\n"),
            "{}",
            m.body
        );
    }
    // Without the setting, no link.
    let plain = Env::new();
    plain.players(&["alice", "bob"]);
    plain.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    assert!(
        plain
            .take_mails()
            .iter()
            .all(|m| !m.body.contains("on the web"))
    );
}
