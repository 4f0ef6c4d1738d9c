//! What the log records: one body per entry, tagged by `kind`. Every change
//! to a game is an entry: its start (`genesis`, which holds the whole header
//! as it began), each resolved phase, a new password, a new deadline, the
//! seed revealed at the end.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize, Deserialize, Eq)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: String,
    pub name: String,
    /// The player's mail address as herald mails it, in memory only: this
    /// field is never written to a file. It is filled from where the game
    /// keeps the address: a game file of format 4 or older holds it
    /// ([`Player::file_email`]); from format 5 on, the game folder's
    /// `secrets.toml` does (`pipeline::Loaded::open`), and the game file
    /// only binds it ([`Player::address_sha256`]).
    #[serde(skip)]
    pub email: Option<String>,
    /// The address as a game file of format 4 or older holds it (its field
    /// `email`): never set in a game file of format 5.
    #[serde(rename = "email", default, skip_serializing_if = "Option::is_none")]
    pub file_email: Option<String>,
    /// Format 5: what binds the player's address without showing it,
    /// `lines("herald/address", salt, address in lowercase)` with a secret
    /// salt kept beside the address in `secrets.toml`
    /// ([`address_sha256`]); or, after a seat entry of format 3 or 4, that
    /// entry's `holder_sha256`. Absent: the game holds no address for the
    /// player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_sha256: Option<String>,
    /// An Argon2id PHC string (`$argon2id$…`), or `sha256$<salt>$<digest>`
    /// in games begun by herald 0.1: only a salted hash is kept.
    pub password: String,
}

impl Player {
    /// The player as others read them: `red (Ann)`, the id with the
    /// display name beside it, or the id alone where the name is the id.
    pub fn shown(&self) -> String {
        if self.name.is_empty() || self.name == self.id {
            self.id.clone()
        } else {
            format!("{} ({})", self.id, self.name)
        }
    }
}

/// Players are equal when what a file holds of them is: the address in
/// memory ([`Player::email`]) is not part of the file.
impl PartialEq for Player {
    fn eq(&self, o: &Player) -> bool {
        self.id == o.id
            && self.name == o.name
            && self.file_email == o.file_email
            && self.address_sha256 == o.address_sha256
            && self.password == o.password
    }
}

/// The format that keeps players' addresses out of the game file: its
/// genesis and head bind each by `address_sha256`, a seat entry by a
/// `holder_sha256` with a secret salt, and anonymous press by a
/// `sender_commitment`.
pub const ADDRESS_FORMAT: u32 = 5;

/// What binds a player's address in a game file of format 5:
/// `lines("herald/address", salt, address in lowercase)`, the salt (32
/// hex digits, 128 bits) secret, so that nobody without the game's
/// `secrets.toml` can test a guessed address against it.
pub fn address_sha256(salt: &str, address: &str) -> String {
    crate::chain::canon::sha256_lines(&[
        b"herald/address",
        salt.as_bytes(),
        address.to_ascii_lowercase().as_bytes(),
    ])
}

/// The secret salt (32 hex digits) that binds player `player`'s address in
/// game `game`'s genesis: made from the game's key (its deterministic
/// signature in its own domain, hashed), so that `new` and `convert` (of a
/// game folder, or of a published copy with the key) bind an address
/// alike; kept in `secrets.toml` beside the address.
pub fn address_salt(signer: &crate::chain::Signer, game: &str, player: &str) -> String {
    let sig = signer.sign(
        crate::chain::keys::Domain::AddressSalt,
        format!("{game}\n{player}\n").as_bytes(),
    );
    crate::chain::canon::sha256_hex(sig.as_bytes())[..32].to_string()
}

/// Does `commitment` (a player's `address_sha256`, or a seat entry's
/// `holder_sha256`) bind `address` with `salt`? Both constructions are
/// tried: format 5's ([`address_sha256`]) and the seat entries' of
/// formats 3 and 4 ([`SeatChange::holder`], whose salt the entry shows).
pub fn opens(commitment: &str, salt: &str, address: &str) -> bool {
    address_sha256(salt, address) == commitment || SeatChange::holder(salt, address) == commitment
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// The ruleset's name inside its file, e.g. "norse-wars".
    pub name: String,
    pub sha256: String,
    /// The ruleset text itself, so the archive replays with nothing else.
    pub text: String,
}

