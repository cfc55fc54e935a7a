//! How scan settings read their values, wherever they come from (the configuration file, a
//! `WELLKNOWN_*` variable or a flag, all merged by figment): numbers are taken as given and judged
//! against their accepted range here, so `per_host = -1` or `WELLKNOWN_DEPTH=100000000000` is told
//! the range as `--per-host -1` is, rather than failing inside serde with "expected a non-negative
//! integer"; and a list setting also takes one value (`WELLKNOWN_SCOPE=0.0.0.0/1`,
//! `issuer = "https://idp.example/t"`) besides a list (`[a, b]`), and the variables of `scope`,
//! `probes` and `connect_to` values separated by commas
//! (`WELLKNOWN_SCOPE=*.example.com,!admin.example.com`, [`split_env_list`]).
//!
//! Every range message starts with [`RANGE_PREFIX`] (`must be …, got …`); the callers put the
//! source in front (`--per-host must be from 1 to 100, got -1`, ``configuration file
//! wellknown.toml: key `per_host` must be from 1 to 100, got -1``).

use std::fmt;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};

use crate::config::limits;

/// The words every range message starts with.
pub const RANGE_PREFIX: &str = "must be ";

/// A scalar setting value as it was given: an integer, a float or text (a TOML string, or an
/// environment value figment did not read as a number, such as `1e309` or `fast`), or a list or
/// table where a number belongs (so that its message still gives the range).
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// An integer (TOML, an environment value such as `-1`, or a flag).
    Int(i128),
    /// A float (`1.5`, `2.0`).
    Float(f64),
    /// Text.
    Text(String),
    /// A list or a table, named (`a list`, `a table`).
    Compound(&'static str),
}

impl<'de> Deserialize<'de> for Given {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Given, D::Error> {
        d.deserialize_any(GivenVisitor)
    }
}

struct GivenVisitor;

