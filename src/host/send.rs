//! `herald send GAME`: a game's outbox handed to the mail system by hand,
//! each mail once, with the outbox sender the host uses ([`super::outbox`]:
//! the same states, queued → handing → sent → accepted → done, the same
//! rules after a kill, the same backoff), through one of two transports:
//!
//! - the SMTP server of a `send.toml` (`[smtp]`: server, port, security,
//!   user and password; the file holds the password, so it must be
//!   readable by its owner only, mode 0600), through the host's
//!   [`super::smtp::Smtp`];
//! - a sendmail program ([`Sendmail`]): the system's
//!   (`/usr/sbin/sendmail`, which Postfix, Exim, OpenSMTPD, msmtp and
//!   nullmailer all install) when there is no `send.toml`, or the one its
//!   `[sendmail] path` names.
//!
//! **sendmail and at-most-once.** A sendmail program ends a mail at the
//! end of its input, so a mail piped to it and cut short by a kill would
//! go out cut short. herald therefore hands sendmail the mail as a file
//! (an unnamed temporary file as its standard input): from the moment
//! sendmail is started it reads the whole mail whatever becomes of herald,
//! which is why that moment is the outbox's `sent` (the SMTP sender's
//! final `.`). A kill before it leaves the mail `handing` (sent again by
//! the next run, never seen by sendmail); a kill after it leaves it
//! `sent` (counted as delivered, never sent again). sendmail runs in a
//! process group of its own, so a Ctrl-C at the terminal stops herald but
//! not a sendmail reading its mail.
//!
//! sendmail's exit status says what became of the mail (sysexits.h): 0
//! accepted; 65 (data), 67 (no such user), 68 (no such host) a refused
//! recipient; 64 (usage), 77 (permission), 78 (configuration), 126 and
//! 127 (not runnable, not found) the configuration's fault; anything else
//! (75 temporary failure, a signal) a temporary failure, tried again
//! after the outbox's backoff.

use super::config::{check_secrets_mode, Secret, Security, ServerConfig};
use super::outbox::{self, Labels};
use super::smtp::{Sender, Smtp};
use super::Failure;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file `herald send GAME` reads in the game folder, when no
/// `--config` names another.
pub const CONFIG_FILE: &str = "send.toml";

/// The system's sendmail, used when no `send.toml` says otherwise.
pub const SYSTEM_SENDMAIL: &str = "/usr/sbin/sendmail";

/// How the mails go out.
#[derive(Debug, Clone)]
pub enum Transport {
    Smtp(ServerConfig),
    /// A sendmail-compatible program.
    Sendmail(PathBuf),
}

impl Transport {
    /// For messages: "smtp.example.org:587", "sendmail (/usr/sbin/sendmail)".
    pub fn describe(&self) -> String {
        match self {
            Transport::Smtp(c) => format!("the SMTP server {}:{}", c.server, c.port),
            Transport::Sendmail(p) => format!("sendmail ({})", p.display()),
        }
    }
}

