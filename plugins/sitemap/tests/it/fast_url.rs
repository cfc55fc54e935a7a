//! The URL fast path agrees with the `url` crate: whenever `fast_url::canonical(s)` accepts a string,
//! `Url::parse(s)` succeeds and serialises to exactly `s`, with the same scheme, host, port and path;
//! and the location rule decides the same with or without a `Url`. Generated over URL-shaped strings
//! built from the pieces that matter to the WHATWG parser (case, dots, ports, escapes, IPv4-like
//! hosts, IDN, backslashes, controls, non-ASCII).

use proptest::prelude::*;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::LocationRule;
use wellknown_sitemap::fast_url::canonical;

const SCHEMES: &[&str] =
    &["http://", "https://", "HTTP://", "Https://", "http:/", "https:\\\\", "http:///", "ftp://", "http:", ""];

const HOST_PIECES: &[&str] = &[
    "a",
    "example",
    "com",
    "www",
    "b-c",
    "-",
    "0",
    "1",
    "09",
    "255",
    "256",
    "192",
    "0x1f",
    "1a",
    "xn--bcher-kva",
    "xn--",
    "A",
    "EXAMPLE",
    "ü",
    "é",
    "%41",
    "%2e",
    "@",
    "user:pw@",
    "[::1]",
    "[2001:db8::1]",
    "_",
    "*",
    "~",
    " ",
    "\t",
    "",
];

const HOST_SEPS: &[&str] = &[".", ".", ".", "..", ""];

const PORTS: &[&str] = &["", "", "", ":", ":80", ":443", ":8080", ":08080", ":0", ":65535", ":65536", ":1", ":x"];

const PATH_PIECES: &[&str] = &[
    "/", "/", "/", "a", "b.c", ".", "..", "%2e", "%2E", ".%2e", "%2e%2e", "%2f", "%zz", "%", "%4", "%41", " ", "\t",
    "\n", "\\", "|", "^", "[", "]", "{", "}", "`", "\"", "'", "<", ">", "!", "$", "&", "(", ")", "*", "+", ",", ";",
    "=", ":", "@", "~", "_", "-", "é", "€", "\u{7f}", "\u{1}", "\u{feff}", "?", "#", "??", "##", "x?y#z",
];

fn pick(list: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
    proptest::sample::select(list)
}

/// A piece from `common` most of the time, from `odd` otherwise.
fn weighted(common: &'static [&'static str], odd: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
    prop_oneof![6 => pick(common), 1 => pick(odd)]
}

fn urlish() -> impl Strategy<Value = String> {
    (
        weighted(&SCHEMES[..2], SCHEMES),
        proptest::collection::vec(
            (weighted(&HOST_PIECES[..12], HOST_PIECES), weighted(&HOST_SEPS[..1], HOST_SEPS)),
            1..5,
        ),
        weighted(&PORTS[..3], PORTS),
        proptest::collection::vec(weighted(&PATH_PIECES[..5], PATH_PIECES), 0..12),
        weighted(&["/"], &["", "?", "#"]),
    )
        .prop_map(|(scheme, host, port, path, lead)| {
            let mut s = String::from(scheme);
            for (i, (piece, sep)) in host.iter().enumerate() {
                if i > 0 {
                    s.push_str(sep);
                }
                s.push_str(piece);
            }
            s.push_str(port);
            s.push_str(lead);
            for p in path {
                s.push_str(p);
            }
            s
        })
}

/// Mostly well-formed URLs, so that acceptance is common and its details get exercised.
fn plausible() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("http://"), Just("https://")],
        proptest::collection::vec("[a-z0-9-]{1,8}", 1..4),
        prop_oneof![Just(String::new()), (1u32..70000).prop_map(|p| format!(":{p}"))],
        proptest::collection::vec("[!-~]{0,6}", 0..6),
    )
        .prop_map(|(scheme, labels, port, segs)| {
            let mut s = format!("{scheme}{}{port}", labels.join("."));
            for seg in segs {
                s.push('/');
                s.push_str(&seg);
            }
            if !s[scheme.len()..].contains('/') {
                s.push('/');
            }
            s
        })
}

fn rule(sitemap: &str, robots: &[&str]) -> LocationRule {
    let mut m = FetchMeta::synthetic(Url::parse(sitemap).unwrap(), None, Timestamp::UNIX_EPOCH);
    m.declared_by = robots.iter().map(|r| Url::parse(r).unwrap()).collect();
    LocationRule::for_meta(&m)
}

fn agrees(s: &str) -> Result<(), TestCaseError> {
    let Some(c) = canonical(s) else {
        return Ok(());
    };
    let u = Url::parse(s).map_err(|e| TestCaseError::fail(format!("{s:?} accepted but Url::parse fails: {e}")))?;
    prop_assert_eq!(u.as_str(), s, "serialisation differs");
    prop_assert_eq!(u.scheme(), c.scheme());
    prop_assert_eq!(u.host_str(), Some(c.host));
    prop_assert_eq!(u.port_or_known_default(), Some(c.port));
    prop_assert_eq!(u.path(), c.path);
    for r in [
        rule("https://a.example/sitemap.xml", &[]),
        rule("http://a.example:8080/b/c/s.xml?x=1", &["https://example/robots.txt"]),
        rule("https://192.168.0.1/s.xml", &["http://a.example/robots.txt"]),
        rule("https://www.example/a/s.xml", &[]),
    ] {
        prop_assert_eq!(r.allows_canonical(&c), r.allows(&u), "location rule differs for {}", s);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn fast_path_agrees_with_url_parse(s in urlish()) {
        agrees(&s)?;
    }

    #[test]
    fn fast_path_agrees_on_plausible_urls(s in plausible()) {
        agrees(&s)?;
    }

    #[test]
    fn fast_path_agrees_on_any_printable_ascii(tail in "[ -~]{0,40}") {
        agrees(&format!("https://a.example/{tail}"))?;
        agrees(&format!("http://{tail}"))?;
    }
}

#[test]
fn plausible_urls_mostly_take_the_fast_path() {
    // The fast path is only useful if it accepts what sitemaps contain.
    for s in [
        "https://geoconnex.us/ref/pws/IL1615450",
        "https://www.example.com/catalog/organic-cotton/product-000001-shirt?colour=navy&size=m",
        "http://a.example:8080/x/%E2%82%AC/y.html#top",
        "https://cdn.example.net/img/000001/main.jpg",
    ] {
        assert!(canonical(s).is_some(), "{s}");
        assert_eq!(Url::parse(s).unwrap().as_str(), s);
    }
}
