//! The engine's view of the network and of time.

use async_trait::async_trait;
use url::Url;
use wellknown_core::{FetchRequest, FetchResult, Timestamp};

/// Something that can fetch a URL: `wellknown-http`'s fetcher in production, fakes in tests.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Fetches `request`. `in_scope` must be checked before the first request and before every
    /// redirect hop; a refusal is returned as a [`wellknown_core::FetchFailure`] of class
    /// `out_of_scope`.
    async fn fetch(
        &self,
        request: &FetchRequest,
        in_scope: &(dyn for<'u> Fn(&'u Url) -> bool + Send + Sync),
    ) -> FetchResult;
}

/// The scan's clock, injectable so tests and `--now` control expiry judgements.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}
