//! The files of a site, as bytes, and their writing.
//!
//! | file | what |
//! |---|---|
//! | `index.html` | the game: players, seats, outcome, dates, seed, chain head, key; a link per phase; the checker; the press, where the game's rules reveal it at the end |
//! | `replay.html` | the phases, one at a time (`replay.html#turn-12`), slider and keys |
//! | `site.css`, `site.js` | the styles and the plain script, shared by both pages |
//! | `frames.js` | every frame; the boards as lists of shared SVG lines |
//! | `game.js` | the game file, one JavaScript string per line (a finished game only) |
//! | `site.json` | what the site shows, for `herald site --host` and scripts |
//!
//! The boards share what repeats: every SVG line (the map, the legend,
//! the styles are the same lines phase after phase) is stored once in
//! `frames.js`, and each frame lists the lines of its board as ranges of
//! that table. The page's script puts each board back together line by
//! line, so the board shown is byte for byte the one `Draw` drew.

use super::{page, Frame, Who};
use crate::error::{Error, Result};
use crate::pipeline::Loaded;
use crate::store::write::{self, Durability};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub const CSS: &str = include_str!("../../templates/site/site.css");
pub const JS: &str = include_str!("../../templates/site/site.js");

/// The name of the marker every site holds.
pub const MARKER: &str = "site.json";

/// The marker of the site in folder `site`.
pub fn marker(site: &Path) -> std::path::PathBuf {
    site.join(MARKER)
}

/// A site's files, in the order they are written.
pub struct Site {
    pub files: Vec<(&'static str, Vec<u8>)>,
}

impl Site {
    pub fn new(g: &Loaded, who: Who, frames: &[Frame], press: &[super::Press]) -> Site {
        let over = g.head().outcome.is_some();
        let info = page::Info::new(g, who, frames, press.len());
        let mut files: Vec<(&'static str, Vec<u8>)> = vec![
            ("index.html", page::index(&info, frames, press).into_bytes()),
            ("replay.html", page::replay(&info).into_bytes()),
            ("site.css", CSS.as_bytes().to_vec()),
            ("site.js", JS.as_bytes().to_vec()),
            ("frames.js", frames_js(frames).into_bytes()),
        ];
        if over {
            files.push(("game.js", game_js(&g.record.to_text()).into_bytes()));
        }
        if !press.is_empty() {
            // Each press's text and sender, checkable against the game
            // file: `herald verify game.jsonl --witness press.txt`.
            let proofs: Vec<&str> = press.iter().map(|p| p.proof.as_str()).collect();
            files.push(("press.txt", proofs.join("\n").into_bytes()));
        }
        let mut marker = serde_json::to_vec_pretty(&info.marker()).expect("serialises");
        marker.push(b'\n');
        files.push((MARKER, marker));
        Site { files }
    }
}

/// `frames.js`: the frames and the table of SVG lines they share.
pub fn frames_js(frames: &[Frame]) -> String {
    let mut table: Vec<&str> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut list = Vec::with_capacity(frames.len());
    for f in frames {
        let mut v = serde_json::to_value(f).expect("a frame serialises");
        v["board"] = lines_of(&mut table, &mut index, f.board.as_deref());
        for (i, l) in f.views.iter().enumerate() {
            v["views"][i]["board"] = lines_of(&mut table, &mut index, l.board.as_deref());
        }
        list.push(v);
    }
    let data = json!({ "lines": table, "frames": list });
    format!(
        "// herald site: every phase of the game; boards as ranges of `lines`.\nherald_site({});\n",
        serde_json::to_string(&data).expect("serialises")
    )
}

/// A board's lines as ranges of `table` (each new line added to it), or
/// null for no board.
fn lines_of<'a>(
    table: &mut Vec<&'a str>,
    index: &mut BTreeMap<&'a str, usize>,
    svg: Option<&'a str>,
) -> Value {
    svg.map_or(Value::Null, |svg| {
        let ids: Vec<usize> = svg
            .split('\n')
            .map(|line| {
                *index.entry(line).or_insert_with(|| {
                    table.push(line);
                    table.len() - 1
                })
            })
            .collect();
        Value::String(ranges(&ids))
    })
}

