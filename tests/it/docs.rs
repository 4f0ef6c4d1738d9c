//! The docs say what herald does (issue 54): every key of host.toml from
//! the parser's own table in herald-host(1) and docs/host.md, the shell
//! blocks of docs/ run as the README's are (tests/it/readme.rs), the
//! README's two commands name what `./test` installs, the systemd units
//! and the report mails as docs/host.md tells them.

use crate::common::{herald, scratch};
use crate::readme::{blocks, shell};
use herald::host::config::{Omitted, KEYS};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(REPO).join(path)).unwrap()
}

/// `man NAME` of the pages `herald man` writes, as plain text with every
/// run of white space one space.
fn man_page(name: &str) -> String {
    let root = scratch("docs-man");
    let (code, _, err) = herald(&["man", "--out", root.join("man1").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let out = Command::new("man")
        .env("MANPATH", &root)
        .env("MANWIDTH", "200")
        .env("LC_ALL", "C")
        .env_remove("MAN_KEEP_FORMATTING")
        .arg(name)
        .output()
        .expect("man (man-db) is installed by ./test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&root);
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text of a page between its section `title` and the next one.
fn section<'a>(page: &'a str, title: &str, next: &str) -> &'a str {
    let start = page
        .find(&format!(" {title} "))
        .unwrap_or_else(|| panic!("no {title} in {page}"));
    let rest = &page[start..];
    &rest[..rest.find(&format!(" {next} ")).unwrap_or(rest.len())]
}

#[test]
fn every_host_toml_key_is_in_herald_host_1_and_docs_host_md() {
    let page = man_page("herald-host");
    let files = section(&page, "FILES", "EXAMPLES");
    let docs = read("docs/host.md");
    let mut missing = Vec::new();
    for k in KEYS {
        let place = match k.section {
            "" => String::new(),
            "secrets" => "host.secrets.toml: ".into(),
            s => format!("[{s}] "),
        };
        let default = match k.default {
            Omitted::Required => "required".to_string(),
            Omitted::Unset => "none".to_string(),
            Omitted::Value(v) | Omitted::Words(v) => format!("default {v}"),
        };
        let want = format!("{place}{} ({default})", k.name);
        if !files.contains(&want) {
            missing.push(format!("herald-host(1) FILES lacks `{want}`"));
        }
        // docs/host.md shows it set (`key = …`, commented out or not).
        let set = docs.lines().any(|l| {
            l.trim_start_matches(['#', ' '])
                .strip_prefix(k.name)
                .is_some_and(|r| r.trim_start().starts_with('='))
        });
        if !set {
            missing.push(format!("docs/host.md never shows `{} = …`", k.name));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // and the page has the sections a manual page has
    for s in [
        "NAME",
        "SYNOPSIS",
        "EXIT STATUS",
        "FILES",
        "EXAMPLES",
        "SEE ALSO",
    ] {
        assert!(
            page.contains(&format!(" {s} ")) || page.starts_with(s),
            "no {s}: {page}"
        );
    }
}

#[test]
fn every_manual_page_has_exit_status_files_or_not_examples_and_see_also() {
    let page = man_page("herald");
    assert!(!page.contains("EXTRA"), "{page}");
    let exit = section(&page, "EXIT STATUS", "FILES");
    for code in [
        "0 success",
        "1 refused",
        "2 usage",
        "3 busy",
        "70 an internal fault",
    ] {
        assert!(exit.contains(code), "{code}: {exit}");
    }
    let see = section(&page, "SEE ALSO", "VERSION");
    assert!(
        see.contains("herald-host(1)") && see.contains("herald-new(1)"),
        "{see}"
    );
    let page = man_page("herald-host-open");
    let examples = section(&page, "EXAMPLES", "SEE ALSO");
    assert!(examples.contains("herald host open"), "{examples}");
    let see = section(&page, "SEE ALSO", "VERSION");
    assert!(
        see.contains("herald(1)") && see.contains("herald-host(1)"),
        "{see}"
    );
}

/// Every ```sh block of docs/*.md runs as the README's do (in order, one
/// scratch folder per file, the herald just built first on PATH; ```sh
/// skip only shown), and prints what the ```text block after it says.
#[test]
fn every_runnable_shell_block_of_the_docs_prints_what_the_text_says() {
    let bin = Path::new(env!("CARGO_BIN_EXE_herald"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut docs: Vec<_> = std::fs::read_dir(Path::new(REPO).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    for doc in &docs {
        let md = std::fs::read_to_string(doc).unwrap();
        let dir = scratch("docs-sh");
        for b in blocks(&md) {
            if b.lang() != "sh" || b.flag("skip") {
                continue;
            }
            ran += 1;
            if let Err(e) = shell(&b, &dir, &path) {
                failures.push(format!(
                    "{}:{} (```{}):\n{e}\n--- the block ---\n{}",
                    doc.display(),
                    b.line,
                    b.info.join(" "),
                    b.body
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 2, "only {ran} runnable blocks in docs/");
}

/// The packages `./test` installs where missing (its `need+=(…)` lines).
fn packages_test_installs() -> BTreeSet<String> {
    read("test")
        .lines()
        .filter_map(|l| l.split("need+=(").nth(1))
        .map(|r| r.split(')').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn the_readme_names_every_package_test_installs_and_that_it_needs_root_or_sudo() {
    let pkgs = packages_test_installs();
    assert!(pkgs.len() >= 5 && pkgs.contains("chromium"), "{pkgs:?}");
    let md = read("README.md");
    let start = md
        .find("## Two commands")
        .expect("the README's two commands");
    let rest = &md[start + 3..];
    let two = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let missing: Vec<_> = pkgs
        .iter()
        .filter(|p| !two.contains(&format!("`{p}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "the README's two commands do not name {missing:?}"
    );
    assert!(two.contains("root") && two.contains("sudo"), "{two}");
}

#[test]
fn the_systemd_units_claim_no_umask_and_name_public_mode() {
    for u in ["herald-host.service", "herald-host-pass.service"] {
        let text = read(&format!("contrib/systemd/{u}"));
        // herald sets its own umask (077): a UMask= here would promise
        // modes it never gives.
        assert!(
            !text.lines().any(|l| l.trim_start().starts_with("UMask=")),
            "{u} sets UMask"
        );
        assert!(
            text.contains("public_mode"),
            "{u} does not say how pages are shared"
        );
    }
    let host = read("docs/host.md");
    let running = &host[host.find("## Running the host").unwrap()..];
    assert!(
        running.contains("public_mode"),
        "docs/host.md, Running the host"
    );
}

/// The attachments a report mail carries are the ones docs/host.md's
/// `attach_png` says: the file names, both ways.
#[test]
fn report_mails_carry_what_docs_host_md_says() {
    let d = scratch("docs-mail");
    let g = d.join("g");
    let (code, _, err) = herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue",
        "--email",
        "red=red@example.org",
        "--email",
        "blue=blue@example.org",
        "--moderator",
        "host@example.org",
        "--light-passwords",
        "--out",
        g.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut sent = BTreeSet::new();
    for e in std::fs::read_dir(g.join("outbox")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        for part in text.split("filename=\"").skip(1) {
            sent.insert(part.split('"').next().unwrap().to_string());
        }
    }
    assert!(sent.contains("board.png"), "{sent:?}");
    let host = read("docs/host.md");
    let lines: Vec<&str> = host.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("attach_png ="))
        .expect("docs/host.md shows attach_png");
    let comment: String = lines[..at]
        .iter()
        .rev()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l} "))
        .collect();
    let said: BTreeSet<String> = comment
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| {
            [".png", ".svg", ".html", ".json", ".txt"]
                .iter()
                .any(|x| w.ends_with(x) && w.len() > x.len())
        })
        .map(str::to_string)
        .collect();
    assert_eq!(said, sent, "docs/host.md's attach_png: {comment}");
    let _ = std::fs::remove_dir_all(&d);
}
