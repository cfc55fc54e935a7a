//! Redirects: followed by us, recorded hop by hop, loops, limits, scope and bad targets.

use crate::common;

use common::*;
use url::Url;
use wellknown_core::{FetchPolicy, FetchRequest};

async fn redirect_server() -> std::net::SocketAddr {
    http_server(handler(|req| {
        let path = req.uri().path().to_string();
        match path.as_str() {
            "/a" => resp(301, &[("location", "/b")], ""),
            "/b" => resp(302, &[("location", "c?x=1")], ""),
            "/c" => resp(307, &[("location", "/final#frag")], ""),
            "/final" => resp(200, &[("content-type", "text/plain")], "arrived"),
            "/loop1" => resp(302, &[("location", "/loop2")], ""),
            "/loop2" => resp(302, &[("location", "/loop1")], ""),
            "/self" => resp(308, &[("location", "/self")], ""),
            "/no-location" => resp(302, &[], ""),
            "/to-ftp" => resp(301, &[("location", "ftp://example.com/file")], ""),
            "/to-other" => resp(302, &[("location", "http://other.test/x")], ""),
            "/see-other" => resp(303, &[("location", "/final")], ""),
            "/to-mailto" => resp(307, &[("location", "mailto:x@other.test")], ""),
            "/bad-port" => resp(302, &[("location", "https://[::1]:99999/x")], ""),
            "/zone-id" => resp(302, &[("location", "http://[fe80::1%25eth0]/x")], ""),
            "/then-ftp" => resp(301, &[("location", "/to-ftp")], ""),
            "/creds-out" => resp(302, &[("location", "http://user:pass@other.test/x#frag")], ""),
            "/creds-ftp" => resp(301, &[("location", "ftp://u:secret@files.other.test/a.json")], ""),
            "/creds-bad" => resp(302, &[("location", "https://user:secret@[::1]:99999/x")], ""),
            "/creds-in" => {
                let host = req.headers().get("host").and_then(|h| h.to_str().ok()).unwrap_or_default();
                resp(302, &[("location", &format!("//user:pass@{host}/final"))], "")
            }
            "/non-utf8" => {
                let mut r = resp(302, &[], "");
                r.headers_mut().insert("location", http::HeaderValue::from_bytes(b"/chan\xffge").unwrap());
                r
            }
            "/chan%FFge" => resp(200, &[], "kept"),
            p if p.starts_with("/chain/") => {
                let n: u32 = p["/chain/".len()..].parse().unwrap();
                if n == 0 {
                    resp(200, &[], "end")
                } else {
                    resp(301, &[("location", &format!("/chain/{}", n - 1))], "")
                }
            }
            _ => resp(404, &[], ""),
        }
    }))
    .await
}

#[tokio::test]
async fn hops_are_recorded() {
    let addr = redirect_server().await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/a"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.body, b"arrived");
    let hops: Vec<(String, u16)> = r.meta.redirect_chain.iter().map(|h| (h.url.path().to_string(), h.status)).collect();
    assert_eq!(hops, vec![("/a".into(), 301), ("/b".into(), 302), ("/c".into(), 307)]);
    assert_eq!(r.meta.redirect_chain[2].url.query(), Some("x=1"), "relative Location resolved against the current URL");
    assert_eq!(r.meta.requested_url, url(addr, "/a"));
    assert_eq!(r.meta.url, url(addr, "/final"), "fragment dropped");
    assert_eq!(r.meta.status, Some(200));
    assert!(r.meta.was_redirected());
}

#[tokio::test]
async fn no_follow_returns_the_3xx() {
    let addr = redirect_server().await;
    let policy = FetchPolicy { follow_redirects: false, ..FetchPolicy::default() };
    let r = fetch_all(&fetcher(test_config()), &FetchRequest::get(url(addr, "/a"), policy)).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.meta.status, Some(301));
    assert!(r.meta.redirect_chain.is_empty());
}

