//! `herald --version` (the version number) and `herald --version
//! --verbose`: what is installed, for a moderator's records and a bug
//! report: the commit it was built from, the format of the game files it
//! writes, and each built-in ruleset's version and the sha256 that every
//! game started from it records.

use crate::chain::FORMAT;
use crate::games::REGISTRY;

/// The commit the binary was built from (build.rs: `git rev-parse HEAD`
/// in this repository's checkout, the sha1 cargo records in a packaged
/// crate, or `HERALD_COMMIT` as a packager sets it), or `unknown`.
pub const COMMIT: &str = env!("HERALD_COMMIT");

/// The `version = "…"` line of a ruleset text.
fn ruleset_version(text: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Top {
        version: Option<String>,
    }
    toml::from_str::<Top>(text)
        .ok()
        .and_then(|t| t.version)
        .unwrap_or_else(|| "none".to_string())
}

pub fn text(verbose: bool) -> String {
    let mut s = format!("herald {}\n", env!("CARGO_PKG_VERSION"));
    if !verbose {
        return s;
    }
    s.push_str(&format!("commit: {COMMIT}\n"));
    s.push_str(&format!(
        "game file format: {FORMAT} (what this herald writes and reads; \
         herald 0.1's game.json converts with `herald convert`)\n"
    ));
    s.push_str("rulesets (version, sha256 of the ruleset text a game records):\n");
    let width = REGISTRY.iter().map(|e| e.name.len()).max().unwrap_or(0);
    for e in REGISTRY {
        s.push_str(&format!(
            "  {:<width$}  {:<6} {}\n",
            e.name,
            ruleset_version(e.ruleset),
            crate::chain::canon::sha256_hex(e.ruleset.as_bytes())
        ));
    }
    s
}
