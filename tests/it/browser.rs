//! Headless Chromium for the browser tests, driven through the Chrome
//! DevTools Protocol over a pipe.
//!
//! Chromium started with `--remote-debugging-pipe` reads protocol messages
//! from its file descriptor 3 and writes them to 4: JSON objects, each
//! ended by a NUL byte. No socket, no websocket, no generated protocol
//! types: a call is `{"id", "method", "params", "sessionId"}` and its answer
//! the message with the same id; everything else is an event. One thread
//! reads the pipe and hands each answer to the call waiting for it, so a
//! call costs what Chromium takes to answer (about a millisecond), not the
//! 100 ms read timeout of the client these tests used before, whose
//! generated protocol types were also an eighth of the suite's build
//! (docs/performance.md, "The suite").
//!
//! The API keeps the names the tests used (`new_tab`, `navigate_to`,
//! `wait_until_navigated`, `evaluate`, `wait_for_element`, `close`), with
//! `call(method, params)` for the rest of the protocol.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";

/// A failed call: the protocol's error, a page's exception, a timeout, or
/// Chromium gone.
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

type Listener = Arc<dyn Fn(&str, &Value) + Send + Sync>;

/// What the reader thread shares with the callers.
#[derive(Default)]
struct Shared {
    /// Calls waiting for their answer, by id.
    waiting: Mutex<BTreeMap<u64, Sender<Value>>>,
    /// Event listeners by session id.
    listeners: Mutex<BTreeMap<String, Vec<Listener>>>,
    /// Events seen, by session, for `wait_for_event`: (method, params).
    events: Mutex<BTreeMap<String, Vec<(String, Value)>>>,
    arrived: Condvar,
    /// Set when the pipe closed (Chromium exited).
    closed: Mutex<bool>,
}

struct Conn {
    writer: Mutex<File>,
    next: AtomicU64,
    shared: Arc<Shared>,
}

impl Conn {
    fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        wait: Duration,
    ) -> Result<Value> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = Value::String(s.to_string());
        }
        let (tx, rx): (Sender<Value>, Receiver<Value>) = channel();
        self.shared.waiting.lock().unwrap().insert(id, tx);
        {
            let mut w = self.writer.lock().unwrap();
            let mut bytes = serde_json::to_vec(&msg).unwrap();
            bytes.push(0);
            if let Err(e) = w.write_all(&bytes).and_then(|_| w.flush()) {
                self.shared.waiting.lock().unwrap().remove(&id);
                return Err(Error(format!("{method}: Chromium's pipe: {e}")));
            }
        }
        let answer = match rx.recv_timeout(wait) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => {
                self.shared.waiting.lock().unwrap().remove(&id);
                return Err(Error(format!("{method}: no answer within {wait:?}")));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Error(format!("{method}: Chromium closed its pipe")));
            }
        };
        if let Some(err) = answer.get("error") {
            return Err(Error(format!("{method}: {err}")));
        }
        Ok(answer.get("result").cloned().unwrap_or(Value::Null))
    }
}

/// Reads Chromium's messages until the pipe closes: answers go to their
/// callers, events to the listeners of their session and to its queue.
fn read_messages(from: File, shared: Arc<Shared>) {
    let mut r = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(0, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.last() == Some(&0) {
            buf.pop();
        }
        let Ok(msg) = serde_json::from_slice::<Value>(&buf) else {
            continue;
        };
        if let Some(id) = msg.get("id").and_then(Value::as_u64) {
            if let Some(tx) = shared.waiting.lock().unwrap().remove(&id) {
                let _ = tx.send(msg);
            }
            continue;
        }
        let method = msg
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let session = msg
            .get("sessionId")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let listeners: Vec<Listener> = shared
            .listeners
            .lock()
            .unwrap()
            .get(&session)
            .cloned()
            .unwrap_or_default();
        for l in listeners {
            l(&method, &params);
        }
        shared
            .events
            .lock()
            .unwrap()
            .entry(session)
            .or_default()
            .push((method, params));
        shared.arrived.notify_all();
    }
    *shared.closed.lock().unwrap() = true;
    shared.waiting.lock().unwrap().clear();
    shared.arrived.notify_all();
}

