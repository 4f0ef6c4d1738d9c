//! The import order `src/lib.rs` states is the one the code keeps: every
//! `crate::` path in a module names only modules below it in that order
//! (none on its own line but itself), and the files of one folder do not
//! import each other in a circle. The order is read from `src/lib.rs`
//! itself, so the statement and the check cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// herald's own source.
pub(crate) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The source with comments and the contents of string and character
/// literals blanked out (line ends kept), so that only code is scanned.
pub(crate) fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    while i < c.len() {
        if peek(&c, i + 0) == '/' && peek(&c, i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if peek(&c, i + 0) == '/' && peek(&c, i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && peek(&c, i + 1) == '*' {
                    depth += 1;
                    i += 2;
                    out.push_str("  ");
                } else if c[i] == '*' && peek(&c, i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    out.push_str("  ");
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if peek(&c, i + 0) == 'r'
            && (peek(&c, i + 1) == '"'
                || (peek(&c, i + 1) == '#' && (peek(&c, i + 2) == '"' || peek(&c, i + 2) == '#')))
            && (!word_before(&c, i) || (c[i - 1] == 'b' && !word_before(&c, i - 1)))
        {
            // A raw string: r"…", r#"…"#, br##"…"##.
            let mut hashes = 0;
            i += 1;
            while peek(&c, i + 0) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            out.push('"');
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && (0..hashes).all(|k| peek(&c, i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
            out.push('"');
        } else if peek(&c, i + 0) == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if peek(&c, i + 0) == '\'' && (peek(&c, i + 1) == '\\' || peek(&c, i + 2) == '\'') {
            // A character literal ('x', '\n', '\''); a lifetime is left as it is.
            out.push('\'');
            i += 1;
            if peek(&c, i + 0) == '\\' {
                i += 1;
            }
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push('\'');
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The character at `i`, or NUL past the end.
fn peek(c: &[char], i: usize) -> char {
    c.get(i).copied().unwrap_or('\0')
}

/// Whether the character before `i` continues a word (so `i` does not
/// start one).
fn word_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

fn ident_at(c: &[char], mut i: usize) -> (String, usize) {
    let mut s = String::new();
    while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
        s.push(c[i]);
        i += 1;
    }
    (s, i)
}

/// The first name of every path that starts with `root::` in `code`:
/// `crate::games::Seat` gives `games`; `crate::{error::Error, games}`
/// gives `error` and `games`.
fn roots(code: &str, root: &str) -> BTreeSet<String> {
    let c: Vec<char> = code.chars().collect();
    let pat: Vec<char> = format!("{root}::").chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i + pat.len() <= c.len() {
        let before_ok =
            i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_' || c[i - 1] == ':');
        if before_ok && c[i..i + pat.len()] == pat[..] {
            let mut j = i + pat.len();
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if j < c.len() && c[j] == '{' {
                // The first name of each item at the group's top level.
                let mut depth = 0;
                let mut expect = true;
                while j < c.len() {
                    match c[j] {
                        '{' => {
                            depth += 1;
                            j += 1;
                            if depth == 1 {
                                expect = true;
                            }
                        }
                        '}' => {
                            depth -= 1;
                            j += 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        ',' if depth == 1 => {
                            expect = true;
                            j += 1;
                        }
                        ch if depth == 1 && expect && (ch.is_alphabetic() || ch == '_') => {
                            let (name, k) = ident_at(&c, j);
                            out.insert(name);
                            expect = false;
                            j = k;
                        }
                        _ => j += 1,
                    }
                }
            } else {
                let (name, k) = ident_at(&c, j);
                if !name.is_empty() {
                    out.insert(name);
                }
                j = k;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out.remove("self");
    out
}

/// The layers `src/lib.rs` states, top first: the lines of the `text`
/// block under its "The import order" heading, each starting with the
/// names of its modules.
fn layers(lib: &str, modules: &BTreeSet<String>) -> Vec<Vec<String>> {
    let doc: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let heading = doc
        .iter()
        .position(|l| l.starts_with('#') && l.contains("The import order"))
        .expect("src/lib.rs has a heading \"The import order\"");
    let open = heading
        + doc[heading..]
            .iter()
            .position(|l| l.trim() == "```text")
            .expect("a ```text block under the heading");
    let mut out = Vec::new();
    for l in &doc[open + 1..] {
        if l.trim() == "```" {
            return out;
        }
        let names: Vec<String> = l
            .split_whitespace()
            .take_while(|w| modules.contains(*w))
            .map(str::to_string)
            .collect();
        assert!(
            !names.is_empty(),
            "src/lib.rs, the import order: `{l}` names no module of the crate"
        );
        out.push(names);
    }
    panic!("src/lib.rs: the import order's block is not closed");
}

/// The modules `src/lib.rs` declares, and the names it re-exports with
/// the module each comes from (`pub use error::{Error, Result}`).
fn declared(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let code = code_only(lib);
    let mut modules = BTreeSet::new();
    let mut reexports = BTreeMap::new();
    for l in code.lines().map(str::trim) {
        let l = l.strip_prefix("pub ").unwrap_or(l);
        if let Some(m) = l.strip_prefix("mod ") {
            modules.insert(m.trim_end_matches(';').trim().to_string());
        } else if let Some(u) = l.strip_prefix("use ") {
            let (m, rest) = u.split_once("::").expect("a `use` with a path");
            for name in rest.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')) {
                if !name.is_empty() && name != "self" {
                    reexports.insert(name.to_string(), m.to_string());
                }
            }
        }
    }
    (modules, reexports)
}

pub(crate) fn rust_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            rust_files(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

/// The files of a top-level module: `src/m.rs` or everything in `src/m/`.
fn files_of(src: &Path, module: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let file = src.join(format!("{module}.rs"));
    if file.exists() {
        out.push(file);
    }
    rust_files(&src.join(module), &mut out);
    assert!(!out.is_empty(), "no source for module `{module}`");
    out
}

/// Module → the other top-level modules its code names, with a file each.
fn uses(src: &Path) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let lib = read(&src.join("lib.rs"));
    let (modules, reexports) = declared(&lib);
    let mut out: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for m in &modules {
        let entry = out.entry(m.clone()).or_default();
        for f in files_of(src, m) {
            let code = code_only(&read(&f));
            let mut named = roots(&code, "crate");
            named.extend(above_the_root(src, &f, &code));
            for name in named {
                let target = if modules.contains(&name) {
                    name
                } else if let Some(t) = reexports.get(&name) {
                    t.clone()
                } else {
                    panic!(
                        "{}: `crate::{name}` is neither a module nor a re-export of src/lib.rs",
                        f.display()
                    );
                };
                if &target != m {
                    entry.entry(target).or_insert_with(|| f.clone());
                }
            }
        }
    }
    out
}

/// The top-level modules a file names through `super::` chains that climb
/// past the crate's root (`super::super::mid` in `src/low/c.rs`).
fn above_the_root(src: &Path, file: &Path, code: &str) -> BTreeSet<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut depth = rel.components().count();
    if rel.file_name().is_some_and(|n| n == "mod") {
        depth -= 1;
    }
    let c: Vec<char> = code.chars().collect();
    let pat: Vec<char> = "super::".chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i + pat.len() <= c.len() {
        if c[i..i + pat.len()] == pat[..] && !(word_before(&c, i) || (i > 0 && c[i - 1] == ':')) {
            let mut ups = 0;
            let mut j = i;
            while j + pat.len() <= c.len() && c[j..j + pat.len()] == pat[..] {
                ups += 1;
                j += pat.len();
            }
            let (name, _) = ident_at(&c, j);
            if ups >= depth && !name.is_empty() {
                out.insert(name);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Every use of a module that is not below the user in `lib.rs`'s order.
fn against_the_order(src: &Path) -> Vec<String> {
    let lib = read(&src.join("lib.rs"));
    let (modules, _) = declared(&lib);
    let layers = layers(&lib, &modules);
    let mut rank = BTreeMap::new();
    for (i, layer) in layers.iter().enumerate() {
        for m in layer {
            assert!(
                rank.insert(m.clone(), i).is_none(),
                "src/lib.rs, the import order: `{m}` is listed twice"
            );
        }
    }
    for m in &modules {
        assert!(
            rank.contains_key(m),
            "src/lib.rs, the import order: module `{m}` is not listed"
        );
    }
    let mut wrong = Vec::new();
    for (m, targets) in uses(src) {
        for (t, file) in targets {
            if rank[&t] <= rank[&m] {
                wrong.push(format!(
                    "src/{}: uses crate::{t}, but `{t}` is not below `{m}` in src/lib.rs's import order",
                    file.strip_prefix(src).unwrap().display()
                ));
            }
        }
    }
    wrong
}

/// Sibling files a file names: `super::x` from `a/b.rs`, `crate::a::x`.
fn siblings(file: &Path, folder_path: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    let code = code_only(&read(file));
    let mut out = roots(&code, "super");
    if !folder_path.is_empty() {
        out.extend(roots(&code, &format!("crate::{folder_path}")));
    }
    let own = file.file_stem().unwrap().to_string_lossy().to_string();
    out.retain(|n| names.contains(n) && n != &own);
    out
}

/// Circles of imports among the files of one folder (its `mod.rs`, the
/// folder's face, apart), but in the folders `left` names.
fn circles(src: &Path, left: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    rust_files(src, &mut all);
    let mut folders: Vec<PathBuf> = all
        .iter()
        .map(|f| f.parent().unwrap().to_path_buf())
        .collect();
    folders.dedup();
    folders.sort();
    folders.dedup();
    let mut out = Vec::new();
    for dir in folders {
        let rel = dir
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('/', "::");
        if rel.is_empty() || left.contains(&rel.as_str()) {
            continue;
        }
        let names: BTreeSet<String> = all
            .iter()
            .filter(|f| f.parent() == Some(&dir))
            .map(|f| f.file_stem().unwrap().to_string_lossy().to_string())
            .filter(|n| n != "mod")
            .collect();
        let graph: BTreeMap<String, BTreeSet<String>> = names
            .iter()
            .map(|n| {
                (
                    n.clone(),
                    siblings(&dir.join(format!("{n}.rs")), &rel, &names),
                )
            })
            .collect();
        // Depth-first; a name met again on the path closes a circle.
        fn visit(
            n: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            seen: &mut BTreeSet<String>,
            found: &mut Vec<String>,
        ) {
            if let Some(i) = path.iter().position(|p| p == n) {
                let mut c = path[i..].to_vec();
                c.push(n.to_string());
                found.push(c.join(" → "));
                return;
            }
            if !seen.insert(n.to_string()) {
                return;
            }
            path.push(n.to_string());
            for m in &g[n] {
                visit(m, g, path, seen, found);
            }
            path.pop();
        }
        let mut seen = BTreeSet::new();
        let mut found = Vec::new();
        for n in &names {
            visit(n, &graph, &mut Vec::new(), &mut seen, &mut found);
        }
        for c in found {
            out.push(format!("src/{}/: {c}", rel.replace("::", "/")));
        }
    }
    out
}

/// The folders whose files still import each other in a circle, and why.
const CIRCLES_LEFT: &[(&str, &str)] = &[];

#[test]
fn every_module_imports_only_the_modules_below_it_in_lib_rs() {
    let wrong = against_the_order(&src());
    assert!(
        wrong.is_empty(),
        "imports against the order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_files_of_one_folder_import_each_other_in_a_circle() {
    let left: Vec<&str> = CIRCLES_LEFT.iter().map(|(f, _)| *f).collect();
    let found = circles(&src(), &left);
    assert!(
        found.is_empty(),
        "files that import each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_the_imports_there_are() {
    // A scan that found nothing would pass the checks above.
    let u = uses(&src());
    for (m, t) in [
        ("pipeline", "games"),
        ("pipeline", "bots"),
        ("playtest", "bots"),
        ("bots", "games"),
        ("games", "board"),
        ("cli", "error"),
    ] {
        assert!(u[m].contains_key(t), "the scan misses `{m}` using `{t}`");
    }
    let code = code_only(
        "use crate::{error::{Error, Result}, games::{self, Seat}};\n\
         // crate::host in a comment\n\
         let s = \"crate::cli in a string\"; let c = '\"'; let r = r#\"crate::mail\"#;\n\
         /* crate::store /* nested */ still a comment */ crate::rng::pick(x);\n\
         fn f<'a>(x: &'a str) -> crate::names::Name { br#\"crate::time\"# }",
    );
    let found: Vec<String> = roots(&code, "crate").into_iter().collect();
    assert_eq!(found, ["error", "games", "names", "rng"]);
}

#[test]
fn an_import_up_the_order_and_a_circle_are_found() {
    let root = crate::common::scratch("layers");
    let src = root.join("src");
    std::fs::create_dir_all(src.join("low")).unwrap();
    let write = |p: &str, text: &str| std::fs::write(src.join(p), text).unwrap();
    write(
        "lib.rs",
        "//! ## The import order\n//!\n//! ```text\n//! top     the top\n//! mid     in between\n//! low     the bottom\n//! ```\n\npub mod low;\npub mod mid;\npub mod top;\n",
    );
    write(
        "top.rs",
        "use crate::mid::X;\nuse crate::{low::{a::A, b}};\n",
    );
    write(
        "mid.rs",
        "// crate::top is only named here\npub fn f() -> crate::top::T { todo!() }\n",
    );
    write("low/mod.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write("low/a.rs", "use super::b::B;\n");
    write("low/b.rs", "use crate::low::c::C;\n");
    write("low/c.rs", "use super::a::A;\nuse super::super::mid;\n");
    assert_eq!(
        against_the_order(&src),
        [
            "src/low/c.rs: uses crate::mid, but `mid` is not below `low` in src/lib.rs's import order",
            "src/mid.rs: uses crate::top, but `top` is not below `mid` in src/lib.rs's import order",
        ]
    );
    assert_eq!(circles(&src, &[]), ["src/low/: a → b → c → a"]);
    assert!(circles(&src, &["low"]).is_empty());
    std::fs::remove_dir_all(&root).unwrap();
}
