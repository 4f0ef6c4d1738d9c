//! What players keep: receipts for accepted orders and the witness block at
//! the end of every report, each signed with the moderator's key over the
//! chain head it was made on. `herald verify --witness` checks them against
//! an archive (docs/trust.md, "Receipts and witnesses").

use super::canon::{is_digest, sha256_hex};
use super::keys::{Domain, PublicKey, Signer};

const RECEIPT_OPEN: &str = "----- HERALD RECEIPT -----";
const RECEIPT_CLOSE: &str = "----- END RECEIPT -----";
const WITNESS_OPEN: &str = "----- HERALD WITNESS -----";
const WITNESS_CLOSE: &str = "----- END WITNESS -----";

/// A receipt: herald accepted these orders, recorded with this hash, to be
/// resolved on this chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub game: String,
    pub player: String,
    pub turn: u32,
    /// sha256 of the order file as the log records it (no password).
    pub orders_sha256: String,
    /// The chain head when the orders were accepted.
    pub chain_head: String,
    /// When they were accepted (RFC 3339).
    pub accepted: String,
    pub key: String,
    pub signature: String,
}

/// The block every report ends with: this report, for this player, made
/// on this chain head. view.json carries the same fields as `witness`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Witness {
    pub game: String,
    pub player: String,
    pub turn: u32,
    pub chain_head: String,
    /// sha256 of the report's text above the block.
    pub report_sha256: String,
    pub key: String,
    pub signature: String,
}

impl Receipt {
    fn message(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}\n{}\n{}\n",
            self.game, self.player, self.turn, self.orders_sha256, self.chain_head, self.accepted
        )
    }

    pub fn new(
        signer: &Signer,
        game: &str,
        player: &str,
        turn: u32,
        orders_sha256: &str,
        chain_head: &str,
        accepted: &str,
    ) -> Receipt {
        let mut r = Receipt {
            game: game.into(),
            player: player.into(),
            turn,
            orders_sha256: orders_sha256.into(),
            chain_head: chain_head.into(),
            accepted: accepted.into(),
            key: signer.public().to_string(),
            signature: String::new(),
        };
        r.signature = signer.sign(Domain::Receipt, r.message().as_bytes());
        r
    }

    pub fn signature_ok(&self) -> bool {
        PublicKey::parse(&self.key)
            .is_ok_and(|k| k.verify(Domain::Receipt, self.message().as_bytes(), &self.signature))
    }

    pub fn block(&self) -> String {
        format!(
            "{RECEIPT_OPEN}\ngame: {}\nplayer: {}\nturn: {}\norders sha256: {}\nchain head: {}\naccepted: {}\nkey: {}\nsignature: {}\n{RECEIPT_CLOSE}\n",
            self.game,
            self.player,
            self.turn,
            self.orders_sha256,
            self.chain_head,
            self.accepted,
            self.key,
            self.signature
        )
    }
}

impl Witness {
    fn message(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}\n{}\n",
            self.game, self.player, self.turn, self.chain_head, self.report_sha256
        )
    }

    /// The witness of `report` (the text it will be appended to).
    pub fn new(
        signer: &Signer,
        game: &str,
        player: &str,
        turn: u32,
        chain_head: &str,
        report: &str,
    ) -> Witness {
        let mut w = Witness {
            game: game.into(),
            player: player.into(),
            turn,
            chain_head: chain_head.into(),
            report_sha256: sha256_hex(report.as_bytes()),
            key: signer.public().to_string(),
            signature: String::new(),
        };
        w.signature = signer.sign(Domain::Report, w.message().as_bytes());
        w
    }

    pub fn signature_ok(&self) -> bool {
        PublicKey::parse(&self.key)
            .is_ok_and(|k| k.verify(Domain::Report, self.message().as_bytes(), &self.signature))
    }

    pub fn block(&self) -> String {
        format!(
            "{WITNESS_OPEN}\nKeep this block: `herald verify <archive> --witness <this file>` proves the\narchive holds what you were sent.\ngame: {}\nplayer: {}\nturn: {}\nchain head: {}\nreport sha256: {}\nkey: {}\nsignature: {}\n{WITNESS_CLOSE}\n",
            self.game, self.player, self.turn, self.chain_head, self.report_sha256, self.key, self.signature
        )
    }
}

/// What a kept file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    Receipt(Receipt),
    /// A witness and the text above it in the file, as [`find`] read it.
    Report(Witness, Above),
}

/// The most witness blocks [`find`] reads in one text (each keeps the text
/// above it; a mail holds one, a file of reports pasted together a few).
pub const MAX_REPORTS: usize = 32;

/// How many lines that start a report [`Above::holds`] tries.
const MAX_STARTS: usize = 4;

/// The text above a witness block, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Above {
    /// Every line above the block, LF-ended, with the block's quote marks
    /// (`> `, as a mail program quotes a report forwarded or replied to)
    /// taken off the lines that carry them.
    pub text: String,
    /// The block was quoted (`> ----- HERALD WITNESS -----`).
    pub quoted: bool,
}

