//! A game file as lines: the sealed head record, then one line per log
//! entry (docs/trust.md gives the exact bytes).
//!
//! ```text
//! {"head":<head record>,"seal":"<signature>"}
//! {"body":<entry body>,"hash":"<hash>","prev":"<previous hash>","sig":"<signature>"}
//! …
//! ```
//!
//! An entry's hash is `sha256("herald/2\n" ‖ prev ‖ "\n" ‖ body ‖ "\n")`
//! over the body's bytes exactly as they stand in the line, `prev` being
//! the previous entry's hash (64 zeros for the first, the genesis entry).
//! Its signature is the moderator's over the hash; the seal is the
//! moderator's signature over the sha256 of the head record's bytes.
//! Checking the whole chain is hashing the file's bytes once: no JSON is
//! re-serialised.

use super::body::{Body, Genesis, Redacted};
use super::canon::{canonical, is_digest, sha256_hex, sha256_lines};
use super::head::Head;
use super::keys::{Domain, PublicKey, Signer};

/// `prev` of the genesis entry.
pub const ZERO: &str = "0000000000000000000000000000000000000000000000000000000000000000";

const BODY_OPEN: &str = "{\"body\":";
const HEAD_OPEN: &str = "{\"head\":";
/// `,"hash":"` 64 `","prev":"` 64 `","sig":"` 128 `"}`
const ENTRY_TAIL: usize = 9 + 64 + 10 + 64 + 9 + 128 + 2;
/// `,"seal":"` 128 `"}`
const HEAD_TAIL: usize = 9 + 128 + 2;

/// One log entry as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryLine {
    /// The body's canonical JSON, exactly as in the line.
    pub body: String,
    pub prev: String,
    pub hash: String,
    pub sig: String,
}

pub fn entry_hash(prev: &str, body: &str) -> String {
    sha256_lines(&[b"herald/2", prev.as_bytes(), body.as_bytes()])
}

