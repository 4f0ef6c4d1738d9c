// herald serve's own script for a game page (docs/web.md): served from the
// host as /static/web.js, so the page's CSP needs no inline script of its
// own. It sends the order file the composer made, and keeps the page up
// to date from the server's events without a reload.
(function () {
  "use strict";
  var form = document.getElementById("web-send-form");
  var box = document.getElementById("web-file");
  var parts = document.getElementById("web-parts");
  // On the server's page the composer's file is sent with one button,
  // set right under the file; a session proven by its address needs no
  // password, so the composer's password box and its mail link go.
  var send = document.getElementById("web-send");
  var copy = document.getElementById("hc-copy");
  if (send && copy && copy.parentNode) {
    copy.parentNode.parentNode.insertBefore(send, copy.parentNode.nextSibling);
    if (parts && parts.getAttribute("data-password") !== "yes") {
      var pw = document.querySelector("#composer label.pw");
      if (pw) {
        pw.style.display = "none";
        if (pw.nextElementSibling && pw.nextElementSibling.classList.contains("hint")) {
          pw.nextElementSibling.style.display = "none";
        }
      }
      var state = document.getElementById("hc-out-state");
      if (state) state.style.display = "none";
    }
    var mail = document.getElementById("hc-mail");
    if (mail) mail.style.display = "none";
    // the file sent is the composer's, shown just above
    if (box) {
      box.style.display = "none";
      var note = document.createElement("p");
      note.className = "hint";
      note.textContent = "Sends the order file above, as the composer made it.";
      box.parentNode.insertBefore(note, box);
    }
  }
  if (form && box) {
    var edited = false;
    box.addEventListener("input", function () { edited = true; });
    form.addEventListener("submit", function () {
      var made = document.getElementById("hc-file");
      if (!edited && made && made.value.trim() !== "") {
        box.value = made.value;
      }
    });
  }
  if (!parts || !window.EventSource || !window.fetch) {
    return;
  }
  var source = new EventSource(parts.getAttribute("data-events"));
  function fetchPage() {
    return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); });
  }
  // a resolved turn: the whole page is the new turn's (board, report and
  // composer), written over this one in place: no navigation, no reload
  function rewrite() {
    fetchPage().then(function (html) {
      source.close();
      window.heraldUpdates = (window.heraldUpdates || 0) + 1;
      document.open();
      document.write(html);
      document.close();
    }, function () {});
  }
  source.addEventListener("turn", rewrite);
  // orders stored or press arrived: the turn's state and the press
  // section are swapped in (the press box's own script is not run again)
  function refreshStatus() {
    fetchPage().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      ["web-status", "press"].forEach(function (id) {
        var fresh = doc.getElementById(id);
        var now = document.getElementById(id);
        if (fresh && now) {
          now.replaceWith(document.importNode(fresh, true));
        }
      });
      window.heraldUpdates = (window.heraldUpdates || 0) + 1;
    }, function () {});
  }
  source.addEventListener("orders", refreshStatus);
  source.addEventListener("press", refreshStatus);
})();
