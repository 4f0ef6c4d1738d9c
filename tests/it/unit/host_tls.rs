//! Unit tests of `herald::host::tls` (src/host/tls.rs): how the host
//! checks a mail server's certificate, against a rustls server in this
//! process (the IMAP side's handshake) and on a certificate chain as the
//! SMTP side checks it after lettre's handshake. The certificates are
//! made with the openssl command, as a moderator makes them: a
//! self-signed one (`openssl req -x509`, marked as an authority), a small
//! authority and a server certificate it signs, an expired one.
//! tests/it/host_transport.rs covers the same through Postfix and Dovecot.

use crate::common::scratch;
use herald::host::config::{Secret, Security, ServerConfig};
use herald::host::tls::{handshake, Verifier};
use herald::host::Failure;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl command (Debian's openssl: ./test installs it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const EC: [&str; 3] = ["-newkey", "ec", "-pkeyopt"];
const P256: &str = "ec_paramgen_curve:prime256v1";
const SAN: &str = "subjectAltName=IP:127.0.0.1,DNS:localhost";

/// The certificates, made once for every test here.
struct Certs {
    dir: PathBuf,
}

fn certs() -> &'static Certs {
    static C: OnceLock<Certs> = OnceLock::new();
    C.get_or_init(|| {
        let dir = scratch("tls-certs");
        let d = dir.as_path();
        // Self-signed, as `openssl req -x509` makes it: marked CA:TRUE.
        for name in ["self", "stranger"] {
            let (k, c) = (format!("{name}.key"), format!("{name}.pem"));
            let mut a = vec!["req", "-x509"];
            a.extend(EC);
            a.extend([P256, "-nodes", "-days", "30", "-subj", "/CN=127.0.0.1"]);
            a.extend(["-addext", SAN, "-keyout", &k, "-out", &c]);
            openssl(d, &a);
        }
        // A small authority and a server certificate it signs (CA:FALSE).
        let mut a = vec!["req", "-x509"];
        a.extend(EC);
        a.extend([P256, "-nodes", "-days", "30", "-subj", "/CN=Games CA"]);
        a.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
        openssl(d, &a);
        let mut a = vec!["req", "-new"];
        a.extend(EC);
        a.extend([P256, "-nodes", "-subj", "/CN=127.0.0.1"]);
        a.extend(["-keyout", "leaf.key", "-out", "leaf.csr"]);
        openssl(d, &a);
        std::fs::write(
            d.join("leaf.ext"),
            format!("basicConstraints=critical,CA:FALSE\n{SAN}\n"),
        )
        .unwrap();
        openssl(
            d,
            &[
                "x509",
                "-req",
                "-in",
                "leaf.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "30",
                "-extfile",
                "leaf.ext",
                "-out",
                "leaf.pem",
            ],
        );
        // Self-signed and marked CA:TRUE like `self`, valid in January 2020
        // only (`openssl req` takes no dates in the past; `openssl ca` does).
        std::fs::create_dir_all(d.join("db")).unwrap();
        std::fs::write(d.join("db/index.txt"), "").unwrap();
        std::fs::write(d.join("db/serial"), "01\n").unwrap();
        std::fs::write(
            d.join("ca.cnf"),
            "[ca]\ndefault_ca = d\n[d]\ndatabase = db/index.txt\nnew_certs_dir = db\n\
             serial = db/serial\ndefault_md = sha256\npolicy = p\ncopy_extensions = copy\n\
             unique_subject = no\n[p]\ncommonName = supplied\n",
        )
        .unwrap();
        let mut a = vec!["req", "-new"];
        a.extend(EC);
        a.extend([P256, "-nodes", "-subj", "/CN=127.0.0.1", "-addext", SAN]);
        a.extend(["-addext", "basicConstraints=critical,CA:TRUE"]);
        a.extend(["-keyout", "expired.key", "-out", "expired.csr"]);
        openssl(d, &a);
        openssl(
            d,
            &[
                "ca",
                "-batch",
                "-notext",
                "-config",
                "ca.cnf",
                "-selfsign",
                "-keyfile",
                "expired.key",
                "-in",
                "expired.csr",
                "-startdate",
                "20200101000000Z",
                "-enddate",
                "20200201000000Z",
                "-out",
                "expired.pem",
            ],
        );
        Certs { dir }
    })
}

