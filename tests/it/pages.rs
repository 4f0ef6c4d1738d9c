//! Pages a player can read and tap on a phone (issue 49), measured in a
//! real browser at a phone's screen (375 × 812) and a desktop's (1280 ×
//! 900), in every game: the report page as it opens, the composer in the
//! middle of a phase (orders given, a piece selected), and the replay
//! site (`tests/it/site.rs` measures each game's replay with the same
//! [`MEASURE`]).
//!
//! What is measured, in the page, in one call to it (each call to
//! Chromium is a round trip through its pipe):
//!
//! - the smallest text the board and its legend draw, in CSS pixels:
//!   every rendered `<text>` (those a `<use>` draws from a `<symbol>`
//!   included) at its font size times its scale on the screen, and the
//!   legend's words where the page sets them in HTML: at least
//!   [`SMALLEST_TEXT`];
//! - the smallest thing the composer makes tappable: every button, link,
//!   field and summary at least 44 × 44 CSS pixels; a board cell a piece
//!   of the player's or a highlighted target stands on is "forgiving": a
//!   tap lands on the nearest cell centre within 22 px or within the
//!   cell, so a cell is as good as 44 px when its centre is at least
//!   [`PITCH`] from every other (then a tap 14 px off its centre is still
//!   nearest to it), and a real tap 14 px off a piece's centre, toward
//!   its nearest neighbour, selects it;
//! - the text report: it runs off its box by nothing, and the page is no
//!   wider than the screen;
//! - the board's box: inside the window;
//! - the turn: every "turn N" on the page (heading, title, legend, the
//!   order file, the form, the mail's subject) is the order file's turn;
//!   a game's own count is said as "game turn N" or "round N";
//! - no mark of a planned order lies over a piece's label or a hex's name
//!   (their bounding boxes do not meet).
//!
//! Needs /usr/bin/chromium, as the composer tests do.

use crate::browser::Browser;
use crate::common::EngineGame;
use crate::composer::{browser, Page};
use serde_json::Value;

/// The smallest text a page may draw on its board or legend, CSS px.
pub(crate) const SMALLEST_TEXT: f64 = 11.0;

/// The least distance between a tappable cell's centre and any other
/// cell's: twice the 14 px a tap may be off.
pub(crate) const PITCH: f64 = 28.0;

/// The smallest tap target, CSS px a side.
pub(crate) const TARGET: f64 = 44.0;

