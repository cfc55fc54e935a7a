//! `RobotsTxt::parse`: bytes to groups, rules, sitemaps and non-standard records (RFC 9309 section
//! 2.2), with Google's documented leniency and diagnostics for everything that deviates.

use std::borrow::Cow;

use url::Url;
use wellknown_core::media::looks_like_html;
use wellknown_core::{Diagnostic, Locator, Origin};

use crate::codes;
use crate::lexer::{Field, Lines, Record, classify, record};
use crate::matcher::{CompiledRule, Index, product_token};
use crate::model::{Directive, Group, NonStandard, PARSE_LIMIT, RobotsTxt, Rule, Sitemap, UserAgent};
use crate::pattern::{Compiled, Side, normalize, split_anchor};

/// At most this many diagnostics of one code are kept; the rest are counted in one summary line.
const MAX_PER_CODE: u32 = 100;

/// Diagnostics with a per-code cap (a junk file has thousands of bad lines), and the quiet mode of
/// an HTML body, whose lines are not diagnosed one by one.
#[derive(Default)]
struct Sink {
    list: Vec<Diagnostic>,
    counts: Vec<(&'static str, u32)>,
    /// True once the body is diagnosed `html_document`: line-level diagnostics (syntax, values,
    /// encoding) are counted in `quieted` instead of listed.
    quiet: bool,
    quieted: u32,
}

impl Sink {
    /// A line-level diagnostic: listed as [`Sink::push`] does, or only counted for an HTML body.
    fn line_diagnostic(&mut self, code: &'static str, d: impl FnOnce() -> Diagnostic) {
        if self.quiet {
            self.quieted = self.quieted.saturating_add(1);
        } else {
            self.push(code, d);
        }
    }

    /// A line-level warning (see [`Sink::line_diagnostic`]).
    fn line(&mut self, code: &'static str, line: u32, message: impl FnOnce() -> String) {
        self.line_diagnostic(code, || Diagnostic::warning(code, message(), Some(Locator::Line(line))));
    }

    fn push(&mut self, code: &'static str, d: impl FnOnce() -> Diagnostic) {
        let n = match self.counts.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counts.push((code, 1));
                1
            }
        };
        if n <= MAX_PER_CODE {
            self.list.push(d());
        }
    }

    fn warn(&mut self, code: &'static str, line: u32, message: impl FnOnce() -> String) {
        self.push(code, || Diagnostic::warning(code, message(), Some(Locator::Line(line))));
    }

    fn finish(mut self) -> Vec<Diagnostic> {
        for (code, n) in self.counts {
            if n > MAX_PER_CODE {
                let more = n - MAX_PER_CODE;
                let first = self.list.iter().find(|d| d.code == code).cloned();
                if let Some(first) = first {
                    let mut d = first;
                    d.message = format!("{more} further `{code}` diagnostics not listed");
                    d.locator = None;
                    self.list.push(d);
                }
            }
        }
        self.list
    }
}

/// The text of a value without loss: valid UTF-8 is kept as written and every octet that is not
/// part of valid UTF-8 is percent-encoded (`/caf\xE9/` gives `/caf%E9/`). robots.txt must be UTF-8
/// (RFC 9309 section 2.3); a Latin-1 octet is still an octet of the path, and RFC 9309 section 2.2.2
/// compares `%E9` and the raw octet 0xE9 as the same octet, so the text copy matches exactly what the
/// matcher matches (never U+FFFD, which would name another path).
fn text(b: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.push_str(chunk.valid());
        for &o in chunk.invalid() {
            out.push('%');
            out.push(char::from(HEX[usize::from(o >> 4)]));
            out.push(char::from(HEX[usize::from(o & 0x0F)]));
        }
    }
    out
}

