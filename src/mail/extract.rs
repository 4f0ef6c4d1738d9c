//! Finding the order form in whatever a person wrote around it.
//!
//! One entry point, [`order_text`]: every text in the mail that may hold an
//! order file ([`order_texts`]), the one filled form in them ([`forms`]),
//! or why there is none. The form is the run of lines from its first key
//! (`game = …`) to the `]` that closes `orders`; only those lines are
//! checked, so a greeting above it, a sign-off below it (`Thanks!`,
//! `Cheers`, `Regards`, a name, a signature with or without `-- `, a
//! disclaimer, "Sent from my iPhone"), a quoted report above or below it
//! and forwarded headers are left out, and only what lies inside the form
//! and is wrong is refused. The player's own lines outside the form are
//! handed back ([`Candidate::outside`]) so the acknowledgement can name
//! those that read as orders. What else it undoes or sees through (README,
//! "Running games by mail"):
//!
//! - `format=flowed` plain text (RFC 3676, the default of Thunderbird and
//!   Apple Mail): soft line breaks are joined again (with `DelSp=yes` the
//!   space before the break is dropped), space-stuffing removed, quote
//!   depth kept. A long orders line the program wrapped is whole again.
//! - HTML (Outlook and Gmail compose one `<div>` or `<p>` per line): turned
//!   into text by the `html2text` crate, block elements and `<br>` as line
//!   ends, `&nbsp;` as a space, `<blockquote>` as `> ` lines.
//! - Replies that quote the report (Gmail and Outlook put the reply on top,
//!   Thunderbird may put it below): the player's own lines and the quoted
//!   ones are read apart. Quoted are lines starting with `>`, the line that
//!   introduces them (`On … wrote:`), and everything from an Outlook or
//!   forward header (`-----Original Message-----`, `____` then `From:`, or
//!   `From:` then `Sent:`/`Date:`) down. The player's own text is tried
//!   first; a quoted form is used only if its password was filled in (a
//!   form filled inside the quote). A blank form (empty password) is never
//!   checked against the game, so it never gets "wrong password": the
//!   player is told their form has no password, or that only the quoted
//!   blank form was found.
//! - A phone's typing inside the form: curly quotes (“ ” ‘ ’ „ « ») read as
//!   straight ones, a key's capital (`Game =`) as small; non-breaking
//!   spaces are read as spaces by the order-file reader.
//! - A mail forwarded whole as an attachment (`message/rfc822`,
//!   Thunderbird's "Forward as Attachment"): its texts are tried after the
//!   mail's own, [`MAX_FORWARDS`] deep at most; its headers are not read.
//! - Byte-order marks: a text part or attachment without a charset whose
//!   bytes start with one is read by it (UTF-16, as Notepad's "Unicode"
//!   saves a file, or UTF-8); a UTF-8 mark at a text's start is dropped.
//! - A mail that holds no form but a `press to …` line (press sent where
//!   only orders are read, or below more than a greeting): the refusal
//!   says that line reads as press.
//!
//! A line a mail program hard-wrapped inside an order (no `format=flowed`)
//! is not rejoined: which character the wrap replaced cannot be known. The
//! order-file reader says exactly that (`orders::slips`). Line numbers in
//! errors count lines of the text as read here, from its top.

use crate::orders::{meant_key, FORM_MARKER, KEYS};
use mail_parser::{Encoding, Message, MessagePart, MimeHeaders};

/// HTML larger than this is not rendered (bytes; an Outlook HTML reply that
/// quotes the largest report is about ten times its 15 KB of text).
pub const MAX_HTML: usize = 2 * 1024 * 1024;

/// At most this many texts are looked at in one mail.
pub const MAX_CANDIDATES: usize = 24;

/// How deep mails forwarded as attachments (`message/rfc822`, inside one
/// another) are opened.
pub const MAX_FORWARDS: usize = 3;

/// A text in a mail that may hold an order file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Where it is: "the body", "the HTML body", "the report quoted in the
    /// body", "attachment orders.toml".
    pub place: String,
    /// The text as herald reads it: decoded, unwrapped, the other part's
    /// lines (quoted or own) left empty so line numbers stay those of the
    /// mail's text. Once [`order_text`] has chosen it, only the form's
    /// lines are left ([`Form::text`]).
    pub text: String,
    /// Quoted from an earlier mail, not written by the player.
    pub quoted: bool,
    /// The player's own lines outside the chosen form, for the
    /// acknowledgement: the caller names those that read as orders.
    pub outside: Vec<Outside>,
}

