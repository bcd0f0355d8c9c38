//! LMTP (RFC 2033) as a state machine over the bytes a client sends: no sockets, no clock, no
//! database. The listener feeds it what it reads and writes back what it answers; a complete message
//! comes out as a [`Mail`] for the caller to ingest, and [`Session::delivered`] turns the one result
//! into the one reply per recipient that LMTP wants.
//!
//! Everything it holds is bounded whatever the client sends: a line is kept up to [`MAX_LINE`] bytes
//! (a longer command is refused, a longer line of a message is passed on in pieces), a message up to
//! `max_message_bytes + 1` bytes (the rest is read and dropped, as `pbem ingest` does with stdin, so
//! the server sees it is too long and answers the sender), at most [`MAX_RECIPIENTS`] recipients, and
//! a client that only talks without delivering, or keeps making mistakes, is sent away.

/// Longest command line kept, and the longest piece of a message line handled at once, in bytes.
/// RFC 5321 allows 512 for a command; the rest is room for long addresses and parameters.
pub const MAX_LINE: usize = 2048;
/// Recipients of one transaction (the minimum RFC 5321 asks a server to take).
pub const MAX_RECIPIENTS: usize = 100;
/// Commands between two delivered mails; a client past it is only holding the connection.
pub const MAX_COMMANDS_PER_MAIL: u32 = 200;
/// Refused commands in one connection before it is closed.
pub const MAX_ERRORS: u32 = 10;

/// The answer to every command once the server is shutting down.
pub const SHUTTING_DOWN: &str = "421 4.3.2 shutting down\r\n";

/// One message, complete, with its envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    /// The envelope sender (`MAIL FROM`), empty for a bounce.
    pub sender: String,
    /// The accepted recipients (`RCPT TO`), in order.
    pub recipients: Vec<String>,
    /// The message, dot-unstuffed, line ends as sent, cut after `max_message_bytes + 1` bytes.
    pub raw: Vec<u8>,
    /// How many bytes the message really had (more than `raw.len()` when it was cut).
    pub size: usize,
}

/// What became of a delivered message, as the recipients' replies tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Handled (acted on, or answered, or rightly ignored): 250.
    Accepted(String),
    /// The MTA should keep the message and try again later: 451.
    Temporary(String),
    /// Trying again will not help: 554.
    Permanent(String),
}

/// What the caller does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Write this (one or more reply lines, each ending in CRLF) and go on.
    Reply(String),
    /// Ingest this message, then write what [`Session::delivered`] returns.
    Deliver(Mail),
    /// Write this and close the connection.
    Close(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Waiting for a command.
    Command,
    /// Reading the message after `354`.
    Data,
    /// A [`Step::Deliver`] is out; waiting for [`Session::delivered`].
    Delivering,
    /// QUIT or a [`Step::Close`]: nothing more is read.
    Closed,
}

/// One client connection's conversation.
#[derive(Debug)]
pub struct Session {
    hostname: String,
    max_message_bytes: usize,
    state: State,
    /// The line being read: never more than [`MAX_LINE`] bytes.
    line: Vec<u8>,
    /// The command line being read went past [`MAX_LINE`]: the rest of it is dropped.
    overlong: bool,
    greeted: bool,
    sender: Option<String>,
    recipients: Vec<String>,
    /// The message being read: never more than `max_message_bytes + 1` bytes.
    data: Vec<u8>,
    data_size: usize,
    /// The next byte of the message starts a line after a CRLF (where a dot may be stuffed or end
    /// the message): a bare LF does not start one, so no second message hides behind `LF.LF`.
    data_line_start: bool,
    /// The last piece of a message line taken ended in CR (the LF may come in the next piece).
    data_cr: bool,
    commands: u32,
    errors: u32,
    shutting_down: bool,
}

impl Session {
    /// A new conversation for a server calling itself `hostname` (in its greeting and LHLO reply) that
    /// reads at most `max_message_bytes` of a message.
    pub fn new(hostname: &str, max_message_bytes: usize) -> Session {
        Session {
            hostname: one_line(hostname),
            max_message_bytes,
            state: State::Command,
            line: Vec::with_capacity(MAX_LINE),
            overlong: false,
            greeted: false,
            sender: None,
            recipients: Vec::new(),
            data: Vec::new(),
            data_size: 0,
            data_line_start: true,
            data_cr: false,
            commands: 0,
            errors: 0,
            shutting_down: false,
        }
    }

