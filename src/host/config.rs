//! The host's configuration: `DIR/host.toml` (no secrets in it) and the
//! passwords in `DIR/host.secrets.toml` beside it, which must be readable by
//! its owner only (mode 0600). `docs/host.md` has a documented example.

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

use super::layout::HostDir;
pub use super::layout::{CONFIG_FILE, DEFAULT_LOG, SECRETS_FILE};
/// Password checks per player per hour for mails from other addresses
/// than the player's own, when the file names no budget.
pub const DEFAULT_PASSWORD_CHECKS: u32 = 20;
/// Press mails a player may send a day (docs/host.md, "Press").
pub const DEFAULT_PRESS_PER_DAY: u32 = 30;
/// The longest press text relayed (bytes).
pub const DEFAULT_PRESS_MAX_BYTES: u64 = 8192;
/// Replies to one address in any hour when the file names no bound
/// (docs/host.md, "Replies to one address").
pub const DEFAULT_REPLIES_PER_HOUR: u32 = 10;
/// Seats one address may hold in one game when neither the table nor the
/// file says otherwise: one person, one seat.
pub const DEFAULT_SEATS_PER_ADDRESS: u32 = 1;
/// Polling interval of `--watch` when the file names none.
pub const DEFAULT_POLL: u64 = 300;
/// Reminders before a deadline when the file names none: 24 h and 2 h.
pub const DEFAULT_REMINDERS: [u64; 2] = [24 * 3600, 2 * 3600];
/// Largest mail the host downloads when the file names no limit. Order
/// mails are a few kilobytes; 2 MiB leaves room for an attached order file
/// and a quoted report.
pub const DEFAULT_MAX_MAIL_BYTES: u64 = 2 * 1024 * 1024;

/// What a key of host.toml (or host.secrets.toml) is when the file does
/// not give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Omitted {
    /// The file must give it.
    Required,
    /// Nothing: the feature is off, or the value comes from elsewhere.
    Unset,
    /// This TOML value: writing it gives the same host as leaving the key
    /// out (tests/it/unit/host_config.rs checks every one).
    Value(&'static str),
    /// Depends on another key; in words.
    Words(&'static str),
}

/// One key of host.toml: the section it belongs in (`""` for the top,
/// `secrets` for host.secrets.toml), its default and what it does.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub section: &'static str,
    pub name: &'static str,
    pub default: Omitted,
    /// A value the parser accepts, as TOML.
    pub example: &'static str,
    pub about: &'static str,
}

const fn key(
    section: &'static str,
    name: &'static str,
    default: Omitted,
    example: &'static str,
    about: &'static str,
) -> Key {
    Key {
        section,
        name,
        default,
        example,
        about,
    }
}

use Omitted::{Required, Unset, Value, Words};