/// A line of the player's own text outside the order form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside {
    /// 1-based, counted as in [`Candidate::text`].
    pub line: usize,
    pub text: String,
    /// Where it stands: "above the form", "below the form", "between the
    /// form's lines".
    pub place: &'static str,
}

/// Every text in the mail that may hold an order file, in the order they
/// are tried: each body (plain text first, then HTML) as the player's own
/// lines and then as the quoted ones, then text attachments, then the
/// texts of a mail forwarded as an attachment (`message/rfc822`, as
/// Thunderbird's "Forward as Attachment" sends it), the same way.
pub fn order_texts(m: &Message) -> Vec<Candidate> {
    let mut out = Vec::new();
    texts_of(m, "", 0, &mut out);
    out.truncate(MAX_CANDIDATES);
    out
}

/// [`order_texts`] of `m`, a mail forwarded `depth` times inside the one
/// received (`within` says where, for the places' names).
///
/// Long (about 85 lines): the bodies, the attachments and the forwarded
/// mails of one mail, in the order they are tried, each named where it is.
fn texts_of(m: &Message, within: &str, depth: usize, out: &mut Vec<Candidate>) {
    let mut bodies: Vec<(&'static str, String)> = Vec::new();
    for i in 0..m.text_body_count() {
        if let Some(p) = m.text_part(i as u32) {
            if let Some(t) = body_text(m, p) {
                let how = if p.is_text_html() {
                    "the HTML body"
                } else {
                    "the body"
                };
                bodies.push((how, t));
            }
        }
    }
    // multipart/alternative: the HTML too, in case the plain part is
    // mangled (it is generated by the mail program, not typed).
    for i in 0..m.html_body_count() {
        if let Some(p) = m.html_part(i as u32).filter(|p| p.is_text_html()) {
            if let Some(t) = body_text(m, p) {
                if !bodies.iter().any(|(_, b)| *b == t) {
                    bodies.push(("the HTML body", t));
                }
            }
        }
    }
    for (how, text) in bodies {
        let (own, quoted) = split_reply(&text);
        if own.trim() != "" {
            out.push(Candidate {
                place: format!("{how}{within}"),
                text: own,
                quoted: false,
                outside: Vec::new(),
            });
        }
        if quoted.trim() != "" {
            out.push(Candidate {
                place: format!("the text quoted in {how}{within}"),
                text: quoted,
                quoted: true,
                outside: Vec::new(),
            });
        }
    }
    let mut forwarded = Vec::new();
    for a in m.attachments() {
        let name = a.attachment_name().unwrap_or("attachment").to_string();
        if let Some(inner) = a.message() {
            forwarded.push((name, inner));
            continue;
        }
        let texty = a.is_text() || name.ends_with(".toml") || name.ends_with(".txt");
        if !texty {
            continue;
        }
        let text = if a.is_text_html() {
            a.text_contents().map(html_text)
        } else {
            attachment_text(m, a)
        };
        if let Some(t) = text {
            out.push(Candidate {
                place: format!("attachment {name}{within}"),
                text: without_bom(&t).replace("\r\n", "\n"),
                quoted: false,
                outside: Vec::new(),
            });
        }
    }
    // The mail forwarded as an attachment: its own texts, after this
    // mail's (a note above a forwarded form is tried first, and has
    // none). Its headers are not read: its From is a claim like any
    // other, and the form's password is what makes the orders a player's.
    if depth < MAX_FORWARDS {
        for (name, inner) in forwarded {
            texts_of(
                inner,
                &format!(" of the forwarded mail ({name}){within}"),
                depth + 1,
                out,
            );
        }
    }
}

/// The text without a byte-order mark at its start (Notepad's "UTF-8"
/// writes one; it is not part of the order file).
fn without_bom(t: &str) -> &str {
    t.strip_prefix('\u{feff}').unwrap_or(t)
}

/// Bytes as text where a byte-order mark says how: UTF-16 (little or big
/// endian, as Notepad's "Unicode" and "Unicode big endian" save a file)
/// or UTF-8, the mark left out; `None` without a mark.
pub fn bom_text(bytes: &[u8]) -> Option<String> {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units: Vec<u16> = rest
            .chunks(2)
            .map(|c| unit([c[0], c.get(1).copied().unwrap_or(0)]))
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => Some(String::from_utf8_lossy(rest).into_owned()),
        [0xFF, 0xFE, rest @ ..] => Some(utf16(rest, u16::from_le_bytes)),
        [0xFE, 0xFF, rest @ ..] => Some(utf16(rest, u16::from_be_bytes)),
        _ => None,
    }
}

