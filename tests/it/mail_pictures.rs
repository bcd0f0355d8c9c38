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
        .find(|m| m.to == ["bob@example.org"] && m.first_line().contains(": new game"))
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
        .find(|m| m.to == ["bob@example.org"] && m.first_line().contains(": new game"))
        .unwrap();
    // The picture is drawn for sharp phone screens (issue 25), and light (issue 37 section 2: a
    // board mail 25 KB on average): a new Limit board, the fullest, about 23.7 KB (on d609713 a
    // Limit board mail averaged 27.3 KB over a whole game, 32.4 KB at most).
    assert!(mail.raw.len() <= 26_000, "{} bytes", mail.raw.len());
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
    let cid = img_cid(&html);
    assert!(html.contains("Summary of Limit Board 101"), "{html}");
    let png = msg
        .attachments()
        .find(|a| a.content_id() == Some(cid.as_str()))
        .expect("the picture, by its Content-ID");
    let ct = png.content_type().unwrap();
    assert_eq!((ct.ctype(), ct.subtype()), ("image", Some("png")));
    assert_eq!(&png.contents()[..8], b"\x89PNG\r\n\x1a\n");
    // The reply to the sender (no board) stays plain text.
    deliver_with(&env, &config, &eml("carol@example.net", "help", ""));
    let help = env.take_mails().into_iter().next().unwrap();
    assert!(!help.raw.contains("multipart"), "{}", help.raw);
}

/// The Content-ID that the first `<img src="cid:...">` of an HTML part names, URL-decoded (RFC 2392).
pub(crate) fn img_cid(html: &str) -> String {
    let at = html
        .find("<img src=\"cid:")
        .unwrap_or_else(|| panic!("no <img src=\"cid:...\"> in {html}"));
    let rest = &html[at + "<img src=\"cid:".len()..];
    let url = &rest[..rest.find('"').unwrap()];
    let mut out = Vec::new();
    let bytes = url.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&url[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Issue 34, item 5: every picture had the Content-ID `<board@pbem>`, so a client that caches
/// pictures by Content-ID showed a thread's first board in every later mail of it. Now each
/// picture's id is its mail's own (`board.` and the Message-ID, at the server's domain), and each
/// mail's HTML part names its own picture.
#[test]
fn every_board_mail_s_picture_has_its_own_content_id_named_by_its_own_html() {
    let (env, config) = game_with("");
    let mut boards = env.take_mails();
    // A move: a second board mail to each player, in the same thread as the first.
    let stored = env.stored_game(101);
    let pbem::games::Status::ToMove(seat) = stored.status() else {
        panic!("a new game is over")
    };
    let who = ["alice", "bob"][seat];
    let mv = stored.legal_moves()[0].clone();
    deliver_with(
        &env,
        &config,
        &eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}"),
            "",
        ),
    );
    boards.extend(env.take_mails());
    boards.retain(|m| m.subject.starts_with("Limit Board 101"));
    assert!(boards.len() >= 4, "{boards:#?}");
    let mut seen = std::collections::BTreeSet::new();
    for mail in &boards {
        let msg = MessageParser::default().parse(mail.raw.as_bytes()).unwrap();
        let html = msg.body_html(0).expect("an HTML part");
        let cid = img_cid(&html);
        let pictures: Vec<_> = msg
            .attachments()
            .filter(|a| a.content_type().is_some_and(|c| c.ctype() == "image"))
            .collect();
        assert_eq!(pictures.len(), 1, "{}", mail.subject);
        assert_eq!(
            pictures[0].content_id(),
            Some(cid.as_str()),
            "{}",
            mail.subject
        );
        assert_eq!(&pictures[0].contents()[..8], b"\x89PNG\r\n\x1a\n");
        // The server's own domain (no hostname set: the address's), and none shared.
        assert!(
            cid.starts_with("board.") && cid.ends_with("@localhost"),
            "{cid}"
        );
        let message_id = msg.message_id().unwrap();
        assert_eq!(cid, format!("board.{message_id}"));
        assert!(seen.insert(cid.clone()), "{cid} is used twice");
    }
    // The same reader's two mails of the game: in one thread, with two pictures.
    let to_bob: Vec<_> = boards
        .iter()
        .filter(|m| m.to == ["bob@example.org"])
        .collect();
    assert_eq!(to_bob.len(), 2, "{boards:#?}");
}

#[test]
fn with_a_web_address_every_board_mail_links_to_its_game_page() {
    let (env, _) = game_with("[web]\nbase_url = \"https://pbem.example.org/\"\n");
    let mails = env.take_mails();
    let boards: Vec<_> = mails
        .iter()
        .filter(|m| m.first_line().starts_with("Limit Board 101: new game"))
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

/// The picture is painted when the board mails are made (issue 36 section 4): each queued board
/// mail holds the PNG itself (base64 under `png` in the outbox's JSON), never the SVG to be drawn
/// when it is sent, and the mail sent carries exactly those bytes.
#[test]
fn a_queued_board_mail_holds_the_painted_png_not_svg() {
    let (env, _) = game_with("");
    let rows: Vec<String> = {
        let c = env.sqlite();
        let mut q = c.prepare("SELECT mail FROM outbox").unwrap();
        q.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let boards: Vec<&String> = rows.iter().filter(|m| m.contains(": new game")).collect();
    assert_eq!(boards.len(), 2, "one board mail to each player: {rows:#?}");
    let mut pngs = Vec::new();
    for json in &boards {
        assert!(!json.contains("<svg"), "no SVG queued: {json}");
        let mail: serde_json::Value = serde_json::from_str(json).unwrap();
        let png = mail["png"].as_str().expect("the PNG, in base64");
        assert!(png.starts_with("iVBORw0KGgo"), "a PNG's signature");
        pngs.push(png.to_string());
    }
    assert_eq!(pngs[0], pngs[1], "painted once for both mails");
    let sent = env
        .take_mails()
        .into_iter()
        .find(|m| m.to == ["bob@example.org"] && m.first_line().contains(": new game"))
        .unwrap();
    let msg = MessageParser::default().parse(sent.raw.as_bytes()).unwrap();
    let picture = msg.attachments().next().expect("the inline picture");
    use base64::Engine as _;
    let queued = base64::engine::general_purpose::STANDARD
        .decode(&pngs[0])
        .unwrap();
    assert_eq!(picture.contents(), queued.as_slice());
}
