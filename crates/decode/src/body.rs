//! Push-side decoding: streaming `Content-Encoding` decoding (RFC 9110 section 8.4) with a cap on the
//! decoded bytes.
//!
//! Compressed bytes are pushed through a chain of `Write` decoders ending in a capped buffer. The
//! decoders hold small fixed buffers, so a decompression bomb costs at most the cap plus a few tens
//! of KiB before the caller stops reading.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use brotli_decompressor::DecompressorWriter;
use flate2::write::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// A content coding we can decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `gzip` / `x-gzip` (RFC 1952), several members allowed.
    Gzip,
    /// `deflate`: the zlib format (RFC 1950) as specified, or raw deflate (RFC 1951) as some
    /// servers send; told apart by the zlib header check.
    Deflate,
    /// `br` (RFC 7932).
    Brotli,
}

impl Coding {
    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
        }
    }
}

/// Parses a `Content-Encoding` value into the codings to undo, in the order they were applied.
///
/// `identity` entries and empty items are skipped. Returns `Err(name)` for the first coding we
/// cannot decode (the body is then returned as received).
pub fn parse_content_encoding(value: &str) -> Result<Vec<Coding>, String> {
    let mut out = Vec::new();
    for item in value.split(',') {
        let item = item.trim();
        if item.is_empty() || item.eq_ignore_ascii_case("identity") {
            continue;
        }
        let c = if item.eq_ignore_ascii_case("gzip") || item.eq_ignore_ascii_case("x-gzip") {
            Coding::Gzip
        } else if item.eq_ignore_ascii_case("deflate") {
            Coding::Deflate
        } else if item.eq_ignore_ascii_case("br") {
            Coding::Brotli
        } else {
            return Err(item.to_string());
        };
        out.push(c);
    }
    Ok(out)
}

/// The capped end of the chain. Shared so the caller can read it while decoders own the writer.
#[derive(Debug, Default)]
struct Capped {
    buf: Vec<u8>,
    cap: usize,
    /// Output beyond the cap was offered (and dropped).
    full: bool,
}

#[derive(Clone)]
struct CapWriter(Arc<Mutex<Capped>>);

impl Write for CapWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut c = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if data.is_empty() {
            return Ok(0);
        }
        let room = c.cap.saturating_sub(c.buf.len());
        if room == 0 {
            c.full = true;
            return Err(io::Error::other("body cap reached"));
        }
        let n = room.min(data.len());
        c.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One decoding stage: a `Write` that can be finished (checking the stream ended properly).
trait Stage: Write + Send {
    fn finish(self: Box<Self>) -> io::Result<()>;
}

type Next = Box<dyn Stage>;

impl Stage for CapWriter {
    fn finish(self: Box<Self>) -> io::Result<()> {
        Ok(())
    }
}

/// The writer each decoder writes into: a write of zero bytes from the next stage (a decoder whose
/// stream has ended takes no more) becomes an error, so no decoder's write loop can spin on it.
/// brotli-decompressor's own loop retries `Ok(0)` forever, which let a body encoded
/// `deflate, br` with bytes after the deflate stream hang the fetcher.
struct Guarded(Next);