/// A part's bytes as they came, before the mail parser made text of them:
/// its transfer encoding (base64, quoted-printable) undone.
fn raw_bytes(m: &Message, p: &MessagePart) -> Option<Vec<u8>> {
    let raw = m
        .raw_message()
        .get(p.offset_body as usize..p.offset_end as usize)?;
    match p.encoding {
        Encoding::Base64 => mail_parser::decoders::base64::base64_decode(raw),
        Encoding::QuotedPrintable => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(raw)
        }
        Encoding::None => Some(raw.to_vec()),
    }
}

/// Does the part say its charset? Without one, the parser reads its bytes
/// as UTF-8, which UTF-16 is not.
fn has_charset(p: &MessagePart) -> bool {
    p.content_type()
        .and_then(|c| c.attribute("charset"))
        .is_some()
}

/// An attachment's text: a byte-order mark read where no charset is
/// given (a file Notepad saved as "Unicode", attached as it is), else the
/// text as the parser read it, else its bytes if they are UTF-8.
fn attachment_text(m: &Message, a: &MessagePart) -> Option<String> {
    if !has_charset(a) || !a.is_text() {
        let bytes = if a.is_text() {
            raw_bytes(m, a)
        } else {
            Some(a.contents().to_vec())
        };
        if let Some(t) = bytes.as_deref().and_then(bom_text) {
            return Some(t);
        }
    }
    a.text_contents()
        .map(str::to_string)
        .or_else(|| std::str::from_utf8(a.contents()).ok().map(str::to_string))
}

/// A body part as [`part_text`] reads it, but UTF-16 with a byte-order
/// mark and no charset read by its mark, and a leading mark left out.
fn body_text(m: &Message, p: &MessagePart) -> Option<String> {
    if !has_charset(p) && !p.is_text_html() {
        if let Some(t) = raw_bytes(m, p).as_deref().and_then(bom_text) {
            return Some(t.replace("\r\n", "\n"));
        }
    }
    part_text(p).map(|t| without_bom(&t).to_string())
}

/// The mail's own text, as its sender wrote it, for requests and press
/// (`host::press`, `host::commands`): its first text body with
/// `format=flowed` soft breaks joined again (RFC 3676), HTML rendered
/// (an HTML-only mail), a byte-order mark read, CR LF as LF.
pub fn body(m: &Message) -> String {
    m.text_part(0)
        .and_then(|p| body_text(m, p))
        .or_else(|| m.body_text(0).map(|b| b.into_owned()))
        .unwrap_or_default()
}

