//! The lease a scanning process holds on its scan (`wellknown_store::Lease`): taken when the scan
//! starts or is resumed, renewed by a heartbeat thread every [`RENEW_EVERY`] to [`TTL`] ahead, and
//! released at the end. A second process that wants the scan (`scan --resume`) is refused while the
//! lease holds; a killed holder holds it at most until its last expiry, and on the same host not at
//! all once its process id is gone.

use std::path::Path;
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use wellknown_core::Timestamp;
use wellknown_store::{Lease, ScanId};

/// How long a lease holds without a renewal.
pub const TTL: Duration = Duration::from_secs(60);

/// How often the heartbeat renews the lease (a quarter of [`TTL`]: three renewals may fail, e.g.
/// waiting behind a long write, before it lapses).
pub const RENEW_EVERY: Duration = Duration::from_secs(15);

/// This host's name (Linux: the kernel's; else `HOSTNAME`; else `localhost`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}

/// `now` plus [`TTL`].
pub fn expiry(now: Timestamp) -> Timestamp {
    now.checked_add(TTL).unwrap_or(now)
}

/// A lease for this process, taken at `now`: holder `<pid>@<host>/<now>`.
pub fn this_process(now: Timestamp) -> Lease {
    let pid = std::process::id();
    let host = host_name();
    Lease { holder: format!("{pid}@{host}/{now}"), pid, host, acquired_at: now, expires_at: expiry(now) }
}

/// Whether `lease`'s holder is known to be gone: it ran on this host and no process has its id
/// any more (or this process has it, under another holder id: a process id reused). Only Linux can
/// tell (`/proc/<pid>`); elsewhere a lease of a killed process lapses at its expiry.
pub fn holder_dead(lease: &Lease) -> bool {
    if lease.host != host_name() {
        return false;
    }
    if lease.pid == std::process::id() {
        return true;
    }
    cfg!(target_os = "linux") && !Path::new("/proc").join(lease.pid.to_string()).exists()
}

/// How a lease that is refused is told: `process P on HOST, lease until T`.
pub fn describe(lease: &Lease) -> String {
    format!("process {} on {}, its lease renewed until {:.0}", lease.pid, lease.host, lease.expires_at)
}

/// The heartbeat: a thread with its own connection to the store renewing the lease until
/// [`Heartbeat`] is dropped, which releases the lease.
pub struct Heartbeat {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
    /// Resolves if the lease was lost (it lapsed and another process took the scan), with a message
    /// saying so; the scan must stop.
    pub lost: Option<tokio::sync::oneshot::Receiver<String>>,
}

impl Heartbeat {
    /// Starts renewing `lease` of scan `scan` in the store `db`.
    ///
    /// Errors: the store cannot be opened a second time.
    pub fn start(db: &Path, scan: ScanId, lease: &Lease) -> Result<Heartbeat, String> {
        let mut store = crate::store_open::for_writing(db)?;
        let holder = lease.holder.clone();
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let (lost_tx, lost) = tokio::sync::oneshot::channel();
        let thread = std::thread::spawn(move || {
            loop {
                match stopped.recv_timeout(RENEW_EVERY) {
                    Err(RecvTimeoutError::Timeout) => {
                        // A failed renewal (a busy or full disk) is tried again at the next beat; a
                        // lease another holder took is lost for good.
                        if let Ok(false) = store.renew_lease(scan, &holder, expiry(Timestamp::now())) {
                            let by = store
                                .leases()
                                .ok()
                                .and_then(|all| all.into_iter().find(|(s, _)| *s == scan))
                                .map(|(_, l)| describe(&l));
                            let _ = lost_tx.send(format!(
                                "this process's lease on scan {scan} lapsed and {} took the scan over: stopped, so \
                                 that one process runs it",
                                by.unwrap_or_else(|| "another process".to_string())
                            ));
                            return;
                        }
                    }
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                        let _ = store.release_lease(scan, &holder);
                        return;
                    }
                }
            }
        });
        Ok(Heartbeat { stop: Some(stop), thread: Some(thread), lost: Some(lost) })
    }
}

impl Drop for Heartbeat {
    /// Stops the heartbeat and releases the lease (waits for that write).
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
