//! The spellings of the release before, still read until the next one
//! (README, "Names on the command line"): the command line is rewritten
//! into today's words before clap reads it, each old spelling with a
//! warning that gives the new one. So the clap definition, and with it
//! `--help`, the manual pages and the completions, knows only today's.
//!
//! - `--wait N` before the command: moved after it (a command that takes
//!   no lock then refuses it, as it refuses `--wait` anywhere);
//! - `export --for P`, `site --for P`: `--player P`;
//! - `host open … --game R`: `--ruleset R`;
//! - `host replace DIR GAME P`, `host approve DIR GAME P`: `--player P`.

use std::ffi::OsString;

/// What the old spellings say now.
const GOES: &str = "the old one goes in the next release";

fn is(a: &OsString, flag: &str) -> bool {
    a.to_str()
        .is_some_and(|s| s == flag || s.starts_with(&format!("{flag}=")))
}

/// `a` with `--old` (or `--old=…`) spelled `--new`.
fn renamed(a: &OsString, old: &str, new: &str) -> OsString {
    let s = a.to_str().unwrap_or_default();
    OsString::from(format!("{new}{}", &s[old.len()..]))
}

/// Today's command line for `args` (the program's name first), and a
/// warning for each old spelling it used.
pub fn rewrite(args: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut args = args;
    // --wait before the command.
    let mut moved: Vec<OsString> = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "--" || !a.to_str().is_some_and(|s| s.starts_with('-')) {
            break;
        }
        if a == "--wait" && i + 1 < args.len() {
            moved.extend(args.drain(i..i + 2));
        } else if is(a, "--wait") {
            moved.push(args.remove(i));
        } else {
            i += 1;
        }
    }
    if !moved.is_empty() {
        let at = args.iter().position(|a| a == "--").unwrap_or(args.len());
        args.splice(at..at, moved);
        warnings.push(format!(
            "`--wait` before the command is an old spelling: write it after the command (`herald resolve GAME --wait 60`); {GOES}"
        ));
    }
    // The command's words: where it starts.
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|a| a != "--")
        .collect();
    let command = words.iter().position(|w| !w.starts_with('-'));
    let Some(c) = command else {
        return (args, warnings);
    };
    let at = c + 1; // in `args`
    match words[c].as_str() {
        "export" | "site" => {
            let mut used = false;
            for a in args.iter_mut().skip(at + 1) {
                if a == "--" {
                    break;
                }
                if is(a, "--for") {
                    *a = renamed(a, "--for", "--player");
                    used = true;
                }
            }
            if used {
                warnings.push(format!(
                    "`--for PLAYER` is an old spelling: write `--player PLAYER`; {GOES}"
                ));
            }
        }
        "host" => host(&mut args, at, &mut warnings),
        _ => {}
    }
    (args, warnings)
}

/// `host open … --game`, `host replace|approve DIR GAME PLAYER`: `host`
/// is `args[at]`.
fn host(args: &mut Vec<OsString>, at: usize, warnings: &mut Vec<String>) {
    let Some(sub) = args
        .get(at + 1)
        .and_then(|s| s.to_str())
        .map(str::to_string)
    else {
        return;
    };
    match sub.as_str() {
        "open" => {
            let mut used = false;
            for a in args.iter_mut().skip(at + 2) {
                if a == "--" {
                    break;
                }
                if is(a, "--game") {
                    *a = renamed(a, "--game", "--ruleset");
                    used = true;
                }
            }
            if used {
                warnings.push(format!(
                    "`host open --game RULESET` is an old spelling: write `--ruleset RULESET`; {GOES}"
                ));
            }
        }
        "replace" | "approve" => {
            // The positionals, past the options and their values.
            let with_value = ["--now", "--wait", "--player"];
            let mut positionals = Vec::new();
            let mut i = at + 2;
            while i < args.len() {
                let a = args[i].to_string_lossy();
                if a == "--" {
                    positionals.extend(i + 1..args.len());
                    break;
                }
                if with_value.contains(&a.as_ref()) {
                    i += 2;
                    continue;
                }
                if !a.starts_with('-') {
                    positionals.push(i);
                }
                i += 1;
            }
            if let [_, _, p] = positionals[..] {
                args.insert(p, OsString::from("--player"));
                warnings.push(format!(
                    "a player id after GAME is an old spelling: write `--player PLAYER`; {GOES}"
                ));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;
    use std::ffi::OsString;

    fn r(line: &str) -> (String, usize) {
        let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
        let (out, w) = rewrite(args);
        let out: Vec<String> = out
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        (out.join(" "), w.len())
    }

    #[test]
    fn old_spellings_become_todays_with_a_warning_each() {
        assert_eq!(
            r("herald --wait 5 resolve g o.toml"),
            ("herald resolve g o.toml --wait 5".into(), 1)
        );
        assert_eq!(
            r("herald --wait=5 resolve g -- o.toml"),
            ("herald resolve g --wait=5 -- o.toml".into(), 1)
        );
        assert_eq!(
            r("herald export g --for red --out e"),
            ("herald export g --player red --out e".into(), 1)
        );
        assert_eq!(
            r("herald site g --for=red --out s"),
            ("herald site g --player=red --out s".into(), 1)
        );
        assert_eq!(
            r("herald host open d t --game hexwar"),
            ("herald host open d t --ruleset hexwar".into(), 1)
        );
        assert_eq!(
            r("herald host replace d g red --now T"),
            ("herald host replace d g --player red --now T".into(), 1)
        );
        assert_eq!(
            r("herald host approve d --wait 3 g red"),
            ("herald host approve d --wait 3 g --player red".into(), 1)
        );
        // Today's spellings, and words that only look alike, are left as they are.
        for line in [
            "herald resolve g --wait 5",
            "herald host replace d g --player red",
            "herald new hexwar --players a,b --out --for",
            "herald host d --now T",
            "herald",
        ] {
            assert_eq!(r(line), (line.to_string(), 0), "{line}");
        }
    }
}
