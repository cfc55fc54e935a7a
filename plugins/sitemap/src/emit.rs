//! The parsers' common back end: validates declared values, applies the location rule and the
//! limits, and hands [`Found`] URLs and diagnostics to the [`Visitor`].

use std::ops::ControlFlow;

use url::Url;
use wellknown_core::{Diagnostic, FetchMeta, Locator};

use crate::codes;
use crate::fast_url;
use crate::limits::Limits;
use crate::location::LocationRule;
use crate::model::{Found, Hints, Place, Relation, Visitor};
use crate::values::{LocError, check_url, trim};

/// sitemaps.org: "[loc] must be less than 2,048 characters".
const LONG_LOC_CHARS: usize = 2048;

/// Shortens a value for a diagnostic message.
pub(crate) fn shown(s: &str) -> String {
    let t = crate::values::trim(s);
    if t.chars().count() > 120 {
        let cut: String = t.chars().take(120).collect();
        format!("{cut:?}...")
    } else {
        format!("{t:?}")
    }
}

pub(crate) struct Emitter<'v, V: Visitor> {
    visitor: &'v mut V,
    pub limits: Limits,
    rule: LocationRule,
    /// The document's own URLs (final and requested), to notice an index listing itself.
    own_urls: [String; 2],
    /// Primary URLs accepted.
    pub urls: u64,
    /// All URLs handed to the visitor.
    values: u64,
    /// Entries seen.
    pub entries: u64,
    /// Reading must stop (hard cap, visitor asked).
    pub stop: bool,
    pub too_many_urls: bool,
    pub incomplete: bool,
    utf8_reported: bool,
    truncated_reported: bool,
}

impl<'v, V: Visitor> Emitter<'v, V> {
    pub(crate) fn new(visitor: &'v mut V, meta: &FetchMeta, limits: &Limits) -> Self {
        Emitter {
            visitor,
            limits: limits.clone(),
            rule: LocationRule::for_meta(meta),
            own_urls: [meta.url.to_string(), meta.requested_url.to_string()],
            urls: 0,
            values: 0,
            entries: 0,
            stop: false,
            too_many_urls: false,
            incomplete: false,
            utf8_reported: false,
            truncated_reported: false,
        }
    }

    pub(crate) fn error(&mut self, code: &'static str, message: impl Into<String>, locator: Option<Locator>) {
        if self.visitor.wants(code) {
            self.visitor.diagnostic(Diagnostic::error(code, message, locator));
        }
    }

    pub(crate) fn warn(&mut self, code: &'static str, message: impl Into<String>, locator: Option<Locator>) {
        if self.visitor.wants(code) {
            self.visitor.diagnostic(Diagnostic::warning(code, message, locator));
        }
    }

    /// An error whose message and locator are built only if the visitor wants it.
    pub(crate) fn error_with(&mut self, code: &'static str, build: impl FnOnce() -> (String, Option<Locator>)) {
        if self.visitor.wants(code) {
            let (message, locator) = build();
            self.visitor.diagnostic(Diagnostic::error(code, message, locator));
        }
    }

    /// A warning whose message and locator are built only if the visitor wants it.
    pub(crate) fn warn_with(&mut self, code: &'static str, build: impl FnOnce() -> (String, Option<Locator>)) {
        if self.visitor.wants(code) {
            let (message, locator) = build();
            self.visitor.diagnostic(Diagnostic::warning(code, message, locator));
        }
    }

    /// Reports invalid UTF-8 once per document.
    pub(crate) fn invalid_utf8(&mut self, locator: Option<Locator>) {
        if !self.utf8_reported {
            self.utf8_reported = true;
            self.error(
                codes::INVALID_UTF8,
                "the document is not valid UTF-8; invalid bytes were replaced by U+FFFD",
                locator,
            );
        }
    }

    /// Reports truncation once per document and marks reading incomplete.
    pub(crate) fn truncated(&mut self, message: impl Into<String>, locator: Option<Locator>) {
        self.incomplete = true;
        if !self.truncated_reported {
            self.truncated_reported = true;
            self.error(codes::TRUNCATED, message, locator);
        }
    }

