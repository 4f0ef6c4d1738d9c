//! TLS for both directions through rustls, with ring as its cryptography:
//! TLS 1.2 or 1.3, the server's certificate checked against the system's
//! trusted roots plus, if the host names one, a PEM file of extra
//! certificates (`ca_file`: a server with a self-signed certificate).
//!
//! The system's roots are read by rustls-native-certs: the files named by
//! `SSL_CERT_FILE` / `SSL_CERT_DIR` if set, else the distribution's bundle
//! (`/etc/ssl/certs` on Debian, kept by the `ca-certificates` package).
//! They are read again for every connection, so a host that runs for
//! months follows the system's updates without a restart.
//!
//! A certificate of `ca_file` that the server shows as its own is trusted
//! even when it is marked as a certificate authority, which is what
//! `openssl req -x509` makes by default. webpki (rustls's checker) refuses
//! such a certificate as a server's (`CaUsedAsEndEntity`); OpenSSL accepts
//! it, the moderator named that very certificate, and a self-signed
//! certificate made the usual way must keep working. Its dates and the
//! server's name are still checked, and the handshake still proves that
//! the server holds its key. See [`Verifier`].

use super::config::ServerConfig;
use super::Failure;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{
    ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme,
    StreamOwned,
};
use std::net::TcpStream;
use std::sync::Arc;

/// Whether `der` can serve as a trust anchor (what webpki accepts).
fn usable(der: &CertificateDer<'static>) -> bool {
    RootCertStore::empty().add(der.clone()).is_ok()
}

fn ca_file_name(c: &ServerConfig) -> String {
    c.ca_file
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// The certificates of `ca_file`, each usable as a trust anchor; a file
/// that cannot be read, holds no certificate or a broken one is a
/// configuration failure naming it.
fn extra_roots(c: &ServerConfig) -> Result<Vec<CertificateDer<'static>>, Failure> {
    let Some(path) = &c.ca_file else {
        return Ok(Vec::new());
    };
    let name = ca_file_name(c);
    let pem = std::fs::read(path)
        .map_err(|e| Failure::Config(format!("ca_file {name}: {}", crate::error::io_words(&e))))?;
    let mut out = Vec::new();
    for (n, cert) in CertificateDer::pem_slice_iter(&pem).enumerate() {
        let cert = cert.map_err(|e| {
            Failure::Config(format!(
                "ca_file {name}: certificate {} is not valid PEM: {e}",
                n + 1
            ))
        })?;
        if !usable(&cert) {
            return Err(Failure::Config(format!(
                "ca_file {name}: certificate {} is not an X.509 certificate herald can trust",
                n + 1
            )));
        }
        out.push(cert);
    }
    if out.is_empty() {
        return Err(Failure::Config(format!(
            "ca_file {name}: no PEM certificate in it (a file of \
             -----BEGIN CERTIFICATE----- blocks)"
        )));
    }
    Ok(out)
}

