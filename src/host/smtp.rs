//! Mail out by SMTP submission with AUTH (PLAIN or LOGIN), over TLS from
//! the first byte (port 465), STARTTLS (port 587) or plain to a server on
//! the loopback interface, through lettre's SMTP connection. The bytes sent
//! are an already-built `.eml`, unchanged.
//!
//! One connection serves many mails (a transaction per recipient; a pass
//! sends over a small pool of them, `host::pass`). A recipient the server
//! refuses (a 4xx or 5xx answer) ends its transaction with RSET and the
//! connection goes on serving the next mail; a connection that breaks is
//! dropped and opened again. A connection idle for more than
//! [`IDLE_CHECK`] is checked with NOOP before reuse; one in steady use is
//! not (a round trip saved per mail). Failures are classified:
//!
//! - the server cannot be reached, drops the connection, answers 4xx, or a
//!   TLS handshake fails for a network reason: [`Failure::Temporary`];
//! - a 5xx answer to MAIL, RCPT or DATA (550: no such recipient): the
//!   recipient is refused, [`Failure::Permanent`];
//! - AUTH refused (535), no STARTTLS where it was asked for, a certificate
//!   that does not verify: [`Failure::Config`].
//!
//! After a temporary failure of the connection itself, or a configuration
//! failure, the sender counts as down for the rest of the pass: later sends
//! fail at once with the same failure, without trying (so 1,000 games'
//! outboxes do not each wait for a dead server's timeout).

use super::config::{Security, ServerConfig};
use super::tls::Verifier;
use super::Failure;
use lettre::address::Address;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{CertificateStore, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::extension::{Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::response::Response;
use std::time::{Duration, Instant};

/// A connection idle longer than this is checked with NOOP before reuse
/// (the server may have closed it: Postfix's smtpd gives up after 300 s).
pub const IDLE_CHECK: Duration = Duration::from_secs(5);

pub struct Smtp {
    config: ServerConfig,
    from: Address,
    hello: ClientId,
    conn: Option<SmtpConnection>,
    /// When `conn` last had an answer from the server.
    last_used: Option<Instant>,
    down: Option<Failure>,
}

/// What a sender does, so the outbox can be driven by something else in
/// tests of its bookkeeping; [`Smtp`] is the real one.
pub trait Sender {
    /// Send `bytes` to one recipient. `Ok` carries the server's answer
    /// ("2.0.0 Ok: queued as …"). `at_end` is called once the whole mail
    /// has been written to the server and only the final `.` that ends it
    /// remains: from then on the server may take the mail whatever becomes
    /// of this process (the outbox records it there).
    fn send_to(
        &mut self,
        to: &str,
        bytes: &[u8],
        at_end: &mut dyn FnMut(),
    ) -> Result<String, Failure>;
    /// `Some` once the server is known unreachable or the configuration
    /// wrong for the rest of this pass.
    fn down(&self) -> Option<&Failure>;
}

/// lettre's TLS settings for `c`: rustls (ring), TLS 1.2 or later. lettre
/// takes no certificate verifier of its own, so it is told to accept any
/// certificate during the handshake (it still checks the handshake's
/// signatures: the server proves it holds the key of the certificate it
/// shows), and [`Smtp::connect`] checks that certificate with the same
/// [`Verifier`] as the IMAP side before anything but EHLO is sent: no
/// password and no mail ever go to a server that is not verified.
fn tls_parameters(c: &ServerConfig) -> Result<TlsParameters, Failure> {
    TlsParameters::builder(c.server.clone())
        .set_min_tls_version(lettre::transport::smtp::client::TlsVersion::Tlsv12)
        .certificate_store(CertificateStore::None)
        .dangerous_accept_invalid_certs(true)
        .dangerous_accept_invalid_hostnames(true)
        .build_rustls()
        .map_err(|e| Failure::Config(format!("cannot set up TLS: {e}")))
}

fn describe_error(e: &lettre::transport::smtp::Error) -> String {
    let mut m = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        let t = s.to_string();
        if !m.contains(&t) {
            m.push_str(": ");
            m.push_str(&t);
        }
        src = s.source();
    }
    m
}

impl Smtp {
    /// A sender for `config`, with `from` (the host's address) as the
    /// envelope sender, so bounces come back to the host. Connects on the
    /// first send.
    pub fn new(config: &ServerConfig, from: &str) -> Result<Smtp, Failure> {
        let from: Address = from
            .parse()
            .map_err(|e| Failure::Config(format!("the host's address {from:?}: {e}")))?;
        Ok(Smtp {
            hello: ClientId::Domain(from.domain().to_string()),
            config: config.clone(),
            from,
            conn: None,
            last_used: None,
            down: None,
        })
    }

    fn where_(&self) -> String {
        format!("{}:{}", self.config.server, self.config.port)
    }

    fn connect(&mut self) -> Result<SmtpConnection, Failure> {
        let c = &self.config;
        let timeout = Some(Duration::from_secs(c.timeout));
        let at = self.where_();
        let (params, verifier) = match c.security {
            Security::Plain => (None, None),
            _ => (Some(tls_parameters(c)?), Some(Verifier::new(c)?)),
        };
        let wrapper = match (c.security, &params) {
            (Security::Tls, Some(p)) => Some(p),
            _ => None,
        };
        // With rustls the handshake runs on the first read or write, so its
        // failure comes back as a network error with the TLS error inside.
        let connect_failure = |e: lettre::transport::smtp::Error| {
            let m = format!("SMTP {at}: {}", describe_error(&e));
            super::tls::failure(&c.server, super::tls::rustls_error(&e), m)
        };
        let mut conn = SmtpConnection::connect(
            (c.server.as_str(), c.port),
            timeout,
            &self.hello,
            wrapper,
            None,
        )
        .map_err(connect_failure)?;
        no_delay_to(c.server.as_str(), c.port);
        if c.security == Security::Starttls {
            if !conn.can_starttls() {
                conn.abort();
                return Err(Failure::Config(format!(
                    "SMTP {at} does not offer STARTTLS: use security = \"tls\" (port 465)"
                )));
            }
            let p = params.as_ref().expect("STARTTLS has TLS parameters");
            conn.starttls(p, &self.hello).map_err(connect_failure)?;
        }
        if let Some(v) = &verifier {
            let checked = conn
                .certificate_chain()
                .map_err(|e| Failure::Temporary(format!("SMTP {at}: {}", describe_error(&e))))
                .and_then(|chain| v.check_chain(&c.server, &chain));
            if let Err(f) = checked {
                conn.abort();
                return Err(match f {
                    Failure::Config(m) => Failure::Config(format!("SMTP {at}: {m}")),
                    f => f,
                });
            }
        }
        let creds = Credentials::new(c.user.clone(), c.password.expose().to_string());
        if let Err(e) = conn.auth(&[Mechanism::Plain, Mechanism::Login], &creds) {
            conn.abort();
            let m = describe_error(&e);
            return Err(if e.is_transient() || e.is_timeout() {
                Failure::Temporary(format!("SMTP login at {at}: {m}"))
            } else if e.is_permanent() || e.is_client() {
                Failure::Config(format!(
                    "SMTP login as {} at {at} refused ({m}): check [smtp] user, security \
                     and smtp_password in host.secrets.toml",
                    c.user
                ))
            } else {
                Failure::Temporary(format!("SMTP login at {at}: {m}"))
            });
        }
        Ok(conn)
    }

    /// Say goodbye to the server (QUIT).
    pub fn close(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let _ = c.quit();
        }
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        self.close();
    }
}

