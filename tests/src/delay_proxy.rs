//! A TCP delay proxy on loopback: a round trip of network latency without kernel `netem`.
//!
//! [`DelayProxy`] listens on 127.0.0.1 and forwards every accepted connection to one upstream
//! address (a [`crate::FixtureServer`] listener). Each chunk read from either side is written to the
//! other side `rtt / 2` after it was read, in order, without holding back the chunks behind it (a
//! latency, not a bandwidth limit). An end of stream is forwarded with the same delay.
//!
//! The kernel completes the client's TCP handshake at once, so the proxy models it itself: a new
//! connection's bytes are not read (they wait in the socket) until one `rtt` after it was accepted.
//! A client's first byte therefore reaches the server 1.5 `rtt` after its `connect()`, as over a
//! network; a TLS 1.3 handshake then costs one more `rtt`, and each HTTP request and answer one `rtt`.
//! Only the client's `connect()` itself returns early, which changes no total.
//!
//! Its [`ProxyCounters`] say what it did: connections, chunks and bytes each way, and the shortest
//! time any chunk was held, so a test proves the delay without timing anything itself.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// Chunks read ahead of the writer, per direction of a connection (back-pressure beyond that).
const CHUNKS_IN_FLIGHT: usize = 64;
/// Largest chunk read at once, bytes.
const CHUNK_BYTES: usize = 64 * 1024;

/// A running delay proxy. Stops accepting when dropped (connections already open run to their end).
pub struct DelayProxy {
    /// Where clients connect (127.0.0.1, a free port).
    pub addr: SocketAddr,
    /// Where every connection is forwarded.
    pub upstream: SocketAddr,
    /// The round trip added: `rtt / 2` each way, plus one `rtt` for a new connection.
    pub rtt: Duration,
    stats: Arc<Stats>,
    stop: watch::Sender<bool>,
}

/// What a [`DelayProxy`] has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyCounters {
    /// Connections accepted.
    pub connections: u64,
    /// Connections whose upstream connect failed (closed at once).
    pub upstream_failures: u64,
    /// Chunks written to the upstream (client to server).
    pub chunks_up: u64,
    /// Chunks written to clients (server to client).
    pub chunks_down: u64,
    /// Bytes written to the upstream.
    pub bytes_up: u64,
    /// Bytes written to clients.
    pub bytes_down: u64,
    /// The shortest time a chunk was held between being read and being written, either way; `None`
    /// before the first chunk. At least `rtt / 2` by construction.
    pub min_chunk_hold: Option<Duration>,
    /// The shortest time a connection waited after being accepted before its bytes were read;
    /// `None` before the first connection. At least `rtt`.
    pub min_connect_hold: Option<Duration>,
}

#[derive(Default)]
struct Stats {
    connections: AtomicU64,
    upstream_failures: AtomicU64,
    chunks_up: AtomicU64,
    chunks_down: AtomicU64,
    bytes_up: AtomicU64,
    bytes_down: AtomicU64,
    /// Microseconds; 0 = none yet (a hold is never 0 µs with a non-zero delay; with a zero delay
    /// the minimum reads as `None`, which no caller asks about).
    min_chunk_hold_us: AtomicU64,
    min_connect_hold_us: AtomicU64,
}

fn note_min(cell: &AtomicU64, held: Duration) {
    let us = u64::try_from(held.as_micros()).unwrap_or(u64::MAX).max(1);
    let _ = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |m| (m == 0 || us < m).then_some(us));
}

fn read_min(cell: &AtomicU64) -> Option<Duration> {
    match cell.load(Ordering::Relaxed) {
        0 => None,
        us => Some(Duration::from_micros(us)),
    }
}