/// A short, printable excerpt for messages (non-UTF-8 octets percent-encoded as in [`text`]).
fn excerpt(b: &[u8]) -> String {
    let s = text(b);
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// Strips a UTF-8 byte-order mark, or a leading prefix of one (Google skips a partial BOM too).
fn strip_bom(body: &[u8]) -> (usize, &[u8]) {
    const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
    let n = body.iter().zip(BOM.iter()).take_while(|(a, b)| a == b).count();
    (n, body.get(n..).unwrap_or_default())
}

struct Builder {
    groups: Vec<Group>,
    orphan_rules: Vec<Rule>,
    sitemaps: Vec<Sitemap>,
    nonstandard: Vec<NonStandard>,
    compiled: Vec<CompiledRule>,
    arena: String,
    sink: Sink,
    /// Index of the group being built, and whether it already has a rule (a following user-agent
    /// line then starts a new group).
    current: Option<usize>,
    current_has_rules: bool,
}

impl Builder {
    fn user_agent(&mut self, line: u32, value: &[u8]) {
        let global = value.first() == Some(&b'*') && value.get(1).is_none_or(|&b| crate::lexer::is_ws(b));
        let token = if global { "*".to_string() } else { product_token(&String::from_utf8_lossy(value)).to_string() };
        if token.len() != value.len() {
            self.sink.line(codes::INVALID_PRODUCT_TOKEN, line, || {
                if token.is_empty() {
                    format!(
                        "user-agent `{}` has no product token (letters, digits, `_`, `-`); it matches no crawler",
                        excerpt(value)
                    )
                } else {
                    format!(
                        "user-agent `{}` is not a product token (RFC 9309 2.2.1); matched as `{token}`",
                        excerpt(value)
                    )
                }
            });
        }
        let agent = UserAgent { line, value: text(value), token };
        match self.current.and_then(|g| self.groups.get_mut(g)) {
            Some(g) if !self.current_has_rules => g.agents.push(agent),
            _ => {
                self.current = Some(self.groups.len());
                self.current_has_rules = false;
                self.groups.push(Group { line, agents: vec![agent], rules: Vec::new() });
            }
        }
    }

    fn rule(&mut self, line: u32, directive: Directive, value: &[u8]) {
        if !value.is_empty() && !matches!(value.first(), Some(b'/' | b'*')) {
            self.sink.line(codes::INVALID_PATTERN, line, || {
                format!("path pattern `{}` starts with neither `/` nor `*`; it never matches", excerpt(value))
            });
        }
        let rule = Rule { line, directive, pattern: text(value) };
        let Some(gi) = self.current else {
            self.sink.line(codes::RULE_OUTSIDE_GROUP, line, || {
                format!("`{}` appears before any user-agent line; ignored (RFC 9309 2.2)", directive.as_str())
            });
            self.orphan_rules.push(rule);
            return;
        };
        let Some(group) = self.groups.get_mut(gi) else { return };
        self.current_has_rules = true;
        let (body, anchored) = split_anchor(value);
        if !body.is_empty() {
            let pat = normalize(body, Side::Pattern);
            let prio = u32::try_from(pat.len()).unwrap_or(u32::MAX).saturating_add(u32::from(anchored));
            self.compiled.push(CompiledRule {
                pat: Compiled::new(&mut self.arena, &pat, anchored),
                prio,
                allow: directive == Directive::Allow,
                line,
                group: u32::try_from(gi).unwrap_or(u32::MAX),
                rule: u32::try_from(group.rules.len()).unwrap_or(u32::MAX),
            });
        }
        group.rules.push(rule);
    }

    fn sitemap(&mut self, line: u32, value: &[u8]) {
        let raw = text(value);
        let url = match Url::parse(&raw) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Some(u),
            Err(url::ParseError::RelativeUrlWithoutBase) if !raw.is_empty() => {
                self.sink.line(codes::RELATIVE_SITEMAP_URL, line, || {
                    format!("sitemap `{}` is a relative reference; sitemaps.org requires a full URL", excerpt(value))
                });
                None
            }
            _ => {
                self.sink.line(codes::INVALID_SITEMAP_URL, line, || {
                    format!("sitemap `{}` is not an http(s) URL", excerpt(value))
                });
                None
            }
        };
        self.sitemaps.push(Sitemap { line, value: raw, url });
    }

    fn nonstandard(&mut self, line: u32, name: &'static str, value: &[u8]) {
        let entry = NonStandard { line, name, value: text(value), group: self.current };
        if name == "crawl-delay" && entry.seconds().is_none() {
            self.sink.line(codes::INVALID_CRAWL_DELAY, line, || {
                format!("crawl-delay `{}` is not a non-negative number of seconds", excerpt(value))
            });
        }
        if name == "host" && host_directive(&entry.value).is_none() {
            self.sink
                .line(codes::INVALID_HOST_DIRECTIVE, line, || format!("host `{}` is not a host name", excerpt(value)));
        }
        self.nonstandard.push(entry);
    }

    fn line(&mut self, number: u32, content: &[u8]) {
        match record(content) {
            Record::Blank => {}
            Record::Invalid => self.sink.line(codes::INVALID_LINE, number, || {
                format!("`{}` is not a `field: value` record; ignored", excerpt(content))
            }),
            Record::KeyValue { key, value, colon } => {
                let (field, exact) = classify(key);
                let canonical = match field {
                    Field::UserAgent => "user-agent",
                    Field::Allow => "allow",
                    Field::Disallow => "disallow",
                    Field::Sitemap => "sitemap",
                    Field::NonStandard(name) => name,
                    Field::Unknown => "",
                };
                if field != Field::Unknown {
                    if !colon {
                        self.sink.line(codes::MISSING_COLON, number, || {
                            format!("no colon after `{}`; read as `{canonical}: {}`", excerpt(key), excerpt(value))
                        });
                    }
                    if !exact {
                        self.sink.line(codes::MISSPELLED_DIRECTIVE, number, || {
                            format!("`{}` read as `{canonical}` (Google accepts it; RFC 9309 does not)", excerpt(key))
                        });
                    }
                }
                match field {
                    Field::UserAgent => self.user_agent(number, value),
                    Field::Allow => self.rule(number, Directive::Allow, value),
                    Field::Disallow => self.rule(number, Directive::Disallow, value),
                    Field::Sitemap => self.sitemap(number, value),
                    Field::NonStandard(name) => self.nonstandard(number, name, value),
                    Field::Unknown => self.sink.line(codes::UNKNOWN_DIRECTIVE, number, || {
                        format!("unknown field `{}`; ignored", excerpt(key))
                    }),
                }
            }
        }
    }
}