/// The order form to check against the game, or why there is none (a
/// sentence for the reply; the caller names the mail).
///
/// The form is found in whatever the player wrote around it ([`forms`]):
/// its lines, from the first key (`game =`) to the `]` that closes
/// `orders`, are checked; every other line is left out (kept empty, so
/// line numbers stay the text's). A filled form (its password written) in
/// the player's own text wins, then one filled inside a quote; two
/// different filled forms in one text are refused, since herald cannot
/// know which is meant.
// A String error: the refusal the host mails back, its words made here.
pub fn order_text(m: &Message) -> Result<Candidate, String> {
    let texts = order_texts(m);
    let found: Vec<Vec<Form>> = texts.iter().map(|c| forms(&c.text)).collect();
    let pick = |i: usize, f: &Form| {
        let c = &texts[i];
        Candidate {
            place: c.place.clone(),
            text: f.text(&c.text),
            quoted: c.quoted,
            outside: if c.quoted {
                Vec::new()
            } else {
                f.outside(&c.text, &found[i])
            },
        }
    };
    for quoted in [false, true] {
        for (i, c) in texts.iter().enumerate() {
            if c.quoted != quoted {
                continue;
            }
            let filled: Vec<&Form> = found[i].iter().filter(|f| f.filled).collect();
            let Some(first) = filled.first() else {
                continue;
            };
            // `press to …` above a `player` and a `password` line and no
            // orders: a press mail, not a form.
            if let Some((line, words)) = press_line(&c.text)
                .filter(|(line, _)| !quoted && !first.has_orders && *line <= first.first + 1)
            {
                return Err(reads_as_press(line, &words));
            }
            let mine = first.text(&c.text);
            let same = filled[1..]
                .iter()
                .filter(|f| same_form(&f.text(&c.text), &mine))
                .count();
            if same + 1 < filled.len() {
                let at: Vec<String> = filled
                    .iter()
                    .map(|f| format!("line {}", f.first + 1))
                    .collect();
                return Err(format!(
                    "{} holds {} different filled order forms ({}), and herald cannot tell which one you mean: send one form only",
                    c.place,
                    filled.len(),
                    at.join(", ")
                ));
            }
            return Ok(pick(i, first));
        }
    }
    // A form the player wrote without a password line: the reader names
    // what is missing.
    for (i, c) in texts.iter().enumerate() {
        if c.quoted {
            continue;
        }
        if let Some(f) = found[i].iter().find(|f| !f.has_password) {
            return Ok(pick(i, f));
        }
    }
    Err(no_filled_form(&texts, &found))
}

/// Why a mail with no filled form in `texts` (their forms `found`) is not
/// read: a blank form of the player's, only the report's quoted one, a
/// `press …` line, or nothing at all.
fn no_filled_form(texts: &[Candidate], found: &[Vec<Form>]) -> String {
    if texts
        .iter()
        .zip(found)
        .any(|(c, f)| !c.quoted && !f.is_empty())
    {
        return "the order form in this mail has no password (password = \"\"), so nothing was checked: write the password the moderator sent you between the quotes and send it again".into();
    }
    if found.iter().any(|f| !f.is_empty()) {
        return "the only order form in this mail is the blank one quoted from your report (its password is empty), so nothing was checked: fill in your password and orders, above the quoted report or in it, and send it again".into();
    }
    match texts
        .iter()
        .filter(|c| !c.quoted)
        .find_map(|c| press_line(&c.text))
    {
        Some((line, words)) => reads_as_press(line, &words),
        None => NO_FORM.into(),
    }
}

const NO_FORM: &str = "no order form found in this mail (the lines from `game = …` to the `]` that closes `orders`): reply to your report with its form filled in, or attach the order file as text";

/// Why a mail whose line `line` is `words` (`press to all`) is not orders.
fn reads_as_press(line: usize, words: &str) -> String {
    format!(
        "{NO_FORM}. Line {line}, `{words}`, reads as press to other players, not orders, and nothing was relayed: a press mail starts with its `press …` line (a greeting of a line or two above it is left out), and only a game run by `herald host` relays press"
    )
}

/// The first line of a player's own text that starts as press does
/// (`press to …`, `press reply`), if any: its number (1-based) and words
/// (at most 60 characters).
pub fn press_line(text: &str) -> Option<(usize, String)> {
    text.split('\n').enumerate().find_map(|(i, l)| {
        let t = l.trim_matches(blank);
        let mut w = t.split_whitespace();
        let first = w.next()?.to_ascii_lowercase();
        let second = w.next().map(|s| s.to_ascii_lowercase());
        (first == "press" && matches!(second.as_deref(), Some("to" | "reply")))
            .then(|| (i + 1, t.chars().take(60).collect()))
    })
}

/// Two forms the same but for spaces: a form pasted twice is one form.
fn same_form(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Does a text look like an order file at all (rather than a greeting)?
pub fn looks_like_orders(t: &str) -> bool {
    t.contains(FORM_MARKER) || !forms(t).is_empty()
}

/// An order form found in a text: its lines, 0-based and inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    pub first: usize,
    pub last: usize,
    /// Lines between its keys that are not part of it (a player's words
    /// between `password` and `orders`, say): left out like the rest.
    pub gaps: Vec<usize>,
    /// It has a `password` line.
    pub has_password: bool,
    /// Its password is written in (not `""`).
    pub filled: bool,
    /// It has an `orders` key.
    pub has_orders: bool,
}

