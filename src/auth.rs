//! Player passwords: generated, hashed with Argon2id, checked in constant
//! time. The game file keeps only the PHC string
//! (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), never the password.

use crate::rng;
use argon2::password_hash::{PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// How hard a password hash is to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// Argon2id with the crate's recommended parameters (19 MiB, 2 passes):
    /// every real game.
    Standard,
    /// Argon2id with 64 KiB and one pass: demos, whose passwords come from
    /// the seed and so are public once the game ends, and tests that play
    /// thousands of games. The parameters are in the hash string, so
    /// checking needs no flag.
    Light,
}

fn hasher(cost: Cost) -> Argon2<'static> {
    let params = match cost {
        Cost::Standard => Params::default(),
        Cost::Light => Params::new(64, 1, 1, None).expect("valid Argon2 parameters"),
    };
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hash `password` with a 16-byte salt.
pub fn hash(password: &str, salt: &[u8; 16], cost: Cost) -> String {
    let salt = SaltString::encode_b64(salt).expect("16 bytes make a valid salt");
    hasher(cost)
        .hash_password(password.as_bytes(), &salt)
        .expect("Argon2 hashes any password")
        .to_string()
}

/// Herald's own Argon2id settings (memory in KiB, passes, lanes): the
/// only ones a game file may hold. A hash with others (a game file edited
/// to make every check cost 4 GiB and a minute) is refused before any
/// hashing: by every command when the game file is opened, and here.
pub const OWN_SETTINGS: [(u32, u32, u32); 2] = [(19 * 1024, 2, 1), (64, 1, 1)];
/// The salt and digest lengths herald writes, in bytes.
const SALT_BYTES: usize = 16;
const DIGEST_BYTES: usize = 32;

/// A stored Argon2id hash taken apart, its settings herald's own.
struct Parsed {
    params: Params,
    salt: [u8; SALT_BYTES],
    digest: Vec<u8>,
}

// A String error: why a stored hash is refused, the words the game-file checks print.
fn parse_argon2(stored: &str) -> Result<Parsed, String> {
    let h = PasswordHash::new(stored).map_err(|e| format!("not a password hash ({e})"))?;
    if h.algorithm.as_str() != "argon2id" {
        return Err(format!(
            "{} is not the Argon2id herald uses",
            h.algorithm.as_str()
        ));
    }
    if h.version != Some(0x13) {
        return Err("not Argon2 version 19".into());
    }
    let params = Params::try_from(&h).map_err(|e| format!("its settings do not read ({e})"))?;
    let own = (params.m_cost(), params.t_cost(), params.p_cost());
    if !OWN_SETTINGS.contains(&own) || params.keyid().len() + params.data().len() > 0 {
        return Err(format!(
            "Argon2 settings m={},t={},p={} are not herald's own (m=19456,t=2,p=1 or m=64,t=1,p=1): refused before hashing",
            own.0, own.1, own.2
        ));
    }
    let mut salt = [0u8; SALT_BYTES];
    let s = h.salt.ok_or("no salt")?;
    let mut buf = [0u8; 64];
    let decoded = s
        .decode_b64(&mut buf)
        .map_err(|e| format!("its salt does not read ({e})"))?;
    if decoded.len() != SALT_BYTES {
        return Err(format!(
            "a salt of {} bytes, where herald's are {SALT_BYTES}",
            decoded.len()
        ));
    }
    salt.copy_from_slice(decoded);
    let digest = h.hash.ok_or("no digest")?.as_bytes().to_vec();
    if digest.len() != DIGEST_BYTES {
        return Err(format!(
            "a digest of {} bytes, where herald's are {DIGEST_BYTES}",
            digest.len()
        ));
    }
    Ok(Parsed {
        params,
        salt,
        digest,
    })
}

