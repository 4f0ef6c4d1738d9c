//! Mail in from an IMAP account, through the `imap` crate over a stream
//! this module opens: TLS from the first byte, STARTTLS, or plain (only to
//! a server on the loopback interface; the configuration refuses it
//! elsewhere).
//!
//! A mail is pending while it lacks the keyword `$HeraldHandled` (and is
//! not deleted); marking it handled sets that keyword with one
//! `UID STORE +FLAGS.SILENT`. Why a keyword: it is one atomic, idempotent
//! command that changes no UID, leaves the mail where the moderator sees
//! it, and is independent of `\Seen` (someone reading the account with a
//! mail client does not hide mail from herald, and herald's reading does
//! not mark mail read: it fetches with `BODY.PEEK`). Moving the mail to a
//! folder instead needs COPY + STORE + EXPUNGE on servers without MOVE, and
//! a crash between them doubles the mail. A server that cannot keep custom
//! keywords on the mailbox is reported as a configuration failure when the
//! mailbox is selected.
//!
//! A mail's identity is `imap:<mailbox>:<UIDVALIDITY>:<UID>`.

use super::config::{ImapConfig, Security};
use super::source::{Fetched, MailId, MailSource, HEAD_BYTES};
use super::Failure;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The keyword that marks a mail handled.
pub const HANDLED: &str = "$HeraldHandled";

/// The connection under the IMAP session.
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stream::Plain(_) => "Stream::Plain",
            Stream::Tls(_) => "Stream::Tls",
        })
    }
}

pub struct ImapSource {
    session: imap::Session<Stream>,
    describe: String,
    mailbox: String,
    uid_validity: u32,
}

