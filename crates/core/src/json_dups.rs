//! Reading JSON while noticing repeated member names (RFC 8259 section 4: names SHOULD be unique,
//! and with duplicates "the behavior of software that receives such an object is unpredictable").
//!
//! [`read`] builds the same `serde_json::Value` as `serde_json::from_slice` (the last occurrence of
//! a repeated name wins) and counts the repeated names, building the RFC 6901 pointer of the first
//! `max_listed` only (so memory stays bounded by the body whatever the number of repeats), at no
//! extra cost for documents without repeats (the object map's own entry lookup finds them; a count
//! table is made only for an object that repeats a name).
//!
//! For a body that repeats names, [`plan`] lists the alternate [`Reading`]s that together contain
//! every occurrence of every member (bounded, with the occurrences left out counted), and
//! [`read_reading`] builds one of them: a caller examines each reading and drops it before building
//! the next, so at most two parsed copies of the body are alive at once.
//!
//! Which occurrences the readings hold (objects are numbered 0, 1, ... in document order of their
//! opening brace; an occurrence's *region* is the range of object numbers inside its value):
//! * the last-wins reading ([`read`]) holds the last occurrence of every repeated name, except
//!   inside an occurrence that it drops;
//! * a repeated name in an object that lies inside no occurrence of a repeated name (a *top* repeat:
//!   the object is in every reading) has its occurrence `k` in the reading `keep k` (occurrence `k`
//!   of every repeated name everywhere, or the last when there are fewer), k = 0 .. count-2;
//! * a repeated name in an object that lies inside such an occurrence (a *nested* repeat: the object
//!   exists only in the readings that keep that occurrence and the ones around it) has its
//!   occurrence `j` in the reading `lock r, keep j`, where `r` is the innermost occurrence region
//!   holding the object: every repeated name keeps the occurrence whose region holds `r`'s first
//!   object (so the object is present), the others occurrence `j`. All nested repeats with the same
//!   innermost region share these readings, j = 0 .. (their largest count) - 1.
//!
//! So every member of the document is in at least one reading: take its innermost enclosing
//! occurrence of a repeated name; that occurrence is in the last-wins reading, a `keep k` reading
//! or a `lock r, keep j` reading, and the member is in the same reading. [`plan`] caps the `keep k`
//! readings and the `lock` readings separately and counts the occurrences the cap leaves out
//! ([`Plan::unexamined`]), which a caller reports.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// A member name repeated within one object, as listed by [`read`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// RFC 6901 pointer of the member (`/keys`, `/0/target/package_name`). Inside an earlier
    /// occurrence that a later one replaced, the pointer is the one the path would have.
    pub pointer: String,
    /// How many times the name occurs in that object (at least 2).
    pub count: usize,
}

/// The repeated names [`read`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Repeats {
    /// The first `max_listed` (object, name) pairs that repeat, in document order of the objects'
    /// ends (inner objects first), each with its pointer and count.
    pub listed: Vec<Repeated>,
    /// How many (object, name) pairs repeat in all (listed or not).
    pub total: usize,
}

/// One alternate reading of a body that repeats member names (see the module documentation for
/// which occurrences it keeps). Made by [`plan`], built by [`read_reading`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reading {
    /// Number of an object (document order of opening braces): every repeated name keeps the
    /// occurrence whose value holds that object, so the object is in the reading.
    lock: Option<usize>,
    /// Elsewhere, occurrence `keep` (0-based) of every repeated name, or the last when fewer.
    keep: usize,
}

impl Reading {
    /// The reading keeping occurrence `k` (0-based) of every repeated name, or the last when the
    /// name occurs `k` times or fewer: `keeping(0)` is what a first-wins receiver reads.
    pub fn keeping(k: usize) -> Reading {
        Reading { lock: None, keep: k }
    }
}

/// The alternate readings of a body, from [`plan`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    /// The readings to examine besides the last-wins one, top repeats first, then nested ones in
    /// document order; no two equal.
    pub readings: Vec<Reading>,
    /// Occurrences of repeated names that are in no reading because of the caps (0 when every
    /// member is in some reading).
    pub unexamined: usize,
}

