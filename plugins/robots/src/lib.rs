//! robots.txt (RFC 9309) parser, matcher and probe.
//!
//! * [`RobotsTxt::parse`] reads a body (any bytes; never fails, never panics) into groups, rules,
//!   sitemaps, non-standard records and diagnostics, with 1-based line numbers.
//! * [`RobotsTxt::check`] answers "may crawler X fetch path Y?" with a [`Verdict`] naming the deciding
//!   rule; [`check_url`] adds the scope rule of RFC 9309 section 2.3 and is what
//!   `wellknown robots check` prints, one [`CheckOutcome`] per URL (with the product token matched,
//!   and `allowed: null` for a URL it could not read).
//! * [`RobotsProbe`] (id `robots`) fetches `<origin>/robots.txt` with RFC 9309's fetch semantics and
//!   turns the file into candidates. It registers itself with `inventory`.
//!
//! Matching follows RFC 9309: product tokens compared case-insensitively, groups for the same token
//! merged, `*` as the fallback, the longest matching pattern (in octets) decides, `allow` wins ties,
//! `*` and a final `$` are special, percent-encoding is normalised on both sides, `/robots.txt` is
//! always allowed, and only the first 500 KiB are parsed. Where Google's parser is more lenient
//! (misspelt field names, a missing colon, `FooBot/1.0` in a user-agent line) this crate accepts
//! the same input and says so in a diagnostic. Where Google departs from RFC 9309 (percent-encoding,
//! the implicit `/robots.txt` allow, `index.html`), RFC 9309 is followed.
//!
//! A listed path is a name to verify, not proof of anything: robots.txt says what a site asks
//! crawlers not to fetch, not what exists or what is protected. See `docs/plugins/robots.md`.
//!
//! ```
//! use wellknown_robots::RobotsTxt;
//!
//! let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\nAllow: /private/press$\n");
//! assert!(!robots.check("FooBot/1.2 (+http://foo.example)", "/private/x").allowed);
//! let v = robots.check("FooBot", "/private/press");
//! assert!(v.allowed);
//! assert_eq!(v.rule.map(|r| r.line), Some(3));
//! ```

mod check;
pub mod codes;
mod lexer;
mod matcher;
mod model;
mod parser;
mod pattern;
mod probe;

pub use check::{CheckOutcome, check_url};
pub use matcher::{MatchedRule, Verdict, product_token};
pub use model::{Directive, Group, NonStandard, PARSE_LIMIT, RobotsTxt, Rule, Sitemap, UserAgent};
pub use probe::{Availability, MAX_BODY_BYTES, MAX_REDIRECTS, NO_POLICY, RobotsProbe, availability, normalize_pattern};

inventory::submit! { wellknown_core::ProbeRegistration::new(&RobotsProbe) }