impl Form {
    /// `text` with only this form's lines kept (the others empty, so line
    /// numbers stay), and in them what phones and word processors change
    /// undone: curly quotes made straight, a key's capital (`Game =`, a
    /// phone's capital at a line's start) made small.
    pub fn text(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        // Lines below the form are not kept at all: line numbers count
        // from the top.
        for (i, line) in text.split('\n').enumerate().take(self.last + 1) {
            if i >= self.first && !self.gaps.contains(&i) {
                out.push_str(&tidy_line(line));
            }
            out.push('\n');
        }
        out
    }

    /// The player's lines outside this form and outside every other form
    /// found (blank forms, a quoted report's): neither blank nor comments.
    fn outside(&self, text: &str, all: &[Form]) -> Vec<Outside> {
        let within = |f: &Form, i: usize| i >= f.first && i <= f.last && !f.gaps.contains(&i);
        text.split('\n')
            .enumerate()
            .filter(|(i, _)| !all.iter().any(|f| within(f, *i)))
            .filter(|(_, l)| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with('#')
            })
            .take(MAX_OUTSIDE)
            .map(|(i, l)| Outside {
                line: i + 1,
                text: l.trim().to_string(),
                place: if i > self.last {
                    "below the form"
                } else if i < self.first {
                    "above the form"
                } else {
                    "between the form's lines"
                },
            })
            .collect()
    }
}

/// At most this many lines of words between two keys of one form.
pub const MAX_GAP: usize = 3;

/// At most this many lines outside the form are looked at (a whole report
/// pasted unquoted below the form has about 300).
pub const MAX_OUTSIDE: usize = 400;

/// Curly quotes as straight ones, an order-file key's capitals as small
/// letters; nothing else changed.
fn tidy_line(line: &str) -> String {
    let mut s: String = line
        .chars()
        .map(|c| match c {
            c if dquote(c) => '"',
            c if squote(c) => '\'',
            c => c,
        })
        .collect();
    let lead = s.len() - s.trim_start().len();
    let word_end = s[lead..]
        .find(|c: char| !c.is_ascii_alphabetic())
        .map_or(s.len(), |e| lead + e);
    let word = s[lead..word_end].to_ascii_lowercase();
    if KEYS.contains(&word.as_str()) && s[word_end..].trim_start().starts_with(['=', ':']) {
        s.replace_range(lead..word_end, &word);
    }
    s
}

/// Double quotes as mail programs write them: any of these ends a string
/// any of them opened (a phone's “…”, a German „…“).
fn dquote(c: char) -> bool {
    matches!(
        c,
        '"' | '“' | '”' | '„' | '‟' | '″' | '〝' | '〞' | '＂' | '«' | '»'
    )
}

/// Single quotes likewise.
fn squote(c: char) -> bool {
    matches!(c, '\'' | '‘' | '’' | '‚' | '‛')
}

/// The key a line starts with (`game = …`, `Orders = [`, `password: "…"`,
/// `pasword = …`), if it is an order-file line at all: a key (or a word
/// plainly meant as one) then `=`; or one of the five keys then `:` and a
/// value (so a heading such as `Orders:` is prose).
fn key_line(line: &str) -> Option<&'static str> {
    let t = line.trim_start_matches(blank);
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '"' | '\'')))
        .unwrap_or(t.len());
    let (word, rest) = t.split_at(end);
    if word.is_empty() || word.len() > 20 {
        return None;
    }
    let rest = rest.trim_start_matches(blank);
    let lower = word.to_lowercase();
    let exact = KEYS.iter().copied().find(|k| *k == lower);
    if rest.starts_with('=') {
        return exact.or_else(|| meant_key(word));
    }
    let value = rest.strip_prefix(':')?.trim_start();
    let valued =
        value.starts_with(|c: char| c == '[' || dquote(c) || squote(c) || c.is_ascii_digit());
    exact.filter(|_| valued)
}

/// Spaces as mail programs write them: non-breaking, narrow and zero-width
/// ones, a byte-order mark (iOS puts one before quoted text).
fn blank(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{a0}' | '\u{2000}'
            ..='\u{200d}' | '\u{202f}' | '\u{205f}' | '\u{2060}' | '\u{3000}' | '\u{feff}'
    )
}

