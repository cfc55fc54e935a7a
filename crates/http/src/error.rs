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
    /// The proxy settings cannot be used as given (e.g. `--resolve` with a proxy that resolves
    /// names itself, or an unreadable proxy CA file).
    Proxy(String),
}

impl fmt::Display for FetcherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetcherError::RootCertFile { path, reason } => {
                write!(f, "extra root certificate file {}: {reason}", path.display())
            }
            FetcherError::RootCert(r) => write!(f, "extra root certificate rejected: {r}"),
            FetcherError::Tls(r) => write!(f, "TLS configuration rejected: {r}"),
            FetcherError::Proxy(r) => write!(f, "{r}"),
        }
    }
}

impl std::error::Error for FetcherError {}

/// Longest failure message, in characters: a message says what failed and why in a line, it does
/// not carry a certificate's whole name list or an error chain without end.
pub const MAX_FAILURE_MESSAGE_CHARS: usize = 300;

/// A classified failure with its message, cut to [`MAX_FAILURE_MESSAGE_CHARS`].
pub(crate) fn failure(class: FailureClass, message: impl Into<String>) -> FetchFailure {
    FetchFailure { class, message: cap_message(message.into()) }
}

/// `message` unchanged when it has at most [`MAX_FAILURE_MESSAGE_CHARS`] characters; otherwise its
/// first `MAX_FAILURE_MESSAGE_CHARS - 1` characters and `…`.
pub(crate) fn cap_message(mut message: String) -> String {
    if let Some((cut, _)) = message.char_indices().nth(MAX_FAILURE_MESSAGE_CHARS - 1)
        && message.get(cut..).is_some_and(|rest| rest.chars().nth(1).is_some())
    {
        message.truncate(cut);
        message.push('…');
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_capped_at_300_characters() {
        let short = "connect to 192.0.2.1:443: connection refused".to_string();
        assert_eq!(cap_message(short.clone()), short);
        let exact = "é".repeat(MAX_FAILURE_MESSAGE_CHARS);
        assert_eq!(cap_message(exact.clone()), exact);
        let long = format!("protocol: {}", "é".repeat(5000));
        let capped = cap_message(long);
        assert_eq!(capped.chars().count(), MAX_FAILURE_MESSAGE_CHARS);
        assert!(capped.starts_with("protocol: éé") && capped.ends_with("é…"));
        assert_eq!(failure(FailureClass::Protocol, "x".repeat(1000)).message.chars().count(), 300);
    }
}
