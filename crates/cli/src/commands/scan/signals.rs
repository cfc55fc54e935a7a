//! SIGINT and SIGTERM, caught for the whole scan, target reading included.

/// SIGINT (Ctrl-C) and SIGTERM, caught from [`Signals::install`] on: a signal that arrives before
/// anyone waits for it is kept and reported by the next [`Signals::recv`].
pub struct Signals {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl Signals {
    /// Installs the handlers (within a Tokio runtime): from here on the signals no longer end the
    /// process.
    ///
    /// Errors: a handler cannot be installed.
    pub fn install() -> Result<Signals, String> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let int = signal(SignalKind::interrupt()).map_err(|e| format!("installing the SIGINT handler: {e}"))?;
            let term = signal(SignalKind::terminate()).map_err(|e| format!("installing the SIGTERM handler: {e}"))?;
            Ok(Signals { int, term })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// Resolves with the signal's name on the next SIGINT or SIGTERM (cancel-safe: a `select!`
    /// branch loses no signal).
    pub async fn recv(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.int.recv() => "SIGINT",
                _ = self.term.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    }
}