#[tokio::test]
async fn head_follows_303_as_head() {
    let addr = redirect_server().await;
    let r = fetch_all(&fetcher(test_config()), &head(url(addr, "/see-other"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.meta.status, Some(200));
    assert_eq!(r.meta.redirect_chain.len(), 1);
    assert!(r.body.is_empty());
}

#[tokio::test]
async fn loops_are_detected() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    let r = fetch_all(&f, &get(url(addr, "/loop1"))).await;
    assert_eq!(class(&r), Some("redirect_loop"));
    let hops: Vec<&str> = r.meta.redirect_chain.iter().map(|h| h.url.path()).collect();
    assert_eq!(hops, vec!["/loop1", "/loop2"]);
    assert_eq!(r.meta.url, url(addr, "/loop1"), "meta.url is the revisited URL");
    assert_eq!(r.meta.status, None);
    let r = fetch_all(&f, &get(url(addr, "/self"))).await;
    assert_eq!(class(&r), Some("redirect_loop"));
    assert_eq!(r.meta.redirect_chain.len(), 1);
}

#[tokio::test]
async fn too_many_redirects() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    // Exactly five hops is allowed with the default limit of five.
    let r = fetch_all(&f, &get(url(addr, "/chain/5"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.body, b"end");
    assert_eq!(r.meta.redirect_chain.len(), 5);
    // Six is one too many.
    let r = fetch_all(&f, &get(url(addr, "/chain/6"))).await;
    assert_eq!(class(&r), Some("too_many_redirects"));
    assert_eq!(r.meta.redirect_chain.len(), 6);
    assert_eq!(r.meta.url, url(addr, "/chain/0"));
    let policy = FetchPolicy { max_redirects: 0, ..FetchPolicy::default() };
    let r = fetch_all(&f, &FetchRequest::get(url(addr, "/a"), policy)).await;
    assert_eq!(class(&r), Some("too_many_redirects"));
}

#[tokio::test]
async fn out_of_scope_redirect_is_refused() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    let scope = |u: &Url| u.host_str() == Some("127.0.0.1");
    let r = f.fetch(&get(url(addr, "/to-other")), &scope).await;
    assert_eq!(class(&r), Some("out_of_scope"));
    assert_eq!(r.meta.redirect_chain.len(), 1);
    assert_eq!(r.meta.redirect_chain[0].status, 302);
    assert_eq!(r.meta.url.as_str(), "http://other.test/x");
    assert!(r.meta.failure.unwrap().message.contains("other.test"));
    // The first request is checked too.
    let r = f.fetch(&get("http://other.test/".parse().unwrap()), &scope).await;
    assert_eq!(class(&r), Some("out_of_scope"));
    assert!(r.meta.redirect_chain.is_empty());
}

#[tokio::test]
async fn invalid_redirects() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    let r = fetch_all(&f, &get(url(addr, "/no-location"))).await;
    assert_eq!(class(&r), Some("invalid_redirect"));
    assert_eq!(r.meta.status, Some(302));
    assert_eq!(r.meta.url, url(addr, "/no-location"));
    assert_eq!(r.meta.unfollowed_location, None);
}