/// Every key of host.toml and host.secrets.toml: the parser refuses any
/// other key (naming the nearest), `herald man` writes this table into
/// herald-host(1)'s FILES, tests/it/unit/host_config.rs checks that each
/// default written out gives the host that leaving it out gives, and
/// tests/it/docs.rs finds every key in herald-host(1) and docs/host.md.
pub const KEYS: &[Key] = &[
    key("", "address", Required, "\"herald@example.org\"", "The host's address: players write to herald+GAMEID@example.org (plus-addressing)."),
    key("", "poll", Value("\"5m\""), "\"2m\"", "--watch: the time between passes (\"30s\", \"5m\", \"1h\")."),
    key("", "reminders", Value("[\"24h\", \"2h\"]"), "[\"12h\"]", "Reminders to players whose orders are missing, this long before the deadline."),
    key("", "max_mail_bytes", Value("2097152"), "1048576", "Mails larger than this (bytes) are not downloaded, only refused; at least 1024."),
    key("", "attach_png", Value("true"), "false", "Report mails carry the board as a PNG; false leaves it out."),
    key("", "log", Value("\"host.log\""), "\"herald.log\"", "The log file, relative to DIR; \"\" for none."),
    key("", "log_stderr", Words("true when log = \"\", else false"), "true", "Log lines also go to standard error."),
    key("", "password_checks_per_hour", Value("20"), "5", "Per player, the password checks an hour mails may cost (counted apart for the player's own address and any other); at least 1."),
    key("", "authserv_ids", Value("[]"), "[\"mx.example.org\"]", "The authserv-ids of this host's receiving server (RFC 8601) whose Authentication-Results are believed; none: every From is a claim."),
    key("", "replies_per_hour", Value("10"), "20", "Replies to one address in any hour that no password or code earned; past it they are held back; at least 1."),
    key("", "seats_per_address", Value("1"), "2", "Seats one address may hold in one game, for games whose table does not say; at least 1."),
    key("", "press_per_day", Value("30"), "10", "Per player, press mails relayed in any 24 hours."),
    key("", "press_max_bytes", Value("8192"), "4096", "The longest press text relayed (bytes), 1 to 65536."),
    key("", "public_mode", Value("\"private\""), "\"group\"", "Who may read the pages herald writes (index.html, index.json, tables.html, gallery/): \"private\" (the host's user, 0600), \"group\" (also its group, 0640: a web server in it) or \"world\" (tables.html and the gallery 0644; index.html and index.json, which hold players' addresses, stay 0640)."),
    key("", "web_url", Unset, "\"https://play.example.org\"", "Where players reach `herald serve` (http:// or https://): each report mail carries the link to the player's game page there, and it is herald serve's --url when none is given."),
    key("", "moderator", Unset, "\"you@example.org\"", "The moderator's own address, told by mail of a password-guessing flood."),
    key("imap", "server", Required, "\"imap.example.org\"", "Mail in by IMAP: the server's host name."),
    key("imap", "security", Required, "\"tls\"", "\"tls\", \"starttls\" or \"plain\" (a server on this machine only)."),
    key("imap", "port", Words("993 with tls, else 143"), "993", "The server's port."),
    key("imap", "user", Required, "\"herald@example.org\"", "The login; its password is imap_password in host.secrets.toml."),
    key("imap", "mailbox", Value("\"INBOX\""), "\"Games\"", "The mailbox read for new mail."),
    key("imap", "ca_file", Unset, "\"ca.pem\"", "A PEM file of extra certificates to trust (relative to DIR), beside the system's."),
    key("imap", "timeout", Value("60"), "30", "Seconds a connect, read or write may take."),
    key("maildir", "path", Required, "\"Maildir\"", "Mail in from a local Maildir instead of [imap] (relative to DIR)."),
    key("smtp", "server", Required, "\"smtp.example.org\"", "Mail out by SMTP submission: the server's host name."),
    key("smtp", "security", Required, "\"starttls\"", "\"tls\", \"starttls\" or \"plain\" (a server on this machine only)."),
    key("smtp", "port", Words("465 with tls, else 587"), "587", "The server's port."),
    key("smtp", "user", Required, "\"herald@example.org\"", "The login; its password is smtp_password in host.secrets.toml."),
    key("smtp", "ca_file", Unset, "\"ca.pem\"", "As for [imap]."),
    key("smtp", "timeout", Value("60"), "30", "As for [imap]."),
    key("secrets", "imap_password", Words("required with [imap]"), "\"...\"", "In host.secrets.toml (mode 0600): the IMAP password."),
    key("secrets", "smtp_password", Required, "\"...\"", "In host.secrets.toml (mode 0600): the SMTP password."),
];

/// Who may read the pages herald writes for a web server (host.toml's
/// `public_mode`): the status page, the lobby's page and the gallery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PublicMode {
    /// The host's user only (files 0600, folders 0700), like every other
    /// file herald writes.
    #[default]
    Private,
    /// Also the host's group (0640, 0750): a web server in that group.
    Group,
    /// Everyone for the pages that hold no address (tables.html, the
    /// gallery: 0644, 0755); the status page stays 0640.
    World,
}