    /// Stops reading because a hard cap was reached.
    pub(crate) fn over_limit(&mut self, message: impl Into<String>, locator: Option<Locator>) {
        if !self.stop {
            self.error(codes::OVER_PARSE_LIMIT, message, locator);
        }
        self.stop = true;
        self.incomplete = true;
    }

    /// Validates a declared value (`text`, not yet trimmed) and reports it. `undefined` is the first
    /// undefined entity inside it, `overflow` says it was cut at the value cap. `base` resolves relative
    /// references (Atom only).
    ///
    /// A value already in the form the `url` crate serialises is taken as it is
    /// ([`fast_url::canonical`]); anything else goes through `Url::parse`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn value(
        &mut self,
        relation: Relation,
        text: &str,
        place: Place<'_>,
        undefined: Option<&str>,
        overflow: bool,
        hints: Hints<'_>,
        base: Option<&Url>,
    ) {
        if self.stop {
            return;
        }
        if let Some(name) = undefined {
            self.error_with(codes::UNDEFINED_ENTITY, || {
                let msg =
                    format!("entity &{name}; is not defined (no DTD is read); the value {} is dropped", shown(text));
                (msg, Some(place.to_locator()))
            });
            return;
        }
        if overflow {
            let max = self.limits.max_value_bytes;
            self.error_with(codes::INVALID_LOC, || {
                (format!("value longer than {max} bytes dropped"), Some(place.to_locator()))
            });
            return;
        }
        let primary = relation.is_primary();
        let parsed: Url;
        let (url, out_of_location) = if let Some(c) = fast_url::canonical(trim(text)) {
            (c.url, primary && !self.rule.allows_canonical(&c))
        } else {
            match check_url(text, base) {
                Ok(u) => {
                    parsed = u;
                    (parsed.as_str(), primary && !self.rule.allows(&parsed))
                }
                Err(e) => {
                    let code = match &e {
                        LocError::Empty => codes::MISSING_LOC,
                        LocError::Relative => codes::RELATIVE_LOC,
                        LocError::Scheme(_) => codes::UNSUPPORTED_SCHEME,
                        LocError::Invalid => codes::INVALID_LOC,
                    };
                    self.error_with(code, || {
                        let msg = match e {
                            LocError::Empty => "empty URL".to_string(),
                            LocError::Relative => format!("{} is relative; sitemaps need absolute URLs", shown(text)),
                            LocError::Scheme(s) => {
                                format!("{} uses scheme {s:?}; only http and https URLs are kept", shown(text))
                            }
                            LocError::Invalid => format!("{} is not a valid URL", shown(text)),
                        };
                        (msg, Some(place.to_locator()))
                    });
                    return;
                }
            }
        };
        if primary && url.len() > LONG_LOC_CHARS {
            self.warn_with(codes::LONG_LOC, || {
                (format!("URL longer than {LONG_LOC_CHARS} characters"), Some(place.to_locator()))
            });
        }
        if out_of_location {
            self.error_with(codes::OUT_OF_LOCATION, || {
                let msg = format!(
                    "{url} is outside this sitemap's location and no robots.txt of its origin declared this sitemap"
                );
                (msg, Some(place.to_locator()))
            });
        }
        if relation == Relation::Child && self.own_urls.iter().any(|own| own == url) {
            self.warn_with(codes::SELF_LISTING, || {
                (format!("the index lists itself ({url}); not followed again"), Some(place.to_locator()))
            });
        }
        self.found(&Found { relation, url, place, hints, out_of_location });
    }

    fn found(&mut self, found: &Found<'_>) {
        if self.values >= self.limits.hard_cap_values {
            let msg = format!("more than {} URLs in one file; reading stopped", self.limits.hard_cap_values);
            self.over_limit(msg, Some(found.locator()));
            return;
        }
        self.values += 1;
        if found.relation.is_primary() {
            self.urls += 1;
            if self.urls > self.limits.max_urls && !self.too_many_urls {
                self.too_many_urls = true;
                let msg = format!("more than {} URLs in one file (sitemaps.org limit)", self.limits.max_urls);
                let loc = Some(found.locator());
                self.error(codes::TOO_MANY_URLS, msg, loc);
            }
        }
        if let ControlFlow::Break(()) = self.visitor.found(found) {
            self.stop = true;
            self.incomplete = true;
        }
    }
}
