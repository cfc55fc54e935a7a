//! The OpenPGP cleartext signature framework around a security.txt file (RFC 9116 section 2.3 and
//! section 4 `signed`; RFC 4880 section 7, RFC 9580 section 7).
//!
//! [`split`] finds the framework in the body's lines, dash-unescapes the signed text and returns the
//! lines that are the security.txt document proper, with their original line numbers. Text outside
//! the signed part (before the header or after the signature) is never read as fields: it is not
//! covered by the signature.

use wellknown_core::{Diagnostic, Locator};

use crate::codes;

const BEGIN_SIGNED: &str = "-----BEGIN PGP SIGNED MESSAGE-----";
const BEGIN_SIGNATURE: &str = "-----BEGIN PGP SIGNATURE-----";
const END_SIGNATURE: &str = "-----END PGP SIGNATURE-----";

/// One line of the body: its 1-based number and its text without the line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the body as served.
    pub number: u32,
    /// The text, without CR LF / LF.
    pub text: String,
    /// True when a lone CR (not followed by LF) ended the line ([`split_lines`]): for OpenPGP the
    /// line goes on, the CR and the next line's text are part of it (RFC 4880 section 7.1).
    pub lone_cr: bool,
}

/// A cleartext-signed security.txt: the signed text and the armored signature (RFC 4880 section 7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedDocument {
    /// Hash algorithms named by the `Hash:` armor headers (e.g. `SHA256`), as written.
    pub hash_headers: Vec<String>,
    /// The signed lines as OpenPGP reads them (ended by LF or CR LF only: a lone CR stays inside
    /// its line, as written), dash-unescaped (`- ` removed from the start of each), without line
    /// endings, in order.
    pub lines: Vec<String>,
    /// 1-based body line number of the first signed line.
    pub first_line: u32,
    /// The armored signature block from `-----BEGIN PGP SIGNATURE-----` to
    /// `-----END PGP SIGNATURE-----` inclusive, LF line endings.
    pub signature_armor: String,
}

impl SignedDocument {
    /// The bytes the signature covers (RFC 4880 section 7.1, RFC 9116 section 2.3): the
    /// dash-unescaped lines with trailing spaces and tabs removed, joined with CR LF; the line
    /// ending before the signature armor is not part of the signed text. A lone CR inside a line is
    /// kept as written (only LF and CR LF end a line of the cleartext).
    pub fn signed_text(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push_str("\r\n");
            }
            out.push_str(line.trim_end_matches([' ', '\t']));
        }
        out
    }
}

/// The result of looking for the signature framework in a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// The lines to read as the security.txt document (all lines when unsigned; the signed text
    /// when signed), with body line numbers.
    pub lines: Vec<Line>,
    /// The signed document, when the body is cleartext-signed (even with format errors, as long as
    /// the signed-message header was found).
    pub signed: Option<SignedDocument>,
    /// `invalid_signature_format` and `data_after_signature` findings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Splits a body into lines at LF, removing one CR before each LF. A lone CR (not followed by LF)
/// also ends a line: RFC 9116 section 4 allows only `[CR] LF` (`eol = *WSP [CR] LF`), but reading a
/// CR-only file as one line would glue its fields into one value ([`lone_cr_endings`] reports it).
/// The text after the last line ending is a line only when it is not empty. Returns the lines and
/// whether the last line was terminated.
pub fn split_lines(text: &str) -> (Vec<Line>, bool) {
    let mut out = Vec::new();
    let mut number: u32 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        number = number.saturating_add(1);
        match rest.find(['\n', '\r']) {
            Some(i) => {
                let after = if rest.get(i..i + 2) == Some("\r\n") { i + 2 } else { i + 1 };
                let lone_cr = after == i + 1 && rest.get(i..=i) == Some("\r");
                out.push(Line { number, text: rest.get(..i).unwrap_or_default().to_string(), lone_cr });
                rest = rest.get(after..).unwrap_or_default();
            }
            None => {
                out.push(Line { number, text: rest.to_string(), lone_cr: false });
                return (out, false);
            }
        }
    }
    (out, true)
}

