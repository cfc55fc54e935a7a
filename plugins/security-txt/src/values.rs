//! Value grammars used by security.txt fields: RFC 3339 `date-time` (Expires), RFC 5646
//! `Language-Tag` (Preferred-Languages) and RFC 3986 `URI` (every URI-valued field).
//!
//! Language tags are read by the `oxilangtag` crate. The date-time and URI checks are strict syntax
//! checks written from the RFCs' ABNF (see each for why no crate reads them); they never panic and do
//! work linear in the input length.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::Offset;

/// Why an `Expires` value is not an RFC 3339 `date-time`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateTimeError {
    /// The text does not follow the `date-time` ABNF (RFC 3339 section 5.6), e.g. a missing seconds
    /// field, a missing offset, or an RFC 5322 date.
    Syntax,
    /// The syntax is right but the date or time does not exist (April 31, hour 24, month 13).
    Range,
}

/// Parses an RFC 3339 section 5.6 `date-time` strictly: `YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`,
/// `T` and `Z` in either case. A leap second (`:60`) is accepted and read as `:59`.
///
/// The syntax is checked here and the calendar is jiff's (`DateTime::new`, `Offset::to_timestamp`):
/// jiff's parsers read ISO 8601 / Temporal, a superset (a space for `T`, no seconds, `+0100`), and do
/// not tell a syntax error from a date that does not exist, which `invalid_expires` words apart.
///
/// Returns the instant, or why the value is not a `date-time`. A date-time after
/// 9999-12-30T22:00Z (the end of jiff's `Timestamp` range; `9999-12-31T23:59:59Z` is a valid RFC 3339
/// value) is clamped to `Timestamp::MAX`.
pub fn parse_rfc3339(s: &str) -> Result<Timestamp, DateTimeError> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Result<i64, DateTimeError> {
        let digits = b.get(from..from + len).ok_or(DateTimeError::Syntax)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(DateTimeError::Syntax);
        }
        Ok(digits.iter().fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0')))
    };
    let lit = |at: usize, set: &[u8]| -> Result<(), DateTimeError> {
        match b.get(at) {
            Some(c) if set.contains(c) => Ok(()),
            _ => Err(DateTimeError::Syntax),
        }
    };
    let year = num(0, 4)?;
    lit(4, b"-")?;
    let month = num(5, 2)?;
    lit(7, b"-")?;
    let day = num(8, 2)?;
    lit(10, b"Tt")?;
    let hour = num(11, 2)?;
    lit(13, b":")?;
    let minute = num(14, 2)?;
    lit(16, b":")?;
    let second = num(17, 2)?;
    let mut i = 19;
    let mut nanos: i64 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            if i - start < 9 {
                nanos = nanos * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return Err(DateTimeError::Syntax);
        }
        for _ in (i - start)..9 {
            nanos *= 10;
        }
    }
    let offset_seconds = match b.get(i) {
        Some(b'Z' | b'z') => {
            i += 1;
            0
        }
        Some(sign @ (b'+' | b'-')) => {
            let sign = if *sign == b'-' { -1 } else { 1 };
            let oh = num(i + 1, 2)?;
            lit(i + 3, b":")?;
            let om = num(i + 4, 2)?;
            i += 6;
            if oh > 23 || om > 59 {
                return Err(DateTimeError::Range);
            }
            sign * (oh * 3600 + om * 60)
        }
        _ => return Err(DateTimeError::Syntax),
    };
    if i != b.len() {
        return Err(DateTimeError::Syntax);
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return Err(DateTimeError::Range);
    }
    let second = second.min(59);
    let to_i8 = |v: i64| i8::try_from(v).map_err(|_| DateTimeError::Range);
    let year = i16::try_from(year).map_err(|_| DateTimeError::Range)?;
    let nanos = i32::try_from(nanos).map_err(|_| DateTimeError::Range)?;
    let dt = DateTime::new(year, to_i8(month)?, to_i8(day)?, to_i8(hour)?, to_i8(minute)?, to_i8(second)?, nanos)
        .map_err(|_| DateTimeError::Range)?;
    let offset = Offset::from_seconds(i32::try_from(offset_seconds).map_err(|_| DateTimeError::Range)?)
        .map_err(|_| DateTimeError::Range)?;
    match offset.to_timestamp(dt) {
        Ok(ts) => Ok(ts),
        // The date-time exists (RFC 3339 allows any four-digit year) but lies outside jiff's
        // Timestamp range, which ends at 9999-12-30T22:00Z so that any offset stays representable:
        // clamp to the range's end (or start), far past any expiry check.
        Err(_) if year >= 9999 => Ok(Timestamp::MAX),
        Err(_) => Ok(Timestamp::MIN),
    }
}

/// True when `tag` is a well-formed RFC 5646 section 2.1 `Language-Tag` (`langtag`, `privateuse` or
/// `grandfathered`), as the `oxilangtag` crate reads it, and at most 255 bytes long (a bound on the
/// work per value; RFC 5646 section 4.4.1 asks implementations to support tags of at least 35
/// characters). Well-formedness only: subtags are not checked against the IANA subtag registry.
pub fn is_language_tag(tag: &str) -> bool {
    tag.len() <= 255 && oxilangtag::LanguageTag::parse(tag).is_ok()
}

