//! No function in `src/` runs over [`LONGEST`] lines unless its top says
//! why: a comment line starting `Long` (`/// Long (about 120 lines): one
//! branch a kind of order, …`) among the doc comment and attributes above
//! it, or among the comments that open its body. A function that long is
//! either split into named steps or carries its reason where a reader
//! meets it first.

use std::path::{Path, PathBuf};

use crate::layers::{code_only, rust_files, src};

/// The most lines (from the `fn` line to the closing brace) a function
/// may have without a reason at its top.
const LONGEST: usize = 80;

/// One function of a source file.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    /// The line of its `fn`, from 1.
    line: usize,
    /// Lines from the `fn` line to the closing brace, both counted.
    lines: usize,
    /// Whether its top gives a reason for its length.
    reason: bool,
}

/// Whether a comment line (`///`, `//!`, `//`, trimmed) gives a length's
/// reason.
fn is_reason(line: &str) -> bool {
    let Some(text) = line.trim().strip_prefix("//") else {
        return false;
    };
    let text = text.trim_start_matches(['/', '!']).trim_start();
    text.starts_with("Long (") || text.starts_with("Long:")
}

/// Whether the lines above line `fn_line` (from 0), up to the first line
/// that is neither a comment nor an attribute, or the comments that open
/// the body after line `open_line`, give a reason.
fn has_reason(lines: &[&str], fn_line: usize, open_line: usize) -> bool {
    let above = lines[..fn_line]
        .iter()
        .rev()
        .take_while(|l| {
            let t = l.trim();
            t.starts_with("//") || t.starts_with("#[") || t.starts_with("#!")
        })
        .any(|l| is_reason(l));
    let below = lines[open_line + 1..]
        .iter()
        .take_while(|l| l.trim().starts_with("//"))
        .any(|l| is_reason(l));
    above || below
}

/// Every function with a body in `text`, nested ones too.
fn functions(text: &str) -> Vec<Function> {
    let code: Vec<char> = code_only(text).chars().collect();
    let lines: Vec<&str> = text.lines().collect();
    let line_at = {
        let mut starts = vec![0usize];
        for (i, ch) in code.iter().enumerate() {
            if *ch == '\n' {
                starts.push(i + 1);
            }
        }
        move |i: usize| starts.partition_point(|s| *s <= i) - 1
    };
    let word = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < code.len() {
        let is_fn = code[i] == 'f'
            && code[i + 1] == 'n'
            && code[i + 2].is_whitespace()
            && (i == 0 || !word(code[i - 1]));
        if !is_fn {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        let name: String = code[j..].iter().take_while(|c| word(**c)).collect();
        if name.is_empty() {
            // A function pointer type: `fn(u32) -> u32`.
            i = j;
            continue;
        }
        // The body's `{`, or the `;` of a declaration without one; `;` in
        // an array type (`[u8; 4]`) sits inside brackets.
        let mut depth = 0i32;
        while j < code.len() {
            match code[j] {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' | ';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        if j >= code.len() || code[j] == ';' {
            i = j;
            continue;
        }
        let open = j;
        let mut braces = 0;
        while j < code.len() {
            match code[j] {
                '{' => braces += 1,
                '}' => {
                    braces -= 1;
                    if braces == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let first = line_at(i);
        let last = line_at(j.min(code.len() - 1));
        out.push(Function {
            name,
            line: first + 1,
            lines: last - first + 1,
            reason: has_reason(&lines, first, line_at(open)),
        });
        // Nested functions are found on the way through the body.
        i = open + 1;
    }
    out
}

/// Every function in `src` over [`LONGEST`] lines without a reason.
fn too_long(src: &Path) -> Vec<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    rust_files(src, &mut files);
    let mut out = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&f).unwrap();
        for func in functions(&text) {
            if func.lines > LONGEST && !func.reason {
                out.push(format!(
                    "src/{rel}:{}: `{}` is {} lines",
                    func.line, func.name, func.lines
                ));
            }
        }
    }
    out
}

#[test]
fn no_function_runs_over_80_lines_without_a_reason_at_its_top() {
    let found = too_long(&src());
    assert!(
        found.is_empty(),
        "functions over {LONGEST} lines whose top gives no reason (split them into \
         named steps, or write `/// Long (about N lines): why` above them):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_length_scan_finds_functions_and_their_reasons() {
    let body = |n: usize| "    x();\n".repeat(n);
    let text = format!(
        "/// Short.\nfn short() {{\n{}}}\n\
         /// Steps.\n///\n/// Long (about 90 lines): one table.\n#[allow(x)]\npub fn told() {{\n{}}}\n\
         impl A {{\n    fn untold(&self, a: [u8; 4], f: fn(u8) -> u8) -> String {{\n        let s = \"}}\";\n        let c = '{{';\n{}    }}\n    fn declared();\n}}\n\
         fn inside() {{\n    // Long: one match.\n{}}}\n",
        body(3),
        body(90),
        body(85),
        body(81),
    );
    let found = functions(&text);
    let summary: Vec<(&str, usize, usize, bool)> = found
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines, f.reason))
        .collect();
    assert_eq!(
        summary,
        [
            ("short", 2, 5, false),
            ("told", 11, 92, true),
            ("untold", 104, 89, false),
            ("inside", 195, 84, true),
        ]
    );
}