/// Every redirect the fetcher cannot follow is recorded alike: the status of the response that
/// redirected, `url` = the URL fetched last, no hop added, the target (when it is a URL) apart.
#[tokio::test]
async fn redirects_that_cannot_be_followed_keep_the_response_that_redirected() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    for (path, status, target) in [
        ("/to-ftp", 301, Some("ftp://example.com/file")),
        ("/to-mailto", 307, Some("mailto:x@other.test")),
        ("/bad-port", 302, None),
        ("/zone-id", 302, None),
    ] {
        let r = fetch_all(&f, &get(url(addr, path))).await;
        assert_eq!(class(&r), Some("invalid_redirect"), "{path}");
        assert_eq!((r.meta.status, &r.meta.url), (Some(status), &url(addr, path)), "{path}");
        assert!(r.meta.redirect_chain.is_empty(), "{path}");
        assert_eq!(r.meta.unfollowed_location.as_ref().map(Url::as_str), target, "{path}");
        assert!(r.meta.failure.unwrap().message.contains(path), "names the URL that redirected");
    }
    // After a hop that was followed: the chain keeps that hop, `url` is the URL that answered 301.
    let r = fetch_all(&f, &get(url(addr, "/then-ftp"))).await;
    assert_eq!(class(&r), Some("invalid_redirect"));
    let hops: Vec<(&str, u16)> = r.meta.redirect_chain.iter().map(|h| (h.url.path(), h.status)).collect();
    assert_eq!(hops, [("/then-ftp", 301)]);
    assert_eq!((r.meta.status, r.meta.url.path()), (Some(301), "/to-ftp"));
    assert_eq!(r.meta.unfollowed_location.map(String::from).as_deref(), Some("ftp://example.com/file"));
}

/// A user name and password in a `Location` never reach a recorded URL or message; the hops whose
/// `Location` carried them are listed.
#[tokio::test]
async fn credentials_in_a_location_are_dropped_and_listed() {
    let addr = redirect_server().await;
    let f = fetcher(test_config());
    let scope = |u: &Url| u.host_str() == Some("127.0.0.1");
    let r = f.fetch(&get(url(addr, "/creds-out")), &scope).await;
    assert_eq!(class(&r), Some("out_of_scope"));
    assert_eq!(r.meta.url.as_str(), "http://other.test/x");
    assert_eq!(r.meta.location_credentials, [0]);
    let message = r.meta.failure.unwrap().message;
    assert!(message.contains("http://other.test/x") && !message.contains("pass"), "{message}");

    let r = fetch_all(&f, &get(url(addr, "/creds-in"))).await;
    assert_eq!((class(&r), r.meta.status), (None, Some(200)));
    assert_eq!(r.meta.url, url(addr, "/final"), "followed, without the credentials");
    assert_eq!(r.meta.location_credentials, [0]);

    let r = fetch_all(&f, &get(url(addr, "/creds-ftp"))).await;
    assert_eq!(class(&r), Some("invalid_redirect"));
    assert_eq!(r.meta.unfollowed_location.map(String::from).as_deref(), Some("ftp://files.other.test/a.json"));
    assert_eq!(r.meta.location_credentials, [0]);
    assert!(!r.meta.failure.unwrap().message.contains("secret"));

    let r = fetch_all(&f, &get(url(addr, "/creds-bad"))).await;
    assert_eq!((class(&r), r.meta.status), (Some("invalid_redirect"), Some(302)));
    assert_eq!(r.meta.location_credentials, [0]);
    let message = r.meta.failure.unwrap().message;
    assert!(message.contains("https://[::1]:99999/x") && !message.contains("secret"), "{message}");

    let r = fetch_all(&f, &get(url(addr, "/a"))).await;
    assert!(r.meta.location_credentials.is_empty());
}

#[tokio::test]
async fn unsupported_urls() {
    let f = fetcher(test_config());
    let r = fetch_all(&f, &get("ftp://example.com/x".parse().unwrap())).await;
    assert_eq!(class(&r), Some("unsupported_url"));
    let r = fetch_all(&f, &get("data:text/plain,hi".parse().unwrap())).await;
    assert_eq!(class(&r), Some("unsupported_url"));
}

/// A `Location` with a byte that is not UTF-8 is requested with that byte percent-encoded as it is
/// (`/chan%FFge`, as curl does), not replaced by U+FFFD; the recorded URL is the one requested.
#[tokio::test]
async fn a_location_that_is_not_utf8_keeps_its_bytes() {
    let addr = redirect_server().await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/non-utf8"))).await;
    assert_eq!((class(&r), r.meta.status), (None, Some(200)));
    assert_eq!(r.body, b"kept");
    assert_eq!(r.meta.url.path(), "/chan%FFge");
    assert_eq!(r.meta.redirect_chain.len(), 1);
}
