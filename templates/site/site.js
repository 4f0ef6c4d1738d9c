// herald site: the replay's navigation and the index's checker.
// Plain JavaScript, no library, no request: the frames come from
// frames.js and the game file from game.js, both loaded by the page.
'use strict';

var SITE = null;
var GAME = null;

// frames.js calls this with every frame and the SVG lines they share.
function herald_site(data) { SITE = data; }
// game.js calls this with the game file, one string per line.
function herald_game(lines) { GAME = lines; }

document.addEventListener('DOMContentLoaded', function () {
  if (document.body.classList.contains('replay')) replay();
  if (document.body.classList.contains('index')) checker();
});

// ---------------------------------------------------------------- replay

function el(id) { return document.getElementById(id); }

function item(list, text, cls) {
  var li = document.createElement('li');
  if (cls) li.className = cls;
  li.textContent = text;
  list.appendChild(li);
  return li;
}

// Each frame's name and anchor are herald's (src/site/mod.rs): one number,
// the turn the board stands at, as the reports and its caption say.
function frameName(f) {
  return f.name;
}

function anchor(f) {
  return f.anchor;
}

// A board put back together from the shared lines ("0-57,60,58-59").
function board(ranges) {
  var out = [];
  ranges.split(',').forEach(function (r) {
    var ab = r.split('-');
    var a = parseInt(ab[0], 10), b = ab.length > 1 ? parseInt(ab[1], 10) : a;
    for (var i = a; i <= b; i++) out.push(SITE.lines[i]);
  });
  return out.join('\n');
}

