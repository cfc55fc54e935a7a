//! SOCKS5 `CONNECT` (RFC 1928) with optional user name and password authentication (RFC 1929),
//! through the `tokio-socks` crate, over a connection the fetcher already opened to the proxy (so
//! its connect timeout, byte counting and minimum-rate rule hold). This module chooses what the
//! proxy is asked for and maps the crate's errors ([`tokio_socks::Error`]) to the fetcher's
//! failure classes, so the proxy's answers (reply codes, refused credentials) are told apart from
//! the target's.

use tokio_socks::tcp::Socks5Stream;
use tokio_socks::{Error, IntoTargetAddr, TargetAddr};
use wellknown_core::{FailureClass, FetchFailure};

use crate::connect::Io;
use crate::error::failure;
use crate::proxy::ProxyCredentials;

/// What the proxy is asked to connect to: an address (ATYP 1 or 4) or a name the proxy resolves
/// (ATYP 3, `socks5h`).
pub(crate) type SocksTarget = TargetAddr<'static>;

/// The target `name:port` sent as a name (ATYP 3).
///
/// Errors: [`Error::InvalidTargetAddress`] for a name over 255 bytes (RFC 1928 section 5 gives it
/// one length byte). Building the target through `IntoTargetAddr` is what checks that: the crate
/// writes a `TargetAddr::Domain` made by hand without a check.
pub(crate) fn named(name: String, port: u16) -> Result<SocksTarget, Error> {
    (name, port).into_target_addr()
}

/// Negotiates a method (no authentication, plus user/password when `credentials` are given),
/// authenticates when the proxy asks, and requests a `CONNECT` to `target`. On success the
/// returned stream (the one given) carries the target's bytes.
///
/// Errors: the crate's, classified by [`failure_of`].
pub(crate) async fn connect(
    io: Box<dyn Io>,
    target: &SocksTarget,
    credentials: Option<&ProxyCredentials>,
) -> Result<Box<dyn Io>, Error> {
    let target = target.clone();
    let stream = match credentials {
        None => Socks5Stream::connect_with_socket(io, target).await?,
        Some(c) => Socks5Stream::connect_with_password_and_socket(io, target, &c.user, &c.password).await?,
    };
    Ok(stream.into_inner())
}

/// The reply code of an error reply and its meaning (RFC 1928 section 6), or `None` when `e` is
/// not a reply: the proxy could not reach the target, so its next address may do.
///
/// tokio-socks 0.5 reports the unassigned codes 9 to 255 as [`Error::UnknownAuthMethod`], the
/// error of a method that was not offered; those codes are therefore not told apart here.
pub(crate) fn reply(e: &Error) -> Option<(u8, &'static str)> {
    Some(match e {
        Error::GeneralSocksServerFailure => (1, "general SOCKS server failure"),
        Error::ConnectionNotAllowedByRuleset => (2, "connection not allowed by ruleset"),
        Error::NetworkUnreachable => (3, "network unreachable"),
        Error::HostUnreachable => (4, "host unreachable"),
        Error::ConnectionRefused => (5, "connection refused"),
        Error::TtlExpired => (6, "TTL expired"),
        Error::CommandNotSupported => (7, "command not supported"),
        Error::AddressTypeNotSupported => (8, "address type not supported"),
        _ => return None,
    })
}

