//! The order composer of the HTML report, in a real browser (issue 21):
//! for each game, open a player's report in headless Chromium (driven
//! through the Chrome DevTools Protocol over a pipe: `tests/it/browser.rs`), click through a legal order set
//! on the board as a player would, read the order file the page writes,
//! feed it to `herald check`, and resolve it to the same state as the same
//! orders typed by hand; try an illegal order and see the page refuse it
//! and say why; check that the page made no network request.
//!
//! The clicks are real mouse events at the cells' places on the screen.
//! Which cells to click is read from the data the page embeds (the piece's
//! cell, the order's target), the way a player reads the board.
//!
//! Needs /usr/bin/chromium (`.ci/run` installs it); fails without it.
//! `HERALD_BLESS=1` also writes the screenshots in docs/screenshots/.

use crate::browser::{Browser, LaunchOptions, Tab};
use crate::common::{herald, page_data, EngineGame};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const BROWSER: &str = "/usr/bin/chromium";

fn bless() -> bool {
    std::env::var_os("HERALD_BLESS").is_some_and(|v| v == "1")
}

pub(crate) fn browser() -> Browser {
    assert!(
        Path::new(BROWSER).exists(),
        "{BROWSER} is missing: the composer tests need Debian's chromium (`.ci/run` installs it)"
    );
    Browser::new(LaunchOptions { window: (375, 800) }).expect("headless Chromium starts")
}

/// One option of the page's data, as the page expands it.
#[derive(Debug, Clone)]
struct Opt {
    piece: Option<String>,
    text: String,
    to: Option<String>,
    from: Option<String>,
    moves: bool,
}

fn options(orders: &Value) -> Vec<Opt> {
    let mut out = Vec::new();
    let s = |v: &Value| v.as_str().map(str::to_string);
    for c in orders["choices"].as_array().unwrap() {
        let cells: Vec<Option<String>> = match c["over"].as_str() {
            Some(list) => orders["lists"][list]
                .as_array()
                .unwrap()
                .iter()
                .map(s)
                .collect(),
            None => vec![None],
        };
        for cell in cells {
            let text = c["text"].as_str().unwrap();
            out.push(Opt {
                piece: s(&c["piece"]),
                text: match &cell {
                    Some(x) => text.replace("{c}", x),
                    None => text.to_string(),
                },
                to: cell.or_else(|| s(&c["to"])),
                from: s(&c["from"]),
                moves: c["moves"] == true,
            });
        }
    }
    out
}

/// A report page open in a tab, with every request it makes recorded.
pub(crate) struct Page {
    pub(crate) tab: Arc<Tab>,
    requests: Arc<Mutex<Vec<String>>>,
    data: Value,
    url: String,
}

impl Page {
    pub(crate) fn open(browser: &Browser, path: &Path, html: &str) -> Page {
        Page::open_at(browser, path, html, None)
    }

    /// The page opened on a screen `width` × `height` (a phone's when the
    /// width is under 600), or the browser's own window (375 × 800).
    pub(crate) fn open_at(
        browser: &Browser,
        path: &Path,
        html: &str,
        size: Option<(u32, u32)>,
    ) -> Page {
        std::fs::write(path, html).unwrap();
        let tab = browser.new_tab().unwrap();
        tab.set_default_timeout(Duration::from_secs(30));
        if let Some((width, height)) = size {
            metrics(&tab, width, height);
        }
        let requests = Arc::new(Mutex::new(Vec::new()));
        let r = requests.clone();
        tab.call("Network.enable", serde_json::json!({})).unwrap();
        tab.add_event_listener(Arc::new(move |method: &str, params: &Value| {
            if method == "Network.requestWillBeSent" {
                let url = params["request"]["url"].as_str().unwrap_or_default();
                r.lock().unwrap().push(url.to_string());
            }
        }))
        .unwrap();
        let url = format!("file://{}", path.display());
        tab.navigate_to(&url)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        tab.wait_for_element("#composer.live, #composer.idle")
            .unwrap();
        Page {
            tab,
            requests,
            data: page_data(html),
            url,
        }
    }

    /// A page already open in `tab` (served at `url`, its HTML `html`):
    /// `herald serve`'s game page.
    pub(crate) fn on_tab(tab: Arc<Tab>, html: &str, url: String) -> Page {
        Page {
            tab,
            requests: Arc::new(Mutex::new(Vec::new())),
            data: page_data(html),
            url,
        }
    }

    /// The value of a JavaScript expression, passed back as JSON text (an
    /// array or object would otherwise come back as a remote reference).
    pub(crate) fn js(&self, expr: &str) -> Value {
        let wrapped = format!("JSON.stringify((function () {{ return ({expr}); }})())");
        let text = self
            .tab
            .evaluate(&wrapped, false)
            .unwrap_or_else(|e| panic!("{expr}: {e}"))
            .value
            .unwrap_or(Value::Null);
        match text.as_str() {
            Some(t) => serde_json::from_str(t).unwrap_or(Value::Null),
            None => Value::Null,
        }
    }

