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
/// on this chain head.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// A witness and the sha256 of the text above it in the file.
    Report(Witness, String),
}

/// Every receipt and witness block in a text (a report, a reply mail's
/// body, a file of receipts). Blocks that do not read are named.
pub fn find(text: &str) -> (Vec<Kept>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut at = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut offset = 0usize;
    let mut offsets = Vec::with_capacity(lines.len());
    for l in &lines {
        offsets.push(offset);
        offset += l.len();
    }
    while at < lines.len() {
        let line = lines[at].trim_end();
        let (close, receipt) = match line {
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
        while at < lines.len() && lines[at].trim_end() != close {
            if let Some((k, v)) = lines[at].trim_end().split_once(": ") {
                fields.insert(k.to_string(), v.to_string());
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
                Ok(turn) if digests_ok(&["chain head", "report sha256"]) => {
                    let above = sha256_hex(&text.as_bytes()[..offsets[start]]);
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
                        above,
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
