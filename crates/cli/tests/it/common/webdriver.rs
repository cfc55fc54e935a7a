//! A small WebDriver client (W3C WebDriver, https://www.w3.org/TR/webdriver2/) for Debian's
//! `chromedriver` driving headless `chromium`, over plain HTTP/1.1 on loopback (std's TcpStream: no
//! HTTP or TLS stack of its own). Used by the graph page's browser test.
//!
//! Under `CI=true` a missing browser is a failure; elsewhere [`Browser::start`] returns None and the
//! caller skips with a message naming the packages.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process and one browser session.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

/// Whether chromium and chromedriver are installed; under `CI=true` their absence panics.
pub fn available() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{CHROMIUM} or {CHROMEDRIVER} missing under CI=true: apt-get install chromium chromium-driver (.ci/run does)"
        );
        eprintln!(
            "skipping the browser test: {CHROMIUM} or {CHROMEDRIVER} missing (apt-get install chromium chromium-driver)"
        );
    }
    present
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One HTTP request to the driver; the response's JSON `value`.
fn call(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).and_then(|()| s.write_all(body.as_bytes())).map_err(|e| e.to_string())?;
    // chromedriver keeps the connection open: read the head, then Content-Length bytes (or chunks).
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let head_end = loop {
        if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err(format!("{method} {path}: connection closed before the head"));
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let length =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let have = raw.len() - head_end;
        let done = match length {
            Some(n) => have >= n,
            None => chunked && raw.ends_with(b"0\r\n\r\n"),
        };
        if done {
            break;
        }
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&raw[head_end..]).into_owned();
    let body = if chunked { dechunk(&text) } else { text };
    let v: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    if v["value"]["error"].is_string() {
        return Err(format!("{method} {path}: {}", v["value"]));
    }
    Ok(v["value"].clone())
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless chromium session (fresh profile,
    /// no GPU, no sandbox, no background networking). None when they are not installed (outside CI).
    pub fn start() -> Option<Browser> {
        if !available() {
            return None;
        }
        let port = free_port();
        let mut driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(60);
        while call(port, "GET", "/status", None).map(|v| v["ready"] == true) != Ok(true) {
            if Instant::now() > deadline {
                let _ = driver.kill();
                let _ = driver.wait();
                panic!("chromedriver did not start");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1400,900".into(),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}});
        let mut b = Browser { driver, port, session: String::new(), _profile: profile };
        let v = call(port, "POST", "/session", Some(&caps)).expect("new session");
        b.session = v["sessionId"].as_str().expect("session id").to_string();
        Some(b)
    }

    fn post(&self, what: &str, body: &Value) -> Value {
        call(self.port, "POST", &format!("/session/{}/{what}", self.session), Some(body)).unwrap()
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.post("url", &json!({"url": url}));
    }

    /// Runs `script` (a function body: `return ...`) in the page with `args`.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.post("execute/sync", &json!({"script": script, "args": args}))
    }

    /// Waits until `script` returns true (page readiness), at most `limit`.
    pub fn wait_for(&self, script: &str, limit: Duration) -> Duration {
        let start = Instant::now();
        while self.js(script, json!([])) != json!(true) {
            assert!(start.elapsed() < limit, "the page was not ready after {limit:?}: {script}");
            std::thread::sleep(Duration::from_millis(100));
        }
        start.elapsed()
    }

    /// A real pointer click (move, press, release) at (x, y) of the viewport, in CSS pixels.
    pub fn click_at(&self, x: i64, y: i64) {
        self.post(
            "actions",
            &json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"},
                    {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 50},
                    {"type": "pointerUp", "button": 0}]}]}),
        );
    }

    /// The window's screenshot, PNG bytes.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine as _;
        let v = call(self.port, "GET", &format!("/session/{}/screenshot", self.session), None).unwrap();
        base64::engine::general_purpose::STANDARD.decode(v.as_str().expect("base64 PNG")).unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = call(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