    /// The first line the server writes.
    pub fn greeting(&self) -> String {
        format!("220 {} LMTP pbem ready\r\n", self.hostname)
    }

    /// Reads from `input` (advancing it past what was used) until there is something to do. `None`:
    /// all of `input` is used up (read more), or the session is closed or waits for
    /// [`Session::delivered`] (then `input` is left as it is).
    pub fn feed(&mut self, input: &mut &[u8]) -> Option<Step> {
        loop {
            if matches!(self.state, State::Delivering | State::Closed) {
                return None;
            }
            let complete = self.take_line(input)?;
            let line = std::mem::take(&mut self.line);
            let step = match self.state {
                State::Data => self.message_line(&line, complete),
                _ => self.command_line(&line, complete),
            };
            self.line = line;
            self.line.clear();
            if let Some(step) = step {
                if let Step::Close(_) = step {
                    self.state = State::Closed;
                }
                return Some(step);
            }
        }
    }

    /// The replies, one per recipient, to the message of the last [`Step::Deliver`]; the session
    /// then waits for the next transaction.
    pub fn delivered(&mut self, verdict: &Verdict) -> String {
        let (code, status, text) = match verdict {
            Verdict::Accepted(t) => ("250", "2.0.0", t),
            Verdict::Temporary(t) => ("451", "4.3.0", t),
            Verdict::Permanent(t) => ("554", "5.3.0", t),
        };
        let text = one_line(text);
        let mut out = String::new();
        for r in &self.recipients {
            out.push_str(&format!("{code} {status} <{r}> {text}\r\n"));
        }
        self.reset();
        self.commands = 0;
        self.state = State::Command;
        out
    }

    /// Tells the session the server is shutting down: the message being read may still arrive and be
    /// delivered, but every command from now on is answered [`SHUTTING_DOWN`] and ends the session.
    pub fn shut_down(&mut self) {
        self.shutting_down = true;
    }

    /// True while the client is expected to send a command (not inside a message, not waiting for a
    /// delivery, not closed): the moment the server may close the connection with a 421.
    pub fn between_commands(&self) -> bool {
        self.state == State::Command
    }

    /// True once QUIT or a closing reply ended the conversation.
    pub fn is_closed(&self) -> bool {
        self.state == State::Closed
    }

    /// Bytes the session holds for the client: the line being read, the envelope and the message.
    pub fn held_bytes(&self) -> usize {
        self.line.capacity()
            + self.data.capacity()
            + self.sender.as_ref().map_or(0, String::capacity)
            + self.recipients.iter().map(String::capacity).sum::<usize>()
    }

    /// The most [`Session::held_bytes`] may ever be for a server reading `max_message_bytes`.
    pub fn max_held_bytes(max_message_bytes: usize) -> usize {
        MAX_LINE * (2 + MAX_RECIPIENTS) + max_message_bytes + 1
    }

