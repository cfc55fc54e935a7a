//! The XRD parser (`host-meta`): `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! A host-meta document is an XRD 1.0 document (RFC 6415 section 2) whose root `XRD` element holds
//! `Link` elements (section 3.1.1). The body is read as a stream of XML events (quick-xml, no
//! document type declaration or entity expansion), once; every `Link` child of the root is read, and
//! links met before a well-formedness fault are kept.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use wellknown_core::diag::codes as shared;
use wellknown_core::media::{MediaType, strip_bom};
use wellknown_core::{FetchMeta, Locator, Report};

use crate::codes;
use crate::link::{self, Counts, Link};

/// Fetch cap (bytes after content decoding): real host-meta documents are under 2 KiB. Larger bodies
/// are truncated by the fetcher and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

/// The XRD 1.0 namespace (XRD 1.0 section 2).
pub const XRD_NS: &str = "http://docs.oasis-open.org/ns/xri/xrd-1.0";

/// Interprets a `/.well-known/host-meta` body (XRD) fetched as described by `meta`.
///
/// Returns a report of kind `xrd` (or `invalid` when the root is not `XRD` or nothing parsed) with,
/// for each `Link` child of the root (locator `/XRD/Link[n]`, 1-based): a `url` candidate (relation
/// `link`) for its `href` resolved against `meta.url`, a `path` candidate (relation `link_template`)
/// for its `template` as written, hints `rel` and `type`, and a `host` candidate (`link_host`) for a
/// target on another host. Facts: `links`, `hrefs`, `templates`, `subject` (when present),
/// `legacy_host` (the obsolete `hm:Host` element's text, when present). Diagnostics: see
/// [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "xrd");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    check_media_type(&mut report, meta.content_type.as_deref());
    let (bom, body) = strip_bom(body);
    if bom.is_some() {
        report.warn(shared::BOM, "the body starts with a byte-order mark", Some(Locator::Byte(0)));
    }
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            report.error(shared::INVALID_UTF8, format!("not UTF-8 from byte {at}"), Some(Locator::Byte(at as u64)));
            body.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
        }
    };
    let mut counts = Counts::default();
    read_xrd(&mut report, meta, text, &mut counts);
    if counts.links == 0 && report.kind != "invalid" {
        report.warn(codes::NO_LINKS, "the XRD declares no Link", None);
    }
    report.fact("links", counts.links);
    report.fact("hrefs", counts.hrefs);
    report.fact("templates", counts.templates);
    report
}

/// `invalid_content_type` (warning) unless `application/xrd+xml` (RFC 6415 section 2).
fn check_media_type(report: &mut Report, content_type: Option<&str>) {
    let essence = content_type.and_then(MediaType::parse).map(|m| m.essence);
    if essence.as_deref() != Some("application/xrd+xml") {
        report.warn(
            shared::INVALID_CONTENT_TYPE,
            format!("Content-Type {:?} is not application/xrd+xml (RFC 6415 section 2)", content_type.unwrap_or("")),
            None,
        );
    }
}

/// Which element's text is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TextOf {
    None,
    Subject,
    LegacyHost,
}

