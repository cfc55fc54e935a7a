//! Idle connections kept for reuse, per endpoint (scheme, host, port, forced address).
//!
//! HTTP/1.1 connections are returned only after their response body was read to the end; an
//! HTTP/2 connection is shared by cloning its sender. Connections idle longer than the idle
//! timeout, or closed by the server, are dropped at checkout or by the periodic prune.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::connect::Sender;

/// Identifies connections that may serve a request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PoolKey {
    pub https: bool,
    pub host: String,
    pub port: u16,
    pub connect_to: Option<IpAddr>,
}

struct Idle {
    sender: Sender,
    since: Instant,
}

/// At most this many idle HTTP/1.1 connections per key.
const MAX_IDLE_PER_KEY: usize = 4;

pub(crate) struct Pool {
    idle: Mutex<Inner>,
    idle_timeout: Duration,
}

struct Inner {
    map: HashMap<PoolKey, Vec<Idle>>,
    last_prune: Instant,
}

impl Pool {
    pub(crate) fn new(idle_timeout: Duration) -> Pool {
        Pool { idle: Mutex::new(Inner { map: HashMap::new(), last_prune: Instant::now() }), idle_timeout }
    }

    fn usable(&self, i: &Idle, now: Instant) -> bool {
        !i.sender.is_closed() && now.duration_since(i.since) < self.idle_timeout
    }

    /// A connection for `key`, if one is idle (HTTP/1.1) or shareable (HTTP/2).
    pub(crate) fn checkout(&self, key: &PoolKey) -> Option<Sender> {
        if self.idle_timeout.is_zero() {
            return None;
        }
        let mut inner = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let list = inner.map.get_mut(key)?;
        let now = Instant::now();
        while let Some(i) = list.pop() {
            if !self.usable(&i, now) {
                continue;
            }
            if let Sender::H2(s, st) = &i.sender {
                let shared = Sender::H2(s.clone(), Arc::clone(st));
                list.push(Idle { sender: i.sender, since: now });
                return Some(shared);
            }
            return Some(i.sender);
        }
        None
    }

    /// Makes `sender` available again for `key`.
    pub(crate) fn checkin(&self, key: PoolKey, sender: Sender) {
        if self.idle_timeout.is_zero() || sender.is_closed() {
            return;
        }
        let mut inner = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if now.duration_since(inner.last_prune) >= self.idle_timeout {
            inner.last_prune = now;
            let timeout = self.idle_timeout;
            inner.map.retain(|_, list| {
                list.retain(|i| !i.sender.is_closed() && now.duration_since(i.since) < timeout);
                !list.is_empty()
            });
        }
        let list = inner.map.entry(key).or_default();
        if sender.is_h2() {
            // One shared HTTP/2 connection per key is enough.
            list.retain(|i| !i.sender.is_h2());
        }
        if list.len() < MAX_IDLE_PER_KEY {
            list.push(Idle { sender, since: now });
        }
    }
}
