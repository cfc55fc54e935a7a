//! Where the store is: a `postgres://` (or `postgresql://`) URL, completed from the environment as
//! libpq completes it (PostgreSQL documentation, "Connection Strings", section 34.1.1, and
//! "Environment Variables", section 34.15), and the password looked up so that it never has to be
//! written on a command line, where `ps` shows it.
//!
//! URL: `postgres://[user[:password]@][host][:port][/database][?param=value&...]`. Parameters:
//! `host`, `hostaddr` (the address to dial while `host` names the server for TLS), `port`, `user`,
//! `dbname`, `password`, `passfile`, `sslmode` (`disable`, `prefer`, `require`, `verify-ca`,
//! `verify-full`), `sslrootcert` (a PEM file of CA certificates, or `system` for the Mozilla roots the
//! fetcher uses), `application_name`, `connect_timeout` (seconds), `options`. Any other parameter is
//! an error (it would otherwise be silently ignored).
//!
//! Defaults, in libpq's order: the URL, then `PGHOST`, `PGHOSTADDR`, `PGPORT`, `PGDATABASE`,
//! `PGUSER`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGAPPNAME`, `PGCONNECT_TIMEOUT`; then host `localhost`,
//! port 5432, the operating-system user, a database named as the user, `sslmode=prefer`.
//!
//! Password, first found: the URL's (allowed, not needed); `PGPASSWORD`; the password file
//! (`passfile`, else `PGPASSFILE`, else `~/.pgpass`), whose entry matches host, port, database and
//! user (`pgpass.rs`). A password file that others may read (any group or other permission
//! bit) is refused with an error, as it would leak the password.

use std::path::{Path, PathBuf};
use std::time::Duration;

use wellknown_store::StoreError;

use crate::pgpass;

/// libpq's `sslmode`: whether the connection is encrypted and what is verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// Plain TCP.
    Disable,
    /// TLS when the server offers it, plain otherwise; the certificate is not verified.
    Prefer,
    /// TLS or no connection; the certificate is not verified (the server still proves it holds the
    /// certificate's key).
    Require,
    /// TLS; the certificate chains to a trusted CA (`sslrootcert`); the host name is not checked.
    VerifyCa,
    /// TLS; the certificate chains to a trusted CA and names the host.
    VerifyFull,
}

impl SslMode {
    fn parse(s: &str) -> Result<SslMode, StoreError> {
        Ok(match s {
            "disable" => SslMode::Disable,
            "allow" | "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(StoreError::new(format!(
                    "sslmode={other} is not one of disable, prefer, require, verify-ca, verify-full"
                )));
            }
        })
    }

    /// Whether the certificate is verified against trusted CAs.
    pub fn verifies(self) -> bool {
        matches!(self, SslMode::VerifyCa | SslMode::VerifyFull)
    }
}

/// Where trusted CA certificates come from for `verify-ca` / `verify-full`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roots {
    /// A PEM file (`sslrootcert=FILE`, `PGSSLROOTCERT`, or `~/.postgresql/root.crt` when it exists).
    File(PathBuf),
    /// `sslrootcert=system`: the Mozilla roots (webpki-roots), as the fetcher trusts.
    System,
    /// None given and no `~/.postgresql/root.crt`: verification cannot succeed (an error on connect).
    Missing,
}

/// The process environment a connection is completed from (so tests can give their own).
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: Vec<(String, String)>,
    /// The home directory (`~/.pgpass`, `~/.postgresql/root.crt`).
    pub home: Option<PathBuf>,
}

impl Env {
    /// The environment of this process.
    pub fn from_process() -> Env {
        let vars = std::env::vars().filter(|(k, _)| k.starts_with("PG") || k == "USER" || k == "LOGNAME").collect();
        Env { vars, home: std::env::var_os("HOME").map(PathBuf::from) }
    }

    /// An environment of the given variables only.
    pub fn of(vars: &[(&str, &str)], home: Option<&Path>) -> Env {
        Env {
            vars: vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            home: home.map(Path::to_path_buf),
        }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.vars.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }
}