fn read_xrd(report: &mut Report, meta: &FetchMeta, text: &str, counts: &mut Counts) {
    let mut reader = Reader::from_str(text);
    let mut depth = 0usize;
    let mut seen_root = false;
    let mut text_of = TextOf::None;
    let mut subject = String::new();
    let mut legacy_host = String::new();
    loop {
        let event = reader.read_event();
        match event {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let empty = matches!(event, Ok(Event::Empty(_)));
                if depth == 0 {
                    if seen_root {
                        report.error(codes::MALFORMED_XML, "a second root element", Some(xml("/")));
                        break;
                    }
                    seen_root = true;
                    if !root(report, &reader, e) {
                        report.kind = "invalid".to_string();
                        return;
                    }
                } else if depth == 1 {
                    match e.local_name().as_ref() {
                        b"Link" => {
                            let n = counts.links + 1;
                            let link = read_link(&reader, e);
                            link::apply(report, &meta.url, &link, &xml(&format!("/XRD/Link[{n}]")), counts);
                        }
                        b"Subject" => text_of = TextOf::Subject,
                        b"Host" => text_of = TextOf::LegacyHost,
                        _ => {}
                    }
                }
                if !empty {
                    depth += 1;
                }
            }
            Ok(Event::End(_)) => {
                depth = depth.saturating_sub(1);
                text_of = TextOf::None;
            }
            Ok(Event::Text(t)) => {
                let s = String::from_utf8_lossy(&t);
                match text_of {
                    TextOf::Subject => push_capped(&mut subject, &s),
                    TextOf::LegacyHost => push_capped(&mut legacy_host, &s),
                    TextOf::None => {
                        if depth == 0 && !s.trim().is_empty() {
                            report.error(codes::MALFORMED_XML, "text outside the root element", Some(xml("/")));
                            break;
                        }
                    }
                }
            }
            Ok(Event::DocType(_)) => report.warn(
                codes::DOCTYPE_IGNORED,
                "a document type declaration: not read, no entity expanded",
                Some(Locator::Byte(reader.buffer_position())),
            ),
            Ok(Event::Eof) => {
                if !seen_root {
                    report.error(codes::MALFORMED_XML, "no root element", None);
                    report.kind = "invalid".to_string();
                } else if depth > 0 {
                    report.error(codes::MALFORMED_XML, "the document ends inside an element", None);
                }
                break;
            }
            Ok(_) => {}
            Err(e) => {
                report.error(
                    codes::MALFORMED_XML,
                    format!("not well-formed XML: {e}"),
                    Some(Locator::Byte(reader.error_position())),
                );
                if !seen_root {
                    report.kind = "invalid".to_string();
                }
                break;
            }
        }
    }
    if !subject.trim().is_empty() {
        report.fact("subject", subject.trim());
    }
    if !legacy_host.trim().is_empty() {
        report.fact("legacy_host", legacy_host.trim());
    }
}

/// Checks the root element: `XRD` (else `not_xrd`, false) in the XRD 1.0 namespace (else a warning).
fn root(report: &mut Report, reader: &Reader<&[u8]>, e: &BytesStart<'_>) -> bool {
    let name = e.name();
    if e.local_name().as_ref() != b"XRD" {
        report.error(
            codes::NOT_XRD,
            format!("the root element is <{}>, not <XRD> (RFC 6415 section 2)", String::from_utf8_lossy(name.as_ref())),
            Some(xml("/")),
        );
        return false;
    }
    let ns_attr = match name.prefix() {
        Some(p) => [b"xmlns:".as_slice(), p.as_ref()].concat(),
        None => b"xmlns".to_vec(),
    };
    let ns = attribute(reader, e, &ns_attr, true);
    if ns.as_deref() != Some(XRD_NS) {
        report.warn(
            codes::XRD_NAMESPACE,
            format!("the XRD element's namespace is {:?}, not {XRD_NS:?} (XRD 1.0 section 2)", ns.unwrap_or_default()),
            Some(xml("/XRD")),
        );
    }
    true
}

fn read_link(reader: &Reader<&[u8]>, e: &BytesStart<'_>) -> Link {
    Link {
        rel: attribute(reader, e, b"rel", false),
        media_type: attribute(reader, e, b"type", false),
        href: attribute(reader, e, b"href", false),
        template: attribute(reader, e, b"template", false),
    }
}

/// The unescaped value of the attribute `key` (full name when `full`, else unprefixed local name).
fn attribute(reader: &Reader<&[u8]>, e: &BytesStart<'_>, key: &[u8], full: bool) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        let matches =
            if full { a.key.as_ref() == key } else { a.key.prefix().is_none() && a.key.local_name().as_ref() == key };
        if !matches {
            return None;
        }
        Some(match a.decode_and_unescape_value(reader.decoder()) {
            Ok(v) => v.into_owned(),
            Err(_) => String::from_utf8_lossy(&a.value).into_owned(),
        })
    })
}

/// Appends at most 1 KiB of text.
fn push_capped(into: &mut String, s: &str) {
    for ch in s.chars() {
        if into.len() >= 1024 {
            return;
        }
        into.push(ch);
    }
}

fn xml(path: &str) -> Locator {
    Locator::Xml(path.to_string())
}