/// The header as a game began: everything `new` decided.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Genesis {
    pub format: u32,
    /// The herald version that began the game.
    pub herald: String,
    /// The game's registry name, e.g. "norse-wars".
    pub game: String,
    /// This game's id.
    pub id: String,
    pub created: String,
    pub players: Vec<Player>,
    pub options: BTreeMap<String, String>,
    pub ruleset: Ruleset,
    /// The `--setup` position file the game started from, if any.
    pub setup: Option<String>,
    /// sha256 of the seed, published before any order.
    pub seed_commitment: String,
    /// The moderator's public key, `ed25519:<hex>`.
    pub key: String,
    /// The first phase's deadline (RFC 3339).
    pub deadline: Option<String>,
    /// Each later deadline is this many seconds after the previous resolve.
    pub deadline_every: Option<u64>,
    /// The missed-order policy: hold, repeat or bot.
    pub nmr: String,
    /// Missed phases in a row after which a player drops out (0: never).
    pub drop_after: u32,
    /// The moderator's mail address: the From of herald's mails.
    pub moderator: Option<String>,
    pub initial: Value,
    pub initial_sha256: String,
    /// Set when the game was converted from an older format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub converted: Option<Converted>,
    /// The press rules `new` chose (format 3; absent: no press, or a game
    /// begun before they were bound here, whose rules are in
    /// `press/rules.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<PressRules>,
    /// Set when `herald convert` took the players' addresses out of a game
    /// file of an older format (format 5): what the genesis was before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<Redacted>,
    /// The seats herald's bots play (format 6, [`BOTS_FORMAT`]): player id
    /// to the bot's spec as the lab names it (`mcts:1000`, `greedy`, …).
    /// A bot seat has no password ([`BOT_PASSWORD`]) and no address; at
    /// each phase it awaits, its orders are made from its view alone
    /// (`pipeline::nmr::bot_seat`). Absent: every seat is a person's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots: BTreeMap<String, String>,
    /// The sides each player asked for at a lobby's table (`join TABLE
    /// prefer SIDE,…`; format 7, [`PREFERENCES_FORMAT`]): player id to
    /// their list, best first, as the deal read them; the seats are that
    /// deal with the game's seed (docs/host.md, "Seat preferences"), which
    /// `herald verify` deals again. Absent: nobody stated one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub preferences: BTreeMap<String, Vec<String>>,
}

/// The format that added a genesis's `bots` and an order record's `bot`.
pub const BOTS_FORMAT: u32 = 6;

/// The format that added a genesis's `preferences`.
pub const PREFERENCES_FORMAT: u32 = 7;

/// The `password` of a bot seat: empty, which no password matches and
/// no hash herald makes is.
pub const BOT_PASSWORD: &str = "";

impl Genesis {
    /// The spec of the bot playing `player`'s seat, if a bot does.
    pub fn bot(&self, player: &str) -> Option<&str> {
        self.bots.get(player).map(String::as_str)
    }
}

/// A genesis whose players' addresses `herald convert` replaced by
/// commitments (format 5). The entries after it are the old file's, body
/// for body; only their links and signatures are new. The old chain's
/// hashes follow from `genesis` and the bodies, so that every receipt and
/// witness a player kept from before still names an entry
/// (`Record::old_hashes`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Redacted {
    /// The format of the genesis before (the game's first format).
    pub from_format: u32,
    /// The hash of the genesis entry before: the genesis with
    /// `from_format` as its format, each player's address where this one
    /// has its `address_sha256`, and no `redacted`. Checked with the
    /// addresses (`secrets.toml`); without them it is the moderator's word.
    pub genesis: String,
    /// How many entries the log held (the genesis included): the hashes
    /// before the conversion are those of entries 0 to `entries - 1`.
    pub entries: u64,
}

/// The press kinds a game may choose at `new`.
pub const PRESS_KINDS: [&str; 4] = ["none", "public", "private", "grey"];
/// What a game's `reveal` may say.
pub const PRESS_REVEALS: [&str; 2] = ["end", "never"];

/// Which press (messages between players, relayed by the host) a game
/// allows, and when (docs/host.md, "Press").
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PressRules {
    /// `none`, `public` (to all only), `private` (to any players) or
    /// `grey` (private, and anonymous allowed).
    pub kind: String,
    /// Press is allowed after the turn's deadline has passed, while the
    /// turn waits to be resolved.
    pub while_resolving: bool,
    /// Press is allowed after the game has ended.
    pub after_end: bool,
    /// `end`: an archive made for the public after the game may include
    /// the press; `never`: it never does.
    pub reveal: String,
}