impl PublicMode {
    /// The mode of a page, `addresses` when it holds players' addresses
    /// (index.html, index.json).
    pub fn file(self, addresses: bool) -> u32 {
        match (self, addresses) {
            (PublicMode::Private, _) => 0o600,
            (PublicMode::Group, _) | (PublicMode::World, true) => 0o640,
            (PublicMode::World, false) => 0o644,
        }
    }
    /// The mode of a folder of pages (the gallery and its sites).
    pub fn folder(self) -> u32 {
        match self {
            PublicMode::Private => 0o700,
            PublicMode::Group => 0o750,
            PublicMode::World => 0o755,
        }
    }
    /// host.toml's `public_mode` alone, for a command that needs no
    /// server (`herald site --host DIR`): the default when the file is
    /// missing, an error when it gives a bad one.
    pub fn of_host(dir: &Path) -> Result<PublicMode> {
        let path = HostDir::at(dir).config();
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(PublicMode::default());
        };
        let t: toml::Table = toml::from_str(&text)
            .map_err(|e| Error::refused(format!("{}: {e}", path.display())))?;
        match t.get("public_mode") {
            None => Ok(PublicMode::default()),
            Some(v) => v.clone().try_into().map_err(|_| {
                Error::refused(format!(
                    "{}: `public_mode = {v}`: give \"private\", \"group\" or \"world\"",
                    path.display()
                ))
            }),
        }
    }
}

/// A password from the secrets file. Its `Debug` hides it, so no log line,
/// error or panic message can show it by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// How a connection to a mail server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS/submissions 465).
    Tls,
    /// Plain first, then STARTTLS before anything secret is sent (IMAP
    /// 143, submission 587). Refused if the server does not offer it.
    Starttls,
    /// No encryption: only to a server on the loopback interface.
    Plain,
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub server: String,
    pub port: u16,
    pub security: Security,
    pub user: String,
    pub password: Secret,
    /// A PEM file of extra certificates to trust (a server with a
    /// self-signed certificate); the system's trusted roots are used too.
    pub ca_file: Option<PathBuf>,
    /// Seconds a connect, read or write may take.
    pub timeout: u64,
}

#[derive(Debug, Clone)]
pub struct ImapConfig {
    pub server: ServerConfig,
    /// The mailbox read for new mail (`INBOX` unless the file says).
    pub mailbox: String,
}

#[derive(Debug, Clone)]
pub enum SourceConfig {
    Imap(ImapConfig),
    /// A local Maildir (the folder holding `cur/ new/ tmp/`).
    Maildir(PathBuf),
}

/// The host's mail address, split for plus-addressing:
/// `herald@example.org` receives `herald+GAMEID@example.org`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostAddress {
    pub local: String,
    pub domain: String,
}

impl HostAddress {
    pub fn parse(s: &str) -> Option<HostAddress> {
        let (local, domain) = s.trim().rsplit_once('@')?;
        let ok = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        };
        (ok(local) && ok(domain)).then(|| HostAddress {
            local: local.to_string(),
            domain: domain.to_ascii_lowercase(),
        })
    }
    pub fn plain(&self) -> String {
        format!("{}@{}", self.local, self.domain)
    }
    /// `local+game@domain`: where players write for `game`.
    pub fn for_game(&self, game: &str) -> String {
        format!("{}+{game}@{}", self.local, self.domain)
    }
    /// The tag of `local+TAG@domain` if `addr` is one of the host's plus
    /// addresses (local part compared case-insensitively, as most servers
    /// do); `None` for the plain address or a stranger's.
    pub fn tag_of<'a>(&self, addr: &'a str) -> Option<&'a str> {
        let (local, domain) = addr.trim().rsplit_once('@')?;
        let (base, tag) = local.split_once('+')?;
        (base.eq_ignore_ascii_case(&self.local)
            && domain.eq_ignore_ascii_case(&self.domain)
            && !tag.is_empty())
        .then_some(tag)
    }
}

/// What the host believes of a mail's sender, and how much it answers
/// (docs/host.md, "A From header is a claim").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trust {
    /// The authserv-ids of the host's own receiving server (RFC 8601):
    /// the topmost `Authentication-Results` field naming one is believed
    /// (`host::sender`). Empty: every From is a claim.
    pub authserv_ids: Vec<String>,
    /// Replies to one address in any hour; past it the host holds the
    /// rest back (`host::replies`).
    pub replies_per_hour: u32,
    /// Seats one address may hold in one game, for games whose table
    /// does not say (`--seats-per-address`).
    pub seats_per_address: u32,
}

