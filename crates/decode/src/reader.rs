//! Pull-side decoding: a decompressing reader per layer and a cap on what it yields.

use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

/// Counts the bytes that went through a [`Capped`] reader and whether the cap was hit. Clones share
/// the counts, so a caller keeps one while the reader is consumed elsewhere.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    bytes: Rc<Cell<u64>>,
    hit_cap: Rc<Cell<bool>>,
}

impl Meter {
    /// A meter that already counts `bytes` bytes, and whether more were available past a cap (for a
    /// document that needed no decoding: the counts are known up front).
    pub fn with(bytes: u64, hit_cap: bool) -> Meter {
        Meter { bytes: Rc::new(Cell::new(bytes)), hit_cap: Rc::new(Cell::new(hit_cap)) }
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.get()
    }

    /// True when the input went on past the cap.
    pub fn hit_cap(&self) -> bool {
        self.hit_cap.get()
    }
}

/// A reader that yields at most `cap` bytes of `inner` and records, in its [`Meter`], how many it
/// yielded and whether more were available (it reads one byte past the cap to tell).
pub struct Capped<R> {
    inner: R,
    cap: u64,
    meter: Meter,
}

impl<R: Read> Capped<R> {
    /// `inner` read through a cap of `cap` bytes; the meter counts from zero.
    pub fn new(inner: R, cap: u64) -> Self {
        Capped { inner, cap, meter: Meter::default() }
    }

    /// The meter (shared with the reader).
    pub fn meter(&self) -> Meter {
        self.meter.clone()
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let used = self.meter.bytes.get();
        if used >= self.cap {
            if !self.meter.hit_cap.get() {
                let mut one = [0u8; 1];
                if self.inner.read(&mut one)? > 0 {
                    self.meter.hit_cap.set(true);
                }
            }
            return Ok(0);
        }
        let room = usize::try_from(self.cap - used).unwrap_or(usize::MAX).min(buf.len());
        let n = self.inner.read(buf.get_mut(..room).unwrap_or_default())?;
        self.meter.bytes.set(used + n as u64);
        Ok(n)
    }
}

/// One compression layer to peel with [`layer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// gzip (RFC 1952), the first member only (a `.gz` file is one member; bytes after it are not
    /// read).
    GzipFirstMember,
    /// The zlib format (RFC 1950), what `Content-Encoding: deflate` names.
    Zlib,
    /// brotli (RFC 7932).
    Brotli,
}

impl Layer {
    /// The layer's name in reports: `gzip`, `deflate` or `br`.
    pub fn name(self) -> &'static str {
        match self {
            Layer::GzipFirstMember => "gzip",
            Layer::Zlib => "deflate",
            Layer::Brotli => "br",
        }
    }
}

/// A reader of `inner` with `kind` undone. Corrupt input is an `io::Error` from its reads
/// (`InvalidInput`/`InvalidData`, or `UnexpectedEof` for a stream that ends early). Cap it with
/// [`Capped`].
pub fn layer<'a, R: BufRead + 'a>(kind: Layer, inner: R) -> Box<dyn Read + 'a> {
    match kind {
        Layer::GzipFirstMember => Box::new(flate2::bufread::GzDecoder::new(inner)),
        Layer::Zlib => Box::new(flate2::bufread::ZlibDecoder::new(inner)),
        Layer::Brotli => Box::new(brotli_decompressor::Decompressor::new(inner, 4096)),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn a_cap_stops_reading_and_says_there_was_more() {
        let body = gzip(&[b'a'; 1000]);
        let mut r = Capped::new(layer(Layer::GzipFirstMember, &body[..]), 100);
        let meter = r.meter();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!((out.len(), meter.bytes(), meter.hit_cap()), (100, 100, true));
        let mut r = Capped::new(layer(Layer::GzipFirstMember, &body[..]), 1000);
        let meter = r.meter();
        r.read_to_end(&mut out).unwrap();
        assert_eq!((meter.bytes(), meter.hit_cap()), (1000, false), "exactly the cap is not over it");
    }

    #[test]
    fn only_the_first_gzip_member_is_read() {
        let mut two = gzip(b"first");
        two.extend(gzip(b" second"));
        let mut out = String::new();
        layer(Layer::GzipFirstMember, &two[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "first");
    }

    #[test]
    fn zlib_and_corrupt_streams() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"zlib body").unwrap();
        let z = z.finish().unwrap();
        let mut out = String::new();
        layer(Layer::Zlib, &z[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "zlib body");
        assert!(layer(Layer::GzipFirstMember, &b"\x1f\x8bnot gzip at all"[..]).read_to_end(&mut Vec::new()).is_err());
        assert!(layer(Layer::Brotli, &b"\xff\xff\xff\xff"[..]).read_to_end(&mut Vec::new()).is_err());
    }
}