/// One press message relayed: what the log proves of it. Its text is in
/// the game folder only (`press/<id>.json`); `text_sha256` is salted with
/// a nonce the recipients get, so a short text cannot be guessed from the
/// published log.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PressEntry {
    /// 1, 2, 3 … in this game.
    pub n: u32,
    /// 32 hex digits: the press file's name.
    pub id: String,
    /// The turn the game waited for.
    pub turn: u32,
    /// The sender; absent for anonymous (grey) press.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Anonymous press of formats 3 and 4: sha256 over the nonce and the
    /// sender's id. Its recipients get the nonce, so any of them names the
    /// sender by trying every player id: never written from format 5 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_sha256: Option<String>,
    /// Anonymous press (format 5): `lines("herald/press sender", opening,
    /// sender's id)`, the opening (64 hex digits) a secret of the
    /// moderator's that no recipient gets ([`crate::pipeline::press`]);
    /// revealed only where the game's rules say (`reveal = end`, once the
    /// game is over). docs/trust.md, "Anonymous press".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender_commitment: Option<String>,
    pub to: Vec<String>,
    /// sha256 of `herald/press`, the nonce and the text, one a line.
    pub text_sha256: String,
    pub at: String,
}

/// A seat changed hands (format 3): a replacement took it over. The new
/// holder's address is not in the entry: only `holder_sha256`. In formats
/// 3 and 4 it is sha256 of `herald/seat`, `salt` and the address in
/// lowercase, one a line (`canon::sha256_lines`), the salt in the entry,
/// which the head's address for the player must match; from format 5 on
/// the salt is secret (in `secrets.toml`, not in the entry) and
/// `holder_sha256` is [`address_sha256`]. The new password only as its
/// hash, as in `passwd`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SeatChange {
    pub player: String,
    /// The new holder's display name (the player's `name` from now on).
    pub name: String,
    /// Why the seat was freed: `dropped` (the game's drop rule) or
    /// `replaced` (the moderator, `herald host replace`).
    pub why: String,
    /// The turn from which the new holder plays the seat.
    pub turn: u32,
    /// 32 hex digits: formats 3 and 4 only (public, so a guessed address
    /// can be tested against `holder_sha256`); absent from format 5 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    pub holder_sha256: String,
    /// The new password's hash (Argon2id PHC string).
    pub password: String,
    pub at: String,
}

impl SeatChange {
    /// The entry's `salt` and `holder_sha256` for a new holder at
    /// `address`, bound with `salt` in a game file of format `format`: the
    /// salt in the entry and [`SeatChange::holder`] in formats 3 and 4; no
    /// salt (it stays in `secrets.toml`) and [`address_sha256`] from
    /// format 5 on.
    pub fn bind(format: u32, salt: &str, address: &str) -> (Option<String>, String) {
        if format >= ADDRESS_FORMAT {
            (None, address_sha256(salt, address))
        } else {
            (Some(salt.to_string()), SeatChange::holder(salt, address))
        }
    }

    /// sha256 of `herald/seat`, the salt and the address in lowercase, one
    /// a line: what the entry keeps of the new holder's address.
    pub fn holder(salt: &str, address: &str) -> String {
        crate::chain::canon::sha256_lines(&[
            b"herald/seat",
            salt.as_bytes(),
            address.to_ascii_lowercase().as_bytes(),
        ])
    }
}

/// A player's absence (format 3): `vacation … until` granted, or ended
/// early by `back`. The reason a player gave is never recorded.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Vacation {
    pub player: String,
    /// The end of the absence (RFC 3339); for `back`, when they came back.
    pub until: String,
    /// Formats 3 to 6: whole days charged to the player's allowance; for
    /// `back`, the whole days given back. Absent from the entries a
    /// format-7 game writes, which hold `length` and `unit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Format 7: what is charged (for `back`, given back) in `unit`s,
    /// the unit the player asked (`chain::rules::VACATION_UNITS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// Format 7: `minute`, `hour` or `day`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Set on the entry of a `back`.
    pub back: bool,
    /// The turn the game waited for.
    pub turn: u32,
    pub at: String,
}

/// A player resigned (format 6): `resign` by mail (or the game's own
/// word, `concede`), at any time while the game runs. The state after it
/// is the game's own ([`crate::games::Game::resign`]): in a two-player
/// game the other side wins; in Norse Wars with three or more the player
/// leaves and the others play on (games/norse-wars.md).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Resign {
    pub player: String,
    /// The turn the game waited for.
    pub turn: u32,
    /// What the resignation did, as the game's events.
    pub events: Vec<Value>,
    /// sha256 of the state after it.
    pub state_sha256: String,
    pub at: String,
}

