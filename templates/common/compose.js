// herald's order composer (issue 21): build an order file by pointing at
// the board. Plain JavaScript, embedded in every HTML report; it makes no
// network request and stores nothing. It knows no game's rules: herald
// embeds, in #herald-data, the orders each piece may take now, the board
// cells (the SVG's data-hex labels) each points at, and keys that say how
// orders combine (src/games/compose.rs explains them). The page refuses
// what those keys say is illegal and says why; `herald check` checks the
// whole file again when it comes back.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var D = JSON.parse(document.getElementById("herald-data").textContent);
  var root = document.getElementById("composer");
  var svg = document.querySelector("#board svg");
  if (!root) return;
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function say(msg, bad) {
    var m = $("hc-msg");
    m.textContent = msg || "";
    m.className = bad ? "msg bad" : "msg";
  }

  // --------------------------------------------------------------- board
  // The board's cells, the legend set beside it, zoom, pinch and pan, the
  // board turned for the player's side, a cell's name on tap or hover: in
  // every phase, orders due or not, and after the game ends.
  var cells = {}, overlay = null, live = false, vb = null, keep = [];
  var turned = false, mapG = null, least = null, pitch = Infinity, mapC = null;
  var scroller = $("hc-scroll");
  // the zoom buttons are shown before anything is measured: the board's
  // box stands where it will stay
  if (root.className === "static") root.className = "idle";
  function scaleOf(m) { return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) || 1; }
  // An element's box in the board's own units (the root's user space),
  // whatever transforms (a turned board) lie between.
  function rootBox(n) {
    var b = n.getBBox(), s = svg.getScreenCTM(), e = n.getScreenCTM();
    if (!s || !e) return { x: b.x, y: b.y, w: b.width, h: b.height };
    var m = s.inverse().multiply(e), xs = [], ys = [];
    [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]].forEach(function (p) {
      xs.push(m.a * p[0] + m.c * p[1] + m.e);
      ys.push(m.b * p[0] + m.d * p[1] + m.f);
    });
    var x0 = Math.min.apply(null, xs), y0 = Math.min.apply(null, ys);
    return { x: x0, y: y0, w: Math.max.apply(null, xs) - x0, h: Math.max.apply(null, ys) - y0 };
  }
  function symbolOf(u) {
    var id = (u.getAttribute("href") || u.getAttribute("xlink:href") || "").replace(/^#/, "");
    return id ? document.getElementById(id) : null;
  }
  // Every cell's middle and size, in the board's units.
  function measureCells() {
    cells = {};
    Array.prototype.forEach.call(svg.querySelectorAll("[data-hex]"), function (n) {
      if (n.closest(".piece") || n.closest(".legend") || n.closest(".plan")) return;
      var b = rootBox(n);
      cells[n.getAttribute("data-hex")] = { x: b.x + b.w / 2, y: b.y + b.h / 2, r: Math.min(b.w, b.h) / 2 };
    });
    // the least distance between two cells' middles: how closely a tap
    // must land (a sample of cells is enough: the grid is regular)
    var list = Object.keys(cells).map(function (k) { return cells[k]; });
    pitch = Infinity;
    list.slice(0, 60).forEach(function (a) {
      list.forEach(function (b) { var d = Math.hypot(a.x - b.x, a.y - b.y); if (d > 0.01 && d < pitch) pitch = d; });
    });
    // what the marks of planned orders stay off: every piece's label and
    // every cell's name the board writes
    keep = [];
    function grown(b) { return { x: b.x - 1.5, y: b.y - 1.5, w: b.w + 3, h: b.h + 3 }; }
    Array.prototype.forEach.call(svg.querySelectorAll(".piece text, .labels text, .hexnum text"), function (t) {
      if (!t.closest(".legend") && t.textContent.trim()) keep.push(grown(rootBox(t)));
    });
    Array.prototype.forEach.call(svg.querySelectorAll(".piece use"), function (u) {
      var s = symbolOf(u);
      if (s && s.querySelector("text")) keep.push(grown(rootBox(u)));
    });
  }
  function cellList() { return Object.keys(cells); }
  // The smallest text the board draws, in its units (a text a <use> draws
  // from a symbol included): the page opens at a zoom where it reads.
  function smallestText() {
    var s = svg.getScreenCTM(), low = Infinity;
    if (!s) return null;
    var inv = s.inverse();
    function at(n) { var e = n.getScreenCTM(); return e ? scaleOf(inv.multiply(e)) : 1; }
    Array.prototype.forEach.call(svg.querySelectorAll("text"), function (t) {
      if (t.closest("symbol") || t.closest("defs") || t.closest(".plan") || !t.textContent.trim()) return;
      low = Math.min(low, parseFloat(getComputedStyle(t).fontSize) * at(t));
    });
    Array.prototype.forEach.call(svg.querySelectorAll("use"), function (u) {
      var sym = symbolOf(u);
      if (!sym || u.closest(".plan")) return;
      Array.prototype.forEach.call(sym.querySelectorAll("text"), function (t) {
        low = Math.min(low, parseFloat(getComputedStyle(t).fontSize) * at(u));
      });
    });
    return low < Infinity ? low : null;
  }
  if (svg) {
    foldLegend();
    vb = svg.viewBox.baseVal;
    measureCells();
    least = smallestText();
    svg.addEventListener("mousemove", function (ev) { nameCell(ev, false); });
  }
  // The legend, drawn under the map, moves into a box of its own (folded
  // on a phone, open beside the board on a desktop), set in the page's
  // type: each entry's sample (the board's own drawing, its symbols are
  // the board's) in a small picture of its own, its words as words that
  // wrap to the box. The board shows the map alone.
  function foldLegend() {
    var lg = svg.querySelector(".legend"), v = svg.viewBox.baseVal;
    if (!lg || !v || !v.height) return;
    var b = lg.getBBox();
    if (!b.height || b.y <= v.y) return;
    var h = b.y - v.y;
    svg.setAttribute("viewBox", v.x + " " + v.y + " " + v.width + " " + h);
    svg.setAttribute("height", Math.round(h * (svg.width.baseVal.value / v.width || 1)));
    var box = $("hc-legend");
    var cap = Array.prototype.map.call(lg.querySelectorAll(".legend-caption"), function (c) { return c.textContent; }).join(" ");
    if (cap) box.appendChild(el("p", { class: "legend-caption" }, cap));
    var ul = el("ul", { class: "legend-list" });
    Array.prototype.forEach.call(lg.querySelectorAll(".legend-entry"), function (e) {
      var li = el("li", { "data-explains": e.getAttribute("data-explains") || "" });
      var sample = e.querySelector(".legend-sample");
      if (sample) li.appendChild(samplePicture(sample));
      var words = Array.prototype.map.call(e.querySelectorAll(".legend-text"), function (t) { return t.textContent; }).join(" ");
      li.appendChild(el("span", { class: "legend-words" }, words));
      ul.appendChild(li);
    });
    box.appendChild(ul);
    lg.parentNode.removeChild(lg);
    box.hidden = false;
    if (wide()) box.open = true;
  }
  // A legend sample in a picture of its own, drawn at least at the
  // board's scale on a desktop (its words read at 11 px and more).
  function samplePicture(sample) {
    var b = sample.getBBox(), t = sample.getAttribute("transform");
    var pic = document.createElementNS(NS, "svg"), pad = 2;
    var g = sample.cloneNode(true);
    pic.appendChild(g);
    // the sample's box in its parent's units: its own transform applied
    var m = t && sample.transform.baseVal.consolidate() ? sample.transform.baseVal.consolidate().matrix : null;
    var x0 = b.x, y0 = b.y, w = b.width, h = b.height;
    if (m) { x0 = m.a * b.x + m.e; y0 = m.d * b.y + m.f; w = b.width * m.a; h = b.height * m.d; }
    pic.setAttribute("viewBox", (x0 - pad) + " " + (y0 - pad) + " " + (w + 2 * pad) + " " + (h + 2 * pad));
    // small enough to sit beside its words, large enough that a word it
    // draws reads at 12 px
    var k = Math.min(1.6, 56 / Math.max(w + 2 * pad, h + 2 * pad, 1)), sk = m ? Math.abs(m.a) : 1;
    Array.prototype.forEach.call(sample.querySelectorAll("text"), function (tx) {
      var fs = parseFloat(tx.getAttribute("font-size") || getComputedStyle(tx).fontSize) * sk;
      if (fs > 0) k = Math.max(k, 12 / fs);
    });
    pic.setAttribute("width", Math.round((w + 2 * pad) * k));
    pic.setAttribute("height", Math.round((h + 2 * pad) * k));
    ["font-family", "font-weight"].forEach(function (a) { if (svg.getAttribute(a)) pic.setAttribute(a, svg.getAttribute(a)); });
    pic.setAttribute("class", "legend-sample-pic");
    pic.setAttribute("aria-hidden", "true");
    return pic;
  }
  function wide() { return window.innerWidth >= 900; }

  // -------------------------------------------------------- the player's side
  // The board turned half round (HEXWAR's Black, Stack Wars' White: the
  // second player reads it from their own side, as at a table), with a
  // switch: the map turns, its words stay upright.
  function turnBoard(on) {
    if (!svg || !vb) return;
    if (!mapG) {
      mapG = document.createElementNS(NS, "g");
      mapG.setAttribute("class", "turnable");
      Array.prototype.slice.call(svg.childNodes).forEach(function (n) {
        if (n.nodeType !== 1 || /^(defs|title|style)$/i.test(n.tagName) || n === overlay) return;
        mapG.appendChild(n);
      });
      svg.insertBefore(mapG, overlay || null);
    }
    turned = !!on;
    var dm = (svg.getAttribute("data-map") || "").split(" ").map(Number);
    mapC = dm.length === 4 ? { x: dm[0] + dm[2] / 2, y: dm[1] + dm[3] / 2 } : { x: vb.x + vb.width / 2, y: vb.y + vb.height / 2 };
    mapG.setAttribute("transform", turned ? "rotate(180 " + mapC.x + " " + mapC.y + ")" : "");
    Array.prototype.forEach.call(mapG.querySelectorAll("text"), function (t) {
      if (!t.hasAttribute("data-t0")) t.setAttribute("data-t0", t.getAttribute("transform") || "");
      var t0 = t.getAttribute("data-t0"), b = t.getBBox();
      var up = "rotate(180 " + (b.x + b.width / 2) + " " + (b.y + b.height / 2) + ")";
      if (turned) t.setAttribute("transform", (t0 ? t0 + " " : "") + up);
      else if (t0) t.setAttribute("transform", t0);
      else t.removeAttribute("transform");
    });
    var sw = $("hc-turn");
    if (sw) {
      sw.setAttribute("aria-pressed", turned ? "true" : "false");
      sw.textContent = "⇅";
      sw.title = turned ? "the board is turned to your side: show it as drawn" : "turn the board half round";
    }
    measureCells();
    if (typeof redraw === "function") redraw();
  }

  // ------------------------------------------------------------- a cell's name
  // A tap or the pointer on a cell names it beside the zoom buttons (the
  // board writes names on its edges only, the report uses them all).
  function cellAt(ev, any) {
    var m = svg.getScreenCTM();
    if (!m) return null;
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(m.inverse()), best = null, bd = Infinity;
    cellList().forEach(function (k) {
      var c = cells[k], d = Math.hypot(c.x - p.x, c.y - p.y);
      if (d < bd) { bd = d; best = k; }
    });
    if (best === null) return null;
    // forgiving: the nearest cell, within its own size or 22 CSS px of
    // its middle, whichever is more (a finger is about 44 px wide)
    var reach = Math.max(cells[best].r * 1.15, 22 / scaleOf(m));
    return (any || bd <= reach) ? best : null;
  }
  function nameCell(ev, tap) {
    var k = cellAt(ev, false), out = $("hc-cell");
    if (out) out.textContent = k === null ? "" : k;
    return k;
  }

  // ----------------------------------------------------------- zoom, pan
  var zoom = 1, first = null;
  for (var k0 in cells) { first = cells[k0]; break; }
  // The board's width at "fit": the column's width, and on a desktop no
  // taller than the screen.
  function fitWidth() {
    var w = scroller.clientWidth || 300;
    if (wide() && vb && vb.height) w = Math.min(w, boxHeight() * vb.width / vb.height);
    return Math.max(120, w);
  }
  // The board's box: on a desktop as tall as the screen below the zoom
  // buttons (the board and its buttons on one screen), on a phone 72% of
  // the screen when zoomed.
  function boxHeight() {
    if (!wide()) return Math.round(window.innerHeight * 0.72);
    return Math.max(300, window.innerHeight - (scroller.getBoundingClientRect().top + window.scrollY) - 12);
  }
  // The least zoom at which the board reads and taps: its smallest text
  // at least 11.5 CSS px and its cells at least 30 px apart (so a tap
  // 14 px off a cell's middle is still nearest to it).
  function readableZoom() {
    if (!vb || !vb.width) return 1;
    var s1 = fitWidth() / vb.width, z = 1;
    if (least) z = Math.max(z, 11.5 / (least * s1));
    if (pitch < Infinity) z = Math.max(z, 30 / (pitch * s1));
    return z;
  }
  // Zoomed in at most until a hex is about 90 px across, and never less
  // than needed to read it.
  function maxZoom() {
    if (!first || !vb) return 6;
    var px = first.r * 2 * fitWidth() / vb.width;
    return Math.max(1.5, 90 / px, readableZoom() * 1.5);
  }
  function setZoom(z) {
    zoom = Math.max(1, Math.min(maxZoom(), z));
    if (svg) svg.style.width = Math.round(fitWidth() * zoom) + "px";
    scroller.className = zoom > 1 ? "scroll zoomed" : "scroll";
    scroller.style.maxHeight = wide() ? boxHeight() + "px" : "";
    $("hc-zoom-level").textContent = Math.round(zoom * 100) + "%";
  }
  // The point of the board at the middle of the scroll box.
  function middle() {
    var m = svg && svg.getScreenCTM(), s = scroller.getBoundingClientRect();
    return m ? { x: (s.left + scroller.clientWidth / 2 - m.e) / m.a, y: (s.top + scroller.clientHeight / 2 - m.f) / m.d } : null;
  }
  // Scroll so that the point (x, y) of the board stands at (sx, sy) of
  // the screen (the scroll box's middle by default).
  function centreAt(x, y, sx, sy) {
    if (!svg) return;
    var m = svg.getScreenCTM(), s = scroller.getBoundingClientRect();
    if (!m) return;
    var px = m.a * x + m.c * y + m.e, py = m.b * x + m.d * y + m.f;
    scroller.scrollLeft += px - (sx === undefined ? s.left + scroller.clientWidth / 2 : sx);
    scroller.scrollTop += py - (sy === undefined ? s.top + scroller.clientHeight / 2 : sy);
  }
  function centreOn(cell) {
    var c = cells[cell];
    if (c && zoom > 1) centreAt(c.x, c.y);
  }
  // The player's own pieces (D.mine) as the screen shows them: the part
  // the scroll box shows at this zoom placed to hold the most of them.
  function mineCells() { return (D.mine || []).filter(function (k) { return cells[k]; }).map(function (k) { return cells[k]; }); }
  function mineBox(list) {
    var b = null;
    (list || mineCells()).forEach(function (c) {
      if (!b) b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      b.x0 = Math.min(b.x0, c.x - c.r); b.y0 = Math.min(b.y0, c.y - c.r);
      b.x1 = Math.max(b.x1, c.x + c.r); b.y1 = Math.max(b.y1, c.y + c.r);
    });
    return b;
  }
  // The board opens where it reads and taps (readableZoom), on the
  // player's own pieces: all of them where they fit, else the part of the
  // map that holds the most (the board's own units), centred on them; the
  // page is scrolled so that the board's box is on the screen.
  function showMine() {
    if (!svg || !vb) return;
    setZoom(readableZoom());
    var mine = mineCells(), b = mineBox(mine);
    if (!b) { scroller.scrollLeft = 0; scroller.scrollTop = 0; return; }
    var m = svg.getScreenCTM(), k = m ? scaleOf(m) : 1;
    var vw = scroller.clientWidth / k, vh = scroller.clientHeight / k;
    if (b.x1 - b.x0 > vw || b.y1 - b.y0 > vh) {
      // the window holding the most pieces, placed at each piece in turn
      var best = -1;
      mine.forEach(function (c) {
        var x0 = c.x - vw / 2, y0 = c.y - vh / 2;
        var inside = mine.filter(function (o) { return o.x >= x0 + o.r && o.x <= x0 + vw - o.r && o.y >= y0 + o.r && o.y <= y0 + vh - o.r; });
        if (inside.length > best) { best = inside.length; b = mineBox(inside); }
      });
    }
    centreAt((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
    var box = scroller.getBoundingClientRect(), room = window.innerHeight;
    if (box.top < 0 || box.bottom > room) window.scrollBy(0, box.height > room ? box.top : box.top - Math.max(0, (room - box.height) / 2));
  }
  function zoomBy(k) {
    var mid = middle();
    setZoom(zoom * k);
    if (k > 1 && typeof sel !== "undefined" && sel && live) centreOn(check(list).pos[sel]);
    else if (mid) centreAt(mid.x, mid.y);
  }
  $("hc-zoom-in").addEventListener("click", function () { zoomBy(1.5); });
  $("hc-zoom-out").addEventListener("click", function () { zoomBy(1 / 1.5); });
  $("hc-zoom-fit").addEventListener("click", function () { setZoom(1); });
  $("hc-zoom-mine").addEventListener("click", function () { showMine(); });
  // the part shown stays shown, now seen from the other side
  if ($("hc-turn")) $("hc-turn").addEventListener("click", function () {
    var mid = middle();
    turnBoard(!turned);
    if (mid && mapC) centreAt(2 * mapC.x - mid.x, 2 * mapC.y - mid.y);
  });
  window.addEventListener("resize", function () { setZoom(zoom); });
  // Pinch: two fingers on the board zoom it about the point between them
  // (the page itself does not zoom there: the box's touch-action).
  var pinch = null;
  function two(e) {
    var a = e.touches[0], b = e.touches[1];
    return { d: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 };
  }
  scroller.addEventListener("touchstart", function (e) {
    if (e.touches.length !== 2 || !svg) return;
    var t = two(e), m = svg.getScreenCTM();
    if (!m) return;
    pinch = { d: t.d || 1, z: zoom, p: { x: (t.x - m.e) / m.a, y: (t.y - m.f) / m.d } };
    e.preventDefault();
  }, { passive: false });
  scroller.addEventListener("touchmove", function (e) {
    if (!pinch || e.touches.length !== 2) return;
    e.preventDefault();
    var t = two(e);
    setZoom(pinch.z * t.d / pinch.d);
    centreAt(pinch.p.x, pinch.p.y, t.x, t.y);
  }, { passive: false });
  scroller.addEventListener("touchend", function (e) { if (e.touches.length < 2) pinch = null; });
  if (svg) {
    if (D.turned) turnBoard(true);
    showMine();
  }
  if (!mineBox() && $("hc-zoom-mine")) $("hc-zoom-mine").style.display = "none";
  if ($("hc-turn") && !svg) $("hc-turn").style.display = "none";
  foldText();

  // ------------------------------------------------------------ the text
  // The report's words wrap to the screen (the page's style). The board
  // drawn as text (D.board_lines) is a picture of letters that cannot
  // wrap: it folds into a box of its own under the words before it, and
  // scrolls there; the board above shows it. The page's file keeps the
  // text whole in #report (what `verify --witness` reads); only what the
  // screen shows is split.
  function foldText() {
    var pre = $("report"), bl = D.board_lines;
    if (!pre || !bl) return;
    var lines = pre.textContent.split("\n");
    if (bl[0] + bl[1] > lines.length) return;
    var width = 0;
    lines.slice(bl[0], bl[0] + bl[1]).forEach(function (l) { width = Math.max(width, l.length); });
    var det = el("details", { class: "ascii" });
    det.appendChild(el("summary", {}, "The board as text (" + width + " columns; the board above draws it)"));
    // the box scrolls; the letters in it keep their width
    var sc = el("div", { class: "ascii-scroll" });
    sc.appendChild(el("pre", {}, lines.slice(bl[0], bl[0] + bl[1]).join("\n")));
    det.appendChild(sc);
    var rest = el("pre", { class: "report-rest" }, lines.slice(bl[0] + bl[1]).join("\n"));
    pre.textContent = lines.slice(0, bl[0]).join("\n");
    pre.parentNode.insertBefore(rest, pre.nextSibling);
    pre.parentNode.insertBefore(det, rest);
  }
  // ---------------------------------------------------------------- data
  var O = D.orders;
  if (!D.due || !O) {
    $("hc-state").textContent = D.due
      ? "Orders are due from you, but this page cannot compose them: use the order form below."
      : "No orders are due from you now.";
    root.className = "idle";
    return;
  }
  var pieces = {}, pieceOrder = [];
  O.pieces.forEach(function (p) { pieces[p.id] = p; pieceOrder.push(p.id); });
  function sub(s, c) { return s.split("{c}").join(c); }
  var options = [];
  O.choices.forEach(function (c) {
    var cells = c.over ? (O.lists[c.over] || []) : [null];
    cells.forEach(function (cell) {
      var to = cell === null ? (c.to || null) : cell;
      var f = function (list) { return (list || []).map(function (k) { return cell === null ? k : sub(k, cell); }); };
      options.push({
        kind: "choice",
        piece: c.piece || null,
        text: cell === null ? c.text : sub(c.text, cell),
        to: to,
        from: c.from || null,
        mark: c.mark,
        stage: c.stage || 0,
        cost: c.cost || 0,
        alone: !!c.alone,
        moves: !!c.moves,
        uses: f(c.uses),
        needs: f(c.needs),
        gives: f(c.gives),
        wants: f(c.wants),
        note: c.note || null
      });
    });
  });
  var gathers = O.gathers || [];
  function prefix(k) { var i = k.indexOf(":"); return i < 0 ? k : k.slice(0, i); }
  function cap(k) { return (O.capacity && O.capacity[k] !== undefined) ? O.capacity[k] : 1; }

  // --------------------------------------------------------------- rules
  var list = [];          // the orders given, in the order given
  var sel = null;         // the selected piece's id
  var gathering = null;   // {g, members: [], advance}

  function gatherEntry(g, members, advance) {
    var text = g.text + " " + members.join(" ") + (advance ? " advance " + advance : "");
    return {
      kind: "gather", g: g, members: members.slice(), advance: advance || null,
      piece: null, text: text, to: g.target, mark: "attack", stage: g.stage || 0,
      cost: 0, alone: false, moves: false,
      uses: g.uses.concat(members.map(function (m) { return g.member + ":" + m; })),
      needs: [], gives: [], wants: [], note: null
    };
  }
  // The file's order: by stage, then as given.
  function sequence(entries) {
    return entries.map(function (e, i) { return [e, i]; })
      .sort(function (a, b) { return (a[0].stage - b[0].stage) || (a[1] - b[1]); })
      .map(function (x) { return x[0]; });
  }
  function startPos() {
    var pos = {};
    pieceOrder.forEach(function (id) { pos[id] = pieces[id].at || null; });
    return pos;
  }
  // Every problem of every order, in the file's order.
  function check(entries) {
    var seq = sequence(entries), used = {}, given = {}, pos = startPos(), cost = 0;
    var probs = new Map(), at = new Map();
    seq.forEach(function (e) {
      var p = [];
      if (e.alone && entries.length > 1) p.push("“" + e.text + "” stands alone: it is the whole turn, so it is the only order");
      e.needs.forEach(function (k) {
        if (!given[k]) p.push((O.need_why && O.need_why[prefix(k)]) || ("it needs " + k + " first"));
      });
      e.uses.forEach(function (k) {
        var u = used[k] || [];
        if (u.length >= cap(k)) p.push((O.why[prefix(k)] || "it clashes with another order") + " (“" + u[0].text + "”)");
      });
      if (e.kind === "gather") {
        e.members.forEach(function (m) {
          var r = reachOf(e.g, m, pos);
          if (!r) p.push(m + " does not reach " + e.g.target + " from " + (pos[m] || "where it is"));
        });
        if (e.advance && reachOf(e.g, e.advance, pos) !== "close") p.push(e.advance + " is not in contact with " + e.g.target + ", so it cannot advance");
        if (!e.members.length) p.push("no unit joins the attack");
      }
      if (O.budget) {
        cost += e.cost;
        if (cost > O.budget.total) p.push("these orders cost " + cost + " " + O.budget.unit + " and you have " + O.budget.total);
      }
      probs.set(e, p);
      at.set(e, e.from || (e.piece ? pos[e.piece] : null));
      e.uses.forEach(function (k) { (used[k] = used[k] || []).push(e); });
      e.gives.forEach(function (k) { given[k] = true; });
      if (e.moves && e.piece) pos[e.piece] = e.to;
      if (e.kind === "gather") e.members.forEach(function (m) { at.set(e.text + "|" + m, pos[m]); });
    });
    return { seq: seq, probs: probs, pos: pos, cost: cost, at: at, used: used, warns: warnings(seq) };
  }
  // Orders that will fail when the turn is resolved, and why: an order
  // wants keys that other orders give, and an order that fails gives
  // nothing, so a failure carries down a chain (a ring of orders wanting
  // each other's keys all succeed). A warning, not a refusal.
  function warnings(seq) {
    var failing = new Set(), out = new Map();
    for (;;) {
      var given = {};
      seq.forEach(function (e) {
        if (!failing.has(e)) e.gives.forEach(function (k) { (given[k] = given[k] || []).push(e); });
      });
      var more = seq.filter(function (e) {
        return !failing.has(e) && e.wants.some(function (k) {
          return !(given[k] || []).some(function (x) { return x !== e; });
        });
      });
      if (!more.length) break;
      more.forEach(function (e) { failing.add(e); });
    }
    failing.forEach(function (e) {
      var why = e.wants.map(function (k) { return (O.want_why && O.want_why[prefix(k)]) || ("no order of yours gives " + k); });
      out.set(e, why.filter(function (w, i) { return why.indexOf(w) === i; }));
    });
    return out;
  }
  // The odds of gathered attack `g` by `members` where the orders leave
  // them (`pos`): their strengths (doubled within the leader's reach),
  // summed; the odds column for the sum against the target's defence; the
  // result of each die face. Every number comes from the game (O.combat,
  // g.odds); the page adds them up and looks them up.
  function forecast(g, members, pos) {
    var C = O.combat, od = g.odds;
    if (!C || !od) return null;
    var lead = C.boost ? C.boost.leader : null, lpos = lead ? pos[lead] : null;
    var near = (C.boost && lpos && C.boost.reach[lpos]) || [];
    var parts = [];
    members.forEach(function (m) {
      var s = C.strength[m];
      if (!s) return;
      var boosted = m !== lead && near.indexOf(pos[m]) >= 0;
      parts.push({ m: m, at: pos[m], value: s[boosted ? 1 : 0].value, how: s[boosted ? 1 : 0].how });
    });
    var a = parts.reduce(function (t, p) { return t + p.value; }, 0), col = null;
    od.columns.forEach(function (c) { if (a >= c[0]) col = c[1]; });
    return {
      parts: parts, attack: a, defence: od.defence, odds: col === null ? null : C.columns[col],
      results: col === null ? [] : od.rows.map(function (row) { return C.table[row][col]; })
    };
  }
  function forecastText(f, g) {
    if (!f || f.odds === null) return null;
    return "attack " + f.attack + " against " + f.defence + ", odds " + f.odds + "; die" +
      (g.odds.modifier ? " (" + g.odds.modifier + ", at most 6)" : "") + ": " +
      f.results.map(function (r, i) { return (i + 1) + " " + r; }).join(", ");
  }
  // How piece `m` reaches gather `g` from where it stands: "close", "far" or null.
  function reachOf(g, m, pos) {
    var p = pieces[m];
    if (!p || !p.reach) return null;
    var c = pos[m];
    if (g.close.indexOf(c) >= 0) return "close";
    if (p.reach >= 2 && (g.far || []).indexOf(c) >= 0) return "far";
    return null;
  }
  function problemsOf(entries, e) { return check(entries).probs.get(e) || []; }
  function acceptable(e) {
    var next = list.concat([e]), r = check(next);
    var mine = r.probs.get(e);
    if (mine.length) return mine;
    var broken = next.filter(function (x) { return r.probs.get(x).length; });
    if (broken.length) return ["it would break “" + broken[0].text + "”: " + r.probs.get(broken[0])[0]];
    return [];
  }
  function add(e) {
    if (list.some(function (x) { return x.text === e.text; })) { say("“" + e.text + "” is already in your orders.", true); return false; }
    var why = acceptable(e);
    if (why.length) { say("Refused: “" + e.text + "”: " + why.join("; ") + ".", true); return false; }
    list.push(e);
    var w = check(list).warns.get(e);
    say("Added “" + e.text + "”." + (e.note ? " " + e.note + "." : "") + (w ? " Warning: " + w.join("; ") + "." : ""), !!w);
    var p = e.piece && pieces[e.piece];
    sel = null;
    if (p && !p.at) {
      // placing pieces from beside the board: the next one is picked
      var next = pieceOrder.filter(function (id) {
        return !pieces[id].at && !given(id) && optionsOf(id).length;
      })[0];
      if (next) sel = next;
    }
    render();
    return true;
  }
  function remove(e) {
    list = list.filter(function (x) { return x !== e; });
    var gone = [];
    for (;;) {
      var r = check(list);
      var bad = list.filter(function (x) { return r.probs.get(x).length; });
      if (!bad.length) break;
      bad.forEach(function (b) { gone.push("“" + b.text + "” (" + r.probs.get(b)[0] + ")"); });
      list = list.filter(function (x) { return bad.indexOf(x) < 0; });
    }
    say("Removed “" + e.text + "”" + (gone.length ? "; also removed " + gone.join(", ") : "") + ".");
    render();
  }
  // What to do first, as the pieces that take orders stand: on the board,
  // off it (listed under this line, wherever the panel stands), or none.
  function firstPrompt() {
    var on = pieceOrder.some(function (id) { return pieces[id].at && optionsOf(id).length; });
    var off = pieceOrder.some(function (id) { return !pieces[id].at && optionsOf(id).length; });
    if (on && off) return "Tap one of your pieces on the board, or pick one off the board below.";
    if (on) return "Tap one of your pieces on the board.";
    if (off) return "Pick one of your pieces off the board below, then tap where it goes.";
    return "Pick an order for the whole turn below.";
  }
  function given(id) { return list.some(function (e) { return e.piece === id; }); }
  function optionsOf(id) { return options.filter(function (o) { return o.piece === id; }); }
  function missing() {
    if (list.some(function (e) { return e.alone; })) return [];
    var r = check(list);
    return (O.required || []).filter(function (q) { return !r.used[q.key]; }).map(function (q) { return q.why; });
  }

  // ------------------------------------------------------- planned orders
  // The orders given are drawn over the board in a colour and a style of
  // their own (blue dashes for moves, purple for attacks, rings and words
  // in the same colours), never in the black and red of last turn's
  // arrows the board draws, and never over a piece's label or a cell's
  // name: a dash, an arc or a word that would meet one (their boxes) is
  // left out or set aside. The legend says what they are.
  var PLAN = { move: "#1d4ed8", attack: "#7e22ce", other: "#1d4ed8" };
  if (svg) {
    overlay = document.createElementNS(NS, "g");
    overlay.setAttribute("class", "plan");
    svg.appendChild(overlay);
    svg.addEventListener("click", function (ev) {
      var k = nameCell(ev, true);
      if (live && k !== null) clickCell(k);
    });
    planLegend();
  }
  function shape(tag, attrs, into) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    (into || overlay).appendChild(e);
    return e;
  }
  function meets(b, pad) {
    pad = pad || 0;
    return keep.some(function (k) {
      return b.x - pad < k.x + k.w && b.x + b.w + pad > k.x && b.y - pad < k.y + k.h && b.y + b.h + pad > k.y;
    });
  }
  // A word beside cell c: above it, below, left, right, farther out, the
  // first place where it meets no label.
  function label(c, text, colour, into, size) {
    // never smaller than the smallest word the board writes: it reads
    // wherever the board does
    size = size || Math.max(9, c.r * 0.42, least || 0);
    var t = shape("text", { "class": "plan-word", "font-size": size, "text-anchor": "middle", fill: colour || PLAN.other, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, into);
    t.textContent = text;
    var spots = [[0, -1.05], [0, 1.35], [-1.3, 0.15], [1.3, 0.15], [0, -1.7], [0, 2], [-1.9, 0.15], [1.9, 0.15]];
    for (var i = 0; i < spots.length; i++) {
      t.setAttribute("x", c.x + spots[i][0] * c.r);
      t.setAttribute("y", c.y + spots[i][1] * c.r);
      if (into || !meets(t.getBBox(), 1)) return t;
    }
    return t;
  }
  // Dashes from a to b, each left out where it meets a label, and a head
  // at the end pointing at b: a planned move or attack.
  // Where a straight line would lose most of its dashes to labels (a
  // move straight down a column of names), it runs a little to one side.
  function dashes(a, b, colour, from, to, into) {
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
    var w = Math.max(2.5, a.r * 0.2), dash = Math.max(w * 2.2, a.r * 0.32), gap = dash * 0.6;
    var end = len - to - w * 2.4;
    function kept(off) {
      var out = [], ox = -uy * off, oy = ux * off;
      for (var s = from; s + dash <= end + 0.01; s += dash + gap) {
        var x1 = a.x + ox + ux * s, y1 = a.y + oy + uy * s, x2 = a.x + ox + ux * (s + dash), y2 = a.y + oy + uy * (s + dash);
        var bx = { x: Math.min(x1, x2) - w / 2, y: Math.min(y1, y2) - w / 2, w: Math.abs(x2 - x1) + w, h: Math.abs(y2 - y1) + w };
        out.push({ x1: x1, y1: y1, x2: x2, y2: y2, ok: into || !meets(bx) });
      }
      return out;
    }
    var best = null, bestOff = 0;
    [0, a.r * 0.42, -a.r * 0.42].forEach(function (off) {
      var k = kept(off), n = k.filter(function (d) { return d.ok; }).length;
      if (!best || n > best.n + (off ? 1 : 0)) { best = { k: k, n: n }; bestOff = off; }
    });
    best.k.forEach(function (d) {
      if (d.ok) shape("line", { "class": "plan-dash", x1: d.x1, y1: d.y1, x2: d.x2, y2: d.y2, stroke: colour, "stroke-width": w, "stroke-linecap": "butt" }, into);
    });
    a = { x: a.x - uy * bestOff, y: a.y + ux * bestOff };
    // the head: a triangle at the end, moved back toward a until it
    // meets no label
    var hl = w * 2.6, hw = w * 1.7;
    for (var e = Math.max(from + hl, end + hl); e > from + hl * 0.9; e -= hl * 0.5) {
      var tx = a.x + ux * e, ty = a.y + uy * e, bx2 = tx - ux * hl, by2 = ty - uy * hl;
      var pts = [[tx, ty], [bx2 - uy * hw, by2 + ux * hw], [bx2 + uy * hw, by2 - ux * hw]];
      var xs = pts.map(function (p) { return p[0]; }), ys = pts.map(function (p) { return p[1]; });
      var box = { x: Math.min.apply(null, xs), y: Math.min.apply(null, ys), w: Math.max.apply(null, xs) - Math.min.apply(null, xs), h: Math.max.apply(null, ys) - Math.min.apply(null, ys) };
      if (!into && meets(box)) continue;
      shape("polygon", { "class": "plan-head", points: pts.map(function (p) { return p[0] + "," + p[1]; }).join(" "), fill: colour }, into);
      return;
    }
  }
  // A dashed ring round cell c, in arcs, those meeting a label left out:
  // a piece placed, a target attacked.
  function ring(c, colour, into) {
    var rr = c.r * 0.8, w = Math.max(2.5, c.r * 0.14), n = 12;
    for (var i = 0; i < n; i++) {
      var a0 = (i + 0.15) * 2 * Math.PI / n, a1 = (i + 0.85) * 2 * Math.PI / n;
      var p0 = { x: c.x + rr * Math.cos(a0), y: c.y + rr * Math.sin(a0) }, p1 = { x: c.x + rr * Math.cos(a1), y: c.y + rr * Math.sin(a1) };
      var box = { x: Math.min(p0.x, p1.x) - w / 2, y: Math.min(p0.y, p1.y) - w / 2, w: Math.abs(p1.x - p0.x) + w, h: Math.abs(p1.y - p0.y) + w };
      if (!into && meets(box)) continue;
      shape("path", { "class": "plan-arc", d: "M" + p0.x + " " + p0.y + "A" + rr + " " + rr + " 0 0 1 " + p1.x + " " + p1.y, fill: "none", stroke: colour, "stroke-width": w }, into);
    }
  }
  // The legend's entries for the marks the composer may draw now.
  function planLegend() {
    if (!D.due || !D.orders) return;
    var box = $("hc-legend");
    if (!box) return;
    var marks = {};
    (D.orders.choices || []).forEach(function (c) { marks[c.mark || "other"] = true; });
    if ((D.orders.gathers || []).length) marks.attack = true;
    var entries = [];
    var unit = first ? first.r : 20, a = { x: 0, y: 0, r: unit }, b = { x: unit * 3, y: 0, r: unit };
    if (marks.move || marks.turn) entries.push(["blue dashes: a move or a turn you have planned (not sent yet)", function (g) { dashes(a, b, PLAN.move, 0, 0, g); }]);
    if (marks.attack) entries.push(["purple dashes and ring: an attack you have planned (not sent yet)", function (g) { dashes(a, b, PLAN.attack, 0, unit * 0.9, g); ring({ x: b.x, y: 0, r: unit * 0.8 }, PLAN.attack, g); }]);
    if (marks.place) entries.push(["blue dashed ring: a piece you plan to place there", function (g) { ring({ x: unit * 1.5, y: 0, r: unit }, PLAN.move, g); }]);
    if (marks.scout) entries.push(["violet dots: a scout you have planned", function (g) { dashes(a, b, "#7a4bb0", 0, 0, g); }]);
    entries.push(["blue word beside a piece: its planned order (hold, fortify…)", function (g) { label({ x: unit * 1.5, y: unit * 0.6, r: unit }, "hold", PLAN.other, g, unit * 0.9); }]);
    entries.push(["these orders appear as you give them; last turn's moves and attacks stay black and red", null]);
    var h = el("p", { class: "legend-caption plan-head-line" }, "Your orders on the board (planned, not yet sent)");
    var ul = el("ul", { class: "legend-list plan-legend" });
    entries.forEach(function (e) {
      var li = el("li", { "data-explains": "plan" });
      if (e[1]) {
        var pic = document.createElementNS(NS, "svg");
        pic.setAttribute("viewBox", (-unit * 0.4) + " " + (-unit * 1.2) + " " + (unit * 4) + " " + (unit * 2.4));
        pic.setAttribute("width", 80); pic.setAttribute("height", 48);
        pic.setAttribute("class", "legend-sample-pic");
        ["font-family", "font-weight"].forEach(function (x) { if (svg.getAttribute(x)) pic.setAttribute(x, svg.getAttribute(x)); });
        var g = document.createElementNS(NS, "g");
        pic.appendChild(g);
        e[1](g);
        li.appendChild(pic);
      }
      li.appendChild(el("span", { class: "legend-words" }, e[0]));
      ul.appendChild(li);
    });
    box.appendChild(h);
    box.appendChild(ul);
    box.hidden = false;
  }
  function redraw() { if (live) render(); }
  function drawBoard(r) {
    if (!overlay) return;
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    r.seq.forEach(function (e) {
      if (e.kind === "gather") {
        var t = cells[e.g.target];
        if (!t) return;
        e.members.forEach(function (m) {
          var a = cells[r.at.get(e.text + "|" + m)];
          if (a) dashes(a, t, PLAN.attack, a.r * 0.55, t.r * 0.85);
        });
        ring(t, PLAN.attack);
        return;
      }
      var from = cells[r.at.get(e)], to = e.to ? cells[e.to] : null;
      var words = e.piece ? e.text.replace(e.piece + " ", "") : e.text;
      if (e.mark === "place" && to) {
        ring(to, PLAN.move);
        label(to, pieces[e.piece] && !pieces[e.piece].at ? e.piece : words, PLAN.move);
      } else if ((e.mark === "move" || e.mark === "attack") && from && to) {
        var red = e.mark === "attack";
        dashes(from, to, red ? PLAN.attack : PLAN.move, from.r * 0.55, to.r * (red ? 0.7 : 0.55));
      } else if (e.mark === "scout" && from && to) {
        dashes(from, to, "#7a4bb0", from.r * 0.55, to.r * 0.55);
        label(to, "scout", "#7a4bb0");
      } else if (e.mark === "turn" && from) {
        // a turn: a blue wedge just off the piece, where it will face
        if (to) dashes(from, { x: from.x + (to.x - from.x) * 0.62, y: from.y + (to.y - from.y) * 0.62, r: from.r }, PLAN.move, from.r * 0.62, -from.r * 0.5);
        else label(from, e.text.split(" ").pop());
      } else if (from) {
        label(from, words);
      }
    });
    // the selection and where it may go: a ring round the piece, a dot on
    // each empty cell it may go to and a ring round each piece it may
    // attack (never a fill over a label)
    if (sel && pieces[sel]) {
      var c = cells[r.pos[sel]];
      if (c) shape("circle", { class: "sel", cx: c.x, cy: c.y, r: c.r * 0.9, fill: "none", stroke: "#0b7a43", "stroke-width": Math.max(3, c.r * 0.14) });
      targets(sel).forEach(function (o) { highlight(o.to, o.mark === "attack" ? "#c0122c" : "#0b7a43", 0.45); });
    }
    if (gathering) {
      var g = gathering.g, tc = cells[g.target];
      if (tc) shape("circle", { class: "sel", cx: tc.x, cy: tc.y, r: tc.r * 0.9, fill: "none", stroke: PLAN.attack, "stroke-width": Math.max(3, tc.r * 0.14) });
      candidates(g, r.pos).forEach(function (m) {
        var on = gathering.members.indexOf(m) >= 0;
        highlight(r.pos[m], on ? PLAN.attack : "#e08a00", on ? 0.7 : 0.45);
      });
    }
  }
  function highlight(cell, colour, opacity) {
    var t = cells[cell];
    if (!t) return;
    var b = { x: t.x - t.r * 0.3, y: t.y - t.r * 0.3, w: t.r * 0.6, h: t.r * 0.6 };
    if (meets(b)) shape("circle", { class: "hl", "data-to": cell, cx: t.x, cy: t.y, r: t.r * 0.72, fill: "none", stroke: colour, "stroke-opacity": Math.min(1, opacity + 0.35), "stroke-width": Math.max(3, t.r * 0.16) });
    else shape("circle", { class: "hl", "data-to": cell, cx: t.x, cy: t.y, r: t.r * 0.3, fill: colour, "fill-opacity": opacity, stroke: "#fff", "stroke-width": 1.5 });
  }
  // The selected piece's orders that would be accepted now, with a cell.
  function targets(id) {
    return optionsOf(id).filter(function (o) {
      return o.to && !list.some(function (x) { return x.text === o.text; }) && !acceptable(o).length;
    });
  }
  // Pieces that could join gather g now (not yet attacking elsewhere).
  function candidates(g, pos) {
    return pieceOrder.filter(function (m) { return reachOf(g, m, pos); });
  }
  // The pieces standing on a cell now, as the orders given leave them.
  function piecesAt(cell, pos) {
    var here = pieceOrder.filter(function (id) { return pos[id] === cell && optionsOf(id).length; });
    if (here.length) return here;
    return pieceOrder.filter(function (id) { return pieces[id].at === cell && optionsOf(id).length; });
  }
  function clickCell(cell) {
    var r = check(list);
    if (gathering) {
      var g = gathering.g;
      var who = candidates(g, r.pos).filter(function (m) { return r.pos[m] === cell; });
      if (who.length) { toggleMember(who[0]); return; }
      if (cell === g.target) { say("Tap your units that join the attack on " + g.target + ", then “Add the attack”."); return; }
      say("No unit of yours on " + cell + " can join the attack on " + g.target + ".", true);
      return;
    }
    var here = piecesAt(cell, r.pos);
    if (sel) {
      var opts = optionsOf(sel).filter(function (o) {
        return o.to === cell && !list.some(function (x) { return x.text === o.text; });
      });
      var ok = opts.filter(function (o) { return !acceptable(o).length; });
      // another piece of yours there: the tap selects it, and the orders
      // the tap could also mean are offered beside its own
      var other = here.filter(function (id) { return id !== sel && pieces[id].at === cell && r.pos[id] === cell; });
      if (other.length && opts.length) {
        var was = sel;
        select(other.filter(function (id) { return !given(id); })[0] || other[0]);
        var box = $("hc-options");
        box.appendChild(el("p", { class: "hint" }, "Or an order of " + (pieces[was].label || was) + " toward " + cell + ":"));
        var shown = ok.length ? ok : opts;
        shown.forEach(function (o) { box.appendChild(optionButton(o)); });
        // the orders offered are buttons, not yet orders: no word says
        // they are in the list
        say("Selected " + (pieces[sel].label || sel) + ". To give " + (pieces[was].label || was) +
          " an order toward " + cell + " instead, use " + (shown.length === 1 ? "the button" : "a button") + " below, under Or an order of " + (pieces[was].label || was) + ".");
        return;
      }
      if (ok.length === 1) { add(ok[0]); return; }
      if (ok.length > 1) { chooser(ok); return; }
      // only refused ones: say why
      if (opts.length) { add(opts[0]); return; }
    }
    if (here.length) {
      // two pieces on one hex (one moved in, one not yet ordered away):
      // the one still waiting for an order first; tapping again, the next
      var i = here.indexOf(sel), free = here.filter(function (id) { return !given(id); });
      select(i >= 0 ? here[(i + 1) % here.length] : (free.length ? free : here)[0]);
      if (here.length > 1) say(here.length + " of your pieces on " + cell + ": " + here.map(function (id) { return pieces[id].label || id; }).join(", ") + ". Tap the hex again for the next one.");
      return;
    }
    var gs = gathers.filter(function (x) { return x.target === cell; });
    if (gs.length) { startGather(gs[0]); return; }
    // a cell that a piece beside the board takes an order on (Stack Wars:
    // your baseline, from your reserve): point to that piece
    var off = pieceOrder.filter(function (id) {
      return !pieces[id].at && id !== sel && optionsOf(id).some(function (o) { return o.to === cell && !acceptable(o).length; });
    });
    if (off.length) {
      var o1 = optionsOf(off[0]).filter(function (o) { return o.to === cell; })[0];
      select(off[0]);
      say("“" + o1.text + "” is an order of " + (pieces[off[0]].label || off[0]) + " (beside the board): selected it; tap " + cell + " again to give it.");
      return;
    }
    if (sel) say((pieces[sel].label || sel) + " has no order that points at " + cell + ": tap a highlighted hex, or pick from the list.", true);
    else say("Nothing of yours takes an order on " + cell + ".", true);
  }
  function select(id) {
    gathering = null;
    sel = id;
    say("");
    render();
    centreOn(check(list).pos[id]);
  }
  function startGather(g) {
    sel = null;
    gathering = { g: g, members: [], advance: null };
    say("Attack on " + g.target + ": tap the units that join.");
    render();
  }
  function toggleMember(m) {
    var i = gathering.members.indexOf(m);
    if (i >= 0) {
      gathering.members.splice(i, 1);
      if (gathering.advance === m) gathering.advance = null;
    } else {
      var used = check(list).used[gathering.g.member + ":" + m];
      if (used) { say("Refused: " + m + ": " + O.why[gathering.g.member] + " (“" + used[0].text + "”).", true); return; }
      gathering.members.push(m);
      say("");
    }
    render();
  }
  function chooser(opts) {
    var box = $("hc-options");
    box.textContent = "";
    box.appendChild(el("p", { class: "hint" }, "Which order?"));
    opts.forEach(function (o) { box.appendChild(optionButton(o)); });
  }

  // ------------------------------------------------------------- the page
  function optionButton(o) {
    var why = list.some(function (x) { return x.text === o.text; }) ? ["it is already in your orders"] : acceptable(o);
    var b = el("button", { type: "button", class: why.length ? "opt blocked" : "opt", "data-order": o.text }, o.text);
    if (o.cost) b.textContent += " (" + o.cost + " " + (O.budget ? O.budget.unit : "") + ")";
    if (why.length) b.title = why.join("; ");
    b.addEventListener("click", function () { add(o); });
    return b;
  }
  function render() {
    var r = check(list);
    drawBoard(r);
    // the selection's orders, or the attack being gathered
    var head = $("hc-pick-head"), box = $("hc-options"), oddsBox = $("hc-odds");
    box.textContent = "";
    oddsBox.textContent = "";
    oddsBox.hidden = true;
    $("hc-pick").className = (sel || gathering) ? "pick live-only active" : "pick live-only";
    // on a phone the state line and the panel stick to the screen's foot
    // together while something is selected (the page's style)
    $("hc-dock").className = (sel || gathering) ? "dock active" : "dock";
    if (gathering) {
      var g = gathering.g;
      head.textContent = "Attack " + g.target + ": tap the units that join";
      var cands = candidates(g, r.pos);
      if (!cands.length) box.appendChild(el("p", { class: "hint" }, "None of your units reaches " + g.target + " where they stand."));
      cands.forEach(function (m) {
        var on = gathering.members.indexOf(m) >= 0;
        var b = el("button", { type: "button", class: on ? "opt on" : "opt", "data-member": m }, (on ? "✓ " : "") + m + " (" + r.pos[m] + ")");
        b.addEventListener("click", function () { toggleMember(m); });
        box.appendChild(b);
      });
      if (g.advance) {
        var close = gathering.members.filter(function (m) { return reachOf(g, m, r.pos) === "close"; });
        if (close.length) {
          box.appendChild(el("p", { class: "hint" }, "Advance into " + g.target + " if it is emptied:"));
          [null].concat(close).forEach(function (m) {
            var on = gathering.advance === m;
            var b = el("button", { type: "button", class: on ? "opt on" : "opt", "data-advance": m || "none" }, m ? "advance " + m : "no advance");
            b.addEventListener("click", function () { gathering.advance = m; render(); });
            box.appendChild(b);
          });
        }
      }
      showOdds(g, gathering.members, r.pos);
      var ok = el("button", { type: "button", class: "act", id: "hc-gather-add" }, "Add the attack");
      ok.addEventListener("click", function () {
        var e = gatherEntry(g, gathering.members, gathering.advance);
        gathering = null;
        if (!add(e)) { gathering = { g: g, members: e.members, advance: e.advance }; render(); }
      });
      var no = el("button", { type: "button", class: "act", id: "hc-gather-cancel" }, "Cancel");
      no.addEventListener("click", function () { gathering = null; say(""); render(); });
      box.appendChild(ok);
      box.appendChild(no);
    } else if (sel) {
      var p = pieces[sel];
      var mine = optionsOf(sel), pointed = mine.filter(function (o) { return o.to; });
      head.textContent = p.label + ": " + (p.prompt || (pointed.length ? "tap a highlighted hex" : "pick an order"));
      // a long list of hexes is tapped on the board, not read as buttons
      mine.forEach(function (o) { if (!o.to || pointed.length <= 24) box.appendChild(optionButton(o)); });
      if (pointed.length > 24) box.appendChild(el("p", { class: "hint" }, targets(sel).length + " highlighted hexes to choose from."));
      // what the orders that say so will do (a push's strengths, an assault)
      mine.filter(function (o) { return o.note && !acceptable(o).length; }).slice(0, 12).forEach(function (o) {
        box.appendChild(el("p", { class: "note" }, o.text + ": " + o.note));
      });
      var clear = el("button", { type: "button", class: "act" }, "Done");
      clear.addEventListener("click", function () { sel = null; say(""); render(); });
      box.appendChild(clear);
    } else {
      head.textContent = O.prompt || firstPrompt();
    }
    // pieces beside the board and orders for the whole turn
    var tray = $("hc-tray");
    tray.textContent = "";
    var offBoard = 0, whole = 0;
    pieceOrder.forEach(function (id) {
      var p = pieces[id];
      if (p.at || !optionsOf(id).length) return;
      var b = el("button", { type: "button", class: (sel === id ? "opt on" : given(id) ? "opt done" : "opt"), "data-piece": id }, p.label);
      b.addEventListener("click", function () { select(id); });
      tray.appendChild(b);
      offBoard++;
    });
    options.forEach(function (o) { if (!o.piece) { tray.appendChild(optionButton(o)); whole++; } });
    // what the buttons are, wherever the panel stands (beside the board on
    // a desktop, under it on a phone)
    $("hc-tray-head").textContent = offBoard && whole ? "Your pieces off the board, and orders for the whole turn:"
      : offBoard ? "Your pieces off the board:" : "Orders for the whole turn:";
    $("hc-tray-box").style.display = tray.childNodes.length ? "" : "none";
    // the orders given
    var ol = $("hc-list");
    ol.textContent = "";
    r.seq.forEach(function (e) {
      var li = el("li");
      li.appendChild(el("code", {}, e.text));
      var b = el("button", { type: "button", class: "rm", "data-remove": e.text, "aria-label": "remove " + e.text }, "✕");
      b.addEventListener("click", function () { remove(e); });
      li.appendChild(b);
      if (e.kind === "gather") {
        var f = forecast(e.g, e.members, r.pos), ft = forecastText(f, e.g);
        if (ft) li.appendChild(el("p", { class: "note", "data-target": e.g.target, "data-attack": f.attack, "data-defence": f.defence, "data-odds": f.odds, "data-results": f.results.join(",") }, ft));
      } else if (e.note) li.appendChild(el("p", { class: "note" }, e.note));
      var w = r.warns.get(e);
      if (w) li.appendChild(el("p", { class: "warn", "data-warn": e.text }, "Warning: " + w.join("; ") + "."));
      ol.appendChild(li);
    });
    // Not a list item: an empty list is not "1. No orders yet."
    $("hc-none").style.display = r.seq.length ? "none" : "";
    var todo = missing();
    var state = $("hc-state");
    if (O.budget) state.textContent = "Cost: " + r.cost + " of " + O.budget.total + " " + O.budget.unit + ". ";
    else state.textContent = "";
    // "complete" only when the set is complete and nothing is half made:
    // no attack gathered but not added; an empty set that the rules allow
    // is said to be empty, not complete
    var half = gathering ? "the attack on " + gathering.g.target + " is not added yet: “Add the attack” or “Cancel”" : null;
    if (half) todo = [half].concat(todo);
    var empty = !todo.length && !r.seq.length;
    state.textContent += todo.length ? "Not complete: " + todo.slice(0, 4).join("; ") + (todo.length > 4 ? "; and " + (todo.length - 4) + " more" : "") + "."
      : empty ? "No orders yet. The rules let you send none (" + (O.empty || "then none of your pieces moves or attacks") + "), or tap a piece to give one."
      : "Complete: ready to send.";
    state.className = todo.length ? "state todo" : empty ? "state empty" : "state ready";
    output(r, todo);
  }
  // The odds of the attack being gathered, under its units.
  function showOdds(g, members, pos) {
    var f = forecast(g, members, pos), box = $("hc-odds");
    if (!f) return;
    box.hidden = false;
    var od = g.odds, C = O.combat;
    var defs = od.defenders.map(function (d) { return d[0] + " " + (d[1].how === String(d[1].value) ? d[1].how : d[1].how + " = " + d[1].value); });
    box.appendChild(el("p", {}, "Defence " + od.defence + ": " + defs.join(", ") + "."));
    if (!f.parts.length) { box.appendChild(el("p", { class: "hint" }, "Tap your units to see the odds.")); return; }
    box.appendChild(el("p", {}, "Attack " + f.attack + ": " + f.parts.map(function (p) {
      return p.m + " " + p.at + " " + (p.how === String(p.value) ? p.how : p.how + " = " + p.value);
    }).join(", ") + "."));
    var o = el("p", { class: "odds", id: "hc-odds-line", "data-attack": f.attack, "data-defence": f.defence, "data-odds": f.odds || "", "data-results": f.results.join(",") },
      f.odds === null ? "Too weak for any column of the table." : "Odds " + f.odds + (od.modifier ? "; die " + od.modifier + " (at most 6)" : "") + ":");
    box.appendChild(o);
    if (f.odds === null) return;
    var t = el("table"), r1 = el("tr"), r2 = el("tr");
    r1.appendChild(el("th", {}, "die"));
    r2.appendChild(el("th", {}, "result"));
    f.results.forEach(function (res, i) {
      r1.appendChild(el("td", {}, String(i + 1)));
      r2.appendChild(el("td", { title: C.results[res] || "" }, res));
    });
    t.appendChild(r1);
    t.appendChild(r2);
    box.appendChild(t);
    var seen = f.results.filter(function (x, i) { return f.results.indexOf(x) === i; });
    box.appendChild(el("p", { class: "hint" }, seen.map(function (x) { return x + ": " + (C.results[x] || x); }).join("; ") + ". " + C.caveat.charAt(0).toUpperCase() + C.caveat.slice(1) + "."));
  }
  function q(s) { return JSON.stringify(s); }
  // The order file. `shown`: as the box on the page shows it, the
  // password masked (it is typed into a masked field and is never shown
  // in clear); copy, download and mail take the real one.
  function fileText(r, shown) {
    var pw = $("hc-password").value;
    var s = "game = " + q(D.id) + "\nplayer = " + q(D.player) + "\nturn = " + D.turn +
      "\npassword = " + (shown ? q(pw.replace(/[\s\S]/g, "•")) : q(pw)) + "\norders = [\n";
    r.seq.forEach(function (e) { s += "  " + q(e.text) + ",\n"; });
    return s + "]\n";
  }
  var lastSeq = [];
  function realFile() { return fileText({ seq: lastSeq }, false); }
  // The mail link: to the moderator with the subject at rest; the body
  // (the file, its password) is put in only as the link is followed, so
  // no address bar or status line shows it.
  function mailHref(withBody) {
    var h = "mailto:" + (D.moderator ? encodeURI(D.moderator) : "") + "?subject=" + encodeURIComponent(D.subject);
    return withBody ? h + "&body=" + encodeURIComponent(realFile().replace(/\n/g, "\r\n")) : h;
  }
  function output(r, todo) {
    lastSeq = r.seq;
    $("hc-file").value = fileText(r, true);
    var ready = !todo.length;
    var pw = $("hc-password").value.length > 0;
    ["hc-copy", "hc-download", "hc-mail"].forEach(function (id) {
      var b = $(id);
      if (ready && pw) b.removeAttribute("aria-disabled"); else b.setAttribute("aria-disabled", "true");
    });
    $("hc-out-state").textContent = !ready ? "Finish your orders first." : !pw ? "Type your password to fill in the file." : "";
    $("hc-mail").setAttribute("href", mailHref(false));
  }
  function blocked(ev) {
    if (this.getAttribute("aria-disabled")) {
      ev.preventDefault();
      say($("hc-out-state").textContent, true);
      return true;
    }
    return false;
  }
  $("hc-password").addEventListener("input", function () { render(); });
  $("hc-copy").addEventListener("click", function (ev) {
    if (blocked.call(this, ev)) return;
    var text = realFile();
    var done = function () { say("Copied the order file."); };
    // without the clipboard's own call, a field off the screen holds the
    // real file while it is copied, and is gone at once
    var fallback = function () {
      var ta = el("textarea", { "aria-hidden": "true", style: "position:fixed;left:-9999px;top:0;opacity:0" });
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      ta.remove();
      if (ok) done(); else say("This browser does not let the page copy: use Download or Mail.", true);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  });
  $("hc-download").addEventListener("click", function (ev) {
    if (blocked.call(this, ev)) return;
    var blob = new Blob([realFile()], { type: "text/plain" });
    var a = el("a", { download: D.id + "-turn-" + D.turn + "-" + D.player + ".toml" });
    a.href = URL.createObjectURL(blob);
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    say("Saved the order file.");
  });
  $("hc-mail").addEventListener("click", function (ev) {
    if (blocked.call(this, ev)) return;
    var a = this;
    a.setAttribute("href", mailHref(true));
    setTimeout(function () { a.setAttribute("href", mailHref(false)); }, 0);
  });

  (O.help || []).forEach(function (h) { $("hc-help").appendChild(el("li", {}, h)); });
  root.className = "live";
  live = true;
  var onBoard = pieceOrder.filter(function (id) { return pieces[id].at && optionsOf(id).length; });
  var beside = pieceOrder.filter(function (id) { return !pieces[id].at && optionsOf(id).some(function (o) { return o.to; }); });
  if (!onBoard.length && beside.length === 1) sel = beside[0];
  render();
})();