/// Line numbers as `a-b` runs: `0-57,60,58-59`.
fn ranges(ids: &[usize]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            let _ = write!(out, "{}-{}", ids[i], ids[j]);
        } else {
            let _ = write!(out, "{}", ids[i]);
        }
        i = j + 1;
    }
    out
}

/// `game.js`: the game file, each line as a JavaScript string, so that a
/// page opened from a file (which a browser does not let read another
/// file) has its exact bytes; the page offers them back as game.jsonl.
/// A line is a raw template (String.raw`…`, its bytes as they are) unless
/// it holds what would end one (a backtick, `${`, a final backslash),
/// then a JSON string. So a one-byte edit of the file changes one line's
/// text, which the page's checker names, rather than breaking the script.
pub fn game_js(text: &str) -> String {
    let mut out = String::from(
        "// The game file (game.jsonl), one string per line: the page checks these bytes and saves them as game.jsonl.\nherald_game([\n",
    );
    for line in text.split_terminator('\n') {
        if line.contains('`') || line.contains("${") || line.ends_with('\\') || line.contains('\r')
        {
            out.push_str(&serde_json::to_string(line).expect("a line serialises"));
        } else {
            out.push_str("String.raw`");
            out.push_str(line);
            out.push('`');
        }
        out.push_str(",\n");
    }
    out.push_str("]);\n");
    out
}

/// Write `site` into `out`: a new or empty folder, or an earlier site
/// (its marker there), whose files are replaced. `over`: the site is of a
/// finished game (it may carry the game file). `public`: its files are
/// world-readable (0644, folder 0755), else the owner's alone (0600,
/// 0700).
pub fn write(site: &Site, out: &Path, over: bool, public: bool) -> Result<Vec<(String, usize)>> {
    match std::fs::symlink_metadata(out) {
        Err(_) => {
            std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        }
        Ok(m) if m.is_dir() => {
            let empty = std::fs::read_dir(out)
                .map_err(|e| Error::io(out, e))?
                .next()
                .is_none();
            if !empty && !marker(out).is_file() {
                return Err(Error::refused(format!(
                    "{}: a folder that is neither empty nor a herald site (no {MARKER}): give a new folder to --out",
                    out.display()
                )));
            }
        }
        Ok(_) => {
            return Err(Error::refused(format!(
                "{}: exists and is not a folder; give a new folder to --out",
                out.display()
            )))
        }
    }
    let (file_mode, dir_mode) = if public {
        (0o644, 0o755)
    } else {
        (0o600, 0o700)
    };
    std::fs::set_permissions(out, std::fs::Permissions::from_mode(dir_mode))
        .map_err(|e| Error::io(out, e))?;
    if !over {
        // a running game's site no longer holds the game file
        let stale = out.join("game.js");
        if stale.is_file() {
            std::fs::remove_file(&stale).map_err(|e| Error::io(&stale, e))?;
        }
    }
    let mut written = Vec::new();
    for (name, bytes) in &site.files {
        let p = out.join(name);
        write::atomic(&p, bytes, Durability::Replaceable)?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(file_mode))
            .map_err(|e| Error::io(&p, e))?;
        written.push((name.to_string(), bytes.len()));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_lines() {
        assert_eq!(ranges(&[0, 1, 2, 5, 3, 4]), "0-2,5,3-4");
        assert_eq!(ranges(&[7]), "7");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn the_game_file_comes_back_byte_for_byte() {
        let text =
            "{\"head\":1}\n{\"body\":\"a\\\"b\\n\u{2028}</script>\"}\n{\"body\":\"`x` ${y}\"}\n";
        let js = game_js(text);
        let lines: Vec<String> = js
            .lines()
            .filter_map(|l| {
                let l = l.strip_suffix(',')?;
                match l.strip_prefix("String.raw`") {
                    Some(raw) => Some(raw.strip_suffix('`').unwrap().to_string()),
                    None => l.starts_with('"').then(|| serde_json::from_str(l).unwrap()),
                }
            })
            .collect();
        assert_eq!(lines.len(), 3);
        assert!(js.contains("String.raw`{\"body\":\"a\\\"b"), "{js}");
        assert_eq!(lines.join("\n") + "\n", text);
    }
}