impl Write for Guarded {
    fn write(&mut self, d: &[u8]) -> io::Result<usize> {
        match self.0.write(d)? {
            0 if !d.is_empty() => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "data after the end of the encoded stream of the inner coding",
            )),
            n => Ok(n),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl Stage for Guarded {
    fn finish(self: Box<Self>) -> io::Result<()> {
        self.0.finish()
    }
}

struct Gz(MultiGzDecoder<Next>);
impl Write for Gz {
    fn write(&mut self, d: &[u8]) -> io::Result<usize> {
        self.0.write(d)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
impl Stage for Gz {
    fn finish(self: Box<Self>) -> io::Result<()> {
        self.0.finish()?.finish()
    }
}

struct Br(DecompressorWriter<Next>);
impl Write for Br {
    fn write(&mut self, d: &[u8]) -> io::Result<usize> {
        self.0.write(d)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
impl Stage for Br {
    fn finish(self: Box<Self>) -> io::Result<()> {
        match self.0.into_inner() {
            Ok(next) => next.finish(),
            Err(_) => Err(io::Error::new(io::ErrorKind::InvalidData, "truncated or invalid brotli stream")),
        }
    }
}

/// `deflate`: buffers the first two bytes to tell zlib from raw deflate.
enum Deflate {
    Sniffing(Vec<u8>, Option<Next>),
    Zlib(ZlibDecoder<Next>),
    Raw(DeflateDecoder<Next>),
}

impl Deflate {
    fn start(&mut self) -> io::Result<()> {
        if let Deflate::Sniffing(head, next) = self
            && let Some(next) = next.take()
        {
            let is_zlib = matches!(head.as_slice(), [a, b, ..] if (a & 0x0f) == 8 && (a >> 4) <= 7
                && (u16::from(*a) << 8 | u16::from(*b)) % 31 == 0);
            let head = std::mem::take(head);
            *self =
                if is_zlib { Deflate::Zlib(ZlibDecoder::new(next)) } else { Deflate::Raw(DeflateDecoder::new(next)) };
            self.write_all(&head)?;
        }
        Ok(())
    }
}

impl Write for Deflate {
    fn write(&mut self, d: &[u8]) -> io::Result<usize> {
        match self {
            Deflate::Sniffing(head, _) => {
                let take = (2 - head.len().min(2)).min(d.len());
                head.extend_from_slice(&d[..take]);
                if head.len() >= 2 {
                    self.start()?;
                }
                Ok(take)
            }
            Deflate::Zlib(z) => z.write(d),
            Deflate::Raw(r) => r.write(d),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Deflate::Sniffing(..) => Ok(()),
            Deflate::Zlib(z) => z.flush(),
            Deflate::Raw(r) => r.flush(),
        }
    }
}

impl Stage for Deflate {
    fn finish(mut self: Box<Self>) -> io::Result<()> {
        // An empty body stays empty; a started stream is handed to its decoder.
        if matches!(&*self, Deflate::Sniffing(head, _) if !head.is_empty()) {
            self.start()?;
        }
        match *self {
            Deflate::Sniffing(_, Some(next)) => next.finish(),
            Deflate::Sniffing(_, None) => Ok(()),
            Deflate::Zlib(z) => z.finish()?.finish(),
            Deflate::Raw(r) => r.finish()?.finish(),
        }
    }
}

/// How a decode stopped.
#[derive(Debug)]
pub enum DecodeError {
    /// The decoded output reached the cap; the caller should stop reading (not an error).
    Full,
    /// The encoded stream is corrupt.
    Corrupt(String),
}

/// A streaming body decoder writing into a capped buffer.
pub struct BodyDecoder {
    head: Option<Next>,
    out: Arc<Mutex<Capped>>,
    label: String,
}

impl BodyDecoder {
    /// A decoder undoing `codings` (in the order they were applied) and keeping at most `cap`
    /// decoded bytes. An empty `codings` keeps the bytes as they are.
    pub fn new(codings: &[Coding], cap: usize) -> BodyDecoder {
        let out = Arc::new(Mutex::new(Capped { buf: Vec::new(), cap, full: false }));
        let mut head: Next = Box::new(CapWriter(out.clone()));
        // The last coding applied is the first to undo, so it is the outermost stage.
        for &c in codings {
            let next: Next = Box::new(Guarded(head));
            head = match c {
                Coding::Gzip => Box::new(Gz(MultiGzDecoder::new(next))),
                Coding::Deflate => Box::new(Deflate::Sniffing(Vec::with_capacity(2), Some(next))),
                Coding::Brotli => Box::new(Br(DecompressorWriter::new(next, 16 * 1024))),
            };
        }
        let label = codings.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ");
        BodyDecoder { head: Some(head), out, label }
    }

    fn is_full(&self) -> bool {
        self.out.lock().unwrap_or_else(PoisonError::into_inner).full
    }

    /// Feeds encoded bytes. `Err(Full)` once the decoded output would pass the cap.
    pub fn push(&mut self, data: &[u8]) -> Result<(), DecodeError> {
        let Some(head) = self.head.as_mut() else { return Err(DecodeError::Full) };
        let r = head.write_all(data);
        if self.is_full() {
            return Err(DecodeError::Full);
        }
        r.map_err(|e| DecodeError::Corrupt(format!("{} decoding failed: {e}", self.label)))
    }

    /// Ends the stream: checks that the encoded stream was complete.
    pub fn finish(&mut self) -> Result<(), DecodeError> {
        let Some(head) = self.head.take() else { return Ok(()) };
        let r = head.finish();
        if self.is_full() {
            return Err(DecodeError::Full);
        }
        r.map_err(|e| DecodeError::Corrupt(format!("{} decoding failed: {e}", self.label)))
    }

    /// The decoded bytes so far (at most the cap).
    pub fn into_bytes(mut self) -> Vec<u8> {
        // Drop the chain first: its stages may still hold the shared writer.
        self.head = None;
        let mut c = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut c.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brotli stream (RFC 7932) holding `payload` in one uncompressed meta-block: WBITS 16,
    /// ISLAST 0, MNIBBLES 4, MLEN-1, ISUNCOMPRESSED 1, padding to the byte, the bytes, then an
    /// empty last meta-block.
    fn brotli_stored(payload: &[u8]) -> Vec<u8> {
        let header = (((payload.len() - 1) as u32) << 4) | (1 << 20);
        let mut out = header.to_le_bytes()[..3].to_vec();
        out.extend_from_slice(payload);
        out.push(0b11);
        out
    }

    #[test]
    fn hand_made_brotli_stream_decodes() {
        let (out, full, err) = decode(&[Coding::Brotli], 1 << 20, &brotli_stored(b"User-agent: *\n"), 7);
        assert_eq!((out.as_slice(), full, err), (&b"User-agent: *\n"[..], false, None));
    }

    /// Data after the end of a deflate stream under a brotli layer ends with an error. It used to
    /// spin forever: the finished deflate decoder takes zero bytes, and brotli-decompressor's write
    /// loop retries a write of zero bytes (a server could hang a scan with `deflate, br`).
    #[test]
    fn brotli_over_a_finished_inner_decoder_ends() {
        let mut raw = DeflateEncoder::new(Vec::new(), Compression::default());
        raw.write_all(b"User-agent: *\nDisallow: /x\n").unwrap();
        let mut payload = raw.finish().unwrap();
        payload.extend_from_slice(b"junk after the end of the deflate stream");
        let body = brotli_stored(&payload);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(decode(&[Coding::Deflate, Coding::Brotli], 1 << 20, &body, 4096));
        });
        let (out, full, err) = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the decoder returns");
        assert_eq!(out, b"User-agent: *\nDisallow: /x\n");
        assert!(!full);
        assert!(err.is_some_and(|e| e.contains("after the end")), "trailing data is reported");
    }
    use flate2::Compression;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn decode(codings: &[Coding], cap: usize, input: &[u8], chunk: usize) -> (Vec<u8>, bool, Option<String>) {
        let mut d = BodyDecoder::new(codings, cap);
        let mut full = false;
        let mut err = None;
        for part in input.chunks(chunk.max(1)) {
            match d.push(part) {
                Ok(()) => {}
                Err(DecodeError::Full) => {
                    full = true;
                    break;
                }
                Err(DecodeError::Corrupt(e)) => {
                    err = Some(e);
                    break;
                }
            }
        }
        if !full && err.is_none() {
            match d.finish() {
                Ok(()) => {}
                Err(DecodeError::Full) => full = true,
                Err(DecodeError::Corrupt(e)) => err = Some(e),
            }
        }
        (d.into_bytes(), full, err)
    }

    #[test]
    fn parses_header() {
        assert_eq!(parse_content_encoding("gzip"), Ok(vec![Coding::Gzip]));
        assert_eq!(parse_content_encoding("X-Gzip"), Ok(vec![Coding::Gzip]));
        assert_eq!(parse_content_encoding("deflate, br"), Ok(vec![Coding::Deflate, Coding::Brotli]));
        assert_eq!(parse_content_encoding("identity"), Ok(vec![]));
        assert_eq!(parse_content_encoding("zstd"), Err("zstd".to_string()));
    }

    #[test]
    fn identity_is_capped() {
        let (out, full, err) = decode(&[], 5, b"hello world", 3);
        assert_eq!(out, b"hello");
        assert!(full);
        assert!(err.is_none());
        let (out, full, _) = decode(&[], 11, b"hello world", 3);
        assert_eq!(out, b"hello world");
        assert!(!full, "exactly the cap is not truncated");
    }

    #[test]
    fn gzip_roundtrip_and_multi_member() {
        let mut two = gzip(b"hello ");
        two.extend(gzip(b"world"));
        let (out, full, err) = decode(&[Coding::Gzip], 1 << 20, &two, 7);
        assert_eq!(out, b"hello world");
        assert!(!full);
        assert_eq!(err, None);
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(b"zlib body").unwrap();
        let z = z.finish().unwrap();
        assert_eq!(decode(&[Coding::Deflate], 100, &z, 1).0, b"zlib body");
        let mut r = DeflateEncoder::new(Vec::new(), Compression::default());
        r.write_all(b"raw body").unwrap();
        let r = r.finish().unwrap();
        assert_eq!(decode(&[Coding::Deflate], 100, &r, 1).0, b"raw body");
        assert_eq!(decode(&[Coding::Deflate], 100, b"", 1), (Vec::new(), false, None));
    }

    #[test]
    fn bomb_is_capped() {
        let zeros = vec![0u8; 8 * 1024 * 1024];
        let bomb = gzip(&zeros);
        assert!(bomb.len() < 64 * 1024);
        let (out, full, err) = decode(&[Coding::Gzip], 1000, &bomb, 4096);
        assert_eq!(out.len(), 1000);
        assert!(full);
        assert_eq!(err, None);
    }

    #[test]
    fn stacked_codings() {
        let inner = gzip(b"twice");
        let outer = gzip(&inner);
        let (out, _, err) = decode(&[Coding::Gzip, Coding::Gzip], 100, &outer, 3);
        assert_eq!(err, None);
        assert_eq!(out, b"twice");
    }

    #[test]
    fn corrupt_and_truncated_streams_are_errors() {
        let (_, _, err) = decode(&[Coding::Gzip], 100, b"definitely not gzip", 4);
        assert!(err.is_some());
        let g = gzip(b"some longer content that compresses");
        let (_, _, err) = decode(&[Coding::Gzip], 100, &g[..g.len() - 4], 4);
        assert!(err.is_some(), "truncated gzip accepted");
        let (_, _, err) = decode(&[Coding::Brotli], 100, b"\xff\xff\xff\xff", 4);
        assert!(err.is_some());
    }
}