/// The page measured (see the module's words). `area`: the element that
/// holds the board's scroll box (`#hc-scroll` on a report, `#board` on a
/// replay).
pub(crate) const MEASURE: &str = r#"(function () {
  function r1(n) { return Math.round(n * 10) / 10; }
  function shown(n) {
    var b = n.getBoundingClientRect();
    if (!(b.width > 0 && b.height > 0)) return false;
    var d = n.parentNode && n.parentNode.closest ? n.parentNode.closest('details') : null;
    if (d && !d.open && n.tagName !== 'SUMMARY' && !n.closest('summary')) return false;
    for (var e = n; e && e.nodeType === 1; e = e.parentNode) {
      var s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
    }
    return true;
  }
  function scaleOf(m) { return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); }
  var legendBox = document.getElementById('hc-legend') || document.getElementById('legend');
  var wasOpen = legendBox && legendBox.tagName === 'DETAILS' ? legendBox.open : null;
  if (wasOpen === false) legendBox.open = true;
  var texts = [];
  Array.prototype.forEach.call(document.querySelectorAll('svg text'), function (t) {
    if (t.closest('symbol') || t.closest('defs') || !t.textContent.trim()) return;
    if (!shown(t)) return;
    var m = t.getScreenCTM();
    if (!m) return;
    texts.push([r1(parseFloat(getComputedStyle(t).fontSize) * scaleOf(m)), t.textContent]);
  });
  Array.prototype.forEach.call(document.querySelectorAll('svg use'), function (u) {
    var id = (u.getAttribute('href') || u.getAttribute('xlink:href') || '').replace(/^#/, '');
    var s = id && document.getElementById(id);
    if (!s || !shown(u)) return;
    var m = u.getScreenCTM();
    if (!m) return;
    Array.prototype.forEach.call(s.querySelectorAll('text'), function (t) {
      if (!t.textContent.trim()) return;
      texts.push([r1(parseFloat(getComputedStyle(t).fontSize) * scaleOf(m)), t.textContent + ' (#' + id + ')']);
    });
  });
  if (legendBox) {
    var walk = document.createTreeWalker(legendBox, NodeFilter.SHOW_TEXT);
    for (var n = walk.nextNode(); n; n = walk.nextNode()) {
      var p = n.parentNode;
      if (!n.textContent.trim() || p.closest('svg') || !shown(p)) continue;
      texts.push([r1(parseFloat(getComputedStyle(p).fontSize)), n.textContent.trim().slice(0, 40) + ' (legend)']);
    }
  }
  texts.sort(function (a, b) { return a[0] - b[0]; });
  var captions = Array.prototype.map.call(document.querySelectorAll('.legend-caption'), function (c) { return c.textContent; });
  if (wasOpen === false) legendBox.open = false;

  // what the page makes tappable
  var targets = [];
  var tappable = '#composer button, #composer a.button, #composer input, #composer summary, #composer select, ' +
    'body.replay header a, #nav button, #nav input, #view button, #view select, #view a, #lens button, #lens select';
  Array.prototype.forEach.call(document.querySelectorAll(tappable), function (b) {
    if (!shown(b)) return;
    var r = b.getBoundingClientRect();
    targets.push([r1(Math.min(r.width, r.height)), (b.id ? '#' + b.id : b.tagName.toLowerCase()) + ' ' + (b.textContent || b.value || '').trim().slice(0, 24), r1(r.width), r1(r.height)]);
  });
  targets.sort(function (a, b) { return a[0] - b[0]; });

  // the board's cells and the ones a tap means something on
  var svg = document.querySelector('#board svg');
  var centres = {}, cellList = [];
  if (svg) Array.prototype.forEach.call(svg.querySelectorAll('[data-hex]'), function (n) {
    if (n.closest('.piece') || n.closest('.legend') || n.closest('.plan')) return;
    var b = n.getBoundingClientRect();
    var c = { k: n.getAttribute('data-hex'), x: b.left + b.width / 2, y: b.top + b.height / 2 };
    centres[c.k] = c;
    cellList.push(c);
  });
  var D = null;
  try { D = JSON.parse(document.getElementById('herald-data').textContent); } catch (e) { D = null; }
  var live = [];
  if (D && D.orders && document.querySelector('#composer.live')) {
    D.orders.pieces.forEach(function (p) { if (p.at) live.push(p.at); });
    Array.prototype.forEach.call(svg.querySelectorAll('.plan .hl[data-to]'), function (h) { live.push(h.getAttribute('data-to')); });
  }
  var cells = [];
  live.filter(function (k, i) { return live.indexOf(k) === i && centres[k]; }).forEach(function (k) {
    var c = centres[k], best = Infinity, near = null;
    cellList.forEach(function (o) {
      if (o.k === k) return;
      var d = Math.hypot(o.x - c.x, o.y - c.y);
      if (d < best) { best = d; near = o; }
    });
    cells.push([r1(best), k, near ? near.k : null]);
  });
  cells.sort(function (a, b) { return a[0] - b[0]; });

  // the text report and the page's width
  var rep = document.getElementById('report');
  var overflow = {
    report: rep && rep.tagName === 'PRE' ? rep.scrollWidth - rep.clientWidth : 0,
    page: document.documentElement.scrollWidth - innerWidth
  };
  Array.prototype.forEach.call(document.querySelectorAll('.after pre, #details pre'), function (p) {
    if (shown(p) && p.scrollWidth - p.clientWidth > overflow.report) {
      overflow.report = p.scrollWidth - p.clientWidth;
      overflow.what = (p.id || p.className || 'pre') + ': ' + getComputedStyle(p).whiteSpace + ' ' + p.textContent.split('\n').reduce(function (a, l) { return l.length > a.length ? l : a; }, '').slice(0, 60);
    }
  });

  // the board's box
  var area = document.getElementById('hc-scroll') || document.getElementById('board');
  var a = area ? area.getBoundingClientRect() : null;
  var s = svg ? svg.getBoundingClientRect() : null;
  var box = a ? { left: r1(a.left), top: r1(a.top), right: r1(a.right), bottom: r1(a.bottom),
    width: innerWidth, height: innerHeight,
    svg: s ? [r1(s.left), r1(s.top), r1(s.right), r1(s.bottom)] : null } : null;

  // every "turn N" the page says, where; a game's own count ("game
  // turn N", "round N") is not herald's turn
  var said = [];
  function turns(where, text) {
    if (!text) return;
    var re = /(game |of )?\bturn (?:= )?(\d+)/gi, m;
    while ((m = re.exec(text))) if (!m[1]) said.push([where, parseInt(m[2], 10), text.slice(Math.max(0, m.index - 20), m.index + 24)]);
  }
  var h1 = document.querySelector('h1');
  turns('heading', h1 && h1.textContent);
  turns('title', document.title);
  captions.forEach(function (c) { turns('legend', c); });
  if (svg) Array.prototype.forEach.call(svg.querySelectorAll('title'), function (t) { turns('board title', t.textContent); });
  var f = document.getElementById('hc-file');
  if (f && document.querySelector('#composer.live')) turns('order file', f.value);
  var form = document.getElementById('orders');
  if (form && form.tagName === 'TEXTAREA') turns('form', form.value);
  var mail = document.getElementById('hc-mail');
  if (mail && document.querySelector('#composer.live')) {
    var q = (mail.getAttribute('href') || '').split('?')[1] || '';
    q.split('&').forEach(function (kv) { if (kv.indexOf('subject=') === 0) turns('mail subject', decodeURIComponent(kv.slice(8))); });
  }
  var nm = document.getElementById('name');
  turns('phase name', nm && nm.textContent);

  // marks of planned orders over a label
  var over = [];
  if (svg) {
    var labels = [];
    Array.prototype.forEach.call(svg.querySelectorAll('.piece text, .labels text, .hexnum text'), function (t) {
      if (t.closest('.legend') || !shown(t)) return;
      labels.push([t.getBoundingClientRect(), t.textContent]);
    });
    Array.prototype.forEach.call(svg.querySelectorAll('.piece use'), function (u) {
      var id = (u.getAttribute('href') || '').replace(/^#/, '');
      var sym = id && document.getElementById(id);
      if (sym && sym.querySelector('text') && shown(u)) labels.push([u.getBoundingClientRect(), sym.querySelector('text').textContent]);
    });
    var plan = svg.querySelector('.plan');
    var m = svg.getScreenCTM(), k = m ? scaleOf(m) : 1;
    if (plan) Array.prototype.forEach.call(plan.querySelectorAll('*'), function (e) {
      if (e.closest('.sel') || e.closest('.hl') || e.children.length || !shown(e)) return;
      var b = e.getBoundingClientRect(), w = (parseFloat(e.getAttribute('stroke-width')) || 0) * k / 2;
      var x0 = b.left - w, y0 = b.top - w, x1 = b.right + w, y1 = b.bottom + w;
      labels.forEach(function (l) {
        var r = l[0];
        if (x0 < r.right - 0.5 && x1 > r.left + 0.5 && y0 < r.bottom - 0.5 && y1 > r.top + 0.5)
          over.push([e.tagName + (e.getAttribute('class') ? '.' + e.getAttribute('class') : '') + (e.textContent ? ' ' + e.textContent : ''), l[1]]);
      });
    });
  }
  var zl = document.getElementById('hc-zoom-level') || document.getElementById('zoom-level');
  return {
    text: texts.slice(0, 4), texts: texts.length,
    targets: targets.slice(0, 4), cells: cells.slice(0, 3),
    overflow: overflow, box: box, turns: said, over: over.slice(0, 6),
    zoom: zl ? zl.textContent : null, turn: D ? D.turn : null
  };
})()"#;

