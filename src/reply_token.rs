//! Signed reply addresses (issue 25): every board mail to a player carries a `Reply-To` of
//! `pbem+<token>@host`, so that a reply holding just the move is that player's move without a
//! password.
//!
//! A token names what it answers (a board, by its game row id, or the writer of a `message`) and
//! carries an HMAC-SHA256 under the server's secret of that, the reader's account row and the
//! account's reply generation (which every password change moves on, so that the tokens mailed
//! before it stop working). The reader is not written in the token: the server tries the accounts
//! registered at the reply's From address, so a token works only from the reader's own address.
//!
//! This module is pure (no storage, no mail): the server (`server/reply.rs`) reads the secret and
//! the accounts, and decides.

use sha2::{Digest, Sha256};

/// Bytes of the MAC kept in a token: 96 bits, written as 24 hex digits.
const MAC_BYTES: usize = 12;

/// What a reply to a token answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A board: the game's row id. The reply's lines are that game's commands.
    Board(i64),
    /// A `message`: the writer's account row id. The reply is a `message` back to them.
    Message(i64),
}

impl Target {
    fn letter(self) -> char {
        match self {
            Target::Board(_) => 'g',
            Target::Message(_) => 'm',
        }
    }

    fn id(self) -> i64 {
        match self {
            Target::Board(id) | Target::Message(id) => id,
        }
    }
}

/// One reader's key: the account row and its reply generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reader {
    /// The account's row id.
    pub user_id: i64,
    /// Moved on by every password change (see migration 0021).
    pub generation: i64,
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

/// The MAC of a token, in full: the domain string keeps these MACs apart from any other use of the
/// secret.
fn mac(secret: &[u8], target: Target, reader: Reader) -> [u8; 32] {
    let message = format!(
        "pbem reply v1\0{}\0{}\0{}\0{}",
        target.letter(),
        target.id(),
        reader.user_id,
        reader.generation
    );
    hmac_sha256(secret, message.as_bytes())
}

/// The token for `reader` answering `target`: `g123-<24 hex>` or `m7-<24 hex>`, lowercase (some
/// mail systems fold an address's case).
pub fn token(secret: &[u8], target: Target, reader: Reader) -> String {
    let mac = mac(secret, target, reader);
    let hex: String = mac[..MAC_BYTES]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{}{}-{hex}", target.letter(), target.id())
}

/// A token as read from an address, before it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// What it claims to answer.
    pub target: Target,
    mac: [u8; MAC_BYTES],
}