impl Default for Trust {
    fn default() -> Trust {
        Trust {
            authserv_ids: Vec::new(),
            replies_per_hour: DEFAULT_REPLIES_PER_HOUR,
            seats_per_address: DEFAULT_SEATS_PER_ADDRESS,
        }
    }
}

#[derive(Debug, Clone)]
pub struct HostConfig {
    /// DIR: the folder holding host.toml and one folder per game.
    pub dir: PathBuf,
    pub address: HostAddress,
    pub source: SourceConfig,
    pub smtp: ServerConfig,
    /// Seconds between passes of `--watch`.
    pub poll: u64,
    /// Seconds before a deadline at which players with missing orders are
    /// reminded, largest first.
    pub reminders: Vec<u64>,
    /// Mails larger than this are not downloaded: they are refused.
    pub max_mail_bytes: u64,
    /// Report mails carry the board as PNG beside its SVG (default). A War
    /// of the Dukes map is about 1.2 MB of PNG per player per turn.
    pub attach_png: bool,
    /// The log file (in DIR unless absolute); `None` when `log = ""`.
    pub log_file: Option<PathBuf>,
    /// Log lines also go to standard error.
    pub log_stderr: bool,
    /// Per player, how many password checks an hour mails from other
    /// addresses than the player's own may cost (docs/host.md, "Guessing
    /// passwords"); past it they are answered once without hashing.
    pub password_checks_per_hour: u32,
    /// The moderator's own address, told of a password-guessing flood
    /// (also logged and on the status page). `None`: not mailed.
    pub moderator: Option<String>,
    /// Per player, press mails relayed in any 24 hours.
    pub press_per_day: u32,
    /// The longest press text relayed, in bytes (at most 64 KiB).
    pub press_max_bytes: u64,
    /// Whose From is believed, replies per address, seats per address.
    pub trust: Trust,
    /// Who may read the pages: index.html, index.json, tables.html and
    /// the gallery.
    pub public_mode: PublicMode,
    /// Where players reach `herald serve` (no trailing `/`): report mails
    /// carry the link to each player's game page there. None: no link.
    pub web_url: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    address: Spanned<String>,
    poll: Option<Spanned<String>>,
    reminders: Option<Vec<Spanned<String>>>,
    max_mail_bytes: Option<u64>,
    attach_png: Option<bool>,
    log: Option<String>,
    log_stderr: Option<bool>,
    password_checks_per_hour: Option<u32>,
    moderator: Option<Spanned<String>>,
    press_per_day: Option<u32>,
    press_max_bytes: Option<u64>,
    authserv_ids: Option<Vec<Spanned<String>>>,
    replies_per_hour: Option<u32>,
    seats_per_address: Option<u32>,
    public_mode: Option<Spanned<String>>,
    web_url: Option<Spanned<String>>,
    imap: Option<Spanned<RawServer>>,
    maildir: Option<Spanned<RawMaildir>>,
    smtp: Spanned<RawServer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    server: Spanned<String>,
    port: Option<u16>,
    security: Spanned<Security>,
    user: String,
    mailbox: Option<Spanned<String>>,
    ca_file: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMaildir {
    path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecrets {
    imap_password: Option<String>,
    smtp_password: Option<String>,
}

/// "line N" of a byte offset in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Every key of `text` (host.toml, or the secrets file when `section` is
/// `secrets`) is one of [`KEYS`], in its section: else an error naming the
/// line and the nearest key. Values are not read here.
fn check_keys(path: &Path, text: &str, secrets: bool) -> Result<()> {
    let Ok(table) = toml::from_str::<toml::Table>(text) else {
        return Ok(()); // the parser's own error says what is wrong
    };
    let known =
        |section: &str, name: &str| KEYS.iter().any(|k| k.section == section && k.name == name);
    let mut found: Vec<(String, String)> = Vec::new();
    for (k, v) in &table {
        match v {
            toml::Value::Table(t) if !secrets => {
                if !KEYS.iter().any(|x| x.section == k) || k == "secrets" {
                    found.push((String::new(), k.clone()));
                    continue;
                }
                found.extend(t.keys().map(|n| (k.clone(), n.clone())));
            }
            _ => found.push((if secrets { "secrets" } else { "" }.to_string(), k.clone())),
        }
    }
    for (section, name) in found {
        if known(&section, &name) {
            continue;
        }
        // Sections are named as keys of the top.
        let is_section = section.is_empty() && table.get(&name).is_some_and(|v| v.is_table());
        let choices: Vec<String> = if is_section {
            let mut s: Vec<String> = KEYS
                .iter()
                .filter(|k| !k.section.is_empty() && k.section != "secrets")
                .map(|k| k.section.to_string())
                .collect();
            s.dedup();
            s
        } else {
            KEYS.iter()
                .filter(|k| k.section == section)
                .map(|k| k.name.to_string())
                .collect()
        };
        let line = text
            .lines()
            .position(|l| {
                let l = l.trim_start().trim_start_matches('[').trim_start();
                l.strip_prefix(name.as_str())
                    .is_some_and(|r| r.trim_start().starts_with(['=', ']']))
            })
            .map(|i| format!(", line {}", i + 1))
            .unwrap_or_default();
        let what = match (is_section, section.as_str()) {
            (true, _) => "a section of".to_string(),
            (false, "") => "a key of".to_string(),
            (false, "secrets") => "a key of".to_string(),
            (false, s) => format!("a key of [{s}] in"),
        };
        let file = if secrets { SECRETS_FILE } else { CONFIG_FILE };
        let near = choices
            .iter()
            .filter(|c| crate::orders::distance(&name.to_ascii_lowercase(), c) <= 2)
            .min_by_key(|c| crate::orders::distance(&name.to_ascii_lowercase(), c));
        let hint = match near {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!("the ones there: {}", choices.join(", ")),
        };
        return Err(Error::refused(format!(
            "{}{line}: `{name}` is not {what} {file}; {hint} (docs/host.md, \"Configuration\"; herald-host(1), FILES)",
            path.display()
        )));
    }
    Ok(())
}

/// Durations in host.toml: a number and a unit, `30s`, `5m`, `2h`, `1d`.
fn duration(s: &str) -> Option<u64> {
    crate::time::parse_span(s).ok()
}

pub(crate) fn is_loopback(server: &str) -> bool {
    server.eq_ignore_ascii_case("localhost")
        || server
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The secrets file must not be readable or writable by group or others.
pub fn check_secrets_mode(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(Error::refused(format!(
            "{}: holds passwords but is readable by others (mode {mode:04o}); \
             make it readable by its owner only: chmod 600 {}",
            path.display(),
            path.display()
        )));
    }
    Ok(())
}

impl HostConfig {
    /// Read `DIR/host.toml` and `DIR/host.secrets.toml`.
    pub fn load(dir: &Path) -> Result<HostConfig> {
        let host = HostDir::at(dir);
        let path = host.config();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Error::refused(format!(
                "{}: {} (a host folder holds host.toml; see docs/host.md for an example)",
                path.display(),
                crate::error::io_words(&e)
            ))
        })?;
        let spath = host.secrets();
        let secrets = if spath.exists() {
            check_secrets_mode(&spath)?;
            let st = std::fs::read_to_string(&spath).map_err(|e| Error::io(&spath, e))?;
            check_keys(&spath, &st, true)?;
            // The secrets file's own parse errors would quote the line,
            // password included: say where, never what.
            Some(toml::from_str::<RawSecrets>(&st).map_err(|e| {
                let at = e
                    .span()
                    .map(|s| format!(" at line {}", line_of(&st, s.start)))
                    .unwrap_or_default();
                Error::refused(format!(
                    "{}: not a valid secrets file{at}; it holds `imap_password = \"...\"` \
                     and `smtp_password = \"...\"`",
                    spath.display()
                ))
            })?)
        } else {
            None
        };
        Self::parse(dir, &path, &text, secrets.as_ref(), &spath)
    }