/// The host a `Host:` value names (`example.com`, `https://example.com`, `example.com:8080`), as its
/// origin; None when it is not one.
pub(crate) fn host_directive(value: &str) -> Option<Origin> {
    let v = value.trim().trim_end_matches('/');
    if v.is_empty() || v.contains(char::is_whitespace) {
        return None;
    }
    let origin = Origin::parse_target(v).ok().filter(|o| !o.host().name().is_empty())?;
    // A value with a path is not a host.
    let probe = if v.contains("://") { Cow::Borrowed(v) } else { Cow::Owned(format!("https://{v}")) };
    let url = Url::parse(&probe).ok()?;
    (url.path() == "/" && url.query().is_none()).then_some(origin)
}

impl RobotsTxt {
    /// Parses a robots.txt body. Never fails, never panics, bounded work: linear in
    /// `min(body.len(), PARSE_LIMIT)` plus sorting the rules.
    ///
    /// * Lines end at CR, LF or CRLF (RFC 9309 section 2.2); a UTF-8 byte-order mark at the start is
    ///   skipped (diagnosed `bom`); a `#` starts a comment anywhere on a line.
    /// * Only the first [`PARSE_LIMIT`] octets (500 KiB, section 2.5) are read: lines that end beyond
    ///   it are ignored and the file is diagnosed `over_parse_limit`.
    /// * Field names are case-insensitive and recognised by prefix, including the misspellings
    ///   Google accepts (`disalow`, `useragent`, `user agent`, ...; diagnosed
    ///   `misspelled_directive`); a missing colon is accepted between exactly two tokens
    ///   (`missing_colon`).
    /// * Consecutive `user-agent` lines open one group; the group ends at the next `user-agent` line
    ///   that follows a rule (only `allow`/`disallow` close the agent list: `crawl-delay`,
    ///   `sitemap` and unknown lines do not, as in Google's parser).
    /// * `sitemap`, and the non-standard records listed on [`NonStandard`], are recorded with their
    ///   line; anything else is diagnosed `unknown_directive` and ignored.
    /// * An HTML page (soft 404) is diagnosed `html_document` and parsed like any other text, which
    ///   yields nothing, as Google does. Its lines are then not diagnosed one by one (no
    ///   `invalid_line`, `unknown_directive`, `invalid_utf8`, ... per line): the `html_document`
    ///   message gives their count instead.
    /// * The file must be UTF-8 (section 2.3): every line that is not is diagnosed `invalid_utf8`
    ///   (an error; at most 100, like every code). Matching works on the octets; the text copies
    ///   ([`Rule::pattern`], [`Sitemap::value`], ...) carry each non-UTF-8 octet percent-encoded
    ///   (`%E9`), which section 2.2.2 treats as the same octet.
    pub fn parse(body: &[u8]) -> RobotsTxt {
        let mut b = Builder {
            groups: Vec::new(),
            orphan_rules: Vec::new(),
            sitemaps: Vec::new(),
            nonstandard: Vec::new(),
            compiled: Vec::new(),
            arena: String::new(),
            sink: Sink::default(),
            current: None,
            current_has_rules: false,
        };
        let (bom_len, text) = strip_bom(body);
        if bom_len == 3 {
            b.sink.warn(codes::BOM, 1, || "the file starts with a UTF-8 byte-order mark (skipped)".to_string());
        }
        let html = looks_like_html(body);
        if html {
            b.sink.push(codes::HTML_DOCUMENT, || {
                Diagnostic::warning(
                    codes::HTML_DOCUMENT,
                    "an HTML page was served as robots.txt; its lines are not records, so it declares no rule",
                    Some(Locator::Line(1)),
                )
            });
            b.sink.quiet = true;
        }
        let over = body.len() > PARSE_LIMIT;
        let mut lines = 0u32;
        let mut parsed_end = bom_len;
        for line in Lines::new(text) {
            let end = bom_len + line.start + line.content.len();
            if over && end > PARSE_LIMIT {
                let ignored = body.len().saturating_sub(bom_len + line.start);
                b.sink.warn(codes::OVER_PARSE_LIMIT, line.number, || {
                    format!(
                        "the file is {} octets, over the 500 KiB parse limit (RFC 9309 2.5); the last {ignored} octets, \
                         from this line on, are ignored",
                        body.len()
                    )
                });
                break;
            }
            lines = line.number;
            parsed_end = end;
            if !line.content.is_ascii()
                && let Err(e) = std::str::from_utf8(line.content)
            {
                let at = e.valid_up_to();
                let octet = line.content.get(at).copied().unwrap_or_default();
                b.sink.line_diagnostic(codes::INVALID_UTF8, || {
                    Diagnostic::error(
                        codes::INVALID_UTF8,
                        format!(
                            "the line is not valid UTF-8 (RFC 9309 2.3): octet 0x{octet:02X} at position {}; non-UTF-8 \
                             octets are matched and listed percent-encoded (%{octet:02X})",
                            at + 1
                        ),
                        Some(Locator::Line(line.number)),
                    )
                });
            }
            b.line(line.number, line.content);
        }
        if !over {
            parsed_end = body.len();
        }
        if b.sink.quieted > 0
            && let Some(d) = b.sink.list.iter_mut().find(|d| d.code == codes::HTML_DOCUMENT)
        {
            d.message = format!(
                "an HTML page was served as robots.txt; its lines are not records, so it declares no rule \
                 ({} line-level diagnostics not listed)",
                b.sink.quieted
            );
        }
        let index = Index::build(&b.groups, b.compiled, b.arena);
        RobotsTxt {
            groups: b.groups,
            orphan_rules: b.orphan_rules,
            sitemaps: b.sitemaps,
            nonstandard: b.nonstandard,
            diagnostics: b.sink.finish(),
            lines,
            parsed_bytes: parsed_end,
            total_bytes: body.len(),
            index,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes_of(r: &RobotsTxt) -> Vec<&str> {
        r.diagnostics().iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn groups_and_rules_with_lines() {
        let r = RobotsTxt::parse(
            b"# c\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /a\nDisallow: /b$\n",
        );
        assert_eq!(r.groups().len(), 2);
        let g = &r.groups()[0];
        assert_eq!(g.line, 2);
        assert_eq!(g.agent_list(), "GPTBot,CCBot");
        assert_eq!(g.rules, vec![Rule { line: 4, directive: Directive::Disallow, pattern: "/".into() }]);
        assert_eq!(r.groups()[1].rules[1].pattern, "/b$");
        assert_eq!(r.groups()[1].agents[0].token, "*");
        assert!(r.diagnostics().is_empty(), "{:?}", r.diagnostics());
        assert_eq!(r.line_count(), 8);
    }

    #[test]
    fn leniency_is_diagnosed() {
        let r = RobotsTxt::parse(
            b"user agent: FooBot/1.2\ndisalow: /x\nallow /y\nfoo: bar\nEOF\nCrawl-delay: ten\nSitemap: /s.xml\n",
        );
        assert_eq!(
            codes_of(&r),
            [
                "misspelled_directive",
                "invalid_product_token",
                "misspelled_directive",
                "missing_colon",
                "unknown_directive",
                "invalid_line",
                "invalid_crawl_delay",
                "relative_sitemap_url"
            ]
        );
        assert_eq!(r.groups()[0].agents[0].token, "FooBot");
        assert_eq!(r.groups()[0].rules.len(), 2);
        assert_eq!(r.nonstandard()[0].group, Some(0));
        assert_eq!(r.sitemaps()[0].url, None);
    }

    #[test]
    fn bom_orphans_and_cap() {
        let mut body = b"\xEF\xBB\xBFDisallow: /x\nUser-agent: *\n".to_vec();
        for _ in 0..150 {
            body.extend_from_slice(b"bogus line here\n");
        }
        let r = RobotsTxt::parse(&body);
        assert!(r.has_code("bom"));
        assert_eq!(r.orphan_rules().len(), 1);
        assert!(r.has_code("rule_outside_group"));
        let invalid = r.diagnostics().iter().filter(|d| d.code == "invalid_line").count();
        assert_eq!(invalid, 101);
        assert!(r.diagnostics().last().is_some_and(|d| d.message.starts_with("50 further")));
    }

    #[test]
    fn non_utf8_octets_are_kept_percent_encoded_and_every_line_is_diagnosed() {
        let r = RobotsTxt::parse(
            b"User-agent: *\nDisallow: /caf\xE9/\nAllow: /na\xEFve$\nSitemap: https://latin.test/sitem\xE1p.xml\n\
              Disallow: /ok/\xC3\xA9t\xE9\n",
        );
        let patterns: Vec<&str> = r.groups()[0].rules.iter().map(|x| x.pattern.as_str()).collect();
        assert_eq!(patterns, ["/caf%E9/", "/na%EFve$", "/ok/ét%E9"]);
        assert_eq!(r.sitemaps()[0].value, "https://latin.test/sitem%E1p.xml");
        assert_eq!(r.sitemaps()[0].url.as_ref().map(Url::as_str), Some("https://latin.test/sitem%E1p.xml"));
        let utf8: Vec<(Option<&Locator>, &str)> = r
            .diagnostics()
            .iter()
            .filter(|d| d.code == "invalid_utf8")
            .map(|d| (d.locator.as_ref(), d.message.as_str()))
            .collect();
        assert_eq!(
            utf8.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [2, 3, 4, 5].map(Locator::Line).iter().map(Some).collect::<Vec<_>>()
        );
        assert!(utf8[0].1.contains("octet 0xE9 at position 15"), "{}", utf8[0].1);
        // The matcher agrees with the text copy: the raw octet is %E9.
        let v = r.check("x", "/caf%e9/menu");
        assert!(!v.allowed);
        assert_eq!(v.rule.map(|m| m.pattern), Some("/caf%E9/".to_string()));
        assert!(r.check("x", "/ok/%C3%A9t%E9").rule.is_some());
    }

    #[test]
    fn invalid_utf8_is_capped_per_code() {
        let mut body = b"User-agent: *\n".to_vec();
        for i in 0..130 {
            body.extend_from_slice(format!("Disallow: /{i}/").as_bytes());
            body.extend_from_slice(b"\xFF\n");
        }
        let r = RobotsTxt::parse(&body);
        let n = r.diagnostics().iter().filter(|d| d.code == "invalid_utf8").count();
        assert_eq!(n, 101);
        assert!(r.diagnostics().iter().any(|d| d.message == "30 further `invalid_utf8` diagnostics not listed"));
        assert_eq!(r.rule_count(), 130);
    }

    #[test]
    fn html_body_gets_one_diagnostic_not_one_per_line() {
        let page = b"<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>\n<p>caf\xE9</p>\n\
                     Disallow: /x\n</body></html>\n";
        let r = RobotsTxt::parse(page);
        assert_eq!(codes_of(&r), ["html_document"]);
        assert_eq!(
            r.diagnostics()[0].message,
            "an HTML page was served as robots.txt; its lines are not records, so it declares no rule \
             (7 line-level diagnostics not listed)"
        );
        // Still parsed as Google does: the stray rule is an orphan, ignored by matching.
        assert_eq!(r.orphan_rules().len(), 1);
        assert!(r.check("x", "/x").allowed);
        // The same lines in a text file are diagnosed one by one.
        let text = RobotsTxt::parse(b"<p>x</p>\nfoo bar baz\n");
        assert_eq!(codes_of(&text), ["invalid_line", "invalid_line"]);
    }

    #[test]
    fn parse_limit() {
        let mut body = b"User-agent: *\nDisallow: /a\n".to_vec();
        while body.len() < PARSE_LIMIT - 5 {
            body.extend_from_slice(b"# padding padding padding padding\n");
        }
        body.extend_from_slice(b"Disallow: /straddles-the-limit\nDisallow: /beyond\n");
        let r = RobotsTxt::parse(&body);
        assert!(r.has_code("over_parse_limit"));
        assert_eq!(r.groups()[0].rules.len(), 1);
        assert!(r.parsed_bytes() <= PARSE_LIMIT);
        assert_eq!(r.total_bytes(), body.len());
    }

    #[test]
    fn host_values() {
        assert_eq!(host_directive("https://adguard.com").map(|o| o.to_string()), Some("https://adguard.com".into()));
        assert_eq!(
            host_directive("www.example.com:8080").map(|o| o.to_string()),
            Some("https://www.example.com:8080".into())
        );
        assert!(host_directive("example.com/path").is_none());
        assert!(host_directive("two words").is_none());
        assert!(host_directive(".").is_none());
    }
}
