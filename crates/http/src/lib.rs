//! The fetcher: hyper + rustls client with DNS classification, caps, redirects and per-host politeness
