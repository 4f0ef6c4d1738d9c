//! Real mail servers for the tests: Postfix (SMTP, submission with AUTH,
//! implicit TLS) and Dovecot (IMAP, IMAPS) on 127.0.0.1, configured into a
//! folder under the system's temp folder. Nothing in /etc is changed and no
//! system service is started.
//!
//! The servers start once per run of the test binary, on first use
//! ([`servers`]), and every test shares them: each test takes accounts of
//! its own ([`MailServers::account`]) so tests running in parallel threads
//! never see each other's mail. At exit the daemons are stopped by the PIDs
//! they recorded; a run that was killed leaves them running, and the next
//! run stops them (again by recorded PID, after checking the process is the
//! one started from that folder) and removes the folder.
//!
//! Layout of the folder `herald-mailservers-<pid>/`:
//! `etc/` (main.cf, master.cf, vmailbox, dovecot.conf, users), `tls/`
//! (a self-signed certificate for 127.0.0.1 made with the openssl CLI; the
//! clients trust it as their CA), `mail/herald.test/<user>/` (one Maildir per
//! account, written by Postfix's virtual delivery agent and read by Dovecot),
//! `log/` (postfix.log, dovecot.log: look there when a test fails).
//!
//! Accounts: `u001@herald.test` … are created when the servers start (a
//! Postfix `texthash` map is read when its daemons start, so accounts added
//! later would not be seen); each test takes fresh ones. Addresses whose
//! local part is not in the map (e.g. `unknown@herald.test`) are refused
//! with 550 at RCPT. `+` is the recipient delimiter, so `u001+g1@herald.test`
//! lands in u001's Maildir.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The mail domain the servers accept mail for.
pub const DOMAIN: &str = "herald.test";
/// How many accounts are made at start (tests take them one by one).
const ACCOUNTS: usize = 400;
/// The virtual mail user (Debian's `mail`): owns the Maildirs.
const MAIL_UID: u32 = 8;
const MAIL_GID: u32 = 8;
const PREFIX: &str = "herald-mailservers-";

const INSTALL: &str = "the mail tests need Postfix, Dovecot (with its IMAP server) and the \
openssl command, run as root. Run ./test at the repository root (it installs them), or by hand: \
echo 'postfix postfix/main_mailer_type select No configuration' | debconf-set-selections && \
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postfix dovecot-core \
dovecot-imapd openssl";

pub struct MailServers {
    pub root: PathBuf,
    /// Plain SMTP, no AUTH: how the outside world hands mail in.
    pub smtp_port: u16,
    /// Submission: AUTH required, STARTTLS offered (plain allowed on loopback).
    pub submission_port: u16,
    /// Submission over implicit TLS (smtps), AUTH required.
    pub smtps_port: u16,
    pub imap_port: u16,
    pub imaps_port: u16,
    /// The certificate the servers present; clients trust it as a CA.
    pub ca_pem: PathBuf,
    /// Seconds the start took (both daemons, ready to serve).
    pub started_in: Duration,
    passwords: Vec<String>,
    next: AtomicUsize,
    postfix_pid: u32,
    dovecot_pid: u32,
}

#[derive(Debug, Clone)]
pub struct Account {
    /// `u001@herald.test`: the IMAP/SASL login and the mail address.
    pub address: String,
    pub local: String,
    pub password: String,
    pub maildir: PathBuf,
}

impl Account {
    /// `local+tag@herald.test`.
    pub fn plus(&self, tag: &str) -> String {
        format!("{}+{tag}@{DOMAIN}", self.local)
    }
}

static SERVERS: OnceLock<MailServers> = OnceLock::new();

/// The running servers, started on the first call of this test binary.
/// Panics (failing the test loudly) when they are missing or do not start.
pub fn servers() -> &'static MailServers {
    SERVERS.get_or_init(|| match MailServers::start() {
        Ok(s) => {
            register_stop_at_exit();
            eprintln!(
                "mail servers started in {} ms in {}",
                s.started_in.as_millis(),
                s.root.display()
            );
            s
        }
        Err(e) => panic!("{e}"),
    })
}

extern "C" {
    fn atexit(cb: extern "C" fn()) -> i32;
    fn kill(pid: i32, sig: i32) -> i32;
    fn geteuid() -> u32;
}
const SIGTERM: i32 = 15;