/// What [`MEASURE`] found that falls short, in words (none: the page
/// meets every standard). `opening`: the page as it opened, its board's
/// box inside the window; after a reader's taps have scrolled the page,
/// the box must still fit in the window.
pub(crate) fn shortfalls(v: &Value, want_turn: Option<u64>, opening: bool) -> Vec<String> {
    let mut out = Vec::new();
    let f = |x: &Value| x.as_f64().unwrap_or(f64::NAN);
    if let Some(t) = v["text"].as_array().and_then(|t| t.first()) {
        if f(&t[0]) < SMALLEST_TEXT {
            out.push(format!("text {} px: {}", t[0], t[1]));
        }
    } else {
        out.push("no text measured".into());
    }
    if let Some(t) = v["targets"].as_array().and_then(|t| t.first()) {
        if f(&t[0]) < TARGET {
            out.push(format!("tap target {} px: {}", t[0], t[1]));
        }
    }
    if let Some(c) = v["cells"].as_array().and_then(|c| c.first()) {
        if f(&c[0]) < PITCH {
            out.push(format!(
                "cell {} is {} px from {}: a tap 14 px off is not forgiven",
                c[1], c[0], c[2]
            ));
        }
    }
    for k in ["report", "page"] {
        let o = f(&v["overflow"][k]);
        if o > 1.0 {
            out.push(format!(
                "{k} runs {o} px past its box ({})",
                v["overflow"]["what"]
            ));
        }
    }
    let b = &v["box"];
    if !b.is_null() {
        let fits = f(&b["right"]) - f(&b["left"]) <= f(&b["width"]) + 0.5
            && f(&b["bottom"]) - f(&b["top"]) <= f(&b["height"]) + 0.5;
        let inside = f(&b["left"]) >= -0.5
            && f(&b["top"]) >= -0.5
            && f(&b["right"]) <= f(&b["width"]) + 0.5
            && f(&b["bottom"]) <= f(&b["height"]) + 0.5;
        let inside = if opening { inside } else { fits };
        if !inside {
            out.push(format!("the board's box is not inside the window: {b}"));
        }
    } else {
        out.push("no board box".into());
    }
    let turns = v["turns"].as_array().cloned().unwrap_or_default();
    let want = want_turn.or_else(|| turns.first().and_then(|t| t[1].as_u64()));
    for t in &turns {
        if t[1].as_u64() != want {
            out.push(format!(
                "the {} says turn {} (\"{}\"), the page's turn is {}",
                t[0].as_str().unwrap_or(""),
                t[1],
                t[2].as_str().unwrap_or(""),
                want.map_or("unknown".to_string(), |w| w.to_string())
            ));
        }
    }
    for o in v["over"].as_array().into_iter().flatten() {
        out.push(format!(
            "a planned order's mark {} lies over the label {}",
            o[0], o[1]
        ));
    }
    out
}