impl Above {
    /// Does the kept text hold exactly the report the witness signs: the
    /// whole text above the block, or (a mail quoting or forwarding the
    /// report, with words of its own above it) the part from a line that
    /// starts a report of this game for this player?
    pub fn holds(&self, w: &Witness) -> bool {
        if sha256_hex(self.text.as_bytes()) == w.report_sha256 {
            return true;
        }
        // The last few lines that start a report: a hostile text of many
        // costs no more than a few hashes of it.
        let marker = format!("game {} — report for {}", w.game, w.player);
        let mut starts = Vec::new();
        let mut at = 0;
        for line in self.text.split_inclusive('\n') {
            if line.contains(&marker) {
                starts.push(at);
            }
            at += line.len();
        }
        starts
            .iter()
            .rev()
            .take(MAX_STARTS)
            .any(|&s| sha256_hex(self.text[s..].as_bytes()) == w.report_sha256)
    }
}

/// A line with its quote marks taken off (`>`, `> > `, `>>` and the one
/// space after them): the line and how many levels there were.
pub fn unquote(line: &str) -> (usize, &str) {
    let mut depth = 0;
    let mut rest = line;
    loop {
        let t = rest.strip_prefix(' ').filter(|_| depth > 0).unwrap_or(rest);
        match t.strip_prefix('>') {
            Some(r) => {
                depth += 1;
                rest = r;
            }
            None => break,
        }
    }
    if depth > 0 {
        rest = rest.strip_prefix(' ').unwrap_or(rest);
    }
    (depth, rest)
}

/// Every receipt and witness block in a text (a report, a reply mail's
/// body, a file of receipts, a mail quoting a report with `> `). Line
/// ends may be CR LF. Blocks that do not read are named.
///
/// Long (about 105 lines): one scan over the text's lines, one branch a kind of
/// block (receipt, witness, report, quoted), sharing the place in the text and
/// what was found so far.
pub fn find(text: &str) -> (Vec<Kept>, Vec<String>) {
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut at = 0;
    let mut reports = 0;
    while at < lines.len() {
        let (depth, line) = unquote(lines[at].trim_end());
        let (close, receipt) = match line.trim_end() {
            RECEIPT_OPEN => (RECEIPT_CLOSE, true),
            WITNESS_OPEN => (WITNESS_CLOSE, false),
            _ => {
                at += 1;
                continue;
            }
        };
        let start = at;
        let mut fields = std::collections::BTreeMap::new();
        at += 1;
        while at < lines.len() {
            let (d, l) = unquote(lines[at].trim_end());
            let l = l.trim_end();
            if l == close || d != depth {
                break;
            }
            if let Some((k, v)) = l.split_once(": ") {
                fields.insert(k.to_string(), v.trim().to_string());
            }
            at += 1;
        }
        at += 1;
        let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
        let turn = get("turn").parse::<u32>();
        let digests_ok = |ks: &[&str]| ks.iter().all(|k| is_digest(&get(k)));
        if receipt {
            match turn {
                Ok(turn) if digests_ok(&["orders sha256", "chain head"]) => {
                    found.push(Kept::Receipt(Receipt {
                        game: get("game"),
                        player: get("player"),
                        turn,
                        orders_sha256: get("orders sha256"),
                        chain_head: get("chain head"),
                        accepted: get("accepted"),
                        key: get("key"),
                        signature: get("signature"),
                    }))
                }
                _ => problems.push(format!("the receipt at line {} does not read", start + 1)),
            }
        } else {
            match turn {
                Ok(_) if reports == MAX_REPORTS => problems.push(format!(
                    "the witness block at line {} is one too many: a text holds at most {MAX_REPORTS} reports",
                    start + 1
                )),
                Ok(turn) if digests_ok(&["chain head", "report sha256"]) => {
                    reports += 1;
                    let above: String = if depth == 0 {
                        lines[..start].concat()
                    } else {
                        lines[..start]
                            .iter()
                            .map(|l| {
                                let body = l.strip_suffix('\n').unwrap_or(l);
                                // the block's levels off, deeper ones kept
                                let mut out = if unquote(body).0 >= depth {
                                    unquote_levels(body, depth).to_string()
                                } else {
                                    body.to_string()
                                };
                                out.push('\n');
                                out
                            })
                            .collect()
                    };
                    found.push(Kept::Report(
                        Witness {
                            game: get("game"),
                            player: get("player"),
                            turn,
                            chain_head: get("chain head"),
                            report_sha256: get("report sha256"),
                            key: get("key"),
                            signature: get("signature"),
                        },
                        Above {
                            text: above,
                            quoted: depth > 0,
                        },
                    ))
                }
                _ => problems.push(format!(
                    "the witness block at line {} does not read",
                    start + 1
                )),
            }
        }
    }
    (found, problems)
}

/// `line` with `levels` quote marks (and the space after the last) off.
fn unquote_levels(line: &str, levels: usize) -> &str {
    let mut rest = line;
    for k in 0..levels {
        let t = if k > 0 {
            rest.strip_prefix(' ').unwrap_or(rest)
        } else {
            rest
        };
        match t.strip_prefix('>') {
            Some(r) => rest = r,
            None => return rest,
        }
    }
    rest.strip_prefix(' ').unwrap_or(rest)
}
