//! Behaviour of the security.txt parser beyond the shared conformance cases: transport and media
//! checks, HTML soft 404s, grammar details, each field's rules, candidates and facts.

use wellknown_core::{CandidateKind, FetchMeta, Locator, RedirectHop, Report, Timestamp};
use wellknown_security_txt::parse;

const NOW: &str = "2026-12-01T12:00:00Z";
const WK: &str = "https://example.com/.well-known/security.txt";

fn meta_at(url: &str, ct: Option<&str>) -> FetchMeta {
    let now: Timestamp = NOW.parse().expect("now");
    FetchMeta::synthetic(url::Url::parse(url).expect("url"), ct, now)
}

fn run(body: &str) -> Report {
    parse(body.as_bytes(), &meta_at(WK, Some("text/plain; charset=utf-8")))
}

fn errors(r: &Report) -> Vec<&str> {
    r.errors.iter().map(|d| d.code.as_str()).collect()
}

fn warnings(r: &Report) -> Vec<&str> {
    r.warnings.iter().map(|d| d.code.as_str()).collect()
}

fn line_of(r: &Report, code: &str) -> Option<Locator> {
    r.errors.iter().chain(&r.warnings).find(|d| d.code == code).and_then(|d| d.locator.clone())
}

const GOOD: &str = "Contact: https://example.com/security\nExpires: 2027-06-30T23:00:00Z\n";

#[test]
fn minimal_valid_file() {
    let r = run(GOOD);
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(warnings(&r), vec!["not_signed"]);
    assert_eq!(r.kind, "security.txt");
    assert_eq!(r.facts["covers_host"], "example.com");
    assert_eq!(r.facts["expires"], "2027-06-30T23:00:00Z");
    assert_eq!(r.facts["signed"], false);
}

#[test]
fn html_soft_404_is_not_read_as_fields() {
    let body = "<!DOCTYPE html>\n<html><body>Contact: mailto:x@example.com</body></html>\n";
    let r = parse(body.as_bytes(), &meta_at(WK, Some("text/html; charset=utf-8")));
    assert_eq!(r.kind, "html");
    assert_eq!(errors(&r), vec!["invalid_content_type", "html_document"]);
    assert!(r.candidates.is_empty());
    assert!(!r.has_code("missing_contact"));
    // Served as text/plain, the HTML is still recognised.
    let r = parse(body.as_bytes(), &meta_at(WK, Some("text/plain")));
    assert_eq!(errors(&r), vec!["html_document"]);
}

#[test]
fn media_type_charset_and_transport() {
    let r = parse(GOOD.as_bytes(), &meta_at(WK, Some("application/octet-stream")));
    assert_eq!(errors(&r), vec!["invalid_content_type"]);
    let r = parse(GOOD.as_bytes(), &meta_at(WK, Some("text/plain")));
    assert!(r.valid());
    let r = parse(GOOD.as_bytes(), &meta_at(WK, Some("TEXT/PLAIN; Charset=\"UTF-8\"")));
    assert!(r.valid());
    let r = parse(GOOD.as_bytes(), &meta_at(WK, None));
    assert!(r.valid(), "a local file has no Content-Type to judge");
    let r = parse(GOOD.as_bytes(), &meta_at("http://example.com/.well-known/security.txt", Some("text/plain")));
    assert_eq!(errors(&r), vec!["insecure_transport"]);
    let r = parse(GOOD.as_bytes(), &meta_at("https://example.com/security.txt", Some("text/plain")));
    assert!(r.valid());
    assert_eq!(warnings(&r), vec!["legacy_location", "not_signed"]);
}

#[test]
fn covers_the_requested_host_after_a_redirect() {
    let mut meta = meta_at(WK, Some("text/plain"));
    meta.requested_url = url::Url::parse("https://www.example.org/.well-known/security.txt").expect("url");
    meta.redirect_chain = vec![RedirectHop { url: meta.requested_url.clone(), status: 301 }];
    let body = format!("{GOOD}Canonical: https://example.com/.well-known/security.txt\n");
    let r = parse(body.as_bytes(), &meta);
    assert_eq!(r.facts["covers_host"], "www.example.org");
    assert!(r.valid());
    // Canonical must name the last URL of the chain, not the first.
    let body = format!("{GOOD}Canonical: https://www.example.org/.well-known/security.txt\n");
    let r = parse(body.as_bytes(), &meta);
    assert_eq!(errors(&r), vec!["canonical_mismatch"]);
    assert_eq!(line_of(&r, "canonical_mismatch"), Some(Locator::Line(3)));
}

