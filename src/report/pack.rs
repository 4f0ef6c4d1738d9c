//! The report page as a report mail carries it (issue 30): the page packed.
//!
//! The page a player opens from a report mail is the page `report --format
//! html` writes, byte for byte, once its script has run: the mail carries
//! that page deflated (zlib, base64 in 76-character lines) inside a short
//! page of its own, whose script inflates it with the browser's own
//! `DecompressionStream` (no network, no library) and replaces itself with
//! it. What the short page shows before (or without) script is what reads
//! without it: the title, the report's text and a word on where the board
//! is: the mail's `board.png` where the mail carries one ([`pack_for`]),
//! else that the page itself draws it once its script runs. A War of the Dukes page of 260 KB (its
//! board's SVG, the composer's data and script) travels as about 65 KB,
//! 7-bit, so the whole mail with its PNG stays under 300 KB.
//!
//! The packing is exact: [`unpack`] gives back the page's bytes, and the
//! short page around them is made again from them alone, so `herald verify
//! --witness` checks a packed page as it checks a page (the report's text
//! in `<pre id="report">`, the rest against the page the archive makes).

use std::io::{Read, Write};

/// The element holding the packed page.
const OPEN: &str = r#"<script type="application/x-herald-page" id="herald-page">"#;
const CLOSE: &str = "</script>";

/// The largest page [`unpack`] inflates (a packed page is checked by
/// `verify --witness`, so its payload is hostile input).
const MOST: u64 = 16 << 20;

/// The script that unpacks the page: inflate, then write the page in place
/// of this one (its own scripts run as they do in the page itself).
const LOADER: &str = r#"(function () {
  "use strict";
  var box = document.getElementById("herald-page");
  var note = document.getElementById("herald-unpacking");
  function fail(why) { note.textContent = why + " " + (note.getAttribute("data-board") || "") + " `herald report GAME --player YOU --format html` writes the whole page."; }
  if (!window.DecompressionStream || !window.Response || !window.TextDecoder) { fail("This browser cannot unpack the page's board and order composer (it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later)."); return; }
  note.textContent = "Unpacking the board and the order composer\u2026";
  var b = atob(box.textContent.replace(/\s+/g, "")), a = new Uint8Array(b.length);
  for (var i = 0; i < b.length; i++) a[i] = b.charCodeAt(i);
  new Response(new Blob([a]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer().then(function (buf) {
    var page = new TextDecoder("utf-8").decode(buf);
    document.open();
    document.write(page);
    document.close();
  }, function () { fail("The page's board did not unpack (was the mail changed?)."); });
})();"#;

/// The text between `open` and the next `close` in `s`.
fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let from = s.find(open)? + open.len();
    let to = from + s[from..].find(close)?;
    Some(&s[from..to])
}

/// Where the board is for a reader without script: in the picture the
/// mail carries, or nowhere but in the page once it unpacks.
fn board_note(png: bool) -> &'static str {
    if png {
        "The board is the picture attached to this mail (board.png)."
    } else {
        "This mail carries no picture of the board: the page draws it once its script runs."
    }
}