impl Sender for Smtp {
    fn down(&self) -> Option<&Failure> {
        self.down.as_ref()
    }

    fn send_to(
        &mut self,
        to: &str,
        bytes: &[u8],
        at_end: &mut dyn FnMut(),
    ) -> Result<String, Failure> {
        if let Some(f) = &self.down {
            return Err(f.clone());
        }
        let rcpt: Address = to
            .parse()
            .map_err(|e| Failure::Permanent(format!("{to:?} is not a mail address: {e}")))?;
        let fresh = self.last_used.is_some_and(|t| t.elapsed() < IDLE_CHECK);
        let reusable = match self.conn.as_mut() {
            Some(c) => !c.has_broken() && (fresh || c.test_connected()),
            None => false,
        };
        let mut conn = match self.conn.take().filter(|_| reusable) {
            Some(c) => c,
            None => match self.connect() {
                Ok(c) => c,
                Err(f) => {
                    if !matches!(f, Failure::Permanent(_)) {
                        self.down = Some(f.clone());
                    }
                    return Err(f);
                }
            },
        };
        let options = match mail_options(&conn, &self.from, &rcpt, bytes) {
            Ok(o) => o,
            Err(f) => {
                self.conn = Some(conn);
                return Err(f);
            }
        };
        match transaction(&mut conn, &self.from, &rcpt, options, bytes, at_end) {
            Ok(r) => {
                self.conn = Some(conn);
                self.last_used = Some(Instant::now());
                Ok(format!(
                    "{} {}",
                    r.code(),
                    r.message().collect::<Vec<_>>().join(" ")
                ))
            }
            Err(e) => {
                // The server answered no (4xx, 5xx): the transaction is
                // reset and the connection serves the next mail; anything
                // else (a broken connection, a garbled answer) aborts it.
                let answered = e.is_permanent() || e.is_transient();
                if answered && !conn.has_broken() && conn.command(Rset).is_ok() {
                    self.conn = Some(conn);
                    self.last_used = Some(Instant::now());
                } else {
                    conn.abort();
                }
                let m = format!("SMTP {} to {to}: {}", self.where_(), describe_error(&e));
                if e.is_permanent() || e.is_client() {
                    Err(Failure::Permanent(m))
                } else if e.is_transient() {
                    Err(Failure::Temporary(m))
                } else {
                    // The connection itself failed: the server went away.
                    let f = Failure::Temporary(m);
                    self.down = Some(f.clone());
                    Err(f)
                }
            }
        }
    }
}

