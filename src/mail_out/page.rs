//! The HTML part of a board mail (issue 25, section 3), written for a phone first: the news and the
//! line to send come before the picture, the text wraps to the screen (no `<pre>` wider than it),
//! the picture is drawn at [`crate::picture::SCALE`] times its size and shown at its size with a
//! caption, and the ASCII board is not repeated (the picture is the board).

use serde::{Deserialize, Serialize};

use crate::html::escape as esc;

/// What the HTML part of a board mail shows besides the picture, in the order it shows it. The
/// text part carries the same words; this keeps them apart so that the HTML can put each first.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardPage {
    /// The state line the text part begins with under a game's one Subject (`Hex Board 101: your
    /// move`), empty when the Subject says it (`subject state`). Absent from mails queued before
    /// it was added.
    #[serde(default)]
    pub headline: String,
    /// What happened, for this reader (prose, wrapped at 72 columns in the text part).
    pub news: String,
    /// The reader's line(s) to send with the words around them (lines indented by four spaces are
    /// the lines to send); empty when it is not the reader's move.
    pub send: String,
    /// The picture's caption: the game, the board, the move number and the players.
    pub caption: String,
    /// The rest of the text part, without the ASCII board: status, move list, players, comments,
    /// times.
    pub details: String,
}

/// The style of the page: wrapping text, commands that break anywhere rather than run off a 390 px
/// screen, and a picture no wider than the screen.
const STYLE: &str = "body{font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;\
font-size:16px;line-height:1.4;margin:8px;color:#111;max-width:720px}\
code,.mono{font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px}\
.send code{display:block;background:#f2f2ea;padding:6px 8px;white-space:pre-wrap;\
overflow-wrap:anywhere}\
.mono{white-space:pre-wrap;overflow-wrap:anywhere;margin:1em 0}\
figure{margin:12px 0}img{max-width:100%;height:auto}\
figcaption{font-size:14px;color:#444}";

impl BoardPage {
    /// The page as an HTML document: news, the line to send, the picture (`cid:` of the inline PNG,
    /// shown at `width` x `height` CSS pixels) and its caption, then the details.
    pub fn html(&self, title: &str, cid: &str, width: u32, height: u32) -> String {
        let mut out = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title><style>{STYLE}</style></head>\n<body>\n",
            esc(title)
        );
        if !self.headline.trim().is_empty() {
            out.push_str(&format!(
                "<p class=\"state\"><strong>{}</strong></p>\n",
                esc(self.headline.trim())
            ));
        }
        if !self.news.trim().is_empty() {
            out.push_str("<div class=\"news\">\n");
            out.push_str(&prose(&self.news));
            out.push_str("</div>\n");
        }
        if !self.send.trim().is_empty() {
            out.push_str("<div class=\"send\">\n");
            out.push_str(&prose(&self.send));
            out.push_str("</div>\n");
        }
        out.push_str(&format!(
            "<figure><img src=\"cid:{cid}\" width=\"{width}\" height=\"{height}\" alt=\"{}\">\
             <figcaption>{}</figcaption></figure>\n",
            esc(&format!("The board: {}", self.caption)),
            esc(&self.caption)
        ));
        out.push_str("<div class=\"details\">\n");
        out.push_str(&lines(&self.details));
        out.push_str("</div>\n</body></html>\n");
        out
    }
}

/// Text as paragraphs that wrap: the lines of a paragraph joined (the text part wraps them at 72
/// columns, a phone at its own width), a line indented by four spaces kept whole as code.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for para in paragraphs(text) {
        let mut words: Vec<&str> = Vec::new();
        let flush = |words: &mut Vec<&str>, out: &mut String| {
            if !words.is_empty() {
                out.push_str(&format!("<p>{}</p>\n", esc(&words.join(" "))));
                words.clear();
            }
        };
        for line in para {
            if let Some(code) = line.strip_prefix("    ") {
                flush(&mut words, &mut out);
                out.push_str(&format!("<p><code>{}</code></p>\n", esc(code.trim())));
            } else {
                words.push(line.trim());
            }
        }
        flush(&mut words, &mut out);
    }
    out
}

/// Text whose line breaks mean something (a status, a list): one paragraph a block, the lines kept;
/// indented lines (the move list) in a monospace block that still wraps.
fn lines(text: &str) -> String {
    let mut out = String::new();
    for para in paragraphs(text) {
        let mono = para.iter().any(|l| l.starts_with("  "));
        let body: Vec<String> = para.iter().map(|l| esc(l.trim_end())).collect();
        if mono {
            out.push_str(&format!("<div class=\"mono\">{}</div>\n", body.join("\n")));
        } else {
            out.push_str(&format!("<p>{}</p>\n", body.join("<br>\n")));
        }
    }
    out
}

/// The blocks of a text between empty lines, each as its lines.
fn paragraphs(text: &str) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    for line in text.lines() {
        if line.trim().is_empty() {
            if out.last().is_some_and(|p| !p.is_empty()) {
                out.push(Vec::new());
            }
        } else if let Some(last) = out.last_mut() {
            last.push(line);
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> BoardPage {
        BoardPage {
            headline: "Limit Board 101: your move".into(),
            news: "bob played 2-19,59.\nRed (alice) to move.\n".into(),
            send: "It is your move, alice. Send this line as the Subject (or alone on a\n\
                   line of a reply):\n\n    limit move 101 alice <password> 3-7,4#5\n\n\
                   (3-7,4 is one legal move here.)\n"
                .into(),
            caption: "Limit Board 101, move 5: Red (alice), Blue (bob)".into(),
            details: "Summary of Limit Board 101\n\nMoves:\n    1. Red (alice)  3-7,4\n\n\
                      Players:\n  Red (alice)\n"
                .into(),
        }
    }

    #[test]
    fn news_and_the_line_to_send_come_before_the_picture() {
        let html = page().html("Limit Board 101", "board@pbem", 340, 400);
        let at = |s: &str| {
            html.find(s)
                .unwrap_or_else(|| panic!("{s} missing: {html}"))
        };
        assert!(at("<strong>Limit Board 101: your move</strong>") < at("bob played 2-19,59."));
        assert!(at("bob played 2-19,59.") < at("<code>limit move 101 alice"));
        assert!(at("<code>limit move 101 alice") < at("<img src=\"cid:board@pbem\""));
        assert!(at("<img") < at("<figcaption>Limit Board 101, move 5: Red (alice)"));
        assert!(at("<figcaption>") < at("Summary of Limit Board 101"));
        assert!(html.contains("width=\"340\" height=\"400\""), "{html}");
        // The explanation is one paragraph that the screen wraps, not the text part's 72 columns.
        assert!(
            html.contains("Send this line as the Subject (or alone on a line of a reply):"),
            "{html}"
        );
        assert!(!html.contains("<pre"), "{html}");
        assert!(html.contains("name=\"viewport\""), "{html}");
    }

    #[test]
    fn player_text_is_escaped_everywhere() {
        let p = BoardPage {
            headline: "<u>".into(),
            news: "<b>x</b>".into(),
            send: "    <i>y</i>".into(),
            caption: "a&b".into(),
            details: "  <script>".into(),
        };
        let html = p.html("<t>", "c", 1, 1);
        for raw in ["<u>", "<b>", "<i>", "<script>", "a&b", "<t>"] {
            assert!(!html.contains(raw), "{raw} unescaped: {html}");
        }
    }
}
