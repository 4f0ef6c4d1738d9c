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

/// A host.toml with every key of `section` set to `value(key)`, the top
/// keys first; [imap] and [smtp] (or [maildir] for `maildir`).
fn file_of(value: impl Fn(&Key) -> Option<String>, maildir: bool) -> String {
    let mut out = String::new();
    let sections: &[&str] = if maildir {
        &["", "maildir", "smtp"]
    } else {
        &["", "imap", "smtp"]
    };
    for s in sections {
        if !s.is_empty() {
            out.push_str(&format!("\n[{s}]\n"));
        }
        for k in KEYS.iter().filter(|k| k.section == *s) {
            if let Some(v) = value(k) {
                out.push_str(&format!("{} = {v}\n", k.name));
            }
        }
    }
    out
}

/// The keys a host.toml must give, with their examples, so the file loads.
fn required(k: &Key) -> Option<String> {
    match (k.name, k.default) {
        ("security", _) => Some("\"plain\"".into()),
        ("server", _) => Some("\"127.0.0.1\"".into()),
        (_, Omitted::Required) => Some(k.example.to_string()),
        _ => None,
    }
}

#[test]
fn every_default_in_keys_written_out_gives_the_host_that_leaving_it_out_gives() {
    let bare = file_of(required, false);
    let full = file_of(
        |k| match k.default {
            Omitted::Value(v) => Some(v.to_string()),
            _ => required(k),
        },
        false,
    );
    assert!(full.len() > bare.len() + 200, "{full}");
    let d1 = dir_with(&bare, Some((SECRETS, 0o600)));
    let d2 = dir_with(&full, Some((SECRETS, 0o600)));
    let a = format!("{:?}", HostConfig::load(&d1).unwrap()).replace(d1.to_str().unwrap(), "DIR");
    let b = format!("{:?}", HostConfig::load(&d2).unwrap()).replace(d2.to_str().unwrap(), "DIR");
    assert_eq!(a, b, "{full}");
}

#[test]
fn every_key_in_keys_is_read_and_a_key_not_there_is_refused_with_the_nearest() {
    for maildir in [false, true] {
        let every = file_of(
            |k| match k.name {
                "security" => Some("\"plain\"".into()),
                "server" => Some("\"localhost\"".into()),
                "path" => Some("\"Maildir\"".into()),
                _ => Some(k.example.to_string()),
            },
            maildir,
        );
        let d = dir_with(&every, Some((SECRETS, 0o600)));
        let c = HostConfig::load(&d).unwrap_or_else(|e| panic!("{e}\n{every}"));
        // the examples differ from the defaults: each was read
        assert_eq!(c.poll, 120);
        assert_eq!(c.public_mode, PublicMode::Group);
        assert_eq!(c.press_max_bytes, 4096);
    }
    let typo = GOOD.replace("poll = \"2m\"", "pol = \"2m\"");
    let e = HostConfig::load(&dir_with(&typo, Some((SECRETS, 0o600))))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("host.toml, line 3")
            && e.contains("`pol`")
            && e.contains("did you mean `poll`?"),
        "{e}"
    );
    let typo = GOOD.replace("mailbox = \"Games\"", "mailbx = \"Games\"");
    let e = HostConfig::load(&dir_with(&typo, Some((SECRETS, 0o600))))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a key of [imap]") && e.contains("did you mean `mailbox`?"),
        "{e}"
    );
    let e = HostConfig::load(&dir_with(
        GOOD,
        Some(("imap_password = \"a\"\nsmtp_pasword = \"b\"\n", 0o600)),
    ))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("did you mean `smtp_password`?") && !e.contains("\"b\""),
        "{e}"
    );
}

#[test]
fn public_mode_is_private_unless_the_file_says() {
    let c = HostConfig::load(&dir_with(GOOD, Some((SECRETS, 0o600)))).unwrap();
    assert_eq!(c.public_mode, PublicMode::Private);
    assert_eq!(
        (c.public_mode.file(false), c.public_mode.folder()),
        (0o600, 0o700)
    );
    let world = format!("public_mode = \"world\"\n{GOOD}");
    let c = HostConfig::load(&dir_with(&world, Some((SECRETS, 0o600)))).unwrap();
    // the status page holds addresses: never more than the group's
    assert_eq!(
        (c.public_mode.file(false), c.public_mode.file(true)),
        (0o644, 0o640)
    );
    let bad = format!("public_mode = \"everyone\"\n{GOOD}");
    let e = HostConfig::load(&dir_with(&bad, Some((SECRETS, 0o600))))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && e.contains("\"group\""), "{e}");
}
