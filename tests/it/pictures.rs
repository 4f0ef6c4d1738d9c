//! The board pictures (issue 8): golden SVGs of a fixed position of each
//! game, every SVG a whole demo game writes parses as XML and every PNG
//! decodes at the stated size, the same view gives the same bytes, report
//! mails carry the board, and the HTML report draws its board in headless
//! Chromium.
//!
//! Regenerate the golden files and the README's screenshots after a
//! deliberate change to a drawing: `HERALD_BLESS=1 cargo test
//! pictures`, then look at the diff
//! (the README's screenshots come from `tests/it/composer.rs`). The Chromium test needs
//! /usr/bin/chromium (`./test` installs it) and fails without it.

use crate::common::{herald, scratch, EngineGame};
use herald::board::svg::{png_height_at, png_width_of};
use mail_parser::MimeHeaders;
use std::path::{Path, PathBuf};
use std::process::Command;

const GAMES: [&str; 5] = [
    "norse-wars",
    "hexwar",
    "stack-wars",
    "unfought-battle",
    "war-of-the-dukes",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bless() -> bool {
    std::env::var_os("HERALD_BLESS").is_some_and(|v| v == "1")
}

/// A fixed position of each game: a fixed seed, and a few turns of each
/// player's first legal orders, so the picture has moves to draw (and, in
/// Norse Wars, fog).
fn position(game: &str, tag: &str) -> EngineGame {
    let (players, options, turns): (&[&str], Vec<String>, usize) = match game {
        "norse-wars" => (&["red", "blue", "green"], vec!["fog=true".into()], 7),
        "hexwar" => (&["white", "black"], vec![], 4),
        "unfought-battle" => (&["north", "south"], vec![], 2),
        "war-of-the-dukes" => (&["orfburg", "wulfenburg"], vec![], 4),
        _ => (&["black", "white"], vec!["size=7".into()], 9),
    };
    let mut g = EngineGame::new(game, players, "golden", options, tag);
    // at least `turns`, then on (a few at most) until the first player saw
    // a move or combat to draw
    for t in 0..turns + 6 {
        if g.over() {
            break;
        }
        if t >= turns && crate::common::report(&g.loaded, 0, "svg").contains(r#"class="arrow "#) {
            break;
        }
        g.turn(|loaded, seat| {
            let legal: Vec<Vec<String>> = loaded
                .rules
                .legal_orders(&loaded.state, seat)
                .into_iter()
                .filter(|set| {
                    !set.iter()
                        .any(|o| ["pass", "surrender", "resign", "concede"].contains(&o.as_str()))
                })
                .collect();
            // the middle legal set: a move that goes somewhere
            // the Unfought Battle's middle set is a costly order that
            // stays put: take its middle set of moves instead
            let moving: Vec<Vec<String>> = legal
                .iter()
                .filter(|set| {
                    !set.iter().any(|o| {
                        ["fortify", "ambush", "scout", "hold"]
                            .iter()
                            .any(|w| o.contains(w))
                    })
                })
                .cloned()
                .collect();
            let legal = if game == "unfought-battle" && !moving.is_empty() {
                moving
            } else {
                legal
            };
            legal.get(legal.len() / 2).cloned().unwrap_or_default()
        });
    }
    g
}

/// The picture's size in user units, from the root element.
fn svg_size(svg: &str) -> (f32, f32) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let n = |a: &str| -> f32 { root.attribute(a).unwrap().parse().unwrap() };
    (n("width"), n("height"))
}

fn png_size(png: &[u8]) -> (u32, u32, Vec<u8>, png::ColorType) {
    let mut d = png::Decoder::new(png);
    d.set_transformations(png::Transformations::EXPAND);
    let mut r = d.read_info().expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).expect("PNG pixels decode");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf, info.color_type)
}

/// Pieces drawn in a picture: the `data-hex` of each `class="piece"` group.
fn piece_hexes(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| n.attribute("data-hex").unwrap().to_string())
        .collect()
}

/// The groups that only hold a picture's layers or its words; every other
/// element with a class is a symbol of the board.
const LAYERS: [&str; 10] = [
    "hexes", "labels", "pieces", "arrows", "grid", "roads", "rivers", "areas", "hexnum", "locator",
];

use roxmltree::Node;

/// The symbols an element of the board stands for: its class (as
/// `class:kind` where it has a `data-kind`), and `owner:<name>` for a
/// piece's owner.
fn symbols_of(n: Node) -> Vec<String> {
    let Some(class) = n.attribute("class") else {
        return vec![];
    };
    if LAYERS.contains(&class) || class.starts_with("legend") {
        return vec![];
    }
    let mut out = vec![match n.attribute("data-kind") {
        Some(k) => format!("{class}:{k}"),
        None => class.to_string(),
    }];
    if let Some(o) = n.attribute("data-owner") {
        out.push(format!("owner:{o}"));
    }
    out
}