impl Certs {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
    fn chain(&self, names: &[&str]) -> Vec<CertificateDer<'static>> {
        names
            .iter()
            .map(|n| CertificateDer::from_pem_file(self.path(&format!("{n}.pem"))).unwrap())
            .collect()
    }
    fn key(&self, name: &str) -> PrivateKeyDer<'static> {
        PrivateKeyDer::from_pem_file(self.path(&format!("{name}.key"))).unwrap()
    }
}

fn config(server: &str, ca_file: Option<PathBuf>) -> ServerConfig {
    ServerConfig {
        server: server.into(),
        port: 0,
        security: Security::Tls,
        user: "herald@example.org".into(),
        password: Secret::new("unused"),
        ca_file,
        timeout: 10,
    }
}

/// A TLS server on loopback for one connection, showing `chain` (its own
/// certificate first); it greets like an IMAP server once the handshake
/// is done.
fn serve(chain: &[&str], key: &str) -> TcpStream {
    let addr = listen(chain, key, false);
    let tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    tcp
}

/// The server of [`serve`], listening; with `refuse_login`, it also
/// answers the client's first command (IMAP's LOGIN) with NO.
fn listen(chain: &[&str], key: &str, refuse_login: bool) -> std::net::SocketAddr {
    let c = certs();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(c.chain(chain), c.key(key))
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (tcp, _) = listener.accept().unwrap();
        tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let conn = rustls::ServerConnection::new(Arc::new(config)).unwrap();
        let mut s = rustls::StreamOwned::new(conn, tcp);
        // A refused handshake ends here with the client's alert.
        if s.write_all(b"* OK ready\r\n")
            .and_then(|_| s.flush())
            .is_err()
            || !refuse_login
        {
            return;
        }
        let mut line = String::new();
        let mut r = BufReader::new(s);
        if r.read_line(&mut line).is_ok() {
            let tag = line.split_whitespace().next().unwrap_or("*").to_string();
            let s = r.get_mut();
            let _ = s.write_all(format!("{tag} NO [AUTHENTICATIONFAILED] not here\r\n").as_bytes());
            let _ = s.flush();
            let _ = r.read_line(&mut line);
        }
    });
    addr
}

/// Connect as the IMAP side does; the server's greeting, or the failure.
fn connect(
    server: &str,
    ca_file: Option<&str>,
    chain: &[&str],
    key: &str,
) -> Result<String, Failure> {
    let cfg = config(server, ca_file.map(|f| certs().path(f)));
    let s = handshake(&cfg, serve(chain, key))?;
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line).unwrap();
    Ok(line)
}

/// Check a chain as the SMTP side does.
fn check(server: &str, ca_file: Option<&str>, chain: &[&str]) -> Result<(), Failure> {
    let cfg = config(server, ca_file.map(|f| certs().path(f)));
    let der: Vec<Vec<u8>> = certs().chain(chain).iter().map(|c| c.to_vec()).collect();
    Verifier::new(&cfg)?.check_chain(server, &der)
}

fn config_failure(r: Result<impl std::fmt::Debug, Failure>) -> String {
    match r {
        Err(Failure::Config(m)) => m,
        other => panic!("a configuration failure expected, got {other:?}"),
    }
}

#[test]
fn a_self_signed_certificate_named_in_ca_file_is_trusted_for_its_names() {
    assert_eq!(
        connect("127.0.0.1", Some("self.pem"), &["self"], "self").unwrap(),
        "* OK ready\r\n"
    );
    assert!(connect("localhost", Some("self.pem"), &["self"], "self").is_ok());
    check("127.0.0.1", Some("self.pem"), &["self"]).unwrap();
    check("localhost", Some("self.pem"), &["self"]).unwrap();
    // Not for a name it does not hold.
    for m in [
        config_failure(connect(
            "mail.example.org",
            Some("self.pem"),
            &["self"],
            "self",
        )),
        config_failure(check("mail.example.org", Some("self.pem"), &["self"])),
    ] {
        assert!(
            m.contains("mail.example.org") && m.contains("must be a name the certificate is for"),
            "{m}"
        );
    }
}