/// `send.toml`, read.
#[derive(Debug, Clone)]
pub struct SendConfig {
    pub transport: Transport,
    /// The envelope sender (`from`), where the file gives one; else the
    /// game's moderator address.
    pub from: Option<String>,
    /// The file read (`None`: there was none; the system's sendmail).
    pub file: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    from: Option<String>,
    smtp: Option<RawSmtp>,
    sendmail: Option<RawSendmail>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSmtp {
    server: String,
    port: Option<u16>,
    security: Security,
    user: String,
    password: String,
    ca_file: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSendmail {
    path: String,
}

/// The shape of `send.toml`, for messages.
pub const EXAMPLE: &str = "[smtp] with server, security (tls, starttls or plain), user and password (and port, ca_file, timeout if need be), or [sendmail] with path; `from` for the envelope sender";

impl SendConfig {
    /// The system's sendmail, no file.
    pub fn system() -> SendConfig {
        SendConfig {
            transport: Transport::Sendmail(PathBuf::from(SYSTEM_SENDMAIL)),
            from: None,
            file: None,
        }
    }

    /// Read `path`: refused (naming the file and what is wrong) if it does
    /// not read, names both transports, or holds a password and is
    /// readable by others.
    pub fn load(path: &Path) -> Result<SendConfig> {
        let text = crate::store::limits::read_text(path, 64 * 1024, "send.toml")?;
        let raw: Raw = toml::from_str(&text).map_err(|e| {
            Error::refused(format!(
                "{}: {} ({EXAMPLE})",
                path.display(),
                e.to_string().trim_end()
            ))
        })?;
        let here = path.parent().unwrap_or(Path::new("."));
        let transport = match (raw.smtp, raw.sendmail) {
            (Some(_), Some(_)) => {
                return Err(Error::refused(format!(
                    "{}: both [smtp] and [sendmail]: mail goes out one way; keep one of them",
                    path.display()
                )))
            }
            (Some(s), None) => {
                check_secrets_mode(path)?;
                Transport::Smtp(server(path, here, s)?)
            }
            (None, Some(s)) => {
                let p = PathBuf::from(s.path.trim());
                if p.as_os_str().is_empty() {
                    return Err(Error::refused(format!(
                        "{}: [sendmail] path is empty (the system's is {SYSTEM_SENDMAIL})",
                        path.display()
                    )));
                }
                // A bare name is looked up on PATH; a relative path is the
                // file's folder's.
                Transport::Sendmail(if p.components().count() > 1 && p.is_relative() {
                    here.join(p)
                } else {
                    p
                })
            }
            (None, None) => Transport::Sendmail(PathBuf::from(SYSTEM_SENDMAIL)),
        };
        if let Some(f) = &raw.from {
            if super::config::HostAddress::parse(f).is_none() {
                return Err(Error::refused(format!(
                    "{}: from = {f:?} is not a mail address",
                    path.display()
                )));
            }
        }
        Ok(SendConfig {
            transport,
            from: raw.from,
            file: Some(path.to_path_buf()),
        })
    }
}

/// `[smtp]` as the host's [`ServerConfig`].
fn server(path: &Path, here: &Path, s: RawSmtp) -> Result<ServerConfig> {
    let name = s.server.trim().to_string();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(Error::refused(format!(
            "{}: [smtp] server {name:?} is not a host name",
            path.display()
        )));
    }
    if s.security == Security::Plain && !super::config::is_loopback(&name) {
        return Err(Error::refused(format!(
            "{}: [smtp] security = \"plain\" would send the password unencrypted to {name}; \
             plain is allowed only to a server on this machine (127.0.0.1, ::1, localhost): \
             use \"tls\" or \"starttls\"",
            path.display()
        )));
    }
    if s.password.is_empty() {
        return Err(Error::refused(format!(
            "{}: [smtp] password is empty",
            path.display()
        )));
    }
    Ok(ServerConfig {
        port: s.port.unwrap_or(match s.security {
            Security::Tls => 465,
            _ => 587,
        }),
        server: name,
        security: s.security,
        user: s.user,
        password: Secret::new(s.password),
        ca_file: s.ca_file.map(|c| here.join(c)),
        timeout: s.timeout.unwrap_or(60).max(1),
    })
}

/// A [`Sender`] through a sendmail program (see the module's comment).
pub struct Sendmail {
    program: PathBuf,
    from: String,
    down: Option<Failure>,
}

impl Sendmail {
    pub fn new(program: &Path, from: &str) -> Sendmail {
        Sendmail {
            program: program.to_path_buf(),
            from: from.to_string(),
            down: None,
        }
    }

    /// What the exit status `code` (or a signal, `None`) means, with what
    /// sendmail said on its standard error.
    fn outcome(&self, to: &str, code: Option<i32>, said: &str) -> Failure {
        let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
        let said: String = said.chars().take(300).collect();
        let m = format!(
            "{} for {to}: {}{}",
            self.program.display(),
            match code {
                Some(c) => format!("exit status {c}"),
                None => "killed by a signal".into(),
            },
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        );
        match code {
            Some(65 | 67 | 68) => Failure::Permanent(m),
            Some(64 | 77 | 78 | 126 | 127) => Failure::Config(m),
            _ => Failure::Temporary(m),
        }
    }
}

/// An address sendmail takes as a recipient and never as an option.
fn plain_address(to: &str) -> bool {
    !to.starts_with('-')
        && to.contains('@')
        && !to.chars().any(|c| c.is_whitespace() || c.is_control())
}

impl Sender for Sendmail {
    fn down(&self) -> Option<&Failure> {
        self.down.as_ref()
    }