/// A complete connection target: what [`crate::PostgresStore`] dials.
#[derive(Clone)]
pub struct Target {
    /// Host name (or socket directory) as given.
    pub host: String,
    /// Address to dial instead of resolving `host`.
    pub hostaddr: Option<std::net::IpAddr>,
    /// Port.
    pub port: u16,
    /// Database.
    pub database: String,
    /// User (role).
    pub user: String,
    password: Option<String>,
    /// TLS mode.
    pub sslmode: SslMode,
    /// Trusted CAs when verifying.
    pub roots: Roots,
    /// `application_name` (default `wellknown`).
    pub application_name: String,
    /// Connect timeout (default 10 s).
    pub connect_timeout: Duration,
    /// `options` (server settings sent at startup, e.g. `-c search_path=...`).
    pub options: Option<String>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.display())
    }
}

impl Target {
    /// Parses `url` and completes it from `env`. The password is looked up here (see the module
    /// documentation); none found is not an error (the server may not ask for one).
    ///
    /// Errors: not a `postgres://` / `postgresql://` URL; an unknown parameter; a bad port,
    /// `hostaddr`, `sslmode` or `connect_timeout`; a password file others may read.
    pub fn parse(url: &str, env: &Env) -> Result<Target, StoreError> {
        let bad = |what: &str| StoreError::new(format!("the store URL {}: {what}", redact(url)));
        let parsed = url::Url::parse(url).map_err(|e| bad(&e.to_string()))?;
        if !matches!(parsed.scheme(), "postgres" | "postgresql") {
            return Err(bad("not a postgres:// or postgresql:// URL"));
        }
        let decode = |s: &str| percent_decode(s);
        let mut host = parsed.host_str().filter(|h| !h.is_empty()).map(|h| h.trim_matches(['[', ']']).to_string());
        let mut port = parsed.port();
        let mut user = Some(decode(parsed.username())).filter(|u| !u.is_empty());
        let mut password = parsed.password().map(decode);
        let mut database = Some(decode(parsed.path().trim_start_matches('/'))).filter(|d| !d.is_empty());
        let (mut hostaddr, mut passfile, mut sslmode, mut rootcert, mut app, mut timeout, mut options) =
            (None, None, None, None, None, None, None);
        for (k, v) in parsed.query_pairs() {
            let v = v.into_owned();
            match k.as_ref() {
                "host" => host = Some(v),
                "hostaddr" => hostaddr = Some(v),
                "port" => port = Some(v.parse().map_err(|_| bad(&format!("port={v} is not a port number")))?),
                "user" => user = Some(v),
                "dbname" => database = Some(v),
                "password" => password = Some(v),
                "passfile" => passfile = Some(PathBuf::from(v)),
                "sslmode" => sslmode = Some(v),
                "sslrootcert" => rootcert = Some(v),
                "application_name" => app = Some(v),
                "connect_timeout" => timeout = Some(v),
                "options" => options = Some(v),
                other => return Err(bad(&format!("unknown parameter {other:?}"))),
            }
        }
        let host = host.or_else(|| env.get("PGHOST").map(str::to_string)).unwrap_or_else(|| "localhost".into());
        let hostaddr = hostaddr
            .or_else(|| env.get("PGHOSTADDR").map(str::to_string))
            .map(|a| a.parse().map_err(|_| bad(&format!("hostaddr={a} is not an IP address"))))
            .transpose()?;
        let port = match port {
            Some(p) => p,
            None => match env.get("PGPORT") {
                Some(p) => p.parse().map_err(|_| bad(&format!("PGPORT={p} is not a port number")))?,
                None => 5432,
            },
        };
        let user = user
            .or_else(|| ["PGUSER", "USER", "LOGNAME"].iter().find_map(|k| env.get(k)).map(str::to_string))
            .ok_or_else(|| bad("no user: give one in the URL (postgres://USER@HOST/DB) or PGUSER"))?;
        let database = database.or_else(|| env.get("PGDATABASE").map(str::to_string)).unwrap_or_else(|| user.clone());
        let sslmode = SslMode::parse(sslmode.as_deref().or(env.get("PGSSLMODE")).unwrap_or("prefer"))
            .map_err(|e| bad(&e.to_string()))?;
        let roots = match rootcert.as_deref().or(env.get("PGSSLROOTCERT")) {
            Some("system") => Roots::System,
            Some(file) => Roots::File(PathBuf::from(file)),
            None => match env.home.as_ref().map(|h| h.join(".postgresql/root.crt")) {
                Some(default) if default.is_file() => Roots::File(default),
                _ => Roots::Missing,
            },
        };
        let connect_timeout = match timeout.as_deref().or(env.get("PGCONNECT_TIMEOUT")) {
            Some(t) => Duration::from_secs(
                t.parse::<u64>().map_err(|_| bad(&format!("connect_timeout={t} is not a number of seconds")))?.max(2),
            ),
            None => Duration::from_secs(10),
        };
        let mut target = Target {
            host,
            hostaddr,
            port,
            database,
            user,
            password: None,
            sslmode,
            roots,
            application_name: app.or_else(|| env.get("PGAPPNAME").map(str::to_string)).unwrap_or("wellknown".into()),
            connect_timeout,
            options,
        };
        target.password = match password.or_else(|| env.get("PGPASSWORD").map(str::to_string)) {
            Some(p) => Some(p),
            None => {
                let file = passfile
                    .or_else(|| env.get("PGPASSFILE").map(PathBuf::from))
                    .or_else(|| env.home.as_ref().map(|h| h.join(".pgpass")));
                match file {
                    Some(file) => target.password_from(&file)?,
                    None => None,
                }
            }
        };
        Ok(target)
    }