impl DelayProxy {
    /// Starts a proxy to `upstream` on the current tokio runtime, listening on 127.0.0.1 (a free
    /// port), adding `rtt` of round trip (`rtt / 2` each way) and one `rtt` per new connection.
    ///
    /// Errors: binding the listener failed.
    pub async fn start(upstream: SocketAddr, rtt: Duration) -> std::io::Result<DelayProxy> {
        let listener = crate::server::bind_loopback()?;
        let addr = listener.local_addr()?;
        let stats = Arc::new(Stats::default());
        let (stop, stop_rx) = watch::channel(false);
        tokio::spawn(accept_loop(listener, upstream, rtt, Arc::clone(&stats), stop_rx));
        Ok(DelayProxy { addr, upstream, rtt, stats, stop })
    }

    /// What the proxy has done so far.
    pub fn counters(&self) -> ProxyCounters {
        let s = &self.stats;
        ProxyCounters {
            connections: s.connections.load(Ordering::Relaxed),
            upstream_failures: s.upstream_failures.load(Ordering::Relaxed),
            chunks_up: s.chunks_up.load(Ordering::Relaxed),
            chunks_down: s.chunks_down.load(Ordering::Relaxed),
            bytes_up: s.bytes_up.load(Ordering::Relaxed),
            bytes_down: s.bytes_down.load(Ordering::Relaxed),
            min_chunk_hold: read_min(&s.min_chunk_hold_us),
            min_connect_hold: read_min(&s.min_connect_hold_us),
        }
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn accept_loop(
    listener: TcpListener,
    upstream: SocketAddr,
    rtt: Duration,
    stats: Arc<Stats>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => return,
        };
        let Ok((client, _)) = accepted else { continue };
        stats.connections.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(relay(client, upstream, rtt, Arc::clone(&stats)));
    }
}

/// One connection: wait out the TCP handshake's round trip, connect upstream, relay both ways.
async fn relay(client: TcpStream, upstream: SocketAddr, rtt: Duration, stats: Arc<Stats>) {
    let accepted = Instant::now();
    tokio::time::sleep(rtt).await;
    note_min(&stats.min_connect_hold_us, accepted.elapsed());
    let server = match TcpStream::connect(upstream).await {
        Ok(s) => s,
        Err(_) => {
            stats.upstream_failures.fetch_add(1, Ordering::Relaxed);
            return;
        }
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let half = rtt / 2;
    tokio::join!(
        pipe(client_read, server_write, half, &stats, Direction::Up),
        pipe(server_read, client_write, half, &stats, Direction::Down),
    );
}

#[derive(Clone, Copy)]
enum Direction {
    Up,
    Down,
}

/// Copies `from` to `to`, each chunk written `delay` after it was read; then forwards the end of
/// stream. A failed write stops the reading too (the chunks would have nowhere to go).
async fn pipe(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, delay: Duration, stats: &Stats, dir: Direction) {
    // `None`: the end of the stream, read at that instant.
    let (tx, mut rx) = mpsc::channel::<(Instant, Option<Bytes>)>(CHUNKS_IN_FLIGHT);
    let read = async move {
        let mut buf = vec![0u8; CHUNK_BYTES];
        loop {
            let chunk = match from.read(&mut buf).await {
                Ok(0) | Err(_) => None,
                Ok(n) => Some(Bytes::copy_from_slice(&buf[..n])),
            };
            let end = chunk.is_none();
            if tx.send((Instant::now(), chunk)).await.is_err() || end {
                break;
            }
        }
    };
    let write = async move {
        let (chunks, bytes) = match dir {
            Direction::Up => (&stats.chunks_up, &stats.bytes_up),
            Direction::Down => (&stats.chunks_down, &stats.bytes_down),
        };
        while let Some((read_at, chunk)) = rx.recv().await {
            tokio::time::sleep_until(read_at + delay).await;
            let Some(chunk) = chunk else { break };
            note_min(&stats.min_chunk_hold_us, read_at.elapsed());
            if to.write_all(&chunk).await.is_err() {
                return;
            }
            chunks.fetch_add(1, Ordering::Relaxed);
            bytes.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(read, write);
}