/// Lines ended by a lone CR (CR not followed by LF), which RFC 9116 section 4's `eol` does not allow:
/// the 1-based number of the first such line (numbered as [`split_lines`] numbers them) and how many
/// there are. None when every CR is part of a CR LF. Linear in the text length.
pub fn lone_cr_endings(text: &str) -> Option<(u32, usize)> {
    let bytes = text.as_bytes();
    let mut line: u32 = 1;
    let mut first = None;
    let mut count = 0usize;
    let mut i = 0;
    while let Some(off) = bytes.get(i..).and_then(|b| b.iter().position(|&c| c == b'\n' || c == b'\r')) {
        let at = i + off;
        if bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) != Some(&b'\n') {
            first.get_or_insert(line);
            count += 1;
            i = at + 1;
        } else if bytes.get(at) == Some(&b'\r') {
            i = at + 2;
        } else {
            i = at + 1;
        }
        line = line.saturating_add(1);
    }
    first.map(|f| (f, count))
}

fn is_marker(text: &str, marker: &str) -> bool {
    text.trim_end_matches([' ', '\t']) == marker
}

fn format_error(line: u32, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::INVALID_SIGNATURE_FORMAT, message, Some(Locator::Line(line)))
}

/// Splits `lines` (the whole body) into the document lines and, when present, the signature
/// framework. Never fails: every structural problem becomes a diagnostic.
///
/// A signed file begins with `-----BEGIN PGP SIGNED MESSAGE-----` (RFC 9116 section 2.3; the
/// `signed` production of section 4 starts with `cleartext-header`): anything before it, blank lines
/// and leading whitespace on the header line included, is `invalid_signature_format`. The header is
/// still recognised there, and the signed text is read as usual (text before it is not).
pub fn split(lines: Vec<Line>) -> Envelope {
    let Some(begin) = lines.iter().position(|l| is_marker(l.text.trim_start_matches([' ', '\t']), BEGIN_SIGNED)) else {
        return unsigned(lines);
    };
    let mut diagnostics = Vec::new();
    let header = lines.get(begin);
    let indented = header.is_some_and(|l| l.text.starts_with([' ', '\t']));
    if let Some(first) = lines.iter().take(begin).find(|l| !l.text.trim().is_empty()) {
        diagnostics.push(format_error(
            first.number,
            format!(
                "text before `{BEGIN_SIGNED}` is not covered by the signature and was not read; a signed file must \
                 begin with that line (RFC 9116 section 2.3)"
            ),
        ));
    } else if begin > 0 || indented {
        let what = match begin {
            0 => "whitespace".to_string(),
            1 => "a blank line".to_string(),
            n => format!("{n} blank lines"),
        };
        diagnostics.push(format_error(
            lines.first().map_or(1, |l| l.number),
            format!(
                "{what} before `{BEGIN_SIGNED}`: a signed file must begin with that line (RFC 9116 section 2.3 and \
                 the `signed` ABNF of section 4)"
            ),
        ));
    }
    let mut i = begin + 1;
    // Armor headers: `Hash: <alg>[, <alg>]` lines, then one empty line.
    let mut hash_headers = Vec::new();
    while let Some(l) = lines.get(i) {
        let t = l.text.trim_end();
        if t.is_empty() {
            i += 1;
            break;
        }
        match t.split_once(": ") {
            Some(("Hash", value)) => {
                hash_headers.extend(value.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()));
                i += 1;
            }
            _ => {
                diagnostics.push(format_error(
                    l.number,
                    "the signed-message header must be followed by `Hash:` armor headers and an empty line",
                ));
                break;
            }
        }
    }
    // Signed text up to the signature armor.
    let first_line = lines.get(i).map_or_else(|| lines.last().map_or(1, |l| l.number + 1), |l| l.number);
    let mut doc_lines = Vec::new();
    let mut signed_lines: Vec<String> = Vec::new();
    let mut sig_start = None;
    // True when the previous line ended with a lone CR: this one goes on the same OpenPGP line.
    let mut continued = false;
    while let Some(l) = lines.get(i) {
        if is_marker(&l.text, BEGIN_SIGNATURE) {
            sig_start = Some(i);
            break;
        }
        if continued {
            // Not the start of an OpenPGP line: neither dash-escaped nor unescaped; the signed text
            // keeps the CR and the text as written.
            if let Some(last) = signed_lines.last_mut() {
                last.push('\r');
                last.push_str(&l.text);
            }
            continued = l.lone_cr;
            doc_lines.push(l.clone());
            i += 1;
            continue;
        }
        continued = l.lone_cr;
        let text = if let Some(rest) = l.text.strip_prefix("- ") {
            rest.to_string()
        } else {
            if l.text.starts_with('-') {
                diagnostics.push(format_error(
                    l.number,
                    "a signed line starting with `-` must be dash-escaped as `- -` (RFC 4880 section 7.1)",
                ));
            }
            l.text.clone()
        };
        signed_lines.push(text.clone());
        doc_lines.push(Line { number: l.number, text, lone_cr: l.lone_cr });
        i += 1;
    }
    let mut signature_armor = String::new();
    match sig_start {
        None => diagnostics.push(format_error(
            lines.last().map_or(1, |l| l.number),
            format!("no `{BEGIN_SIGNATURE}` after the signed text"),
        )),
        Some(start) => {
            let end = lines
                .iter()
                .enumerate()
                .skip(start + 1)
                .find(|(_, l)| is_marker(&l.text, END_SIGNATURE))
                .map(|(j, _)| j);
            // Armor lines: BEGIN ..= END, or BEGIN .. end of body when END is missing.
            let stop = end.map_or(lines.len(), |e| e + 1);
            for l in lines.iter().take(stop).skip(start) {
                signature_armor.push_str(l.text.trim_end());
                signature_armor.push('\n');
            }
            let inner_end = end.unwrap_or(lines.len());
            check_armor_body(lines.get(start + 1..inner_end).unwrap_or(&[]), &mut diagnostics);
            match end {
                None => diagnostics.push(format_error(
                    lines.last().map_or(1, |l| l.number),
                    format!("the signature armor has no `{END_SIGNATURE}` line"),
                )),
                Some(end) => {
                    if let Some(extra) = lines.iter().skip(end + 1).find(|l| !l.text.trim().is_empty()) {
                        diagnostics.push(Diagnostic::error(
                            codes::DATA_AFTER_SIGNATURE,
                            "text after the signature is not covered by it and was not read",
                            Some(Locator::Line(extra.number)),
                        ));
                    }
                }
            }
        }
    }
    Envelope {
        lines: doc_lines,
        signed: Some(SignedDocument { hash_headers, lines: signed_lines, first_line, signature_armor }),
        diagnostics,
    }
}