fn register_stop_at_exit() {
    extern "C" fn stop() {
        if let Some(s) = SERVERS.get() {
            s.stop();
        }
    }
    // SAFETY: registering a plain function pointer with the C library.
    unsafe {
        atexit(stop);
    }
}

fn which(path: &str) -> bool {
    Path::new(path).exists()
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.port())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn mkdir(path: &Path, uid: Option<u32>, gid: Option<u32>, mode: u32) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
    std::os::unix::fs::chown(path, uid, gid).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Run a command to its end. Its output goes to `log` (a file, not a pipe:
/// a daemon that forks keeps its inherited descriptors open, and reading a
/// pipe to its end would wait for the daemon to exit).
fn run(cmd: &mut Command, log: &Path) -> Result<(), String> {
    let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let status = cmd
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed ({status}): {}",
            std::fs::read_to_string(log).unwrap_or_default()
        ))
    }
}

fn uid_of(name: &str) -> Option<(u32, u32)> {
    let text = std::fs::read_to_string("/etc/passwd").ok()?;
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.len() > 3 && f[0] == name).then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))?
    })
}

fn gid_of(name: &str) -> Option<u32> {
    let text = std::fs::read_to_string("/etc/group").ok()?;
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.len() > 2 && f[0] == name).then(|| f[2].parse().ok())?
    })
}

/// The pid recorded in `file` (Postfix pads it with spaces), if the process
/// is alive and was started with `root` on its command line.
fn recorded_pid(file: &Path, root: &Path) -> Option<u32> {
    let pid: u32 = std::fs::read_to_string(file).ok()?.trim().parse().ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let needle = root.to_string_lossy();
    String::from_utf8_lossy(&cmdline)
        .contains(needle.as_ref())
        .then_some(pid)
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| s.split(") ").nth(1).is_some_and(|r| r.starts_with('Z')))
            .unwrap_or(true)
}