fn in_legend(n: Node) -> bool {
    n.ancestors()
        .any(|a| a.attribute("class").is_some_and(|c| c == "legend"))
}

/// The symbols a picture draws on its board (the legend aside).
fn board_symbols(svg: &str) -> std::collections::BTreeSet<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.root_element()
        .descendants()
        .skip(1)
        .filter(|n| !in_legend(*n))
        .flat_map(symbols_of)
        .collect()
}

/// How a symbol looks: the shapes it uses (`href`), its colours (fill and
/// stroke) and its words.
#[derive(Default, Debug)]
struct Looks {
    hrefs: std::collections::BTreeSet<String>,
    colours: std::collections::BTreeSet<String>,
    words: std::collections::BTreeSet<String>,
}

impl Looks {
    /// Everything `n` draws, the shapes it places (`<use>`) drawn out as
    /// their `<symbol>` draws them.
    fn add(&mut self, n: Node) {
        self.add_within(n, 0);
    }

    fn add_within(&mut self, n: Node, depth: usize) {
        for e in n.descendants().filter(|e| e.is_element()) {
            if let Some(h) = e.attribute("href") {
                self.hrefs.insert(h.to_string());
                let id = h.trim_start_matches('#');
                let symbol = e
                    .document()
                    .descendants()
                    .find(|s| s.tag_name().name() == "symbol" && s.attribute("id") == Some(id));
                if let (Some(s), true) = (symbol, depth < 4) {
                    self.add_within(s, depth + 1);
                }
            }
            for a in ["fill", "stroke"] {
                if let Some(c) = e.attribute(a).filter(|c| c.starts_with('#')) {
                    self.colours.insert(c.to_string());
                }
            }
            if e.tag_name().name() == "text" {
                self.words.insert(e.text().unwrap_or("").to_string());
            }
        }
    }

    /// What of `self` is not in `board`.
    fn beyond(&self, board: &Looks) -> Vec<String> {
        let mut out = vec![];
        out.extend(
            self.hrefs
                .difference(&board.hrefs)
                .map(|h| format!("shape {h}")),
        );
        out.extend(
            self.colours
                .difference(&board.colours)
                .map(|c| format!("colour {c}")),
        );
        out.extend(
            self.words
                .difference(&board.words)
                .map(|w| format!("words {w:?}")),
        );
        out
    }
}

/// How the board draws symbol `key`: the elements that carry it (a piece's
/// whole drawing for a mark on a piece, every piece of an owner).
fn board_looks(doc: &roxmltree::Document, key: &str) -> Looks {
    let mut l = Looks::default();
    for n in doc.root_element().descendants().filter(|n| !in_legend(*n)) {
        if !symbols_of(n).iter().any(|s| s == key) {
            continue;
        }
        let piece = n
            .ancestors()
            .find(|a| a.attribute("class") == Some("piece"));
        l.add(if key.starts_with("owner:") {
            n
        } else {
            piece.unwrap_or(n)
        });
    }
    l
}

