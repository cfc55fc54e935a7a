//! For tests that restart the server: a PostgreSQL server of the test's own (`initdb` into a
//! temporary folder, `pg_ctl start` on a free loopback port, `trust` authentication on loopback),
//! stopped and deleted when dropped. Restarting the machine's shared cluster would cut every other
//! test's connections; this one belongs to one test.
//!
//! It needs the server binaries (`/usr/lib/postgresql/15/bin`, or the folder of
//! `WELLKNOWN_TEST_PG_BIN`); run as root, they run as the `postgres` user (`runuser`), which must
//! exist. Without them the test says why and passes without running, except under `CI=true`, where
//! it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The default folder of the server binaries (Debian's PostgreSQL 15).
pub const DEFAULT_BIN: &str = "/usr/lib/postgresql/15/bin";

/// A running server of one test.
pub struct PrivateServer {
    bin: PathBuf,
    dir: PathBuf,
    /// Its loopback port.
    pub port: u16,
    as_root: bool,
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl PrivateServer {
    /// Starts one; `None` (after saying why) when the binaries are missing outside CI.
    ///
    /// Panics: under `CI=true` without the binaries; `initdb` or `pg_ctl start` failing.
    pub fn start() -> Option<PrivateServer> {
        let bin = PathBuf::from(std::env::var("WELLKNOWN_TEST_PG_BIN").unwrap_or_else(|_| DEFAULT_BIN.into()));
        if !bin.join("initdb").is_file() {
            let why = format!("no PostgreSQL server binaries in {} (set WELLKNOWN_TEST_PG_BIN)", bin.display());
            assert!(std::env::var("CI").map_or(true, |v| v != "true"), "CI=true: {why}");
            eprintln!("skipped: {why}");
            return None;
        }
        let as_root = is_root();
        let dir = std::env::temp_dir().join(format!(
            "wellknown-pg-{}-{}",
            std::process::id(),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).expect("the server's folder");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let server = PrivateServer { bin, dir, port, as_root };
        if as_root {
            let ok = Command::new("chown").args(["-R", "postgres:postgres"]).arg(&server.dir).status();
            assert!(ok.is_ok_and(|s| s.success()), "chown of {} to postgres", server.dir.display());
        }
        let data = server.dir.join("data");
        server.run("initdb", &["-D", &data.display().to_string(), "-A", "trust", "-U", "wellknown", "--no-sync"]);
        let options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", server.port, server.dir.display());
        server.pg_ctl(&["start", "-o", &options]);
        Some(server)
    }

    /// The server binary `program`, run as the `postgres` user when the tests run as root.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self
            .command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", self.bin.join(program).display()));
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.dir.join("data").display().to_string();
        let log = self.dir.join("server.log").display().to_string();
        let mut all = vec!["-D", &data, "-l", &log, "-w", "-t", "60"];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all);
    }

    /// The URL of database `db` on it (role `wellknown`, no password: `trust` on loopback).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://wellknown@127.0.0.1:{}/{db}?sslmode=disable", self.port)
    }

    /// Restarts it (`pg_ctl restart -m fast`: every session is ended, as a crash or an upgrade
    /// would), waiting until it accepts connections again.
    pub fn restart(&self) {
        self.pg_ctl(&["restart", "-m", "fast"]);
    }

    /// Its folder (data and `server.log`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for PrivateServer {
    fn drop(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let _ = self.command("pg_ctl").args(["-D", &data, "-m", "immediate", "-w", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
