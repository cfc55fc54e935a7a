//! Feeding the store while a scan runs: a dedicated thread owns the SQLite connection and applies
//! the engine's records in batches, one transaction per batch, in the order they were emitted.
//!
//! A batch is whatever records have arrived (at most [`MAX_BATCH`]) since the previous commit, so
//! the store trails the JSON Lines output by milliseconds. A unit's `origin` record is its last, so
//! a unit is marked `done` in the same or a later transaction than everything it produced: after a
//! SIGKILL, the store holds every committed batch and `scan --resume` redoes exactly the units not
//! marked done (their already-committed rows are rewritten idempotently).

use std::thread::JoinHandle;

use tokio::sync::mpsc;
use wellknown_core::Timestamp;
use wellknown_records::Record;
use wellknown_store::ingest::writes_for;
use wellknown_store::{ScanId, SqliteStore, Store};

/// Records per transaction at most.
pub const MAX_BATCH: usize = 2048;

/// The running writer.
pub struct StoreSink {
    tx: mpsc::Sender<Record>,
    thread: JoinHandle<Result<(), String>>,
}

impl StoreSink {
    /// Starts the writer thread for scan `scan`.
    pub fn start(mut store: SqliteStore, scan: ScanId) -> StoreSink {
        let (tx, mut rx) = mpsc::channel::<Record>(4096);
        let thread = std::thread::spawn(move || -> Result<(), String> {
            let mut batch = Vec::new();
            while let Some(first) = rx.blocking_recv() {
                let mut summary = None;
                let mut take = |rec: Record, batch: &mut Vec<_>| {
                    // An interrupted scan's summary leaves the scan unfinished: `--resume` finishes it.
                    if let Record::Summary(s) = &rec
                        && !s.interrupted
                    {
                        summary = Some(serde_json::to_value(s).unwrap_or_default());
                    }
                    batch.extend(writes_for(&rec));
                };
                take(first, &mut batch);
                let mut n = 1;
                while n < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(rec) => {
                            take(rec, &mut batch);
                            n += 1;
                        }
                        Err(_) => break,
                    }
                }
                store.write(scan, &batch).map_err(|e| format!("store: {e}"))?;
                batch.clear();
                if let Some(s) = summary {
                    store.finish_scan(scan, Timestamp::now(), &s).map_err(|e| format!("store: {e}"))?;
                }
            }
            Ok(())
        });
        StoreSink { tx, thread }
    }

    /// Queues a record (waits when the writer is behind, which slows the scan rather than
    /// growing memory). A writer that stopped on an error drops records; [`StoreSink::finish`]
    /// reports the error.
    pub async fn send(&self, record: Record) {
        let _ = self.tx.send(record).await;
    }

    /// Waits for every queued record to be written.
    ///
    /// Errors: the first store error, or a panicked writer.
    pub fn finish(self) -> Result<(), String> {
        drop(self.tx);
        self.thread.join().map_err(|_| "store writer panicked".to_string())?
    }
}
