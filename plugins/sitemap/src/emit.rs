//! The parsers' common back end: validates declared values, applies the location rule and the
//! limits, and hands [`Found`] URLs and diagnostics to the [`Visitor`].

use std::ops::ControlFlow;

use url::Url;
use wellknown_core::{Diagnostic, FetchMeta, Locator};

use crate::codes;
use crate::limits::Limits;
use crate::location::LocationRule;
use crate::model::{Found, Relation, Visitor};
use crate::values::{LocError, check_url};

/// sitemaps.org: "[loc] must be less than 2,048 characters".
const LONG_LOC_CHARS: usize = 2048;

/// A declared value as read: text (not yet trimmed), where, and what went wrong while reading it.
#[derive(Debug, Clone)]
pub(crate) struct Value {
    pub text: String,
    pub locator: Locator,
    /// First undefined entity reference inside the value.
    pub undefined: Option<String>,
    /// The value was longer than [`Limits::max_value_bytes`] and was cut.
    pub overflow: bool,
}

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

    pub(crate) fn error(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        self.visitor.diagnostic(Diagnostic::error(code, message, locator));
    }

    pub(crate) fn warn(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        self.visitor.diagnostic(Diagnostic::warning(code, message, locator));
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

    /// Validates a declared value and reports it. `base` resolves relative references (Atom only).
    pub(crate) fn value(
        &mut self,
        relation: Relation,
        value: Value,
        hints: Vec<(&'static str, String)>,
        base: Option<&Url>,
    ) {
        if self.stop {
            return;
        }
        let Value { text, locator, undefined, overflow } = value;
        if let Some(name) = undefined {
            self.error(
                codes::UNDEFINED_ENTITY,
                format!("entity &{name}; is not defined (no DTD is read); the value {} is dropped", shown(&text)),
                Some(locator),
            );
            return;
        }
        if overflow {
            self.error(
                codes::INVALID_LOC,
                format!("value longer than {} bytes dropped", self.limits.max_value_bytes),
                Some(locator),
            );
            return;
        }
        let url = match check_url(&text, base) {
            Ok(u) => u,
            Err(LocError::Empty) => {
                self.error(codes::MISSING_LOC, "empty URL", Some(locator));
                return;
            }
            Err(LocError::Relative) => {
                self.error(
                    codes::RELATIVE_LOC,
                    format!("{} is relative; sitemaps need absolute URLs", shown(&text)),
                    Some(locator),
                );
                return;
            }
            Err(LocError::Scheme(s)) => {
                self.error(
                    codes::UNSUPPORTED_SCHEME,
                    format!("{} uses scheme {s:?}; only http and https URLs are kept", shown(&text)),
                    Some(locator),
                );
                return;
            }
            Err(LocError::Invalid) => {
                self.error(codes::INVALID_LOC, format!("{} is not a valid URL", shown(&text)), Some(locator));
                return;
            }
        };
        if relation.is_primary() && url.as_str().len() > LONG_LOC_CHARS {
            self.warn(codes::LONG_LOC, format!("URL longer than {LONG_LOC_CHARS} characters"), Some(locator.clone()));
        }
        let out_of_location = relation.is_primary() && !self.rule.allows(&url);
        if out_of_location {
            self.error(
                codes::OUT_OF_LOCATION,
                format!(
                    "{url} is outside this sitemap's location and no robots.txt of its origin declared this sitemap"
                ),
                Some(locator.clone()),
            );
        }
        self.found(Found { relation, url, locator, hints, out_of_location });
    }

    fn found(&mut self, found: Found) {
        if self.values >= self.limits.hard_cap_values {
            let msg = format!("more than {} URLs in one file; reading stopped", self.limits.hard_cap_values);
            self.over_limit(msg, Some(found.locator));
            return;
        }
        self.values += 1;
        if found.relation.is_primary() {
            self.urls += 1;
            if self.urls > self.limits.max_urls && !self.too_many_urls {
                self.too_many_urls = true;
                let msg = format!("more than {} URLs in one file (sitemaps.org limit)", self.limits.max_urls);
                self.error(codes::TOO_MANY_URLS, msg, Some(found.locator.clone()));
            }
        }
        if let ControlFlow::Break(()) = self.visitor.found(found) {
            self.stop = true;
            self.incomplete = true;
        }
    }
}