function replay() {
  var frames = SITE ? SITE.frames : [];
  var slider = el('slider');
  var at = 0;
  if (!frames.length) {
    el('name').textContent = 'frames.js did not load';
    return;
  }
  slider.max = String(frames.length - 1);

  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ''));
    for (var i = 0; i < frames.length; i++) if (anchor(frames[i]) === h) return i;
    return -1;
  }

  // Whose view of the phase the board and events show: '' the frame's
  // own (the whole truth of a finished game, or the one reader a running
  // game's site is for), else a reader of the frame's views (the public,
  // or a player as their report of the phase told it). Kept from phase
  // to phase.
  var reader = '';
  var pick = el('lens-pick');
  function lensOf(f) {
    if (!reader || !f.views) return null;
    for (var i = 0; i < f.views.length; i++) if (f.views[i].reader === reader) return f.views[i];
    return null;
  }
  function fillLenses(f) {
    var box = el('lens');
    if (!pick || !box) return;
    var views = f.views || [];
    box.hidden = !views.length;
    if (pick.options.length === views.length + 1) return;
    pick.textContent = '';
    var o = document.createElement('option');
    o.value = '';
    o.textContent = document.body.dataset.lens || 'this site\u2019s view';
    pick.appendChild(o);
    views.forEach(function (v) {
      var o = document.createElement('option');
      o.value = v.reader;
      o.textContent = v.label;
      pick.appendChild(o);
    });
    pick.value = reader;
  }

  function show(i, keepHash) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[at];
    slider.value = String(at);
    el('name').textContent = frameName(f);
    el('where').textContent = (at) + ' of ' + (frames.length - 1) + ' phases';
    el('when').textContent = f.after
      ? 'The board after ' + f.after + ', resolved ' + (f.when || f.resolved_at) + '.'
      : 'The game as it was set up.';
    fillLenses(f);
    var lens = lensOf(f);
    var shownBoard = lens ? lens.board : f.board, noBoard = lens ? lens.no_board : f.no_board;
    var b = el('board');
    var legend = el('legend');
    if (legend) { legend.hidden = true; legend.textContent = ''; }
    if (shownBoard !== null && shownBoard !== undefined) {
      b.innerHTML = board(shownBoard);
      foldLegend(b.querySelector('svg'), legend);
      if (!zoom || readable[reader] === undefined) zoomTo(Math.max(zoom, readableZoom()));
      else zoomTo(zoom);
    } else {
      b.innerHTML = '';
      b.style.maxHeight = '';
      var p = document.createElement('p');
      p.className = 'none';
      p.textContent = noBoard || 'no board';
      b.appendChild(p);
    }
    el('events-whose').textContent = lens ? ' (' + lens.label + ')' : '';
    var ev = el('events');
    ev.textContent = '';
    (lens ? lens.events : f.events).forEach(function (t) { item(ev, t); });
    f.dropped.forEach(function (p) { item(ev, p + ' dropped out (too many missed orders)'); });
    if (!ev.children.length) item(ev, f.after === null ? 'the game begins' : 'nothing this reader may see', 'empty');
    var or = el('orders');
    or.textContent = '';
    f.orders.forEach(function (o) {
      var li = item(or, '');
      var who = document.createElement('span');
      who.className = 'who';
      who.textContent = (o.shown || o.player) + (o.nmr ? ' (missed: herald stood in, ' + o.nmr + ')' : '') + (o.bot ? ' (bot ' + o.bot + ')' : '') + ': ';
      li.appendChild(who);
      var what = document.createElement('span');
      if (o.lines === null) {
        what.className = 'hidden';
        what.textContent = 'orders in (not shown to this reader)';
      } else {
        what.textContent = o.lines.length ? o.lines.join('; ') : 'no orders';
      }
      li.appendChild(what);
    });
    if (!f.orders.length) item(or, f.after === null ? 'none yet' : 'none', 'empty');
    var ro = el('rolls');
    ro.textContent = '';
    f.rolls.forEach(function (r) {
      var li = item(ro, '');
      var d = document.createElement('span');
      d.className = 'die';
      d.textContent = 'd' + r.sides + ' = ' + r.value;
      li.appendChild(d);
      li.appendChild(document.createTextNode(': ' + r.what));
    });
    if (!f.rolls.length) item(ro, 'no dice', 'empty');
    el('next-up').textContent = f.next;
    document.title = document.title.replace(/( — .*)?$/, ' — ' + frameName(f));
    if (!keepHash) remember();
  }

  // The page's own history: the address names the phase shown, written
  // once stepping settles (a step at a time, as fast as keys repeat,
  // never writes the history: Chromium throttles a page that does so
  // hundreds of times), as a new entry, so the browser's Back returns to
  // the phase read before.
  var settle = null;
  function remember() {
    if (settle) clearTimeout(settle);
    settle = setTimeout(function () {
      settle = null;
      var h = '#' + anchor(frames[at]);
      if (location.hash === h || !history.pushState) return;
      if (location.hash) history.pushState(null, '', h);
      else history.replaceState(null, '', h);
    }, 400);
  }

  // Zoom: 1 ("fit") shows the whole board inside the screen below its
  // buttons; the page opens at the least zoom at which the board's
  // smallest word reads at 11.5 CSS px (a large map, War of the Dukes',
  // opens zoomed and scrolls within its box); the same zoom for every
  // phase.
  var zoom = 0, readable = {}, NS = 'http://www.w3.org/2000/svg';

  // The legend, drawn under the map, moves into a box of its own beside
  // the board (below it on a phone), set in the page's type: each
  // entry's sample (the board's own drawing) in a small picture of its
  // own, its words as words that wrap. The board shows the map alone, so
  // the whole map fits the screen.
  function foldLegend(svg, box) {
    if (!svg || !box) return;
    var lg = svg.querySelector('.legend'), v = svg.viewBox && svg.viewBox.baseVal;
    if (!lg || !v || !v.height) return;
    var bb = lg.getBBox();
    if (!bb.height || bb.y <= v.y) return;
    var h = bb.y - v.y;
    svg.setAttribute('viewBox', v.x + ' ' + v.y + ' ' + v.width + ' ' + h);
    svg.removeAttribute('height');
    var head = document.createElement('h2');
    head.textContent = 'Legend';
    box.appendChild(head);
    var cap = Array.prototype.map.call(lg.querySelectorAll('.legend-caption'), function (c) { return c.textContent; }).join(' ');
    if (cap) {
      var p = document.createElement('p');
      p.className = 'legend-caption';
      p.textContent = cap;
      box.appendChild(p);
    }
    var ul = document.createElement('ul');
    ul.className = 'legend-list';
    Array.prototype.forEach.call(lg.querySelectorAll('.legend-entry'), function (e) {
      var li = document.createElement('li');
      var sample = e.querySelector('.legend-sample');
      if (sample) li.appendChild(samplePicture(svg, sample));
      var words = document.createElement('span');
      words.className = 'legend-words';
      words.textContent = Array.prototype.map.call(e.querySelectorAll('.legend-text'), function (t) { return t.textContent; }).join(' ');
      li.appendChild(words);
      ul.appendChild(li);
    });
    box.appendChild(ul);
    lg.parentNode.removeChild(lg);
    box.hidden = false;
  }
  // A legend sample in a picture of its own, large enough that a word it
  // draws reads at 12 px.
  function samplePicture(svg, sample) {
    var b = sample.getBBox(), m = sample.transform && sample.transform.baseVal.consolidate();
    m = m ? m.matrix : null;
    var pic = document.createElementNS(NS, 'svg'), pad = 2;
    pic.appendChild(sample.cloneNode(true));
    var x0 = b.x, y0 = b.y, w = b.width, h = b.height;
    if (m) { x0 = m.a * b.x + m.e; y0 = m.d * b.y + m.f; w = b.width * m.a; h = b.height * m.d; }
    pic.setAttribute('viewBox', (x0 - pad) + ' ' + (y0 - pad) + ' ' + (w + 2 * pad) + ' ' + (h + 2 * pad));
    var k = Math.min(1.6, 56 / Math.max(w + 2 * pad, h + 2 * pad, 1)), sk = m ? Math.abs(m.a) : 1;
    Array.prototype.forEach.call(sample.querySelectorAll('text'), function (tx) {
      var fs = parseFloat(tx.getAttribute('font-size') || getComputedStyle(tx).fontSize) * sk;
      if (fs > 0) k = Math.max(k, 12 / fs);
    });
    pic.setAttribute('width', Math.round((w + 2 * pad) * k));
    pic.setAttribute('height', Math.round((h + 2 * pad) * k));
    ['font-family', 'font-weight'].forEach(function (a) { if (svg.getAttribute(a)) pic.setAttribute(a, svg.getAttribute(a)); });
    pic.setAttribute('aria-hidden', 'true');
    return pic;
  }
  // The least zoom at which the board shown reads: its smallest word at
  // 11.5 CSS px (worked out once for each view).
  function readableZoom() {
    if (readable[reader] !== undefined) return readable[reader];
    var b = el('board'), svg = b.querySelector('svg');
    if (!svg) return 1;
    var vb = svg.viewBox && svg.viewBox.baseVal, fw = fitWidth(svg, available());
    svg.style.width = fw + 'px';
    svg.style.maxWidth = 'none';
    var least = smallestText(svg);
    var z = least && vb && vb.width ? 11.5 / (least * fw / vb.width) : 1;
    readable[reader] = Math.max(1, Math.ceil(z * 20) / 20);
    return readable[reader];
  }
  function available() {
    var b = el('board'), top = b.getBoundingClientRect().top + (window.scrollY || 0);
    return Math.max(200, window.innerHeight - top - 8);
  }
  function fitWidth(svg, h) {
    var vb = svg.viewBox && svg.viewBox.baseVal, w = el('board').clientWidth || 300;
    if (vb && vb.width && vb.height) w = Math.min(w, h * vb.width / vb.height);
    return Math.max(120, w);
  }
  function scaleOf(m) { return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); }
  // the smallest word the board draws, in its own units
  function smallestText(svg) {
    var s = svg.getScreenCTM(), low = Infinity;
    if (!s) return null;
    var inv = s.inverse();
    function at(n) { var e = n.getScreenCTM(); return e ? scaleOf(inv.multiply(e)) : 1; }
    Array.prototype.forEach.call(svg.querySelectorAll('text'), function (t) {
      if (t.closest('symbol') || t.closest('defs') || !t.textContent.trim()) return;
      low = Math.min(low, parseFloat(getComputedStyle(t).fontSize) * at(t));
    });
    Array.prototype.forEach.call(svg.querySelectorAll('use'), function (u) {
      var id = (u.getAttribute('href') || u.getAttribute('xlink:href') || '').replace(/^#/, '');
      var sym = id && document.getElementById(id);
      if (!sym) return;
      Array.prototype.forEach.call(sym.querySelectorAll('text'), function (t) {
        if (t.textContent.trim()) low = Math.min(low, parseFloat(getComputedStyle(t).fontSize) * at(u));
      });
    });
    return low < Infinity ? low : null;
  }
  function zoomTo(z) {
    var b = el('board'), svg = b.querySelector('svg');
    if (!svg) return;
    var h = available(), vb = svg.viewBox && svg.viewBox.baseVal;
    b.style.maxHeight = h + 'px';
    var fw = fitWidth(svg, h);
    // zoomed in as far as a reader may want, and never less than needed
    // to read the board (War of the Dukes' tall map on a phone)
    zoom = Math.max(1, Math.min(Math.max(8, (readable[reader] || 1) * 2), z || 1));
    svg.style.width = Math.round(fw * zoom) + 'px';
    svg.style.maxWidth = 'none';
    b.className = zoom > 1 ? 'board zoomed' : 'board';
    el('zoom-level').textContent = Math.round(zoom * 100) + '%';
  }
  function zoomBy(k) {
    var b = el('board'), cx = (b.scrollLeft + b.clientWidth / 2) / (b.scrollWidth || 1), cy = (b.scrollTop + b.clientHeight / 2) / (b.scrollHeight || 1);
    zoomTo(zoom * k);
    b.scrollLeft = cx * b.scrollWidth - b.clientWidth / 2;
    b.scrollTop = cy * b.scrollHeight - b.clientHeight / 2;
  }
  el('zoom-in').onclick = function () { zoomBy(1.5); };
  el('zoom-out').onclick = function () { zoomBy(1 / 1.5); };
  el('zoom-fit').onclick = function () { zoomTo(1); };
  window.addEventListener('resize', function () { zoomTo(zoom); });
  // another view opens at least at the zoom it reads at
  if (pick) pick.onchange = function () { reader = pick.value; show(at, true); };
  el('first').onclick = function () { show(0); };
  el('prev').onclick = function () { show(at - 1); };
  el('next').onclick = function () { show(at + 1); };
  el('last').onclick = function () { show(frames.length - 1); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // a focused slider or list moves itself
    if (e.target && (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT')) return;
    var k = e.key, to = null;
    if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'j' || k === 'n') to = at + 1;
    else if (k === 'ArrowLeft' || k === 'ArrowUp' || k === 'k' || k === 'p') to = at - 1;
    else if (k === 'PageDown') to = at + 10;
    else if (k === 'PageUp') to = at - 10;
    else if (k === 'Home') to = 0;
    else if (k === 'End') to = frames.length - 1;
    if (to === null) return;
    e.preventDefault();
    show(to);
  });
  // Back and Forward, and a link to a phase followed within the page
  function followed() {
    var i = fromHash();
    if (i >= 0 && i !== at) show(i, true);
  }
  window.addEventListener('popstate', followed);
  window.addEventListener('hashchange', followed);
  var first = fromHash();
  show(first >= 0 ? first : 0, first >= 0);
}