/// A draw offered, accepted or declined (format 6; docs/host.md, "Resign
/// and draw"). The accept that makes every player still in agree ends the
/// game: that entry alone carries the state after it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DrawEntry {
    pub player: String,
    /// `offer`, `accept` or `decline`.
    pub act: String,
    /// The turn the game waited for.
    pub turn: u32,
    /// Set on the accept that ended the game: the game's events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<Value>>,
    /// Set on the accept that ended the game: sha256 of the state after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_sha256: Option<String>,
    pub at: String,
}

/// The acts a `draw` entry records.
pub const DRAW_ACTS: [&str; 3] = ["offer", "accept", "decline"];

/// What `herald convert` could carry over, and what it could not prove.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Converted {
    pub from_format: u32,
    /// The old file's own chain head, to compare with copies of it.
    pub old_head: String,
    /// The old file's sha256.
    pub old_sha256: String,
    pub at: String,
    /// What the old format did not protect, said plainly.
    pub unproven: Vec<String>,
}

/// One order file as the log keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OrderRecord {
    pub player: String,
    /// The order file as received, with the password's value removed.
    pub text: String,
    /// sha256 of `text`: what the player's receipt names.
    pub sha256: String,
    /// The orders as herald read them (each in the game's own notation);
    /// the phase's dice are drawn from these. Absent in phases played by
    /// herald 0.1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read: Vec<String>,
    /// Set when herald stood in for a player who sent nothing by the
    /// deadline: the missed-order policy applied (`hold`, `repeat`, `bot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nmr: Option<String>,
    /// Set on the orders of a bot seat (format 6): the spec of the bot
    /// that made them, the genesis's `bots` entry for the player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// When the mail carrying the file was sent (its Date).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
}

/// One die rolled while resolving a phase.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub sides: u32,
    pub value: u32,
    /// What the roll decided, in words ("attack on 0915: die 4 …").
    pub what: String,
    /// The players who may see it; absent: everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Vec<String>>,
}

/// A resolved phase.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// The turn the orders were for.
    pub turn: u32,
    pub phase: String,
    pub orders: Vec<OrderRecord>,
    /// How the phase's dice were derived: 2 from the seed and the orders
    /// (docs/trust.md), 1 from the seed alone (games begun by herald 0.1).
    pub dice: u32,
    pub rolls: Vec<Roll>,
    pub events: Vec<Value>,
    /// Players who dropped out after this phase (too many missed orders).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// Players away on vacation for whom a stand-in played this phase
    /// without it counting as missed (a host table's `--vacation
    /// stand-in`; docs/host.md, "Vacations"). Absent when none: files
    /// written before it read as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excused: Vec<String>,
    pub state_sha256: String,
    pub resolved_at: String,
    /// The deadline this phase had.
    pub deadline: Option<String>,
}

/// A player's password changed (`herald passwd`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Passwd {
    pub player: String,
    pub password: String,
    pub at: String,
}

/// The current phase's deadline set or cleared (`herald deadline`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DeadlineSet {
    pub deadline: Option<String>,
    pub at: String,
}

/// The seed, revealed once the game is over.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Reveal {
    pub seed: String,
    pub at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum Body {
    Genesis(Genesis),
    Phase(Phase),
    Passwd(Passwd),
    Deadline(DeadlineSet),
    Reveal(Reveal),
    /// A press message relayed (format 3).
    Press(PressEntry),
    /// A seat changed hands (format 3).
    Seat(SeatChange),
    /// A player's vacation (format 3).
    Vacation(Vacation),
    /// A player resigned (format 6).
    Resign(Resign),
    /// A draw offered, accepted or declined (format 6).
    Draw(DrawEntry),
}

impl Body {
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Genesis(_) => "genesis",
            Body::Phase(_) => "phase",
            Body::Passwd(_) => "passwd",
            Body::Deadline(_) => "deadline",
            Body::Reveal(_) => "reveal",
            Body::Press(_) => "press",
            Body::Seat(_) => "seat",
            Body::Vacation(_) => "vacation",
            Body::Resign(_) => "resign",
            Body::Draw(_) => "draw",
        }
    }
}

/// One player's missed orders, kept in the head record and shown in
/// every report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Missed {
    pub player: String,
    pub total: u32,
    pub in_a_row: u32,
    pub dropped: bool,
}

impl Missed {
    /// Every player's record as a game begins: nothing missed.
    pub fn none_yet(players: &[Player]) -> Vec<Missed> {
        players
            .iter()
            .map(|p| Missed {
                player: p.id.clone(),
                total: 0,
                in_a_row: 0,
                dropped: false,
            })
            .collect()
    }
}
