//! The lobby's confirmation codes (docs/host.md, "Confirmations"): every
//! lobby command that changes a seat, a table or someone's standing
//! (`join`, `leave`, `standby`, `standby off`, `takeover`) only mails a
//! code to its From address; the change is made when the code comes back
//! from that address. A From header is a claim; a code that came back
//! proves the address reads its mail.
//!
//! A request waiting for its code is a typed value, [`Request`]: who
//! asked, what confirming will do ([`Action`]), the code's sha256 (never
//! the code), the mail that asked, and where it stands ([`State`]). One
//! store holds them all, `DIR/lobby/confirm/requests.json` (0600, written
//! whole, atomically, by the pass that holds `host.lock`).
//!
//! Rulings:
//! - A new request never replaces an older one: each code does exactly
//!   what its own mail says. A forged `join t1 <insult> public` from
//!   someone's address mails them a code that says so, beside the one
//!   they asked for; they confirm theirs and the other is withdrawn.
//! - Confirming one request withdraws the address's other waiting ones
//!   for the same thing (the same table, the standby list, the same seat),
//!   unless the address may hold several seats there.
//! - A code answers with what became of it: done already, withdrawn,
//!   expired; what became of its table or seat (started, taken) is told
//!   by the caller, who looks at them.
//! - Requests wait [`EXPIRES`]; an address has at most [`PER_ADDRESS`]
//!   waiting (the oldest dropped); requests no longer waiting are kept
//!   [`KEPT`] (so a late confirmation is told what happened), then
//!   forgotten.
//!
//! Tables and offers written before this store kept their waiting joins
//! and takeovers inside them (`pending`, `claims`): [`Store::load`] reads
//! those as waiting requests and [`Store::save`] moves them here.

use super::tables::{self, Pending};
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::host_dir::HostDir;
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};

/// How long a code waits for its confirmation (seconds): 14 days.
pub const EXPIRES: i64 = 14 * 86_400;
/// How long a request is remembered once it no longer waits: 60 days.
pub const KEPT: i64 = 60 * 86_400;
/// Requests one address may have waiting at once.
pub const PER_ADDRESS: usize = 20;

/// What confirming a code will do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Take a seat at `table`, under `name`, the address public or not,
    /// with the sides asked for (`prefer`, checked).
    Join {
        table: String,
        name: Option<String>,
        public: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        prefer: Vec<String>,
    },
    /// Give up the address's seats (and waiting joins) at `table`.
    Leave { table: String },
    /// Put the address on the standby list (`on`) or take it off.
    Standby { on: bool },
    /// Take over seat `player` of `game`, under `name`.
    Takeover {
        game: String,
        player: String,
        name: Option<String>,
    },
}

/// What an action is about: an address's requests for the same thing are
/// alternatives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Table(String),
    Standby,
    Seat(String, String),
}

impl Action {
    pub fn target(&self) -> Target {
        match self {
            Action::Join { table, .. } | Action::Leave { table } => Target::Table(table.clone()),
            Action::Standby { .. } => Target::Standby,
            Action::Takeover { game, player, .. } => Target::Seat(game.clone(), player.clone()),
        }
    }

    /// The command line that asked for it ("join t1 Ann public").
    pub fn line(&self) -> String {
        match self {
            Action::Join {
                table,
                name,
                public,
                prefer,
            } => {
                let mut l = format!("join {table}");
                if let Some(n) = name {
                    l.push_str(&format!(" {n}"));
                }
                if *public {
                    l.push_str(" public");
                }
                if !prefer.is_empty() {
                    l.push_str(&format!(" prefer {}", prefer.join(",")));
                }
                l
            }
            Action::Leave { table } => format!("leave {table}"),
            Action::Standby { on: true } => "standby".into(),
            Action::Standby { on: false } => "standby off".into(),
            Action::Takeover { game, player, name } => {
                let mut l = format!("takeover {game} {player}");
                if let Some(n) = name {
                    l.push_str(&format!(" {n}"));
                }
                l
            }
        }
    }
}

/// Why a request stopped waiting without being confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dropped {
    /// Not confirmed within [`EXPIRES`].
    Expired,
    /// The address asked for more than [`PER_ADDRESS`] things at once.
    TooMany,
}