/// The MAIL parameters a mail needs (8BITMIME for a body that is not
/// ASCII, SMTPUTF8 for an address that is not), or why the server cannot
/// take it (refused for good: sending it again would not help).
fn mail_options(
    conn: &SmtpConnection,
    from: &Address,
    to: &Address,
    email: &[u8],
) -> Result<Vec<MailParameter>, Failure> {
    let mut options = Vec::new();
    if !(from.to_string().is_ascii() && to.to_string().is_ascii()) {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(Failure::Permanent(format!(
                "{to}: an address that is not ASCII, and the server does not offer SMTPUTF8"
            )));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !email.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(Failure::Permanent(
                "a mail that is not ASCII, and the server does not offer 8BITMIME".into(),
            ));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    Ok(options)
}

/// One SMTP transaction (MAIL, RCPT, DATA, the mail), as lettre's own
/// `send` makes it, with `at_end` called between the mail's last byte and
/// the final `.`: the moment after which the server may keep the mail
/// even if this process dies. The caller resets or aborts the connection
/// after a failure.
fn transaction(
    conn: &mut SmtpConnection,
    from: &Address,
    to: &Address,
    options: Vec<MailParameter>,
    email: &[u8],
    at_end: &mut dyn FnMut(),
) -> Result<Response, lettre::transport::smtp::Error> {
    let mut body = Some(email);
    let mut at_end = Some(at_end);
    let parts = std::iter::from_fn(move || match body.take() {
        Some(b) => Some(b),
        None => {
            if let Some(f) = at_end.take() {
                f();
            }
            None
        }
    });
    let r = conn
        .command(Mail::new(Some(from.clone()), options))
        .and_then(|_| conn.command(Rcpt::new(to.clone(), vec![])))
        .and_then(|_| conn.command(Data))
        .and_then(|_| conn.message_iter(parts));
    r
}

/// Turn off Nagle's algorithm on this process's connections to the SMTP
/// server. lettre writes a mail's body and then its closing `.` line in two
/// writes before it reads the answer: with Nagle on, the second write waits
/// for the server's (delayed) acknowledgement of the first, about 40 ms a
/// mail on Linux, which was half of a surge pass (issue 37: 600 mails took
/// 8 s of waiting at 6 % CPU). lettre does not hand out its socket, so
/// every TCP socket of this process whose peer is the server's address
/// gets TCP_NODELAY (only the host's own SMTP connections go there; setting
/// it twice is harmless). Best effort: a failure leaves the socket as it
/// was, slower but correct.
fn no_delay_to(server: &str, port: u16) {
    use std::net::{SocketAddr, ToSocketAddrs};
    let Ok(addrs) = (server, port).to_socket_addrs() else {
        return;
    };
    let peers: Vec<SocketAddr> = addrs.collect();
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    for e in fds.flatten() {
        let Ok(fd) = e.file_name().to_string_lossy().parse::<libc::c_int>() else {
            continue;
        };
        if peer_of(fd).is_some_and(|a| peers.contains(&a)) {
            let one: libc::c_int = 1;
            // SAFETY: setsockopt reads `one` (a c_int of the length given)
            // on a descriptor this process holds; a wrong descriptor gives
            // an error, which is ignored.
            unsafe {
                libc::setsockopt(
                    fd,
                    libc::IPPROTO_TCP,
                    libc::TCP_NODELAY,
                    (&one as *const libc::c_int).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                );
            }
        }
    }
}

/// The peer address of a connected TCP socket, or `None` for any other
/// descriptor.
fn peer_of(fd: libc::c_int) -> Option<std::net::SocketAddr> {
    use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    // SAFETY: a zeroed sockaddr_storage is a valid value; getpeername
    // writes at most `len` bytes into it and says how many.
    let mut st: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    let r = unsafe {
        libc::getpeername(
            fd,
            (&mut st as *mut libc::sockaddr_storage).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return None;
    }
    match st.ss_family as libc::c_int {
        libc::AF_INET => {
            // SAFETY: the family says the storage holds a sockaddr_in.
            let a: libc::sockaddr_in = unsafe { *(&st as *const libc::sockaddr_storage).cast() };
            Some(SocketAddr::V4(SocketAddrV4::new(
                Ipv4Addr::from(u32::from_be(a.sin_addr.s_addr)),
                u16::from_be(a.sin_port),
            )))
        }
        libc::AF_INET6 => {
            // SAFETY: the family says the storage holds a sockaddr_in6.
            let a: libc::sockaddr_in6 = unsafe { *(&st as *const libc::sockaddr_storage).cast() };
            Some(SocketAddr::V6(SocketAddrV6::new(
                Ipv6Addr::from(a.sin6_addr.s6_addr),
                u16::from_be(a.sin6_port),
                a.sin6_flowinfo,
                a.sin6_scope_id,
            )))
        }
        _ => None,
    }
}