/// Where the value of the key on line `at` ends: the line of the `]` that
/// closes a list (a `]` after a quote, a comma, the `[` or at a line's
/// start; quoted text and comments skipped), or of the quotes that close a
/// multi-line string; else `at`. A list never closed ends at its last line
/// that starts with a quote, before the next key.
///
/// Long (about 80 lines): one scanner over the lines of a value, its states (a
/// list, a string a line ended in, a comment) sharing the place in the text.
fn value_end(lines: &[&str], at: usize) -> usize {
    let line = lines[at];
    let Some(eq) = line.find(['=', ':']) else {
        return at;
    };
    let value = line[eq + 1..].trim_start_matches(blank);
    for delim in ["\"\"\"", "'''"] {
        if let Some(rest) = value.strip_prefix(delim) {
            if rest.contains(delim) {
                return at;
            }
            return (at + 1..lines.len())
                .find(|&j| lines[j].contains(delim))
                .unwrap_or(at);
        }
    }
    let Some(open) = value.strip_prefix('[') else {
        return at;
    };
    let mut last_quoted = at;
    let mut j = at;
    let mut text = open;
    // Inside a string a line ended in (`Some(single)`): a mail program
    // wrapped the order there, and the next line goes on inside it.
    let mut open_string: Option<bool> = None;
    loop {
        // The next key ends the list (even in a string left open, so a
        // text of unclosed lists is read in linear time).
        if j > at && key_line(text).is_some() {
            break;
        }
        if j > at
            && open_string.is_none()
            && text
                .trim_start()
                .starts_with(|c: char| dquote(c) || squote(c))
        {
            last_quoted = j;
        }
        // One line: strings, comments, brackets.
        let mut chars = text.chars();
        let mut prev = if j == at { '[' } else { '\n' };
        loop {
            if let Some(single) = open_string {
                let mut escaped = false;
                let mut closed = false;
                for d in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' && !single {
                        escaped = true;
                    } else if (single && squote(d)) || (!single && dquote(d)) {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    break;
                }
                open_string = None;
                prev = '"';
            }
            let Some(c) = chars.next() else { break };
            if dquote(c) || squote(c) {
                open_string = Some(squote(c));
                continue;
            }
            match c {
                '#' => break,
                ']' if matches!(prev, '"' | ',' | '[' | '\n') => return j,
                c if c.is_whitespace() => {}
                c => prev = c,
            }
        }
        j += 1;
        if j >= lines.len() {
            break;
        }
        text = lines[j];
    }
    last_quoted
}

/// Every order form in a text: a run of lines starting at a key line,
/// through key lines (each with its value, a list running to its `]`),
/// blank lines and comments, up to the first other line or a key given a
/// second time (the next form). A few lines of words between two keys of
/// one form (at most [`MAX_GAP`], the next key not given yet) are a gap,
/// not its end. A run counts if it has `orders` or two keys: one stray
/// `name = …` in a signature is not a form.
pub fn forms(text: &str) -> Vec<Form> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if key_line(lines[i]).is_none() {
            i += 1;
            continue;
        }
        let first = i;
        let mut keys: Vec<&str> = Vec::new();
        let mut last = i;
        let mut password: Option<usize> = None;
        let mut gaps = Vec::new();
        let mut j = i;
        while j < lines.len() {
            if let Some(k) = key_line(lines[j]) {
                if keys.contains(&k) {
                    break;
                }
                keys.push(k);
                if k == "password" {
                    password = Some(j);
                }
                last = value_end(&lines, j).max(j);
                j = last + 1;
                continue;
            }
            let t = lines[j].trim();
            if t.is_empty() || t.starts_with('#') {
                j += 1;
                continue;
            }
            // Words between two keys of the form: the next key, if it
            // comes soon and is one not given yet, goes on with it.
            let mut words = Vec::new();
            let mut k = j;
            while k < lines.len()
                && k < j + 4 * (MAX_GAP + 1)
                && words.len() <= MAX_GAP
                && key_line(lines[k]).is_none()
            {
                if !lines[k].trim().is_empty() {
                    words.push(k);
                }
                k += 1;
            }
            match lines.get(k).and_then(|l| key_line(l)) {
                Some(next) if words.len() <= MAX_GAP && !keys.contains(&next) => {
                    gaps.extend(words);
                    j = k;
                }
                _ => break,
            }
        }
        gaps.retain(|&g| g < last);
        if keys.contains(&"orders") || keys.len() >= 2 {
            out.push(Form {
                first,
                last,
                gaps,
                has_password: password.is_some(),
                filled: password.is_some_and(|p| password_written(lines[p])),
                has_orders: keys.contains(&"orders"),
            });
            i = last + 1;
        } else {
            i = first + 1;
        }
    }
    out
}

