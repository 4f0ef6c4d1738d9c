//! The game file's format and its proofs: canonical JSON and hashes, the
//! log's entries and their hash chain, the sealed head record, the one
//! validity check every command uses, the moderator's signatures, the
//! derivation of each phase's dice, receipts and witnesses. No I/O here:
//! bytes in, findings out (docs/trust.md is the specification).

pub mod body;
pub mod canon;
pub mod check;
pub mod dice;
pub mod fields;
pub mod head;
pub mod keys;
pub mod record;
pub mod rules;
pub mod step;
pub mod witness;

pub use body::{Body, Genesis, Missed, OrderRecord, Phase, Player, Roll, Ruleset};
pub use head::{
    kind_format, Head, ADDRESS_FORMAT, EXCUSED_FORMAT, FORMAT, FORMAT3_KINDS, FORMAT6_KINDS,
    LENGTH_FORMAT, NAMES_FORMAT, OLDEST,
};
pub use keys::{PublicKey, Signer};
pub use record::Record;