/// The short page around a packed page, its payload left out; `png`:
/// whether the mail carries the board as a picture.
fn wrapper(page: &str, payload: &str, png: bool, link: Option<&str>) -> String {
    let note = board_note(png);
    let link = link.map_or(String::new(), |l| {
        format!("<p id=\"herald-web\"><a href=\"{l}\">{l}</a>: this game on the web</p>\n")
    });
    let title = between(page, "<title>", "</title>").unwrap_or("herald report");
    let h1 = between(page, "<h1>", "</h1>").unwrap_or(title);
    let report = between(page, r#"<pre id="report">"#, "</pre>").unwrap_or("");
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ margin: 0 auto; max-width: 52rem; padding: 0.75rem; background: #f4efe1; color: #2b2b2b; font-family: system-ui, sans-serif; }}
h1 {{ font-size: 1.2rem; margin: 0.2rem 0 0.6rem; }}
pre {{ font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; background: #fffdf6; padding: 0.5rem; border: 1px solid #d8ccb0; }}
</style>
</head>
<body>
<h1>{h1}</h1>
{link}<p id="herald-unpacking" data-board="{note}">This page unpacks its board and order composer when its script runs (no network needed). Without script: {note} The report follows.</p>
<pre id="report">{report}</pre>
{OPEN}{payload}{CLOSE}
<script>
{LOADER}
</script>
</body>
</html>
"#
    )
}

/// `page` packed for a mail that carries the board as `board.png`.
pub fn pack(page: &str) -> String {
    pack_for(page, true)
}

/// `page` packed for a mail; `png`: whether the mail carries the board as
/// a picture (the short page says where the board is).
pub fn pack_for(page: &str, png: bool) -> String {
    pack_linked(page, png, None)
}

/// [`pack_for`] with a link to the game's page on the web (`herald
/// serve`) on the short page, above the report; the packed page is the
/// same page.
pub fn pack_linked(page: &str, png: bool, link: Option<&str>) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(page.as_bytes())
        .expect("writing to memory does not fail");
    let deflated = z.finish().expect("writing to memory does not fail");
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(deflated);
    let mut payload = String::with_capacity(b64.len() + b64.len() / 76 + 2);
    payload.push('\n');
    for line in b64.as_bytes().chunks(76) {
        payload.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        payload.push('\n');
    }
    wrapper(page, &payload, png, link)
}

/// Is this a packed page (what [`pack`] makes)?
pub fn is_packed(page: &str) -> bool {
    page.contains(OPEN)
}

/// The page a packed page holds, and whether the short page around it is
/// the one [`pack`] makes of it (an edit of the title or the report's text
/// outside the payload says no). `Err` says why it does not unpack.
// A String error: why a packed page does not unpack, the words `verify --witness` prints.
pub fn unpack(packed: &str) -> Result<(String, bool), String> {
    let packed = packed.replace("\r\n", "\n");
    let payload = between(&packed, OPEN, CLOSE)
        .ok_or_else(|| "the packed page has no payload".to_string())?;
    use base64::Engine as _;
    let compact: String = payload.split_ascii_whitespace().collect();
    let deflated = base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .map_err(|e| format!("the packed page's payload is not base64: {e}"))?;
    let mut page = String::new();
    flate2::read::ZlibDecoder::new(deflated.as_slice())
        .take(MOST)
        .read_to_string(&mut page)
        .map_err(|e| format!("the packed page's payload does not inflate: {e}"))?;
    // The link's line, if the short page has one, made again from its URL.
    let link = between(&packed, "<p id=\"herald-web\"><a href=\"", "\"");
    let same = [true, false]
        .iter()
        .any(|&png| wrapper(&page, payload, png, link) == packed);
    Ok((page, same))
}

/// JSON without the whitespace between its tokens (the order of its keys
/// and every string as they were).
pub fn compact_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut quoted, mut escaped) = (false, false);
    for c in json.chars() {
        if quoted {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
        } else if !matches!(c, ' ' | '\n' | '\r' | '\t') {
            quoted = c == '"';
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>T é</title>\n</head>\n<body>\n<h1>H — 1</h1>\n<svg><text>0101</text></svg>\n<pre id=\"report\">turn 3 → 4 &amp; more</pre>\n<script>var x = 1;</script>\n</body>\n</html>\n";

    #[test]
    fn a_packed_page_unpacks_to_its_bytes_and_keeps_its_report_readable() {
        let p = pack(PAGE);
        assert!(is_packed(&p));
        assert!(p.contains("<pre id=\"report\">turn 3 → 4 &amp; more</pre>"));
        assert!(p.contains("<title>T é</title>") && p.contains("<h1>H — 1</h1>"));
        assert!(!p.contains("<svg"), "the board travels packed");
        assert!(p.lines().all(|l| l.len() <= 998));
        assert_eq!(unpack(&p).unwrap(), (PAGE.to_string(), true));
        // a mail program's line ends
        assert_eq!(
            unpack(&p.replace('\n', "\r\n")).unwrap(),
            (PAGE.to_string(), true)
        );
    }

    #[test]
    fn compact_json_keeps_every_value_and_key_order() {
        let j = "{\n  \"b\": [1, 2],\n  \"a\": \"x \\\" y\\\\\",\n  \"c\": \"two  spaces\"\n}\n";
        let c = compact_json(j);
        assert_eq!(c, r#"{"b":[1,2],"a":"x \" y\\","c":"two  spaces"}"#);
        let a: serde_json::Value = serde_json::from_str(j).unwrap();
        let b: serde_json::Value = serde_json::from_str(&c).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn an_edit_outside_or_inside_the_payload_is_seen() {
        let p = pack(PAGE);
        let outside = p.replacen("turn 3", "turn 4", 1);
        assert_eq!(unpack(&outside).unwrap(), (PAGE.to_string(), false));
        let i = p.find(OPEN).unwrap() + OPEN.len() + 10;
        let mut bytes = p.clone().into_bytes();
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let inside = String::from_utf8(bytes).unwrap();
        match unpack(&inside) {
            Err(_) => {}
            Ok((page, same)) => assert!(page != PAGE || !same),
        }
        assert!(unpack("<html><pre id=\"report\">x</pre></html>").is_err());
    }
}