/// Connect to `server:port` with a timeout on every step.
pub(crate) fn tcp(server: &str, port: u16, timeout: u64) -> Result<TcpStream, Failure> {
    let t = Duration::from_secs(timeout);
    let addrs: Vec<_> = (server, port)
        .to_socket_addrs()
        .map_err(|e| Failure::Temporary(format!("{server}: cannot resolve: {e}")))?
        .collect();
    let mut last = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, t) {
            Ok(s) => {
                let _ = s.set_read_timeout(Some(t));
                let _ = s.set_write_timeout(Some(t));
                return Ok(s);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(Failure::Temporary(format!(
        "cannot connect to {server}:{port}: {}",
        last.map(|e| e.to_string())
            .unwrap_or_else(|| "no address".into())
    )))
}

fn handshake(c: &super::config::ServerConfig, tcp: TcpStream) -> Result<Stream, Failure> {
    super::tls::handshake(c, tcp).map(|s| Stream::Tls(Box::new(s)))
}

/// One line from a plain stream, byte by byte (nothing read past it, so
/// the TLS handshake that follows STARTTLS starts on a clean stream).
fn line(s: &mut TcpStream) -> Result<String, Failure> {
    let mut out = Vec::new();
    let mut b = [0u8];
    while out.len() < 8192 {
        match s.read(&mut b) {
            Ok(0) => break,
            Ok(_) => {
                out.push(b[0]);
                if b[0] == b'\n' {
                    break;
                }
            }
            Err(e) => return Err(Failure::Temporary(format!("reading from the server: {e}"))),
        }
    }
    Ok(String::from_utf8_lossy(&out).trim_end().to_string())
}

fn starttls(mut tcp: TcpStream, server: &str) -> Result<TcpStream, Failure> {
    let greeting = line(&mut tcp)?;
    if !greeting.starts_with("* OK") {
        return Err(Failure::Temporary(format!(
            "{server} greets with {greeting:?}, not * OK"
        )));
    }
    tcp.write_all(b"h0 STARTTLS\r\n")
        .map_err(|e| Failure::Temporary(format!("{server}: {e}")))?;
    loop {
        let l = line(&mut tcp)?;
        if l.is_empty() {
            return Err(Failure::Temporary(format!(
                "{server} closed the connection"
            )));
        }
        if let Some(rest) = l.strip_prefix("h0 ") {
            if rest.starts_with("OK") {
                return Ok(tcp);
            }
            return Err(Failure::Config(format!(
                "{server} does not offer STARTTLS ({rest}): use security = \"tls\""
            )));
        }
    }
}

fn imap_failure(what: &str, e: imap::Error) -> Failure {
    match e {
        imap::Error::No(_) | imap::Error::Bad(_) => Failure::Config(format!("{what}: {e}")),
        _ => Failure::Temporary(format!("{what}: {e}")),
    }
}

impl ImapSource {
    pub fn connect(c: &ImapConfig) -> Result<ImapSource, Failure> {
        let s = &c.server;
        let tcp = tcp(&s.server, s.port, s.timeout)?;
        let describe = format!(
            "IMAP {} at {}:{} ({}), {}",
            s.user,
            s.server,
            s.port,
            match s.security {
                Security::Tls => "TLS",
                Security::Starttls => "STARTTLS",
                Security::Plain => "plain",
            },
            c.mailbox
        );
        let mut client = match s.security {
            Security::Plain => imap::Client::new(Stream::Plain(tcp)),
            Security::Tls => imap::Client::new(handshake(s, tcp)?),
            Security::Starttls => {
                let tcp = starttls(tcp, &s.server)?;
                // The greeting came before STARTTLS: nothing to read after.
                imap::Client::new(handshake(s, tcp)?)
            }
        };
        if s.security != Security::Starttls {
            client
                .read_greeting()
                .map_err(|e| Failure::Temporary(format!("{}: no greeting: {e}", s.server)))?;
        }
        let mut session = client
            .login(&s.user, s.password.expose())
            .map_err(|(e, _)| match e {
                imap::Error::No(_) | imap::Error::Bad(_) => Failure::Config(format!(
                    "IMAP login as {} at {} refused ({e}): check [imap] user and \
                     imap_password in host.secrets.toml",
                    s.user, s.server
                )),
                e => Failure::Temporary(format!("IMAP login at {}: {e}", s.server)),
            })?;
        let mb = session
            .select(&c.mailbox)
            .map_err(|e| imap_failure(&format!("selecting mailbox {:?}", c.mailbox), e))?;
        let keeps = mb.permanent_flags.iter().any(|f| match f {
            imap::types::Flag::MayCreate => true,
            imap::types::Flag::Custom(k) => k.eq_ignore_ascii_case(HANDLED),
            _ => false,
        });
        if !keeps {
            return Err(Failure::Config(format!(
                "{describe}: the server cannot keep the keyword {HANDLED} on this mailbox \
                 (PERMANENTFLAGS has no \\*), which herald uses to mark mail handled"
            )));
        }
        let uid_validity = mb.uid_validity.ok_or_else(|| {
            Failure::Config(format!("{describe}: the server gives no UIDVALIDITY"))
        })?;
        Ok(ImapSource {
            session,
            describe,
            mailbox: c.mailbox.clone(),
            uid_validity,
        })
    }

    fn uid(&self, id: &MailId) -> Result<u32, Failure> {
        let rest = id
            .0
            .strip_prefix("imap:")
            .and_then(|r| r.strip_prefix(self.mailbox.as_str()))
            .and_then(|r| r.strip_prefix(':'))
            .ok_or_else(|| Failure::Permanent(format!("{id}: not a mail of {}", self.describe)))?;
        let (validity, uid) = rest
            .split_once(':')
            .ok_or_else(|| Failure::Permanent(format!("{id}: not an IMAP mail id")))?;
        if validity != self.uid_validity.to_string() {
            return Err(Failure::Temporary(format!(
                "{id}: the mailbox was rebuilt since (UIDVALIDITY is now {})",
                self.uid_validity
            )));
        }
        uid.parse()
            .map_err(|_| Failure::Permanent(format!("{id}: not an IMAP mail id")))
    }
}

impl MailSource for ImapSource {
    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn pending(&mut self) -> Result<Vec<MailId>, Failure> {
        let uids = self
            .session
            .uid_search(format!("UNKEYWORD {HANDLED} UNDELETED"))
            .map_err(|e| imap_failure("searching for new mail", e))?;
        let mut uids: Vec<u32> = uids.into_iter().collect();
        uids.sort_unstable();
        Ok(uids
            .into_iter()
            .map(|u| MailId(format!("imap:{}:{}:{u}", self.mailbox, self.uid_validity)))
            .collect())
    }

    fn fetch(&mut self, id: &MailId, max_bytes: u64) -> Result<Fetched, Failure> {
        let uid = self.uid(id)?;
        let what = format!("fetching {id}");
        let size = {
            let f = self
                .session
                .uid_fetch(uid.to_string(), "RFC822.SIZE")
                .map_err(|e| imap_failure(&what, e))?;
            let Some(m) = f.iter().find(|m| m.uid == Some(uid)) else {
                return Ok(Fetched::Gone);
            };
            u64::from(m.size.unwrap_or(0))
        };
        let head = |s: &mut imap::Session<Stream>| -> Result<Vec<u8>, Failure> {
            let f = s
                .uid_fetch(
                    uid.to_string(),
                    format!("BODY.PEEK[HEADER]<0.{HEAD_BYTES}>"),
                )
                .map_err(|e| imap_failure(&what, e))?;
            Ok(f.iter()
                .find(|m| m.uid == Some(uid))
                .and_then(|m| m.header())
                .map(|h| super::maildir::cut_header(h.to_vec()))
                .unwrap_or_default())
        };
        if size > max_bytes {
            return Ok(Fetched::TooBig {
                size,
                head: head(&mut self.session)?,
            });
        }
        // At most one byte more than allowed, whatever RFC822.SIZE said.
        let f = self
            .session
            .uid_fetch(uid.to_string(), format!("BODY.PEEK[]<0.{}>", max_bytes + 1))
            .map_err(|e| imap_failure(&what, e))?;
        let Some(body) = f.iter().find(|m| m.uid == Some(uid)).map(|m| m.body()) else {
            return Ok(Fetched::Gone);
        };
        let body = body.unwrap_or_default();
        if body.len() as u64 > max_bytes {
            let size = size.max(body.len() as u64);
            drop(f);
            return Ok(Fetched::TooBig {
                size,
                head: head(&mut self.session)?,
            });
        }
        Ok(Fetched::Mail(body.to_vec()))
    }

    fn mark_handled(&mut self, id: &MailId) -> Result<(), Failure> {
        let uid = self.uid(id)?;
        self.session
            .uid_store(uid.to_string(), format!("+FLAGS.SILENT ({HANDLED})"))
            .map_err(|e| imap_failure(&format!("marking {id} handled"), e))?;
        Ok(())
    }

    fn close(&mut self) {
        let _ = self.session.logout();
    }
}