// ---------------------------------------------------------------- checker
// Recomputes the chain as docs/trust.md specifies: each entry's hash is
// sha256("herald/2\n" prev "\n" body "\n") over the body's bytes as they
// stand in the line; each entry's sig signs "herald/2 entry\n" hash; the
// seal signs "herald/2 head\n" sha256(H). Ed25519 and SHA-256 through the
// browser's Web Crypto.

var ENC = new TextEncoder();
var HEX64 = /^[0-9a-f]{64}$/;

function hex(buf) {
  var b = new Uint8Array(buf), s = '';
  for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
}

function unhex(s) {
  var out = new Uint8Array(s.length / 2);
  for (var i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
}

function join(parts) {
  var n = 0;
  parts.forEach(function (p) { n += p.length; });
  var out = new Uint8Array(n), at = 0;
  parts.forEach(function (p) { out.set(p, at); at += p.length; });
  return out;
}

function ascii(bytes) {
  return new TextDecoder().decode(bytes);
}

async function sha256(bytes) {
  return hex(await crypto.subtle.digest('SHA-256', bytes));
}

// "entry 12 (phase, turn 11)", as herald names it.
function describe(i, body) {
  try {
    var v = JSON.parse(body);
    if (typeof v.turn === 'number') return 'entry ' + i + ' (' + v.kind + ', turn ' + v.turn + ')';
    if (typeof v.kind === 'string') return 'entry ' + i + ' (' + v.kind + ')';
  } catch (e) { /* named by its number alone */ }
  return 'entry ' + i;
}

async function checkChain(lines, pageHead, pageKey) {
  var found = [];
  if (!lines || !lines.length) return { found: ['game.js did not load: the game file in this site is damaged or missing'] };
  var line = ENC.encode(lines[0]);
  var tail = ascii(line.subarray(line.length - 139));
  if (line.length < 147 || ascii(line.subarray(0, 8)) !== '{"head":' || !/^,"seal":"[0-9a-f]{128}"\}$/.test(tail)) {
    return { found: ['the head record (line 1) is not laid out as herald writes it'] };
  }
  var H = line.subarray(8, line.length - 139);
  var seal = tail.substr(9, 128);
  var head;
  try { head = JSON.parse(ascii(H)); } catch (e) { return { found: ['the head record (line 1) does not read as JSON: ' + e.message] }; }
  var key = String(head.key || '');
  if (!/^ed25519:[0-9a-f]{64}$/.test(key)) return { found: ['the head record (line 1) names no Ed25519 key'] };
  var pub;
  try {
    pub = await crypto.subtle.importKey('raw', unhex(key.substr(8)), { name: 'Ed25519' }, false, ['verify']);
  } catch (e) {
    return { found: ['the key ' + key + ' is not a valid Ed25519 key: ' + e.message] };
  }
  var verify = function (domain, message, sig) {
    return crypto.subtle.verify({ name: 'Ed25519' }, pub, unhex(sig), ENC.encode(domain + message));
  };
  var prev = '0'.repeat(64);
  var checks = [];
  for (var i = 1; i < lines.length; i++) {
    var n = i - 1;
    var b = ENC.encode(lines[i]);
    var t = b.length >= 294 ? ascii(b.subarray(b.length - 286)) : '';
    var m = /^,"hash":"([0-9a-f]{64})","prev":"([0-9a-f]{64})","sig":"([0-9a-f]{128})"\}$/.exec(t);
    if (lines[i].indexOf('\n') >= 0 || lines[i].indexOf('\r') >= 0 || !m || ascii(b.subarray(0, 8)) !== '{"body":') {
      found.push('entry ' + n + ' (line ' + (i + 1) + '): not laid out as herald writes an entry');
      prev = null;
      continue;
    }
    var body = b.subarray(8, b.length - 286);
    var name = describe(n, ascii(body)) + ', line ' + (i + 1);
    if (prev !== null && m[2] !== prev) found.push(name + ': does not follow the entry before it (its prev is not that entry\'s hash)');
    var computed = await sha256(join([ENC.encode('herald/2\n' + m[2] + '\n'), body, ENC.encode('\n')]));
    if (computed !== m[1]) found.push(name + ': its contents do not give its hash: the entry was changed after it was signed');
    checks.push(verify('herald/2 entry\n', m[1], m[3]).then((function (name) {
      return function (ok) { if (!ok) found.push(name + ': its signature does not hold for key ' + key); };
    })(name)));
    prev = m[1];
  }
  await Promise.all(checks);
  var entries = lines.length - 1;
  var log = head.log || {};
  if (log.entries !== entries) found.push('the head record (line 1): it counts ' + log.entries + ' entries, the file holds ' + entries);
  if (prev !== null && log.head !== prev) found.push('the head record (line 1): its chain head is not the last entry\'s hash');
  var sealOk = await verify('herald/2 head\n', await sha256(H), seal);
  if (!sealOk) found.push('the head record (line 1): the seal does not hold for key ' + key + ': the head was changed after it was sealed');
  if (pageKey && key !== pageKey) found.push('the game file is signed with key ' + key + ', but this site names key ' + pageKey);
  if (pageHead && log.head !== pageHead) found.push('the game file\'s chain head is ' + log.head + ', but this site was built on ' + pageHead);
  // entries in the order of the file, the head record last
  found.sort(function (a, b) { return order(a) - order(b); });
  return { found: found, head: log.head, key: key, entries: entries };
}