/// What is wrong with a picture's legend: a symbol drawn without exactly
/// one entry, an entry for a symbol not drawn, a sample that shows what the
/// board does not draw (a shape, a colour or words the board's symbol does
/// not have), words said twice ("Black black"), or a legend set in another
/// type than the map's labels.
fn legend_problems(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let Some(legend) = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend"))
    else {
        return vec!["no legend".into()];
    };
    let drawn = board_symbols(svg);
    let mut problems = vec![];
    let mut explained: std::collections::BTreeMap<String, usize> = Default::default();
    let entries: Vec<Node> = legend
        .descendants()
        .filter(|n| n.attribute("class") == Some("legend-entry"))
        .collect();
    for e in &entries {
        let keys: Vec<&str> = e.attribute("data-explains").unwrap().split(';').collect();
        for k in &keys {
            *explained.entry(k.to_string()).or_default() += 1;
            if !drawn.contains(*k) {
                problems.push(format!("an entry for `{k}`, which is not drawn"));
            }
        }
        // the sample shows what the board draws: a part of it with a
        // class looks like the board's symbol of that class, the rest like
        // the entry's own symbols
        let mut own = Looks::default();
        for k in &keys {
            let b = board_looks(&doc, k);
            own.hrefs.extend(b.hrefs);
            own.colours.extend(b.colours);
            own.words.extend(b.words);
        }
        if let Some(sample) = e
            .children()
            .find(|c| c.attribute("class") == Some("legend-sample"))
        {
            for part in sample.children().filter(|c| c.is_element()) {
                let mut l = Looks::default();
                l.add(part);
                let against = match part.attribute("class").filter(|c| drawn.contains(*c)) {
                    Some(c) => board_looks(&doc, c),
                    None => Looks {
                        hrefs: own.hrefs.clone(),
                        colours: own.colours.clone(),
                        words: own.words.clone(),
                    },
                };
                for b in l.beyond(&against) {
                    problems.push(format!(
                        "the sample of `{}` has {b}, unlike the board",
                        keys.join(";")
                    ));
                }
            }
        } else {
            problems.push(format!("the entry for `{}` has no sample", keys.join(";")));
        }
        let words: String = e
            .descendants()
            .filter(|n| n.attribute("class") == Some("legend-text"))
            .filter_map(|n| n.text())
            .collect::<Vec<_>>()
            .join(" ");
        let w: Vec<String> = words.split_whitespace().map(|w| w.to_lowercase()).collect();
        if w.windows(2).any(|p| p[0] == p[1]) {
            problems.push(format!("the entry {words:?} says a word twice"));
        }
    }
    for s in &drawn {
        match explained.get(s) {
            None => problems.push(format!("`{s}` is drawn without a legend entry")),
            Some(1) => {}
            Some(n) => problems.push(format!("`{s}` has {n} legend entries")),
        }
    }
    // the legend is set in the map's type; a mail picture's in a small
    // type of its own, 10 to 14 pixels high in its PNG (issue 30)
    let root = doc.root_element();
    let px_per_unit: Option<f32> = root
        .attribute("data-png-width")
        .and_then(|w| w.parse::<f32>().ok())
        .zip(root.attribute("width").and_then(|w| w.parse::<f32>().ok()))
        .map(|(p, w)| p / w);
    let map_type: Option<f32> = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("labels") && n.attribute("font-size").is_some())
        .and_then(|n| n.attribute("font-size")?.parse().ok());
    let mut texts = 0;
    for t in legend
        .descendants()
        .filter(|n| n.attribute("class") == Some("legend-text"))
    {
        let size: f32 = t.attribute("font-size").unwrap().parse().unwrap();
        if let Some(m) = map_type {
            let small_type = px_per_unit
                .map(|k| (10.0..=14.0).contains(&(size * k)) && size < m)
                .unwrap_or(false);
            if (size - m).abs() > m * 0.3 && !small_type {
                problems.push(format!(
                    "legend text {:?} is {size} units high, the map's labels {m}",
                    t.text()
                ));
            }
        }
        texts += 1;
    }
    if texts == 0 {
        problems.push("the legend has no words".into());
    }
    problems
}

fn assert_legend_complete(svg: &str, ctx: &str) {
    let p = legend_problems(svg);
    assert!(p.is_empty(), "{ctx}: {}\n{svg}", p.join("; "));
}