#[test]
fn bom_crlf_and_invalid_utf8() {
    let r = run(
        "\u{feff}Contact: mailto:a@example.com\r\nExpires: 2027-06-30T23:00:00Z\r\nEncryption: https://example.com/k.asc\r\n",
    );
    assert_eq!(errors(&r), vec!["bom"]);
    assert_eq!(r.values(CandidateKind::Contact).collect::<Vec<_>>(), vec!["mailto:a@example.com"]);
    let mut body = GOOD.as_bytes().to_vec();
    body.extend_from_slice(b"# caf\xe9\n");
    let r = parse(&body, &meta_at(WK, Some("text/plain")));
    assert_eq!(errors(&r), vec!["invalid_utf8"]);
    assert_eq!(r.values(CandidateKind::Contact).count(), 1);
}

#[test]
fn utf16_and_utf32_files_are_named_and_read() {
    let text = "Contact: mailto:a@example.com\nExpires: 2027-06-30T23:00:00Z\n";
    let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let utf32: Vec<u8> =
        [0, 0, 0xFE, 0xFF].into_iter().chain(text.chars().flat_map(|c| u32::from(c).to_be_bytes())).collect();
    for (body, name) in
        [(le, "UTF-16LE (with a byte-order mark)"), (be, "UTF-16BE (without"), (utf32, "UTF-32BE (with")]
    {
        let r = parse(&body, &meta_at(WK, Some("text/plain")));
        assert_eq!(errors(&r), vec!["not_utf8"], "{name}");
        assert!(r.errors[0].message.contains(name), "{}", r.errors[0].message);
        assert_eq!(r.values(CandidateKind::Contact).collect::<Vec<_>>(), vec!["mailto:a@example.com"]);
        assert_eq!(r.facts["expires"], "2027-06-30T23:00:00Z");
    }
}

#[test]
fn cr_only_line_endings_are_line_breaks_with_an_error() {
    let r = run("Contact: mailto:a@a.example\rExpires: 2027-01-01T00:00:00Z\r");
    assert_eq!(errors(&r), vec!["cr_line_ending"]);
    assert_eq!(line_of(&r, "cr_line_ending"), Some(Locator::Line(1)));
    assert!(r.errors[0].message.contains("2 line(s)"), "{}", r.errors[0].message);
    assert_eq!(r.values(CandidateKind::Contact).collect::<Vec<_>>(), vec!["mailto:a@a.example"]);
    assert_eq!(r.facts["expires"], "2027-01-01T00:00:00Z");
    // Mixed: the lone CR on line 2 is reported there; CRLF and LF lines are not.
    let r = run("Contact: mailto:a@a.example\r\nExpires: 2027-01-01T00:00:00Z\rPolicy: https://example.com/p\n");
    assert_eq!(errors(&r), vec!["cr_line_ending"]);
    assert_eq!(line_of(&r, "cr_line_ending"), Some(Locator::Line(2)));
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), vec!["https://example.com/p"]);
}

