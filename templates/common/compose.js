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
  // The board's cells, the legend folded beside it, zoom and pan: in every
  // phase, orders due or not, and after the game ends.
  var cells = {}, overlay = null, live = false, vb = null;
  if (svg) {
    Array.prototype.forEach.call(svg.querySelectorAll("[data-hex]"), function (n) {
      if (n.closest(".piece") || n.closest(".legend")) return;
      var b = n.getBBox();
      cells[n.getAttribute("data-hex")] = { x: b.x + b.width / 2, y: b.y + b.height / 2, r: Math.min(b.width, b.height) / 2 };
    });
    foldLegend();
    vb = svg.viewBox.baseVal;
  }
  // The legend, drawn under the map, moves into a box of its own (folded
  // on a phone, open beside the board on a desktop): the board shows the
  // map alone.
  function foldLegend() {
    var lg = svg.querySelector(".legend"), v = svg.viewBox.baseVal;
    if (!lg || !v || !v.height) return;
    var b = lg.getBBox();
    if (!b.height || b.y <= v.y) return;
    var h = b.y - v.y;
    svg.setAttribute("viewBox", v.x + " " + v.y + " " + v.width + " " + h);
    svg.setAttribute("height", Math.round(h * (svg.width.baseVal.value / v.width || 1)));
    var pic = document.createElementNS(NS, "svg"), pad = 4;
    pic.setAttribute("viewBox", (b.x - pad) + " " + (b.y - pad) + " " + (b.width + 2 * pad) + " " + (b.height + 2 * pad));
    pic.setAttribute("width", Math.round(b.width + 2 * pad));
    pic.setAttribute("height", Math.round(b.height + 2 * pad));
    ["font-family", "font-weight"].forEach(function (a) { if (svg.getAttribute(a)) pic.setAttribute(a, svg.getAttribute(a)); });
    pic.setAttribute("class", "herald-legend");
    lg.parentNode.removeChild(lg);
    pic.appendChild(lg);
    var box = $("hc-legend");
    box.appendChild(pic);
    box.hidden = false;
    if (wide()) box.open = true;
  }
  function wide() { return window.innerWidth >= 900; }

  // ----------------------------------------------------------- zoom, pan
  var zoom = 1, scroller = $("hc-scroll"), first = null;
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
  // Zoomed in at most until a hex is about 90 px across.
  function maxZoom() {
    if (!first || !vb) return 6;
    var px = first.r * 2 * fitWidth() / vb.width;
    return Math.max(1.5, 90 / px);
  }
  function setZoom(z) {
    zoom = Math.max(1, Math.min(maxZoom(), z));
    if (svg) svg.style.width = Math.round(fitWidth() * zoom) + "px";
    scroller.className = zoom > 1 ? "scroll zoomed" : "scroll";
    scroller.style.maxHeight = wide() ? boxHeight() + "px" : "";
    $("hc-zoom-level").textContent = Math.round(zoom * 100) + "%";
  }
  // The scroll box shows the point (x, y) of the board in its middle.
  function centreAt(x, y) {
    if (!svg) return;
    var m = svg.getScreenCTM(), s = scroller.getBoundingClientRect();
    if (!m) return;
    scroller.scrollLeft = x * m.a + m.e - s.left + scroller.scrollLeft - scroller.clientWidth / 2;
    scroller.scrollTop = y * m.d + m.f - s.top + scroller.scrollTop - scroller.clientHeight / 2;
  }
  function centreOn(cell) {
    var c = cells[cell];
    if (c && zoom > 1) centreAt(c.x, c.y);
  }
  // Where the player's own pieces stand (D.mine): the box around them.
  function mineBox() {
    var b = null;
    (D.mine || []).forEach(function (k) {
      var c = cells[k];
      if (!c) return;
      if (!b) b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      b.x0 = Math.min(b.x0, c.x - c.r); b.y0 = Math.min(b.y0, c.y - c.r);
      b.x1 = Math.max(b.x1, c.x + c.r); b.y1 = Math.max(b.y1, c.y + c.r);
    });
    return b;
  }
  // Show the player's pieces: a big map (War of the Dukes) zoomed to fit
  // them (a hex a thumb's width at most), centred on them; then the page
  // scrolled so that they are on the screen.
  function showMine() {
    var b = mineBox();
    if (!svg || !vb) return;
    if (b && Object.keys(cells).length > 200) {
      var s1 = fitWidth() / vb.width, pad = first ? first.r * 2 : 0;
      var z = Math.min(scroller.clientWidth / ((b.x1 - b.x0 + pad) * s1), boxHeight() / ((b.y1 - b.y0 + pad) * s1));
      if (first) z = Math.min(z, 48 / (first.r * 2 * s1));
      setZoom(z);
    }
    if (!b) return;
    centreAt((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
    var m = svg.getScreenCTM();
    if (!m) return;
    var top = b.y0 * m.d + m.f, bottom = b.y1 * m.d + m.f;
    var s = scroller.getBoundingClientRect();
    top = Math.max(top, s.top); bottom = Math.min(bottom, s.bottom);
    var room = window.innerHeight - 8;
    if (bottom > room || top < 0) window.scrollBy(0, bottom - top > room ? top - 8 : (top + bottom) / 2 - room / 2);
  }
  $("hc-zoom-in").addEventListener("click", function () {
    var m = svg && svg.getScreenCTM(), s = scroller.getBoundingClientRect();
    // keep the middle of what is shown in the middle
    var mid = m ? { x: (s.left + scroller.clientWidth / 2 - m.e) / m.a, y: (s.top + scroller.clientHeight / 2 - m.f) / m.d } : null;
    setZoom(zoom * 1.5);
    if (typeof sel !== "undefined" && sel && live) centreOn(check(list).pos[sel]);
    else if (mid) centreAt(mid.x, mid.y);
  });
  $("hc-zoom-out").addEventListener("click", function () {
    var m = svg && svg.getScreenCTM(), s = scroller.getBoundingClientRect();
    var mid = m ? { x: (s.left + scroller.clientWidth / 2 - m.e) / m.a, y: (s.top + scroller.clientHeight / 2 - m.f) / m.d } : null;
    setZoom(zoom / 1.5);
    if (mid) centreAt(mid.x, mid.y);
  });
  $("hc-zoom-fit").addEventListener("click", function () { setZoom(1); });
  $("hc-zoom-mine").addEventListener("click", function () { showMine(); });
  window.addEventListener("resize", function () { setZoom(zoom); });
  if (svg) {
    setZoom(1);
    showMine();
  }
  if (!mineBox()) $("hc-zoom-mine").style.display = "none";

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
  function given(id) { return list.some(function (e) { return e.piece === id; }); }
  function optionsOf(id) { return options.filter(function (o) { return o.piece === id; }); }
  function missing() {
    if (list.some(function (e) { return e.alone; })) return [];
    var r = check(list);
    return (O.required || []).filter(function (q) { return !r.used[q.key]; }).map(function (q) { return q.why; });
  }

  if (svg) {
    var defs = svg.querySelector("defs") || svg.insertBefore(document.createElementNS(NS, "defs"), svg.firstChild);
    [["plan-move", "#0b7a43"], ["plan-attack", "#c0122c"]].forEach(function (m) {
      var mk = document.createElementNS(NS, "marker");
      [["id", m[0]], ["viewBox", "0 0 10 10"], ["refX", "8"], ["refY", "5"], ["markerWidth", "4"], ["markerHeight", "4"], ["orient", "auto-start-reverse"]]
        .forEach(function (a) { mk.setAttribute(a[0], a[1]); });
      var path = document.createElementNS(NS, "path");
      path.setAttribute("d", "M0,0 L10,5 L0,10 z");
      path.setAttribute("fill", m[1]);
      mk.appendChild(path);
      defs.appendChild(mk);
    });
    overlay = document.createElementNS(NS, "g");
    overlay.setAttribute("class", "plan");
    var legend = svg.querySelector(".legend");
    svg.insertBefore(overlay, legend || null);
    svg.addEventListener("click", function (ev) {
      var pt = svg.createSVGPoint();
      pt.x = ev.clientX; pt.y = ev.clientY;
      var m = svg.getScreenCTM();
      if (!m) return;
      var p = pt.matrixTransform(m.inverse()), best = null, bd = Infinity;
      for (var k in cells) {
        var c = cells[k], d = Math.hypot(c.x - p.x, c.y - p.y);
        if (d < bd) { bd = d; best = k; }
      }
      if (live && best !== null && bd <= cells[best].r * 1.15) clickCell(best);
    });
  }
  function shape(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    overlay.appendChild(e);
    return e;
  }
  function label(c, text, colour) {
    var t = shape("text", { x: c.x, y: c.y - c.r * 0.62, "font-size": Math.max(9, c.r * 0.42), "text-anchor": "middle", fill: colour || "#0b7a43", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" });
    t.textContent = text;
  }
  function arrow(a, b, colour, head, dash, shorten) {
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1, k = Math.min(shorten / len, 0.45);
    var attrs = { x1: a.x + dx * k, y1: a.y + dy * k, x2: b.x - dx * k, y2: b.y - dy * k, stroke: colour, "stroke-width": Math.max(2.5, a.r * 0.22), "stroke-linecap": "round" };
    if (head) attrs["marker-end"] = "url(#" + head + ")";
    if (dash) attrs["stroke-dasharray"] = dash;
    shape("line", attrs);
  }
  function drawBoard(r) {
    if (!overlay) return;
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    r.seq.forEach(function (e) {
      if (e.kind === "gather") {
        var t = cells[e.g.target];
        if (!t) return;
        e.members.forEach(function (m) {
          var a = cells[r.at.get(e.text + "|" + m)];
          if (a) arrow(a, t, "#c0122c", "plan-attack", "6 4", a.r * 0.5);
        });
        shape("circle", { cx: t.x, cy: t.y, r: t.r * 0.75, fill: "none", stroke: "#c0122c", "stroke-width": Math.max(2.5, t.r * 0.16) });
        return;
      }
      var from = cells[r.at.get(e)], to = e.to ? cells[e.to] : null;
      var words = e.piece ? e.text.replace(e.piece + " ", "") : e.text;
      if (e.mark === "place" && to) {
        shape("circle", { cx: to.x, cy: to.y, r: to.r * 0.72, fill: "none", stroke: "#0b7a43", "stroke-width": Math.max(2.5, to.r * 0.16), "stroke-dasharray": "5 3" });
        label(to, pieces[e.piece] && !pieces[e.piece].at ? e.piece : words);
      } else if ((e.mark === "move" || e.mark === "attack") && from && to) {
        var red = e.mark === "attack";
        arrow(from, to, red ? "#c0122c" : "#0b7a43", red ? "plan-attack" : "plan-move", null, from.r * 0.55);
      } else if (e.mark === "scout" && from && to) {
        arrow(from, to, "#7a4bb0", null, "2 5", from.r * 0.5);
        label(to, "scout", "#7a4bb0");
      } else if (e.mark === "turn" && from) {
        if (to) arrow(from, { x: from.x + (to.x - from.x) * 0.62, y: from.y + (to.y - from.y) * 0.62, r: from.r }, "#0b7a43", "plan-move", null, 0.1);
        else label(from, e.text.split(" ").pop());
      } else if (from) {
        label(from, words);
      }
    });
    // the selection and where it may go
    if (sel && pieces[sel]) {
      var c = cells[r.pos[sel]];
      if (c) shape("circle", { class: "sel", cx: c.x, cy: c.y, r: c.r * 0.9, fill: "none", stroke: "#0b7a43", "stroke-width": Math.max(3, c.r * 0.14) });
      targets(sel).forEach(function (o) {
        var t = cells[o.to];
        if (!t) return;
        shape("circle", { class: "hl", "data-to": o.to, cx: t.x, cy: t.y, r: t.r * 0.42, fill: o.mark === "attack" ? "#c0122c" : "#0b7a43", "fill-opacity": 0.45, stroke: "#fff", "stroke-width": 1.5 });
      });
    }
    if (gathering) {
      var g = gathering.g, tc = cells[g.target];
      if (tc) shape("circle", { class: "sel", cx: tc.x, cy: tc.y, r: tc.r * 0.9, fill: "none", stroke: "#c0122c", "stroke-width": Math.max(3, tc.r * 0.14) });
      candidates(g, r.pos).forEach(function (m) {
        var mc = cells[r.pos[m]];
        if (!mc) return;
        var on = gathering.members.indexOf(m) >= 0;
        shape("circle", { class: "hl", "data-to": r.pos[m], cx: mc.x, cy: mc.y, r: mc.r * 0.42, fill: on ? "#c0122c" : "#e08a00", "fill-opacity": on ? 0.7 : 0.45, stroke: "#fff", "stroke-width": 1.5 });
      });
    }
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
        say("Selected " + (pieces[sel].label || sel) + ". " + (pieces[was].label || was) + " also has " +
          (shown.length === 1 ? "an order" : "orders") + " toward " + cell + ": “" + shown.map(function (o) { return o.text; }).join("”, “") + "”, in the list.");
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
      head.textContent = O.prompt || "Tap one of your pieces on the board.";
    }
    // pieces beside the board and orders for the whole turn
    var tray = $("hc-tray");
    tray.textContent = "";
    pieceOrder.forEach(function (id) {
      var p = pieces[id];
      if (p.at || !optionsOf(id).length) return;
      var b = el("button", { type: "button", class: (sel === id ? "opt on" : given(id) ? "opt done" : "opt"), "data-piece": id }, p.label);
      b.addEventListener("click", function () { select(id); });
      tray.appendChild(b);
    });
    options.forEach(function (o) { if (!o.piece) tray.appendChild(optionButton(o)); });
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
    state.textContent += todo.length ? "Not complete: " + todo.slice(0, 4).join("; ") + (todo.length > 4 ? "; and " + (todo.length - 4) + " more" : "") + "." : "Complete: ready to send.";
    state.className = todo.length ? "state todo" : "state ready";
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
    box.appendChild(el("p", { class: "hint" }, seen.map(function (x) { return x + ": " + (C.results[x] || x); }).join("; ") + ". " + C.caveat + "."));
  }
  function q(s) { return JSON.stringify(s); }
  function fileText(r) {
    var s = "game = " + q(D.id) + "\nplayer = " + q(D.player) + "\nturn = " + D.turn +
      "\npassword = " + q($("hc-password").value) + "\norders = [\n";
    r.seq.forEach(function (e) { s += "  " + q(e.text) + ",\n"; });
    return s + "]\n";
  }
  function output(r, todo) {
    var text = fileText(r);
    $("hc-file").value = text;
    var ready = !todo.length;
    var pw = $("hc-password").value.length > 0;
    ["hc-copy", "hc-download", "hc-mail"].forEach(function (id) {
      var b = $(id);
      if (ready && pw) b.removeAttribute("aria-disabled"); else b.setAttribute("aria-disabled", "true");
    });
    $("hc-out-state").textContent = !ready ? "Finish your orders first." : !pw ? "Type your password to fill in the file." : "";
    var body = text.replace(/\n/g, "\r\n");
    $("hc-mail").setAttribute("href", "mailto:" + (D.moderator ? encodeURI(D.moderator) : "") +
      "?subject=" + encodeURIComponent(D.subject) + "&body=" + encodeURIComponent(body));
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
    var ta = $("hc-file");
    var done = function () { say("Copied the order file."); };
    var fallback = function () { ta.select(); try { document.execCommand("copy"); done(); } catch (e) { say("Copy it from the box by hand.", true); } };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(ta.value).then(done, fallback);
    else fallback();
  });
  $("hc-download").addEventListener("click", function (ev) {
    if (blocked.call(this, ev)) return;
    var blob = new Blob([$("hc-file").value], { type: "text/plain" });
    var a = el("a", { download: D.id + "-turn-" + D.turn + "-" + D.player + ".toml" });
    a.href = URL.createObjectURL(blob);
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    say("Saved the order file.");
  });
  $("hc-mail").addEventListener("click", function (ev) { blocked.call(this, ev); });

  (O.help || []).forEach(function (h) { $("hc-help").appendChild(el("li", {}, h)); });
  root.className = "live";
  live = true;
  var onBoard = pieceOrder.filter(function (id) { return pieces[id].at && optionsOf(id).length; });
  var beside = pieceOrder.filter(function (id) { return !pieces[id].at && optionsOf(id).some(function (o) { return o.to; }); });
  if (!onBoard.length && beside.length === 1) sel = beside[0];
  render();
})();