#[test]
fn a_self_signed_certificate_not_named_in_ca_file_is_refused_with_what_to_do() {
    // Not named at all, or another certificate with the very same names
    // and marks named instead: only the certificate itself is trusted.
    for m in [
        config_failure(connect("127.0.0.1", None, &["self"], "self")),
        config_failure(check("127.0.0.1", None, &["self"])),
        config_failure(connect(
            "127.0.0.1",
            Some("stranger.pem"),
            &["self"],
            "self",
        )),
        config_failure(check("127.0.0.1", Some("stranger.pem"), &["self"])),
    ] {
        assert!(m.contains("127.0.0.1") && m.contains("ca_file"), "{m}");
    }
}

#[test]
fn an_expired_certificate_is_refused_even_when_named_in_ca_file() {
    for m in [
        config_failure(connect(
            "127.0.0.1",
            Some("expired.pem"),
            &["expired"],
            "expired",
        )),
        config_failure(check("127.0.0.1", Some("expired.pem"), &["expired"])),
    ] {
        assert!(m.contains("expired"), "{m}");
    }
}

#[test]
fn a_certificate_signed_by_an_authority_in_ca_file_is_trusted() {
    assert!(connect("127.0.0.1", Some("ca.pem"), &["leaf"], "leaf").is_ok());
    assert!(connect("localhost", Some("ca.pem"), &["leaf", "ca"], "leaf").is_ok());
    check("127.0.0.1", Some("ca.pem"), &["leaf"]).unwrap();
    // The authority is not the system's: without ca_file, unknown.
    let m = config_failure(check("127.0.0.1", None, &["leaf", "ca"]));
    assert!(m.contains("UnknownIssuer") && m.contains("ca_file"), "{m}");
}

#[test]
fn a_ca_file_that_is_missing_or_not_certificates_is_named() {
    let d = scratch("tls-bad-ca");
    std::fs::write(d.join("empty.pem"), "no certificate here\n").unwrap();
    std::fs::write(
        d.join("broken.pem"),
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    std::fs::write(d.join("cut.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n").unwrap();
    for (name, says) in [
        ("missing.pem", "no such file or folder"),
        ("empty.pem", "no PEM certificate"),
        ("broken.pem", "certificate 1 is not an X.509 certificate"),
        ("cut.pem", "certificate 1 is not valid PEM"),
    ] {
        let path = d.join(name);
        let m = config_failure(Verifier::new(&config("127.0.0.1", Some(path.clone()))));
        assert!(
            m.contains(&path.display().to_string()) && m.contains(says),
            "{name}: {m}"
        );
    }
}

/// `herald host` on a folder whose IMAP server is a test server showing
/// `chain`, with no ca_file and the system's roots taken from
/// `SSL_CERT_FILE` (rustls-native-certs reads it instead of the
/// distribution's bundle); its standard error.
fn host_with_system_roots(cert_file: &Path, chain: &[&str], key: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let imap = listen(chain, key, true);
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let d = scratch("tls-system-roots");
    std::fs::write(
        d.join("host.toml"),
        format!(
            "address = \"herald@example.org\"\n[imap]\nserver = \"127.0.0.1\"\nport = {}\n\
             security = \"tls\"\nuser = \"herald@example.org\"\ntimeout = 10\n[smtp]\n\
             server = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n\
             user = \"herald@example.org\"\ntimeout = 10\n",
            imap.port(),
            closed.port()
        ),
    )
    .unwrap();
    let secrets = d.join("host.secrets.toml");
    std::fs::write(&secrets, "imap_password = \"pw\"\nsmtp_password = \"pw\"\n").unwrap();
    std::fs::set_permissions(&secrets, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["host", d.to_str().unwrap(), "--now", "2026-11-22T12:00:00Z"])
        .env("SSL_CERT_FILE", cert_file)
        .env_remove("SSL_CERT_DIR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a host problem expected");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_system_roots_are_trusted_and_none_at_all_is_named() {
    // The authority as the system's only root: its server certificate is
    // trusted without ca_file, and the pass gets as far as the login.
    let err = host_with_system_roots(&certs().path("ca.pem"), &["leaf"], "leaf");
    assert!(
        err.contains("IMAP login as herald@example.org at 127.0.0.1 refused"),
        "{err}"
    );
    // No roots on the system and no ca_file: said so, with what to do.
    let err = host_with_system_roots(&certs().path("no-such-bundle.pem"), &["leaf"], "leaf");
    assert!(
        err.contains("no trusted root certificates") && err.contains("ca-certificates"),
        "{err}"
    );
}
