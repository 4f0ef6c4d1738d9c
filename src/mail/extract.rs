//! Finding the order file in a mail: every text body (HTML-only mails as
//! the parser renders them to text), then text attachments; a signature
//! below `-- ` is cut off.

use mail_parser::MimeHeaders;

/// Texts in a mail that may hold an order file: every text body (HTML-only
/// mails as the parser renders them to text), then text attachments.
pub fn candidates(m: &mail_parser::Message) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for i in 0..m.text_body_count() {
        if let Some(t) = m.body_text(i) {
            let how = if m.text_part(i as u32).is_some_and(|p| p.is_text_html()) {
                "the HTML body"
            } else {
                "the body"
            };
            out.push((how.to_string(), cut_signature(&t)));
        }
    }
    for a in m.attachments() {
        let name = a.attachment_name().unwrap_or("attachment").to_string();
        let texty = a.is_text() || name.ends_with(".toml") || name.ends_with(".txt");
        if texty {
            if let Some(t) = a.text_contents() {
                out.push((format!("attachment {name}"), t.to_string()));
            } else if let Ok(t) = std::str::from_utf8(a.contents()) {
                out.push((format!("attachment {name}"), t.to_string()));
            }
        }
    }
    out
}

/// Everything above a signature line (`-- `), which mail clients add below
/// what the player wrote.
pub fn cut_signature(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']) == "-- " {
            break;
        }
        out.push_str(line);
    }
    out
}

/// Does a text look like an order file at all (rather than a greeting)?
pub fn looks_like_orders(t: &str) -> bool {
    t.contains("----- ORDERS")
        || (t.contains("game") && t.contains("player") && t.contains("orders"))
}