fn terminate(pids: &[u32], wait: Duration) {
    for &pid in pids {
        // SAFETY: sending a signal to a process id we recorded.
        unsafe {
            kill(pid as i32, SIGTERM);
        }
    }
    let t = Instant::now();
    while pids.iter().any(|&p| alive(p)) && t.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn postfix_pid_file(root: &Path) -> PathBuf {
    root.join("postfix/queue/pid/master.pid")
}
fn dovecot_pid_file(root: &Path) -> PathBuf {
    root.join("dovecot/run/master.pid")
}

/// Stop the daemons of earlier runs whose test process is gone, and remove
/// their folders.
fn clean_earlier_runs(tmp: &Path) {
    let Ok(list) = std::fs::read_dir(tmp) else {
        return;
    };
    for e in list.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(owner) = name.strip_prefix(PREFIX) else {
            continue;
        };
        let Ok(owner) = owner.parse::<u32>() else {
            continue;
        };
        if owner == std::process::id() || alive(owner) {
            continue;
        }
        let root = e.path();
        stop_recorded(&root);
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// Stop the daemons started from `root`, by the PIDs they recorded there.
fn stop_recorded(root: &Path) {
    let pids: Vec<u32> = [postfix_pid_file(root), dovecot_pid_file(root)]
        .iter()
        .filter_map(|f| recorded_pid(f, root))
        .collect();
    terminate(&pids, Duration::from_secs(5));
}

impl MailServers {
    fn start() -> Result<MailServers, String> {
        let root = std::env::temp_dir().join(format!("{PREFIX}{}", std::process::id()));
        Self::start_in(&root).inspect_err(|_| stop_recorded(&root))
    }

    // Long: one whole fixture or table of cases, set up in one place.
    fn start_in(root: &Path) -> Result<MailServers, String> {
        let root = root.to_path_buf();
        for p in [
            "/usr/sbin/postfix",
            "/usr/lib/postfix/sbin/master",
            "/usr/sbin/dovecot",
            "/usr/lib/dovecot/imap",
            "/usr/lib/dovecot/imap-login",
            "/usr/bin/openssl",
        ] {
            if !which(p) {
                return Err(format!("{p} is missing: {INSTALL}"));
            }
        }
        // SAFETY: a plain libc call without arguments.
        if unsafe { geteuid() } != 0 {
            return Err(format!(
                "the mail servers must be started as root: {INSTALL}"
            ));
        }
        let postfix = uid_of("postfix").ok_or(format!("no `postfix` user: {INSTALL}"))?;
        let postdrop = gid_of("postdrop").ok_or(format!("no `postdrop` group: {INSTALL}"))?;
        if uid_of("dovenull").is_none() || uid_of("dovecot").is_none() {
            return Err(format!("no `dovecot`/`dovenull` user: {INSTALL}"));
        }

        let t0 = Instant::now();
        let mut phases: Vec<(&str, Duration)> = Vec::new();
        let tmp = std::env::temp_dir();
        clean_earlier_runs(&tmp);
        let _ = std::fs::remove_dir_all(&root);
        let r = root.display().to_string();

        for d in [
            "etc/postfix",
            "etc/dovecot",
            "log",
            "tls",
            "dovecot/run",
            "postfix",
        ] {
            mkdir(&root.join(d), None, None, 0o755)?;
        }
        mkdir(&root, None, None, 0o755)?;
        for d in ["mail", "mail/herald.test", "home", "dovecot/index"] {
            mkdir(&root.join(d), Some(MAIL_UID), Some(MAIL_GID), 0o755)?;
        }
        mkdir(&root.join("postfix/data"), Some(postfix.0), None, 0o700)?;
        // The queue folders `postfix start` would make (see postfix-files):
        // starting `master` directly skips `postfix check`, which takes
        // about 1.5 s of the start.
        let q = root.join("postfix/queue");
        mkdir(&q, None, None, 0o755)?;
        for d in [
            "active", "bounce", "corrupt", "defer", "deferred", "flush", "hold", "incoming",
            "private", "saved", "trace",
        ] {
            mkdir(&q.join(d), Some(postfix.0), None, 0o700)?;
        }
        mkdir(&q.join("maildrop"), Some(postfix.0), Some(postdrop), 0o1730)?;
        mkdir(&q.join("public"), Some(postfix.0), Some(postdrop), 0o710)?;
        mkdir(&q.join("pid"), None, None, 0o755)?;

        let ca_pem = root.join("tls/cert.pem");
        let key = root.join("tls/key.pem");
        phases.push(("openssl", t0.elapsed()));
        run(
            Command::new("openssl")
                .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
                .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "3650"])
                .args(["-subj", "/CN=127.0.0.1", "-addext"])
                .arg("subjectAltName=IP:127.0.0.1,DNS:localhost")
                .arg("-keyout")
                .arg(&key)
                .arg("-out")
                .arg(&ca_pem),
            &root.join("log/openssl.out"),
        )?;

        let smtp_port = free_port()?;
        let submission_port = free_port()?;
        let smtps_port = free_port()?;
        let imap_port = free_port()?;
        let imaps_port = free_port()?;

        // Accounts: passwords differ per run; loopback only.
        let seed = std::process::id() as u64 ^ (t0.elapsed().as_nanos() as u64).rotate_left(17);
        let mut passwords = Vec::with_capacity(ACCOUNTS);
        let mut vmailbox = String::new();
        let mut users = String::new();
        for i in 1..=ACCOUNTS {
            let local = format!("u{i:03}");
            let pw = format!(
                "pw-{:x}-{i}",
                seed.wrapping_mul(6364136223846793005) ^ i as u64
            );
            vmailbox.push_str(&format!("{local}@{DOMAIN} {DOMAIN}/{local}/\n"));
            users.push_str(&format!("{local}@{DOMAIN}:{{PLAIN}}{pw}\n"));
            passwords.push(pw);
        }
        write(&root.join("etc/postfix/vmailbox"), &vmailbox)?;
        write(&root.join("etc/dovecot/users"), &users)?;

        write(
            &root.join("etc/postfix/main.cf"),
            &format!(
                "compatibility_level = 3.6
queue_directory = {r}/postfix/queue
data_directory = {r}/postfix/data
mail_owner = postfix
myhostname = mail.{DOMAIN}
mydomain = {DOMAIN}
myorigin = {DOMAIN}
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.1/32
maillog_file = {r}/log/postfix.log
maillog_file_prefixes = {r}/log
virtual_mailbox_domains = {DOMAIN}
virtual_mailbox_base = {r}/mail
virtual_mailbox_maps = texthash:{r}/etc/postfix/vmailbox
virtual_uid_maps = static:{MAIL_UID}
virtual_gid_maps = static:{MAIL_GID}
virtual_minimum_uid = 1
virtual_mailbox_limit = 0
message_size_limit = 104857600
recipient_delimiter = +
default_transport = error:mail to the outside is not delivered in tests
relay_transport = error:mail to the outside is not delivered in tests
alias_maps =
alias_database =
smtpd_tls_cert_file = {r}/tls/cert.pem
smtpd_tls_key_file = {r}/tls/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = {r}/dovecot/run/auth-postfix
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
smtpd_error_sleep_time = 0
smtpd_soft_error_limit = 1000
smtpd_hard_error_limit = 1000
smtpd_client_connection_rate_limit = 0
smtpd_client_connection_count_limit = 0
smtpd_client_auth_rate_limit = 0
biff = no
"
            ),
        )?;
        let auth = "  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
";
        write(
            &root.join("etc/postfix/master.cf"),
            &format!(
                "127.0.0.1:{smtp_port} inet n - n - - smtpd
127.0.0.1:{submission_port} inet n - n - - smtpd
  -o syslog_name=postfix/submission
{auth}127.0.0.1:{smtps_port} inet n - n - - smtpd
  -o syslog_name=postfix/smtps
  -o smtpd_tls_wrappermode=yes
{auth}pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"
            ),
        )?;
        write(
            &root.join("etc/dovecot/dovecot.conf"),
            &format!(
                "base_dir = {r}/dovecot/run
state_dir = {r}/dovecot/state
log_path = {r}/log/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{r}/tls/cert.pem
ssl_key = <{r}/tls/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:{r}/mail/%d/%n:INDEX={r}/dovecot/index/%d/%n
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {r}/etc/dovecot/users
}}
userdb {{
  driver = static
  args = uid={MAIL_UID} gid={MAIL_GID} home={r}/home/%d/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service auth {{
  unix_listener auth-postfix {{
    mode = 0666
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
"
            ),
        )?;

        phases.push(("dovecot", t0.elapsed()));
        run(
            Command::new("/usr/sbin/dovecot")
                .arg("-c")
                .arg(root.join("etc/dovecot/dovecot.conf")),
            &root.join("log/dovecot-start.out"),
        )?;
        // Postfix's master runs in the foreground unless `-w` is given (then
        // it forks and waits inside the call until the daemon is ready). It
        // is spawned and left running instead, and readiness is checked
        // below (its pid file, its ports greeting), so the start's phases
        // show in log/start-times.txt: Postfix takes about 2 s to record its
        // pid, most of the whole start. It is stopped by that pid.
        phases.push(("postfix", t0.elapsed()));
        let out_path = root.join("log/postfix-start.out");
        let out = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
        Command::new("/usr/lib/postfix/sbin/master")
            .arg("-c")
            .arg(root.join("etc/postfix"))
            .stdin(std::process::Stdio::null())
            .stdout(out.try_clone().map_err(|e| e.to_string())?)
            .stderr(out)
            .spawn()
            .map_err(|e| format!("cannot start Postfix's master: {e}"))?;

        let failed = |what: &str| {
            format!(
                "{what}; logs in {}/log (postfix.log, dovecot.log)",
                root.display()
            )
        };
        let deadline = Instant::now() + Duration::from_secs(15);
        phases.push(("pidwait", t0.elapsed()));
        let dovecot_pid = loop {
            if let Some(p) = recorded_pid(&dovecot_pid_file(&root), &root) {
                break p;
            }
            if Instant::now() > deadline {
                return Err(failed("Dovecot did not record its pid"));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let postfix_pid = loop {
            if let Some(p) = recorded_pid(&postfix_pid_file(&root), &root) {
                break p;
            }
            if Instant::now() > deadline {
                return Err(failed("Postfix did not record its pid"));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let servers = MailServers {
            root: root.clone(),
            smtp_port,
            submission_port,
            smtps_port,
            imap_port,
            imaps_port,
            ca_pem,
            started_in: Duration::ZERO,
            passwords,
            next: AtomicUsize::new(0),
            postfix_pid,
            dovecot_pid,
        };
        // Ready: each port greets, and Dovecot's auth socket for Postfix is there.
        phases.push(("greet", t0.elapsed()));
        for (port, greeting) in [
            (imap_port, "* OK"),
            (smtp_port, "220 "),
            (submission_port, "220 "),
        ] {
            loop {
                if greets(port, greeting) {
                    break;
                }
                if Instant::now() > deadline {
                    servers.stop();
                    return Err(failed(&format!("nothing greets on port {port}")));
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        phases.push(("authsock", t0.elapsed()));
        while !root.join("dovecot/run/auth-postfix").exists() {
            if Instant::now() > deadline {
                servers.stop();
                return Err(failed("Dovecot's auth socket for Postfix did not appear"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        phases.push(("done", t0.elapsed()));
        let _ = std::fs::write(
            root.join("log/start-times.txt"),
            phases
                .iter()
                .map(|(p, d)| format!("{p} before {} ms\n", d.as_millis()))
                .collect::<String>(),
        );
        Ok(MailServers {
            started_in: t0.elapsed(),
            ..servers
        })
    }

    /// Stop both daemons (by the PIDs they recorded); the folder stays for
    /// its logs until the next run removes it.
    pub fn stop(&self) {
        terminate(
            &[self.postfix_pid, self.dovecot_pid],
            Duration::from_secs(3),
        );
    }

    /// A fresh account no other test uses.
    pub fn account(&self) -> Account {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        assert!(
            i < ACCOUNTS,
            "more than {ACCOUNTS} mail accounts asked for: raise ACCOUNTS in tests/it/mailservers.rs"
        );
        let local = format!("u{:03}", i + 1);
        Account {
            address: format!("{local}@{DOMAIN}"),
            maildir: self.root.join("mail").join(DOMAIN).join(&local),
            local,
            password: self.passwords[i].clone(),
        }
    }

    /// Put a mail into an account's mailbox the way a delivery agent does
    /// (Maildir `tmp/` then `new/`, owned by the mail user), for Dovecot to
    /// serve over IMAP.
    pub fn deliver(&self, to: &Account, bytes: &[u8]) {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        for d in ["", "tmp", "new", "cur"] {
            let p = to.maildir.join(d);
            if !p.exists() {
                mkdir(&p, Some(MAIL_UID), Some(MAIL_GID), 0o700).unwrap();
            }
        }
        let name = format!(
            "{}.T{n}P{}.herald-test",
            1_700_000_000 + n,
            std::process::id()
        );
        let tmp = to.maildir.join("tmp").join(&name);
        std::fs::write(&tmp, bytes).unwrap();
        std::os::unix::fs::chown(&tmp, Some(MAIL_UID), Some(MAIL_GID)).unwrap();
        std::fs::rename(&tmp, to.maildir.join("new").join(&name)).unwrap();
    }

    /// The mails in an account's Maildir (new/ and cur/), sorted by name.
    pub fn mails(&self, of: &Account) -> Vec<Vec<u8>> {
        let mut names = Vec::new();
        for d in ["new", "cur"] {
            if let Ok(list) = std::fs::read_dir(of.maildir.join(d)) {
                names.extend(list.flatten().map(|e| e.path()));
            }
        }
        names.sort_by_key(|p| p.file_name().map(|n| n.to_owned()));
        names.iter().filter_map(|p| std::fs::read(p).ok()).collect()
    }

    /// Wait (up to 20 s) until `of` holds at least `n` mails; return them.
    pub fn wait_for_mails(&self, of: &Account, n: usize) -> Vec<Vec<u8>> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let m = self.mails(of);
            if m.len() >= n {
                return m;
            }
            if Instant::now() > deadline {
                panic!(
                    "{} holds {} mails, not {n}, after 20 s (see {}/log/postfix.log)",
                    of.address,
                    m.len(),
                    self.root.display()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn greets(port: u16, greeting: &str) -> bool {
    let Ok(s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut line = String::new();
    let mut r = BufReader::new(&s);
    if r.read_line(&mut line).is_err() || !line.starts_with(greeting) {
        return false;
    }
    let quit: &[u8] = if greeting.starts_with('*') {
        b"a LOGOUT\r\n"
    } else {
        b"QUIT\r\n"
    };
    let _ = (&s).write_all(quit);
    let mut rest = Vec::new();
    let _ = (&s).read_to_end(&mut rest);
    true
}

/// A TCP relay to a real SMTP server that goes down on cue: it forwards
/// connections until the server has accepted `n` mails (a `250` answer
/// with "queued as" passed through it), then closes every connection and
/// its port, as a server that stops does: later connections are refused.
/// It reads the SMTP dialogue, so the client must use plain SMTP through it.
pub struct Cut {
    pub port: u16,
}

impl Cut {
    pub fn after_accepted(to: u16, n: usize) -> Cut {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        l.set_nonblocking(true).unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let down = Arc::new(AtomicBool::new(false));
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(120);
            while !down.load(Ordering::SeqCst) && Instant::now() < deadline {
                let Ok((client, _)) = l.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                if down.load(Ordering::SeqCst) {
                    break;
                }
                client.set_nonblocking(false).unwrap();
                let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                    return;
                };
                let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
                std::thread::spawn(move || pipe(c2, s2));
                let (accepted, down) = (accepted.clone(), down.clone());
                std::thread::spawn(move || {
                    let mut r = BufReader::new(server.try_clone().unwrap());
                    let mut c = client;
                    loop {
                        let mut line = Vec::new();
                        if r.read_until(b'\n', &mut line).unwrap_or(0) == 0
                            || c.write_all(&line).is_err()
                        {
                            break;
                        }
                        if line.starts_with(b"250 ")
                            && String::from_utf8_lossy(&line).contains("queued as")
                            && accepted.fetch_add(1, Ordering::SeqCst) + 1 >= n
                        {
                            down.store(true, Ordering::SeqCst);
                            break;
                        }
                    }
                    let _ = c.shutdown(std::net::Shutdown::Both);
                    let _ = server.shutdown(std::net::Shutdown::Both);
                });
            }
            drop(l);
        });
        Cut { port }
    }
}

fn pipe(mut from: TcpStream, mut to: TcpStream) {
    let _ = std::io::copy(&mut from, &mut to);
    let _ = to.shutdown(std::net::Shutdown::Both);
    let _ = from.shutdown(std::net::Shutdown::Both);
}

#[test]
fn the_servers_start_and_serve_each_account_its_own_mail() {
    let s = servers();
    let a = s.account();
    let b = s.account();
    assert_ne!(a.address, b.address);
    // Plain SMTP on port 25's stand-in: mail for a and for b+tag, and a
    // refused unknown recipient.
    let mut c = TcpStream::connect(("127.0.0.1", s.smtp_port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut expect = |c: &mut TcpStream, send: &str, code: &str| {
        if !send.is_empty() {
            c.write_all(send.as_bytes()).unwrap();
        }
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            assert!(line.starts_with(code), "after {send:?}: {line}");
            if line.as_bytes().get(3) == Some(&b' ') {
                break;
            }
        }
    };
    expect(&mut c, "", "220");
    expect(&mut c, "EHLO test\r\n", "250");
    expect(&mut c, "MAIL FROM:<x@example.org>\r\n", "250");
    expect(&mut c, &format!("RCPT TO:<unknown@{DOMAIN}>\r\n"), "550");
    expect(&mut c, &format!("RCPT TO:<{}>\r\n", a.address), "250");
    expect(&mut c, &format!("RCPT TO:<{}>\r\n", b.plus("g1")), "250");
    expect(&mut c, "DATA\r\n", "354");
    expect(
        &mut c,
        "Subject: hello\r\nMessage-ID: <t1@example.org>\r\n\r\nhi\r\n.\r\n",
        "250",
    );
    expect(&mut c, "QUIT\r\n", "221");
    for who in [&a, &b] {
        let m = s.wait_for_mails(who, 1);
        assert_eq!(m.len(), 1);
        assert!(String::from_utf8_lossy(&m[0]).contains("Message-ID: <t1@example.org>"));
    }
    assert!(s.started_in < Duration::from_secs(10), "{:?}", s.started_in);
}