function order(text) {
  var m = /^entry (\d+)/.exec(text);
  return m ? parseInt(m[1], 10) : 1e9;
}

async function checker() {
  var verdict = el('verdict');
  if (!verdict || document.body.dataset.over !== 'true') return;
  var list = el('findings');
  var save = el('save');
  if (GAME && save) {
    save.href = URL.createObjectURL(new Blob([GAME.join('\n') + '\n'], { type: 'application/jsonl' }));
  }
  if (!window.crypto || !crypto.subtle) {
    verdict.className = 'verdict bad';
    verdict.textContent = 'not checked: this browser gives the page no Web Crypto here (a page served over plain http gets none). Open the site from a file or over https, or run herald verify.';
    return;
  }
  var r;
  try {
    r = await checkChain(GAME, document.body.dataset.chainHead, document.body.dataset.key);
  } catch (e) {
    r = { found: ['the check could not run: ' + e.message] };
  }
  list.textContent = '';
  if (!r.found.length) {
    verdict.className = 'verdict ok';
    verdict.textContent = 'verified: chain head ' + r.head + ', key ' + r.key + ' (' + r.entries + ' entries: every hash, link and signature holds, and the seal)';
  } else {
    verdict.className = 'verdict bad';
    verdict.textContent = 'NOT verified: ' + r.found[0];
    r.found.forEach(function (f) { item(list, f); });
  }
  document.body.dataset.verdict = r.found.length ? 'failed' : 'verified';
}