/// A headless Chromium of its own (a new profile in a temporary folder),
/// stopped when dropped.
pub struct Browser {
    conn: Arc<Conn>,
    child: Child,
    _profile: tempfile::TempDir,
}

/// How Chromium is started: its window's size in CSS pixels.
pub struct LaunchOptions {
    pub window: (u32, u32),
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions { window: (375, 800) }
    }
}

fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` is two ints for pipe(2) to fill.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

impl Browser {
    /// Chromium started headless; fails loudly when it is not installed.
    pub fn new(opts: LaunchOptions) -> Result<Browser> {
        if !Path::new(CHROMIUM).exists() {
            return Err(Error(format!(
                "{CHROMIUM} is missing: the browser tests need Debian's chromium (`./test` installs it)"
            )));
        }
        let profile = tempfile::Builder::new()
            .prefix("herald-chromium-")
            .tempdir()
            .map_err(|e| Error(format!("a profile folder: {e}")))?;
        // Chromium reads our messages from its fd 3 and writes to its fd 4.
        let (to_read, to_write) = pipe();
        let (from_read, from_write) = pipe();
        let mut cmd = Command::new(CHROMIUM);
        cmd.args([
            "--headless",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--disable-extensions",
            "--mute-audio",
            &format!("--window-size={},{}", opts.window.0, opts.window.1),
            &format!("--user-data-dir={}", profile.path().display()),
            "about:blank",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork
        // and exec. Both ends are first copied above 10, so that neither is
        // overwritten by the other's dup2 and a pipe end that is already 3
        // or 4 is copied too: dup2 onto the same number would keep its
        // close-on-exec flag, and Chromium would find it closed.
        unsafe {
            cmd.pre_exec(move || {
                let a = libc::fcntl(to_read, libc::F_DUPFD, 10);
                let b = libc::fcntl(from_write, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().map_err(|e| Error(format!("{CHROMIUM}: {e}")));
        // SAFETY: each descriptor is ours, from pipe2, and closed once here.
        unsafe {
            libc::close(to_read);
            libc::close(from_write);
        }
        let child = child?;
        // SAFETY: the descriptors are open and owned by nothing else.
        let (writer, reader) =
            unsafe { (File::from_raw_fd(to_write), File::from_raw_fd(from_read)) };
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        std::thread::spawn(move || read_messages(reader, s));
        let conn = Arc::new(Conn {
            writer: Mutex::new(writer),
            next: AtomicU64::new(1),
            shared,
        });
        let browser = Browser {
            conn,
            child,
            _profile: profile,
        };
        browser
            .conn
            .call(
                None,
                "Browser.getVersion",
                json!({}),
                Duration::from_secs(30),
            )
            .map_err(|e| Error(format!("headless Chromium does not answer: {e}")))?;
        Ok(browser)
    }

    /// A new tab on about:blank, its Page, Runtime and DOM domains on.
    pub fn new_tab(&self) -> Result<Arc<Tab>> {
        let wait = Duration::from_secs(30);
        let target = self.conn.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank"}),
            wait,
        )?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_string();
        let attached = self.conn.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            wait,
        )?;
        let session = attached["sessionId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let tab = Arc::new(Tab {
            conn: self.conn.clone(),
            session,
            target_id,
            timeout: Mutex::new(Duration::from_secs(30)),
        });
        tab.call("Page.enable", json!({}))?;
        tab.call("Runtime.enable", json!({}))?;
        Ok(tab)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self
            .conn
            .call(None, "Browser.close", json!({}), Duration::from_secs(5));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `evaluate` gives back: the expression's value, when it has one
/// that JSON can hold.
pub struct RemoteObject {
    pub value: Option<Value>,
}

/// One tab, attached by a flat session.
pub struct Tab {
    conn: Arc<Conn>,
    session: String,
    target_id: String,
    timeout: Mutex<Duration>,
}

/// An element found by `wait_for_element`, for a real click at its middle.
pub struct Element<'a> {
    tab: &'a Tab,
    selector: String,
}

impl Element<'_> {
    pub fn click(&self) -> Result<&Self> {
        let at = self.tab.evaluate(
            &format!(
                "(function (s) {{ var n = document.querySelector(s); if (!n) return null; n.scrollIntoView({{block: 'center', inline: 'center'}}); var b = n.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; }})({})",
                serde_json::to_string(&self.selector).unwrap()
            ),
            false,
        )?;
        let p = at
            .value
            .as_ref()
            .and_then(Value::as_array)
            .ok_or_else(|| Error(format!("{}: not on the page", self.selector)))?;
        let (x, y) = (
            p[0].as_f64().unwrap_or_default(),
            p[1].as_f64().unwrap_or_default(),
        );
        self.tab.click_point(x, y)?;
        Ok(self)
    }
}

impl Tab {
    pub fn set_default_timeout(&self, t: Duration) -> &Self {
        *self.timeout.lock().unwrap() = t;
        self
    }

    fn timeout(&self) -> Duration {
        *self.timeout.lock().unwrap()
    }

    /// Any protocol method of this tab, its `result` back.
    pub fn call(&self, method: &str, params: Value) -> Result<Value> {
        self.conn
            .call(Some(&self.session), method, params, self.timeout())
    }

    /// `f(method, params)` for every event of this tab from now on (call
    /// the domain's `enable` for its events).
    pub fn add_event_listener(&self, f: Arc<dyn Fn(&str, &Value) + Send + Sync>) -> Result<()> {
        self.conn
            .shared
            .listeners
            .lock()
            .unwrap()
            .entry(self.session.clone())
            .or_default()
            .push(f);
        Ok(())
    }

    fn events_seen(&self) -> usize {
        self.conn
            .shared
            .events
            .lock()
            .unwrap()
            .get(&self.session)
            .map_or(0, Vec::len)
    }

    /// Waits for an event `method` among those arriving after the
    /// `from`-th of this tab.
    fn wait_for_event(&self, method: &str, from: usize) -> Result<Value> {
        let deadline = Instant::now() + self.timeout();
        let shared = &self.conn.shared;
        let mut events = shared.events.lock().unwrap();
        loop {
            if let Some(seen) = events.get(&self.session) {
                if let Some((_, p)) = seen.iter().skip(from).find(|(m, _)| m == method) {
                    return Ok(p.clone());
                }
            }
            if *shared.closed.lock().unwrap() {
                return Err(Error(format!("{method}: Chromium closed its pipe")));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Error(format!("no {method} within {:?}", self.timeout())));
            }
            events = shared
                .arrived
                .wait_timeout(events, deadline - now)
                .unwrap()
                .0;
        }
    }

    /// Navigates; `wait_until_navigated` then waits for the page's load.
    pub fn navigate_to(&self, url: &str) -> Result<Navigation<'_>> {
        let from = self.events_seen();
        let r = self.call("Page.navigate", json!({"url": url}))?;
        if let Some(e) = r.get("errorText").and_then(Value::as_str) {
            return Err(Error(format!("{url}: {e}")));
        }
        Ok(Navigation { tab: self, from })
    }

    /// The value of a JavaScript expression (its promise awaited when
    /// asked); a thrown exception is an error naming it.
    pub fn evaluate(&self, expr: &str, await_promise: bool) -> Result<RemoteObject> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": await_promise}),
        )?;
        if let Some(ex) = r.get("exceptionDetails") {
            let text = ex
                .pointer("/exception/description")
                .and_then(Value::as_str)
                .or_else(|| ex.get("text").and_then(Value::as_str))
                .unwrap_or("an exception");
            return Err(Error(format!("{expr}: {text}")));
        }
        Ok(RemoteObject {
            value: r.pointer("/result/value").cloned(),
        })
    }

    /// Waits until `selector` finds an element on the page.
    pub fn wait_for_element(&self, selector: &str) -> Result<Element<'_>> {
        let deadline = Instant::now() + self.timeout();
        let test = format!(
            "document.querySelector({}) !== null",
            serde_json::to_string(selector).unwrap()
        );
        loop {
            // A page being left (a click that navigates) answers
            // "Inspected target navigated or closed" or has no context yet:
            // not there yet, asked again; any other error is one.
            let there = match self.evaluate(&test, false) {
                Ok(v) => v.value == Some(Value::Bool(true)),
                Err(Error(e))
                    if e.contains("navigated or closed") || e.contains("Cannot find context") =>
                {
                    false
                }
                Err(e) => return Err(e),
            };
            if there {
                return Ok(Element {
                    tab: self,
                    selector: selector.to_string(),
                });
            }
            if Instant::now() >= deadline {
                return Err(Error(format!(
                    "{selector}: not on the page within {:?}",
                    self.timeout()
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// A real click: the left button pressed and released at a point of
    /// the screen, hit-tested by Chromium like a user's.
    pub fn click_point(&self, x: f64, y: f64) -> Result<()> {
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )?;
        }
        Ok(())
    }

    /// Text typed as a keyboard would insert it.
    pub fn send_character(&self, text: &str) -> Result<()> {
        self.call("Input.insertText", json!({ "text": text }))?;
        Ok(())
    }

    /// A key pressed and released (`key` as in the DOM's KeyboardEvent.key).
    pub fn press_key(&self, key: &str, code: &str, key_code: u32) -> Result<()> {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": key_code}),
            )?;
        }
        Ok(())
    }

    /// The screen as a PNG: the viewport, or the `clip` rectangle (x, y,
    /// width, height in CSS pixels).
    pub fn screenshot(&self, clip: Option<(f64, f64, f64, f64)>) -> Result<Vec<u8>> {
        let mut params = json!({"format": "png", "fromSurface": true});
        if let Some((x, y, width, height)) = clip {
            params["clip"] = json!({"x": x, "y": y, "width": width, "height": height, "scale": 1});
            params["captureBeyondViewport"] = Value::Bool(true);
        }
        let r = self.call("Page.captureScreenshot", params)?;
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap_or_default())
            .map_err(|e| Error(format!("a screenshot that is not base64: {e}")))
    }

    /// The screen `width` × `height` CSS pixels, a phone's (touch, the
    /// page's own viewport) under 600 px.
    pub fn set_metrics(&self, width: u32, height: u32) -> Result<()> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        )?;
        Ok(())
    }

    pub fn close(&self, _fire_unload: bool) -> Result<bool> {
        self.conn
            .shared
            .listeners
            .lock()
            .unwrap()
            .remove(&self.session);
        self.conn
            .shared
            .events
            .lock()
            .unwrap()
            .remove(&self.session);
        self.conn.call(
            None,
            "Target.closeTarget",
            json!({"targetId": self.target_id}),
            Duration::from_secs(10),
        )?;
        Ok(true)
    }
}

/// A navigation under way.
pub struct Navigation<'a> {
    tab: &'a Tab,
    from: usize,
}

impl<'a> Navigation<'a> {
    /// Waits for the page's load event.
    pub fn wait_until_navigated(&self) -> Result<&'a Tab> {
        self.tab.wait_for_event("Page.loadEventFired", self.from)?;
        Ok(self.tab)
    }
}

#[test]
fn a_page_is_opened_clicked_read_and_shot_through_the_pipe() {
    let b = Browser::new(LaunchOptions::default()).unwrap();
    let tab = b.new_tab().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.html");
    std::fs::write(
        &page,
        "<!doctype html><button id=b style='width:100px;height:50px' onclick='this.textContent=\"hit\"'>x</button><input id=i>",
    )
    .unwrap();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let r = requests.clone();
    tab.call("Network.enable", json!({})).unwrap();
    tab.add_event_listener(Arc::new(move |m: &str, p: &Value| {
        if m == "Network.requestWillBeSent" {
            r.lock()
                .unwrap()
                .push(p["request"]["url"].as_str().unwrap_or("").to_string());
        }
    }))
    .unwrap();
    let url = format!("file://{}", page.display());
    tab.navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#b").unwrap().click().unwrap();
    assert_eq!(
        tab.evaluate("document.getElementById('b').textContent", false)
            .unwrap()
            .value,
        Some(Value::String("hit".into()))
    );
    tab.evaluate("document.getElementById('i').focus()", false)
        .unwrap();
    tab.send_character("pw").unwrap();
    assert_eq!(
        tab.evaluate("document.getElementById('i').value", false)
            .unwrap()
            .value,
        Some(Value::String("pw".into()))
    );
    let err = tab.evaluate("nosuch.thing", false).err().unwrap();
    assert!(err.0.contains("nosuch"), "{err}");
    tab.set_metrics(375, 812).unwrap();
    let png = tab.screenshot(None).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(requests.lock().unwrap().as_slice(), [url]);
    tab.close(false).unwrap();
}