/// Every certificate a server's chain may end at: the system's roots
/// that webpki can use (a bundle's unreadable or unusable entries are
/// skipped, as every TLS client does: one bad entry must not stop the
/// mail) and the ca_file's. None at all is a configuration failure that
/// says where roots come from.
fn roots(c: &ServerConfig, extra: &[CertificateDer<'static>]) -> Result<RootCertStore, Failure> {
    let mut store = RootCertStore::empty();
    store.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    store.add_parsable_certificates(extra.iter().cloned());
    if store.is_empty() {
        return Err(Failure::Config(format!(
            "TLS with {}: no trusted root certificates: this system has none \
             (Debian: apt-get install ca-certificates; or set SSL_CERT_FILE) \
             and host.toml names no ca_file",
            c.server
        )));
    }
    Ok(store)
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// How herald checks a server's certificate: webpki against [`roots`],
/// and one exception, a certificate of `ca_file` shown as the server's own
/// though marked as an authority (the module's documentation says why).
#[derive(Debug)]
pub struct Verifier {
    webpki: Arc<WebPkiServerVerifier>,
    /// The ca_file's certificates, as the moderator gave them.
    pinned: Vec<CertificateDer<'static>>,
}

impl Verifier {
    /// The verifier for `c`'s server: the system's roots and `ca_file`
    /// read now.
    pub fn new(c: &ServerConfig) -> Result<Verifier, Failure> {
        let pinned = extra_roots(c)?;
        let store = roots(c, &pinned)?;
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider())
            .build()
            .map_err(|e| Failure::Config(format!("cannot set up TLS: {e}")))?;
        Ok(Verifier { webpki, pinned })
    }

    /// Check the certificates a server showed (its own first) for
    /// `server`, after the handshake: what the SMTP side does, as lettre
    /// takes no verifier of its own. The classified failure says what to
    /// fix.
    pub fn check_chain(&self, server: &str, chain: &[Vec<u8>]) -> Result<(), Failure> {
        let Some((own, rest)) = chain.split_first() else {
            return Err(Failure::Config(format!(
                "TLS with {server}: the server showed no certificate"
            )));
        };
        let own = CertificateDer::from(own.as_slice());
        let rest: Vec<CertificateDer<'_>> = rest
            .iter()
            .map(|c| CertificateDer::from(c.as_slice()))
            .collect();
        let name = server_name(server)?;
        self.verify_server_cert(&own, &rest, &name, &[], UnixTime::now())
            .map(|_| ())
            .map_err(|e| {
                failure(
                    server,
                    Some(&e),
                    format!("TLS with {server}: {}", describe(&e)),
                )
            })
    }
}

/// What went wrong, in words: rustls's own, but for webpki's refusal of
/// a self-signed certificate, which it words as `Other(OtherError(..))`.
fn describe(e: &rustls::Error) -> String {
    if webpki_error(e) == Some(&webpki::Error::CaUsedAsEndEntity) {
        "the server's certificate is self-signed (marked as an authority) and ca_file \
         does not name it"
            .to_string()
    } else {
        e.to_string()
    }
}

/// webpki's own error inside a rustls certificate error.
fn webpki_error(e: &rustls::Error) -> Option<&webpki::Error> {
    match e {
        rustls::Error::InvalidCertificate(rustls::CertificateError::Other(o)) => {
            o.0.downcast_ref::<webpki::Error>()
        }
        _ => None,
    }
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.webpki.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Err(e)
                if webpki_error(&e) == Some(&webpki::Error::CaUsedAsEndEntity)
                    && self
                        .pinned
                        .iter()
                        .any(|p| p.as_ref() == end_entity.as_ref()) =>
            {
                // webpki checks the certificate's dates before its basic
                // constraints, so a pinned certificate that got this far is
                // in its validity period (a test holds it to that). The
                // name is checked here.
                let parsed = ParsedCertificate::try_from(end_entity)?;
                rustls::client::verify_server_name(&parsed, server_name)?;
                Ok(ServerCertVerified::assertion())
            }
            r => r,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

fn server_name(server: &str) -> Result<ServerName<'static>, Failure> {
    ServerName::try_from(server.to_string()).map_err(|_| {
        Failure::Config(format!(
            "TLS with {server}: not a host name or an IP address"
        ))
    })
}

/// The rustls configuration for a connection to `c`'s server: TLS 1.2 or
/// 1.3, ring's cipher suites, herald's [`Verifier`].
pub fn client_config(c: &ServerConfig) -> Result<Arc<ClientConfig>, Failure> {
    let verifier = Arc::new(Verifier::new(c)?);
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| Failure::Config(format!("cannot set up TLS: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The rustls error inside `e`, wherever it is in the chain of sources
/// (an `io::Error` hides what it wraps from `source()`).
pub fn rustls_error<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut cur = Some(e);
    while let Some(e) = cur {
        if let Some(r) = e.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            if let Some(r) = inner.downcast_ref::<rustls::Error>() {
                return Some(r);
            }
        }
        cur = e.source();
    }
    None
}

/// How a failed TLS handshake with `server` counts, with `message` (what
/// the caller says happened): a certificate that does not verify, or a
/// server with no TLS 1.2 or 1.3 in common, is the host's configuration
/// to fix, with a hint; anything else (a dropped connection, a timeout)
/// is temporary.
pub fn failure(server: &str, tls: Option<&rustls::Error>, message: String) -> Failure {
    use rustls::CertificateError as C;
    match tls {
        Some(rustls::Error::InvalidCertificate(c)) => {
            let self_signed = " (a server with a self-signed certificate, or one from a \
                               private authority, needs ca_file)";
            let hint = match c {
                C::UnknownIssuer | C::BadSignature => self_signed.to_string(),
                C::Other(_)
                    if tls.and_then(webpki_error) == Some(&webpki::Error::CaUsedAsEndEntity) =>
                {
                    " (name the certificate in ca_file to trust it)".to_string()
                }
                C::NotValidForName | C::NotValidForNameContext { .. } => format!(
                    " (server = \"{server}\" in host.toml must be a name the \
                     certificate is for)"
                ),
                _ => String::new(),
            };
            Failure::Config(format!("{message}{hint}"))
        }
        Some(rustls::Error::PeerIncompatible(_)) => Failure::Config(format!(
            "{message} (herald speaks TLS 1.2 and 1.3 with current ciphers; the server \
             offers nothing in common)"
        )),
        _ => Failure::Temporary(message),
    }
}

/// TLS over `tcp` to `server`, the handshake done before this returns, so
/// its failure is told apart from the protocol's.
pub fn handshake(
    c: &ServerConfig,
    tcp: TcpStream,
) -> Result<StreamOwned<ClientConnection, TcpStream>, Failure> {
    let config = client_config(c)?;
    let server = &c.server;
    let name = server_name(server)?;
    let conn = ClientConnection::new(config, name)
        .map_err(|e| Failure::Config(format!("TLS with {server}: {e}")))?;
    let mut s = StreamOwned::new(conn, tcp);
    while s.conn.is_handshaking() {
        if let Err(e) = s.conn.complete_io(&mut s.sock) {
            let tls = rustls_error(&e);
            let m = match tls {
                Some(r) => format!("TLS with {server}: {}", describe(r)),
                None => format!("TLS with {server}: {e}"),
            };
            return Err(failure(server, tls, m));
        }
    }
    Ok(s)
}