    /// The password for this target in the password file `file`; none when the file does not exist.
    fn password_from(&self, file: &Path) -> Result<Option<String>, StoreError> {
        let Ok(meta) = std::fs::metadata(file) else { return Ok(None) };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(StoreError::new(format!(
                    "the password file {} may be read by others (mode {mode:04o}): `chmod 600` it",
                    file.display()
                )));
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = std::fs::read_to_string(file)
            .map_err(|e| StoreError::new(format!("reading the password file {}: {e}", file.display())))?;
        let want = pgpass::Lookup { host: &self.host, port: self.port, database: &self.database, user: &self.user };
        Ok(pgpass::find(&text, &want))
    }

    /// Whether a password was found (the server may not need one).
    pub fn has_password(&self) -> bool {
        self.password.is_some()
    }

    /// The target as people read it, without its password: `postgres://user@host:port/database`.
    pub fn display(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        format!("postgres://{}@{host}:{}/{}", self.user, self.port, self.database)
    }

    /// The driver's configuration (TLS is set up by [`crate::tls`]).
    pub(crate) fn config(&self) -> postgres::Config {
        let mut c = postgres::Config::new();
        c.host(&self.host)
            .port(self.port)
            .user(&self.user)
            .dbname(&self.database)
            .application_name(&self.application_name)
            .connect_timeout(self.connect_timeout)
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(30));
        if let Some(addr) = self.hostaddr {
            c.hostaddr(addr);
        }
        if let Some(p) = &self.password {
            c.password(p);
        }
        if let Some(o) = &self.options {
            c.options(o);
        }
        c.ssl_mode(match self.sslmode {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            _ => postgres::config::SslMode::Require,
        });
        c
    }

    /// A copy naming another database (tests create one per test).
    pub fn with_database(&self, database: &str) -> Target {
        Target { database: database.to_string(), ..self.clone() }
    }
}

