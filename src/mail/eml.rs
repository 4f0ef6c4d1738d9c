//! `.eml` messages (RFC 5322 with MIME) built with the mail-builder crate.
//! Every header herald can fix is fixed — Message-ID, Date, boundaries — so
//! the same game gives the same bytes.

use crate::chain::canon::sha256_hex;
use mail_builder::headers::content_type::ContentType;
use mail_builder::headers::date::Date;
use mail_builder::mime::{BodyPart, MimePart};
use mail_builder::MessageBuilder;

/// The From of herald's mails when the game names no moderator.
pub const NO_MODERATOR: &str = "herald@localhost";

pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

pub struct Mail {
    pub from: String,
    pub to: String,
    pub subject: String,
    /// RFC 3339.
    pub date: String,
    /// Without angle brackets.
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub text: String,
    pub attachments: Vec<Attachment>,
}

/// A message id made from things herald knows, e.g. the game id, turn and
/// player: `herald.<hash>@<game id>.herald`.
pub fn message_id(game_id: &str, parts: &[&str]) -> String {
    let h = sha256_hex(parts.join("\0").as_bytes());
    format!("herald.{}@{game_id}.herald", &h[..24])
}

/// The outbox's name for a mail: a digest of its Message-ID, so the same
/// mail queued twice is one file.
pub fn digest(message_id: &str) -> String {
    sha256_hex(message_id.as_bytes())[..32].to_string()
}

/// A text attachment's bytes as text: checked as UTF-8 at memory speed
/// (a report's page and board are ~150 KB a mail; `from_utf8_lossy` walks
/// them at a tenth of that), anything else replaced as it replaces it.
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

pub fn build(m: &Mail) -> Vec<u8> {
    let stamp = chrono::DateTime::parse_from_rfc3339(&m.date)
        .map(|t| t.timestamp())
        .unwrap_or(0);
    let boundary = format!("herald-{}", &sha256_hex(m.message_id.as_bytes())[..24]);
    let mut b = MessageBuilder::new()
        .from(m.from.as_str())
        .to(m.to.as_str())
        .subject(m.subject.as_str())
        .date(Date::new(stamp))
        .message_id(m.message_id.as_str());
    if let Some(r) = &m.in_reply_to {
        b = b.in_reply_to(r.as_str()).references(r.as_str());
    }
    let text = MimePart::new(
        ContentType::new("text/plain").attribute("charset", "utf-8"),
        BodyPart::Text(m.text.replace("\r\n", "\n").into()),
    );
    let b = if m.attachments.is_empty() {
        b.body(text)
    } else {
        let mut parts = vec![text];
        for a in &m.attachments {
            let part = if a.mime.starts_with("text/")
                || a.mime.ends_with("json")
                || a.mime.ends_with("xml")
            {
                MimePart::new(
                    ContentType::new(a.mime.as_str()).attribute("charset", "utf-8"),
                    BodyPart::Text(text_of(&a.bytes).into()),
                )
            } else {
                MimePart::new(
                    ContentType::new(a.mime.as_str()),
                    BodyPart::Binary(a.bytes.clone().into()),
                )
            };
            parts.push(part.attachment(a.name.clone()));
        }
        b.body(MimePart::new(
            ContentType::new("multipart/mixed").attribute("boundary", boundary),
            BodyPart::Multipart(parts),
        ))
    };
    b.write_to_vec().expect("writing to memory does not fail")
}
