//! Sign-in links and sessions (docs/web.md, "Signing in"). Both are
//! random 32-byte tokens handed to the player once (a link in a mail, a
//! cookie) and kept here only as their sha256: a copy of the file signs
//! no one in. The file is `DIR/state/web-sessions.json`, written whole
//! and atomically (a temporary file created exclusively, mode 0600 from
//! its first byte, synced, renamed) after every change, by the one server
//! of the folder (`serve.lock`).
//!
//! - a link lives [`LINK_LIFE`] and is used once: following it removes
//!   it and makes a new session (a session id the browser brought is
//!   never kept: no fixation);
//! - a session lives [`SESSION_LIFE`] from its making; signing out
//!   removes it, signing out everywhere removes every session of its
//!   address;
//! - a form's CSRF token is made from the session id
//!   ([`csrf_token`]): only the holder of the cookie can know it, and it
//!   dies with the session.

use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file's name in `DIR/state/`.
pub const FILE: &str = "web-sessions.json";
/// How long a mailed sign-in link can be followed.
pub const LINK_LIFE: i64 = 15 * 60;
/// How long a session lasts.
pub const SESSION_LIFE: i64 = 30 * 24 * 3600;
/// At most this many links waiting for one address (older ones dropped).
const LINKS_PER_ADDRESS: usize = 3;