    /// A real click at the middle of a board cell, scrolled into view.
    pub(crate) fn click_cell(&self, cell: &str) {
        let at = self.js(&format!(
            r#"(function (c) {{
                var svg = document.querySelector('#board svg');
                var n = Array.prototype.find.call(svg.querySelectorAll('[data-hex]'), function (e) {{
                    return e.getAttribute('data-hex') === c && !e.closest('.piece') && !e.closest('.legend');
                }});
                if (!n) return null;
                n.scrollIntoView({{block: 'center', inline: 'center'}});
                var b = n.getBoundingClientRect();
                return [b.left + b.width / 2, b.top + b.height / 2];
            }})({})"#,
            serde_json::to_string(cell).unwrap()
        ));
        self.click_at(&at, &format!("cell {cell} on the board"));
    }

    /// A real click: the mouse button pressed and released at a point of
    /// the screen, as input events that Chromium hit-tests like a user's
    /// (two calls; the element is found with one call to the page).
    pub(crate) fn click_at(&self, at: &Value, what: &str) {
        let at = at.as_array().unwrap_or_else(|| panic!("no {what}"));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        self.tab.click_point(x, y).unwrap();
    }

    /// A real click at the middle of the element a selector finds,
    /// scrolled into view.
    pub(crate) fn click(&self, selector: &str) {
        let at = self.js(&format!(
            r#"(function (s) {{
                var n = document.querySelector(s);
                if (!n) return null;
                n.scrollIntoView({{block: 'center', inline: 'center'}});
                var b = n.getBoundingClientRect();
                if (!b.width || !b.height) return null;
                return [b.left + b.width / 2, b.top + b.height / 2];
            }})({})"#,
            serde_json::to_string(selector).unwrap()
        ));
        self.click_at(&at, &format!("{selector} shown on the page"));
    }

    pub(crate) fn has(&self, selector: &str) -> bool {
        self.js(&format!(
            "!!document.querySelector({})",
            serde_json::to_string(selector).unwrap()
        )) == true
    }

    pub(crate) fn message(&self) -> String {
        self.js("document.getElementById('hc-msg').textContent")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// What the page shows, in one call: the orders listed, its message,
    /// the piece selected beside the board, and whether the selection's
    /// options offer `want`.
    pub(crate) fn look(&self, want: &str) -> Look {
        let v = self.js(&format!(
            r#"(function (w) {{
                var on = document.querySelector('#hc-tray .opt.on[data-piece]');
                return {{
                    orders: Array.prototype.map.call(document.querySelectorAll('#hc-list code'), function (c) {{ return c.textContent; }}),
                    message: document.getElementById('hc-msg').textContent,
                    tray: on ? on.getAttribute('data-piece') : null,
                    offered: Array.prototype.some.call(document.querySelectorAll('#hc-options [data-order]'), function (b) {{ return b.getAttribute('data-order') === w; }})
                }};
            }})({})"#,
            serde_json::to_string(want).unwrap()
        ));
        Look {
            orders: v["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect(),
            message: v["message"].as_str().unwrap_or("").to_string(),
            tray: v["tray"].as_str().map(str::to_string),
            offered: v["offered"] == true,
        }
    }

    /// The orders listed, in the file's order.
    pub(crate) fn orders(&self) -> Vec<String> {
        let v = self.js(
            "Array.prototype.map.call(document.querySelectorAll('#hc-list code'), function (c) { return c.textContent; })",
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    }

    /// The order file as the page's Download gives it (the box on the
    /// page shows it with the password masked): the blob the page makes,
    /// caught as it is made. Empty when the page refuses to download.
    pub(crate) fn file(&self) -> String {
        let v = self
            .tab
            .evaluate(
                r#"new Promise(function (ok) {
                    var real = URL.createObjectURL, b = document.getElementById('hc-download');
                    if (b.getAttribute('aria-disabled')) { ok(''); return; }
                    URL.createObjectURL = function (blob) { URL.createObjectURL = real; blob.text().then(ok); return real.call(URL, new Blob([''])); };
                    b.click();
                })"#,
                true,
            )
            .unwrap();
        v.value
            .and_then(|x| x.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The order file as the order-file box shows it.
    pub(crate) fn shown_file(&self) -> String {
        self.js("document.getElementById('hc-file').value")
            .as_str()
            .unwrap()
            .to_string()
    }

    pub(crate) fn state(&self) -> String {
        self.js("document.getElementById('hc-state').textContent")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The password typed into its field, as a phone's keyboard enters
    /// text (`Input.insertText`: one call, where a key press per
    /// character takes two).
    pub(crate) fn type_password(&self, pw: &str) {
        self.click("#hc-password");
        self.tab.send_character(pw).unwrap();
    }

    /// Compose `orders` by clicking, each as a player would: the piece (on
    /// the board where the orders already listed leave it, or beside it,
    /// unless the page has picked it already), then the target cell or the
    /// order's button.
    // Long: one whole fixture or table of cases, set up in one place.
    pub(crate) fn compose(&self, orders: &[String]) {
        let d = &self.data["orders"];
        let opts = options(d);
        let mut pos: BTreeMap<String, Option<String>> = d["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["id"].as_str().unwrap().to_string(),
                    p["at"].as_str().map(str::to_string),
                )
            })
            .collect();
        let mut now = self.look("");
        let moved = |pos: &mut BTreeMap<String, Option<String>>, o: &Opt| {
            if let (true, Some(p)) = (o.moves, &o.piece) {
                pos.insert(p.clone(), o.to.clone());
            }
        };
        for given in &now.orders {
            if let Some(o) = opts.iter().find(|o| &o.text == given) {
                moved(&mut pos, o);
            }
        }
        for want in orders {
            let before = now.orders.len();
            if let Some(g) = d["gathers"].as_array().and_then(|gs| {
                gs.iter()
                    .find(|g| want.starts_with(&format!("{} ", g["text"].as_str().unwrap())))
            }) {
                let rest = &want[g["text"].as_str().unwrap().len() + 1..];
                let (members, advance) = match rest.split_once(" advance ") {
                    Some((m, a)) => (m, Some(a)),
                    None => (rest, None),
                };
                self.click_cell(g["target"].as_str().unwrap());
                assert!(self.has("#hc-gather-add"), "{want}: no attack to gather");
                for m in members.split(' ') {
                    let at = pos[m].clone().unwrap();
                    self.click_cell(&at);
                }
                if let Some(a) = advance {
                    self.click(&format!(r#"[data-advance="{a}"]"#));
                }
                self.click("#hc-gather-add");
                now = self.look(want);
            } else {
                let o = opts
                    .iter()
                    .find(|o| &o.text == want)
                    .unwrap_or_else(|| panic!("{want}: not among the page's orders"));
                match &o.piece {
                    Some(p) => {
                        match o.from.clone().or_else(|| pos[p].clone()) {
                            Some(at) => self.click_cell(&at),
                            // the page picks the next piece to place itself
                            None if now.tray.as_deref() == Some(p) => {}
                            None => self.click(&format!(r#"#hc-tray [data-piece="{p}"]"#)),
                        }
                        match &o.to {
                            Some(to) => self.click_cell(to),
                            None => self.click(&format!(r#"#hc-options [data-order="{want}"]"#)),
                        }
                        now = self.look(want);
                        if now.orders.len() == before && now.offered {
                            // several orders point at that cell: pick it
                            self.click(&format!(r#"#hc-options [data-order="{want}"]"#));
                            now = self.look(want);
                        }
                    }
                    None => {
                        self.click(&format!(r#"#hc-tray [data-order="{want}"]"#));
                        now = self.look(want);
                    }
                }
                moved(&mut pos, o);
            }
            assert!(
                now.orders.contains(want),
                "{want}: not added by clicking; the page says: {}",
                now.message
            );
        }
    }

    /// Only the page itself was loaded: no other request, ever.
    pub(crate) fn assert_no_network(&self) {
        let r = self.requests.lock().unwrap().clone();
        assert!(
            r.iter().all(|u| u == &self.url || u.starts_with("blob:")),
            "the page made requests: {r:?}"
        );
    }

    /// The page at `width`: one screen of `height`, or (`full`) a screen
    /// as tall as the page down to the order file, so that it is painted
    /// whole and the panel of the selection's orders, which sticks to the
    /// bottom of a phone's screen while the board scrolls, stands in its
    /// place under the board. A zoomed map (War of the Dukes) is shown on
    /// one screen whatever `full` says: its box is a share of the screen's
    /// height, so a taller screen would show another page (and Chromium's
    /// capture beyond the screen scrolls the map back to its corner).
    pub(crate) fn screenshot(&self, out: &Path, width: u32, height: u32, full: bool) {
        self.screenshot_showing(out, width, height, full, None)
    }

    /// A screenshot as [`Page::screenshot`]; with `show`, of the screen
    /// scrolled to the element it finds (the odds of an attack being
    /// gathered, below a phone's board).
    pub(crate) fn screenshot_showing(
        &self,
        out: &Path,
        width: u32,
        height: u32,
        full: bool,
        show: Option<&str>,
    ) {
        let screen = |h: u32| metrics(&self.tab, width, h);
        screen(height);
        let mut h = height;
        let zoomed = self.js("document.getElementById('hc-scroll').classList.contains('zoomed')");
        if full && zoomed != true {
            // a few rounds: a zoomed map's box is a share of the screen's height
            for _ in 0..4 {
                let bottom = self.js(
                    "Math.ceil(document.getElementById('hc-file').getBoundingClientRect().bottom + window.scrollY + 60)",
                );
                let bottom = (bottom.as_f64().unwrap() as u32).min(4000);
                if bottom == h {
                    break;
                }
                h = bottom;
                screen(h);
            }
        }
        // a zoomed map scrolled to the selection, as the page does when a
        // piece is picked; the page from its top
        self.js("(function () {
                var s = document.querySelector('#board svg .plan .sel');
                if (s) s.scrollIntoView({block: 'center', inline: 'center'});
                window.scrollTo(0, 0);
            })()");
        // the element to show brought into the screen as a reader would
        // scroll to it (the panel beside a phone's board scrolls within
        // itself), and the screen taken as it is
        if let Some(sel) = show {
            let found = self.js(&format!(
                "(function (s) {{ var n = document.querySelector(s); if (!n) return false; n.scrollIntoView({{block: 'nearest'}}); return true; }})({})",
                serde_json::to_string(sel).unwrap()
            ));
            assert!(found == true, "{sel}: not on the page");
            std::thread::sleep(std::time::Duration::from_millis(200));
            let png = self.tab.screenshot(None).unwrap();
            std::fs::write(out, png).unwrap();
            return;
        }
        let png = self
            .tab
            .screenshot(Some((0.0, 0.0, width as f64, h as f64)))
            .unwrap();
        std::fs::write(out, png).unwrap();
    }
}

/// The screen a tab shows: `width` × `height` CSS pixels, a phone's
/// (touch, the page's own viewport) under 600 px.
pub(crate) fn metrics(tab: &Tab, width: u32, height: u32) {
    tab.set_metrics(width, height).unwrap();
}

/// What the page shows after a click (`Page::look`).
pub(crate) struct Look {
    orders: Vec<String>,
    message: String,
    /// The piece selected in the list beside the board.
    tray: Option<String>,
    /// Whether the selection's options offer the order looked for.
    offered: bool,
}

/// Everything a scenario checks, for one player's orders in one phase.
struct Scenario<'a> {
    game: &'a mut EngineGame,
    seat: usize,
    /// The orders, as a player would type them (the order file's order).
    orders: Vec<String>,
    /// One order that must be refused after them, and words of the reason.
    illegal: Option<(Vec<String>, &'a str)>,
    /// The other players' orders this phase (the same in both runs).
    others: BTreeMap<usize, Vec<String>>,
    shots: Option<&'a str>,
    /// How many attacks listed show their odds (War of the Dukes).
    odds: usize,
}

// Long: one whole fixture or table of cases, set up in one place.
fn run(browser: &Browser, sc: Scenario) {
    let g = &*sc.game;
    let loaded = &g.loaded;
    let head = loaded.head();
    let player = head.players[sc.seat].id.clone();
    let name = loaded.entry.name;
    // the orders are legal, by herald's own check
    let parsed: Vec<_> = sc
        .orders
        .iter()
        .map(|o| loaded.rules.parse_order(&loaded.state, sc.seat, o).unwrap())
        .collect();
    let problems = loaded.rules.check(&loaded.state, sc.seat, &parsed);
    assert!(problems.is_empty(), "{name}: {:?} {problems:?}", sc.orders);

    let html = crate::common::report(loaded, sc.seat, "html");
    assert!(
        !html.contains(g.password(&player)),
        "{name}: a password in the page"
    );
    let page = Page::open(browser, &g.dir.join(format!("{player}.html")), &html);
    assert!(
        page.state().contains("Not complete")
            || name == "unfought-battle"
            || name == "war-of-the-dukes",
        "{name}: {}",
        page.state()
    );
    page.compose(&sc.orders);
    assert_eq!(page.orders(), sc.orders, "{name}: the orders listed");
    assert!(
        page.state().contains("Complete"),
        "{name}: {}",
        page.state()
    );

    if let Some((extra, why)) = &sc.illegal {
        let before = page.orders();
        let (last, first) = extra.split_last().unwrap();
        if !first.is_empty() {
            page.compose(first);
        }
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            page.compose(std::slice::from_ref(last))
        }));
        let msg = page.message();
        assert!(
            msg.starts_with("Refused") && msg.contains(why),
            "{name}: `{last}` should be refused ({why}); the page says: {msg}"
        );
        assert!(!page.orders().contains(last), "{name}: `{last}` was added");
        for o in first.iter().rev() {
            page.click(&format!(r#"#hc-list [data-remove="{o}"]"#));
        }
        assert_eq!(page.orders(), before, "{name}: removing restores the list");
    }

    if sc.odds > 0 {
        state_in_view(&page, name);
    }
    // a refused attack stays gathered, half made: the player cancels it
    if page.has("#hc-gather-cancel") {
        page.click("#hc-gather-cancel");
    }

    // the odds the page shows for each attack listed, to set against the
    // resolver's below
    let odds = page.js(
        "Array.prototype.map.call(document.querySelectorAll('#hc-list .note[data-odds]'), function (n) {
            return {target: n.getAttribute('data-target'), attack: +n.getAttribute('data-attack'),
                    defence: +n.getAttribute('data-defence'), odds: n.getAttribute('data-odds'),
                    results: n.getAttribute('data-results').split(',')};
        })",
    );
    let odds = odds.as_array().cloned().unwrap_or_default();

    let pw = g.password(&player);
    page.type_password(pw);
    let text = page.file();
    let typed = herald::report::order_file(&head.id, &player, head.turn, pw, &sc.orders);
    assert_eq!(text, typed, "{name}: the composed file");
    // the password is never shown in clear: the box masks it, the mail
    // link carries it only while it is followed
    let shown = page.shown_file();
    assert!(
        !shown.contains(pw) && shown.contains("password = \"•"),
        "{name}: the box shows the password: {shown}"
    );
    let mail = page.js("document.getElementById('hc-mail').getAttribute('href')");
    let mail = mail.as_str().unwrap();
    assert!(
        !mail.contains(pw),
        "{name}: the mail link shows the password"
    );
    assert!(
        mail.starts_with("mailto:")
            && mail.contains(&format!(
                "subject=%5B{}%5D%20orders%20for%20turn%20{}",
                head.id, head.turn
            )),
        "{name}: {mail}"
    );
    page.click("#hc-download");
    page.assert_no_network();

    // herald check takes the file as the page wrote it
    let folder = g.save();
    let file = g.dir.join(format!("{player}-composed.toml"));
    std::fs::write(&file, &text).unwrap();
    let (code, out, err) = herald(&["check", folder.to_str().unwrap(), file.to_str().unwrap()]);
    assert_eq!(code, 0, "{name}: herald check: {out}{err}");

    // and it resolves as the orders typed by hand do
    let resolve = |mine: &str| {
        let mut l =
            herald::pipeline::Loaded::from_text(&g.loaded.record.to_text(), "game").unwrap();
        let h = l.head().clone();
        let mut files = vec![herald::pipeline::Submitted::file(
            format!("{player}.toml"),
            mine.to_string(),
        )];
        for (s, o) in &sc.others {
            let p = h.players[*s].id.clone();
            files.push(herald::pipeline::Submitted::file(
                format!("{p}.toml"),
                herald::report::order_file(&h.id, &p, h.turn, g.password(&p), o),
            ));
        }
        l.resolve_files(&files, "2026-11-22T13:00:00Z", &g.seed, &g.signer)
            .unwrap();
        (l.rules.encode(&l.state), l.last_phase().unwrap().events)
    };
    let (state, events) = resolve(&text);
    assert_eq!(state, resolve(&typed).0, "{name}: the same state");
    assert_eq!(
        odds.len(),
        sc.odds,
        "{name}: the odds shown under the attacks listed: {odds:?}"
    );
    // the odds shown are the resolver's: the strengths, the column, and
    // the result of the face the die showed
    for o in &odds {
        let fought = events
            .iter()
            .find(|e| e["event"] == "combat" && e["target"] == o["target"])
            .unwrap_or_else(|| panic!("{name}: no combat on {}: {events:?}", o["target"]));
        for k in ["attack", "defence", "odds"] {
            assert_eq!(
                o[k], fought[k],
                "{name}: {k} of the attack on {}",
                o["target"]
            );
        }
        let die = fought["die"].as_u64().unwrap() as usize;
        assert_eq!(
            o["results"][die - 1],
            fought["result"],
            "{name}: the result of a {die} on {}",
            o["target"]
        );
    }

    if let (Some(tag), true) = (sc.shots, bless()) {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&docs).unwrap();
        // a game with odds: the attack the illegal step left being
        // gathered stays open, its odds shown (on a phone below the board:
        // the picture goes down to them)
        let odds_shown = sc.odds > 0 && page.has("#hc-odds-line");
        if odds_shown {
            page.screenshot_showing(
                &docs.join(format!("{tag}-phone.png")),
                375,
                812,
                false,
                Some("#hc-odds table"),
            );
            page.screenshot(&docs.join(format!("{tag}-desktop.png")), 1280, 900, false);
            page.tab.close(false).unwrap();
            return;
        }
        // what the illegal step left closed (an attack being gathered, a
        // selection), then a piece without an order selected, so its
        // orders and targets show
        if page.has("#hc-gather-cancel") {
            page.click("#hc-gather-cancel");
        } else if page.has("#hc-options button.act") {
            page.click("#hc-options button.act");
        }
        select_free(&page);
        page.screenshot(&docs.join(format!("{tag}-phone.png")), 375, 812, true);
        page.screenshot(&docs.join(format!("{tag}-desktop.png")), 1280, 900, false);
    }
    page.tab.close(false).unwrap();
}

/// On a phone (375 × 812), with the panel of an attack being gathered open
/// at the foot of the screen, the line saying whether the orders are
/// complete is on the screen and on top, not under the panel, with the
/// page scrolled to its top (the board in view) and with the board's foot
/// at the screen's foot: the player sees it without scrolling past the
/// board. It says the set is not complete while the attack is gathered
/// and not added (issue 49: "complete" only when nothing is half made).
fn state_in_view(page: &Page, name: &str) {
    metrics(&page.tab, 375, 812);
    for at in ["top", "board foot"] {
        let v = page.js(&format!(
            r#"(function () {{
                var sc = document.getElementById('hc-scroll').getBoundingClientRect();
                window.scrollTo(0, {} );
                var s = document.getElementById('hc-state'), r = s.getBoundingClientRect();
                var top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
                return {{ text: s.textContent, top: r.top, bottom: r.bottom, height: innerHeight,
                         panel: document.getElementById('hc-pick').classList.contains('active'),
                         on_top: !!top && s.contains(top), scroll: scrollY }};
            }})()"#,
            if at == "top" {
                "0"
            } else {
                "Math.max(0, sc.bottom + scrollY - innerHeight)"
            }
        ));
        let ctx = format!("{name} at 375 px, scrolled to the {at}: {v}");
        assert!(v["panel"] == true, "{ctx}: no panel open");
        assert!(
            v["text"]
                .as_str()
                .unwrap()
                .contains("Not complete: the attack on "),
            "{ctx}"
        );
        let f = |k: &str| v[k].as_f64().unwrap();
        assert!(
            f("top") >= 0.0 && f("bottom") <= f("height"),
            "{ctx}: the state line is off the screen"
        );
        assert!(v["on_top"] == true, "{ctx}: the state line is covered");
    }
    page.js("window.scrollTo(0, 0)");
}

/// Select a piece of the player's that has no order yet and has somewhere
/// to go (or else any piece on the board), so its orders and targets show.
pub(crate) fn select_free(page: &Page) {
    let listed = page.orders();
    let opts = options(&page.data["orders"]);
    let free = |id: &str| {
        let mine = || opts.iter().filter(|o| o.piece.as_deref() == Some(id));
        !mine().any(|o| listed.contains(&o.text)) && mine().any(|o| o.to.is_some())
    };
    let ps = page.data["orders"]["pieces"].as_array().unwrap();
    let on = |p: &&Value| p["at"].is_string();
    if let Some(p) = ps
        .iter()
        .filter(on)
        .find(|p| free(p["id"].as_str().unwrap()))
        .or_else(|| ps.iter().find(on))
    {
        let at = p["at"].as_str().unwrap().to_string();
        page.click_cell(&at);
    }
}

/// The legal sets of one player now, as text.
fn legal(g: &EngineGame, seat: usize) -> Vec<Vec<String>> {
    g.loaded.rules.legal_orders(&g.loaded.state, seat)
}

fn seat_due(g: &EngineGame) -> usize {
    g.loaded.rules.awaiting(&g.loaded.state)[0]
}

/// The page finds a refusal's reason by the key's kind (the part before
/// the first `:`), so every kind an order uses or needs has its reason
/// under that kind, and no reason sits under a whole key where the page
/// would never look (HEXWAR's `slot:move` did: a second move was refused
/// for a full template). No browser: the data of each game's first phases.
#[test]
fn composer_refusals_have_reasons() {
    let games: [(&str, &[&str], Vec<String>); 5] = [
        (
            "norse-wars",
            &["red", "blue", "green"],
            vec!["fog=true".into()],
        ),
        ("hexwar", &["white", "black"], vec![]),
        ("stack-wars", &["black", "white"], vec!["size=7".into()]),
        ("unfought-battle", &["north", "south"], vec![]),
        ("war-of-the-dukes", &["orfburg", "wulfenburg"], vec![]),
    ];
    let kind = |k: &str| k.split(':').next().unwrap().to_string();
    for (name, players, opts) in games {
        let mut g = EngineGame::new(name, players, "keys", opts, "compose-keys");
        let mut rng = herald::rng::from_u64(3);
        for _ in 0..3 {
            for seat in g.loaded.rules.awaiting(&g.loaded.state) {
                let d = g.loaded.rules.compose(&g.loaded.state, seat);
                let ctx = format!("{name} turn {} seat {seat}", g.loaded.head().turn);
                for table in ["why", "need_why"] {
                    for k in d[table].as_object().into_iter().flat_map(|m| m.keys()) {
                        assert!(!k.contains(':'), "{ctx}: {table} under a whole key {k}");
                    }
                }
                let mut uses = Vec::new();
                let mut needs = Vec::new();
                for c in d["choices"].as_array().unwrap() {
                    for (list, out) in [("uses", &mut uses), ("needs", &mut needs)] {
                        for k in c[list].as_array().into_iter().flatten() {
                            out.push(kind(k.as_str().unwrap()));
                        }
                    }
                }
                for gth in d["gathers"].as_array().into_iter().flatten() {
                    uses.push(kind(gth["member"].as_str().unwrap()));
                    for k in gth["uses"].as_array().unwrap() {
                        uses.push(kind(k.as_str().unwrap()));
                    }
                }
                for k in &uses {
                    assert!(d["why"][k].is_string(), "{ctx}: no reason for {k} keys");
                }
                for k in &needs {
                    assert!(
                        d["need_why"][k].is_string(),
                        "{ctx}: no reason for {k} needs"
                    );
                }
            }
            g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
        }
    }
}

#[test]
fn norse_wars_orders_by_pointing() {
    let b = browser();
    let mut g = EngineGame::new(
        "norse-wars",
        &["red", "blue", "green"],
        "compose",
        vec!["fog=true".into()],
        "compose-norse",
    );
    for _ in 0..5 {
        g.turn(|l, s| {
            let all = l.rules.legal_orders(&l.state, s);
            all[all.len() / 2].clone()
        });
    }
    let seat = seat_due(&g);
    let all = legal(&g, seat);
    let mine = all[all.len() / 3].clone();
    let other = all
        .iter()
        .find(|o| o[0].split(' ').next() != mine[0].split(' ').next())
        .unwrap()
        .clone();
    run(
        &b,
        Scenario {
            game: &mut g,
            seat,
            orders: mine,
            illegal: Some((other, "one piece per turn")),
            others: BTreeMap::new(),
            shots: Some("norse-wars"),
            odds: 0,
        },
    );
}

#[test]
fn hexwar_orders_by_pointing() {
    let b = browser();
    let mut g = EngineGame::new(
        "hexwar",
        &["white", "black"],
        "compose",
        vec![],
        "compose-hexwar",
    );
    let all = legal(&g, 0);
    // a move, the moved piece turned on its new hex, another piece turned
    let mv = all
        .iter()
        .find(|o| o[0].starts_with("move ") && o[0].ends_with("c4"))
        .or_else(|| all.iter().find(|o| o[0].starts_with("move ")))
        .unwrap()[0]
        .clone();
    let to = mv.split(' ').nth(2).unwrap().to_string();
    let from = mv.split(' ').nth(1).unwrap().to_string();
    let l = &g.loaded;
    let pick = |cands: Vec<String>| -> String {
        cands
            .into_iter()
            .find(|r| {
                let mut o = vec![mv.clone()];
                o.push(r.clone());
                let parsed: Vec<_> = o
                    .iter()
                    .map(|x| l.rules.parse_order(&l.state, 0, x).unwrap())
                    .collect();
                l.rules.check(&l.state, 0, &parsed).is_empty()
            })
            .unwrap()
    };
    // A facing the piece does not have (the ones listed for it before it
    // moves): the page offers no rotation to its own facing, which `check`
    // accepts as an action that changes nothing (games/hexwar.md).
    let turn_moved = pick(
        all.iter()
            .filter_map(|o| o[0].strip_prefix(&format!("rotate {from} ")))
            .map(|d| format!("rotate {to} {d}"))
            .collect(),
    );
    let other = all
        .iter()
        .find(|o| o[0].starts_with("rotate ") && !o[0].contains(&format!(" {from} ")))
        .unwrap()[0]
        .clone();
    let second_move = all
        .iter()
        .find(|o| o[0].starts_with("move ") && !o[0].starts_with(&format!("move {from} ")))
        .unwrap()[0]
        .clone();
    run(
        &b,
        Scenario {
            game: &mut g,
            seat: 0,
            orders: vec![mv, turn_moved, other],
            illegal: Some((vec![second_move], "Move action")),
            others: BTreeMap::new(),
            // the screenshots are of a game in its middle: see
            // pages_open_on_the_players_pieces
            shots: None,
            odds: 0,
        },
    );
}

#[test]
fn stack_wars_orders_by_pointing() {
    let b = browser();
    let mut g = EngineGame::new(
        "stack-wars",
        &["black", "white"],
        "compose",
        vec!["size=7".into()],
        "compose-stack",
    );
    for _ in 0..6 {
        g.turn(|l, s| {
            let all = l.rules.legal_orders(&l.state, s);
            all[all.len() / 2].clone()
        });
    }
    let seat = seat_due(&g);
    let all = legal(&g, seat);
    let mv = all
        .iter()
        .find(|o| o[0].starts_with("move "))
        .unwrap()
        .clone();
    let fortify = all
        .iter()
        .find(|o| o[0].starts_with("fortify "))
        .unwrap()
        .clone();
    run(
        &b,
        Scenario {
            game: &mut g,
            seat,
            orders: mv,
            illegal: Some((fortify, "one action per turn")),
            others: BTreeMap::new(),
            shots: Some("stack-wars"),
            odds: 0,
        },
    );
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn unfought_battle_orders_by_pointing() {
    let b = browser();
    let mut g = EngineGame::new(
        "unfought-battle",
        &["north", "south"],
        "compose",
        vec![],
        "compose-unfought",
    );
    // deployment: a power for each force, tapped in
    let deploy: Vec<String> = ["5", "3", "1", "4", "2"]
        .iter()
        .enumerate()
        .map(|(i, p)| format!("f{} power {p}", i + 1))
        .collect();
    let theirs = legal(&g, 1)[7].clone();
    run(
        &b,
        Scenario {
            game: &mut g,
            seat: 0,
            orders: deploy.clone(),
            illegal: Some((
                vec!["f2 power 5".into()],
                "each power goes to exactly one force",
            )),
            others: BTreeMap::from([(1, theirs.clone())]),
            shots: None,
            odds: 0,
        },
    );
    g.turn(|_, s| {
        if s == 0 {
            deploy.clone()
        } else {
            theirs.clone()
        }
    });
    // orders: moves for two forces, a costly order for a third
    let mut orders = Vec::new();
    let all = legal(&g, 0);
    for f in ["f1", "f2", "f3"] {
        let pick = all.iter().find(|o| {
            o.len() == 1
                && o[0].starts_with(&format!("{f} "))
                && (o[0].contains(" move ") || o[0].ends_with("fortify"))
                && {
                    let mut t = orders.clone();
                    t.push(o[0].clone());
                    let l = &g.loaded;
                    let parsed: Vec<_> = t
                        .iter()
                        .map(|x| l.rules.parse_order(&l.state, 0, x).unwrap())
                        .collect();
                    l.rules.check(&l.state, 0, &parsed).is_empty()
                }
        });
        if let Some(p) = pick {
            orders.push(p[0].clone());
        }
    }
    assert!(orders.len() >= 2, "{orders:?}");
    // a force moves onto the hex of one ordered after it: the page lets the
    // player tap the one still without an order there
    let data = g.loaded.rules.compose(&g.loaded.state, 0);
    let opts = options(&data);
    let at = |f: &str| {
        data["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == f)
            .and_then(|p| p["at"].as_str())
            .map(str::to_string)
    };
    let onto = orders.iter().enumerate().any(|(i, o)| {
        let to = opts
            .iter()
            .find(|x| &x.text == o)
            .and_then(|x| x.to.clone());
        orders[i + 1..]
            .iter()
            .any(|later| to.is_some() && to == at(&later[..2]))
    });
    assert!(onto, "no force moves onto a later one's hex: {orders:?}");
    let again = format!("{} hold", &orders[0][..2]);
    let theirs = g
        .loaded
        .rules
        .hold_orders(&g.loaded.state, 1)
        .unwrap_or_default();
    run(
        &b,
        Scenario {
            game: &mut g,
            seat: 0,
            orders,
            illegal: Some((vec![again], "one order per force")),
            others: BTreeMap::from([(1, theirs)]),
            shots: Some("unfought-battle"),
            odds: 0,
        },
    );
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn war_of_the_dukes_orders_by_pointing() {
    let b = browser();
    let mut g = EngineGame::new(
        "war-of-the-dukes",
        &["orfburg", "wulfenburg"],
        "compose",
        vec![],
        "compose-dukes",
    );
    // deployment: every piece placed by tapping its hex, in the order the
    // page picks the pieces (the first tapped in the list beside the map,
    // then each next one picked for the player after a placement)
    let mut deploy = legal(&g, 0)[0].clone();
    let data = g.loaded.rules.compose(&g.loaded.state, 0);
    let picked: Vec<&str> = data["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    deploy.sort_by_key(|o| picked.iter().position(|p| o.split(' ').next() == Some(*p)));
    let theirs = legal(&g, 1)[0].clone();
    let crowd = {
        // a second unit onto the first one's hex
        let units: Vec<&String> = deploy.iter().filter(|o| !o.starts_with("D ")).collect();
        let hex = units[0].split(' ').nth(1).unwrap();
        format!("{} {hex}", units[1].split(' ').next().unwrap())
    };
    run(
        &b,
        Scenario {
            game: &mut g,
            seat: 0,
            orders: deploy.clone(),
            illegal: Some((vec![crowd], "a hex holds one unit")),
            others: BTreeMap::from([(1, theirs.clone())]),
            shots: None,
            odds: 0,
        },
    );
    g.turn(|_, s| {
        if s == 0 {
            deploy.clone()
        } else {
            theirs.clone()
        }
    });
    // play (the bots) until Orfburg can attack one enemy piece with two or
    // more units: then a move and an attack by all of them but one. The
    // last one's attack on the same piece is refused ("a given unit may not
    // be attacked more than once during a single phase", Combat): an order
    // legal on its own, and not the first one given twice
    let mut rng = herald::rng::from_u64(5);
    let legal_alone = |g: &EngineGame, o: &str| {
        let l = &g.loaded;
        let parsed = l.rules.parse_order(&l.state, 0, o).unwrap();
        l.rules.check(&l.state, 0, &[parsed]).is_empty()
    };
    for _ in 0..40 {
        let seat = seat_due(&g);
        let pair = (seat == 0)
            .then(|| legal(&g, 0))
            .into_iter()
            .flatten()
            .filter(|o| o.len() == 1 && o[0].starts_with("attack "))
            .find_map(|o| {
                let (head, with) = o[0].split_once(" with ").unwrap();
                let with: Vec<String> = with
                    .split(" advance ")
                    .next()
                    .unwrap()
                    .split(' ')
                    .map(str::to_string)
                    .collect();
                let (last, first) = with.split_last()?;
                let a = format!("{head} with {}", first.join(" "));
                let b = format!("{head} with {last}");
                (!first.is_empty() && legal_alone(&g, &a) && legal_alone(&g, &b))
                    .then_some((a, b, with))
            });
        if let Some((a, second, busy)) = pair {
            // a move by a unit of neither attack
            let mv = legal(&g, 0).into_iter().find(|o| {
                o.len() == 1
                    && !o[0].starts_with("attack ")
                    && !busy.iter().any(|w| o[0].starts_with(&format!("{w} ")))
            });
            let mut orders: Vec<String> = mv.into_iter().flatten().collect();
            orders.push(a);
            run(
                &b,
                Scenario {
                    game: &mut g,
                    seat: 0,
                    orders,
                    illegal: Some((vec![second], "attacked once a phase")),
                    others: BTreeMap::new(),
                    shots: Some("war-of-the-dukes"),
                    odds: 1,
                },
            );
            return;
        }
        g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
        assert!(!g.over(), "the game ended before Orfburg could attack");
    }
    panic!("no attack for Orfburg came up");
}

/// What the page shows of the player's own pieces when it opens: each
/// cell of `mine` (the page's data) whose middle is off the screen, out of
/// the board's scroll box, or under something else (a sticky panel), and
/// where the panel stands beside the board.
fn opening(page: &Page) -> Value {
    page.js(
        r#"(function () {
            var D = JSON.parse(document.getElementById('herald-data').textContent);
            var svg = document.querySelector('#board svg');
            var sc = document.getElementById('hc-scroll').getBoundingClientRect();
            var hidden = [];
            (D.mine || []).forEach(function (c) {
                var n = Array.prototype.find.call(svg.querySelectorAll('[data-hex]'), function (e) {
                    return e.getAttribute('data-hex') === c && !e.closest('.piece');
                });
                if (!n) { hidden.push(c + ' (not drawn)'); return; }
                var b = n.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
                var top = document.elementFromPoint(x, y);
                var ok = x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight
                    && x >= sc.left - 1 && x <= sc.right + 1 && y >= sc.top - 1 && y <= sc.bottom + 1
                    && top && svg.contains(top);
                if (!ok) hidden.push(c);
            });
            var side = document.querySelector('#composer .side').getBoundingClientRect();
            var zin = document.getElementById('hc-zoom-in').getBoundingClientRect();
            return {
                mine: (D.mine || []).length, hidden: hidden,
                side_left: side.left, side_top: side.top + scrollY,
                board_right: sc.right, board_bottom: sc.bottom + scrollY,
                board_height: sc.height, screen_height: innerHeight,
                zoom_shown: zin.width > 0 && zin.height > 0,
                svg_width: svg.getBoundingClientRect().width,
                legend: document.querySelectorAll('#hc-legend .legend-list li').length > 0,
                pick_top: document.getElementById('hc-pick').getBoundingClientRect().top + scrollY
            };
        })()"#,
    )
}

/// Every game's page, mid-game, for every player (orders due or not),
/// at a phone's and a desktop's width, and a finished game's: it opens
/// with the player's pieces in view and nothing over them; on a desktop
/// the panel stands beside the board, on a phone under it, no farther
/// than the board's own box; the legend sits in its own box; the zoom
/// buttons are there and zoom in every phase.
#[test]
fn pages_open_on_the_players_pieces() {
    let b = browser();
    let games: [(&str, &[&str], Vec<String>, usize); 5] = [
        (
            "norse-wars",
            &["red", "blue", "green"],
            vec!["fog=true".into()],
            4,
        ),
        ("hexwar", &["white", "black"], vec![], 4),
        ("stack-wars", &["black", "white"], vec!["size=7".into()], 6),
        ("unfought-battle", &["north", "south"], vec![], 3),
        ("war-of-the-dukes", &["orfburg", "wulfenburg"], vec![], 3),
    ];
    let check = |g: &EngineGame, name: &str, seats: usize, over: bool| {
        for seat in 0..seats {
            let html = crate::common::report(&g.loaded, seat, "html");
            for (w, h) in [(375, 812), (1280, 900)] {
                let ctx = format!(
                    "{name} {} seat {seat} at {w} px",
                    if over { "over" } else { "mid-game" }
                );
                let path = g.dir.join(format!("open-{seat}-{w}.html"));
                let page = Page::open_at(&b, &path, &html, Some((w, h)));
                let v = opening(&page);
                assert!(
                    v["mine"].as_u64().unwrap() > 0 || over,
                    "{ctx}: no pieces: {v}"
                );
                // a board that reads whole on the screen shows every piece;
                // a map that opens zoomed to read (War of the Dukes) shows
                // the part holding the most of them, several at least
                let mine = v["mine"].as_u64().unwrap() as usize;
                let hidden = v["hidden"].as_array().unwrap().len();
                if v["svg_width"].as_f64().unwrap() <= v["board_right"].as_f64().unwrap() + 1.0 {
                    assert_eq!(hidden, 0, "{ctx}: out of view: {v}");
                } else {
                    assert!(
                        mine == 0 || mine - hidden >= mine.min(3),
                        "{ctx}: too few of the player's pieces in view: {v}"
                    );
                }
                assert!(v["zoom_shown"] == true, "{ctx}: no zoom buttons: {v}");
                assert!(
                    v["legend"] == true,
                    "{ctx}: the legend is not in its box: {v}"
                );
                let f = |k: &str| v[k].as_f64().unwrap();
                if w >= 900 {
                    assert!(
                        f("side_left") >= f("board_right"),
                        "{ctx}: the panel is not beside the board: {v}"
                    );
                    assert!(
                        f("board_height") <= f("screen_height"),
                        "{ctx}: the board is taller than the screen: {v}"
                    );
                } else {
                    assert!(
                        f("side_top") >= f("board_bottom") - 1.0,
                        "{ctx}: the panel is over the board: {v}"
                    );
                    assert!(
                        f("pick_top") - f("board_bottom") < 120.0,
                        "{ctx}: the panel is far below the board: {v}"
                    );
                }
                // zoom works, orders due or not
                let before = f("svg_width");
                page.click("#hc-zoom-in");
                let after = opening(&page)["svg_width"].as_f64().unwrap();
                assert!(after > before * 1.2, "{ctx}: zoom in: {before} → {after}");
                if bless() && name == "hexwar" && seat == 0 && !over {
                    // HEXWAR in its middle, a piece of the player's
                    // selected: docs/screenshots/hexwar-{phone,desktop}.png
                    page.click("#hc-zoom-fit");
                    select_free(&page);
                    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
                    let (file, full) = if w < 900 {
                        ("hexwar-phone.png", true)
                    } else {
                        ("hexwar-desktop.png", false)
                    };
                    page.screenshot(&docs.join(file), w, h, full);
                }
                page.tab.close(false).unwrap();
            }
        }
    };
    for (name, players, opts, turns) in games {
        let mut g = EngineGame::new(name, players, "open", opts, &format!("open-{name}"));
        let mut rng = herald::rng::from_u64(7);
        for _ in 0..turns {
            g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
        }
        assert!(!g.over(), "{name}: over after {turns} turns");
        check(&g, name, players.len(), false);
    }
    // a finished game
    let mut g = EngineGame::new(
        "stack-wars",
        &["black", "white"],
        "open-over",
        vec!["size=5".into()],
        "open-over",
    );
    let mut rng = herald::rng::from_u64(9);
    for _ in 0..2000 {
        if g.over() {
            break;
        }
        g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
    }
    assert!(g.over(), "stack-wars: not over");
    check(&g, "stack-wars", 2, true);
}

/// The traps players fell into are gone: a tap on one's own piece beside
/// the selected one selects it (HEXWAR: the Ghast beside the Nightmare,
/// which took "rotate … toward it" before), and the page names the order
/// the tap could also mean; Stack Wars' empty board says what to do, the
/// reserve is on the first screen of a phone, and a tap on one's own
/// baseline points to it; The Unfought Battle warns when a force moves
/// into the hex of one that stays.
#[test]
// Long: one scenario per trap, each check beside the step it checks.
fn composer_traps_are_gone() {
    let b = browser();
    // HEXWAR
    let g = EngineGame::new(
        "hexwar",
        &["white", "black"],
        "traps",
        vec![],
        "traps-hexwar",
    );
    let html = crate::common::report(&g.loaded, 0, "html");
    let page = Page::open(&b, &g.dir.join("hexwar.html"), &html);
    let d = page.data["orders"].clone();
    let at: BTreeMap<String, String> = d["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?.to_string(), p["at"].as_str()?.to_string())))
        .collect();
    let opts = options(&d);
    let label = |id: &str| {
        d["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()["label"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (o, other) = opts
        .iter()
        .find_map(|o| {
            // an order from where the piece stands (not after a move)
            let p = o.piece.as_ref().filter(|_| o.from.is_none())?;
            let to = o.to.as_ref()?;
            let other = at.iter().find(|(id, c)| *c == to && *id != p)?.0.clone();
            opts.iter()
                .any(|x| x.piece.as_ref() == Some(&other))
                .then(|| (o.clone(), other))
        })
        .expect("hexwar: an order of one piece toward another's hex");
    page.click_cell(&at[o.piece.as_ref().unwrap()]);
    page.click_cell(&at[&other]);
    let head = page.js("document.getElementById('hc-pick-head').textContent");
    assert!(
        head.as_str().unwrap().starts_with(&label(&other)),
        "hexwar: the tap on {other} did not select it: {head}"
    );
    assert!(
        page.orders().is_empty(),
        "hexwar: an order was added: {:?}",
        page.orders()
    );
    // the order the tap could also mean is offered as a button, and the
    // message names no order as in the list
    assert!(
        page.has(&format!(r#"#hc-options [data-order="{}"]"#, o.text))
            && !page.message().contains("in the list"),
        "hexwar: the page does not offer `{}` as a button: {}",
        o.text,
        page.message()
    );
    assert!(
        page.look(&o.text).offered,
        "hexwar: `{}` is not offered",
        o.text
    );
    page.tab.close(false).unwrap();

    // Stack Wars, turn 0, on a phone
    let g = EngineGame::new(
        "stack-wars",
        &["black", "white"],
        "traps",
        vec!["size=7".into()],
        "traps-stack",
    );
    let html = crate::common::report(&g.loaded, 0, "html");
    let page = Page::open_at(&b, &g.dir.join("stack.html"), &html, Some((375, 812)));
    let v = page.js(
        "(function () {
            var r = document.querySelector('#hc-tray [data-piece=reserve]').getBoundingClientRect();
            return {head: document.getElementById('hc-pick-head').textContent, bottom: r.bottom, h: innerHeight, y: scrollY,
                    hl: document.querySelectorAll('#board svg .plan .hl').length};
        })()",
    );
    assert!(
        v["head"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("place an army from your reserve: tap a square of your baseline"),
        "stack-wars: {v}"
    );
    assert!(
        v["y"] == 0 && v["bottom"].as_f64().unwrap() <= v["h"].as_f64().unwrap(),
        "stack-wars: the reserve is below the fold: {v}"
    );
    assert!(
        v["hl"].as_u64().unwrap() > 0,
        "stack-wars: the baseline is not highlighted: {v}"
    );
    let fortify = options(&page.data["orders"])
        .into_iter()
        .find(|o| o.text.starts_with("fortify "))
        .unwrap();
    let cell = fortify.to.clone().unwrap();
    // with nothing selected, a tap on the baseline points to the reserve
    page.click("#hc-options button.act");
    page.click_cell(&cell);
    let msg = page.message();
    assert!(
        msg.contains("reserve") && msg.contains(&fortify.text),
        "stack-wars: {msg}"
    );
    page.click_cell(&cell);
    assert_eq!(
        page.orders(),
        vec![fortify.text.clone()],
        "stack-wars: {}",
        page.message()
    );
    page.tab.close(false).unwrap();

    // The Unfought Battle: a move into the hex of a force that stays
    let mut g = EngineGame::new(
        "unfought-battle",
        &["north", "south"],
        "traps",
        vec![],
        "traps-unfought",
    );
    let mut rng = herald::rng::from_u64(4);
    g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
    let html = crate::common::report(&g.loaded, 0, "html");
    let page = Page::open(&b, &g.dir.join("unfought.html"), &html);
    let d = page.data["orders"].clone();
    let choices = d["choices"].as_array().unwrap().clone();
    let stands = |cell: &str| {
        d["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["at"] == cell)
            .and_then(|p| p["id"].as_str())
            .map(str::to_string)
    };
    // a move into the hex of a force that has a move of its own elsewhere
    let (mv, stays, away) = choices
        .iter()
        .filter(|c| c["wants"].as_array().is_some_and(|w| !w.is_empty()))
        .find_map(|c| {
            let stays = stands(c["to"].as_str()?)?;
            let away = choices.iter().find(|x| {
                x["piece"] == stays.as_str()
                    && x["moves"] == true
                    && x["wants"].as_array().is_none_or(|w| w.is_empty())
            })?;
            Some((
                c["text"].as_str()?.to_string(),
                stays,
                away["text"].as_str()?.to_string(),
            ))
        })
        .expect("unfought-battle: a move into the hex of a force that can move away");
    let fortify = format!("{stays} fortify");
    page.compose(&[fortify.clone(), mv.clone()]);
    let warned = |page: &Page| {
        page.js(&format!(
            "(function () {{ var w = document.querySelector('#hc-list [data-warn=\"{mv}\"]'); return w ? w.textContent : null; }})()"
        ))
    };
    let w = warned(&page);
    assert!(
        w.as_str().is_some_and(|w| w.contains("bounces")),
        "unfought-battle: no warning on `{mv}`: {w}"
    );
    // the force that stays moves away: no warning
    page.click(&format!(r#"#hc-list [data-remove="{fortify}"]"#));
    assert!(
        warned(&page).is_string(),
        "unfought-battle: {stays} holds without an order, and `{mv}` is not warned"
    );
    page.compose(std::slice::from_ref(&away));
    assert_eq!(
        warned(&page),
        Value::Null,
        "unfought-battle: warned after {} moved away",
        stays
    );
    page.tab.close(false).unwrap();
}