fn is_sig(s: &str) -> bool {
    s.len() == 128
        && s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

impl EntryLine {
    /// A new entry after `prev`, signed.
    pub fn new(body: &Body, prev: &str, signer: &Signer) -> EntryLine {
        EntryLine::of_text(canonical(body), prev, signer)
    }

    /// An entry of a body's canonical JSON as it stands (its bytes kept),
    /// after `prev`, signed: how `convert` carries an entry over to a new
    /// chain.
    pub fn of_text(body: String, prev: &str, signer: &Signer) -> EntryLine {
        let hash = entry_hash(prev, &body);
        let sig = signer.sign(Domain::Entry, hash.as_bytes());
        EntryLine {
            body,
            prev: prev.to_string(),
            hash,
            sig,
        }
    }

    /// Read a line's layout (not its body's JSON, nor its hash).
    // A String error: a game file's damage, the words load and `verify` print beside the entry.
    pub fn parse(line: &str) -> Result<EntryLine, String> {
        let bad =
            || "not a log entry line ({\"body\":…,\"hash\":…,\"prev\":…,\"sig\":…})".to_string();
        if !line.starts_with(BODY_OPEN) || line.len() < BODY_OPEN.len() + 2 + ENTRY_TAIL {
            return Err(bad());
        }
        let split = line.len() - ENTRY_TAIL;
        if !line.is_char_boundary(split) {
            return Err(bad());
        }
        let (body, tail) = line.split_at(split);
        let t = tail.as_bytes();
        let lit = |at: usize, s: &str| tail.get(at..at + s.len()) == Some(s);
        if !(lit(0, ",\"hash\":\"")
            && lit(73, "\",\"prev\":\"")
            && lit(147, "\",\"sig\":\"")
            && lit(284, "\"}"))
            || t.len() != ENTRY_TAIL
        {
            return Err(bad());
        }
        let (hash, prev, sig) = (&tail[9..73], &tail[83..147], &tail[156..284]);
        if !is_digest(hash) || !is_digest(prev) || !is_sig(sig) {
            return Err(bad());
        }
        Ok(EntryLine {
            body: body[BODY_OPEN.len()..].to_string(),
            prev: prev.to_string(),
            hash: hash.to_string(),
            sig: sig.to_string(),
        })
    }

    pub fn text(&self) -> String {
        format!(
            "{BODY_OPEN}{},\"hash\":\"{}\",\"prev\":\"{}\",\"sig\":\"{}\"}}",
            self.body, self.hash, self.prev, self.sig
        )
    }

    /// Does the stored hash match the body and prev?
    pub fn hash_ok(&self) -> bool {
        entry_hash(&self.prev, &self.body) == self.hash
    }

    pub fn sig_ok(&self, key: &PublicKey) -> bool {
        key.verify(Domain::Entry, self.hash.as_bytes(), &self.sig)
    }

    // A String error: a game file's damage, the words load and `verify` print beside the entry.
    pub fn decode(&self) -> Result<Body, String> {
        serde_json::from_str(&self.body).map_err(|e| format!("its body does not read: {e}"))
    }

    /// "entry 7 (phase, turn 3)": read leniently, for messages about an
    /// entry that may be damaged.
    pub fn describe(&self, index: usize) -> String {
        let v: serde_json::Value = serde_json::from_str(&self.body).unwrap_or_default();
        match (v["kind"].as_str(), v["turn"].as_u64()) {
            (Some(k), Some(t)) => format!("entry {index} ({k}, turn {t})"),
            (Some(k), None) => format!("entry {index} ({k})"),
            _ => format!("entry {index}"),
        }
    }
}

/// A whole game file, its lines kept as they were read.
#[derive(Debug, Clone)]
pub struct Record {
    pub head: Head,
    /// The head record's canonical JSON as it stands in line 1.
    pub head_raw: String,
    pub seal: String,
    pub entries: Vec<EntryLine>,
}

impl Record {
    /// Split a game file into its lines; every line's layout is checked,
    /// the head record decoded. Hashes, signatures and bodies are checked
    /// by `chain::check`.
    pub fn parse(text: &str) -> Result<Record, Vec<String>> {
        let mut lines = text.split('\n');
        let first = lines.next().unwrap_or("");
        let bad_head = "line 1: not a herald game file's head record ({\"head\":…,\"seal\":…})";
        if !first.starts_with(HEAD_OPEN) || first.len() < HEAD_OPEN.len() + 2 + HEAD_TAIL {
            return Err(vec![bad_head.into()]);
        }
        let split = first.len() - HEAD_TAIL;
        if !first.is_char_boundary(split) {
            return Err(vec![bad_head.into()]);
        }
        let (raw, tail) = first.split_at(split);
        let seal = tail.get(9..137).unwrap_or("");
        if !tail.starts_with(",\"seal\":\"") || !tail.ends_with("\"}") || !is_sig(seal) {
            return Err(vec![bad_head.into()]);
        }
        let head_raw = &raw[HEAD_OPEN.len()..];
        let mut head: Head = serde_json::from_str(head_raw).map_err(|e| {
            vec![format!(
                "line 1: the head record does not read ({e}); the file is damaged"
            )]
        })?;
        // The address herald mails, where the file holds it (format 4 and
        // older); from format 5 on the game folder's secrets fill it in.
        for p in &mut head.players {
            p.email = p.file_email.clone();
        }
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        let rest: Vec<&str> = lines.collect();
        for (i, line) in rest.iter().enumerate() {
            if line.is_empty() && i + 1 == rest.len() {
                break;
            }
            match EntryLine::parse(line) {
                Ok(e) => entries.push(e),
                Err(e) => {
                    problems.push(format!("line {} (entry {i}): {e}", i + 2));
                    break;
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Record {
            head,
            head_raw: head_raw.to_string(),
            seal: seal.to_string(),
            entries,
        })
    }

    /// A new game: the genesis entry and a head record, both signed.
    pub fn begin(genesis: &Genesis, head: Head, signer: &Signer) -> Record {
        let g = EntryLine::new(&Body::Genesis(genesis.clone()), ZERO, signer);
        let mut r = Record {
            head,
            head_raw: String::new(),
            seal: String::new(),
            entries: vec![g],
        };
        r.seal_with(signer);
        r
    }

    /// The hash the next entry must name as `prev`.
    pub fn chain_head(&self) -> &str {
        self.entries.last().map(|e| e.hash.as_str()).unwrap_or(ZERO)
    }

    /// Append an entry (the head record is resealed by [`Record::seal_with`]
    /// once the caller has brought it up to date).
    pub fn append(&mut self, body: &Body, signer: &Signer) {
        let e = EntryLine::new(body, self.chain_head(), signer);
        self.entries.push(e);
    }

    /// Bring the head's log reference up to date and seal it.
    pub fn seal_with(&mut self, signer: &Signer) {
        self.head.log.entries = self.entries.len() as u64;
        self.head.log.head = self.chain_head().to_string();
        self.head_raw = canonical(&self.head);
        self.seal = signer.sign(
            Domain::Head,
            sha256_hex(self.head_raw.as_bytes()).as_bytes(),
        );
    }

    /// The hashes the entries had before `convert` took the addresses out
    /// of the genesis ([`Redacted`]): the old genesis's, then each later
    /// entry's over its (unchanged) body and the old hash before it, up to
    /// the entries the log held then.
    pub fn old_hashes(&self, r: &Redacted) -> Vec<String> {
        let n = (r.entries as usize).min(self.entries.len());
        let mut out: Vec<String> = Vec::with_capacity(n);
        for (i, e) in self.entries.iter().enumerate().take(n) {
            let h = match out.last() {
                None if i == 0 => r.genesis.clone(),
                Some(prev) => entry_hash(prev, &e.body),
                None => break,
            };
            out.push(h);
        }
        out
    }

    pub fn seal_ok(&self, key: &PublicKey) -> bool {
        key.verify(
            Domain::Head,
            sha256_hex(self.head_raw.as_bytes()).as_bytes(),
            &self.seal,
        )
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let size = self.head_raw.len()
            + self
                .entries
                .iter()
                .map(|e| e.body.len() + 300)
                .sum::<usize>();
        let mut s = String::with_capacity(size + 200);
        s.push_str(HEAD_OPEN);
        s.push_str(&self.head_raw);
        s.push_str(",\"seal\":\"");
        s.push_str(&self.seal);
        s.push_str("\"}\n");
        for e in &self.entries {
            s.push_str(&e.text());
            s.push('\n');
        }
        s
    }
}
