//! The writer's memory of ids it resolved: documents, nodes and relations by a 128-bit digest of
//! their natural keys, so a further sighting of a known candidate costs one statement (its
//! evidence row) instead of four lookups.
//!
//! Keys are two SipHash-1-3 digests under two random keys per store handle (as the engine's seen
//! set does): a false match needs a 128-bit collision. Each map is bounded ([`MAX_ENTRIES`]) and
//! simply cleared when full: a miss costs one upsert statement, never a wrong answer. The cache is
//! dropped whenever a transaction rolls back, since it may name rows that no longer exist.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};

/// Entries per map before it is cleared: about 2.5 MiB per map at most (a scan's repeats are
/// mostly near each other: the same origin's robots.txt, sitemaps and verifications).
pub const MAX_ENTRIES: usize = 65_536;

/// Ids resolved in this store handle.
#[derive(Default)]
pub struct IdCache {
    keys: (RandomState, RandomState),
    /// (scan, probe, final URL) -> latest document id.
    pub docs: Bounded<i64>,
    /// (kind, value) -> node id and the scope stored with it.
    pub nodes: Bounded<(i64, Option<bool>)>,
    /// (source node, relation, target node) -> relation id.
    pub relations: Bounded<i64>,
}

impl IdCache {
    /// The digest of a key made of hashable parts.
    pub fn key<K: Hash + ?Sized>(&self, parts: &K) -> u128 {
        (u128::from(self.keys.0.hash_one(parts)) << 64) | u128::from(self.keys.1.hash_one(parts))
    }
}

/// A map from digests to values, cleared when it reaches [`MAX_ENTRIES`].
pub struct Bounded<V>(HashMap<u128, V>);

impl<V> Default for Bounded<V> {
    fn default() -> Self {
        Bounded(HashMap::new())
    }
}

impl<V: Copy> Bounded<V> {
    /// The value under `key`.
    pub fn get(&self, key: u128) -> Option<V> {
        self.0.get(&key).copied()
    }

    /// Remembers `value` under `key`, clearing the map first when it is full.
    pub fn insert(&mut self, key: u128, value: V) {
        if self.0.len() >= MAX_ENTRIES {
            self.0.clear();
        }
        self.0.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_parts_and_bound_holds() {
        let c = IdCache::default();
        assert_ne!(c.key(&("url", "ab")), c.key(&("urla", "b")));
        assert_eq!(c.key(&("url", "ab")), c.key(&("url", "ab")));
        let mut b = Bounded::default();
        for i in 0..MAX_ENTRIES as u128 + 1 {
            b.insert(i, 1u8);
        }
        assert_eq!(b.0.len(), 1, "cleared when full, then the new entry kept");
        assert_eq!(b.get(MAX_ENTRIES as u128), Some(1));
    }
}
