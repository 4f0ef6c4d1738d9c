use crate::error::Result;
use crate::pipeline::{self, NewGame};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset to play (see `herald games`).
    #[arg(value_name = "RULESET", value_parser = super::values::rulesets_listed())]
    pub game: String,
    /// Player ids in seat order, comma-separated: red,blue
    #[arg(long, value_delimiter = ',', required = true)]
    pub players: Vec<String>,
    /// The seed (default: 32 random bytes from the operating system).
    #[arg(long)]
    pub seed: Option<String>,
    /// A game option, key=value; repeat for more.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Start from a position file instead of the standard setup.
    #[arg(long)]
    pub setup: Option<PathBuf>,
    /// A modified copy of the game's ruleset.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The game id (default: game, date and a few hex digits).
    #[arg(long)]
    pub id: Option<String>,
    /// The game folder to create (it must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Sign with this key (made by `herald keygen`) instead of a new one;
    /// it is copied into the game folder as moderator.key.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The time to record as the game's creation (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// A deadline for every phase, this long after the previous one was
    /// resolved (the first after `new`): e.g. 72h, 3d, 90m, 1h30m.
    #[arg(long)]
    pub deadline_every: Option<String>,
    /// The first phase's deadline: a time (RFC 3339 with its offset) or a
    /// span from now (+48h); later ones by --deadline-every or `herald deadline`.
    #[arg(long)]
    pub deadline: Option<String>,
    /// What a player who misses the deadline gets (default: the game's
    /// own; `herald games` lists the ones each game offers).
    #[arg(long, value_parser = super::values::nmr())]
    pub nmr: Option<String>,
    /// Missed phases in a row before a player drops out (0: never).
    #[arg(long, default_value_t = pipeline::DEFAULT_DROP_AFTER)]
    pub drop_after: u32,
    /// The moderator's address: the From of replies and report mails.
    #[arg(long)]
    pub moderator: Option<String>,
    /// A player's mail address, player=address; repeat for more.
    #[arg(long = "email")]
    pub emails: Vec<String>,
    /// A player's time zone, player=zone (an IANA name such as
    /// Europe/Berlin): their reports show the deadline in it too; repeat
    /// for more. Kept private in the secrets file.
    #[arg(long = "tz")]
    pub zones: Vec<String>,
    /// A player's display name, player=name (e.g. red=Ann): reports, press
    /// and the replay site show it beside the id ("red (Ann)"); repeat for
    /// more. Without it a player is named by the id alone.
    #[arg(long = "name", value_name = "PLAYER=NAME")]
    pub names: Vec<String>,
    /// A seat herald's bot plays, seat=bot (e.g. blue=mcts:1000): the
    /// bot makes its orders from its view at each phase; it has no
    /// password and gets no mail. Repeat for more.
    #[arg(long = "bot", value_name = "SEAT=BOT")]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub press: PressArgs,
    /// Hash the passwords with Argon2id's lightest cost, so checking one is
    /// instant: for test, demo and practice games only. A real game keeps
    /// the default cost, which makes guessing a password from a stolen
    /// game folder slow.
    #[arg(long)]
    pub light_passwords: bool,
}

/// Long (about 85 lines): one call to `create`, then what it made told a
/// line a fact, in the order printed.
pub fn run(a: Args) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let c = pipeline::create(NewGame {
        game: a.game,
        rules: a.rules,
        players: a.players,
        seed: a.seed,
        options: a.options,
        setup: a.setup,
        id: a.id,
        out: a.out.clone(),
        key: a.key,
        now,
        secrets_from_seed: false,
        light_passwords: a.light_passwords,
        mail: pipeline::MailSettings {
            deadline_every: a.deadline_every,
            deadline: a.deadline,
            nmr: a.nmr,
            drop_after: Some(a.drop_after),
            moderator: a.moderator,
            emails: a.emails,
            zones: a.zones,
            press: a.press.into(),
            bots: a.bots,
            preferences: Default::default(),
            names: a.names,
        },
    })?;
    let h = &c.head;
    let mut s = format!(
        "created the game folder {} ({}), game id {}\n",
        a.out.display(),
        h.game,
        h.id
    );
    for n in &c.notes {
        s.push_str(&format!("  {n}\n"));
    }
    s.push_str(&format!("seed commitment: {}\n", h.seed_commitment));
    if let Some(d) = &h.deadline {
        s.push_str(&format!("first deadline: {}\n", crate::time::shown(d)));
    }
    s.push_str(&format!(
        "missed orders: policy {}, drop-out after {}\n",
        h.nmr,
        match h.drop_after {
            0 => "never".to_string(),
            n => format!("{n} in a row"),
        }
    ));
    for (p, b) in &c.bots {
        s.push_str(&format!(
            "bot seat: {p}, played by the bot `{b}` from its view (no password, no mail)\n"
        ));
    }
    if let Some(r) = &c.press {
        s.push_str(&format!("press: {}\n", pipeline::press::describe(r)));
    }
    s.push_str(
        "passwords (shown once; also in the secrets file — give each player only their own):\n",
    );
    for (p, pw) in &c.passwords {
        s.push_str(&format!("  {p}: {pw}\n"));
    }
    s.push_str(&format!(
        "secrets: {} (the seed and these passwords; mode 0600)\nkey: {} (the moderator's signing key, {}; mode 0600)\n",
        c.dir.secrets().display(),
        c.dir.key().display(),
        h.key
    ));
    s.push_str(&format!(
        "reports: {} files, e.g. {}\n",
        c.reports.len(),
        c.reports
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    ));
    s.push_str(&format!(
        "awaiting orders from: {}\n",
        h.awaiting.join(", ")
    ));
    Ok(s)
}

/// The press flags, the same for a game (`herald new`) and for a table's
/// game (`herald host open`).
#[derive(clap::Args, Debug)]
pub struct PressArgs {
    /// Press (players writing to each other through the host): none,
    /// public (to all only), private (to any players) or grey (private, and
    /// anonymous allowed). Without it the game has no press.
    #[arg(long, value_parser = super::values::press_kinds())]
    pub press: Option<String>,
    /// Press allowed after a turn's deadline while it waits to be resolved
    /// (default yes).
    #[arg(long, value_parser = super::values::yes_no())]
    pub press_while_resolving: Option<String>,
    /// Press allowed after the game has ended (default yes).
    #[arg(long, value_parser = super::values::yes_no())]
    pub press_after_end: Option<String>,
    /// Whether an archive for the public after the game may include the
    /// press texts: at the end, or never (default never).
    #[arg(long, value_parser = super::values::press_reveals())]
    pub press_reveal: Option<String>,
}

impl From<PressArgs> for pipeline::press::Settings {
    fn from(a: PressArgs) -> Self {
        pipeline::press::Settings {
            kind: a.press,
            while_resolving: a.press_while_resolving,
            after_end: a.press_after_end,
            reveal: a.press_reveal,
        }
    }
}