/// Which occurrence of a repeated member is kept.
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// The last (serde_json's and most parsers' behaviour); repeats are recorded.
    Last,
    /// As the reading says.
    Reading(Reading),
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
    /// The RFC 6901 pointer of member `key` of the value at this path, built in one pass (the
    /// steps are collected, then written once into a string of the final size).
    fn pointer(&self, key: &str) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            if let Some(s) = p.step {
                steps.push(s);
            }
            at = p.parent;
        }
        let escaped = |t: &str| t.len() + t.bytes().filter(|b| matches!(b, b'~' | b'/')).count() + 1;
        let len: usize = steps
            .iter()
            .map(|s| match s {
                Step::Key(k) => escaped(k),
                Step::Index(i) => i.to_string().len() + 1,
            })
            .sum::<usize>()
            + escaped(key);
        let mut out = String::with_capacity(len);
        for s in steps.iter().rev() {
            match s {
                Step::Key(k) => push_token(&mut out, k),
                Step::Index(i) => push_token(&mut out, &i.to_string()),
            }
        }
        push_token(&mut out, key);
        out
    }
}

/// Appends `/` and `token` escaped (RFC 6901 section 3: `~` as `~0`, `/` as `~1`).
fn push_token(out: &mut String, token: &str) {
    out.push('/');
    for ch in token.chars() {
        match ch {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Per object: the repeated names in order of first repeat with their counts, and each name's index.
type Counts = (Vec<(String, usize)>, HashMap<String, usize>);

/// What one parse shares between the levels of the value.
struct State {
    /// Objects opened so far (the next object's number).
    objects: Cell<usize>,
    /// Repeats listed with their pointers (last-wins parse only).
    listed: RefCell<Vec<Repeated>>,
    /// Repeats counted.
    total: Cell<usize>,
    /// Most repeats listed.
    max_listed: usize,
}

impl State {
    fn new(max_listed: usize) -> State {
        State { objects: Cell::new(0), listed: RefCell::new(Vec::new()), total: Cell::new(0), max_listed }
    }
}

struct Reader<'a, 's> {
    mode: Mode,
    path: Path<'a>,
    state: &'s State,
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
            match seq.next_element_seed(Reader { mode: self.mode, path, state: self.state })? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let objects = &self.state.objects;
        objects.set(objects.get().saturating_add(1));
        let lock = match self.mode {
            Mode::Reading(r) => r.lock,
            Mode::Last => None,
        };
        // The name whose kept occurrence holds the locked object (at most one per object).
        let mut locked: Option<String> = None;
        let mut map = Map::new();
        // Occurrence counts of the names this object repeats, made on the first repeat only.
        let mut counts: Option<Counts> = None;
        while let Some(key) = access.next_key::<String>()? {
            let start = objects.get();
            let path = Path { parent: Some(&self.path), step: Some(Step::Key(&key)) };
            let value = access.next_value_seed(Reader { mode: self.mode, path, state: self.state })?;
            let holds_lock = lock.is_some_and(|t| start <= t && t < objects.get());
            match map.entry(key) {
                Entry::Vacant(v) => {
                    if holds_lock {
                        locked = Some(v.key().clone());
                    }
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
                    let replace = match self.mode {
                        Mode::Last => true,
                        Mode::Reading(_) if locked.as_deref() == Some(o.key().as_str()) => false,
                        Mode::Reading(_) if holds_lock => {
                            locked = Some(o.key().clone());
                            true
                        }
                        Mode::Reading(r) => occurrence <= r.keep,
                    };
                    if replace {
                        o.insert(value);
                    }
                }
            }
        }
        if let (Mode::Last, Some((order, _))) = (self.mode, counts) {
            let mut listed = self.state.listed.borrow_mut();
            for (name, count) in order {
                self.state.total.set(self.state.total.get() + 1);
                if listed.len() < self.state.max_listed {
                    listed.push(Repeated { pointer: self.path.pointer(&name), count });
                }
            }
        }
        Ok(Value::Object(map))
    }
}

fn run(body: &[u8], mode: Mode, state: &State) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = Reader { mode, path: Path { parent: None, step: None }, state }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Parses `body` as `serde_json::from_slice::<Value>` does (same value, same errors, same recursion
/// limit; the last occurrence of a repeated name wins) and returns the repeated names: all counted,
/// the first `max_listed` with their pointers (memory for pointers is bounded by `max_listed` times
/// the nesting depth and name lengths, whatever the number of repeats).
pub fn read(body: &[u8], max_listed: usize) -> Result<(Value, Repeats), serde_json::Error> {
    let state = State::new(max_listed);
    let value = run(body, Mode::Last, &state)?;
    Ok((value, Repeats { listed: state.listed.into_inner(), total: state.total.get() }))
}

/// Parses `body` as one alternate reading (see [`Reading`] and the module documentation). Same
/// errors as [`read`].
pub fn read_reading(body: &[u8], reading: Reading) -> Result<Value, serde_json::Error> {
    run(body, Mode::Reading(reading), &State::new(0))
}

/// Parses `body` keeping, for every repeated member name, occurrence `k` (0-based: 0 is what a
/// first-wins receiver reads), or the last one when the name occurs `k` times or fewer.
pub fn read_keeping(body: &[u8], k: usize) -> Result<Value, serde_json::Error> {
    read_reading(body, Reading::keeping(k))
}

/// What the planning pass records: repeats by object number, and occurrence regions.
#[derive(Default)]
struct ScanState {
    objects: Cell<usize>,
    /// (object number, count) per repeated name.
    records: RefCell<Vec<(usize, usize)>>,
    /// [first, end) object numbers inside an occurrence of a repeated name (non-empty only).
    regions: RefCell<Vec<(usize, usize)>>,
}

/// A pass over the body that builds no value, recording what [`plan`] needs.
struct Scan<'s>(&'s ScanState);

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Scan(self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<(), A::Error> {
        let objects = &self.0.objects;
        let ordinal = objects.get();
        objects.set(ordinal.saturating_add(1));
        // Per name: occurrences so far and the first occurrence's region (until it repeats).
        let mut members: HashMap<String, (usize, Option<(usize, usize)>)> = HashMap::new();
        while let Some(key) = access.next_key::<String>()? {
            let start = objects.get();
            access.next_value_seed(Scan(self.0))?;
            let end = objects.get();
            let region = (end > start).then_some((start, end));
            match members.entry(key) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert((1, region));
                }
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let (count, first) = o.get_mut();
                    *count += 1;
                    let mut regions = self.0.regions.borrow_mut();
                    if let Some(r) = first.take() {
                        regions.push(r);
                    }
                    if let Some(r) = region {
                        regions.push(r);
                    }
                }
            }
        }
        let mut records = self.0.records.borrow_mut();
        records.extend(members.into_values().filter(|m| m.0 >= 2).map(|m| (ordinal, m.0)));
        Ok(())
    }
}

