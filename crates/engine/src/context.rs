//! The [`ProbeContext`] the engine hands to probes: scope check, then the transport.

use async_trait::async_trait;
use url::Url;
use wellknown_core::{
    FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, ProbeContext, Scope, Timestamp,
};

use crate::transport::{Clock, Transport};

pub(crate) struct ScanContext<'a> {
    pub transport: &'a dyn Transport,
    pub clock: &'a dyn Clock,
    pub scope: &'a Scope,
}

/// A result for a request refused before any byte was sent.
pub(crate) fn refused(url: &Url, class: FailureClass, message: String, now: Timestamp) -> FetchResult {
    let mut meta = FetchMeta::synthetic(url.clone(), None, now);
    meta.status = None;
    meta.failure = Some(FetchFailure { class, message });
    FetchResult { meta, body: Vec::new() }
}

#[async_trait]
impl ProbeContext for ScanContext<'_> {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        if !matches!(request.url.scheme(), "http" | "https") {
            let msg = format!("not an http(s) URL: {}", request.url);
            return refused(&request.url, FailureClass::UnsupportedUrl, msg, self.clock.now());
        }
        if !self.scope.contains_url(&request.url) {
            let msg = format!("{} is outside the scan scope; recorded, not requested", request.url);
            return refused(&request.url, FailureClass::OutOfScope, msg, self.clock.now());
        }
        let scope = self.scope;
        self.transport.fetch(&request, &move |u: &Url| scope.contains_url(u)).await
    }

    fn now(&self) -> Timestamp {
        self.clock.now()
    }
}