/// Where a request stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum State {
    Waiting,
    /// Confirmed by the mail whose sha256 is `by`, at `at`.
    Done {
        by: String,
        at: String,
    },
    /// Withdrawn at `at`: another request of the address for the same
    /// thing was confirmed (or the address left the table).
    Withdrawn {
        at: String,
    },
    Dropped {
        why: Dropped,
        at: String,
    },
}

/// A request waiting for its code (or one that did).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The From address the code was mailed to.
    pub address: String,
    pub action: Action,
    /// sha256 of the code (the code is never kept).
    pub code_sha256: String,
    /// The sha256 of the mail that asked (the code is drawn from it).
    pub mail: String,
    /// When it was asked (RFC 3339).
    pub at: String,
    pub state: State,
}

impl Request {
    pub fn waiting(&self) -> bool {
        self.state == State::Waiting
    }
    pub fn from(&self, address: &str) -> bool {
        self.address.eq_ignore_ascii_case(address.trim())
    }
}

/// Every request the lobby keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Store {
    pub requests: Vec<Request>,
    /// Tables and games whose own waiting lists (written before this
    /// store) were read into it: emptied by [`Store::save`].
    #[serde(skip)]
    legacy: Vec<Legacy>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Legacy {
    Table(String),
    Game(String),
}

fn secs(t: &str) -> Option<i64> {
    crate::time::parse_time(t).ok().map(|t| t.timestamp())
}