/// Hand-written because the `url` crate follows the WHATWG URL Standard, which percent-encodes
/// spaces and non-ASCII characters instead of refusing them, so it cannot say what RFC 9116 asks: is
/// this an RFC 3986 `URI`.
///
/// True when `s` is an RFC 3986 section 3 `URI`: a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" /
/// "." )`), a colon, and only URI characters after it (unreserved, reserved, and `%` followed by two
/// hex digits). No whitespace, no non-ASCII characters (IRIs are not URIs).
pub fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut sb = scheme.bytes();
    if !sb.next().is_some_and(|c| c.is_ascii_alphabetic())
        || !sb.all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
    {
        return false;
    }
    let r = rest.as_bytes();
    let mut i = 0;
    while let Some(&c) = r.get(i) {
        if c == b'%' {
            if !(r.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && r.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_accepts_full_date_times() {
        assert_eq!(parse_rfc3339("2027-05-31T18:37:07z").map(|t| t.to_string()), Ok("2027-05-31T18:37:07Z".into()));
        assert_eq!(parse_rfc3339("2027-06-30T23:00:00.000Z").map(|t| t.as_second()), Ok(1_814_396_400));
        assert_eq!(
            parse_rfc3339("2027-01-01T01:00:00+01:00").map(|t| t.to_string()),
            Ok("2027-01-01T00:00:00Z".into())
        );
        assert_eq!(parse_rfc3339("2016-12-31T23:59:60Z").map(|t| t.to_string()), Ok("2016-12-31T23:59:59Z".into()));
        assert!(parse_rfc3339("2024-02-29T00:00:00-05:30").is_ok());
    }

    #[test]
    fn rfc3339_year_9999_and_0000_are_date_times() {
        // jiff's Timestamp range ends at 9999-12-30T22:00Z: later instants are clamped, not refused.
        assert_eq!(parse_rfc3339("9999-12-31T23:59:59Z"), Ok(Timestamp::MAX));
        assert_eq!(parse_rfc3339("9999-12-30T23:59:59Z"), Ok(Timestamp::MAX));
        assert_eq!(parse_rfc3339("9999-12-31T23:59:60Z"), Ok(Timestamp::MAX));
        assert_eq!(
            parse_rfc3339("9999-12-31T00:00:00+23:59").map(|t| t.to_string()),
            Ok("9999-12-30T00:01:00Z".into())
        );
        assert_eq!(parse_rfc3339("9999-12-30T21:59:59Z").map(|t| t.to_string()), Ok("9999-12-30T21:59:59Z".into()));
        assert_eq!(parse_rfc3339("9999-01-01T00:00:00Z").map(|t| t.to_string()), Ok("9999-01-01T00:00:00Z".into()));
        assert_eq!(parse_rfc3339("0000-01-01T00:00:00Z").map(|t| t.to_string()), Ok("0000-01-01T00:00:00Z".into()));
        assert_eq!(parse_rfc3339("0000-01-01T00:00:00+23:59").map(|t| t.as_second()), Ok(-62_167_305_540));
        // The day still has to exist in year 9999.
        assert_eq!(parse_rfc3339("9999-12-32T00:00:00Z"), Err(DateTimeError::Range));
        assert_eq!(parse_rfc3339("9999-02-29T00:00:00Z"), Err(DateTimeError::Range));
    }

    #[test]
    fn rfc3339_rejects_the_usual_mistakes() {
        assert_eq!(parse_rfc3339("2027-10-19"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-08-30T00:00+00:00"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("Thu, 31 Dec 2026 18:37:07 -0800"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-04-31T23:00:00.000Z"), Err(DateTimeError::Range));
        assert_eq!(parse_rfc3339("2023-02-29T00:00:00Z"), Err(DateTimeError::Range));
        assert_eq!(parse_rfc3339("2027-01-01 00:00:00Z"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-01-01T00:00:00"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-01-01T00:00:00+0100"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-01-01T24:00:00Z"), Err(DateTimeError::Range));
        assert_eq!(parse_rfc3339("2027-01-01T00:00:00.Z"), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339("2027-01-01T00:00:00Z "), Err(DateTimeError::Syntax));
        assert_eq!(parse_rfc3339(""), Err(DateTimeError::Syntax));
    }

    #[test]
    fn language_tags() {
        for ok in [
            "en",
            "fr",
            "de-CH",
            "zh-Hant-TW",
            "sr-Latn-RS",
            "es-419",
            "en-US-x-twain",
            "x-whatever",
            "i-klingon",
            "sl-rozaj-biske",
            "de-DE-u-co-phonebk",
            "zh-yue-HK",
            "NL",
            "gsw-u-sd-chzh",
        ] {
            assert!(is_language_tag(ok), "{ok}");
        }
        for bad in [
            "en_US",
            "",
            "en-",
            "-en",
            "e",
            "english language",
            "en-US-",
            "de-419-DE",
            "a-DE",
            "en-a",
            "x",
            "123",
            "en-x",
            "tlh-a-b-foo",
            "toolongtag",
        ] {
            assert!(!is_language_tag(bad), "{bad}");
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "mailto:security@example.com",
            "tel:+1-201-555-0123",
            "https://example.com/a?b=c#d",
            "mailto:security%2Buri@example.com",
            "openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f",
            "dns:5d2d37ab76d47d36._openpgpkey.example.com?type=OPENPGPKEY",
        ] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in [
            "security@example.com",
            "mailto: security@example.com",
            "https://exämple.com/",
            "1http://a",
            "https://a/%zz",
            "",
            ":x",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }
}