    /// Moves the next line (or, for a line longer than [`MAX_LINE`], its next piece) of `input` into
    /// `self.line`. `Some(true)`: a whole line, ending in LF; `Some(false)`: a full piece of a longer
    /// line; `None`: `input` ran out first (what there was is kept for the next call).
    fn take_line(&mut self, input: &mut &[u8]) -> Option<bool> {
        let room = MAX_LINE - self.line.len();
        let window = &input[..input.len().min(room)];
        if let Some(i) = window.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&window[..=i]);
            *input = &input[i + 1..];
            return Some(true);
        }
        self.line.extend_from_slice(window);
        *input = &input[window.len()..];
        (self.line.len() == MAX_LINE).then_some(false)
    }

    fn message_line(&mut self, line: &[u8], complete: bool) -> Option<Step> {
        let at_start = self.data_line_start;
        // Only CRLF ends a line here (RFC 5321 4.1.1.4: the message ends at CRLF.CRLF): a bare LF
        // inside a message is text, so a `.` after one neither ends the message nor is unstuffed.
        let crlf = match line {
            [.., b'\r', b'\n'] => true,
            [b'\n'] => self.data_cr,
            _ => false,
        };
        self.data_line_start = complete && crlf;
        self.data_cr = line.last() == Some(&b'\r');
        if at_start && line == b".\r\n" {
            self.state = State::Delivering;
            return Some(Step::Deliver(Mail {
                sender: self.sender.clone().unwrap_or_default(),
                recipients: self.recipients.clone(),
                raw: std::mem::take(&mut self.data),
                size: std::mem::take(&mut self.data_size),
            }));
        }
        let text = match line {
            [b'.', rest @ ..] if at_start => rest,
            _ => line,
        };
        self.data_size = self.data_size.saturating_add(text.len());
        // Kept: one byte past the limit, so that the server knows the message is too long.
        let keep = self.max_message_bytes.saturating_add(1);
        let take = text.len().min(keep - self.data.len().min(keep));
        if take > 0 {
            let need = self.data.len() + take;
            if need > self.data.capacity() {
                // Doubling, but never past what may be kept.
                let target = need.max(self.data.capacity() * 2).min(keep);
                self.data.reserve_exact(target - self.data.len());
            }
            self.data.extend_from_slice(&text[..take]);
        }
        None
    }

    fn command_line(&mut self, line: &[u8], complete: bool) -> Option<Step> {
        if !complete {
            self.overlong = true;
            return None;
        }
        if std::mem::take(&mut self.overlong) {
            return Some(self.refuse(format!(
                "500 5.5.2 line too long: a command has at most {MAX_LINE} bytes"
            )));
        }
        if self.shutting_down {
            return Some(Step::Close(SHUTTING_DOWN.to_string()));
        }
        self.commands += 1;
        if self.commands > MAX_COMMANDS_PER_MAIL {
            return Some(Step::Close(format!(
                "421 4.7.0 {MAX_COMMANDS_PER_MAIL} commands without a message; closing\r\n"
            )));
        }
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches(['\r', '\n']);
        let (verb, arg) = match text.split_once(' ') {
            Some((v, a)) => (v, a.trim()),
            None => (text, ""),
        };
        let verb = verb.to_ascii_uppercase();
        let step = match verb.as_str() {
            "LHLO" => self.lhlo(arg),
            "MAIL" => self.mail(arg),
            "RCPT" => self.rcpt(arg),
            "DATA" => self.data_command(arg),
            "RSET" => {
                self.reset();
                ok("250 2.0.0 reset")
            }
            "NOOP" => ok("250 2.0.0 ok"),
            "QUIT" => Some(Step::Close(format!(
                "221 2.0.0 {} closing\r\n",
                self.hostname
            ))),
            "VRFY" => ok("252 2.5.0 cannot verify, but will take the message"),
            "HELO" | "EHLO" => self.refused("500 5.5.1 this is LMTP: say LHLO"),
            _ => self.refused(
                "500 5.5.2 unknown command; LMTP here knows LHLO MAIL RCPT DATA RSET NOOP QUIT VRFY",
            ),
        };
        if let Some(Step::Reply(r)) = &step
            && r.starts_with('5')
        {
            return Some(self.refuse(r.trim_end().to_string()));
        }
        step
    }

    fn lhlo(&mut self, arg: &str) -> Option<Step> {
        if arg.is_empty() {
            return self.refused("501 5.5.4 write LHLO with the client's host name");
        }
        self.reset();
        self.greeted = true;
        // SIZE without a number: no fixed limit (RFC 1870). With `SIZE max_message_bytes` Postfix
        // bounces a longer mail itself (seen with Postfix 3.7), and the sender never gets pbem's
        // answer that `ingest` gives; the limit is enforced while reading instead.
        Some(Step::Reply(format!(
            "250-{}\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n250-8BITMIME\r\n250 SIZE\r\n",
            self.hostname
        )))
    }

    fn mail(&mut self, arg: &str) -> Option<Step> {
        if !self.greeted {
            return self.refused("503 5.5.1 say LHLO first");
        }
        if self.sender.is_some() {
            return self.refused("503 5.5.1 a transaction is under way; RSET first");
        }
        let Some(rest) = strip_keyword(arg, "FROM:") else {
            return self.refused("501 5.5.4 write MAIL FROM:<address>");
        };
        let (path, params) = match parse_path(rest) {
            Ok(p) => p,
            Err(why) => {
                return self.refused(&format!("501 5.1.7 {why}; write MAIL FROM:<address>"));
            }
        };
        for p in params.split_whitespace() {
            let (key, value) = p.split_once('=').unwrap_or((p, ""));
            let fine = match key.to_ascii_uppercase().as_str() {
                // A message over the limit is still taken: pbem answers its sender, as `ingest` does.
                "SIZE" => !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()),
                "BODY" => matches!(value.to_ascii_uppercase().as_str(), "7BIT" | "8BITMIME"),
                _ => false,
            };
            if !fine {
                return self.refused(&format!(
                    "555 5.5.4 parameter {} is not supported (only SIZE=n and BODY=7BIT|8BITMIME)",
                    one_line(p)
                ));
            }
        }
        self.sender = Some(path);
        ok("250 2.1.0 sender ok")
    }

    fn rcpt(&mut self, arg: &str) -> Option<Step> {
        if self.sender.is_none() {
            return self.refused("503 5.5.1 MAIL FROM first");
        }
        let Some(rest) = strip_keyword(arg, "TO:") else {
            return self.refused("501 5.5.4 write RCPT TO:<address>");
        };
        let path = match parse_path(rest) {
            Ok((path, params)) if params.is_empty() && !path.is_empty() => path,
            Ok(_) => return self.refused("501 5.1.3 write RCPT TO:<address>, without parameters"),
            Err(why) => return self.refused(&format!("501 5.1.3 {why}; write RCPT TO:<address>")),
        };
        if self.recipients.len() >= MAX_RECIPIENTS {
            return ok(&format!(
                "452 4.5.3 at most {MAX_RECIPIENTS} recipients per message"
            ));
        }
        self.recipients.push(path);
        ok("250 2.1.5 recipient ok")
    }

    fn data_command(&mut self, arg: &str) -> Option<Step> {
        if !arg.is_empty() {
            return self.refused("501 5.5.4 DATA takes no argument");
        }
        if self.sender.is_none() {
            return self.refused("503 5.5.1 MAIL FROM first");
        }
        if self.recipients.is_empty() {
            return self.refused("503 5.5.1 no valid recipients");
        }
        self.state = State::Data;
        self.data_line_start = true;
        self.data_cr = false;
        self.data_size = 0;
        ok("354 2.0.0 send the message, end with a line holding only '.'")
    }

    fn reset(&mut self) {
        self.sender = None;
        self.recipients = Vec::new();
        self.data = Vec::new();
        self.data_size = 0;
    }

    /// A refusal reply, to be counted by [`Session::command_line`].
    fn refused(&self, reply: &str) -> Option<Step> {
        ok(reply)
    }

    /// Counts a refused command; past [`MAX_ERRORS`] the connection is closed.
    fn refuse(&mut self, reply: String) -> Step {
        self.errors += 1;
        if self.errors >= MAX_ERRORS {
            return Step::Close(format!(
                "{reply}\r\n421 4.7.0 {MAX_ERRORS} refused commands; closing\r\n"
            ));
        }
        Step::Reply(format!("{reply}\r\n"))
    }
}

