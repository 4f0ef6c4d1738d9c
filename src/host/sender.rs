//! Who sent a mail, as far as the host can tell (docs/host.md, "A From
//! header is a claim"). The From header is whatever the sender typed: a
//! claim. The host believes more only where its own receiving server
//! vouches for it: an `Authentication-Results` field (RFC 8601) written
//! by that server, naming one of the authserv-ids of host.toml's
//! `authserv_ids`, that says `dmarc=pass` for the From's domain, or
//! `dkim=pass` with a signing domain aligned with it.
//!
//! Only the **topmost** `Authentication-Results` field is read. A server
//! adds its field at the top of the header (RFC 8601, section 4), above
//! everything the sender wrote, and must remove fields that carry its own
//! authserv-id from incoming mail (section 5); a sender can write fake
//! fields, but only below the server's. A fake one written right under
//! it cannot be told from a second field of the same server by position,
//! so the one field is all that is believed: a server that writes its
//! checks into several fields (one per checker) is believed for the
//! topmost, which is the last checker's (DMARC's, in the usual order).
//!
//! Parsing is linear in the header's size and reads at most [`MAX_FIELDS`]
//! fields and [`MAX_HEADER`] bytes.

/// The header fields read at most, looking for the topmost field.
pub const MAX_FIELDS: usize = 500;
/// The header bytes read at most.
pub const MAX_HEADER: usize = 256 * 1024;

/// How far the host believes a mail's From.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// Only the header says so: anyone can write it.
    Claimed,
    /// The host's own server vouches for the From's domain.
    Vouched {
        /// The authserv-id of the field that vouched.
        authserv_id: String,
        /// `dmarc` or `dkim`.
        method: String,
    },
}

/// A mail's sender: its From address and how far it is believed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sender {
    /// The From address ("" when the mail names none).
    pub address: String,
    pub proof: Proof,
}

impl Sender {
    /// A sender whose From is only claimed.
    pub fn claimed(address: &str) -> Sender {
        Sender {
            address: address.to_string(),
            proof: Proof::Claimed,
        }
    }

    /// The sender of the mail `raw` whose From is `from` (one address; ""
    /// for none), believed where the topmost `Authentication-Results`
    /// field names one of `trusted` (the authserv-ids of host.toml) and
    /// says the From's domain passed DMARC or aligned DKIM.
    pub fn of(raw: &[u8], from: &str, trusted: &[String]) -> Sender {
        let proof = match (trusted.is_empty(), domain_of(from)) {
            (false, Some(domain)) => topmost_results(raw)
                .and_then(|v| vouches(&v, &domain, trusted))
                .unwrap_or(Proof::Claimed),
            _ => Proof::Claimed,
        };
        Sender {
            address: from.to_string(),
            proof,
        }
    }

    pub fn vouched(&self) -> bool {
        matches!(self.proof, Proof::Vouched { .. })
    }
}

/// The lowercased domain of an address, if it has one.
fn domain_of(address: &str) -> Option<String> {
    let (local, domain) = address.trim().rsplit_once('@')?;
    (!local.is_empty() && !domain.is_empty() && !domain.contains(char::is_whitespace))
        .then(|| domain.trim_end_matches('.').to_ascii_lowercase())
}

/// The value of the first `Authentication-Results` field of the header
/// of `raw`, unfolded; `None` when there is none among the first
/// [`MAX_FIELDS`] fields.
pub fn topmost_results(raw: &[u8]) -> Option<String> {
    let raw = &raw[..raw.len().min(MAX_HEADER)];
    let mut fields = 0;
    let mut current: Option<Vec<u8>> = None;
    for line in raw.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let folded = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        if folded {
            if let Some(c) = current.as_mut() {
                c.push(b' ');
                c.extend_from_slice(line);
            }
            continue;
        }
        // A new field (or the header's end): the one before is whole.
        if let Some(c) = current.take() {
            return Some(String::from_utf8_lossy(&c).into_owned());
        }
        if line.is_empty() {
            return None;
        }
        fields += 1;
        if fields > MAX_FIELDS {
            return None;
        }
        let Some(colon) = line.iter().position(|b| *b == b':') else {
            continue;
        };
        if line[..colon]
            .trim_ascii()
            .eq_ignore_ascii_case(b"authentication-results")
        {
            current = Some(line[colon + 1..].to_vec());
        }
    }
    current.map(|c| String::from_utf8_lossy(&c).into_owned())
}