/// The legend check fails for a symbol the legend does not explain, for an
/// entry of a symbol not drawn and for a sample unlike the board (so a new
/// symbol drawn without an entry, or a legend drawn apart from the board,
/// fails the picture tests).
#[test]
fn a_legend_unlike_its_board_is_caught() {
    for game in GAMES {
        let svg = std::fs::read_to_string(root().join("tests/golden").join(format!("{game}.svg")))
            .unwrap();
        assert_eq!(legend_problems(&svg), Vec::<String>::new(), "{game}");
        let at = svg.find(r#"<g class="pieces">"#).unwrap();
        let odd = format!(
            "{}<circle class=\"comet\" cx=\"1\" cy=\"1\" r=\"1\"/>\n{}",
            &svg[..at],
            &svg[at..]
        );
        assert_eq!(
            legend_problems(&odd),
            ["`comet` is drawn without a legend entry"],
            "{game}"
        );
        let at = svg.find(r#"data-kind=""#).unwrap() + r#"data-kind=""#.len();
        let odd = format!("{}dragon-{}", &svg[..at], &svg[at..]);
        assert!(
            legend_problems(&odd).iter().any(|p| p.contains(":dragon-")),
            "{game}: a piece of a new kind"
        );
        // a sample in a colour the board does not use
        let at = svg.find(r#"<g class="legend-sample""#).unwrap();
        let odd = format!(
            "{}{}",
            &svg[..at],
            svg[at..].replacen("fill=\"#", "fill=\"#0", 1)
        );
        assert!(
            legend_problems(&odd)
                .iter()
                .any(|p| p.contains("unlike the board")),
            "{game}: a sample unlike the board"
        );
    }
}

#[test]
fn golden_svgs_of_a_fixed_position() {
    let mut failed = Vec::new();
    for game in GAMES {
        let g = position(game, &format!("golden-{game}"));
        let svg = crate::common::report(&g.loaded, 0, "svg");
        assert_eq!(
            svg,
            crate::common::report(&g.loaded, 0, "svg"),
            "{game}: the same view gives the same SVG"
        );
        let pieces = piece_hexes(&svg);
        assert!(!pieces.is_empty(), "{game}: no pieces drawn");
        assert_legend_complete(&svg, game);
        assert!(
            svg.contains(r#"class="arrow "#),
            "{game}: the last phase's moves are not drawn"
        );
        let path = root().join("tests/golden").join(format!("{game}.svg"));
        if bless() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &svg).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != svg {
            let got = path.with_extension("svg.new");
            std::fs::write(&got, &svg).unwrap();
            failed.push(format!(
                "{game}: the SVG differs from {} (written to {}; HERALD_BLESS=1 to accept)",
                path.display(),
                got.display()
            ));
        }
        let _ = std::fs::remove_dir_all(&g.dir);
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn golden_norse_wars_position_is_fogged() {
    let g = position("norse-wars", "golden-fog");
    let svg = crate::common::report(&g.loaded, 0, "svg");
    let json: serde_json::Value =
        serde_json::from_str(&crate::common::report(&g.loaded, 0, "json")).unwrap();
    let fogged = json["view"]["fogged"].as_array().unwrap();
    assert!(!fogged.is_empty(), "the fixed position should have fog");
    let mail = herald::pipeline::render::mail_svg(&g.loaded, 0).unwrap();
    for f in fogged {
        let f = f.as_str().unwrap().to_string();
        assert!(
            crate::common::cells_drawn_as(&svg, "hex fog").contains(&f),
            "fogged {f} is not shaded"
        );
        assert!(
            crate::common::cells_drawn_as(&mail, "hex fog").contains(&f),
            "fogged {f} is not shaded in the mail's picture"
        );
    }
    let _ = std::fs::remove_dir_all(&g.dir);
}

/// The Unfought Battle's fog: every enemy force out of the viewer's sight
/// (from the moderator's state) is absent from the SVG and the HTML, and
/// every hex beyond sight is shaded.
#[test]
fn unfought_battle_hidden_forces_are_absent_from_the_pictures() {
    let g = position("unfought-battle", "golden-unfought-fog");
    let state = g.loaded.rules.encode(&g.loaded.state);
    let mut hidden_total = 0;
    for seat in 0..2 {
        let svg = crate::common::report(&g.loaded, seat, "svg");
        let html = crate::common::report(&g.loaded, seat, "html");
        let mail = herald::pipeline::render::mail_svg(&g.loaded, seat).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&crate::common::report(&g.loaded, seat, "json")).unwrap();
        let v = &json["view"];
        let enemy = v["enemy"].as_str().unwrap();
        let sight = v["sight"].as_i64().unwrap();
        let hex = |f: &serde_json::Value| {
            (
                f["at"]["q"].as_i64().unwrap(),
                f["at"]["r"].as_i64().unwrap(),
            )
        };
        let dist = |a: (i64, i64), b: (i64, i64)| {
            let (dq, dr) = (a.0 - b.0, a.1 - b.1);
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
        };
        let mine: Vec<(i64, i64)> = state["sides"][seat]["forces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["alive"] == true)
            .map(hex)
            .collect();
        for f in state["sides"][1 - seat]["forces"].as_array().unwrap() {
            if f["alive"] != true {
                continue;
            }
            let h = hex(f);
            let at = format!("{},{}", h.0, h.1);
            let seen = mine.iter().any(|m| dist(*m, h) <= sight);
            let drawn = format!(r#"data-hex="{at}" data-owner="{enemy}""#);
            for (what, text) in [("SVG", &svg), ("HTML", &html), ("mail SVG", &mail)] {
                assert_eq!(
                    text.contains(&drawn),
                    seen,
                    "seat {seat}: the enemy force on {at} (seen: {seen}) in the {what}"
                );
            }
            if !seen {
                hidden_total += 1;
                assert!(
                    crate::common::cells_drawn_as(&svg, "hex fog").contains(&at),
                    "seat {seat}: the hidden force's hex {at} is not shaded as fog"
                );
                assert!(
                    crate::common::cells_drawn_as(&mail, "hex fog").contains(&at),
                    "seat {seat}: the hidden force's hex {at} is not fog in the mail's picture"
                );
            }
        }
    }
    assert!(
        hidden_total > 0,
        "the fixed position should hide some enemy force"
    );
    let _ = std::fs::remove_dir_all(&g.dir);
}

/// War of the Dukes: during deployment neither side's pieces are drawn
/// (the other side's deployment must not show), in the SVG or the HTML.
#[test]
fn war_of_the_dukes_deployment_is_absent_from_the_turn_0_pictures() {
    let g = EngineGame::new(
        "war-of-the-dukes",
        &["orfburg", "wulfenburg"],
        "golden",
        vec![],
        "dukes-deploy",
    );
    for seat in 0..2 {
        let svg = crate::common::report(&g.loaded, seat, "svg");
        let html = crate::common::report(&g.loaded, seat, "html");
        assert!(
            piece_hexes(&svg).is_empty(),
            "seat {seat}: pieces drawn while deploying"
        );
        for text in [&svg, &html] {
            assert!(!text.contains(r#"class="piece""#));
            assert!(!text.contains(r#"data-owner="Wulfenburg""#));
            assert!(!text.contains(r#"data-owner="Orfburg""#));
        }
        // the map itself is there, labelled
        assert!(svg.contains(r#"data-hex="0101""#) && svg.contains("Kaiserburg"));
    }
    let _ = std::fs::remove_dir_all(&g.dir);
}

#[test]
fn every_svg_parses_and_every_png_decodes_at_the_stated_size() {
    for game in GAMES {
        // eight turns of a game between bots, every seat's picture each turn
        let entry = herald::games::find(game).unwrap();
        let players: Vec<&str> = entry.demo_players.to_vec();
        let mut g = EngineGame::new(game, &players, "pictures", vec![], &format!("svg-{game}"));
        let mut rng = herald::rng::from_u64(8);
        let mut pictures = 0;
        for turn in 0..8 {
            for seat in 0..players.len() {
                let svg = crate::common::report(&g.loaded, seat, "svg");
                assert_legend_complete(&svg, &format!("{game} seat {seat}"));
                let mail = herald::pipeline::render::mail_svg(&g.loaded, seat).unwrap();
                assert_legend_complete(&mail, &format!("{game} seat {seat}, mail"));
                let (w, h) = svg_size(&mail);
                // drawing a PNG is the slow part: the first and last turns
                if turn == 0 || turn == 7 {
                    let png = herald::pipeline::render::png(&g.loaded, seat).unwrap();
                    let (pw, ph, _, _) = png_size(&png);
                    let px = png_width_of(&mail);
                    assert_eq!(
                        (pw, ph),
                        (px, png_height_at(px, w, h)),
                        "{game} seat {seat}"
                    );
                    assert!(
                        pw.max(ph) <= 1100,
                        "{game} seat {seat}: the mail's PNG is {pw}×{ph}"
                    );
                }
                // exactly the view's pieces are drawn
                let json: serde_json::Value =
                    serde_json::from_str(&crate::common::report(&g.loaded, seat, "json")).unwrap();
                let v = &json["view"];
                let count = |k: &str| v[k].as_array().map(|p| p.len());
                let want = match game {
                    // living own forces and the enemy forces in sight
                    "unfought-battle" => {
                        v["forces"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .filter(|f| f["alive"] == true)
                            .count()
                            + count("enemies").unwrap()
                    }
                    "war-of-the-dukes" => count("units").unwrap(),
                    _ => count("pieces").or_else(|| count("stacks")).unwrap(),
                };
                assert_eq!(piece_hexes(&svg).len(), want, "{game} seat {seat}");
                pictures += 1;
            }
            if g.over() {
                break;
            }
            g.turn(|l, seat| {
                herald::bots::scripted_orders(l.rules.as_ref(), &l.state, seat, &mut rng)
            });
        }
        assert!(pictures >= 8, "{game}: only {pictures} pictures");
        let _ = std::fs::remove_dir_all(&g.dir);
    }
}

#[test]
fn pngs_are_the_same_bytes_every_time() {
    for game in GAMES {
        let g = position(game, &format!("png-{game}"));
        let a = herald::pipeline::render::png(&g.loaded, 1).unwrap();
        let b = herald::pipeline::render::png(&g.loaded, 1).unwrap();
        assert!(a == b, "{game}: two PNGs of one view differ");
        let (w, _, pixels, colour) = png_size(&a);
        let svg = herald::pipeline::render::mail_svg(&g.loaded, 1).unwrap();
        assert_eq!(w, png_width_of(&svg));
        // decoded to RGB; written as a palette PNG (IHDR's colour type 3)
        assert_eq!(colour, png::ColorType::Rgb);
        assert_eq!(a[25], 3, "{game}: the mail's PNG is not a palette PNG");
        // the board colour is there, so the board was drawn
        let board = pixels
            .chunks(3)
            .filter(|p| p == &[0xe3, 0xd5, 0xb0])
            .count();
        assert!(board > 1000, "{game}: {board} board-coloured pixels");
        let _ = std::fs::remove_dir_all(&g.dir);
    }
}

#[test]
fn the_cli_writes_svg_png_and_html() {
    let dir = scratch("cli-pictures");
    let game = dir.join("g");
    let (code, _, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "white,black",
        "--seed",
        "3",
        "--out",
        game.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    // The reports folder holds the text, view, SVG and HTML of each
    // player; the PNG is drawn on demand, never on the way to a resolve.
    for f in [
        "white.svg",
        "white.html",
        "black.svg",
        "black.txt",
        "black.json",
    ] {
        assert!(game.join("reports/turn-0000").join(f).is_file(), "no {f}");
    }
    assert!(!game.join("reports/turn-0000/white.png").exists());
    let g = game.to_str().unwrap();
    let (code, svg, err) = herald(&["report", g, "--player", "white", "--format", "svg"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        svg,
        std::fs::read_to_string(game.join("reports/turn-0000/white.svg")).unwrap()
    );
    let png = |out: Option<&Path>| {
        let mut args = vec!["report", g, "--player", "white", "--format", "png"];
        if let Some(o) = out {
            args.extend(["--out", o.to_str().unwrap()]);
        }
        let out = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let a = png(None);
    let (w, h, _, _) = png_size(&a);
    assert!(w.max(h) <= 1100, "the mail's PNG is {w}×{h}");
    // the whole board, as the SVG draws it
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args([
            "report", g, "--player", "white", "--format", "png", "--full",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (fw, fh, _, _) = png_size(&out.stdout);
    let (sw, sh) = svg_size(&svg);
    assert_eq!((fw, fh), (png_width_of(&svg), png_height_at(fw, sw, sh)));
    let (code, _, err) = herald(&[
        "report", g, "--player", "white", "--format", "svg", "--full",
    ]);
    assert_eq!(code, 2, "--full is only for png: {err}");
    let file = dir.join("white.png");
    png(Some(&file));
    assert_eq!(a, std::fs::read(&file).unwrap(), "the same PNG to a file");
    let (code, html, err) = herald(&["report", g, "--player", "white", "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains(r#"<meta name="viewport""#));
    assert!(html.contains(&svg), "the HTML holds the SVG inline");
    assert!(html.contains("<textarea"), "the order form");
    assert!(html.contains("password = "), "the order form");
    assert!(html.contains("HEXWAR"));
    let (code, _, err) = herald(&["report", g, "--player", "white", "--format", "gif"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("possible values: text, json, svg, png, html, eml"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_mails_carry_the_board() {
    let dir = scratch("mail-pictures");
    let game = dir.join("g");
    let (code, _, err) = herald(&[
        "new",
        "stack-wars",
        "--players",
        "black,white",
        "--email",
        "black=black@example.org",
        "--seed",
        "3",
        "--out",
        game.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, eml, err) = herald(&[
        "report",
        game.to_str().unwrap(),
        "--player",
        "black",
        "--format",
        "eml",
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    let m = mail_parser::MessageParser::default()
        .parse(eml.as_bytes())
        .unwrap();
    let names: Vec<String> = m
        .attachments()
        .map(|a| a.attachment_name().unwrap_or("").to_string())
        .collect();
    // the board as a picture, whoever writes the mail (issue 49), and
    // once more inside the page
    assert_eq!(names, ["view.json", "board.png", "report.html"]);
    let png = m.attachments().nth(1).unwrap().contents().to_vec();
    let (w, h, _, _) = png_size(&png);
    assert!(w > 100 && h > 100, "{w}×{h}");
    let packed = String::from_utf8_lossy(m.attachments().nth(2).unwrap().contents()).into_owned();
    let (html, same) = ::herald::report::pack::unpack(&packed).unwrap();
    assert!(same, "the page around the packed one is made from it");
    let svg = std::fs::read_to_string(game.join("reports/turn-0000/black.svg")).unwrap();
    assert!(html.contains(&svg), "the page holds the board");
    assert!(!packed.contains("<svg"), "once: packed");
    // without script the page says where the board really is
    assert!(
        packed.contains("The board is the picture attached to this mail (board.png)."),
        "{}",
        &packed[..packed.len().min(2000)]
    );
    let bare = ::herald::report::pack::pack_for(&html, false);
    assert!(bare.contains("This mail carries no picture of the board"));
    assert!(!bare.contains("board.png"));
    assert_eq!(
        ::herald::report::pack::unpack(&bare).unwrap(),
        (html.clone(), true)
    );
    // the same mail waits in the outbox, queued by `new`, with its picture
    let queued: Vec<std::path::PathBuf> = std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        queued.len(),
        1,
        "one report mail: only black has an address"
    );
    let has_png = |path: &std::path::Path| {
        let bytes = std::fs::read(path).unwrap();
        let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        let found = m
            .attachments()
            .any(|a| a.attachment_name() == Some("board.png"));
        found
    };
    assert!(has_png(&queued[0]), "herald new's mail has no board.png");
    // and `herald resolve` by hand queues the next one with its picture
    let secrets = std::fs::read_to_string(game.join("secrets.toml")).unwrap();
    let pw = |p: &str| {
        let v: toml::Value = toml::from_str(&secrets).unwrap();
        v["passwords"][p].as_str().unwrap().to_string()
    };
    let (_, json, _) = herald(&[
        "report",
        game.to_str().unwrap(),
        "--player",
        "black",
        "--format",
        "json",
    ]);
    let view: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = view["view"]["legal"][0].as_str().unwrap().to_string();
    let id = view["game"]["id"].as_str().unwrap().to_string();
    let file = dir.join("black.toml");
    std::fs::write(
        &file,
        ::herald::report::order_file(&id, "black", 0, &pw("black"), &[first]),
    )
    .unwrap();
    let (code, out, err) = herald(&[
        "resolve",
        game.to_str().unwrap(),
        file.to_str().unwrap(),
        "--now",
        "2026-11-22T14:00:00Z",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let queued: Vec<std::path::PathBuf> = std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    assert!(queued.len() >= 2, "{queued:?}");
    assert!(
        queued.iter().all(|q| has_png(q)),
        "a resolve's mail without board.png"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const BROWSER: &str = "/usr/bin/chromium";

fn chromium(profile: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BROWSER)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs")
}

/// The page a report mail carries is packed (issue 30): in Chromium its
/// script unpacks it into the report page itself, board, pieces and
/// composer, with no network; before that, the report's text reads.
#[test]
fn a_mails_packed_page_unpacks_into_the_report_page_in_chromium() {
    assert!(
        Path::new(BROWSER).exists(),
        "{BROWSER} is missing: run the tests with ./test, which installs Debian's chromium"
    );
    for game in ["war-of-the-dukes", "hexwar"] {
        let g = position(game, &format!("packed-{game}"));
        let html = crate::common::report(&g.loaded, 0, "html");
        let packed = ::herald::report::pack::pack(&html);
        // packed to less than 40%: the composer's script (60 KB with its
        // words) packs less than the board does
        assert!(
            packed.len() * 5 < html.len() * 2,
            "{game}: {} of {}",
            packed.len(),
            html.len()
        );
        assert!(packed.contains(r#"<pre id="report">"#) && !packed.contains("<svg"));
        let page = g.dir.join("packed.html");
        std::fs::write(&page, &packed).unwrap();
        let url = format!("file://{}", page.display());
        let dom = chromium(
            &g.dir.join("profile-packed"),
            &["--virtual-time-budget=10000", "--dump-dom", &url],
        );
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(
            dom.contains(r#"class="herald-board""#) && !dom.contains(r#"id="herald-page""#),
            "{game}: the page did not unpack:\n{}",
            &dom[..dom.len().min(3000)]
        );
        let drawn = dom.matches(r#"class="piece""#).count();
        assert_eq!(
            drawn,
            piece_hexes(&crate::common::report(&g.loaded, 0, "svg")).len(),
            "{game}: pieces in the unpacked page"
        );
        assert!(drawn > 0, "{game}: no pieces");
        // the composer ran in the unpacked page
        assert!(
            dom.contains(r#"id="composer" class="live""#)
                || dom.contains(r#"id="composer" class="idle""#),
            "{game}: the composer did not start"
        );
        let _ = std::fs::remove_dir_all(&g.dir);
    }
}

#[test]
fn html_reports_draw_their_boards_in_chromium() {
    assert!(
        Path::new(BROWSER).exists(),
        "{BROWSER} is missing: run the tests with ./test, which installs Debian's chromium"
    );
    for game in GAMES {
        let g = position(game, &format!("browser-{game}"));
        let html = crate::common::report(&g.loaded, 0, "html");
        let page = g.dir.join("report.html");
        std::fs::write(&page, &html).unwrap();
        let url = format!("file://{}", page.display());
        let dom = chromium(&g.dir.join("profile-dom"), &["--dump-dom", &url]);
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(
            dom.contains(r#"class="herald-board""#),
            "{game}: no board in the DOM:\n{dom}"
        );
        let drawn = dom.matches(r#"class="piece""#).count();
        assert_eq!(
            drawn,
            piece_hexes(&crate::common::report(&g.loaded, 0, "svg")).len(),
            "{game}: pieces in the DOM"
        );
        assert!(drawn > 0, "{game}: no pieces");
        let shot = g.dir.join("shot.png");
        let out = chromium(
            &g.dir.join("profile-shot"),
            &[
                &format!("--screenshot={}", shot.display()),
                "--window-size=480,900",
                &url,
            ],
        );
        let png = std::fs::read(&shot).unwrap_or_else(|e| {
            panic!(
                "{game}: no screenshot ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let (_, _, pixels, colour) = png_size(&png);
        let step = if colour == png::ColorType::Rgba { 4 } else { 3 };
        // the board's colour (and not a blank page) fills part of the screen
        let board = pixels
            .chunks(step)
            .filter(|p| {
                (p[0] as i32 - 0xe3).abs() <= 3
                    && (p[1] as i32 - 0xd5).abs() <= 3
                    && (p[2] as i32 - 0xb0).abs() <= 3
            })
            .count();
        let total = pixels.len() / step;
        assert!(
            board * 20 > total,
            "{game}: only {board} of {total} pixels are the board's colour"
        );
        let _ = std::fs::remove_dir_all(&g.dir);
    }
}

/// War of the Dukes' mail picture (issue 49): every number and place name
/// drawn on its part of the map lies wholly inside that part (none cut by
/// the picture's edge: "Fortress 4", "Menster" and the rows' numbers
/// were) and on no counter (the rows' numbers 01–04 were drawn over
/// counters), at every seat through a game between bots.
#[test]
fn war_of_the_dukes_mail_picture_keeps_labels_off_counters_and_inside() {
    let players = ["orfburg", "wulfenburg"];
    let mut g = EngineGame::new(
        "war-of-the-dukes",
        &players,
        "pictures",
        vec![],
        "wotd-mail-labels",
    );
    let mut rng = herald::rng::from_u64(3);
    let attr = |s: &str, k: &str| -> Option<f64> {
        let at = s.find(&format!(" {k}=\""))? + k.len() + 3;
        s[at..].split('"').next()?.parse().ok()
    };
    let mut checked = 0;
    let mut problems = Vec::new();
    for turn in 0..7 {
        for seat in 0..players.len() {
            let svg = herald::pipeline::render::mail_svg(&g.loaded, seat).unwrap();
            let head = &svg[..svg.find('>').unwrap()];
            let map: Vec<f64> = head
                .split("data-map=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .split(' ')
                .map(|n| n.parse().unwrap())
                .collect();
            let (x0, y0, x1, y1) = (map[0], map[1], map[0] + map[2], map[1] + map[3]);
            // each counter's box (22 px hexes, counters 0.56 of it a side)
            let half = 22.0 * 0.56;
            let counters: Vec<(f64, f64)> = svg
                .split(r#"<g class="piece" transform="translate("#)
                .skip(1)
                .map(|s| {
                    let xy: Vec<f64> = s
                        .split(')')
                        .next()
                        .unwrap()
                        .split([',', ' '])
                        .filter(|t| !t.is_empty())
                        .map(|n| n.parse().unwrap())
                        .collect();
                    (xy[0], xy[1])
                })
                .collect();
            for class in [r#"<g class="labels""#, r#"<g class="place""#] {
                for group in svg.split(class).skip(1) {
                    let open = &group[..group.find('>').unwrap()];
                    let fs = attr(open, "font-size").unwrap();
                    let body = &group[..group.find("</g>").unwrap()];
                    for t in body.split("<text").skip(1) {
                        let (x, y) = (attr(t, "x").unwrap(), attr(t, "y").unwrap());
                        let words = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                        let w = words.chars().count() as f64 * 0.602 * fs;
                        let (l, r, top, bottom) =
                            (x - w / 2.0, x + w / 2.0, y - fs * 0.72, y + fs * 0.2);
                        checked += 1;
                        if l < x0 - 0.5 || r > x1 + 0.5 || top < y0 - 0.5 || bottom > y1 + 0.5 {
                            problems.push(format!(
                                "turn {turn} seat {seat}: {words:?} at {x},{y} runs past the map's part {map:?}"
                            ));
                        }
                        if counters.iter().any(|&(cx, cy)| {
                            l < cx + half - 1.0
                                && r > cx - half + 1.0
                                && top < cy + half - 1.0
                                && bottom > cy - half + 1.0
                        }) {
                            problems.push(format!(
                                "turn {turn} seat {seat}: {words:?} at {x},{y} lies on a counter"
                            ));
                        }
                    }
                }
            }
        }
        if g.over() {
            break;
        }
        g.turn(|l, seat| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, seat, &mut rng));
    }
    assert!(checked > 50, "only {checked} labels");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let _ = std::fs::remove_dir_all(&g.dir);
}
