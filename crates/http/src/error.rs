//! Errors of building a fetcher, and the constructor of classified fetch failures.

use std::fmt;
use std::path::PathBuf;

use wellknown_core::{FailureClass, FetchFailure};

/// Why [`crate::Fetcher::new`] refused a configuration.
#[derive(Debug)]
pub enum FetcherError {
    /// A PEM file in `extra_root_certs_pem` could not be read or held no certificate.
    RootCertFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A DER certificate in `extra_root_certs_der` (or a PEM file's certificate) is not a usable
    /// trust anchor.
    RootCert(String),
    /// rustls refused the TLS configuration.
    Tls(String),
}

impl fmt::Display for FetcherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetcherError::RootCertFile { path, reason } => {
                write!(f, "extra root certificate file {}: {reason}", path.display())
            }
            FetcherError::RootCert(r) => write!(f, "extra root certificate rejected: {r}"),
            FetcherError::Tls(r) => write!(f, "TLS configuration rejected: {r}"),
        }
    }
}

impl std::error::Error for FetcherError {}

/// A classified failure with its message.
pub(crate) fn failure(class: FailureClass, message: impl Into<String>) -> FetchFailure {
    FetchFailure { class, message: message.into() }
}
