//! The passes the benchmark and the `ratio` example time the parser against: a visitor that keeps
//! nothing, and the bare quick-xml event pass (the floor of a streaming design).
// Each includer uses a different subset.
#![allow(dead_code)]

use std::io::BufReader;
use std::ops::ControlFlow;

use quick_xml::Reader;
use quick_xml::events::Event;
use wellknown_core::Diagnostic;
use wellknown_sitemap::{Found, Visitor};

/// The streaming pass alone: every URL validated and located, nothing kept, diagnostics not built.
#[derive(Default)]
pub struct Count(pub usize);

impl Visitor for Count {
    fn found(&mut self, _found: &Found<'_>) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, _diagnostic: Diagnostic) {}

    fn wants(&mut self, _code: &str) -> bool {
        false
    }
}

/// A bare event pass over an in-memory document: read every event, count start tags.
pub fn bare_slice(body: &[u8]) -> usize {
    let mut r = Reader::from_reader(body);
    r.config_mut().allow_dangling_amp = true;
    r.config_mut().check_end_names = false;
    let mut n = 0;
    loop {
        match r.read_event() {
            Ok(Event::Start(_)) => n += 1,
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    n
}

/// A bare event pass over a gzipped document, decompressed as a stream.
pub fn bare_gzip(body: &[u8]) -> usize {
    let gz = BufReader::with_capacity(64 * 1024, flate2::bufread::GzDecoder::new(body));
    let mut r = Reader::from_reader(gz);
    r.config_mut().allow_dangling_amp = true;
    r.config_mut().check_end_names = false;
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        match r.read_event_into(&mut buf) {
            Ok(Event::Start(_)) => n += 1,
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    n
}

/// [`bare_gzip`] for a gzip body (`1f 8b`), else [`bare_slice`].
pub fn bare(body: &[u8]) -> usize {
    if body.starts_with(&[0x1f, 0x8b]) { bare_gzip(body) } else { bare_slice(body) }
}
