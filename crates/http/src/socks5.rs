//! The client side of a SOCKS5 `CONNECT` (RFC 1928) with optional user name and password
//! authentication (RFC 1929), over a connection already open to the proxy. Every way it can fail
//! is told apart ([`SocksError`]), so the fetcher classifies the proxy's answers (reply codes,
//! refused credentials) apart from the target's.

use std::io;
use std::net::{IpAddr, SocketAddr};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::proxy::ProxyCredentials;

/// What the proxy is asked to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SocksTarget {
    /// An address (ATYP 1 or 4).
    Addr(SocketAddr),
    /// A name the proxy resolves (ATYP 3, `socks5h`), at most 255 bytes.
    Name(String, u16),
}

/// Why a SOCKS5 handshake failed.
#[derive(Debug)]
pub(crate) enum SocksError {
    /// No offered method acceptable (0xFF), or the user name and password were refused.
    Auth(String),
    /// The proxy answered the request with this non-zero reply code (RFC 1928 section 6).
    Reply(u8),
    /// The proxy's answer is not SOCKS5, or the request cannot be expressed in it.
    Protocol(String),
    /// Reading or writing failed (closed connection included).
    Io(io::Error),
}

impl From<io::Error> for SocksError {
    fn from(e: io::Error) -> SocksError {
        SocksError::Io(e)
    }
}

/// The meaning of a reply code, RFC 1928 section 6.
pub(crate) fn reply_meaning(code: u8) -> &'static str {
    match code {
        1 => "general SOCKS server failure",
        2 => "connection not allowed by ruleset",
        3 => "network unreachable",
        4 => "host unreachable",
        5 => "connection refused",
        6 => "TTL expired",
        7 => "command not supported",
        8 => "address type not supported",
        _ => "unassigned reply code",
    }
}

const VERSION: u8 = 5;
const NO_AUTH: u8 = 0x00;
const USER_PASS: u8 = 0x02;
const NONE_ACCEPTABLE: u8 = 0xFF;

/// Negotiates a method, authenticates when asked, and requests a `CONNECT` to `target`. On success
/// the stream carries the target's bytes.
pub(crate) async fn connect<S>(
    stream: &mut S,
    target: &SocksTarget,
    credentials: Option<&ProxyCredentials>,
) -> Result<(), SocksError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let request = request(target)?;
    let methods: &[u8] = if credentials.is_some() { &[VERSION, 2, NO_AUTH, USER_PASS] } else { &[VERSION, 1, NO_AUTH] };
    stream.write_all(methods).await?;
    let mut choice = [0u8; 2];
    stream.read_exact(&mut choice).await?;
    if choice[0] != VERSION {
        return Err(SocksError::Protocol(format!("the answer is not SOCKS5 (version byte {})", choice[0])));
    }
    match (choice[1], credentials) {
        (NO_AUTH, _) => {}
        (USER_PASS, Some(c)) => {
            let mut auth = vec![1u8];
            for field in [c.user.as_bytes(), c.password.as_bytes()] {
                let len = u8::try_from(field.len())
                    .map_err(|_| SocksError::Auth("user name or password over 255 bytes".to_string()))?;
                auth.push(len);
                auth.extend_from_slice(field);
            }
            stream.write_all(&auth).await?;
            let mut status = [0u8; 2];
            stream.read_exact(&mut status).await?;
            if status[1] != 0 {
                return Err(SocksError::Auth("the proxy refused the user name and password".to_string()));
            }
        }
        (NONE_ACCEPTABLE, None) => {
            return Err(SocksError::Auth("the proxy accepts no method without credentials (none given)".to_string()));
        }
        (NONE_ACCEPTABLE, Some(_)) => {
            return Err(SocksError::Auth("the proxy accepts neither no authentication nor user/password".to_string()));
        }
        (other, _) => {
            return Err(SocksError::Protocol(format!("the proxy chose method {other:#04x}, which was not offered")));
        }
    }
    stream.write_all(&request).await?;
    let mut head = [0u8; 4];
    stream.read_exact(&mut head).await?;
    if head[0] != VERSION {
        return Err(SocksError::Protocol(format!("the reply is not SOCKS5 (version byte {})", head[0])));
    }
    if head[1] != 0 {
        return Err(SocksError::Reply(head[1]));
    }
    // The bound address and port, read and ignored.
    let rest = match head[3] {
        1 => 4 + 2,
        4 => 16 + 2,
        3 => {
            let mut len = [0u8; 1];
            stream.read_exact(&mut len).await?;
            usize::from(len[0]) + 2
        }
        other => return Err(SocksError::Protocol(format!("the reply has an unknown address type {other}"))),
    };
    let mut bound = vec![0u8; rest];
    stream.read_exact(&mut bound).await?;
    Ok(())
}

