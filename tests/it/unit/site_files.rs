//! Unit tests of `herald::site::files` (src/site/files.rs).

use herald::site::files::*;

#[test]
fn runs_of_lines() {
    assert_eq!(ranges(&[0, 1, 2, 5, 3, 4]), "0-2,5,3-4");
    assert_eq!(ranges(&[7]), "7");
    assert_eq!(ranges(&[]), "");
}

#[test]
fn the_game_file_comes_back_byte_for_byte() {
    let text = "{\"head\":1}\n{\"body\":\"a\\\"b\\n\u{2028}</script>\"}\n{\"body\":\"`x` ${y}\"}\n";
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