/// Is `stored` a password hash herald could have written: an Argon2id
/// PHC string with herald's own settings, salt and digest lengths, or a
/// herald 0.1 `sha256$salt$hex`? `Err` says what is wrong with it.
// A String error: why a stored hash is refused, the words the game-file checks print.
pub fn check_stored(stored: &str) -> Result<(), String> {
    if stored.starts_with('$') {
        return parse_argon2(stored).map(|_| ());
    }
    let mut parts = stored.splitn(3, '$');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("sha256"), Some(salt), Some(hex))
            if !salt.is_empty() && !salt.contains('$') && is_digest(hex) =>
        {
            Ok(())
        }
        _ => Err(
            "not a password hash (`$argon2id$v=19$…`, or herald 0.1's `sha256$salt$hex`)".into(),
        ),
    }
}

std::thread_local! {
    /// Argon2's working memory, kept per thread and reused: a flood of
    /// wrong passwords costs one buffer per hashing thread, not one
    /// allocation per guess (the allocator kept those).
    static MEMORY: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Does `password` match the stored hash? Argon2id strings are checked
/// with herald's own settings only (others are refused unhashed), in a
/// reused buffer, the digests compared in constant time. Game files from
/// herald 0.1 hold `sha256$salt$hex`; those still check, also in constant
/// time, so no game in progress is lost.
pub fn matches(password: &str, stored: &str) -> bool {
    if stored.starts_with('$') {
        let Ok(p) = parse_argon2(stored) else {
            return false;
        };
        let blocks = p.params.block_count();
        let a = Argon2::new(Algorithm::Argon2id, Version::V0x13, p.params);
        let mut out = [0u8; DIGEST_BYTES];
        let ok = MEMORY.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() < blocks {
                m.resize(blocks, argon2::Block::default());
            }
            a.hash_password_into_with_memory(password.as_bytes(), &p.salt, &mut out, &mut m[..])
                .is_ok()
        });
        return ok && same(&out, &p.digest);
    }
    let mut parts = stored.splitn(3, '$');
    let (Some("sha256"), Some(salt), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let a = format!(
        "sha256${salt}${}",
        sha256_hex(format!("{salt}{password}").as_bytes())
    );
    same(a.as_bytes(), stored.as_bytes())
}

/// Equal bytes, compared in time that depends on the length only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A stored hash is well formed and herald's own (a file hand-edited into
/// nonsense would lock its player out without saying why).
pub fn well_formed(stored: &str) -> bool {
    check_stored(stored).is_ok()
}

/// What a password check concluded, where checks are rationed
/// ([`Guard`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Right,
    Wrong,
    /// Not checked: the player's budget of checks is spent for now.
    Throttled,
}

/// Who may have a player's password checked, and how often: the host
/// rations checks for mails from addresses other than the player's own
/// (docs/host.md, "Guessing passwords"). `from` is the mail's sender.
pub trait Guard: Sync {
    fn check(&self, player: &str, from: &str, password: &str, stored: &str) -> Verdict;
}

/// A new password of three groups of four letters and digits, and a salt.
/// From the operating system or, for demos only, from a seeded stream so a
/// demo replays byte for byte.
pub fn new_secret(mut seeded: Option<&mut rng::ChaCha20Rng>) -> (String, [u8; 16]) {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut byte = || -> u8 {
        match seeded.as_deref_mut() {
            Some(r) => rng::below(r, 256) as u8,
            None => {
                let mut b = [0u8; 1];
                getrandom::getrandom(&mut b).expect("the operating system's random source failed");
                b[0]
            }
        }
    };
    let mut chars = String::new();
    while chars.len() < 12 {
        // 248 = 8 × 31: rejecting the top values keeps every letter equally likely.
        let b = byte();
        if b < 248 {
            chars.push(ALPHABET[b as usize % ALPHABET.len()] as char);
        }
    }
    let mut salt = [0u8; 16];
    salt.iter_mut().for_each(|s| *s = byte());
    let pw = format!("{}-{}-{}", &chars[0..4], &chars[4..8], &chars[8..12]);
    (pw, salt)
}

/// 64 lowercase hex digits. (auth sits below chain in the import order,
/// so it says its two digest helpers itself.)
fn is_digest(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

/// SHA-256 of `bytes` in lowercase hex (herald 0.1's password hashes).
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