/// Is the password on this line written in (`password = "k7ud-…"`, or
/// unquoted), not left `""`?
fn password_written(line: &str) -> bool {
    let Some(eq) = line.find(['=', ':']) else {
        return false;
    };
    let v = line[eq + 1..].trim();
    let v = match v.chars().next() {
        Some(q) if dquote(q) || squote(q) => v[q.len_utf8()..]
            .split(|c: char| dquote(c) || squote(c))
            .next()
            .unwrap_or(""),
        _ => v.split('#').next().unwrap_or(""),
    };
    !v.trim().is_empty()
}

/// A body part as text: `format=flowed` undone, HTML rendered, CR LF as LF.
pub fn part_text(p: &MessagePart) -> Option<String> {
    let raw = p.text_contents()?;
    if p.is_text_html() {
        return Some(html_text(raw));
    }
    let ct = p.content_type();
    let attr = |name: &str| {
        ct.and_then(|c| c.attribute(name)).is_some_and(|v| {
            v.eq_ignore_ascii_case(if name == "format" { "flowed" } else { "yes" })
        })
    };
    let text = raw.replace("\r\n", "\n");
    Some(if attr("format") {
        unflow(&text, attr("delsp"))
    } else {
        text
    })
}

/// Undo RFC 3676 `format=flowed`: a line ending in a space continues on the
/// next line of the same quote depth (with `delsp`, that space is not part
/// of the text); a leading space is stuffing; `-- ` is never flowed. Quoted
/// lines come out as `> ` (one `>` per level and a space).
pub fn unflow(text: &str, delsp: bool) -> String {
    fn emit(out: &mut String, depth: usize, s: &str) {
        for _ in 0..depth {
            out.push('>');
        }
        if depth > 0 {
            out.push(' ');
        }
        out.push_str(s);
        out.push('\n');
    }
    let mut out = String::with_capacity(text.len());
    let mut cur: Option<(usize, String)> = None;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let mut content = &line[depth..];
        if let Some(c) = content.strip_prefix(' ') {
            content = c;
        }
        let soft = content.ends_with(' ') && content != "-- ";
        let piece = if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        };
        let (depth_now, mut buf) = match cur.take() {
            Some((d, buf)) if d == depth => (d, buf),
            Some((d, buf)) => {
                emit(&mut out, d, &buf);
                (depth, String::new())
            }
            None => (depth, String::new()),
        };
        buf.push_str(piece);
        if soft {
            cur = Some((depth_now, buf));
        } else {
            emit(&mut out, depth_now, &buf);
        }
    }
    if let Some((d, buf)) = cur {
        emit(&mut out, d, &buf);
    }
    out
}

