//! Inputs that once crashed a fuzz target (`fuzz/`, `scripts/fuzz.sh`), kept so the bugs stay fixed.
//! Each `tests/fixtures/fuzz/ingest/*` file is a whole message: it is ingested twice by a server on an
//! in-memory database with a game under way; the first must not fail, every answer must be sent (none
//! left failing in the outbox), no mail may show alice's or bob's password (these inputs use them
//! only as credentials) except inside the sender's own address or message id, repeated to answer
//! them, and the second delivery must write nothing (the same checks the fuzz target makes).

use pbem::config::Config;
use pbem::mail_out::OutgoingMail;
use pbem::server::{IngestOutcome, Server};

#[test]
fn ingest_crashers_are_handled() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config::default();
    cfg.server.address = "pbem@games.example".into();
    cfg.mail.outbox_dir = dir.path().join("outbox");
    cfg.passwords.memory_kib = 8;
    cfg.passwords.iterations = 1;
    let mut files: Vec<_> = std::fs::read_dir("tests/fixtures/fuzz/ingest")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let mut server = Server::open_in_memory(cfg.clone(), 1_795_000_000)
            .unwrap()
            .with_seed(Some(7));
        for line in [
            "signup alice Alice-pw-1 alice@example.org",
            "signup bob Bob-pw-22 bob@example.org",
            "limit challenge alice bob",
        ] {
            assert!(server.run_admin(line, "").unwrap().ok);
        }
        let raw = std::fs::read(&path).unwrap();
        let first = server.ingest(&raw).unwrap();
        // Every answer could be built and was sent.
        let unsent = server.db().outbox(true).unwrap();
        assert!(
            unsent.is_empty(),
            "{}: {:?}",
            path.display(),
            unsent.iter().map(|r| &r.last_error).collect::<Vec<_>>()
        );
        for row in server.db().outbox(false).unwrap() {
            let mail: OutgoingMail = serde_json::from_str(&row.mail).unwrap();
            for secret in ["Alice-pw-1", "Bob-pw-22"] {
                assert!(
                    !mail.subject.contains(secret) && !mail.body.contains(secret),
                    "{}: {secret} in {}",
                    path.display(),
                    row.mail
                );
                // The sender's own address and message id are repeated to reach and thread, whatever
                // the sender put in them; anything else there holding a password would be a leak.
                let echoed = mail
                    .to
                    .iter()
                    .chain(&mail.in_reply_to)
                    .chain(&mail.references);
                for value in echoed.filter(|v| v.contains(secret)) {
                    let bare = value.trim_matches(['<', '>']);
                    assert!(
                        raw.windows(bare.len()).any(|w| w == bare.as_bytes()),
                        "{}: {secret} in {value}, not the input's own",
                        path.display()
                    );
                }
            }
        }
        let changes = server.db().total_changes();
        let second = server.ingest(&raw).unwrap();
        assert_eq!(server.db().total_changes(), changes, "{}", path.display());
        if matches!(first, IngestOutcome::Handled { .. }) {
            assert_eq!(second, IngestOutcome::Duplicate, "{}", path.display());
        }
    }
}