/// What a session may act for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Who {
    /// An address proven by a mailed link: every seat it holds.
    Address { address: String },
    /// One seat of one game, proven by its password.
    Seat { game: String, player: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Session {
    id_sha256: String,
    #[serde(flatten)]
    who: Who,
    /// Unix seconds.
    made: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Link {
    token_sha256: String,
    address: String,
    /// Unix seconds.
    expires: i64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Kept {
    #[serde(default)]
    sessions: Vec<Session>,
    #[serde(default)]
    links: Vec<Link>,
}

/// The sessions and links of one server.
pub struct Sessions {
    path: PathBuf,
    kept: Mutex<Kept>,
}

/// A fresh random token, 64 hex digits.
pub fn token() -> String {
    let mut b = [0u8; 32];
    getrandom::getrandom(&mut b).expect("the operating system's random source failed");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The CSRF token of the forms of the session `id`.
pub fn csrf_token(id: &str) -> String {
    sha256_hex(format!("herald/csrf\0{id}").as_bytes())
}

fn digest(secret: &str) -> String {
    sha256_hex(secret.as_bytes())
}

/// Whether two strings are equal, in time that does not depend on where
/// they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Sessions {
    /// The file at `path`, or none yet. A file that does not read is
    /// refused (the moderator removes it: every player signs in again).
    pub fn open(path: &Path) -> Result<Sessions> {
        let kept = match std::fs::read(path) {
            Ok(b) => serde_json::from_slice(&b).map_err(|e| {
                Error::refused(format!(
                    "{}: not a sessions file ({e}); remove it and every player signs in again",
                    path.display()
                ))
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Kept::default(),
            Err(e) => return Err(Error::io(path, e)),
        };
        Ok(Sessions {
            path: path.to_path_buf(),
            kept: Mutex::new(kept),
        })
    }

    fn change<T>(&self, now: i64, f: impl FnOnce(&mut Kept) -> T) -> Result<T> {
        let mut k = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let before = serde_json::to_vec(&*k).expect("sessions serialise");
        k.links.retain(|l| l.expires > now);
        k.sessions.retain(|s| s.made + SESSION_LIFE > now);
        let out = f(&mut *k);
        let after = serde_json::to_vec_pretty(&*k).expect("sessions serialise");
        if serde_json::to_vec(&*k).expect("sessions serialise") != before {
            write::atomic(&self.path, &after, Durability::Synced)?;
        }
        Ok(out)
    }

    /// A new sign-in link's token for `address` (lower-cased), kept as its
    /// digest until `now + LINK_LIFE`.
    pub fn new_link(&self, address: &str, now: i64) -> Result<String> {
        let t = token();
        let address = address.trim().to_ascii_lowercase();
        self.change(now, |k| {
            let mine: Vec<usize> = (0..k.links.len())
                .filter(|&i| k.links[i].address == address)
                .collect();
            if mine.len() >= LINKS_PER_ADDRESS {
                k.links.remove(mine[0]);
            }
            k.links.push(Link {
                token_sha256: digest(&t),
                address,
                expires: now + LINK_LIFE,
            });
        })?;
        Ok(t)
    }

    /// Whether `token` is a link that can still be followed (nothing used).
    pub fn link_open(&self, token: &str, now: i64) -> bool {
        let d = digest(token);
        let k = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        k.links
            .iter()
            .any(|l| same(&l.token_sha256, &d) && l.expires > now)
    }

    /// Follow a link: used up, and a new session made for its address.
    /// `None`: no such link, used, or expired.
    pub fn follow(&self, token: &str, now: i64) -> Result<Option<String>> {
        let d = digest(token);
        self.change(now, |k| {
            let at = k.links.iter().position(|l| same(&l.token_sha256, &d))?;
            let link = k.links.remove(at);
            Some(new_session(
                k,
                Who::Address {
                    address: link.address,
                },
                now,
            ))
        })
    }

    /// A new session for one seat (a game's password was right).
    pub fn for_seat(&self, game: &str, player: &str, now: i64) -> Result<String> {
        self.change(now, |k| {
            new_session(
                k,
                Who::Seat {
                    game: game.into(),
                    player: player.into(),
                },
                now,
            )
        })
    }

    /// Who the session `id` acts for, if it is one.
    pub fn who(&self, id: &str, now: i64) -> Option<Who> {
        let d = digest(id);
        let k = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        k.sessions
            .iter()
            .find(|s| same(&s.id_sha256, &d) && s.made + SESSION_LIFE > now)
            .map(|s| s.who.clone())
    }

    /// Sign out: the session `id` removed.
    pub fn end(&self, id: &str, now: i64) -> Result<()> {
        let d = digest(id);
        self.change(now, |k| k.sessions.retain(|s| !same(&s.id_sha256, &d)))
    }

    /// Sign out everywhere: every session acting for what `id`'s does.
    pub fn end_all(&self, id: &str, now: i64) -> Result<()> {
        let Some(who) = self.who(id, now) else {
            return Ok(());
        };
        self.change(now, |k| k.sessions.retain(|s| s.who != who))
    }

    /// How many sessions are kept (for tests and the status page).
    pub fn count(&self) -> usize {
        self.kept
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .sessions
            .len()
    }
}

fn new_session(k: &mut Kept, who: Who, now: i64) -> String {
    let id = token();
    k.sessions.push(Session {
        id_sha256: digest(&id),
        who,
        made: now,
    });
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_used_once_and_dies_after_its_life() {
        let dir = tempfile::tempdir().unwrap();
        let s = Sessions::open(&dir.path().join(FILE)).unwrap();
        let t = s.new_link("Ann@X.test", 1000).unwrap();
        assert!(s.link_open(&t, 1001));
        let id = s.follow(&t, 1001).unwrap().expect("a session");
        assert_eq!(
            s.who(&id, 1002),
            Some(Who::Address {
                address: "ann@x.test".into()
            })
        );
        assert_eq!(s.follow(&t, 1002).unwrap(), None, "used twice");
        let late = s.new_link("ann@x.test", 2000).unwrap();
        assert_eq!(s.follow(&late, 2000 + LINK_LIFE).unwrap(), None, "expired");
        // kept as digests only, 0600
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert!(!text.contains(&id) && !text.contains(&t));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // and read again by a new server
        let again = Sessions::open(&dir.path().join(FILE)).unwrap();
        assert!(again.who(&id, 1003).is_some());
        again.end_all(&id, 1003).unwrap();
        assert!(again.who(&id, 1003).is_none());
    }
}