/// An unsigned body. A stray signature armor block is diagnosed and its lines are not read as
/// fields.
fn unsigned(lines: Vec<Line>) -> Envelope {
    let mut diagnostics = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    let mut in_armor = false;
    for l in lines {
        let t = l.text.trim_end();
        if !in_armor && t.starts_with("-----BEGIN PGP ") && t.ends_with("-----") {
            diagnostics
                .push(format_error(l.number, format!("OpenPGP armor without a preceding `{BEGIN_SIGNED}` header")));
            in_armor = true;
            continue;
        }
        if in_armor {
            if t.starts_with("-----END PGP ") {
                in_armor = false;
            }
            continue;
        }
        out.push(l);
    }
    Envelope { lines: out, signed: None, diagnostics }
}

/// Checks the inside of a signature armor (RFC 4880 section 6.2): optional armor headers and an
/// empty line, then radix-64 lines and an optional `=` checksum line.
fn check_armor_body(body: &[Line], diagnostics: &mut Vec<Diagnostic>) {
    let mut i = 0;
    // Armor headers (`Version: ...`, `Comment: ...`) end at the first empty line.
    if body.iter().any(|l| l.text.trim().is_empty()) {
        while body.get(i).is_some_and(|l| !l.text.trim().is_empty()) {
            i += 1;
        }
        i += 1;
    }
    let mut data = 0usize;
    for l in body.iter().skip(i) {
        let t = l.text.trim();
        if t.is_empty() {
            continue;
        }
        let payload = t.strip_prefix('=').unwrap_or(t);
        if !payload.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=') {
            diagnostics.push(format_error(l.number, "the signature armor holds characters outside radix-64"));
            return;
        }
        if !t.starts_with('=') {
            data += t.len();
        }
    }
    if data == 0 {
        diagnostics.push(format_error(body.first().map_or(1, |l| l.number), "the signature armor is empty"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<Line> {
        split_lines(s).0
    }

    #[test]
    fn splits_lines() {
        assert_eq!(split_lines("x\r").0[0].text, "x");
        let (l, terminated) = split_lines("a\r\nb\n\nc");
        assert!(!terminated);
        assert_eq!(
            l.iter().map(|l| (l.number, l.text.as_str())).collect::<Vec<_>>(),
            vec![(1, "a"), (2, "b"), (3, ""), (4, "c")]
        );
        assert_eq!(split_lines(""), (vec![], true));
        assert_eq!(split_lines("x\n").0.len(), 1);
        let (l, terminated) = split_lines("Contact: a\rExpires: b\r\nc\r");
        let texts: Vec<&str> = l.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, vec!["Contact: a", "Expires: b", "c"]);
        assert!(terminated);
        assert_eq!(lone_cr_endings("Contact: a\rExpires: b\r\nc\r"), Some((1, 2)));
        assert_eq!(lone_cr_endings("a\r\nb\nc\rd"), Some((3, 1)));
        assert_eq!(lone_cr_endings("a\r\nb\n"), None);
    }

    fn codes(e: &Envelope) -> Vec<&str> {
        e.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    const SIGNED: &str = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@example.com\n- -- dashed\nExpires: 2027-01-01T00:00:00Z  \n-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0WIQT+l9/CBWJRsQYWZkXkxtRLG7LcHQUC\n=/ULc\n-----END PGP SIGNATURE-----\n";

    #[test]
    fn recognises_and_unescapes() {
        let e = split(lines(SIGNED));
        assert!(e.diagnostics.is_empty(), "{:?}", e.diagnostics);
        let s = e.signed.expect("signed");
        assert_eq!(s.hash_headers, vec!["SHA256"]);
        assert_eq!(s.first_line, 4);
        assert_eq!(s.lines, vec!["Contact: mailto:a@example.com", "-- dashed", "Expires: 2027-01-01T00:00:00Z  "]);
        assert_eq!(s.signed_text(), "Contact: mailto:a@example.com\r\n-- dashed\r\nExpires: 2027-01-01T00:00:00Z");
        assert_eq!(e.lines.iter().map(|l| l.number).collect::<Vec<_>>(), vec![4, 5, 6]);
        assert!(s.signature_armor.starts_with(BEGIN_SIGNATURE));
        assert!(s.signature_armor.ends_with("-----END PGP SIGNATURE-----\n"));
    }

    #[test]
    fn a_lone_cr_ends_a_field_line_but_stays_inside_the_signed_line() {
        let body = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@example.com\r- x \rExpires: 2027-01-01T00:00:00Z \n- -- dashed\n-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n";
        let (l, _) = split_lines(body);
        let flags: Vec<(u32, bool)> = l.iter().take(7).map(|l| (l.number, l.lone_cr)).collect();
        assert_eq!(flags, [(1, false), (2, false), (3, false), (4, true), (5, true), (6, false), (7, false)]);
        let e = split(l);
        // `- x` follows a lone CR: not the start of an OpenPGP line, so neither unescaped nor diagnosed.
        assert!(e.diagnostics.is_empty(), "{:?}", e.diagnostics);
        let fields: Vec<(u32, &str)> = e.lines.iter().map(|l| (l.number, l.text.as_str())).collect();
        assert_eq!(
            fields,
            [
                (4, "Contact: mailto:a@example.com"),
                (5, "- x "),
                (6, "Expires: 2027-01-01T00:00:00Z "),
                (7, "-- dashed")
            ]
        );
        let s = e.signed.expect("signed");
        assert_eq!(s.lines, ["Contact: mailto:a@example.com\r- x \rExpires: 2027-01-01T00:00:00Z ", "-- dashed"]);
        assert_eq!(
            s.signed_text().as_bytes(),
            b"Contact: mailto:a@example.com\r- x \rExpires: 2027-01-01T00:00:00Z\r\n-- dashed"
        );
    }

    #[test]
    fn data_after_signature() {
        let body = format!("{SIGNED}Contact: mailto:evil@example.net\n");
        let e = split(lines(&body));
        assert_eq!(codes(&e), vec!["data_after_signature"]);
        assert_eq!(e.diagnostics[0].locator, Some(Locator::Line(12)));
        assert!(e.lines.iter().all(|l| !l.text.contains("evil")));
    }

    #[test]
    fn broken_frameworks() {
        let e = split(lines("-----BEGIN PGP SIGNED MESSAGE-----\nContact: mailto:a@example.com\n"));
        assert_eq!(codes(&e), vec!["invalid_signature_format", "invalid_signature_format"]);
        assert_eq!(e.lines.len(), 1);
        let e = split(lines(
            "junk\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nContact: x\n---- bad\n-----BEGIN PGP SIGNATURE-----\n\n!!!\n-----END PGP SIGNATURE-----\n",
        ));
        let lines_of: Vec<_> = e.diagnostics.iter().map(|d| d.locator.clone()).collect();
        assert_eq!(codes(&e), vec!["invalid_signature_format"; 3]);
        assert_eq!(lines_of, vec![Some(Locator::Line(1)), Some(Locator::Line(6)), Some(Locator::Line(9))]);
        let e = split(lines(
            "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nA: b\n-----BEGIN PGP SIGNATURE-----\n\nabcd\n",
        ));
        assert_eq!(codes(&e), vec!["invalid_signature_format"]);
    }

    #[test]
    fn anything_before_the_signed_message_header_is_a_format_error() {
        for (before, message) in [
            ("\n", "a blank line before"),
            ("\r\n \n\t\n", "3 blank lines before"),
            (" ", "whitespace before"),
            ("\n  ", "a blank line before"),
            ("# comment\n", "text before"),
        ] {
            let e = split(lines(&format!("{before}{SIGNED}")));
            assert_eq!(codes(&e), vec!["invalid_signature_format"], "{before:?}");
            assert!(e.diagnostics[0].message.starts_with(message), "{before:?}: {}", e.diagnostics[0].message);
            assert_eq!(e.diagnostics[0].locator, Some(Locator::Line(1)));
            // The signed part is still read, and only it.
            let s = e.signed.expect("signed");
            assert_eq!(s.lines[0], "Contact: mailto:a@example.com");
            let fields: Vec<&str> = e.lines.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(fields, ["Contact: mailto:a@example.com", "-- dashed", "Expires: 2027-01-01T00:00:00Z  "]);
        }
    }

    #[test]
    fn stray_armor_in_unsigned_body() {
        let e = split(lines(
            "Contact: mailto:a@example.com\n-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\nExpires: x\n",
        ));
        assert_eq!(codes(&e), vec!["invalid_signature_format"]);
        assert!(e.signed.is_none());
        assert_eq!(e.lines.iter().map(|l| l.number).collect::<Vec<_>>(), vec![1, 5]);
    }
}
