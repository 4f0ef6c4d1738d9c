//! Records the commit herald is built from, for `herald --version
//! --verbose`, as the environment variable `HERALD_COMMIT` of the build.
//! No network, nothing written; in order:
//!
//! 1. `HERALD_COMMIT`, if set (a packager building from a tarball);
//! 2. `git rev-parse HEAD`, when this folder is the top of a git checkout
//!    (not a tarball unpacked inside some other repository);
//! 3. the sha1 cargo records in `.cargo_vcs_info.json` of a packaged crate;
//! 4. `unknown`.
//!
//! The build script runs again when HEAD moves (a commit, a checkout), not
//! on every edit: local changes not yet committed are not shown.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// Run again when `path` changes, if it exists (a missing one would make
/// cargo run this script at every build).
fn watch(dir: &Path, path: &str) {
    let p = dir.join(path);
    if p.exists() {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

fn from_git(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let commit = git(dir, &["rev-parse", "--verify", "HEAD"])?;
    // HEAD itself (a checkout), the branch it names (a commit), and the
    // packed refs (a branch whose ref was packed away).
    watch(dir, &git(dir, &["rev-parse", "--git-path", "HEAD"])?);
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        if let Some(p) = git(dir, &["rev-parse", "--git-path", &branch]) {
            watch(dir, &p);
        }
    }
    if let Some(p) = git(dir, &["rev-parse", "--git-path", "packed-refs"]) {
        watch(dir, &p);
    }
    Some(commit)
}

fn from_cargo_package(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let rest = &text[text.find("\"sha1\"")? + 6..];
    let rest = &rest[rest.find('"')? + 1..];
    let sha = &rest[..rest.find('"')?];
    (sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit())).then(|| sha.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=HERALD_COMMIT");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let commit = std::env::var("HERALD_COMMIT")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && !s.contains(char::is_control))
        .or_else(|| from_git(&dir))
        .or_else(|| from_cargo_package(&dir))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=HERALD_COMMIT={commit}");
}