#[test]
fn grammar_findings_carry_line_numbers() {
    let body = "# comment\n\nContact: mailto:a@example.com\nnot a field\n  Policy: https://example.com/p\nhttps://example.com/bare\nExpires: 2027-06-30T23:00:00Z\nEncryption:https://example.com/k\nHiring : https://example.com/jobs\nX-Thing: whatever\n";
    let r = run(body);
    let want = vec![
        ("invalid_line", 4),
        ("invalid_line", 5),
        ("invalid_line", 6),
        ("missing_space_after_colon", 8),
        ("whitespace_before_colon", 9),
    ];
    let got: Vec<(&str, u32)> = r
        .errors
        .iter()
        .map(|d| {
            (
                d.code.as_str(),
                match d.locator {
                    Some(Locator::Line(n)) => n,
                    _ => 0,
                },
            )
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(line_of(&r, "unknown_field"), Some(Locator::Line(10)));
    assert_eq!(r.facts["unknown_fields"], serde_json::json!([{"name": "X-Thing", "value": "whatever", "line": 10}]));
    // Fields with grammar findings are still read; the indented and bare lines are not.
    let urls: Vec<&str> = r.values(CandidateKind::Url).collect();
    assert_eq!(urls, vec!["https://example.com/k", "https://example.com/jobs"]);
}

#[test]
fn expires_rules() {
    let r = run("Contact: https://example.com/s\nExpires: 2026-12-01T11:59:59Z\n");
    assert_eq!(errors(&r), vec!["expired"]);
    assert_eq!(line_of(&r, "expired"), Some(Locator::Line(2)));
    // Exactly one year ahead is fine; one second more is long.
    let r = run("Contact: https://example.com/s\nExpires: 2027-12-01T12:00:00Z\n");
    assert!(!r.has_code("long_expiry"));
    let r = run("Contact: https://example.com/s\nExpires: 2027-12-01T12:00:01Z\n");
    assert_eq!(warnings(&r), vec!["long_expiry", "not_signed"]);
    let r = run("Contact: https://example.com/s\nExpires: 2027-01-01T00:00:00Z\nExpires: 2025-01-01T00:00:00Z\n");
    assert_eq!(errors(&r), vec!["multiple_expires"]);
    assert_eq!(line_of(&r, "multiple_expires"), Some(Locator::Line(3)));
    let r = run("Contact: https://example.com/s\nExpires: 2027-01-01T01:00:00+01:00\n");
    assert_eq!(r.facts["expires"], "2027-01-01T00:00:00Z");
}

#[test]
fn far_future_expires_is_long_not_invalid() {
    for value in ["9999-12-31T23:59:59Z", "9999-12-30T23:59:59Z", "9999-01-01T00:00:00Z"] {
        let r = run(&format!("Contact: https://example.com/s\nExpires: {value}\n"));
        assert!(r.valid(), "{value}: {:?}", r.errors);
        assert_eq!(warnings(&r), vec!["long_expiry", "not_signed"], "{value}");
        assert_eq!(r.facts["expires"], value);
        assert_eq!(line_of(&r, "long_expiry"), Some(Locator::Line(2)));
        // The message quotes the date as written, not the clamped instant compared.
        let msg = r.warnings.iter().find(|d| d.code == "long_expiry").map(|d| d.message.clone()).unwrap_or_default();
        assert!(msg.starts_with(&format!("expires at {value}, more than a year after")), "{msg}");
    }
}

#[test]
fn preferred_languages_rules() {
    let r = run(&format!("{GOOD}Preferred-Languages: en, de-CH,fr\n"));
    assert!(r.valid());
    assert_eq!(r.facts["preferred_languages"], serde_json::json!(["en", "de-CH", "fr"]));
    let r = run(&format!("{GOOD}Preferred-Languages: en\nPreferred-Languages: fr\n"));
    assert_eq!(errors(&r), vec!["multiple_preferred_languages"]);
    let r = run(&format!("{GOOD}Preferred-Languages:\n"));
    assert_eq!(errors(&r), vec!["invalid_language_tag"]);
}

#[test]
fn uri_fields_and_candidates() {
    let body = "Contact: mailto:security@example.com\nContact: tel:+1-201-555-0123\nContact: https://Help.Example.NET/report\nContact: https://help.example.net/other\nEncryption: openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f\nEncryption: https://keys.example.org/k.asc\nAcknowledgments: https://example.com/thanks\nPolicy: https://example.com/policy\nHiring: http://jobs.example.com/\nCSAF: https://example.com/.well-known/csaf/provider-metadata.json\nExpires: 2027-06-30T23:00:00Z\n";
    let r = run(body);
    assert_eq!(errors(&r), vec!["insecure_uri"]);
    assert_eq!(line_of(&r, "insecure_uri"), Some(Locator::Line(9)));
    assert_eq!(
        r.values(CandidateKind::Contact).collect::<Vec<_>>(),
        vec![
            "mailto:security@example.com",
            "tel:+1-201-555-0123",
            "https://help.example.net/report",
            "https://help.example.net/other"
        ]
    );
    assert_eq!(
        r.values(CandidateKind::Key).collect::<Vec<_>>(),
        vec!["openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f", "https://keys.example.org/k.asc"]
    );
    let rel = |kind: CandidateKind| -> Vec<(String, String)> {
        r.candidates
            .iter()
            .filter(|c| c.kind() == kind)
            .map(|c| (c.relation().to_string(), c.value().to_string()))
            .collect()
    };
    assert_eq!(
        rel(CandidateKind::Url),
        vec![
            ("contact".into(), "https://help.example.net/report".into()),
            ("contact".into(), "https://help.example.net/other".into()),
            ("encryption".into(), "https://keys.example.org/k.asc".into()),
            ("acknowledgments".into(), "https://example.com/thanks".into()),
            ("policy".into(), "https://example.com/policy".into()),
            ("hiring".into(), "http://jobs.example.com/".into()),
            ("csaf".into(), "https://example.com/.well-known/csaf/provider-metadata.json".into()),
        ]
    );
    assert_eq!(
        rel(CandidateKind::Host),
        vec![
            ("contact_host".into(), "help.example.net".into()),
            ("encryption_host".into(), "keys.example.org".into()),
            ("acknowledgments_host".into(), "example.com".into()),
            ("policy_host".into(), "example.com".into()),
            ("hiring_host".into(), "jobs.example.com".into()),
            ("csaf_host".into(), "example.com".into()),
        ]
    );
    // An email contact with an Encryption field: no missing_encryption.
    assert!(!r.has_code("missing_encryption"));
}

#[test]
fn csaf_must_point_to_provider_metadata() {
    let r = run(&format!("{GOOD}CSAF: https://example.com/csaf/index.html\n"));
    assert_eq!(errors(&r), vec!["csaf_not_provider_metadata"]);
    assert_eq!(line_of(&r, "csaf_not_provider_metadata"), Some(Locator::Line(3)));
}

#[test]
fn csaf_provider_metadata_is_a_follow_up_for_the_csaf_probe() {
    let r = run(&format!(
        "{GOOD}CSAF: https://example.com/.well-known/csaf/provider-metadata.json\nCSAF: https://example.com/csaf/index.html\n"
    ));
    let follow_ups: Vec<_> = r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str(), f.role.as_str())).collect();
    assert_eq!(follow_ups, [("csaf", "https://example.com/.well-known/csaf/provider-metadata.json", "csaf")]);
}