/// Plans the alternate readings of `body` (module documentation): at most `max_top` readings
/// `keep k` for the top repeats, then at most `max_nested` readings `lock r, keep j` for the nested
/// ones (their innermost regions in document order), counting the occurrences left out. One pass
/// over the body building no value, plus sorting the repeats and regions (memory and time linear in
/// the body). Errors as [`read`].
pub fn plan(body: &[u8], max_top: usize, max_nested: usize) -> Result<Plan, serde_json::Error> {
    let state = ScanState::default();
    let mut de = serde_json::Deserializer::from_slice(body);
    Scan(&state).deserialize(&mut de)?;
    de.end()?;
    let mut records = state.records.into_inner();
    let mut regions = state.regions.into_inner();
    records.sort_unstable();
    // Regions nest or are disjoint; outer ones first at equal starts.
    regions.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));

    let mut top_most = 0;
    let mut top_counts = Vec::new();
    // Innermost region (index into `regions`) -> counts of the nested repeats it holds.
    let mut nested: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut open: Vec<usize> = Vec::new();
    let mut next = 0;
    let end_of = |i: usize| regions.get(i).map_or(0, |r| r.1);
    for &(object, count) in &records {
        while let Some(&(start, _)) = regions.get(next).filter(|r| r.0 <= object) {
            while open.last().is_some_and(|&o| end_of(o) <= start) {
                open.pop();
            }
            open.push(next);
            next += 1;
        }
        while open.last().is_some_and(|&o| end_of(o) <= object) {
            open.pop();
        }
        match open.last() {
            Some(&region) => nested.entry(region).or_default().push(count),
            None => {
                top_most = top_most.max(count);
                top_counts.push(count);
            }
        }
    }

    let mut plan = Plan::default();
    let top = top_most.saturating_sub(1).min(max_top);
    plan.readings.extend((0..top).map(Reading::keeping));
    plan.unexamined += top_counts.iter().map(|c| c.saturating_sub(1 + top)).sum::<usize>();
    let mut budget = max_nested;
    for (region, counts) in nested {
        let most = counts.iter().copied().max().unwrap_or(0);
        let made = most.min(budget);
        budget -= made;
        let first = regions.get(region).map_or(0, |r| r.0);
        for j in 0..made {
            let reading = Reading { lock: Some(first), keep: j };
            if !plan.readings.contains(&reading) {
                plan.readings.push(reading);
            }
        }
        plan.unexamined += counts.iter().map(|c| c.saturating_sub(made)).sum::<usize>();
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_value_as_serde_json_and_repeats_with_pointers() {
        let body = br#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}],"a/b":{"x":1,"x":2.5,"x":null},"keys":[{"kty":"RSA"}],"n":[-1,18446744073709551615,1.5e300]}"#;
        let (value, repeats) = read(body, usize::MAX).unwrap();
        assert_eq!(value, serde_json::from_slice::<Value>(body).unwrap());
        assert_eq!(
            repeats.listed,
            vec![Repeated { pointer: "/a~1b/x".into(), count: 3 }, Repeated { pointer: "/keys".into(), count: 2 },]
        );
        assert_eq!(repeats.total, 2);
        assert_eq!(read_keeping(body, 0).unwrap()["keys"], json!([{"kty":"oct","k":"c2VjcmV0"}]));
        assert_eq!(read_keeping(body, 0).unwrap()["a/b"]["x"], json!(1));
        assert_eq!(read_keeping(body, 1).unwrap()["a/b"]["x"], json!(2.5));
        assert_eq!(read_keeping(body, 1).unwrap()["keys"], json!([{"kty":"RSA"}]));
    }

    #[test]
    fn nested_pointers_and_errors() {
        let (_, repeats) = read(br#"[{"a":[0,{"b":1,"b":2}]}]"#, 10).unwrap();
        assert_eq!(repeats.listed, vec![Repeated { pointer: "/0/a/1/b".into(), count: 2 }]);
        let (_, none) = read(br#"{"a":1,"b":{"a":2}}"#, 10).unwrap();
        assert_eq!(none, Repeats::default());
        let e = read(b"{\"a\":1} x", 10).unwrap_err();
        assert_eq!(e.to_string(), serde_json::from_slice::<Value>(b"{\"a\":1} x").unwrap_err().to_string());
        let deep = "[".repeat(200);
        assert!(read(deep.as_bytes(), 10).is_err());
        assert!(plan(deep.as_bytes(), 8, 8).is_err());
    }

    /// Leaf numbers (every scalar in the test trees is a distinct number) found in `v`.
    fn leaves(v: &Value, out: &mut std::collections::BTreeSet<u64>) {
        match v {
            Value::Number(n) => {
                out.extend(n.as_u64());
            }
            Value::Array(a) => a.iter().for_each(|x| leaves(x, out)),
            Value::Object(o) => o.values().for_each(|x| leaves(x, out)),
            _ => {}
        }
    }

    /// The leaves of the last-wins reading and of every planned reading.
    fn seen(body: &[u8], max_top: usize, max_nested: usize) -> (std::collections::BTreeSet<u64>, Plan) {
        let mut out = std::collections::BTreeSet::new();
        leaves(&read(body, 0).unwrap().0, &mut out);
        let plan = plan(body, max_top, max_nested).unwrap();
        for r in &plan.readings {
            leaves(&read_reading(body, *r).unwrap(), &mut out);
        }
        (out, plan)
    }

    #[test]
    fn a_repeat_inside_a_replaced_occurrence_is_read() {
        // Review 4 finding 4: "b":2 was in no reading.
        let body = br#"{"a":{"b":1,"b":2},"a":{"c":3}}"#;
        let (found, p) = seen(body, 8, 8);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(p.unexamined, 0);
        assert_eq!(
            p.readings,
            vec![Reading::keeping(0), Reading { lock: Some(1), keep: 0 }, Reading { lock: Some(1), keep: 1 }]
        );
        assert_eq!(read_reading(body, Reading { lock: Some(1), keep: 1 }).unwrap(), json!({"a":{"b":2}}));
        // The JWK Set of the review: the inner "oct" key is in a reading.
        let jwks = br#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB","k":"c2VjcmV0","kty":"oct"}],"keys":[]}"#;
        let p = plan(jwks, 8, 8).unwrap();
        let readings: Vec<Value> = p.readings.iter().map(|r| read_reading(jwks, *r).unwrap()).collect();
        assert!(readings.iter().any(|v| v["keys"][0]["kty"] == "oct"), "{readings:?}");
        assert!(readings.iter().any(|v| v["keys"][0]["kty"] == "RSA"), "{readings:?}");
        // Nested repeats in one replaced occurrence share their readings (two here, not six).
        let body = br#"{"keys":[{"k":1,"k":2},{"k":3,"k":4},{"k":5,"k":6}],"keys":[]}"#;
        let (found, p) = seen(body, 8, 8);
        assert_eq!(found.len(), 6);
        assert_eq!(p.readings.len(), 3);
    }

    #[test]
    fn caps_count_what_is_left_out() {
        // One name 12 times at the top: occurrences 0-7 read by alternates, 11 by the main reading,
        // 8, 9 and 10 left out.
        let mut body = String::from("{");
        for i in 0..12 {
            body.push_str(&format!("\"a\":{i},"));
        }
        body.push_str("\"z\":0}");
        let (found, p) = seen(body.as_bytes(), 8, 8);
        assert_eq!(p.readings.len(), 8);
        assert_eq!(p.unexamined, 3);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5, 6, 7, 11]);
        // Nested: 10 occurrences inside a replaced occurrence, 8 nested readings.
        let inner: Vec<String> = (0..10).map(|i| format!("\"b\":{i}")).collect();
        let body = format!("{{\"a\":{{{}}},\"a\":{{}}}}", inner.join(","));
        let (found, p) = seen(body.as_bytes(), 8, 8);
        assert_eq!(p.unexamined, 2);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn pointers_only_for_the_listed_repeats() {
        // Review 4 finding 1: a 64 KiB name above 4000 repeating objects (a 122 KB body) built 4000
        // pointers of 64 KiB each; now only the listed ones are built, the rest counted.
        let name = "n".repeat(64 * 1024);
        let body = format!("{{\"{name}\":[{}]}}", vec![r#"{"a":0,"a":0}"#; 4000].join(","));
        let (value, repeats) = read(body.as_bytes(), 100).unwrap();
        assert_eq!(value[&name].as_array().map(Vec::len), Some(4000));
        assert_eq!(repeats.total, 4000);
        assert_eq!(repeats.listed.len(), 100);
        assert_eq!(repeats.listed[99], Repeated { pointer: format!("/{name}/99/a"), count: 2 });
        assert_eq!(repeats.listed[99].pointer.capacity(), name.len() + 6);
        let p = plan(body.as_bytes(), 8, 8).unwrap();
        assert_eq!(p, Plan { readings: vec![Reading::keeping(0)], unexamined: 0 });
    }

    /// A JSON tree for the coverage property: objects with keys from a small set (so repeats are
    /// common), arrays, and leaves numbered when written.
    #[derive(Debug, Clone)]
    enum Tree {
        Leaf,
        Array(Vec<Tree>),
        Object(Vec<(u8, Tree)>),
    }

    fn write(t: &Tree, next: &mut u64, out: &mut String) {
        match t {
            Tree::Leaf => {
                out.push_str(&next.to_string());
                *next += 1;
            }
            Tree::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, next, out);
                }
                out.push(']');
            }
            Tree::Object(members) => {
                out.push('{');
                for (i, (k, x)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&format!("\"{}\":", char::from(b'a' + k)));
                    write(x, next, out);
                }
                out.push('}');
            }
        }
    }

    fn tree() -> impl proptest::strategy::Strategy<Value = Tree> {
        use proptest::prelude::*;
        Just(Tree::Leaf).prop_recursive(5, 48, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Tree::Array),
                proptest::collection::vec((0u8..3, inner), 0..5).prop_map(Tree::Object),
            ]
        })
    }

    proptest::proptest! {
        /// Same value and same error as serde_json on any bytes; never a panic.
        #[test]
        fn agrees_with_serde_json(body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let ours = read(&body, 4).map(|(v, _)| v).map_err(|e| e.to_string());
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
            let ours = read(body.as_bytes(), 4).map(|(v, _)| v).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(body.as_bytes()).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(ours, theirs);
        }

        /// Every member is in the last-wins reading or a planned one when nothing is left out, and
        /// with small caps whatever is missing is counted.
        #[test]
        fn every_occurrence_is_in_a_reading(t in tree()) {
            let mut body = String::new();
            let mut next = 0;
            write(&t, &mut next, &mut body);
            let (found, p) = seen(body.as_bytes(), 64, 4096);
            proptest::prop_assert_eq!(p.unexamined, 0);
            proptest::prop_assert_eq!(found.len() as u64, next, "{}", body);
            let (found, p) = seen(body.as_bytes(), 1, 1);
            if (found.len() as u64) < next {
                proptest::prop_assert!(p.unexamined > 0, "{}", body);
            }
        }
    }
}
