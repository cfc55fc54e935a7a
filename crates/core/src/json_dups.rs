//! Reading JSON while noticing repeated member names (RFC 8259 section 4: names SHOULD be unique,
//! and with duplicates "the behavior of software that receives such an object is unpredictable").
//!
//! [`read`] builds the same `serde_json::Value` as `serde_json::from_slice` (the last occurrence of
//! a repeated name wins) and lists every repeated name with its RFC 6901 pointer and count, at no
//! extra cost for documents without repeats (the object map's own entry lookup finds them; a count
//! table is made only for an object that repeats a name). [`read_keeping`] reads the document again
//! keeping an earlier occurrence, so a caller can examine what a first-wins receiver sees.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::json::pointer;

/// A member name repeated within one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// RFC 6901 pointer of the member (`/keys`, `/0/target/package_name`). Inside an earlier
    /// occurrence that a later one replaced, the pointer is the one the path would have.
    pub pointer: String,
    /// How many times the name occurs in that object (at least 2).
    pub count: usize,
}

/// Which occurrence of a repeated member is kept.
#[derive(Debug, Clone, Copy)]
enum Keep {
    /// The last (serde_json's and most parsers' behaviour); repeats are recorded.
    Last,
    /// Occurrence `k` (0-based), or the last when there are fewer.
    Nth(usize),
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path to the value being read, as a chain on the stack (no allocation per member).
#[derive(Clone, Copy)]
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Option<Step<'a>>,
}

impl Path<'_> {
    fn pointer(&self, key: &str) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            if let Some(s) = p.step {
                steps.push(s);
            }
            at = p.parent;
        }
        let mut out = String::new();
        for s in steps.iter().rev() {
            out = match s {
                Step::Key(k) => pointer(&out, k),
                Step::Index(i) => pointer(&out, &i.to_string()),
            };
        }
        pointer(&out, key)
    }
}

/// Per object: the repeated names in order of first repeat with their counts, and each name's index.
type Counts = (Vec<(String, usize)>, HashMap<String, usize>);

struct Reader<'a, 'r> {
    keep: Keep,
    path: Path<'a>,
    repeats: &'r RefCell<Vec<Repeated>>,
}

impl<'de> DeserializeSeed<'de> for Reader<'_, '_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reader<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let path = Path { parent: Some(&self.path), step: Some(Step::Index(out.len())) };
            match seq.next_element_seed(Reader { keep: self.keep, path, repeats: self.repeats })? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        // Occurrence counts of the names this object repeats, made on the first repeat only.
        let mut counts: Option<Counts> = None;
        while let Some(key) = access.next_key::<String>()? {
            let path = Path { parent: Some(&self.path), step: Some(Step::Key(&key)) };
            let value = access.next_value_seed(Reader { keep: self.keep, path, repeats: self.repeats })?;
            match map.entry(key) {
                Entry::Vacant(v) => {
                    v.insert(value);
                }
                Entry::Occupied(mut o) => {
                    let (order, index) = counts.get_or_insert_with(Default::default);
                    let occurrence = match index.get(o.key()) {
                        Some(&i) => match order.get_mut(i) {
                            Some(slot) => {
                                slot.1 += 1;
                                slot.1 - 1
                            }
                            None => 1,
                        },
                        None => {
                            index.insert(o.key().clone(), order.len());
                            order.push((o.key().clone(), 2));
                            1
                        }
                    };
                    match self.keep {
                        Keep::Last => {
                            o.insert(value);
                        }
                        Keep::Nth(k) if occurrence <= k => {
                            o.insert(value);
                        }
                        Keep::Nth(_) => {}
                    }
                }
            }
        }
        if let (Keep::Last, Some((order, _))) = (self.keep, counts) {
            let mut repeats = self.repeats.borrow_mut();
            for (name, count) in order {
                repeats.push(Repeated { pointer: self.path.pointer(&name), count });
            }
        }
        Ok(Value::Object(map))
    }
}

fn run(body: &[u8], keep: Keep, repeats: &RefCell<Vec<Repeated>>) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = Reader { keep, path: Path { parent: None, step: None }, repeats }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Parses `body` as `serde_json::from_slice::<Value>` does (same value, same errors, same recursion
/// limit; the last occurrence of a repeated name wins) and returns the repeated names in document
/// order of the objects' ends (inner objects first), each once per object with its count.
pub fn read(body: &[u8]) -> Result<(Value, Vec<Repeated>), serde_json::Error> {
    let repeats = RefCell::new(Vec::new());
    let value = run(body, Keep::Last, &repeats)?;
    Ok((value, repeats.into_inner()))
}

/// Parses `body` keeping, for every repeated member name, occurrence `k` (0-based: 0 is what a
/// first-wins receiver reads), or the last one when the name occurs `k` times or fewer.
pub fn read_keeping(body: &[u8], k: usize) -> Result<Value, serde_json::Error> {
    run(body, Keep::Nth(k), &RefCell::new(Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_value_as_serde_json_and_repeats_with_pointers() {
        let body = br#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}],"a/b":{"x":1,"x":2.5,"x":null},"keys":[{"kty":"RSA"}],"n":[-1,18446744073709551615,1.5e300]}"#;
        let (value, repeats) = read(body).unwrap();
        assert_eq!(value, serde_json::from_slice::<Value>(body).unwrap());
        assert_eq!(
            repeats,
            vec![Repeated { pointer: "/a~1b/x".into(), count: 3 }, Repeated { pointer: "/keys".into(), count: 2 },]
        );
        assert_eq!(read_keeping(body, 0).unwrap()["keys"], json!([{"kty":"oct","k":"c2VjcmV0"}]));
        assert_eq!(read_keeping(body, 0).unwrap()["a/b"]["x"], json!(1));
        assert_eq!(read_keeping(body, 1).unwrap()["a/b"]["x"], json!(2.5));
        assert_eq!(read_keeping(body, 1).unwrap()["keys"], json!([{"kty":"RSA"}]));
    }

    #[test]
    fn nested_pointers_and_errors() {
        let (_, repeats) = read(br#"[{"a":[0,{"b":1,"b":2}]}]"#).unwrap();
        assert_eq!(repeats, vec![Repeated { pointer: "/0/a/1/b".into(), count: 2 }]);
        let (_, none) = read(br#"{"a":1,"b":{"a":2}}"#).unwrap();
        assert!(none.is_empty());
        let e = read(b"{\"a\":1} x").unwrap_err();
        assert_eq!(e.to_string(), serde_json::from_slice::<Value>(b"{\"a\":1} x").unwrap_err().to_string());
        let deep = "[".repeat(200);
        assert!(read(deep.as_bytes()).is_err());
    }

    proptest::proptest! {
        /// Same value and same error as serde_json on any bytes; never a panic.
        #[test]
        fn agrees_with_serde_json(body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let ours = read(&body).map(|(v, _)| v).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(ours, theirs);
            let _ = read_keeping(&body, 0);
        }

        /// Documents built from JSON-ish pieces (so objects with repeated names are common).
        #[test]
        fn agrees_on_objects(pieces in proptest::collection::vec(proptest::sample::select(vec![
            "{", "}", "[", "]", ",", ":", "\"a\"", "\"b\"", "1", "null", "\"a\":1", "\"a\":{", "\"b\":[",
        ]), 0..40)) {
            let body = pieces.concat();
            let ours = read(body.as_bytes()).map(|(v, _)| v).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(body.as_bytes()).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(ours, theirs);
        }
    }
}