impl Unchecked {
    /// Reads a token (case ignored); `None` when it is not one's shape.
    pub fn parse(text: &str) -> Option<Unchecked> {
        let text = text.to_ascii_lowercase();
        let (head, hex) = text.split_once('-')?;
        let mut chars = head.chars();
        let letter = chars.next()?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let id: i64 = digits.parse().ok()?;
        let target = match letter {
            'g' => Target::Board(id),
            'm' => Target::Message(id),
            _ => return None,
        };
        if hex.len() != 2 * MAC_BYTES {
            return None;
        }
        let mut mac = [0u8; MAC_BYTES];
        for (i, byte) in mac.iter_mut().enumerate() {
            *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(Unchecked { target, mac })
    }

    /// True when the token was made for `reader` under `secret`. Compared in constant time: how
    /// long the answer takes tells nothing of how many bytes were right.
    pub fn is_for(&self, secret: &[u8], reader: Reader) -> bool {
        let want = mac(secret, self.target, reader);
        let diff = want[..MAC_BYTES]
            .iter()
            .zip(&self.mac)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        diff == 0
    }
}

/// The envelope sender (VERP) token of outbox row `row` (issue 34): `b<row>-<24 hex>`, a MAC under
/// the server's secret, so that a delivery report sent back to the address names the mail it is
/// about, and nobody who never saw the mail can make one that pbem believes.
pub fn bounce_token(secret: &[u8], row: i64) -> String {
    let mac = bounce_mac(secret, row);
    let hex: String = mac[..MAC_BYTES]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("b{row}-{hex}")
}

/// The outbox row a bounce token was made for, when it is one of ours (case ignored, MAC compared
/// in constant time); `None` for anything else.
pub fn bounce_row(secret: &[u8], token: &str) -> Option<i64> {
    let token = token.to_ascii_lowercase();
    let (head, hex) = token.split_once('-')?;
    let digits = head.strip_prefix('b')?;
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: i64 = digits.parse().ok()?;
    if hex.len() != 2 * MAC_BYTES {
        return None;
    }
    let mut got = [0u8; MAC_BYTES];
    for (i, byte) in got.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let want = bounce_mac(secret, row);
    let diff = want[..MAC_BYTES]
        .iter()
        .zip(&got)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    (diff == 0).then_some(row)
}

/// True when `token` has a bounce token's shape (`b<digits>-...`), checked or not: mail to such an
/// address is a report about our mail, never a player's command.
pub fn is_bounce_shaped(token: &str) -> bool {
    let head = token.split_once('-').map_or(token, |(h, _)| h);
    head.len() > 1
        && (head.starts_with('b') || head.starts_with('B'))
        && head[1..].bytes().all(|b| b.is_ascii_digit())
}

fn bounce_mac(secret: &[u8], row: i64) -> [u8; 32] {
    hmac_sha256(secret, format!("pbem bounce v1\0{row}").as_bytes())
}

/// The reply address for a token: the server's address with `+token` after its local part.
pub fn address(server_address: &str, token: &str) -> String {
    match server_address.rsplit_once('@') {
        Some((local, domain)) => format!("{local}+{token}@{domain}"),
        None => format!("{server_address}+{token}"),
    }
}

/// The token of a recipient address that is the server's own with `+token` after its local part
/// (local part and domain compared ignoring case); `None` for any other address.
pub fn token_of<'a>(server_address: &str, recipient: &'a str) -> Option<&'a str> {
    let recipient = recipient
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let (local, domain) = server_address.rsplit_once('@')?;
    let (r_local, r_domain) = recipient.rsplit_once('@')?;
    if !r_domain.eq_ignore_ascii_case(domain) {
        return None;
    }
    let (base, token) = r_local.split_once('+')?;
    (base.eq_ignore_ascii_case(local) && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1, 2 and 6 (a key longer than the block).
        assert_eq!(
            hex(&hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn a_token_is_for_its_reader_target_and_generation_only() {
        let secret = [7u8; 32];
        let alice = Reader {
            user_id: 1,
            generation: 0,
        };
        let t = token(&secret, Target::Board(12), alice);
        assert!(t.starts_with("g12-") && t.len() == 4 + 24, "{t}");
        let read = Unchecked::parse(&t).unwrap();
        assert_eq!(read.target, Target::Board(12));
        assert!(read.is_for(&secret, alice));
        assert!(
            Unchecked::parse(&t.to_uppercase())
                .unwrap()
                .is_for(&secret, alice)
        );
        let bob = Reader {
            user_id: 2,
            generation: 0,
        };
        assert!(!read.is_for(&secret, bob));
        let rotated = Reader {
            generation: 1,
            ..alice
        };
        assert!(!read.is_for(&secret, rotated));
        assert!(!read.is_for(&[8u8; 32], alice));
        // Another board with the same MAC, or the message kind: not valid.
        let other = t.replacen("g12", "g13", 1);
        assert!(!Unchecked::parse(&other).unwrap().is_for(&secret, alice));
        let kind = t.replacen('g', "m", 1);
        assert!(!Unchecked::parse(&kind).unwrap().is_for(&secret, alice));
    }

    #[test]
    fn malformed_tokens_are_not_read() {
        for bad in [
            "",
            "g-00",
            "x12-000000000000000000000000",
            "g12-0000",
            "g12-zz0000000000000000000000",
            "g99999999999999999999-000000000000000000000000",
            "g12000000000000000000000000",
        ] {
            assert_eq!(Unchecked::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_bounce_token_names_its_row_and_only_under_its_secret() {
        let secret = [7u8; 32];
        let t = bounce_token(&secret, 42);
        assert!(t.starts_with("b42-") && t.len() == 4 + 24, "{t}");
        assert_eq!(bounce_row(&secret, &t), Some(42));
        assert_eq!(bounce_row(&secret, &t.to_uppercase()), Some(42));
        assert_eq!(bounce_row(&[8u8; 32], &t), None);
        // Another row with this row's MAC, a cut MAC, a reply token: none is read.
        assert_eq!(bounce_row(&secret, &t.replacen("b42", "b43", 1)), None);
        assert_eq!(bounce_row(&secret, &t[..t.len() - 2]), None);
        assert_eq!(bounce_row(&secret, &t.replacen('b', "g", 1)), None);
        assert!(is_bounce_shaped(&t) && is_bounce_shaped("b1-zz") && !is_bounce_shaped("g1-ab"));
        assert!(!is_bounce_shaped("bob") && !is_bounce_shaped("b-1"));
    }

    #[test]
    fn addresses_carry_the_token_after_a_plus() {
        let a = address("pbem@games.example", "g1-ab");
        assert_eq!(a, "pbem+g1-ab@games.example");
        assert_eq!(token_of("pbem@games.example", &a), Some("g1-ab"));
        assert_eq!(
            token_of("pbem@games.example", "<PBEM+g1-ab@Games.Example>"),
            Some("g1-ab")
        );
        assert_eq!(token_of("pbem@games.example", "pbem@games.example"), None);
        assert_eq!(token_of("pbem@games.example", "pbem+@games.example"), None);
        assert_eq!(
            token_of("pbem@games.example", "pbem+g1-ab@other.example"),
            None
        );
        assert_eq!(
            token_of("pbem@games.example", "bob+g1-ab@games.example"),
            None
        );
    }
}