    fn send_to(
        &mut self,
        to: &str,
        bytes: &[u8],
        at_end: &mut dyn FnMut(),
    ) -> std::result::Result<String, Failure> {
        use std::os::unix::process::CommandExt;
        if let Some(f) = &self.down {
            return Err(f.clone());
        }
        if !plain_address(to) {
            return Err(Failure::Permanent(format!("{to:?} is not a mail address")));
        }
        // The whole mail in a file sendmail reads on its own.
        let file = tempfile::tempfile()
            .and_then(|mut f| {
                f.write_all(bytes)?;
                f.rewind()?;
                Ok(f)
            })
            .map_err(|e| Failure::Temporary(format!("a temporary file for the mail: {e}")))?;
        at_end();
        let child = std::process::Command::new(&self.program)
            .args(["-i", "-f", &self.from, "--", to])
            .stdin(file)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn();
        let out = match child.and_then(|c| c.wait_with_output()) {
            Ok(o) => o,
            Err(e) => {
                let f = Failure::Config(format!("{}: {e}", self.program.display()));
                self.down = Some(f.clone());
                return Err(f);
            }
        };
        if out.status.success() {
            return Ok(format!("{} took it", self.program.display()));
        }
        let f = self.outcome(to, out.status.code(), &String::from_utf8_lossy(&out.stderr));
        if !matches!(f, Failure::Permanent(_)) {
            // The program fails for every mail alike: stop this run.
            self.down = Some(f.clone());
        }
        Err(f)
    }
}

/// What one `herald send` did to one outbox.
#[derive(Debug, Clone)]
pub struct Sent {
    /// The outbox folder.
    pub outbox: PathBuf,
    pub via: String,
    pub report: outbox::Report,
    /// The earliest next try of the mails in backoff, if any.
    pub next_try: Option<i64>,
}

/// The earliest `next_try` among the queued mails of `dir` still waiting.
fn next_try(dir: &Path, now: i64) -> Option<i64> {
    outbox::queued(dir)
        .ok()?
        .iter()
        .filter_map(|m| outbox::read_state(m).ok())
        .map(|s| s.next_try)
        .filter(|&t| t > now)
        .min()
}

/// Send game `dir`'s outbox through `cfg`'s transport at `now` (Unix
/// seconds), under the game's lock (waiting `wait` for it).
pub fn game(dir: &Path, cfg: &SendConfig, now: i64, wait: Duration) -> Result<Sent> {
    let (store, g) = crate::pipeline::open(dir)?;
    let h = g.head();
    let _lock = crate::store::lock::Lock::acquire(&store.dir.lock(), &h.id, wait)?;
    let out = store.dir.outbox();
    if !out.is_dir() || !outbox::has_mail(&out) {
        return Ok(Sent {
            next_try: None,
            outbox: out,
            via: cfg.transport.describe(),
            report: outbox::Report::default(),
        });
    }
    let from = cfg
        .from
        .clone()
        .or_else(|| h.moderator.clone())
        .ok_or_else(|| {
            Error::refused(format!(
                "game {} has no moderator address (`herald new --moderator`), so its mails have no sender to give the mail system: write `from = \"you@example.org\"` in {}",
                h.id,
                cfg.file
                    .clone()
                    .unwrap_or_else(|| store.dir.root().join(CONFIG_FILE))
                    .display()
            ))
        })?;
    let mut labels = Labels {
        game: Some(h.id.clone()),
        ..Labels::default()
    };
    for p in &h.players {
        if let Some(e) = &p.email {
            labels.players.insert(e.to_ascii_lowercase(), p.id.clone());
        }
    }
    let log = super::log::Log::none();
    let run = |s: &mut dyn Sender| outbox::run(&out, s, now, &labels, &log);
    let report = match &cfg.transport {
        Transport::Smtp(c) => {
            let mut s = Smtp::new(c, &from).map_err(|f| Error::refused(f.to_string()))?;
            let r = run(&mut s);
            s.close();
            r
        }
        Transport::Sendmail(p) => run(&mut Sendmail::new(p, &from)),
    }
    .map_err(|f| Error::refused(format!("{}: {f}", out.display())))?;
    Ok(Sent {
        next_try: next_try(&out, now),
        outbox: out,
        via: cfg.transport.describe(),
        report,
    })
}