fn ok(reply: &str) -> Option<Step> {
    Some(Step::Reply(format!("{reply}\r\n")))
}

/// `FROM:<x>` or `from: <x>` → `<x>`.
fn strip_keyword<'a>(arg: &'a str, keyword: &str) -> Option<&'a str> {
    let head = arg.get(..keyword.len())?;
    head.eq_ignore_ascii_case(keyword)
        .then(|| arg[keyword.len()..].trim_start())
}

/// `<address> params` → the address (without brackets) and the parameters.
fn parse_path(s: &str) -> Result<(String, &str), &'static str> {
    let Some(inner) = s.strip_prefix('<') else {
        return Err("the address must be in angle brackets");
    };
    let Some(end) = inner.find('>') else {
        return Err("the address has no closing '>'");
    };
    let path = &inner[..end];
    if path.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("the address holds a space or control character");
    }
    // A source route (`<@a,@b:user@c>`, RFC 5321 appendix C) is dropped.
    let path = match path.rsplit_once(':') {
        Some((route, mailbox)) if route.starts_with('@') => mailbox,
        _ => path,
    };
    Ok((path.to_string(), inner[end + 1..].trim()))
}

/// Text fit for one reply line: no control characters, at most 400 characters.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(400)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MAX: usize = 1024;

    /// Runs a client's bytes through a session, answering every delivery with `verdict`: what the
    /// server wrote, and the mails it delivered.
    fn talk(session: &mut Session, input: &[u8], verdict: &Verdict) -> (String, Vec<Mail>) {
        let mut out = String::new();
        let mut mails = Vec::new();
        let mut rest = input;
        while let Some(step) = session.feed(&mut rest) {
            match step {
                Step::Reply(r) => out.push_str(&r),
                Step::Close(r) => {
                    out.push_str(&r);
                    break;
                }
                Step::Deliver(m) => {
                    mails.push(m);
                    out.push_str(&session.delivered(verdict));
                }
            }
        }
        (out, mails)
    }

    fn accepted() -> Verdict {
        Verdict::Accepted("handled".into())
    }

    /// The code of each reply (a multi-line reply counts once).
    fn codes(out: &str) -> Vec<&str> {
        out.lines()
            .filter(|l| l.as_bytes().get(3) != Some(&b'-'))
            .map(|l| &l[..3])
            .collect()
    }

    #[test]
    fn a_whole_transaction_with_two_recipients_gets_two_replies() {
        let mut s = Session::new("games.example", MAX);
        assert_eq!(s.greeting(), "220 games.example LMTP pbem ready\r\n");
        let (out, mails) = talk(
            &mut s,
            b"LHLO mx.example\r\nMAIL FROM:<alice@example.org> SIZE=40 BODY=8BITMIME\r\n\
              RCPT TO:<pbem@games.example>\r\nRCPT TO:<other@games.example>\r\nDATA\r\n\
              Subject: hi\r\n\r\n..dotted\r\nbody.\r\n.\r\nQUIT\r\n",
            &accepted(),
        );
        assert!(out.contains("250 SIZE\r\n"), "{out}");
        assert!(out.contains("250-PIPELINING\r\n"), "{out}");
        assert_eq!(
            codes(&out),
            ["250", "250", "250", "250", "354", "250", "250", "221"]
        );
        assert!(
            out.contains("250 2.0.0 <pbem@games.example> handled\r\n"),
            "{out}"
        );
        assert!(
            out.contains("250 2.0.0 <other@games.example> handled\r\n"),
            "{out}"
        );
        assert_eq!(mails.len(), 1);
        let m = &mails[0];
        assert_eq!(m.sender, "alice@example.org");
        assert_eq!(m.recipients, ["pbem@games.example", "other@games.example"]);
        assert_eq!(m.raw, b"Subject: hi\r\n\r\n.dotted\r\nbody.\r\n");
        assert_eq!(m.size, m.raw.len());
        assert!(s.is_closed());
    }

    #[test]
    fn bare_line_feeds_end_commands_but_only_crlf_dot_crlf_ends_a_message() {
        let mut s = Session::new("h", MAX);
        let (out, mails) = talk(
            &mut s,
            b"lhlo x\nmail from:<>\nrcpt to:<p@h>\ndata\nSubject: a\n\n.. x\n.\n",
            &accepted(),
        );
        // The message is still open: `.` after a bare LF is text.
        assert_eq!(codes(&out), ["250", "250", "250", "354"]);
        assert!(mails.is_empty());
        let (out, mails) = talk(&mut s, b"\r\n.\r\n", &accepted());
        assert_eq!(codes(&out), ["250"]);
        assert_eq!(mails[0].sender, "");
        assert_eq!(mails[0].raw, b"Subject: a\n\n.. x\n.\n\r\n");
    }

    #[test]
    fn a_second_message_behind_a_bare_lf_dot_stays_inside_the_first() {
        let mut s = Session::new("h", MAX);
        let (out, mails) = talk(
            &mut s,
            b"LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\nSubject: one\r\n\r\nhi\n.\n\
              MAIL FROM:<evil@x>\r\nRCPT TO:<p@h>\r\nDATA\r\nSubject: two\r\n\r\nx\r\n\r.\r\n\
              .\r\n",
            &accepted(),
        );
        assert_eq!(mails.len(), 1, "{out}");
        assert_eq!(codes(&out), ["250", "250", "250", "354", "250"]);
        let raw = String::from_utf8(mails[0].raw.clone()).unwrap();
        assert!(raw.contains("hi\n.\nMAIL FROM:<evil@x>\r\n"), "{raw:?}");
        assert!(raw.contains("Subject: two"), "{raw:?}");
        assert_eq!(mails[0].sender, "a@b");
    }

    #[test]
    fn a_crlf_cut_between_two_pieces_still_ends_the_line() {
        let mut s = Session::new("h", 1 << 20);
        let mut input = String::from("LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\n");
        // The CR is the last byte of a MAX_LINE piece, its LF the next piece.
        input.push_str(&"w".repeat(MAX_LINE - 1));
        input.push_str("\r\n.\r\n");
        let (_, mails) = talk(&mut s, input.as_bytes(), &accepted());
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].raw.len(), MAX_LINE + 1);
    }

    #[test]
    fn failures_reply_per_recipient_with_their_codes() {
        for (verdict, want) in [
            (
                Verdict::Temporary("database busy".into()),
                "451 4.3.0 <a@h> database busy",
            ),
            (
                Verdict::Permanent("broken".into()),
                "554 5.3.0 <a@h> broken",
            ),
        ] {
            let mut s = Session::new("h", MAX);
            let (out, _) = talk(
                &mut s,
                b"LHLO x\r\nMAIL FROM:<s@x>\r\nRCPT TO:<a@h>\r\nRCPT TO:<b@h>\r\nDATA\r\nx\r\n.\r\n",
                &verdict,
            );
            assert!(out.contains(&format!("{want}\r\n")), "{out}");
            assert_eq!(out.matches(&want[..9]).count(), 2, "{out}");
        }
    }

    #[test]
    fn verdict_text_cannot_break_the_reply_line() {
        let mut s = Session::new("h", MAX);
        let (out, _) = talk(
            &mut s,
            b"LHLO x\r\nMAIL FROM:<s@x>\r\nRCPT TO:<a@h>\r\nDATA\r\nx\r\n.\r\n",
            &Verdict::Temporary("two\r\nlines".into()),
        );
        assert!(out.ends_with("451 4.3.0 <a@h> two  lines\r\n"), "{out}");
    }

    #[test]
    fn order_of_commands_is_enforced() {
        let mut s = Session::new("h", MAX);
        let (out, _) = talk(
            &mut s,
            b"MAIL FROM:<a@b>\r\nLHLO x\r\nRCPT TO:<a@b>\r\nDATA\r\nMAIL FROM:<a@b>\r\n\
              MAIL FROM:<a@b>\r\nDATA\r\nEHLO x\r\nVRFY bob\r\nNOOP\r\nRSET\r\nRCPT TO:<p@h>\r\n",
            &accepted(),
        );
        assert_eq!(
            codes(&out),
            [
                "503", "250", "503", "503", "250", "503", "503", "500", "252", "250", "250", "503"
            ]
        );
    }

    #[test]
    fn bad_syntax_says_how_to_write_it() {
        let mut s = Session::new("h", MAX);
        let (out, _) = talk(
            &mut s,
            b"LHLO\r\nLHLO x\r\nMAIL alice\r\nMAIL FROM:alice@x\r\nMAIL FROM:<a@x> AUTH=foo\r\n\
              MAIL FROM:<@r1,@r2:a@x>\r\nRCPT TO:<>\r\nRCPT TO:<p@h\r\nDATA now\r\nWHAT\r\n",
            &accepted(),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("501 5.5.4 write LHLO"), "{out}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("write MAIL FROM:<address>")),
            "{out}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("555 5.5.4 parameter AUTH=foo")),
            "{out}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("250 2.1.0")),
            "source route: {out}"
        );
        assert!(lines.iter().any(|l| l.contains("no closing '>'")), "{out}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("501 5.5.4 DATA takes no")),
            "{out}"
        );
        assert!(
            lines
                .last()
                .unwrap()
                .starts_with("500 5.5.2 unknown command"),
            "{out}"
        );
    }

    #[test]
    fn too_many_errors_close_the_connection() {
        let mut s = Session::new("h", MAX);
        let input = "BAD\r\n".repeat(20);
        let (out, _) = talk(&mut s, input.as_bytes(), &accepted());
        assert_eq!(out.matches("500 ").count(), MAX_ERRORS as usize, "{out}");
        assert!(
            out.ends_with("421 4.7.0 10 refused commands; closing\r\n"),
            "{out}"
        );
        assert!(s.is_closed());
    }

    #[test]
    fn talking_without_delivering_is_cut_off() {
        let mut s = Session::new("h", MAX);
        let input = "NOOP\r\n".repeat(1000);
        let (out, _) = talk(&mut s, input.as_bytes(), &accepted());
        assert_eq!(out.matches("250 ").count(), MAX_COMMANDS_PER_MAIL as usize);
        assert!(
            out.ends_with("commands without a message; closing\r\n"),
            "{out}"
        );
        // A delivered mail starts the count again.
        let mut s = Session::new("h", MAX);
        let mail = "MAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\nx\r\n.\r\n";
        let input = format!("LHLO x\r\n{}", mail.repeat(100));
        let (out, mails) = talk(&mut s, input.as_bytes(), &accepted());
        assert_eq!(mails.len(), 100);
        assert!(!out.contains("421"), "{out}");
    }

    #[test]
    fn too_many_recipients_are_deferred() {
        let mut s = Session::new("h", MAX);
        let mut input = String::from("LHLO x\r\nMAIL FROM:<a@b>\r\n");
        for i in 0..=MAX_RECIPIENTS {
            input.push_str(&format!("RCPT TO:<r{i}@h>\r\n"));
        }
        input.push_str("DATA\r\nx\r\n.\r\n");
        let (out, mails) = talk(&mut s, input.as_bytes(), &accepted());
        assert!(out.contains("452 4.5.3 at most 100 recipients"), "{out}");
        assert_eq!(mails[0].recipients.len(), MAX_RECIPIENTS);
        assert_eq!(out.matches("250 2.0.0 <r").count(), MAX_RECIPIENTS);
    }

    #[test]
    fn an_overlong_command_is_refused_and_the_session_goes_on() {
        let mut s = Session::new("h", MAX);
        let long = format!("NOOP {}\r\nNOOP\r\n", "x".repeat(MAX_LINE * 3));
        let (out, _) = talk(&mut s, long.as_bytes(), &accepted());
        assert_eq!(
            out,
            format!(
                "500 5.5.2 line too long: a command has at most {MAX_LINE} bytes\r\n250 2.0.0 ok\r\n"
            )
        );
        assert!(s.held_bytes() <= Session::max_held_bytes(MAX));
    }

    #[test]
    fn a_too_long_message_is_kept_to_one_byte_past_the_limit_and_read_to_the_end() {
        let mut s = Session::new("h", MAX);
        let body = "y".repeat(100) + "\r\n";
        let mut input = String::from("LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\n");
        input.push_str(&format!("Subject: big\r\n\r\n{}", body.repeat(50)));
        // A line longer than MAX_LINE, which is passed on in pieces.
        input.push_str(&"z".repeat(MAX_LINE * 2 + 5));
        input.push_str("\r\n.\r\nNOOP\r\n");
        let (out, mails) = talk(&mut s, input.as_bytes(), &accepted());
        let m = &mails[0];
        assert_eq!(m.raw.len(), MAX + 1);
        assert!(m.raw.starts_with(b"Subject: big\r\n\r\nyyy"));
        assert_eq!(
            m.size,
            "Subject: big\r\n\r\n".len() + 50 * 102 + MAX_LINE * 2 + 5 + 2
        );
        assert!(m.raw.capacity() <= MAX + 1, "{}", m.raw.capacity());
        assert!(
            out.ends_with("250 2.0.0 <p@h> handled\r\n250 2.0.0 ok\r\n"),
            "{out}"
        );
    }

    #[test]
    fn a_dot_inside_a_long_line_does_not_end_the_message() {
        let mut s = Session::new("h", 1 << 20);
        // A piece boundary falls right before ".\r\n": it is not at the start of a line.
        let mut input = String::from("LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\n");
        input.push_str(&"w".repeat(MAX_LINE));
        input.push_str(".\r\nnext\r\n.\r\n");
        let (_, mails) = talk(&mut s, input.as_bytes(), &accepted());
        let raw = String::from_utf8(mails[0].raw.clone()).unwrap();
        assert_eq!(raw, format!("{}.\r\nnext\r\n", "w".repeat(MAX_LINE)));
    }

    #[test]
    fn input_split_anywhere_gives_the_same_conversation() {
        let input: &[u8] = b"LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\n\
                             Subject: s\r\n\r\n..x\r\n.\r\nRSET\r\nQUIT\r\n";
        let whole = talk(&mut Session::new("h", MAX), input, &accepted());
        for cut in 1..input.len() {
            let mut s = Session::new("h", MAX);
            let (mut out, mut mails) = talk(&mut s, &input[..cut], &accepted());
            let (o2, m2) = talk(&mut s, &input[cut..], &accepted());
            out.push_str(&o2);
            mails.extend(m2);
            assert_eq!((out, mails), whole, "cut at {cut}");
        }
    }

    #[test]
    fn shutting_down_lets_the_message_in_hand_finish_then_answers_421() {
        let mut s = Session::new("h", MAX);
        let (_, _) = talk(
            &mut s,
            b"LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\nSubject: s\r\n",
            &accepted(),
        );
        assert!(!s.between_commands());
        s.shut_down();
        let (out, mails) = talk(&mut s, b"\r\nbody\r\n.\r\nNOOP\r\n", &accepted());
        assert_eq!(mails.len(), 1);
        assert_eq!(out, format!("250 2.0.0 <p@h> handled\r\n{SHUTTING_DOWN}"));
        assert!(s.is_closed());
        let mut rest: &[u8] = b"NOOP\r\n";
        assert_eq!(s.feed(&mut rest), None);
    }

    #[test]
    fn nothing_is_read_while_a_delivery_is_out() {
        let mut s = Session::new("h", MAX);
        let mut input: &[u8] =
            b"LHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<p@h>\r\nDATA\r\nx\r\n.\r\nNOOP\r\n";
        let mut steps = 0;
        loop {
            match s.feed(&mut input) {
                Some(Step::Deliver(_)) => break,
                Some(_) => steps += 1,
                None => panic!("no delivery"),
            }
        }
        assert_eq!(steps, 4);
        assert_eq!(s.feed(&mut input), None);
        assert_eq!(input, b"NOOP\r\n");
        s.delivered(&accepted());
        assert_eq!(
            s.feed(&mut input),
            Some(Step::Reply("250 2.0.0 ok\r\n".into()))
        );
    }

    /// Pieces of real conversations, for the random streams to be made of besides random bytes.
    fn fragment() -> impl Strategy<Value = Vec<u8>> {
        const REAL: &[&[u8]] = &[
            b"LHLO x\r\n",
            b"MAIL FROM:<a@b>\r\n",
            b"RCPT TO:<p@h>\r\n",
            b"DATA\r\n",
            b".\r\n",
            b"..\n",
            b"RSET\r\n",
            b"\r\n",
        ];
        prop_oneof![
            8 => prop::sample::select(REAL).prop_map(<[u8]>::to_vec),
            1 => (1usize..6000, any::<u8>()).prop_map(|(n, byte)| vec![byte; n]),
            1 => prop::collection::vec(any::<u8>(), 0..300),
        ]
    }

    proptest! {
        #![proptest_config(crate::props::with_cases(400))]

        /// Any byte stream, cut into reads anywhere: no panic, and what the session holds never
        /// exceeds its bounds, nor does a delivered message.
        #[test]
        fn random_streams_never_panic_nor_grow_past_the_limits(
            parts in prop::collection::vec(fragment(), 0..60),
            cuts in prop::collection::vec(1usize..4000, 1..20),
            max in 1024usize..4096,
            shutdown_at in prop::option::weighted(0.9, 0usize..60),
        ) {
            let stream: Vec<u8> = parts.concat();
            let mut s = Session::new("h", max);
            let mut pos = 0;
            let mut i = 0;
            while pos < stream.len() && !s.is_closed() {
                if shutdown_at == Some(i) {
                    s.shut_down();
                }
                let end = (pos + cuts[i % cuts.len()]).min(stream.len());
                i += 1;
                let mut rest = &stream[pos..end];
                while let Some(step) = s.feed(&mut rest) {
                    prop_assert!(s.held_bytes() <= Session::max_held_bytes(max));
                    match step {
                        Step::Reply(r) | Step::Close(r) => {
                            prop_assert!(r.ends_with("\r\n"));
                            prop_assert!(r.lines().all(|l| l.len() >= 3 && l.len() < 1000));
                        }
                        Step::Deliver(m) => {
                            prop_assert!(m.raw.len() <= max + 1);
                            prop_assert!(m.raw.capacity() <= max + 1);
                            prop_assert!(m.size >= m.raw.len());
                            prop_assert!(!m.recipients.is_empty());
                            let replies = s.delivered(&Verdict::Accepted("ok".into()));
                            prop_assert_eq!(replies.lines().count(), m.recipients.len());
                        }
                    }
                }
                prop_assert!(s.held_bytes() <= Session::max_held_bytes(max));
                pos = end - rest.len();
                if !rest.is_empty() {
                    // Only a closed session leaves input unread.
                    prop_assert!(s.is_closed());
                    break;
                }
            }
        }
    }
}