/// The figures a report prints: smallest text, target, cell pitch,
/// overflow.
pub(crate) fn figures(v: &Value) -> String {
    let first = |k: &str| {
        v[k].as_array()
            .and_then(|a| a.first())
            .map_or("-".to_string(), |x| x[0].to_string())
    };
    format!(
        "text {} px, target {} px, cell pitch {} px, report overflow {} px, page overflow {} px, zoom {}",
        first("text"),
        first("targets"),
        first("cells"),
        v["overflow"]["report"],
        v["overflow"]["page"],
        v["zoom"]
    )
}

/// A real tap `off` CSS px from the centre of the cell of one of the
/// player's pieces that takes orders now, toward the cell nearest to it
/// (where a tap is likeliest to go astray); whether the page selected
/// that piece.
fn tap_off_centre(page: &Page, off: f64) -> Result<(), String> {
    let at = page.js(&format!(
        r#"(function (off) {{
            var D = JSON.parse(document.getElementById('herald-data').textContent);
            var svg = document.querySelector('#board svg'), box = document.getElementById('hc-scroll');
            var cells = {{}};
            Array.prototype.forEach.call(svg.querySelectorAll('[data-hex]'), function (n) {{
                if (n.closest('.piece') || n.closest('.legend') || n.closest('.plan')) return;
                cells[n.getAttribute('data-hex')] = n;
            }});
            var ids = D.orders.pieces.filter(function (p) {{ return p.at && cells[p.at]; }});
            if (!ids.length) return null;
            var p = ids[0], n = cells[p.at];
            n.scrollIntoView({{block: 'center', inline: 'center'}});
            var b = n.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2, best = Infinity, dx = 1, dy = 0;
            for (var k in cells) {{
                if (k === p.at) continue;
                var o = cells[k].getBoundingClientRect(), ox = o.left + o.width / 2 - x, oy = o.top + o.height / 2 - y, d = Math.hypot(ox, oy);
                if (d > 0.5 && d < best) {{ best = d; dx = ox / d; dy = oy / d; }}
            }}
            return [x + dx * off, y + dy * off, p.id, p.at];
        }})({off})"#
    ));
    let Some(a) = at.as_array() else {
        return Ok(());
    };
    page.click_at(&at, "a piece off centre");
    let (id, cell) = (a[2].as_str().unwrap(), a[3].as_str().unwrap());
    let sel = page.js(&format!(
        "(function () {{ var s = document.querySelector('#board svg .plan .sel'); return [document.getElementById('hc-pick-head').textContent, document.getElementById('hc-msg').textContent, !!s]; }})()"
    ));
    let head = sel[0].as_str().unwrap_or("");
    if sel[2] == true && (head.contains(id) || head.contains(cell) || !head.is_empty()) {
        Ok(())
    } else {
        Err(format!(
            "a tap {off} px off the centre of {cell} ({id}) selected nothing: {sel}"
        ))
    }
}

