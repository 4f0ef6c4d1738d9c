//! The moderator's key pair: Ed25519 through the ed25519-dalek crate.
//! Every signature herald makes is over a domain line that says what is
//! signed ("herald/2 entry", "herald/2 head", …) followed by the message,
//! so a signature over one kind of thing never stands for another.

use super::canon::{hex, unhex};
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};

/// What a signature is over: the first line of the signed bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// A log entry: its hash.
    Entry,
    /// The head record (line 1 of the game file): its sha256.
    Head,
    /// A receipt for accepted orders.
    Receipt,
    /// A report sent to a player.
    Report,
    /// A press message's nonce: the key's deterministic signature used as
    /// a secret only the moderator can make (never published as such).
    PressNonce,
    /// A game's press rules, signed at `new` (`press/rules.json`).
    PressRules,
    /// The secret salt that binds a player's address (format 5): the key's
    /// deterministic signature, hashed, never published as such.
    AddressSalt,
    /// The secret opening of an anonymous press's sender commitment
    /// (format 5): the key's deterministic signature, hashed.
    PressOpening,
}

impl Domain {
    fn line(self) -> &'static [u8] {
        match self {
            Domain::Entry => b"herald/2 entry\n",
            Domain::Head => b"herald/2 head\n",
            Domain::Receipt => b"herald/2 receipt\n",
            Domain::Report => b"herald/2 report\n",
            Domain::PressNonce => b"herald/2 press nonce\n",
            Domain::PressRules => b"herald/2 press rules\n",
            Domain::AddressSalt => b"herald/2 address salt\n",
            Domain::PressOpening => b"herald/2 press opening\n",
        }
    }
}

fn signed(domain: Domain, message: &[u8]) -> Vec<u8> {
    let mut m = domain.line().to_vec();
    m.extend_from_slice(message);
    m
}

/// The secret half: kept in `moderator.key` (0600), never in a game file.
pub struct Signer(SigningKey);

/// The public half, written `ed25519:<64 hex digits>` in game files,
/// reports and receipts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

const FILE_TAG: &str = "herald ed25519 secret key";

impl Signer {
    /// A new key from the operating system's randomness.
    pub fn generate() -> Signer {
        let mut bytes = [0u8; 32];
        getrandom::getrandom(&mut bytes).expect("the operating system's random source failed");
        Signer(SigningKey::from_bytes(&bytes))
    }

    /// A key from 32 given bytes: demos and tests, whose keys follow from
    /// their seed so they replay byte for byte.
    pub fn from_bytes(bytes: [u8; 32]) -> Signer {
        Signer(SigningKey::from_bytes(&bytes))
    }

    pub fn public(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// A signature, as 128 hex digits. Ed25519 is deterministic: the same
    /// key and message give the same signature.
    pub fn sign(&self, domain: Domain, message: &[u8]) -> String {
        hex(&self.0.sign(&signed(domain, message)).to_bytes())
    }

    /// The key file's text.
    pub fn to_file(&self) -> String {
        format!(
            "{FILE_TAG}\n{}\n# public: {}\n",
            hex(&self.0.to_bytes()),
            self.public()
        )
    }

    // A String error: a key file's damage, the words printed with its path.
    pub fn from_file(text: &str) -> Result<Signer, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FILE_TAG) {
            return Err(format!(
                "not a herald key file (its first line is not `{FILE_TAG}`)"
            ));
        }
        let bytes = lines
            .next()
            .and_then(|l| unhex(l.trim(), 32))
            .ok_or("the key's second line is not 64 hex digits")?;
        let mut b = [0u8; 32];
        b.copy_from_slice(&bytes);
        Ok(Signer::from_bytes(b))
    }
}

impl PublicKey {
    // A String error: a key file's damage, the words printed with its path.
    pub fn parse(s: &str) -> Result<PublicKey, String> {
        let bytes = s
            .strip_prefix("ed25519:")
            .and_then(|h| unhex(h, 32))
            .ok_or_else(|| {
                format!(
                    "`{}` is not a key (ed25519:<64 hex digits>)",
                    s.escape_debug()
                )
            })?;
        let mut b = [0u8; 32];
        b.copy_from_slice(&bytes);
        VerifyingKey::from_bytes(&b)
            .map(PublicKey)
            .map_err(|_| "the key is not a valid Ed25519 point".to_string())
    }

    /// Does `sig` (hex) sign `message` in `domain` with this key?
    pub fn verify(&self, domain: Domain, message: &[u8], sig: &str) -> bool {
        let Some(bytes) = unhex(sig, 64) else {
            return false;
        };
        let mut b = [0u8; 64];
        b.copy_from_slice(&bytes);
        self.0
            .verify_strict(&signed(domain, message), &Signature::from_bytes(&b))
            .is_ok()
    }

    /// A short form for people to compare: the first 16 hex digits.
    pub fn fingerprint(&self) -> String {
        hex(&self.0.to_bytes()[..8])
    }
}

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ed25519:{}", hex(&self.0.to_bytes()))
    }
}