#[test]
fn not_a_uri_keeps_the_contact() {
    let r = run("Contact: security [at] example [dot] com\nContact:\nExpires: 2027-06-30T23:00:00Z\n");
    assert_eq!(errors(&r), vec!["not_a_uri", "not_a_uri"]);
    assert_eq!(r.values(CandidateKind::Contact).collect::<Vec<_>>(), vec!["security [at] example [dot] com"]);
}

#[test]
fn missing_everything_and_empty_body() {
    let r = run("");
    assert_eq!(errors(&r), vec!["missing_contact", "missing_expires"]);
    assert_eq!(warnings(&r), vec!["not_signed"]);
    let r = run("Contact: mailto:a@example.com");
    assert_eq!(errors(&r), vec!["missing_final_newline", "missing_expires"]);
    assert_eq!(line_of(&r, "missing_final_newline"), Some(Locator::Line(1)));
    assert_eq!(warnings(&r), vec!["missing_encryption", "not_signed"]);
}

#[test]
fn misspelt_acknowledgements_is_unknown_but_still_a_candidate() {
    let r = run(&format!("{GOOD}Acknowledgements: https://example.com/hof\n"));
    assert!(r.valid());
    assert!(r.warnings.iter().any(|d| d.code == "unknown_field" && d.message.contains("Acknowledgments")));
    assert_eq!(
        r.values(CandidateKind::Url).collect::<Vec<_>>(),
        vec!["https://example.com/security", "https://example.com/hof"]
    );
}