/// HTML as text with its line structure: block elements and `<br>` end
/// lines, `&nbsp;` is a space, a `<blockquote>` is quoted with `> `. No
/// wrapping. HTML beyond [`MAX_HTML`] is not rendered.
pub fn html_text(html: &str) -> String {
    if html.len() > MAX_HTML {
        return String::new();
    }
    let text = html2text::config::plain_no_decorate()
        .allow_width_overflow()
        .no_table_borders()
        .string_from_read(html.as_bytes(), 10_000)
        .unwrap_or_default();
    // A no-break space is a space; a line of nothing else (Outlook's empty
    // paragraph, `<p><o:p>&nbsp;</o:p></p>`) is empty, and the one such a
    // space leaves before a paragraph's text is no part of it.
    text.lines()
        .map(|l| l.trim_end_matches([' ', '\u{a0}']).replace('\u{a0}', " "))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Lines phones and webmail add below what the player wrote.
const SENT_FROM: [&str; 8] = [
    "Sent from my ",
    "Sent from Mail for Windows",
    "Sent from Outlook",
    "Sent from Yahoo Mail",
    "Get Outlook for ",
    "Sent with Proton Mail",
    "Envoyé de mon ",
    "Von meinem ",
];

/// Does a reply's quoted part start at line `i` (an Outlook header: the
/// original follows unquoted)?
fn outlook_header(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    let near = |from: usize, n: usize, what: &[&str]| {
        lines[from..(from + n).min(lines.len())]
            .iter()
            .any(|l| what.iter().any(|w| l.trim_start().starts_with(w)))
    };
    let lower = t.to_ascii_lowercase();
    (lower.contains("original message") && t.starts_with("---"))
        || (lower.contains("forwarded message") && t.starts_with("---"))
        || lower == "begin forwarded message:"
        || (t.len() >= 8
            && t.chars().all(|c| c == '_' || c == '─' || c == '-')
            && near(i + 1, 3, &["From:"]))
        || (t.starts_with("From:") && near(i + 1, 3, &["Sent:", "Date:"]))
}

/// Is line `i` the line that introduces a quote (`On … wrote:`), or the
/// first half of one a program wrapped?
fn attribution(lines: &[&str], i: usize) -> bool {
    let ends = |l: &str| {
        let l = l.trim_end();
        ["wrote:", "a écrit :", "a écrit:", "schrieb:", "escribió:"]
            .iter()
            .any(|w| l.ends_with(w))
    };
    let t = lines[i].trim();
    ends(t)
        || ((t.starts_with("On ") || t.starts_with("Le ") || t.starts_with("Am "))
            && lines
                .get(i + 1)
                .is_some_and(|n| ends(n) && !n.trim_start().starts_with('>')))
}

/// A body split into the player's own lines and the quoted ones, each a
/// whole text with the other's lines left empty (so line numbers are the
/// body's). The quoted text is unquoted one level.
pub fn split_reply(text: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let from = (0..lines.len())
        .find(|&i| !lines[i].trim_start().starts_with('>') && outlook_header(&lines, i))
        .unwrap_or(lines.len());
    let mut quoted: Vec<bool> = (0..lines.len())
        .map(|i| i >= from || lines[i].trim_start().starts_with('>'))
        .collect();
    let mut i = 0;
    while i < from {
        if !quoted[i] && attribution(&lines, i) {
            quoted[i] = true;
            if !lines[i].trim_end().ends_with(':') && i + 1 < from {
                quoted[i + 1] = true;
                i += 1;
            }
        }
        i += 1;
    }
    // The player's signature and what phones add: not part of the form.
    let mut own_end = from;
    if let Some(sig) = (0..from).find(|&i| !quoted[i] && lines[i].trim_end() == "--") {
        // "-- " after trailing spaces were trimmed by a program
        own_end = sig;
    }
    if let Some(sig) = (0..from).find(|&i| !quoted[i] && lines[i] == "-- ") {
        own_end = own_end.min(sig);
    }
    let mut own_lines: Vec<&str> = (0..lines.len())
        .map(|i| {
            if quoted[i] || i >= own_end {
                ""
            } else {
                lines[i]
            }
        })
        .collect();
    while let Some(k) = own_lines.iter().rposition(|l| !l.trim().is_empty()) {
        // HTML links come out of html2text in brackets: "Get [Outlook for iOS]".
        let line: String = own_lines[k].trim_start().replace(['[', ']'], "");
        if SENT_FROM.iter().any(|s| line.starts_with(s)) {
            own_lines[k] = "";
        } else {
            break;
        }
    }
    let unquote = |l: &str| -> String {
        let t = l.trim_start();
        match t.strip_prefix('>') {
            Some(r) => r.strip_prefix(' ').unwrap_or(r).to_string(),
            None => l.to_string(),
        }
    };
    let quoted_lines: Vec<String> = (0..lines.len())
        .map(|i| {
            if !quoted[i] || attribution(&lines, i) && !lines[i].trim_start().starts_with('>') {
                String::new()
            } else {
                unquote(lines[i])
            }
        })
        .collect();
    (
        join(own_lines.iter().copied()),
        join(quoted_lines.iter().map(String::as_str)),
    )
}

/// Lines joined with `\n`, the empty ones at the end dropped.
fn join<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut s = String::new();
    let mut pending = 0usize;
    for l in lines {
        if l.trim().is_empty() {
            pending += 1;
            continue;
        }
        for _ in 0..pending {
            s.push('\n');
        }
        pending = 0;
        s.push_str(l);
        s.push('\n');
    }
    s
}