/// Whether `db` names a PostgreSQL store (`postgres://` or `postgresql://`) rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    let lower = db.get(..13).unwrap_or(db).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// `url` with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            if u.password().is_some() {
                let _ = u.set_password(Some("***"));
            }
            let pairs: Vec<(String, String)> = u
                .query_pairs()
                .map(|(k, v)| {
                    let v = if k == "password" { "***".to_string() } else { v.into_owned() };
                    (k.into_owned(), v)
                })
                .collect();
            if !pairs.is_empty() {
                u.query_pairs_mut().clear().extend_pairs(pairs);
            }
            u.to_string()
        }
        Err(_) => "(unparsable URL)".into(),
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_then_environment_then_defaults() {
        let env = Env::of(&[("PGPORT", "6543"), ("PGUSER", "envuser"), ("PGSSLMODE", "require")], None);
        let t = Target::parse("postgres://db.example/graph", &env).unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.user.as_str(), t.database.as_str()),
            ("db.example", 6543, "envuser", "graph")
        );
        assert_eq!(t.sslmode, SslMode::Require);
        assert_eq!(t.roots, Roots::Missing);
        assert!(!t.has_password());
        let t = Target::parse(
            "postgresql://w%40x:s3cret@[::1]:5433?dbname=d&sslmode=verify-full&sslrootcert=/ca.pem&hostaddr=127.0.0.1",
            &Env::default(),
        )
        .unwrap();
        assert_eq!((t.host.as_str(), t.port, t.user.as_str(), t.database.as_str()), ("::1", 5433, "w@x", "d"));
        assert_eq!((t.sslmode, t.roots.clone()), (SslMode::VerifyFull, Roots::File("/ca.pem".into())));
        assert_eq!(t.hostaddr, Some("127.0.0.1".parse().unwrap()));
        assert!(t.has_password());
        assert_eq!(t.display(), "postgres://w@x@[::1]:5433/d", "no password in what is shown");
        let t = Target::parse("postgres://u@h", &Env::default()).unwrap();
        assert_eq!((t.database.as_str(), t.sslmode, t.port), ("u", SslMode::Prefer, 5432));
    }

    #[test]
    fn errors_name_the_problem_and_hide_the_password() {
        let env = Env::default();
        let err = Target::parse("postgres://u:pw@h/d?sslmod=require", &env).unwrap_err().to_string();
        assert!(err.contains("unknown parameter \"sslmod\"") && !err.contains("pw@"), "{err}");
        assert!(err.contains("***"), "{err}");
        let err = Target::parse("postgres://u@h/d?sslmode=strict", &env).unwrap_err().to_string();
        assert!(err.contains("sslmode=strict"), "{err}");
        assert!(Target::parse("mysql://u@h/d", &env).is_err());
        assert!(Target::parse("postgres://h/d", &env).unwrap_err().to_string().contains("no user"));
    }

    #[test]
    fn password_from_the_environment_then_the_password_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(&file, "h:5432:d:u:from-file\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let f = file.to_str().unwrap();
        let from_env = Target::parse("postgres://u@h/d", &Env::of(&[("PGPASSWORD", "env"), ("PGPASSFILE", f)], None));
        assert_eq!(from_env.unwrap().password.as_deref(), Some("env"));
        let from_file = Target::parse("postgres://u@h/d", &Env::of(&[("PGPASSFILE", f)], None)).unwrap();
        assert_eq!(from_file.password.as_deref(), Some("from-file"));
        let param = Target::parse(&format!("postgres://u@h/d?passfile={f}"), &Env::default()).unwrap();
        assert_eq!(param.password.as_deref(), Some("from-file"));
        let home = Target::parse("postgres://u@h/d", &Env::of(&[], Some(dir.path()))).unwrap();
        assert_eq!(home.password, None, "no ~/.pgpass in that home");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = Target::parse("postgres://u@h/d", &Env::of(&[("PGPASSFILE", f)], None)).unwrap_err();
            assert!(err.to_string().contains("chmod 600"), "{err}");
        }
    }

    #[test]
    fn postgres_urls_are_told_from_paths() {
        assert!(is_postgres_url("postgres://h/d"));
        assert!(is_postgres_url("PostgreSQL://h/d"));
        assert!(!is_postgres_url("wellknown.db"));
        assert!(!is_postgres_url("./postgres://x"));
        assert!(!is_postgres_url("é"));
    }
}
