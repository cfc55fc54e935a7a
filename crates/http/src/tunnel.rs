//! An HTTP `CONNECT` tunnel (RFC 9110 section 9.3.6) through an HTTP proxy, sent with hyper's own
//! HTTP/1.1 client connection and taken over with hyper's upgrade (`hyper::upgrade::on`): the
//! answer's status is read as hyper parsed it, so a 407 and every other refusal are classified
//! apart from the target's failures.

use http::header::{HOST, PROXY_AUTHORIZATION};
use http::{HeaderValue, Method, Request};
use hyper::client::conn::http1;
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use wellknown_core::{FailureClass, FetchFailure};

use crate::connect::ReqBody;
use crate::error::failure;

/// Asks the proxy on `io` (named `proxy` in messages) to open a tunnel to `authority` (`host:port`,
/// `[v6]:port`), with `authorization` as `Proxy-Authorization`. On a 2xx the connection is the
/// tunnel.
///
/// Failures: `proxy_auth_required` (407), `proxy_tunnel` (any other status, or an answer that is
/// not HTTP), `proxy_connect` (the proxy closed the connection without an answer).
pub(crate) async fn open<T>(
    io: T,
    proxy: &str,
    authority: &str,
    authorization: Option<&HeaderValue>,
) -> Result<TokioIo<Upgraded>, FetchFailure>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, conn) = http1::Builder::new()
        .handshake::<_, ReqBody>(TokioIo::new(io))
        .await
        .map_err(|e| failure(FailureClass::ProxyConnect, format!("proxy {proxy}: {e}")))?;
    let task = tokio::spawn(conn.with_upgrades());
    let _stop = AbortOnDrop(task.abort_handle());
    let bad = |class, why: String| failure(class, format!("proxy {proxy}: CONNECT {authority}: {why}"));
    let mut request = Request::builder()
        .method(Method::CONNECT)
        .uri(authority)
        .body(ReqBody::new())
        .map_err(|e| bad(FailureClass::UnsupportedUrl, format!("cannot be sent: {e}")))?;
    let host = HeaderValue::from_str(authority).map_err(|e| bad(FailureClass::UnsupportedUrl, e.to_string()))?;
    request.headers_mut().insert(HOST, host);
    if let Some(auth) = authorization {
        request.headers_mut().insert(PROXY_AUTHORIZATION, auth.clone());
    }
    let response = sender.send_request(request).await.map_err(|e| {
        if e.is_incomplete_message() || e.is_canceled() {
            bad(FailureClass::ProxyConnect, "the proxy closed the connection without answering".to_string())
        } else {
            bad(FailureClass::ProxyTunnel, format!("the answer is not HTTP: {e}"))
        }
    })?;
    let status = response.status();
    if status == http::StatusCode::PROXY_AUTHENTICATION_REQUIRED {
        let why = if authorization.is_some() {
            "answered 407: the credentials were refused"
        } else {
            "answered 407: the proxy wants credentials (none given)"
        };
        return Err(bad(FailureClass::ProxyAuthRequired, why.to_string()));
    }
    if !status.is_success() {
        return Err(bad(FailureClass::ProxyTunnel, format!("answered {status}")));
    }
    let upgraded = hyper::upgrade::on(response)
        .await
        .map_err(|e| bad(FailureClass::ProxyTunnel, format!("answered {status} but no tunnel followed: {e}")))?;
    Ok(TokioIo::new(upgraded))
}

/// Stops the CONNECT connection's task when the tunnel is refused (after an upgrade the task has
/// already ended).
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