/// The failure of a SOCKS5 handshake with the proxy `shown` (`HOST:PORT`) for `target`
/// (`a.example:443`, `192.0.2.1:443`, `[2001:db8::1]:443`); `with_credentials` tells whether
/// user/password was offered.
///
/// Classes: refused or missing credentials are `proxy_auth_required`; an error reply (code and
/// meaning in the message) or an answer that is not SOCKS5 is `proxy_socks`; a closed connection or
/// another I/O error during the handshake is `proxy_connect`.
pub(crate) fn failure_of(
    shown: &str,
    target: &dyn std::fmt::Display,
    with_credentials: bool,
    e: Error,
) -> FetchFailure {
    let what = format!("proxy {shown}: SOCKS5 CONNECT {target}");
    let (class, why) = match e {
        Error::NoAcceptableAuthMethods if with_credentials => (
            FailureClass::ProxyAuthRequired,
            "the proxy accepts neither no authentication nor user/password".to_string(),
        ),
        Error::NoAcceptableAuthMethods => (
            FailureClass::ProxyAuthRequired,
            "the proxy accepts no method without credentials (none given)".to_string(),
        ),
        Error::PasswordAuthFailure(status) => {
            (FailureClass::ProxyAuthRequired, format!("the proxy refused the user name and password (status {status})"))
        }
        // Checked when the proxy URL is parsed (`ProxyUrl`), so not expected here.
        Error::InvalidAuthValues(why) => (FailureClass::ProxyAuthRequired, format!("credentials: {why}")),
        // The proxy chose user/password although only "no authentication" was offered.
        Error::AuthorizationRequired => (
            FailureClass::ProxySocks,
            "the proxy chose user/password authentication, which was not offered (no credentials given)".to_string(),
        ),
        Error::UnknownAuthMethod => (
            FailureClass::ProxySocks,
            "the proxy chose a method that was not offered, or answered an unassigned reply code".to_string(),
        ),
        Error::InvalidResponseVersion => {
            (FailureClass::ProxySocks, "the answer is not SOCKS5 (wrong version byte)".to_string())
        }
        Error::InvalidReservedByte => {
            (FailureClass::ProxySocks, "the reply is not SOCKS5 (reserved byte not 0)".to_string())
        }
        Error::UnknownAddressType => (FailureClass::ProxySocks, "the reply has an unknown address type".to_string()),
        Error::InvalidTargetAddress("overlong domain") => {
            (FailureClass::ProxySocks, "the name is longer than SOCKS5 allows (255 bytes)".to_string())
        }
        Error::InvalidTargetAddress(why) => (FailureClass::ProxySocks, format!("address: {why}")),
        Error::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            (FailureClass::ProxyConnect, "the proxy closed the connection during the handshake".to_string())
        }
        Error::Io(e) => (FailureClass::ProxyConnect, e.to_string()),
        other => match reply(&other) {
            Some((code, meaning)) => (FailureClass::ProxySocks, format!("reply {code} ({meaning})")),
            // SOCKS4 and proxy-dialling errors: not produced over a given SOCKS5 connection.
            None => (FailureClass::ProxySocks, other.to_string()),
        },
    };
    failure(class, format!("{what}: {why}"))
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// Runs the handshake against a peer that answers `answers` (all at once) and returns what the
    /// client sent and the outcome as a failure of the proxy `p:1080`.
    async fn run(
        target: SocksTarget,
        creds: Option<ProxyCredentials>,
        answers: &[u8],
    ) -> (Vec<u8>, Result<(), FetchFailure>) {
        let (client, mut server) = tokio::io::duplex(4096);
        server.write_all(answers).await.unwrap();
        // The peer says no more: a short answer ends in an unexpected end of stream.
        server.shutdown().await.unwrap();
        let outcome = connect(Box::new(client), &target, creds.as_ref()).await;
        let outcome = match outcome {
            Ok(io) => {
                drop(io);
                Ok(())
            }
            Err(e) => Err(failure_of("p:1080", &target, creds.is_some(), e)),
        };
        let mut sent = Vec::new();
        server.read_to_end(&mut sent).await.unwrap();
        (sent, outcome)
    }

    fn addr(text: &str) -> SocksTarget {
        TargetAddr::Ip(text.parse().unwrap())
    }

    /// The class and message of a failed outcome.
    fn failed(r: Result<(), FetchFailure>) -> (FailureClass, String) {
        let f = r.unwrap_err();
        (f.class, f.message)
    }

    #[tokio::test]
    async fn a_socks5h_name_is_sent_as_a_name() {
        let answers = [5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0x1F, 0x90];
        let (sent, r) = run(named("a.example".into(), 443).unwrap(), None, &answers).await;
        r.unwrap();
        let mut want = vec![5, 1, 0, 5, 1, 0, 3, 9];
        want.extend_from_slice(b"a.example");
        want.extend_from_slice(&[1, 187]);
        assert_eq!(sent, want);
    }

    #[tokio::test]
    async fn credentials_are_offered_and_an_address_sent_as_an_address() {
        let creds = ProxyCredentials { user: "u".into(), password: "pw".into() };
        let answers = [5, 2, 1, 0, 5, 0, 0, 3, 2, b'h', b'x', 0, 80];
        let (sent, r) = run(addr("[::1]:8080"), Some(creds), &answers).await;
        r.unwrap();
        let mut want = vec![5, 2, 0, 2, 1, 1, b'u', 2, b'p', b'w', 5, 1, 0, 4];
        want.extend_from_slice(&[0; 15]);
        want.extend_from_slice(&[1, 0x1F, 0x90]);
        assert_eq!(sent, want);
    }

    #[tokio::test]
    async fn refused_or_missing_credentials_are_proxy_auth_required() {
        let creds = || Some(ProxyCredentials { user: "u".into(), password: "bad".into() });
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, &[5, 0xFF]).await.1);
        assert_eq!(class, FailureClass::ProxyAuthRequired);
        assert_eq!(
            message,
            "proxy p:1080: SOCKS5 CONNECT 192.0.2.1:443: the proxy accepts no method without credentials (none given)"
        );
        let (class, message) = failed(run(addr("192.0.2.1:443"), creds(), &[5, 0xFF]).await.1);
        assert_eq!(class, FailureClass::ProxyAuthRequired);
        assert!(message.ends_with("accepts neither no authentication nor user/password"), "{message}");
        let (class, message) = failed(run(addr("192.0.2.1:443"), creds(), &[5, 2, 1, 1]).await.1);
        assert_eq!(class, FailureClass::ProxyAuthRequired);
        assert!(message.ends_with("the proxy refused the user name and password (status 1)"), "{message}");
    }

    #[tokio::test]
    async fn each_reply_code_keeps_its_number_and_meaning() {
        for (code, meaning) in [
            (1, "general SOCKS server failure"),
            (2, "connection not allowed by ruleset"),
            (3, "network unreachable"),
            (4, "host unreachable"),
            (5, "connection refused"),
            (6, "TTL expired"),
            (7, "command not supported"),
            (8, "address type not supported"),
        ] {
            let answers = [5, 0, 5, code, 0, 1, 0, 0, 0, 0, 0, 0];
            let (class, message) = failed(run(addr("192.0.2.1:443"), None, &answers).await.1);
            assert_eq!(class, FailureClass::ProxySocks);
            assert_eq!(message, format!("proxy p:1080: SOCKS5 CONNECT 192.0.2.1:443: reply {code} ({meaning})"));
        }
        assert_eq!(reply(&Error::HostUnreachable), Some((4, "host unreachable")));
        assert_eq!(reply(&Error::PasswordAuthFailure(1)), None, "not a reply: no next address");
    }

    #[tokio::test]
    async fn answers_that_are_not_socks5_are_proxy_socks() {
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, b"HTTP/1.1 400 Bad Request\r\n\r\n").await.1);
        assert_eq!(class, FailureClass::ProxySocks);
        assert!(message.ends_with("the answer is not SOCKS5 (wrong version byte)"), "{message}");
        // Only "no authentication" offered, and the proxy picks user/password (0x02) or GSSAPI (0x01).
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, &[5, 2]).await.1);
        assert_eq!(class, FailureClass::ProxySocks);
        assert!(message.contains("which was not offered"), "{message}");
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, &[5, 1]).await.1);
        assert_eq!(class, FailureClass::ProxySocks);
        assert!(message.contains("a method that was not offered"), "{message}");
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, &[5, 0, 5, 0, 0, 9]).await.1);
        assert_eq!(class, FailureClass::ProxySocks);
        assert!(message.ends_with("the reply has an unknown address type"), "{message}");
    }

    #[tokio::test]
    async fn a_closed_connection_is_proxy_connect() {
        let (class, message) = failed(run(addr("192.0.2.1:443"), None, &[5]).await.1);
        assert_eq!(class, FailureClass::ProxyConnect);
        assert_eq!(
            message,
            "proxy p:1080: SOCKS5 CONNECT 192.0.2.1:443: the proxy closed the connection during the handshake"
        );
    }

    #[test]
    fn a_name_over_255_bytes_is_refused_before_anything_is_sent() {
        assert!(named("a".repeat(255), 443).is_ok());
        let e = named("a".repeat(256), 443).unwrap_err();
        let f = failure_of("p:1080", &"aaa…:443", false, e);
        assert_eq!(f.class, FailureClass::ProxySocks);
        assert!(f.message.ends_with("the name is longer than SOCKS5 allows (255 bytes)"), "{}", f.message);
    }
}