    /// The configuration in `text` (read from `path`, the passwords from
    /// `secrets`, read from `spath`), every value checked in the order the
    /// file's problems are told.
    ///
    /// Long (about 85 lines): one check a value of host.toml, in the order the
    /// file's problems are told, each a few lines; the longer ones are
    /// `Reading`'s methods.
    fn parse(
        dir: &Path,
        path: &Path,
        text: &str,
        secrets: Option<&RawSecrets>,
        spath: &Path,
    ) -> Result<HostConfig> {
        let f = path.display();
        let r = Reading {
            path,
            text,
            secrets,
            spath,
            host: HostDir::at(dir),
        };
        let host = &r.host;
        check_keys(path, text, false)?;
        let raw: RawConfig =
            toml::from_str(text).map_err(|e| Error::refused(format!("{f}: {e}")))?;
        let address = HostAddress::parse(raw.address.get_ref()).ok_or_else(|| {
            Error::refused(format!(
                "{}: `address = \"{}\"` is not a plain mail address like \
                 \"herald@example.org\" (players write to herald+GAMEID@example.org)",
                r.at(raw.address.span().start),
                raw.address.get_ref()
            ))
        })?;
        let poll = r.poll(&raw)?;
        let reminders = r.reminders(&raw)?;
        let max_mail_bytes = raw.max_mail_bytes.unwrap_or(DEFAULT_MAX_MAIL_BYTES);
        if max_mail_bytes < 1024 {
            return Err(Error::refused(format!(
                "{f}: `max_mail_bytes = {max_mail_bytes}` is too small for any mail (at least 1024)"
            )));
        }
        let source = r.source(&raw)?;
        if raw.smtp.get_ref().mailbox.is_some() {
            return Err(Error::refused(format!(
                "{}: [smtp] has no mailbox (that belongs in [imap])",
                r.at(raw.smtp.span().start)
            )));
        }
        let smtp = r.server(
            &raw.smtp,
            "smtp",
            secrets.and_then(|s| s.smtp_password.as_ref()),
            "smtp_password",
        )?;
        let log_file = match raw.log.as_deref() {
            None => Some(host.default_log()),
            Some("") => None,
            Some(p) => Some(host.configured(p)),
        };
        let moderator = r.moderator(&raw)?;
        let password_checks_per_hour = raw
            .password_checks_per_hour
            .unwrap_or(DEFAULT_PASSWORD_CHECKS);
        if password_checks_per_hour == 0 {
            return Err(Error::refused(format!(
                "{f}: `password_checks_per_hour = 0` would refuse every mail from another address than a player's own without reading it; give at least 1 (default {DEFAULT_PASSWORD_CHECKS})"
            )));
        }
        let press_max_bytes = raw.press_max_bytes.unwrap_or(DEFAULT_PRESS_MAX_BYTES);
        if press_max_bytes == 0 || press_max_bytes > crate::pipeline::press::MAX_TEXT as u64 {
            return Err(Error::refused(format!(
                "{f}: `press_max_bytes = {press_max_bytes}`: give a size from 1 to {} bytes (default {DEFAULT_PRESS_MAX_BYTES})",
                crate::pipeline::press::MAX_TEXT
            )));
        }
        let trust = r.trust(&raw)?;
        let public_mode = r.public_mode(&raw)?;
        let web_url = match &raw.web_url {
            None => None,
            Some(u) => Some(web_url(u.get_ref()).ok_or_else(|| {
                Error::refused(format!(
                    "{}: `web_url = {:?}` is not a web address: give the address players reach herald serve at, e.g. web_url = \"https://play.example.org\"",
                    r.at(u.span().start),
                    u.get_ref()
                ))
            })?),
        };
        Ok(HostConfig {
            web_url,
            public_mode,
            dir: dir.to_path_buf(),
            trust,
            password_checks_per_hour,
            press_per_day: raw.press_per_day.unwrap_or(DEFAULT_PRESS_PER_DAY),
            press_max_bytes,
            moderator,
            address,
            source,
            smtp,
            poll,
            reminders,
            max_mail_bytes,
            attach_png: raw.attach_png.unwrap_or(true),
            log_stderr: raw.log_stderr.unwrap_or(log_file.is_none()),
            log_file,
        })
    }
}

