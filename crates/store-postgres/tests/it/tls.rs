//! TLS to the server, per `sslmode`: the test server's own certificate (`SHOW ssl_cert_file`, the
//! Debian cluster's self-signed `ssl-cert-snakeoil.pem` for `localhost`) is the trusted CA of
//! `verify-full`.

use wellknown_store_postgres::{Env, PostgresStore, SslMode, Target};

use crate::pg;

/// The test server as `params` say, the admin role, database `db`.
fn with(server: &pg::Server, db: &str, params: &str) -> Target {
    let a = &server.admin;
    let url = format!("postgres://{}@{}:{}/{db}?{params}", a.user, a.host, a.port);
    Target::parse(&url, &Env::from_process()).unwrap()
}

/// The server's certificate file, if it has TLS on and this process can read it.
fn server_cert(server: &pg::Server) -> Option<String> {
    let mut c = server.admin_client();
    let on: String = c.query_one("SHOW ssl", &[]).unwrap().get(0);
    assert_eq!(on, "on", "the test server has TLS off: set ssl = on in its postgresql.conf");
    let file: String = c.query_one("SELECT current_setting('ssl_cert_file')", &[]).ok()?.get(0);
    std::fs::metadata(&file).is_ok().then_some(file)
}

#[test]
fn each_sslmode_encrypts_or_verifies_as_libpq_does() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let with = |server: &pg::Server, params: &str| with(server, &db.name, params);
    let mut plain = PostgresStore::open(with(&server, "sslmode=disable")).unwrap();
    assert!(!plain.uses_tls().unwrap());
    let mut required = PostgresStore::open(with(&server, "sslmode=require")).unwrap();
    assert!(required.uses_tls().unwrap(), "require encrypts");
    let mut preferred = PostgresStore::open(with(&server, "sslmode=prefer")).unwrap();
    assert!(preferred.uses_tls().unwrap(), "prefer encrypts when the server offers TLS");

    let err = PostgresStore::open(with(&server, "sslmode=verify-full")).unwrap_err().to_string();
    assert!(err.contains("needs trusted CA certificates") && err.contains("sslrootcert"), "{err}");
    let Some(cert) = server_cert(&server) else {
        panic!("the test server's certificate file cannot be read by this process: cannot test verify-full")
    };
    // Trusted, and named `localhost` (dialled at the test server's address).
    let addr = server.admin.host.parse::<std::net::IpAddr>().map(|a| format!("&hostaddr={a}")).unwrap_or_default();
    let mut full = PostgresStore::open(
        with(&server, &format!("sslmode=verify-full&sslrootcert={cert}{addr}")).tap_host("localhost"),
    )
    .unwrap();
    assert!(full.uses_tls().unwrap());
    // The same CA, but the certificate does not name 127.0.0.1: verify-full refuses, verify-ca takes it.
    let by_ip = |mode: &str| {
        let mut t = with(&server, &format!("sslmode={mode}&sslrootcert={cert}"));
        t.host = "127.0.0.1".into();
        t.hostaddr = None;
        t
    };
    let err = PostgresStore::open(by_ip("verify-full")).unwrap_err().to_string();
    assert!(err.to_lowercase().contains("certificate"), "{err}");
    let mut ca = PostgresStore::open(by_ip("verify-ca")).unwrap();
    assert!(ca.uses_tls().unwrap());
    assert_eq!(by_ip("verify-ca").sslmode, SslMode::VerifyCa);
    // Another CA (the public roots) does not trust a self-signed certificate.
    let err = PostgresStore::open(by_ip("verify-ca").tap_roots_system()).unwrap_err().to_string();
    assert!(err.to_lowercase().contains("certificate"), "{err}");
}

trait Tap {
    fn tap_host(self, host: &str) -> Self;
    fn tap_roots_system(self) -> Self;
}

impl Tap for Target {
    fn tap_host(mut self, host: &str) -> Target {
        if self.hostaddr.is_none() {
            self.hostaddr = self.host.parse().ok();
        }
        self.host = host.into();
        self
    }

    fn tap_roots_system(mut self) -> Target {
        self.roots = wellknown_store_postgres::connect::Roots::System;
        self
    }
}