impl Store {
    /// The store, with the waiting joins and takeovers that tables and
    /// games written before it still hold.
    pub fn load(host: &HostDir) -> Result<Store> {
        let p = host.confirm_requests();
        let mut s: Store = match std::fs::read(&p) {
            Ok(b) => serde_json::from_slice(&b).map_err(|e| {
                Error::refused(format!(
                    "{}: not the lobby's confirmation requests ({e}); move it aside and the codes mailed so far stop working",
                    p.display()
                ))
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Store::default(),
            Err(e) => return Err(Error::io(&p, e)),
        };
        let (tables, _) = tables::all(host);
        for t in tables.iter().filter(|t| !t.pending.is_empty()) {
            for p in &t.pending {
                s.adopt(
                    p,
                    Action::Join {
                        table: t.name.clone(),
                        name: p.name.clone(),
                        public: p.public,
                        prefer: Vec::new(),
                    },
                );
            }
            s.legacy.push(Legacy::Table(t.name.clone()));
        }
        for g in super::seats::all(host) {
            let mut any = false;
            for o in &g.offers {
                for c in &o.claims {
                    any = true;
                    s.adopt(
                        c,
                        Action::Takeover {
                            game: g.game.clone(),
                            player: o.player.clone(),
                            name: c.name.clone(),
                        },
                    );
                }
            }
            if any {
                s.legacy.push(Legacy::Game(g.game.clone()));
            }
        }
        Ok(s)
    }

    fn adopt(&mut self, p: &Pending, action: Action) {
        if self.requests.iter().any(|r| r.code_sha256 == p.code_sha256) {
            return;
        }
        self.requests.push(Request {
            address: p.address.clone(),
            action,
            code_sha256: p.code_sha256.clone(),
            mail: p.mail.clone(),
            at: p.at.clone(),
            state: State::Waiting,
        });
    }

    /// Write the store (then empty the older waiting lists it took in).
    pub fn save(&mut self, host: &HostDir) -> Result<()> {
        let dir = host.confirm_dir();
        write::create_dir(&host.lobby())?;
        write::create_dir(&dir)?;
        let mut bytes = serde_json::to_vec_pretty(self).expect("requests serialise");
        bytes.push(b'\n');
        write::atomic(&host.confirm_requests(), &bytes, Durability::Synced)?;
        for l in std::mem::take(&mut self.legacy) {
            match l {
                Legacy::Table(t) => {
                    let name = Name::new("table", &t).map_err(Error::refused)?;
                    if let Some(mut t) = tables::load(host, &name)? {
                        t.pending.clear();
                        tables::save(host, &t)?;
                    }
                }
                Legacy::Game(g) => {
                    let name = Name::new("game", &g).map_err(Error::refused)?;
                    if let Some(mut rec) = super::seats::load(host, &name)? {
                        rec.offers.iter_mut().for_each(|o| o.claims.clear());
                        super::seats::save(host, &rec)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The request the mail `mail` asked for (a mail handled again).
    pub fn asked_by(&self, mail: &str) -> Option<&Request> {
        self.requests.iter().find(|r| r.mail == mail)
    }

    /// The request the mail `mail` confirmed (a mail handled again).
    pub fn confirmed_by(&self, mail: &str) -> Option<&Request> {
        self.requests
            .iter()
            .find(|r| matches!(&r.state, State::Done { by, .. } if by == mail))
    }

    /// The request whose code is `code` (as a player typed it).
    pub fn find(&self, code: &str) -> Option<&Request> {
        let code = tables::normal_code(code)?;
        let h = sha256_hex(code.as_bytes());
        self.requests.iter().find(|r| r.code_sha256 == h)
    }

    /// The waiting requests of `address` for the same thing as `action`.
    pub fn alike(&self, address: &str, action: &Action) -> Vec<Request> {
        let target = action.target();
        self.requests
            .iter()
            .filter(|r| r.waiting() && r.from(address) && r.action.target() == target)
            .cloned()
            .collect()
    }

    /// Every waiting request, for the moderator's views.
    pub fn waiting(&self) -> impl Iterator<Item = &Request> {
        self.requests.iter().filter(|r| r.waiting())
    }

    /// Ask for `action` for `address`, by the mail whose sha256 is
    /// `mail`: the code (drawn from the lobby's `key` and the mail), and
    /// the address's other waiting requests for the same thing. The
    /// caller saves the store.
    pub fn ask(
        &mut self,
        key: &str,
        address: &str,
        action: Action,
        mail: &str,
        now: &str,
    ) -> (String, Vec<Request>) {
        let code = tables::code_for(key, mail);
        let others = self.alike(address, &action);
        if self.asked_by(mail).is_none() {
            self.requests.push(Request {
                address: address.trim().to_string(),
                action,
                code_sha256: sha256_hex(code.as_bytes()),
                mail: mail.to_string(),
                at: now.to_string(),
                state: State::Waiting,
            });
            self.prune(address, now);
        }
        (code, others)
    }

    /// The request with this code confirmed by mail `by`; with
    /// `withdraw_alike`, the address's other waiting requests for the
    /// same thing withdrawn. The caller saves the store.
    pub fn confirm(&mut self, code_sha256: &str, by: &str, now: &str, withdraw_alike: bool) {
        let Some(i) = self
            .requests
            .iter()
            .position(|r| r.code_sha256 == code_sha256)
        else {
            return;
        };
        self.requests[i].state = State::Done {
            by: by.to_string(),
            at: now.to_string(),
        };
        if withdraw_alike {
            let (address, target) = (
                self.requests[i].address.clone(),
                self.requests[i].action.target(),
            );
            self.withdraw(&address, |a| a.target() == target, now);
        }
    }

    /// The waiting requests of `address` whose action `which` picks,
    /// withdrawn.
    pub fn withdraw(&mut self, address: &str, which: impl Fn(&Action) -> bool, now: &str) {
        for r in self
            .requests
            .iter_mut()
            .filter(|r| r.waiting() && r.from(address) && which(&r.action))
        {
            r.state = State::Withdrawn {
                at: now.to_string(),
            };
        }
    }

    /// Requests past their time dropped, old ones forgotten, and at most
    /// [`PER_ADDRESS`] waiting for `address` (the oldest dropped).
    fn prune(&mut self, address: &str, now: &str) {
        let Some(t) = secs(now) else { return };
        for r in self.requests.iter_mut().filter(|r| r.waiting()) {
            if secs(&r.at).is_some_and(|a| a <= t - EXPIRES) {
                r.state = State::Dropped {
                    why: Dropped::Expired,
                    at: now.to_string(),
                };
            }
        }
        let theirs: Vec<usize> = (0..self.requests.len())
            .filter(|&i| self.requests[i].waiting() && self.requests[i].from(address))
            .collect();
        for &i in theirs.iter().take(theirs.len().saturating_sub(PER_ADDRESS)) {
            self.requests[i].state = State::Dropped {
                why: Dropped::TooMany,
                at: now.to_string(),
            };
        }
        self.requests.retain(|r| {
            let since = match &r.state {
                State::Waiting => return true,
                State::Done { at, .. } | State::Withdrawn { at } | State::Dropped { at, .. } => at,
            };
            secs(since).is_none_or(|s| s > t - KEPT)
        });
    }
}