#[test]
fn unknown_fields_are_listed_up_to_the_cap_and_counted() {
    let junk: String = (1..=250).map(|i| format!("X-Field-{i}: v{i}\n")).collect();
    let r = run(&format!("{GOOD}{junk}"));
    let listed = r.facts["unknown_fields"].as_array().expect("list");
    assert_eq!(listed.len(), 100);
    assert_eq!(listed[0], serde_json::json!({"name": "X-Field-1", "value": "v1", "line": 3}));
    assert_eq!(listed[99]["name"], "X-Field-100");
    assert_eq!(r.facts["unknown_fields_total"], 250);
    // Few unknown fields: all listed, no total.
    let r = run(&format!("{GOOD}X-A: 1\n"));
    assert_eq!(r.facts["unknown_fields"].as_array().map(Vec::len), Some(1));
    assert!(!r.facts.contains_key("unknown_fields_total"));
}

#[test]
fn a_signed_file_with_lone_crs_reads_the_fields_apart() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cr_in_signed_line.txt");
    let r = run(&std::fs::read_to_string(path).expect("fixture"));
    // `- not a dash escape` (after a lone CR: signed as written) is no field.
    assert_eq!(errors(&r), vec!["cr_line_ending", "invalid_line"]);
    assert_eq!(line_of(&r, "cr_line_ending"), Some(Locator::Line(4)));
    assert_eq!(line_of(&r, "invalid_line"), Some(Locator::Line(5)));
    assert_eq!(r.values(CandidateKind::Contact).collect::<Vec<_>>(), vec!["mailto:security@example.com"]);
    assert_eq!(r.facts["expires"], "2027-01-01T00:00:00Z");
    assert_eq!(r.facts["signed"], true);
}

#[test]
fn signed_file_without_key_and_without_canonical() {
    let body = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: https://example.com/s\nExpires: 2027-06-30T23:00:00Z\n-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0WIQT+l9/CBWJRsQYWZkXkxtRLG7LcHQUC\n=abcd\n-----END PGP SIGNATURE-----\n";
    let r = run(body);
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(warnings(&r), vec!["signed_without_canonical"]);
    assert_eq!(r.facts["signed"], true);
    assert_eq!(r.facts["signature"], "not_checked");
    assert_eq!(r.facts["hash_headers"], serde_json::json!(["SHA256"]));
    // Line numbers are those of the body as served.
    assert_eq!(r.candidates.first().and_then(|c| c.locator().clone()), Some(Locator::Line(4)));
}

#[test]
fn large_files_are_flagged() {
    let mut body = String::from(GOOD);
    while body.len() <= 33 * 1024 {
        body.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    let r = run(&body);
    assert!(r.valid());
    assert!(r.has_code("too_large"));
}

#[test]
fn diagnostics_are_capped_per_code_with_a_count() {
    // Half a million junk lines: the first MiB is read, each line is an invalid_line, but only 100
    // are listed and the rest are counted.
    let mut body = String::new();
    for i in 0..150 {
        body.push_str(&format!("X-Junk-{i}: y\n"));
    }
    body.push_str(GOOD);
    for i in 0..500_000 {
        body.push_str(&format!("junk line {i}\n"));
    }
    let read = &body.as_bytes()[..wellknown_security_txt::MAX_PARSE_BYTES];
    let read_lines = read.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    let junk_lines = read_lines - 150 - 2;
    let r = run(&body);
    let count = |code: &str| r.errors.iter().chain(&r.warnings).filter(|d| d.code == code).count();
    assert_eq!(count("invalid_line"), wellknown_security_txt::MAX_DIAGNOSTICS_PER_CODE as usize);
    assert_eq!(count("unknown_field"), 100);
    assert_eq!(line_of(&r, "invalid_line"), Some(Locator::Line(153)));
    assert_eq!(
        r.facts["suppressed_diagnostics"],
        serde_json::json!({"invalid_line": junk_lines - 100, "unknown_field": 50})
    );
    // The file-level findings are still there, and the report stays small.
    assert!(r.has_code("too_large") && r.has_code("missing_final_newline"));
    assert!(serde_json::to_string(&r).expect("json").len() < 64 * 1024);
}