/// The `CONNECT` request for `target` (RFC 1928 section 4).
fn request(target: &SocksTarget) -> Result<Vec<u8>, SocksError> {
    let mut out = vec![VERSION, 1, 0];
    let port = match target {
        SocksTarget::Addr(sa) => {
            match sa.ip() {
                IpAddr::V4(v4) => {
                    out.push(1);
                    out.extend_from_slice(&v4.octets());
                }
                IpAddr::V6(v6) => {
                    out.push(4);
                    out.extend_from_slice(&v6.octets());
                }
            }
            sa.port()
        }
        SocksTarget::Name(name, port) => {
            let len = u8::try_from(name.len()).map_err(|_| {
                SocksError::Protocol(format!("the name {name:?} is longer than SOCKS5 allows (255 bytes)"))
            })?;
            out.push(3);
            out.push(len);
            out.extend_from_slice(name.as_bytes());
            *port
        }
    };
    out.extend_from_slice(&port.to_be_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the handshake against a peer that answers `answers` (all at once) and returns what the
    /// client sent and the outcome.
    async fn run(
        target: SocksTarget,
        creds: Option<ProxyCredentials>,
        answers: &[u8],
    ) -> (Vec<u8>, Result<(), SocksError>) {
        let (mut client, mut server) = tokio::io::duplex(4096);
        server.write_all(answers).await.unwrap();
        // The peer says no more: a short answer ends in an unexpected end of stream.
        server.shutdown().await.unwrap();
        let outcome = connect(&mut client, &target, creds.as_ref()).await;
        drop(client);
        let mut sent = Vec::new();
        server.read_to_end(&mut sent).await.unwrap();
        (sent, outcome)
    }

    #[tokio::test]
    async fn connects_by_name_without_credentials() {
        let answers = [5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0x1F, 0x90];
        let (sent, r) = run(SocksTarget::Name("a.example".into(), 443), None, &answers).await;
        r.unwrap();
        let mut want = vec![5, 1, 0, 5, 1, 0, 3, 9];
        want.extend_from_slice(b"a.example");
        want.extend_from_slice(&[1, 187]);
        assert_eq!(sent, want);
    }

    #[tokio::test]
    async fn authenticates_and_connects_by_address() {
        let creds = ProxyCredentials { user: "u".into(), password: "pw".into() };
        let answers = [5, 2, 1, 0, 5, 0, 0, 3, 2, b'h', b'x', 0, 80];
        let target = SocksTarget::Addr("[::1]:8080".parse().unwrap());
        let (sent, r) = run(target, Some(creds), &answers).await;
        r.unwrap();
        let mut want = vec![5, 2, 0, 2, 1, 1, b'u', 2, b'p', b'w', 5, 1, 0, 4];
        want.extend_from_slice(&[0; 15]);
        want.extend_from_slice(&[1, 0x1F, 0x90]);
        assert_eq!(sent, want);
    }

    #[tokio::test]
    async fn each_failure_is_told_apart() {
        let target = || SocksTarget::Addr("192.0.2.1:443".parse().unwrap());
        let creds = || Some(ProxyCredentials { user: "u".into(), password: "bad".into() });
        let (_, r) = run(target(), None, &[5, 0xFF]).await;
        assert!(matches!(r, Err(SocksError::Auth(m)) if m.contains("none given")));
        let (_, r) = run(target(), creds(), &[5, 2, 1, 1]).await;
        assert!(matches!(r, Err(SocksError::Auth(m)) if m.contains("refused the user name")));
        let (_, r) = run(target(), None, &[5, 0, 5, 5, 0, 1, 0, 0, 0, 0, 0, 0]).await;
        assert!(matches!(r, Err(SocksError::Reply(5))));
        assert_eq!(reply_meaning(5), "connection refused");
        let (_, r) = run(target(), None, b"HTTP/1.1 400 Bad Request\r\n\r\n").await;
        assert!(matches!(r, Err(SocksError::Protocol(m)) if m.contains("not SOCKS5")));
        let (_, r) = run(target(), None, &[5]).await;
        assert!(matches!(r, Err(SocksError::Io(e)) if e.kind() == io::ErrorKind::UnexpectedEof));
        let long = SocksTarget::Name("a".repeat(256), 443);
        let (sent, r) = run(long, None, &[]).await;
        assert!(matches!(r, Err(SocksError::Protocol(m)) if m.contains("255 bytes")));
        assert!(sent.is_empty(), "nothing sent for a request that cannot be expressed");
    }
}