/// host.toml's `web_url` as the links use it (no trailing `/`), if it is
/// an http:// or https:// address with a host and nothing a link in a
/// page or a mail could not hold as it is (spaces, quotes, `<`, `>`).
fn web_url(u: &str) -> Option<String> {
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))?;
    let ok = !rest.is_empty()
        && !rest.starts_with('/')
        && u.len() <= 200
        && u.chars()
            .all(|c| c.is_ascii_graphic() && !"\"'<>\\`".contains(c));
    ok.then(|| u.trim_end_matches('/').to_string())
}

/// host.toml as it is read: where it is and what it says, for the errors'
/// file and line, and the secrets file beside it.
struct Reading<'a> {
    path: &'a Path,
    text: &'a str,
    secrets: Option<&'a RawSecrets>,
    spath: &'a Path,
    host: HostDir,
}

impl Reading<'_> {
    /// "host.toml, line N" for a value at byte `offset`.
    fn at(&self, offset: usize) -> String {
        format!(
            "{}, line {}",
            self.path.display(),
            line_of(self.text, offset)
        )
    }

    /// `poll`, or the default.
    fn poll(&self, raw: &RawConfig) -> Result<u64> {
        match &raw.poll {
            None => Ok(DEFAULT_POLL),
            Some(p) => duration(p.get_ref()).ok_or_else(|| {
                Error::refused(format!(
                    "{}: `poll = \"{}\"` is not a duration like \"30s\", \"5m\" or \"1h\"",
                    self.at(p.span().start),
                    p.get_ref()
                ))
            }),
        }
    }

    /// `reminders`, longest first, or the default.
    fn reminders(&self, raw: &RawConfig) -> Result<Vec<u64>> {
        let Some(list) = &raw.reminders else {
            return Ok(DEFAULT_REMINDERS.to_vec());
        };
        let mut out = Vec::new();
        for r in list {
            out.push(duration(r.get_ref()).ok_or_else(|| {
                Error::refused(format!(
                    "{}: reminder \"{}\" is not a duration like \"24h\" or \"90m\"",
                    self.at(r.span().start),
                    r.get_ref()
                ))
            })?);
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        Ok(out)
    }

    /// The password `key` from the secrets file (`value`).
    fn password(&self, key: &str, value: Option<&String>) -> Result<Secret> {
        match value {
            Some(p) if !p.is_empty() => Ok(Secret::new(p.clone())),
            _ => Err(Error::refused(format!(
                "{}: no `{key}`; create the file readable by you only \
                 (install -m 600 /dev/null {}) and write `{key} = \"...\"` in it",
                self.spath.display(),
                self.spath.display()
            ))),
        }
    }

    /// The `[imap]` or `[smtp]` section (`what`), its password `pw` under
    /// `key` in the secrets file.
    fn server(
        &self,
        raw: &Spanned<RawServer>,
        what: &str,
        pw: Option<&String>,
        key: &str,
    ) -> Result<ServerConfig> {
        let r = raw.get_ref();
        let name = r.server.get_ref().trim().to_string();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(Error::refused(format!(
                "{}: [{what}] server \"{name}\" is not a host name",
                self.at(r.server.span().start)
            )));
        }
        let security = *r.security.get_ref();
        if security == Security::Plain && !is_loopback(&name) {
            return Err(Error::refused(format!(
                "{}: [{what}] security = \"plain\" would send the password unencrypted \
                 to {name}; plain is allowed only to a server on this machine (127.0.0.1, \
                 ::1, localhost): use \"tls\" or \"starttls\"",
                self.at(r.security.span().start)
            )));
        }
        let port = r.port.unwrap_or(match (what, security) {
            ("imap", Security::Tls) => 993,
            ("imap", _) => 143,
            (_, Security::Tls) => 465,
            _ => 587,
        });
        Ok(ServerConfig {
            server: name,
            port,
            security,
            user: r.user.clone(),
            password: self.password(key, pw)?,
            ca_file: r.ca_file.as_ref().map(|c| self.host.configured(c)),
            timeout: r.timeout.unwrap_or(60).max(1),
        })
    }

    /// Where mail comes in: `[imap]` or `[maildir]`, exactly one.
    fn source(&self, raw: &RawConfig) -> Result<SourceConfig> {
        match (&raw.imap, &raw.maildir) {
            (Some(i), None) => {
                let mailbox = match &i.get_ref().mailbox {
                    None => "INBOX".to_string(),
                    Some(m) if m.get_ref().trim().is_empty() => {
                        return Err(Error::refused(format!(
                            "{}: [imap] mailbox is empty (INBOX is the usual one)",
                            self.at(m.span().start)
                        )))
                    }
                    Some(m) => m.get_ref().clone(),
                };
                Ok(SourceConfig::Imap(ImapConfig {
                    server: self.server(
                        i,
                        "imap",
                        self.secrets.and_then(|s| s.imap_password.as_ref()),
                        "imap_password",
                    )?,
                    mailbox,
                }))
            }
            (None, Some(m)) => Ok(SourceConfig::Maildir(
                self.host.configured(&m.get_ref().path),
            )),
            (Some(_), Some(m)) => Err(Error::refused(format!(
                "{}: both [imap] and [maildir]: mail comes in from one of them",
                self.at(m.span().start)
            ))),
            (None, None) => Err(Error::refused(format!(
                "{}: no [imap] or [maildir] section: say where mail comes in",
                self.path.display()
            ))),
        }
    }

    /// `authserv_ids`, `replies_per_hour`, `seats_per_address`.
    fn trust(&self, raw: &RawConfig) -> Result<Trust> {
        let f = self.path.display();
        let mut ids = Vec::new();
        for id in raw.authserv_ids.iter().flatten() {
            let v = id.get_ref().trim();
            if v.is_empty() || v.contains(|c: char| c.is_whitespace() || ";()\"".contains(c)) {
                return Err(Error::refused(format!(
                    "{}: authserv-id \"{}\" is not one: give the name your receiving server writes first in its Authentication-Results fields, like \"mx.example.org\"",
                    self.at(id.span().start),
                    v.chars().take(64).collect::<String>()
                )));
            }
            ids.push(v.to_ascii_lowercase());
        }
        let replies_per_hour = raw.replies_per_hour.unwrap_or(DEFAULT_REPLIES_PER_HOUR);
        if replies_per_hour == 0 {
            return Err(Error::refused(format!(
                "{f}: `replies_per_hour = 0` would answer nobody; give at least 1 (default {DEFAULT_REPLIES_PER_HOUR})"
            )));
        }
        let seats_per_address = raw.seats_per_address.unwrap_or(DEFAULT_SEATS_PER_ADDRESS);
        if seats_per_address == 0 {
            return Err(Error::refused(format!(
                "{f}: `seats_per_address = 0` would seat nobody; give at least 1 (default {DEFAULT_SEATS_PER_ADDRESS}: one person, one seat)"
            )));
        }
        Ok(Trust {
            authserv_ids: ids,
            replies_per_hour,
            seats_per_address,
        })
    }

    /// `public_mode`, or private.
    fn public_mode(&self, raw: &RawConfig) -> Result<PublicMode> {
        let Some(m) = &raw.public_mode else {
            return Ok(PublicMode::default());
        };
        toml::Value::String(m.get_ref().clone())
            .try_into()
            .map_err(|_| {
                Error::refused(format!(
                    "{}: `public_mode = \"{}\"`: give \"private\" (the default: the host's user alone), \"group\" (its group too: a web server in it) or \"world\"",
                    self.at(m.span().start),
                    m.get_ref().chars().take(32).collect::<String>()
                ))
            })
    }

    /// `moderator`, a plain mail address, if given.
    fn moderator(&self, raw: &RawConfig) -> Result<Option<String>> {
        let Some(m) = &raw.moderator else {
            return Ok(None);
        };
        let a = m.get_ref().trim();
        if a.parse::<lettre::Address>().is_err() {
            return Err(Error::refused(format!(
                "{}: `moderator = \"{a}\"` is not a plain mail address like \"you@example.org\"",
                self.at(m.span().start)
            )));
        }
        Ok(Some(a.to_string()))
    }
}