/// One game mid-game: `turns` phases of the scripted players.
fn mid_game(name: &str, players: &[&str], opts: Vec<String>, turns: usize) -> EngineGame {
    let mut g = EngineGame::new(name, players, "pages", opts, &format!("pages-{name}"));
    let mut rng = herald::rng::from_u64(11);
    for _ in 0..turns {
        g.turn(|l, s| herald::bots::scripted_orders(l.rules.as_ref(), &l.state, s, &mut rng));
    }
    assert!(!g.over(), "{name}: over after {turns} turns");
    g
}

/// Every page of one game at both widths: each seat's report page as it
/// opens, and the composer of the seat whose orders are due with some of
/// its orders given and a piece selected. Fails with every shortfall.
fn one_game(b: &Browser, name: &str, players: &[&str], opts: Vec<String>, turns: usize) {
    let g = mid_game(name, players, opts, turns);
    let mut rng = herald::rng::from_u64(5);
    let mut problems = Vec::new();
    let turn = g.loaded.head().turn as u64;
    let due = g.loaded.rules.awaiting(&g.loaded.state);
    for (w, h) in [(375u32, 812u32), (1280, 900)] {
        for seat in 0..players.len() {
            let html = crate::common::report(&g.loaded, seat, "html");
            let path = g.dir.join(format!("page-{seat}-{w}.html"));
            let page = Page::open_at(b, &path, &html, Some((w, h)));
            let ctx = format!("{name} {} at {w}", players[seat]);
            let v = page.js(MEASURE);
            eprintln!("{ctx}, report: {}", figures(&v));
            problems.extend(
                shortfalls(&v, Some(turn), true)
                    .into_iter()
                    .map(|p| format!("{ctx}, report: {p}")),
            );
            if due.contains(&seat) {
                let orders = herald::bots::scripted_orders(
                    g.loaded.rules.as_ref(),
                    &g.loaded.state,
                    seat,
                    &mut rng,
                );
                let some: Vec<String> = orders.into_iter().take(3).collect();
                page.compose(&some);
                crate::composer::select_free(&page);
                let v = page.js(MEASURE);
                eprintln!("{ctx}, composing: {}", figures(&v));
                // HERALD_SHOTS=DIR: the screen as measured, to look at
                if let Some(dir) = std::env::var_os("HERALD_SHOTS") {
                    let png = page.tab.screenshot(None).unwrap();
                    let out = std::path::Path::new(&dir).join(format!("{name}-{w}.png"));
                    std::fs::write(out, png).unwrap();
                }
                problems.extend(
                    shortfalls(&v, Some(turn), false)
                        .into_iter()
                        .map(|p| format!("{ctx}, composing: {p}")),
                );
                page.click("#hc-zoom-fit");
                let opened = page.js(
                    "(function () { var s = document.querySelector('#board svg').getBoundingClientRect(), b = document.getElementById('hc-scroll').getBoundingClientRect(); return [s.width <= b.width + 1 && s.height <= Math.max(b.height, innerHeight) + 1, s.width, b.width]; })()",
                );
                if opened[0] != true {
                    problems.push(format!(
                        "{ctx}: 'fit' does not show the whole map: {opened}"
                    ));
                }
                // a new page: nothing selected, a tap just off a piece
                let page2 = Page::open_at(b, &path, &html, Some((w, h)));
                if let Err(e) = tap_off_centre(&page2, 14.0) {
                    problems.push(format!("{ctx}: {e}"));
                }
                let _ = page2.tab.close(false);
            }
            let _ = page.tab.close(false);
        }
    }
    assert!(
        problems.is_empty(),
        "{name}: {} shortfalls:\n{}",
        problems.len(),
        problems.join("\n")
    );
    let _ = std::fs::remove_dir_all(&g.dir);
}

#[test]
fn hexwar_pages_read_and_tap_on_a_phone() {
    one_game(&browser(), "hexwar", &["white", "black"], vec![], 5);
}

#[test]
fn norse_wars_pages_read_and_tap_on_a_phone() {
    one_game(
        &browser(),
        "norse-wars",
        &["red", "blue", "green"],
        vec!["fog=true".into()],
        4,
    );
}

#[test]
fn stack_wars_pages_read_and_tap_on_a_phone() {
    one_game(
        &browser(),
        "stack-wars",
        &["black", "white"],
        vec!["size=7".into()],
        7,
    );
}

#[test]
fn unfought_battle_pages_read_and_tap_on_a_phone() {
    one_game(
        &browser(),
        "unfought-battle",
        &["north", "south"],
        vec![],
        3,
    );
}

#[test]
fn war_of_the_dukes_pages_read_and_tap_on_a_phone() {
    one_game(
        &browser(),
        "war-of-the-dukes",
        &["orfburg", "wulfenburg"],
        vec![],
        3,
    );
}
