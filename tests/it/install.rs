//! Installing and running herald as a system tool (issue 36): the shell
//! completions and manual pages it writes, the systemd units of
//! `contrib/systemd/`, and `herald --version --verbose`. Each is checked
//! by the program that will read it: bash, zsh and fish, groff and man,
//! `systemd-analyze` (all from Debian's packages; ./test installs them;
//! a missing one fails the test with the package to install).

use crate::common::{herald, scratch};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HERALD: &str = env!("CARGO_BIN_EXE_herald");
const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// Run a program the check needs; a missing one fails with its package.
fn run(program: &str, package: &str, f: impl FnOnce(&mut Command) -> &mut Command) -> Output {
    let mut c = Command::new(program);
    f(&mut c);
    c.output().unwrap_or_else(|e| {
        panic!("{program}: {e}: install Debian's {package} (./test installs it)")
    })
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The commands `herald [path] --help` lists (clap's own `help` aside).
fn commands_of(path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let (code, out, err) = herald(&args);
    assert_eq!(code, 0, "{err}");
    let Some(start) = out.find("Commands:\n") else {
        return Vec::new();
    };
    out[start + 10..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Every command as the words that name it: `["host"]`,
/// `["playtest", "summarize"]`, …
fn all_commands() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for c in commands_of(&[]) {
        let subs = commands_of(&[&c]);
        out.push(vec![c.clone()]);
        for s in subs {
            out.push(vec![c.clone(), s]);
        }
    }
    assert!(
        out.len() > 20 && out.iter().any(|c| c.len() == 2),
        "{out:?}"
    );
    out
}

fn completion(shell: &str, dir: &Path) -> PathBuf {
    let (code, script, err) = herald(&["completions", shell]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join(format!("herald.{shell}"));
    std::fs::write(&path, script).unwrap();
    path
}

/// What bash offers after `words` (the last one being completed), through
/// the script's own function, as bash-completion calls it.
pub(crate) fn bash_offers(script: &Path, words: &[&str]) -> BTreeSet<String> {
    let line = words
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let prog = format!(
        "source '{}'\nCOMP_WORDS=({line})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n_herald herald '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len().saturating_sub(2)]
    );
    let out = run("bash", "bash", |c| c.arg("--norc").arg("-c").arg(&prog));
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// What fish offers for the command line `line`.
pub(crate) fn fish_offers(script: &Path, line: &str) -> BTreeSet<String> {
    let out = run("fish", "fish", |c| {
        c.arg("--no-config").arg("-c").arg(format!(
            "source '{}'; complete -C '{line}'",
            script.display()
        ))
    });
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn completions_for_bash_zsh_and_fish_parse_and_offer_every_command() {
    let d = scratch("completions");
    let commands = all_commands();
    let top: BTreeSet<String> = commands
        .iter()
        .filter(|c| c.len() == 1)
        .map(|c| c[0].clone())
        .collect();

    // bash: the script parses, and completing offers every command, each
    // subcommand, and a command's options.
    let bash = completion("bash", &d);
    let out = run("bash", "bash", |c| c.arg("-n").arg(&bash));
    assert!(out.status.success(), "bash -n: {}", text(&out.stderr));
    let offered = bash_offers(&bash, &["herald", ""]);
    assert!(top.is_subset(&offered), "{top:?} not all in {offered:?}");
    for c in commands.iter().filter(|c| c.len() == 2) {
        let offered = bash_offers(&bash, &["herald", &c[0], ""]);
        assert!(offered.contains(&c[1]), "{c:?}: {offered:?}");
    }
    let offered = bash_offers(&bash, &["herald", "host", "--w"]);
    assert!(
        offered.contains("--watch") && offered.contains("--wait"),
        "{offered:?}"
    );
    let offered = bash_offers(&bash, &["herald", "completions", ""]);
    assert!(
        ["bash", "zsh", "fish"].iter().all(|s| offered.contains(*s)),
        "{offered:?}"
    );

    // fish: the same, asked of fish itself.
    let fish = completion("fish", &d);
    let out = run("fish", "fish", |c| c.arg("--no-execute").arg(&fish));
    assert!(
        out.status.success(),
        "fish --no-execute: {}",
        text(&out.stderr)
    );
    let offered = fish_offers(&fish, "herald ");
    assert!(top.is_subset(&offered), "{top:?} not all in {offered:?}");
    for c in commands.iter().filter(|c| c.len() == 2) {
        let offered = fish_offers(&fish, &format!("herald {} ", c[0]));
        assert!(offered.contains(&c[1]), "{c:?}: {offered:?}");
    }
    let offered = fish_offers(&fish, "herald host --w");
    assert!(
        offered.contains("--watch") && offered.contains("--wait"),
        "{offered:?}"
    );

    // zsh: the script parses and describes every command to _describe.
    let zsh = completion("zsh", &d);
    let out = run("zsh", "zsh", |c| c.arg("-n").arg(&zsh));
    assert!(out.status.success(), "zsh -n: {}", text(&out.stderr));
    let script = std::fs::read_to_string(&zsh).unwrap();
    assert!(script.starts_with("#compdef herald"), "{}", &script[..40]);
    for c in &commands {
        let name = c.last().unwrap();
        assert!(script.contains(&format!("'{name}:")), "zsh: no {c:?}");
    }

    // Not a shell clap_complete knows: a usage error that lists them.
    let (code, _, err) = herald(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bash") && err.contains("fish") && err.contains("zsh"),
        "{err}"
    );
}

/// `herald man --out DIR/man1`: the folder, the files it holds.
fn man_pages(root: &Path) -> BTreeSet<String> {
    let dir = root.join("man1");
    let (code, out, err) = herald(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("herald-host.1"), "{out}");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// `man NAME` with the pages under `root` only, as plain ASCII text.
fn man(root: &Path, name: &str) -> Output {
    run("man", "man-db", |c| {
        c.env("MANPATH", root)
            .env("MANWIDTH", "200")
            .env("LC_ALL", "C")
            .env_remove("MAN_KEEP_FORMATTING")
            .arg(name)
    })
}

/// Text with every run of white space as one space (man justifies lines).
fn words(b: &[u8]) -> String {
    text(b).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn man_writes_one_page_per_command_and_man_reads_each() {
    let root = scratch("man");
    let files = man_pages(&root);
    let mut want: BTreeSet<String> = all_commands()
        .iter()
        .map(|c| format!("herald-{}.1", c.join("-")))
        .collect();
    want.insert("herald.1".to_string());
    assert_eq!(files, want);
    for f in &files {
        let path = root.join("man1").join(f);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{f}");
        // groff reads it without a warning (-ww: all of them; -k: UTF-8
        // input through preconv, as man does).
        let out = run("groff", "groff-base", |c| {
            c.args(["-k", "-man", "-Tutf8", "-ww", "-z"]).arg(&path)
        });
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{f}: {}",
            text(&out.stderr)
        );
        // man finds it by name on MANPATH and shows its NAME and SYNOPSIS.
        let name = f.trim_end_matches(".1");
        let out = man(&root, name);
        assert!(out.status.success(), "man {name}: {}", text(&out.stderr));
        let page = words(&out.stdout);
        let words = name.trim_start_matches("herald").replace('-', " ");
        assert!(
            page.contains("NAME")
                && page.contains(&format!("{name} - "))
                && page.contains("SYNOPSIS")
                && page.contains(&format!("herald{words}")),
            "man {name}:\n{page}"
        );
    }
    // The top page lists every command's page and the exit statuses.
    let page = words(&man(&root, "herald").stdout);
    for f in &files {
        if f != "herald.1" && f.matches('-').count() == 1 {
            let name = f.trim_end_matches(".1");
            assert!(page.contains(&format!("{name}(1)")), "{name}: {page}");
        }
    }
    assert!(
        page.contains("EXIT STATUS") && !page.contains("EXTRA"),
        "{page}"
    );
    // Written again over the same pages: the same bytes.
    let before = std::fs::read(root.join("man1/herald-host.1")).unwrap();
    man_pages(&root);
    assert_eq!(
        std::fs::read(root.join("man1/herald-host.1")).unwrap(),
        before
    );
    // --out naming a file: a usage error, nothing written.
    let file = root.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let (code, _, err) = herald(&["man", "--out", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a folder"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

const UNITS: [&str; 3] = [
    "herald-host.service",
    "herald-host-pass.service",
    "herald-host.timer",
];

/// The units of contrib/systemd/ as installed, in `dir`, but for the
/// program's path: `systemd-analyze verify` checks that ExecStart's
/// program exists, and /usr/local/bin/herald does not here, so it is
/// replaced by the herald just built (nothing else is changed).
fn units_in(dir: &Path) -> Vec<PathBuf> {
    UNITS
        .iter()
        .map(|u| {
            let text =
                std::fs::read_to_string(Path::new(REPO).join("contrib/systemd").join(u)).unwrap();
            let path = dir.join(u);
            std::fs::write(&path, text.replace("/usr/local/bin/herald", HERALD)).unwrap();
            path
        })
        .collect()
}

fn analyze(man_root: &Path, args: &[&str], units: &[PathBuf]) -> Output {
    run("systemd-analyze", "systemd", |c| {
        c.env("MANPATH", man_root).args(args).args(units)
    })
}

/// `key=value` lines of a unit, in order.
fn settings(unit: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(Path::new(REPO).join("contrib/systemd").join(unit)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn setting<'a>(s: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    s.iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

#[test]
fn the_systemd_units_pass_systemd_analyze_and_run_herald_sandboxed() {
    let d = scratch("systemd");
    // Their Documentation= is man:herald-host(1): verify looks it up with
    // man, on a MANPATH holding the pages `herald man` writes.
    let man_root = d.join("man");
    man_pages(&man_root);
    let units = units_in(&d);
    let out = analyze(&man_root, &["verify"], &units);
    assert!(
        out.status.success() && out.stderr.is_empty() && out.stdout.is_empty(),
        "systemd-analyze verify: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // The check can fail: a misspelt setting, a missing program, a missing
    // manual page are each reported.
    let broken = d.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    let good = std::fs::read_to_string(&units[0]).unwrap();
    for (what, from, to) in [
        ("setting", "ProtectSystem=strict", "ProtectSystem=strikt"),
        ("program", HERALD, "/nonexistent/herald"),
        ("manual page", "man:herald-host(1)", "man:herald-nosuch(1)"),
    ] {
        let path = broken.join("herald-host.service");
        std::fs::write(&path, good.replace(from, to)).unwrap();
        let out = analyze(&man_root, &["verify"], &[path]);
        assert!(
            !out.status.success() || !out.stderr.is_empty(),
            "a broken {what} passed"
        );
    }

    // What the units promise.
    let watch = settings("herald-host.service");
    let pass = settings("herald-host-pass.service");
    let timer = settings("herald-host.timer");
    assert_eq!(
        setting(&watch, "ExecStart"),
        ["/usr/local/bin/herald host /var/lib/herald --watch"]
    );
    assert_eq!(setting(&watch, "Restart"), ["on-failure"]);
    assert_eq!(
        setting(&pass, "ExecStart"),
        ["/usr/local/bin/herald host /var/lib/herald"]
    );
    assert_eq!(setting(&pass, "Type"), ["oneshot"]);
    assert_eq!(setting(&timer, "Unit"), ["herald-host-pass.service"]);
    assert!(!setting(&timer, "OnCalendar").is_empty());
    for s in [&watch, &pass] {
        assert_eq!(setting(s, "User"), ["herald"]);
        assert_eq!(setting(s, "KillSignal"), ["SIGTERM"]);
        assert_eq!(setting(s, "ProtectSystem"), ["strict"]);
        assert_eq!(setting(s, "ReadWritePaths"), ["/var/lib/herald"]);
        assert_eq!(setting(s, "NoNewPrivileges"), ["yes"]);
        assert_eq!(setting(s, "StateDirectory"), ["herald"]);
    }
    // Both services are sandboxed alike: their settings differ only in how
    // they run and start (the pass has no [Install]: the timer starts it).
    let sandbox = |s: &[(String, String)]| -> Vec<(String, String)> {
        s.iter()
            .filter(|(k, _)| {
                ![
                    "ExecStart",
                    "Type",
                    "Restart",
                    "RestartSec",
                    "TimeoutStartSec",
                    "Description",
                    "Conflicts",
                    "WantedBy",
                ]
                .contains(&k.as_str())
            })
            .cloned()
            .collect()
    };
    assert_eq!(sandbox(&watch), sandbox(&pass));
    // systemd's own rating of the sandbox (offline: no systemd running).
    for u in &units[..2] {
        let out = analyze(
            &man_root,
            &["security", "--offline=true", "--no-pager"],
            &[u.clone()],
        );
        let report = text(&out.stdout);
        let level: f64 = report
            .lines()
            .find_map(|l| l.split("Overall exposure level for ").nth(1))
            .and_then(|l| l.split(": ").nth(1))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{report}{}", text(&out.stderr)));
        assert!(level <= 2.0, "{}: exposure {level}:\n{report}", u.display());
    }

    // The command lines are herald's: run on an empty folder for
    // /var/lib/herald, each is refused for the missing host.toml (exit 1),
    // not as a usage error (exit 2).
    let host = d.join("host");
    std::fs::create_dir_all(&host).unwrap();
    for s in [&watch, &pass] {
        let line = setting(s, "ExecStart")[0].replace("/var/lib/herald", host.to_str().unwrap());
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let (code, _, err) = herald(&words);
        assert_eq!(code, 1, "{line}: {err}");
        assert!(err.contains("host.toml"), "{err}");
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn version_verbose_names_the_commit_the_format_and_every_ruleset() {
    let (code, out, _) = herald(&["--version"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("herald {}\n", env!("CARGO_PKG_VERSION")).as_str()
        )
    );
    let (code, short, _) = herald(&["-V"]);
    assert_eq!((code, short), (0, out));
    let (code, out, err) = herald(&["--version", "--verbose"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("herald {}\n", env!("CARGO_PKG_VERSION"))));
    // The commit: this checkout's HEAD, read here with git, or "unknown"
    // where the source is not a git checkout of its own.
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(REPO)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| text(&o.stdout).trim().to_string())
    };
    let own_checkout = git(&["rev-parse", "--show-toplevel"])
        .map(|t| Path::new(&t).canonicalize().ok() == Path::new(REPO).canonicalize().ok())
        .unwrap_or(false);
    let commit = if own_checkout {
        git(&["rev-parse", "HEAD"]).unwrap()
    } else {
        "unknown".to_string()
    };
    assert!(out.contains(&format!("\ncommit: {commit}\n")), "{out}");
    // The format: what a new game's file says.
    let d = scratch("version");
    let game = d.join("g");
    let (code, _, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "white,black",
        "--id",
        "g",
        "--out",
        game.to_str().unwrap(),
        "--light-passwords",
    ]);
    assert_eq!(code, 0, "{err}");
    let head = crate::common::head(&game);
    let format = head["format"].as_u64().unwrap();
    assert!(
        out.contains(&format!("\ngame file format: {format} ")),
        "{out}"
    );
    // Each ruleset: the version its text gives and the sha256 of the text
    // (games/<name>.toml), which is what a game records.
    assert_eq!(
        head["ruleset"]["sha256"].as_str().unwrap(),
        sha256_hex(&std::fs::read(Path::new(REPO).join("games/hexwar.toml")).unwrap())
    );
    let (_, games, _) = herald(&["games"]);
    let names: Vec<&str> = games
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names.len(), 5, "{games}");
    for name in names {
        let file = std::fs::read(Path::new(REPO).join(format!("games/{name}.toml"))).unwrap();
        let toml: toml::Table = toml::from_str(std::str::from_utf8(&file).unwrap()).unwrap();
        let version = toml["version"].as_str().unwrap();
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words, [name, version, &sha256_hex(&file)], "{line}");
    }
    // --verbose is only for --version.
    let (code, _, err) = herald(&["--verbose"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--version"), "{err}");
    // No command at all: a usage error (exit 2) pointing at the help.
    let (code, _, err) = herald(&["--wait", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--help"), "{err}");
}