impl<'de> Visitor<'de> for GivenVisitor {
    type Value = Given;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Given, E> {
        Ok(Given::Text(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Given, E> {
        Ok(Given::Int(i128::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Given, E> {
        Ok(Given::Int(i128::from(v)))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Given, E> {
        Ok(Given::Int(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Given, E> {
        Ok(i128::try_from(v).map_or_else(|_| Given::Text(v.to_string()), Given::Int))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Given, E> {
        Ok(Given::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Given, E> {
        Ok(Given::Text(v.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Given, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Given::Compound("a list"))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Given, A::Error> {
        while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
        Ok(Given::Compound("a table"))
    }
}

/// `range` of a `usize` setting as `u64`, as [`whole`] takes it.
pub fn wide(range: RangeInclusive<usize>) -> RangeInclusive<u64> {
    let w = |v: usize| u64::try_from(v).unwrap_or(u64::MAX);
    w(*range.start())..=w(*range.end())
}

/// A whole number within `range`, as the command line reads one (`crate::args`): a float, even
/// `2.0`, is not one, and neither is text that does not read as one.
///
/// Errors: `must be from 1 to 100, got -1`, or `must be a whole number, 0 or more (at most N), got
/// 1.5` for a range starting at 0.
pub fn whole<T: TryFrom<u64>>(g: &Given, range: RangeInclusive<u64>) -> Result<T, String> {
    let text = match g {
        Given::Int(v) => v.to_string(),
        // Debug keeps the fraction (`2.0`, `1e300`, `inf`), which never reads as a whole number.
        Given::Float(v) => format!("{v:?}"),
        Given::Text(t) => t.clone(),
        Given::Compound(what) => what.to_string(),
    };
    let end = *range.end();
    let v = crate::args::whole_in(&text, range)?;
    T::try_from(v).map_err(|_| format!("{RANGE_PREFIX}at most {end}, got {text}"))
}

/// A number of seconds, 0 or more, read from what was given; `None` for text that is no number.
fn float(g: &Given) -> (Option<f64>, String) {
    match g {
        // Integers of settings are small; the conversion is exact up to 2^53.
        Given::Int(v) => (Some(*v as f64), v.to_string()),
        Given::Float(v) => (Some(*v), v.to_string()),
        Given::Text(t) => (t.trim().parse::<f64>().ok(), t.trim().to_string()),
        Given::Compound(what) => (None, what.to_string()),
    }
}

/// `rate`: 0 (no spacing) or [`limits::RATE`] requests per second.
///
/// Errors: `must be 0 (no spacing between requests) or from 0.001 to 1000000 requests per second,
/// got -3` (also for NaN, infinity and text).
pub fn rate(g: &Given) -> Result<f64, String> {
    match float(g) {
        (Some(v), _) if v == 0.0 || limits::RATE.contains(&v) => Ok(v),
        (_, text) => Err(format!(
            "{RANGE_PREFIX}0 (no spacing between requests) or from {} to {} requests per second, got {text}",
            limits::RATE.start(),
            limits::RATE.end()
        )),
    }
}

/// `connect_timeout`, `timeout` and `slow_grace`: [`limits::TIMEOUT_SECS`] seconds.
///
/// Durations are plain decimal numbers of seconds wherever they are given (`--timeout 2.5`,
/// `timeout = 2.5`, `WELLKNOWN_TIMEOUT=2.5`), the documented form; there is no unit syntax to parse,
/// so no duration crate is used: humantime or jiff's friendly format would refuse `2.5` (no unit)
/// and accept `2s`, changing what the settings take. The number becomes a `Duration` with
/// `Duration::try_from_secs_f64`.
///
/// Errors: `must be from 0.001 to 3600 seconds, got 0` (also for NaN, infinity and text).
pub fn seconds(g: &Given) -> Result<f64, String> {
    match float(g) {
        (Some(v), _) if limits::TIMEOUT_SECS.contains(&v) => Ok(v),
        (_, text) => Err(format!(
            "{RANGE_PREFIX}from {} to {} seconds, got {text}",
            limits::TIMEOUT_SECS.start(),
            limits::TIMEOUT_SECS.end()
        )),
    }
}

/// Reads a [`Given`] and judges it with `judge`; its message becomes the serde error (figment
/// adds the key and source, see `config::describe`).
fn judged<'de, D: Deserializer<'de>, T>(d: D, judge: impl Fn(&Given) -> Result<T, String>) -> Result<T, D::Error> {
    let g = Given::deserialize(d)?;
    judge(&g).map_err(de::Error::custom)
}

/// `concurrency`: [`limits::CONCURRENCY`].
pub fn de_concurrency<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    judged(d, |g| whole(g, wide(limits::CONCURRENCY)))
}

/// `per_host`: [`limits::PER_HOST`].
pub fn de_per_host<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    judged(d, |g| whole(g, wide(limits::PER_HOST)))
}

/// A count of 0 or more (`max_verify`).
pub fn de_count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    judged(d, |g| whole(g, wide(0..=usize::MAX)))
}

/// A count of 0 or more that fits 32 bits (`depth`, `max_hops`).
pub fn de_count32<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    judged(d, |g| whole(g, 0..=u64::from(u32::MAX)))
}

/// A count of 0 or more that fits 64 bits (`min_rate`).
pub fn de_count64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    judged(d, |g| whole(g, 0..=u64::MAX))
}

/// `rate`: see [`rate`].
pub fn de_rate<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    judged(d, rate)
}

/// `connect_timeout`, `timeout`, `slow_grace`: see [`seconds`].
pub fn de_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    judged(d, seconds)
}

/// A list setting: a list (`["a", "b"]`, `WELLKNOWN_SCOPE=[a, b]`), or one text value taken as one
/// entry, trimmed, commas included (`issuer = "https://idp.example/t,1"` is one issuer,
/// `ca_cert = "a,b.pem"` one file); an empty text is an empty list. Numbers and booleans in a list
/// are taken as their text. Values separated by commas are read only from the environment
/// variables of [`split_env_list`]'s settings, by `crate::config::load`, before this.
///
/// Errors: a table (or a list inside the list).
pub fn de_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(ListVisitor)
}

/// [`de_list`] of paths (`ca_cert`).
pub fn de_paths<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
    Ok(de_list(d)?.into_iter().map(PathBuf::from).collect())
}

/// The value of a `WELLKNOWN_SCOPE`, `WELLKNOWN_PROBES` or `WELLKNOWN_CONNECT_TO` variable written
/// without brackets, as the entries separated by commas (`*.example.com,!admin.example.com`), each
/// trimmed; an empty value is an empty list. A part left empty (`a,,b`) is kept, so that it is
/// refused as an empty entry rather than dropped. `None` for a value in the list form (`[a, b]`,
/// read as a list by figment). Only these settings take commas: their entries (scope rules, probe
/// ids, `HOST:PORT:CONNECT_HOST:CONNECT_PORT`) never hold one, whereas an issuer URL, a file name
/// or a `resolve` entry (`HOST:PORT:ADDR1,ADDR2`) may.
pub fn split_env_list(value: &str) -> Option<Vec<String>> {
    let v = value.trim();
    if v.starts_with('[') {
        None
    } else if v.is_empty() {
        Some(Vec::new())
    } else {
        Some(v.split(',').map(|p| p.trim().to_string()).collect())
    }
}

struct ListVisitor;

impl ListVisitor {
    fn text(&self, v: &str) -> Vec<String> {
        let v = v.trim();
        if v.is_empty() { Vec::new() } else { vec![v.to_string()] }
    }
}

impl<'de> Visitor<'de> for ListVisitor {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list ([a, b]) or one value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::new();
        while let Some(Entry(e)) = seq.next_element()? {
            out.push(e);
        }
        Ok(out)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
        Ok(self.text(v))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }
}

/// One entry of a list: text, or a number or boolean taken as its text.
struct Entry(String);

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entry, D::Error> {
        match Given::deserialize(d)? {
            Given::Int(v) => Ok(Entry(v.to_string())),
            Given::Float(v) => Ok(Entry(v.to_string())),
            Given::Text(t) => Ok(Entry(t)),
            Given::Compound(what) => {
                Err(de::Error::custom(format_args!("found {what} inside the list, expected text")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_judged_as_given() {
        let r = 1..=100;
        assert_eq!(whole::<usize>(&Given::Int(2), r.clone()), Ok(2));
        assert_eq!(whole::<usize>(&Given::Text(" 7 ".into()), r.clone()), Ok(7));
        assert_eq!(whole::<usize>(&Given::Int(-1), r.clone()), Err("must be from 1 to 100, got -1".into()));
        assert_eq!(whole::<usize>(&Given::Float(2.0), r.clone()), Err("must be from 1 to 100, got 2.0".into()));
        assert_eq!(whole::<usize>(&Given::Text("two".into()), r), Err("must be from 1 to 100, got two".into()));
        assert_eq!(
            whole::<u32>(&Given::Int(100_000_000_000), 0..=u64::from(u32::MAX)),
            Err("must be a whole number, 0 or more (at most 4294967295), got 100000000000".into())
        );
    }

    #[test]
    fn floats_are_judged_as_given() {
        assert_eq!(seconds(&Given::Int(5)), Ok(5.0));
        assert_eq!(seconds(&Given::Text("2.5".into())), Ok(2.5));
        assert_eq!(seconds(&Given::Text("1e309".into())), Err("must be from 0.001 to 3600 seconds, got 1e309".into()));
        assert_eq!(seconds(&Given::Text("fast".into())), Err("must be from 0.001 to 3600 seconds, got fast".into()));
        assert_eq!(rate(&Given::Int(0)), Ok(0.0));
        assert!(rate(&Given::Float(f64::NAN)).is_err_and(|e| e.ends_with("requests per second, got NaN")));
        assert!(rate(&Given::Int(-3)).is_err_and(|e| e.ends_with("got -3")));
    }

    #[test]
    fn a_text_is_one_entry_and_only_listed_variables_split_at_commas() {
        assert_eq!(ListVisitor.text(" https://idp.example/t,1 "), ["https://idp.example/t,1"]);
        assert_eq!(ListVisitor.text("a.example:443:127.0.0.1,::1"), ["a.example:443:127.0.0.1,::1"]);
        assert!(ListVisitor.text("  ").is_empty());
        assert_eq!(split_env_list("0.0.0.0/1"), Some(vec!["0.0.0.0/1".to_string()]));
        assert_eq!(
            split_env_list(" *.a.example , !b.a.example"),
            Some(vec!["*.a.example".to_string(), "!b.a.example".to_string()])
        );
        assert_eq!(split_env_list("a,,b"), Some(vec!["a".to_string(), String::new(), "b".to_string()]));
        assert_eq!(split_env_list("  "), Some(Vec::new()));
        assert_eq!(split_env_list(" [a, b]"), None);
    }
}
