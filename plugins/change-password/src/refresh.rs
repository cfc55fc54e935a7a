//! `<meta http-equiv="refresh" content="N; url=...">` in an HTML body, found by a small bounded
//! scanner (no DOM; one pass over the bytes, linear time, no allocation per byte).
//!
//! The content attribute is read as the HTML Living Standard's "shared declarative refresh steps"
//! do: optional whitespace, a time made of digits and dots, then optionally `;` or `,`, optionally
//! `URL=` (any case, spaces around `=`), then the URL, optionally quoted. Only `&amp;` is decoded in
//! attribute values (enough for query strings); other character references are left as written.

/// A refresh declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refresh {
    /// 1-based line of the `<meta` tag.
    pub line: u32,
    /// The URL text as written (not yet resolved against the document URL); None when the content
    /// names no URL (a refresh of the page itself) or is malformed.
    pub url: Option<String>,
}

/// The first `<meta http-equiv="refresh">` of `body` (case-insensitive), or None.
pub fn find(body: &[u8]) -> Option<Refresh> {
    let mut from = 0;
    while let Some(at) = find_ci(body, b"<meta", from) {
        let tag_end =
            body.get(at..).and_then(|rest| rest.iter().position(|&b| b == b'>')).map_or(body.len(), |p| at + p);
        let attrs = attributes(body.get(at + 5..tag_end).unwrap_or_default());
        let is_refresh =
            attrs.iter().any(|(k, v)| k.eq_ignore_ascii_case("http-equiv") && v.trim().eq_ignore_ascii_case("refresh"));
        if is_refresh && let Some((_, content)) = attrs.iter().find(|(k, _)| k.eq_ignore_ascii_case("content")) {
            let line = body.get(..at).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
            return Some(Refresh { line: u32::try_from(line + 1).unwrap_or(u32::MAX), url: content_url(content) });
        }
        from = tag_end.max(at + 1);
    }
    None
}

/// Position of `needle` (ASCII, lower case) in `hay` at or after `from`, ignoring ASCII case.
fn find_ci(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let rest = hay.get(from..)?;
    rest.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| p + from)
}

/// Attribute (name, value) pairs of a tag's inside (`name="v" name2='v' name3=v flag`).
fn attributes(inside: &[u8]) -> Vec<(String, String)> {
    let s = String::from_utf8_lossy(inside);
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() || c == '/' {
            chars.next();
            continue;
        }
        let mut name = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() || c == '=' || c == '/' {
                break;
            }
            name.push(c);
            chars.next();
        }
        while chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek().is_some_and(|&(_, c)| c == '=') {
            chars.next();
            while chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek().map(|&(_, c)| c) {
                Some(q @ ('"' | '\'')) => {
                    chars.next();
                    for (_, c) in chars.by_ref() {
                        if c == q {
                            break;
                        }
                        value.push(c);
                    }
                }
                _ => {
                    while let Some(&(_, c)) = chars.peek() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
        }
        if !name.is_empty() {
            out.push((name, value.replace("&amp;", "&")));
        }
    }
    out
}

/// The URL part of a refresh `content` value, or None.
pub fn content_url(content: &str) -> Option<String> {
    let s = content.trim_start();
    let time_len = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    if time_len == 0 {
        return None;
    }
    let mut s = s.get(time_len..)?.trim_start();
    match s.chars().next() {
        None => return None,
        Some(';' | ',') => s = s.get(1..)?.trim_start(),
        Some(_) => return None,
    }
    if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("url")) {
        let after = s.get(3..)?.trim_start();
        if let Some(v) = after.strip_prefix('=') {
            s = v.trim_start();
        }
    }
    let url = match s.chars().next() {
        Some(q @ ('"' | '\'')) => {
            let inner = s.get(1..)?;
            inner.find(q).map_or(inner, |end| inner.get(..end).unwrap_or(inner))
        }
        _ => s,
    };
    let url = url.trim();
    (!url.is_empty()).then(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_forms() {
        assert_eq!(content_url("0; url=/account/password").as_deref(), Some("/account/password"));
        assert_eq!(content_url("0;URL='https://a.example/x?y=1'").as_deref(), Some("https://a.example/x?y=1"));
        assert_eq!(content_url(" 5 , Url = \"/p\" ").as_deref(), Some("/p"));
        assert_eq!(content_url("0.5; /direct").as_deref(), Some("/direct"));
        assert_eq!(content_url("10"), None);
        assert_eq!(content_url("soon; url=/x"), None);
        assert_eq!(content_url("0; url="), None);
    }

    #[test]
    fn finds_the_tag_with_its_line() {
        let html = b"<!doctype html>\n<html><head>\n<meta charset=utf-8>\n<META HTTP-EQUIV=Refresh CONTENT=\"0; URL=/settings?a=1&amp;b=2\">\n";
        assert_eq!(find(html), Some(Refresh { line: 4, url: Some("/settings?a=1&b=2".into()) }));
        assert_eq!(find(b"<meta name=refresh content='0; url=/x'>"), None);
        assert_eq!(find(b"<meta http-equiv='refresh' content='30'>"), Some(Refresh { line: 1, url: None }));
        assert_eq!(
            find(b"<meta http-equiv=\"refresh\" content=\"0;url=/unterminated"),
            Some(Refresh { line: 1, url: Some("/unterminated".into()) })
        );
        assert_eq!(find(b"no tags at all <meta"), None);
    }
}
