//! The replay site (`herald site`, issue 34) in a real browser: for each
//! game a whole demo game is built into a site, the index checks the game
//! file in the page, the replay is walked through from the start to the
//! end and back (keys, buttons, the slider, a link per phase), every
//! board drawn is the one the game drew, and no request leaves the site's
//! folder. A one-byte edit of the game file in the site is named by the
//! page. A running game with fog gives a site that shows each player no
//! more than their reports, and the public nothing hidden; the same game
//! gives the same bytes.
//!
//! Needs /usr/bin/chromium, as the composer tests do.

use crate::browser::{Browser, Tab};
use crate::common::{herald, scratch, EngineGame};
use crate::composer::browser;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const NOW: &str = "2026-11-24T10:00:00+00:00";

/// A tab with every request it makes recorded.
struct Tab2 {
    tab: Arc<Tab>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Tab2 {
    fn new(browser: &Browser) -> Tab2 {
        let tab = browser.new_tab().unwrap();
        tab.set_default_timeout(Duration::from_secs(60));
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
        Tab2 { tab, requests }
    }

    fn open(&self, url: &str, ready: &str) {
        self.tab
            .navigate_to(url)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        self.tab.wait_for_element(ready).unwrap();
    }

    fn js(&self, expr: &str) -> Value {
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

    /// A real key press, as Chromium gets it from a keyboard.
    fn key(&self, key: &str, code: u32) {
        self.tab.press_key(key, key, code).unwrap();
    }

    /// A real click at the middle of what `selector` finds.
    fn click(&self, selector: &str) {
        let at = self.js(&format!(
            r#"(function (s) {{ var n = document.querySelector(s); n.scrollIntoView({{block: 'center'}});
                var b = n.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; }})({})"#,
            serde_json::to_string(selector).unwrap()
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        self.tab.click_point(x, y).unwrap();
    }

    fn name(&self) -> String {
        self.js("document.getElementById('name').textContent")
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Every request went to a file of the site's folder.
    fn assert_no_network(&self, site: &Path) {
        let root = format!("file://{}/", site.display());
        for r in self.requests.lock().unwrap().iter() {
            assert!(
                r.starts_with(&root) || r.starts_with("blob:") || r.starts_with("data:"),
                "the site made a request outside its folder: {r}"
            );
        }
    }
}

/// A whole demo game of `game` (`herald demo`), its folder.
fn demo(game: &str, tag: &str) -> PathBuf {
    let dir = scratch(tag);
    let out = dir.join("demo");
    let (code, _, err) = herald(&["demo", game, "--out", out.to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 0, "{err}");
    out.join("game")
}

fn site(game: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "site",
        game.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, text, err) = herald(&args);
    assert_eq!(code, 0, "herald site: {err}");
    text
}

/// Every file of a site folder, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The frames a site carries, read from its frames.js.
fn frames(dir: &Path) -> Value {
    let js = std::fs::read_to_string(dir.join("frames.js")).unwrap();
    let start = js.find("herald_site(").unwrap() + "herald_site(".len();
    let end = js.rfind(");").unwrap();
    serde_json::from_str(&js[start..end]).unwrap()
}

/// The site's frames as the library works them out (the boards included).
fn expected(game: &Path, who: Option<&str>) -> Vec<herald::site::Frame> {
    let (store, g) = herald::pipeline::open(game).unwrap();
    let seed = g
        .head()
        .seed
        .clone()
        .unwrap_or_else(|| store.secrets().unwrap().seed);
    let who = match who {
        Some(p) => herald::site::Who::Player(g.seat_of(p).unwrap()),
        None if g.head().outcome.is_some() => herald::site::Who::Everything,
        None => herald::site::Who::Public,
    };
    herald::site::frames(&g, &seed, who).unwrap()
}

fn frame_name(f: &herald::site::Frame) -> String {
    herald::site::page::frame_name(f)
}

/// Walk the replay from the start to the end and back: real keys and
/// buttons at both ends, the keyboard handler for the long middle (one
/// call to the page per step would take minutes), checking each frame's
/// name and that its board is the one the game drew.
fn walk(t: &Tab2, want: &[herald::site::Frame]) {
    let n = want.len();
    assert!(n > 2, "a whole game has phases");
    t.key("Home", 36);
    assert_eq!(t.name(), frame_name(&want[0]));
    // the boards as the page put them together, against the game's own
    let boards =
        t.js("SITE.frames.map(function (f) { return f.board === null ? null : board(f.board); })");
    for (k, f) in want.iter().enumerate() {
        assert_eq!(
            boards[k].as_str(),
            f.board.as_deref(),
            "frame {k}: the board the page puts together is not the one drawn"
        );
    }
    t.key("ArrowRight", 39);
    assert_eq!(t.name(), frame_name(&want[1]));
    t.click("#next");
    assert_eq!(t.name(), frame_name(&want[2]));
    t.click("#prev");
    assert_eq!(t.name(), frame_name(&want[1]));
    // forwards to the end and back to the start, one key at a time
    let seen = t.js(
        r#"(function () {
            var out = [], fwd = [], back = [];
            function press(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
            function look() {
                var b = document.querySelector('#board svg');
                return [document.getElementById('name').textContent,
                        b ? b.querySelectorAll('.piece').length : -1, location.hash];
            }
            press('Home');
            fwd.push(look());
            for (var i = 1; i < SITE.frames.length + 2; i++) { press('ArrowRight'); fwd.push(look()); }
            for (var i = 0; i < SITE.frames.length + 2; i++) { back.push(look()); press('ArrowLeft'); }
            back.push(look());
            return [fwd, back];
        })()"#,
    );
    let fwd = seen[0].as_array().unwrap();
    let back = seen[1].as_array().unwrap();
    for (k, f) in want.iter().enumerate() {
        let pieces = f
            .board
            .as_ref()
            .map_or(-1, |b| b.matches(r#"class="piece""#).count() as i64);
        assert_eq!(fwd[k][0], frame_name(f).as_str(), "forwards, frame {k}");
        assert_eq!(fwd[k][1], pieces, "forwards, frame {k}: pieces drawn");
        assert_eq!(
            back[n - 1 - k][0],
            frame_name(f).as_str(),
            "back, frame {k}"
        );
        assert_eq!(back[n - 1 - k][1], pieces, "back, frame {k}");
    }
    // past the end stays at the end, before the start at the start
    assert_eq!(fwd[n + 1][0], frame_name(&want[n - 1]).as_str());
    assert_eq!(back[n + 2][0], frame_name(&want[0]).as_str());
    // the slider, and the real End key
    t.js("(function () { var s = document.getElementById('slider'); s.value = '2'; s.dispatchEvent(new Event('input')); return 0; })()");
    assert_eq!(t.name(), frame_name(&want[2]));
    t.key("End", 35);
    assert_eq!(t.name(), frame_name(&want[n - 1]));
    t.click("#first");
    assert_eq!(t.name(), frame_name(&want[0]));
    history(t, want);
}

/// Stepping fast through the whole game writes the page's history once,
/// when stepping settles (Chromium throttles a page that writes it
/// hundreds of times in a row), and Back returns to the phase read
/// before.
fn history(t: &Tab2, want: &[herald::site::Frame]) {
    let n = want.len();
    std::thread::sleep(Duration::from_millis(600));
    let counted = t.js(
        r#"(function () {
            window.__writes = 0;
            ['pushState', 'replaceState'].forEach(function (k) {
                var f = history[k].bind(history);
                history[k] = function (a, b, c) { window.__writes++; return f(a, b, c); };
            });
            function press(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
            press('Home');
            for (var i = 0; i < SITE.frames.length; i++) press('ArrowRight');
            return window.__writes;
        })()"#,
    );
    assert_eq!(counted, 0, "stepping wrote the history at once");
    std::thread::sleep(Duration::from_millis(800));
    let after =
        t.js("[window.__writes, location.hash, document.getElementById('name').textContent]");
    let last = &want[n - 1];
    assert_eq!(
        after[0], 1,
        "{n} steps: one history entry once settled: {after}"
    );
    assert_eq!(
        after[1],
        format!("#{}", herald::site::page::anchor(last)).as_str()
    );
    t.key("ArrowLeft", 37);
    t.key("ArrowLeft", 37);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(t.name(), frame_name(&want[n - 3]));
    t.js("history.back()");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(t.name(), frame_name(last), "Back: the phase read before");
}

/// The replay page at a phone's and a desktop's screen, as it opens on a
/// phase and in each of its views (issue 49): the whole board's box on
/// the screen, its words at 11 px, every button 44 px, every turn it
/// says the phase's, times as people read them, no command where a view
/// is wanted. `shots`: where to write what it looks like (HERALD_BLESS).
fn measure_replay(
    browser: &Browser,
    game: &str,
    out: &Path,
    f: &herald::site::Frame,
    shots: Option<&Path>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (w, h) in [(375u32, 812u32), (1280, 900)] {
        let t = Tab2::new(browser);
        crate::composer::metrics(&t.tab, w, h);
        t.open(
            &format!(
                "file://{}/replay.html?{w}#{}",
                out.display(),
                herald::site::page::anchor(f)
            ),
            "#board",
        );
        std::thread::sleep(Duration::from_millis(300));
        let ctx = format!("{game} replay at {w}");
        assert_eq!(t.name(), frame_name(f), "{ctx}");
        let lenses = t.js(
            "Array.prototype.map.call(document.querySelectorAll('#lens-pick option'), function (o) { return o.value; })",
        );
        let lenses: Vec<String> = lenses
            .as_array()
            .map(|l| l.iter().map(|x| x.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        assert_eq!(
            lenses.len(),
            f.views.len() + 1,
            "{ctx}: the site's own view and each of the phase's others: {lenses:?}"
        );
        for lens in &lenses {
            if !lens.is_empty() {
                t.js(&format!(
                    "(function () {{ var p = document.getElementById('lens-pick'); p.value = {}; p.dispatchEvent(new Event('change')); window.scrollTo(0, 0); return 0; }})()",
                    serde_json::to_string(lens).unwrap()
                ));
            }
            let ctx = format!("{ctx}, view {lens:?}");
            let has_board = t.js("!!document.querySelector('#board svg')");
            let v = t.js(crate::pages::MEASURE);
            eprintln!("{ctx}: {}", crate::pages::figures(&v));
            let words = t.js("document.getElementById('frame').textContent");
            let words = words.as_str().unwrap_or("");
            if words.contains("herald report GAME") {
                problems.push(format!("{ctx}: the page shows a command for a view"));
            }
            if words.contains("+00:00") || words.contains(":00Z") {
                problems.push(format!("{ctx}: a raw RFC 3339 time"));
            }
            if has_board != true {
                // a view with no board (the public one of a game that hid
                // things) says why
                if !words.contains("no board was shown to everyone") {
                    problems.push(format!("{ctx}: no board and no word why"));
                }
                continue;
            }
            problems.extend(
                crate::pages::shortfalls(&v, Some(f.turn as u64), true)
                    .into_iter()
                    .map(|p| format!("{ctx}: {p}")),
            );
            if let (Some(dir), true) = (shots, lens.is_empty()) {
                let png = t.tab.screenshot(None).unwrap();
                std::fs::write(dir.join(format!("site-{game}-{w}.png")), png).unwrap();
            }
        }
        // 'fit' shows the whole board inside the window
        t.js("(function () { document.getElementById('lens-pick').value = ''; document.getElementById('lens-pick').dispatchEvent(new Event('change')); window.scrollTo(0, 0); return 0; })()");
        t.click("#zoom-fit");
        let whole = t.js(
            "(function () { window.scrollTo(0, 0); var s = document.querySelector('#board svg').getBoundingClientRect(); return [s.left >= -0.5 && s.top >= -0.5 && s.right <= innerWidth + 0.5 && s.bottom <= innerHeight + 0.5, s.left, s.top, s.right, s.bottom]; })()",
        );
        if whole[0] != true {
            problems.push(format!(
                "{ctx}: 'fit' does not show the whole board in the window: {whole}"
            ));
        }
        t.assert_no_network(out);
        let _ = t.tab.close(true);
    }
    problems
}

/// Flip one byte of phase entry `k`'s body in game.js (a digit of its
/// `resolved_at`), as a careless or dishonest edit would.
fn tamper(site: &Path, k: usize) {
    let p = site.join("game.js");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    // line 0 is a comment, 1 `herald_game([`, 2 the head, 3 entry 0, …
    let line = &mut lines[3 + k];
    let at = line.find("\"resolved_at\":\"").expect("a phase entry") + 15;
    let mut bytes = line.clone().into_bytes();
    let i = (at..bytes.len())
        .find(|&i| bytes[i].is_ascii_digit())
        .unwrap();
    bytes[i] = if bytes[i] == b'1' { b'2' } else { b'1' };
    *line = String::from_utf8(bytes).unwrap();
    std::fs::write(&p, lines.join("\n")).unwrap();
}

fn verdict(t: &Tab2) -> (String, Vec<String>) {
    t.tab.wait_for_element("body[data-verdict]").unwrap();
    let v = t.js("[document.getElementById('verdict').textContent, Array.prototype.map.call(document.querySelectorAll('#findings li'), function (l) { return l.textContent; })]");
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect(),
    )
}

fn bless() -> bool {
    std::env::var_os("HERALD_BLESS").is_some_and(|v| v == "1")
}

/// The least room, in px, between the words of an item of the index's
/// phases and an item of the next column beside it (1e9 in one column).
const PHASE_GAP: &str = "(function () { var b = Array.prototype.map.call(document.querySelectorAll('ol.phases li'), function (li) { var r = document.createRange(); r.selectNodeContents(li); var c = r.getBoundingClientRect(); return { l: li.getBoundingClientRect().left, t: c.top, b: c.bottom, r: c.right }; }), m = 1e9; b.forEach(function (x) { b.forEach(function (y) { if (y.l > x.l + 1 && y.t < x.b && x.t < y.b) m = Math.min(m, y.l - x.r); }); }); return m; })()";

fn one_game(browser: &Browser, game: &str) {
    let folder = demo(game, &format!("site-{game}"));
    let out = folder.parent().unwrap().join("site");
    let said = site(&folder, &out, &[]);
    assert!(said.contains("the omniscient view"), "{said}");
    // the same game gives the same bytes
    let again = folder.parent().unwrap().join("site-again");
    site(&folder, &again, &[]);
    assert_eq!(files(&out), files(&again), "{game}: a second build differs");
    // and a site rebuilt in place is the same too
    site(&folder, &out, &[]);
    assert_eq!(
        files(&out),
        files(&again),
        "{game}: a rebuild in place differs"
    );
    let want = expected(&folder, None);
    let head = crate::common::head(&folder.join("game.jsonl"));
    let chain_head = head["log"]["head"].as_str().unwrap().to_string();
    let key = head["key"].as_str().unwrap().to_string();

    let t = Tab2::new(browser);
    t.open(&format!("file://{}/index.html", out.display()), "body");
    let (v, found) = verdict(&t);
    assert!(
        v.starts_with(&format!("verified: chain head {chain_head}, key {key}")),
        "{game}: {v} {found:?}"
    );
    assert!(found.is_empty());
    // the phases' columns at 1280 and 375 px: each column's words end
    // 2.5rem (a three-digit number's room) before the next column's
    // items begin, so no number stands on a time (issue 54)
    for (w, h) in [(1280, 900), (375, 800)] {
        t.tab.set_metrics(w, h).unwrap();
        let gap = t.js(PHASE_GAP);
        assert!(
            gap.as_f64().is_some_and(|g| g >= 40.0),
            "{game}: at {w} px the phases' columns are {gap} px apart"
        );
    }
    // a link per phase, followed as a reader would
    let links = t.js("document.querySelectorAll('ol.phases a').length");
    assert_eq!(links, want.len() as i64, "{game}: a link per phase");
    let k = want.len() / 2;
    t.click(&format!(
        "ol.phases a[href='replay.html#{}']",
        herald::site::page::anchor(&want[k])
    ));
    t.tab.wait_for_element("#board").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    t.tab.wait_for_element("#name").unwrap();
    assert_eq!(t.name(), frame_name(&want[k]), "{game}: the phase's link");
    walk(&t, &want);
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    let problems = measure_replay(
        browser,
        game,
        &out,
        &want[k],
        bless().then_some(shots.as_path()),
    );
    assert!(
        problems.is_empty(),
        "{game}: {} shortfalls:\n{}",
        problems.len(),
        problems.join("\n")
    );
    t.assert_no_network(&out);

    // one byte of one entry changed: the page names the entry
    let entry = want[want.len() / 2].entry;
    tamper(&out, entry);
    t.open(&format!("file://{}/index.html", out.display()), "body");
    let (v, found) = verdict(&t);
    assert!(v.starts_with("NOT verified: "), "{game}: {v}");
    assert!(
        found[0].starts_with(&format!("entry {entry} ")),
        "{game}: the first finding names entry {entry}: {found:?}"
    );
    assert!(
        found[0].contains("its contents do not give its hash"),
        "{found:?}"
    );
    t.assert_no_network(&out);
    let _ = t.tab.close(true);
    let _ = std::fs::remove_dir_all(folder.parent().unwrap());
}

// A site replays each game and checks it in the browser: one test a
// game, so the five run side by side (together they were the suite's
// longest test, 80 s on an idle machine, and it finished last).
#[test]
fn a_site_replays_hexwar_and_checks_it_in_the_browser() {
    one_game(&browser(), "hexwar");
}

#[test]
fn a_site_replays_norse_wars_and_checks_it_in_the_browser() {
    one_game(&browser(), "norse-wars");
}

#[test]
fn a_site_replays_the_unfought_battle_and_checks_it_in_the_browser() {
    one_game(&browser(), "unfought-battle");
}

#[test]
fn a_site_replays_war_of_the_dukes_and_checks_it_in_the_browser() {
    one_game(&browser(), "war-of-the-dukes");
}

#[test]
fn a_site_replays_stack_wars_and_checks_it_in_the_browser() {
    one_game(&browser(), "stack-wars");
}

/// The head record edited: the seal is named; a game file re-signed with
/// another key is told from the key the site names.
#[test]
fn the_checker_names_an_edited_head() {
    let b = browser();
    let folder = demo("hexwar", "site-head");
    let out = folder.parent().unwrap().join("site");
    site(&folder, &out, &[]);
    let p = out.join("game.js");
    let text = std::fs::read_to_string(&p).unwrap();
    let edited = text.replacen("\"turn\":", "\"turn\":1", 1);
    assert_ne!(edited, text);
    std::fs::write(&p, edited).unwrap();
    let t = Tab2::new(&b);
    t.open(&format!("file://{}/index.html", out.display()), "body");
    let (v, found) = verdict(&t);
    assert!(v.starts_with("NOT verified: "), "{v}");
    assert!(
        found.iter().any(|f| f.contains("the head record (line 1)")),
        "{found:?}"
    );
    t.assert_no_network(&out);
    let _ = std::fs::remove_dir_all(folder.parent().unwrap());
}

/// What a fogged Norse Wars player may not see at a state: the pieces on
/// hexes out of their side's sight.
fn hidden_pieces(
    st: &herald::games::norse_wars::state::State,
    seat: usize,
    names: &[&str],
) -> Vec<(String, String)> {
    let rules = herald::games::norse_wars::ruleset::Ruleset::parse(
        herald::games::find("norse-wars").unwrap().ruleset,
    )
    .unwrap();
    let sees = herald::games::norse_wars::view::vision(&rules, st, seat);
    let g = st.grid_radius;
    let side = (2 * g + 1) as usize;
    let labels = st.labels();
    st.pieces
        .iter()
        .filter_map(|p| {
            let h = p.at?;
            let i = ((h.q + g) as usize) * side + (h.r + g) as usize;
            (!sees[i]).then(|| {
                let name = if p.is_jarl() {
                    format!("{} Jarl", names[p.seat as usize])
                } else {
                    format!("{} {}", names[p.seat as usize], p.name())
                };
                (name, labels.label(h))
            })
        })
        .collect()
}

/// A running Norse Wars game with fog: a site for each player shows only
/// what that player's reports show, and the public site no hidden board;
/// neither carries the game file, the seed or a password hash.
#[test]
fn a_site_of_a_running_fog_game_leaks_nothing() {
    use herald::games::norse_wars::state::State;
    let names = ["red", "blue", "green"];
    let mut game = EngineGame::new(
        "norse-wars",
        &names,
        "fog-site-seed-7",
        vec!["fog=true".into()],
        "site-fog",
    );
    let mut bot = herald::rng::from_u64(5);
    let mut states: Vec<State> = vec![game.loaded.state.downcast_ref::<State>().unwrap().clone()];
    for _ in 0..40 {
        if game.over() {
            break;
        }
        game.turn(|loaded, seat| {
            let legal = loaded.rules.legal_orders(&loaded.state, seat);
            herald::rng::pick(&mut bot, &legal).unwrap().clone()
        });
        states.push(game.loaded.state.downcast_ref::<State>().unwrap().clone());
    }
    assert!(!game.over(), "the game is still running");
    let folder = game.save();
    let base = folder.parent().unwrap().to_path_buf();
    let log = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
    let mut hid = 0;
    for (seat, p) in names.iter().enumerate() {
        let out = base.join(format!("site-{p}"));
        site(&folder, &out, &["--player", p]);
        let all = files(&out);
        assert!(
            all.iter().all(|(n, _)| n != "game.js"),
            "a running game's site carries no game file"
        );
        let fr = frames(&out);
        let list = fr["frames"].as_array().unwrap();
        assert_eq!(list.len(), states.len());
        for (k, f) in list.iter().enumerate() {
            // the board drawn from the lines the site shares
            let board: String = f["board"]
                .as_str()
                .unwrap()
                .split(',')
                .flat_map(|r| {
                    let (a, b) = r.split_once('-').unwrap_or((r, r));
                    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
                    (a..=b).map(|i| fr["lines"][i].as_str().unwrap().to_string())
                })
                .collect::<Vec<_>>()
                .join("\n");
            let text = f.to_string();
            for (name, hex) in hidden_pieces(&states[k], seat, &names) {
                hid += 1;
                let drawn = format!(r#"class="piece" data-hex="{hex}""#);
                assert!(
                    !board.contains(&drawn),
                    "{p}, frame {k}: draws hidden {name} on {hex}"
                );
                assert!(!text.contains(&name), "{p}, frame {k}: names hidden {name}");
            }
            for o in f["orders"].as_array().unwrap() {
                if o["player"] != *p {
                    assert!(o["lines"].is_null(), "{p}, frame {k}: shows {o}");
                }
            }
        }
        for (name, bytes) in &all {
            let s = String::from_utf8_lossy(bytes);
            assert!(
                !s.contains("$argon2id"),
                "{p}: {name} holds a password hash"
            );
            assert!(!s.contains(&game.seed), "{p}: {name} holds the seed");
            assert!(!s.contains("state_sha256"), "{p}: {name} holds log entries");
            assert!(!s.contains(&log[..200]), "{p}: {name} holds the game file");
        }
    }
    assert!(hid > 0, "the scan saw fog at work");
    // the views a finished game's replay offers beside the whole truth
    // (issue 49), worked out for this fogged game as they would be at
    // its end: each player's is scanned for the same fog, the public one
    // draws no board
    let all =
        herald::site::frames(&game.loaded, &game.seed, herald::site::Who::Everything).unwrap();
    assert_eq!(all.len(), states.len());
    let mut lens_hid = 0;
    for (k, f) in all.iter().enumerate() {
        assert_eq!(f.views.len(), names.len() + 1, "frame {k}");
        assert_eq!(f.views[0].reader, "public");
        assert!(
            f.views[0].board.is_none(),
            "frame {k}: a fogged board is public"
        );
        for (seat, p) in names.iter().enumerate() {
            let v = &f.views[seat + 1];
            assert_eq!(v.reader, *p);
            let board = v.board.as_ref().unwrap();
            let text = format!("{board}{:?}", v.events);
            for (name, hex) in hidden_pieces(&states[k], seat, &names) {
                lens_hid += 1;
                let drawn = format!(r#"class="piece" data-hex="{hex}""#);
                assert!(
                    !board.contains(&drawn),
                    "{p}'s report view, frame {k}: draws hidden {name} on {hex}"
                );
                assert!(
                    !text.contains(&name),
                    "{p}'s report view, frame {k}: names hidden {name}"
                );
            }
        }
    }
    assert!(lens_hid > 0, "the views' scan saw fog at work");
    // the public view: no board where something is hidden, no orders
    let out = base.join("site-public");
    let said = site(&folder, &out, &[]);
    assert!(said.contains("the public view"), "{said}");
    let fr = frames(&out);
    for f in fr["frames"].as_array().unwrap() {
        assert!(f["board"].is_null(), "a fogged board is public: {f}");
        assert!(f["events"].as_array().unwrap().is_empty());
        for o in f["orders"].as_array().unwrap() {
            assert!(o["lines"].is_null());
        }
    }
    // a reader who is not a player is a usage error
    let (code, _, err) = herald(&[
        "site",
        folder.to_str().unwrap(),
        "--out",
        base.join("x").to_str().unwrap(),
        "--player",
        "nobody",
    ]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&base);
}

/// The states after each entry of a game's log, by replaying it.
fn states<S: Clone + 'static>(game: &Path) -> Vec<Option<S>> {
    let (_, g) = herald::pipeline::open(game).unwrap();
    let seed = g.head().seed.clone().unwrap();
    let mut out = Vec::new();
    herald::pipeline::replay::replay(
        &g.record,
        &g.genesis,
        &seed,
        g.record.entries.len(),
        |at, _| {
            out.push(at.state.downcast_ref::<S>().cloned());
            Ok(())
        },
    )
    .unwrap()
    .unwrap();
    out
}

/// The Unfought Battle hides powers and the enemy out of sight: each
/// player's site draws only the enemy forces in their sight, never with an
/// unknown power, and tells only their own events; the omniscient view of
/// the finished game draws every living force of both sides.
#[test]
fn unfought_battle_sites_show_each_reader_their_own() {
    use herald::games::unfought_battle::state::State;
    let folder = demo("unfought-battle", "site-ub");
    let base = folder.parent().unwrap().to_path_buf();
    let st = states::<State>(&folder);
    let rules = herald::games::unfought_battle::ruleset::Ruleset::parse(
        herald::games::find("unfought-battle").unwrap().ruleset,
    )
    .unwrap();
    let mut hidden = 0;
    for (seat, p) in ["north", "south"].iter().enumerate() {
        let out = base.join(format!("site-{p}"));
        site(&folder, &out, &["--player", p]);
        let want = expected(&folder, Some(p));
        let fr = frames(&out);
        for (k, f) in want.iter().enumerate() {
            let g = &fr["frames"][k];
            assert_eq!(g["events"], serde_json::json!(f.events));
            for o in g["orders"].as_array().unwrap() {
                assert_eq!(o["lines"].is_null(), o["player"] != *p, "{p} frame {k}");
            }
            let s = st[f.entry].as_ref().unwrap();
            if s.phase == herald::games::unfought_battle::state::Phase::Over {
                continue;
            }
            let me = &s.sides[seat];
            let them = &s.sides[1 - seat];
            let board = f.board.as_ref().unwrap();
            for e in them.living() {
                let seen = me
                    .living()
                    .any(|m| m.at.distance(e.at) <= rules.sight.range);
                let at = format!(
                    r#"data-hex="{}" data-owner"#,
                    herald::games::unfought_battle::board::label(e.at)
                );
                let drawn = board.contains(&format!(r#"class="piece"{}"#, &format!(" {at}")));
                if !seen {
                    hidden += 1;
                    assert!(!drawn, "{p}, frame {k}: an enemy out of sight is drawn");
                }
            }
        }
    }
    assert!(hidden > 0, "the scan saw fog at work");
    let everything = expected(&folder, None);
    // the finished game's site offers, for each phase, the public view
    // and each player's report of it: each player's is exactly what their
    // own site shows (scanned for fog above), drawn from the lines the
    // site shares; the public one draws no board of a game that hid things
    let out = base.join("site-all");
    site(&folder, &out, &[]);
    let fr = frames(&out);
    let own: Vec<Vec<herald::site::Frame>> = ["north", "south"]
        .iter()
        .map(|p| expected(&folder, Some(p)))
        .collect();
    let drawn = |ranges: &serde_json::Value| -> Option<String> {
        let r = ranges.as_str()?;
        Some(
            r.split(',')
                .flat_map(|r| {
                    let (a, b) = r.split_once('-').unwrap_or((r, r));
                    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
                    (a..=b).map(|i| fr["lines"][i].as_str().unwrap().to_string())
                })
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    for (k, f) in everything.iter().enumerate() {
        let readers: Vec<&str> = f.views.iter().map(|v| v.reader.as_str()).collect();
        assert_eq!(readers, ["public", "north", "south"], "frame {k}");
        assert!(f.views[0].board.is_none(), "frame {k}: a public board");
        assert!(f.views[0].no_board.is_some());
        for (seat, v) in f.views[1..].iter().enumerate() {
            assert_eq!(v.board, own[seat][k].board, "frame {k}: {}", v.label);
            assert_eq!(v.events, own[seat][k].events, "frame {k}: {}", v.label);
            let site_view = &fr["frames"][k]["views"][seat + 1];
            assert_eq!(
                drawn(&site_view["board"]),
                v.board,
                "frame {k}: {}",
                v.label
            );
            assert_eq!(site_view["events"], serde_json::json!(v.events));
        }
    }
    for f in &everything {
        let s = st[f.entry].as_ref().unwrap();
        let living = s.sides.iter().map(|x| x.living().count()).sum::<usize>();
        let drawn = f
            .board
            .as_ref()
            .unwrap()
            .matches(r#"class="piece""#)
            .count();
        if s.phase != herald::games::unfought_battle::state::Phase::Deploy {
            assert_eq!(drawn, living, "the omniscient view of entry {}", f.entry);
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// `herald site --host DIR`: the gallery lists the finished games and
/// links to their sites; a second run builds nothing again.
#[test]
fn a_host_gallery_lists_finished_games() {
    let dir = scratch("site-gallery");
    for (game, id) in [("hexwar", "demo-h"), ("stack-wars", "demo-sw")] {
        let out = dir.join(format!("d-{id}"));
        let (code, _, err) = herald(&["demo", game, "--out", out.to_str().unwrap(), "--now", NOW]);
        assert_eq!(code, 0, "{err}");
        std::fs::rename(out.join("game"), dir.join(id)).unwrap();
        std::fs::remove_dir_all(&out).unwrap();
    }
    let (code, text, err) = herald(&["site", "--host", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("lists 2 finished games (2 sites built now)"),
        "{text}"
    );
    let index = std::fs::read_to_string(dir.join("gallery/index.html")).unwrap();
    for id in ["demo-h", "demo-sw"] {
        assert!(
            index.contains(&format!("href=\"{id}/index.html\"")),
            "{index}"
        );
        assert!(dir.join("gallery").join(id).join("game.js").is_file());
    }
    let (code, text, _) = herald(&["site", "--host", dir.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(text.contains("(0 sites built now)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A site's boards as its frames.js carries them, put together from the
/// lines the site shares (`None`: no board for this reader).
fn site_boards(dir: &Path) -> Vec<Option<String>> {
    let fr = frames(dir);
    fr["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let b = f["board"].as_str()?;
            Some(
                b.split(',')
                    .flat_map(|r| {
                        let (a, b) = r.split_once('-').unwrap_or((r, r));
                        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
                        (a..=b).map(|i| fr["lines"][i].as_str().unwrap().to_string())
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })
        .collect()
}

/// A board's title and the caption its legend prints, as the page shows
/// them (XML escapes undone).
fn captions(board: &str) -> (String, String) {
    let inner = |board: &str, open: &str, close: &str| {
        let at = board.find(open).unwrap_or_else(|| panic!("no {open}")) + open.len();
        let from = at + board[at..].find('>').unwrap() + 1;
        let to = from + board[from..].find(close).unwrap();
        board[from..to]
            .replace("&apos;", "'")
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    };
    // the caption is set in as many lines as it takes
    let open = r#"<text class="legend-caption""#;
    let caption = board
        .match_indices(open)
        .map(|(at, _)| inner(&board[at..], open, "</text>"))
        .collect::<Vec<_>>()
        .join(" ");
    (inner(board, "<title", "</title>"), caption)
}

/// Every board of a site says whose view it is (issue 34): a finished
/// game's whole truth says so and names no player as its viewer; a
/// player's site says it is what that player saw; a running game's public
/// view says it is the public view, not player one's.
#[test]
fn a_sites_boards_say_whose_view_they_are() {
    for (game, names, noun) in [
        ("war-of-the-dukes", ["orfburg", "wulfenburg"], "map"),
        ("hexwar", ["white", "black"], "board"),
    ] {
        let folder = demo(game, &format!("site-seen-{game}"));
        let base = folder.parent().unwrap().to_path_buf();
        let check = |out: &Path, want: &dyn Fn(&str, &str) -> Option<String>| {
            let boards = site_boards(out);
            let drawn = boards.iter().flatten().count();
            assert!(drawn > 0, "{game}: {} draws a board", out.display());
            for (k, b) in boards.iter().flatten().enumerate() {
                let (title, caption) = captions(b);
                assert!(
                    caption.starts_with(&title),
                    "{game} {k}: {caption} / {title}"
                );
                if let Some(problem) = want(&title, &caption) {
                    panic!("{game}, {}, board {k}: {problem}", out.display());
                }
            }
        };
        // the whole truth of the finished game
        let out = base.join("site");
        site(&folder, &out, &[]);
        check(&out, &|title, caption| {
            let said = format!(": the whole {noun}, everything revealed (the game is over)");
            if !title.ends_with(&said) {
                return Some(format!("the omniscient board's title is {title:?}"));
            }
            // before issue 34: "the map as orfburg (Orfburg) sees it"
            (caption.contains("(you)")
                || caption.contains(" sees it")
                || caption.contains(" saw it"))
            .then(|| format!("the omniscient board names a viewer: {caption:?}"))
        });
        // each player's own
        for p in names {
            let out = base.join(format!("site-{p}"));
            site(&folder, &out, &["--player", p]);
            check(&out, &|title, _| {
                let side = match game {
                    "war-of-the-dukes" => format!("{p} ({}{})", p[..1].to_uppercase(), &p[1..]),
                    _ => p.to_string(),
                };
                (!title.ends_with(&format!(": the {noun} as {side} saw it")))
                    .then(|| format!("{p}'s board is titled {title:?}"))
            });
        }
        let _ = std::fs::remove_dir_all(&base);

        // a running game's public view
        let mut running = EngineGame::new(
            game,
            &names,
            "seen-site-seed",
            vec![],
            &format!("site-seen-running-{game}"),
        );
        let mut bot = herald::rng::from_u64(3);
        for _ in 0..2 {
            running.turn(|loaded, seat| {
                let legal = loaded.rules.legal_orders(&loaded.state, seat);
                herald::rng::pick(&mut bot, &legal).unwrap().clone()
            });
        }
        assert!(!running.over());
        let folder = running.save();
        let out = folder.parent().unwrap().join("site-public");
        site(&folder, &out, &[]);
        check(&out, &|title, caption| {
            if !title.ends_with(&format!(": the public view of the {noun}")) {
                return Some(format!("the public board's title is {title:?}"));
            }
            (caption.contains("(you)")
                || caption.contains(" sees it")
                || caption.contains(" saw it"))
            .then(|| format!("the public board names a viewer: {caption:?}"))
        });
        let _ = std::fs::remove_dir_all(folder.parent().unwrap());
    }
}