/// The field's value without its comments (nested parentheses), quoted
/// strings kept whole: one pass.
fn uncommented(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for c in v.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' if quoted || depth > 0 => {
                escaped = true;
                if depth == 0 {
                    out.push(c);
                }
            }
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Split on `sep` outside quoted strings.
fn split_outside_quotes(s: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in s.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == sep && !quoted {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

/// One result of a field: `method=result` and its `ptype.property=value`s,
/// lowercased (values unquoted).
#[derive(Debug, Default)]
struct ResultInfo {
    method: String,
    result: String,
    props: Vec<(String, String)>,
}

/// The authserv-id and the results of a field's value.
fn parse(value: &str) -> Option<(String, Vec<ResultInfo>)> {
    let v = uncommented(value);
    let mut parts = split_outside_quotes(&v, ';').into_iter();
    let id = parts
        .next()?
        .split_whitespace()
        .next()?
        .trim_matches('"')
        .to_ascii_lowercase();
    let mut results = Vec::new();
    for part in parts {
        // `dkim = pass header.d = example.org`: the blanks around `=`,
        // `.` and `/` taken out, then one word a token.
        let mut tight = String::with_capacity(part.len());
        for w in split_outside_quotes(part.trim(), ' ') {
            let w = w.trim();
            if w.is_empty() {
                continue;
            }
            let joins = |c: char| matches!(c, '=' | '.' | '/');
            if !tight.is_empty() && !tight.ends_with(joins) && !w.starts_with(joins) {
                tight.push(' ');
            }
            tight.push_str(w);
        }
        let mut words = tight.split(' ');
        let Some((method, result)) = words.next().and_then(|m| m.split_once('=')) else {
            continue;
        };
        let method = method.split('/').next().unwrap_or("").to_ascii_lowercase();
        let mut info = ResultInfo {
            method,
            result: result.trim_matches('"').to_ascii_lowercase(),
            props: Vec::new(),
        };
        for w in words {
            if let Some((k, val)) = w.split_once('=') {
                info.props
                    .push((k.to_ascii_lowercase(), val.trim_matches('"').to_string()));
            }
        }
        results.push(info);
    }
    Some((id, results))
}

/// Does the field `value` vouch for `domain`: its authserv-id one of
/// `trusted`, with `dmarc=pass` for that very From domain
/// (`header.from`), or `dkim=pass` signed by it or a parent of it
/// (relaxed alignment; a parent of at least two labels)?
fn vouches(value: &str, domain: &str, trusted: &[String]) -> Option<Proof> {
    let (id, results) = parse(value)?;
    if !trusted.iter().any(|t| t.eq_ignore_ascii_case(&id)) {
        return None;
    }
    let prop = |r: &ResultInfo, k: &str| {
        r.props
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.trim_end_matches('.').to_ascii_lowercase())
    };
    let aligned = |d: &str| {
        let d = d.trim_start_matches('@');
        d.contains('.') && (domain == d || domain.ends_with(&format!(".{d}")))
    };
    for r in &results {
        if r.result != "pass" {
            continue;
        }
        let ok = match r.method.as_str() {
            "dmarc" => prop(r, "header.from").is_some_and(|d| d == domain),
            "dkim" => prop(r, "header.d")
                .or_else(|| prop(r, "header.i").map(|i| i.rsplit('@').next().unwrap_or("").into()))
                .is_some_and(|d| aligned(&d)),
            _ => false,
        };
        if ok {
            return Some(Proof::Vouched {
                authserv_id: id,
                method: r.method.clone(),
            });
        }
    }
    None
}
