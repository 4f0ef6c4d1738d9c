//! Unit tests of `herald::host::config` (src/host/config.rs).

use herald::host::config::*;
use std::path::PathBuf;

fn dir_with(config: &str, secrets: Option<(&str, u32)>) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("herald-hostcfg-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(CONFIG_FILE), config).unwrap();
    if let Some((s, mode)) = secrets {
        let p = d.join(SECRETS_FILE);
        std::fs::write(&p, s).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    d
}

const GOOD: &str = r#"
address = "herald@example.org"
poll = "2m"
reminders = ["2h", "24h"]

[imap]
server = "imap.example.org"
security = "tls"
user = "herald@example.org"
mailbox = "Games"

[smtp]
server = "smtp.example.org"
security = "starttls"
user = "herald@example.org"
"#;
const SECRETS: &str = "imap_password = \"imap-pw\"\nsmtp_password = \"smtp-pw\"\n";

#[test]
fn a_good_file_loads_with_defaults_filled_in() {
    let d = dir_with(GOOD, Some((SECRETS, 0o600)));
    let c = HostConfig::load(&d).unwrap();
    assert_eq!(c.address.for_game("g1"), "herald+g1@example.org");
    assert_eq!(c.poll, 120);
    assert_eq!(c.reminders, vec![86400, 7200]);
    assert!(c.attach_png);
    let off = GOOD.replace("poll = \"2m\"", "poll = \"2m\"\nattach_png = false");
    assert!(off.contains("attach_png"));
    let off = HostConfig::load(&dir_with(&off, Some((SECRETS, 0o600)))).unwrap();
    assert!(!off.attach_png);
    let SourceConfig::Imap(i) = &c.source else {
        panic!("imap expected")
    };
    assert_eq!((i.server.port, i.mailbox.as_str()), (993, "Games"));
    assert_eq!(i.server.password.expose(), "imap-pw");
    assert_eq!((c.smtp.port, c.smtp.security), (587, Security::Starttls));
    assert_eq!(c.log_file, Some(d.join("host.log")));
    assert!(
        !format!("{c:?}").contains("imap-pw"),
        "Debug shows no password"
    );
}

#[test]
fn a_secrets_file_readable_by_others_is_refused_with_the_fix() {
    let d = dir_with(GOOD, Some((SECRETS, 0o644)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("mode 0644") && e.contains("chmod 600"), "{e}");
    assert!(!e.contains("imap-pw"));
}

#[test]
fn a_missing_password_says_how_to_create_the_file() {
    let d = dir_with(GOOD, None);
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(
        e.contains("imap_password") && e.contains("install -m 600"),
        "{e}"
    );
}

#[test]
fn errors_name_the_file_and_line() {
    let bad = GOOD.replace("security = \"tls\"", "security = \"ssl\"");
    let d = dir_with(&bad, Some((SECRETS, 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("host.toml") && e.contains("line 8"), "{e}");

    let bad = GOOD.replace("poll = \"2m\"", "poll = \"120\"");
    let d = dir_with(&bad, Some((SECRETS, 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(
        e.contains("host.toml, line 3") && e.contains("duration"),
        "{e}"
    );

    let bad = GOOD.replace("security = \"tls\"", "security = \"plain\"");
    let d = dir_with(&bad, Some((SECRETS, 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("line 8") && e.contains("127.0.0.1"), "{e}");

    let bad = GOOD.replace("address = \"herald@example.org\"", "address = \"herald\"");
    let d = dir_with(&bad, Some((SECRETS, 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("address"), "{e}");

    let bad = format!("{GOOD}\n[maildir]\npath = \"Maildir\"\n");
    let d = dir_with(&bad, Some((SECRETS, 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("both [imap] and [maildir]"), "{e}");

    let d = dir_with(GOOD, Some(("imap_password = \"oops\nsmtp", 0o600)));
    let e = HostConfig::load(&d).unwrap_err().to_string();
    assert!(e.contains("line 1") && !e.contains("oops"), "{e}");
}

#[test]
fn plus_addresses_map_to_games() {
    let a = HostAddress::parse("herald@example.org").unwrap();
    assert_eq!(a.tag_of("Herald+g7@Example.org"), Some("g7"));
    assert_eq!(a.tag_of("herald@example.org"), None);
    assert_eq!(a.tag_of("other+g7@example.org"), None);
    assert_eq!(a.tag_of("herald+@example.org"), None);
    assert!(HostAddress::parse("her ald@example.org").is_none());
    assert!(HostAddress::parse("herald+x@example.org").is_none());
}
