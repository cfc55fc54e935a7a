//! `Retry-After` (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date.

use std::time::Duration;

use jiff::Timestamp;
use jiff::fmt::strtime;
use jiff::tz::TimeZone;

/// The wait a `Retry-After` value asks for, judged at `now`. A date in the past means zero.
/// Returns `None` for a value that is neither a non-negative integer nor an HTTP-date
/// (IMF-fixdate, or the obsolete RFC 850 and asctime forms, RFC 9110 section 5.6.7).
pub fn parse_retry_after(value: &str, now: Timestamp) -> Option<Duration> {
    let v = value.trim();
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Duration::from_secs(v.parse::<u64>().unwrap_or(u64::MAX)));
    }
    let when = http_date(v)?;
    let secs = when.as_second().saturating_sub(now.as_second());
    Some(Duration::from_secs(u64::try_from(secs).unwrap_or(0)))
}

fn http_date(v: &str) -> Option<Timestamp> {
    if let Ok(ts) = jiff::fmt::rfc2822::DateTimeParser::new().parse_timestamp(v) {
        return Some(ts);
    }
    for fmt in ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"] {
        if let Ok(tm) = strtime::parse(fmt, v)
            && let Ok(dt) = tm.to_datetime()
            && let Ok(z) = dt.to_zoned(TimeZone::UTC)
        {
            return Some(z.timestamp());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Timestamp {
        "1994-11-06T08:49:00Z".parse().unwrap()
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_retry_after("120", now()), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(" 0 ", now()), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("-5", now()), None);
        assert_eq!(parse_retry_after("soon", now()), None);
        assert_eq!(parse_retry_after("", now()), None);
    }

    #[test]
    fn http_dates() {
        assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now()), Some(Duration::from_secs(37)));
        assert_eq!(parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now()), Some(Duration::from_secs(37)));
        assert_eq!(parse_retry_after("Sun Nov  6 08:49:37 1994", now()), Some(Duration::from_secs(37)));
        assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now()), Some(Duration::ZERO));
    }
}
