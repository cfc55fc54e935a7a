//! From the bytes received to a UTF-8 byte stream: compression layers peeled (gzip sniffed by its
//! magic `1f 8b`, at most [`Limits::max_layers`], first member only; `br`/`deflate` only when the
//! `Content-Encoding` header says so), each layer's output capped at [`Limits::hard_cap_bytes`], and
//! the character encoding decoded (UTF-8 BOM stripped; UTF-16 by BOM or by `<?` byte pattern; an
//! ASCII-compatible encoding declared in the XML declaration, e.g. ISO-8859-1). Everything streams:
//! the decompressed document is never held whole. Decompression and its caps are `wellknown-decode`'s,
//! shared with the fetcher.

use std::io::{self, BufRead, BufReader, Read};

use encoding_rs::Encoding;
use wellknown_core::FetchMeta;
use wellknown_decode::{Capped, Layer, Meter, layer};

use crate::limits::Limits;

/// Bytes looked at to decide the format and the encoding.
pub(crate) const HEAD_BYTES: usize = 1024;
const BUF_BYTES: usize = 64 * 1024;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Decodes a non-UTF-8 byte stream to UTF-8 with `encoding_rs`, chunk by chunk.
struct Transcode<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    out: Vec<u8>,
    pos: usize,
    len: usize,
    done: bool,
}

impl<R: BufRead> Transcode<R> {
    fn new(inner: R, encoding: &'static Encoding) -> Self {
        Transcode {
            inner,
            decoder: encoding.new_decoder_with_bom_removal(),
            out: vec![0; 16 * 1024],
            pos: 0,
            len: 0,
            done: false,
        }
    }
}

impl<R: BufRead> BufRead for Transcode<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.len && !self.done {
            let src = self.inner.fill_buf()?;
            let last = src.is_empty();
            let (_, read, written, _) = self.decoder.decode_to_utf8(src, &mut self.out, last);
            self.inner.consume(read);
            self.pos = 0;
            self.len = written;
            self.done = last;
        }
        Ok(self.out.get(self.pos..self.len).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.len);
    }
}

impl<R: BufRead> Read for Transcode<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf.get_mut(..n).unwrap_or_default().copy_from_slice(avail.get(..n).unwrap_or_default());
        self.consume(n);
        Ok(n)
    }
}

/// The decoded document, ready for the format parsers.
pub(crate) enum Source<'a> {
    /// The body itself: uncompressed UTF-8, BOM removed, already cut at the hard cap.
    Slice(&'a [u8]),
    /// A stream of UTF-8 bytes (decompressed and/or transcoded).
    Stream(Box<dyn BufRead + 'a>),
}

/// What [`prepare`] found.
pub(crate) struct Prepared<'a> {
    pub source: Source<'a>,
    /// The first bytes of the UTF-8 document (BOM removed), for sniffing.
    pub head: Vec<u8>,
    /// Compression layers peeled, outermost first.
    pub layers: Vec<&'static str>,
    /// The encoding the document was decoded from.
    pub encoding: &'static Encoding,
    /// Meter of the document's (innermost layer's) uncompressed bytes.
    pub meter: Meter,
}

/// Why no document stream could be set up.
#[derive(Debug)]
pub(crate) enum PrepareError {
    /// A compression layer is corrupt (message from the decoder).
    Compression(&'static str, String),
    /// More gzip layers than allowed.
    TooManyLayers(u8),
}

/// `inner` with one compression layer undone (`wellknown-decode`), capped at the hard cap.
fn capped<'a, R: BufRead + 'a>(kind: Layer, inner: R, limits: &Limits) -> (Box<dyn BufRead + 'a>, Meter) {
    let reader = Capped::new(layer(kind, inner), limits.hard_cap_bytes);
    let meter = reader.meter();
    (Box::new(BufReader::with_capacity(BUF_BYTES, reader)), meter)
}

/// Reads up to `n` bytes from the front of `r` and gives back a reader that still yields them.
fn peek<'a>(mut r: Box<dyn BufRead + 'a>, n: usize) -> io::Result<(Vec<u8>, Box<dyn BufRead + 'a>)> {
    let mut head = Vec::with_capacity(n);
    (&mut r).take(n as u64).read_to_end(&mut head)?;
    let again = io::Cursor::new(head.clone());
    Ok((head, Box::new(again.chain(r))))
}

/// Codings named by the `Content-Encoding` header that we must undo before sniffing (outermost
/// first). gzip is not listed: it is sniffed from the bytes.
fn header_codings(meta: &FetchMeta) -> Vec<&'static str> {
    let Some(ce) = meta.content_encoding.as_deref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for token in ce.rsplit(',').map(|t| t.trim().to_ascii_lowercase()) {
        match token.as_str() {
            "br" => out.push("br"),
            "deflate" => out.push("deflate"),
            "identity" | "" => {}
            _ => break,
        }
    }
    out
}

/// True when the bytes already look like a document (XML, text URL) rather than compressed data.
fn looks_plain(head: &[u8]) -> bool {
    let (_, b) = wellknown_core::media::strip_bom(head);
    let b = b.trim_ascii_start();
    b.starts_with(b"<") || b.len() >= 4 && b[..4].eq_ignore_ascii_case(b"http")
}

/// Detects the document's encoding from its first bytes: a BOM, the UTF-16 pattern of `<?`, or the
/// XML declaration's `encoding` when it names an ASCII-compatible encoding other than UTF-8 (a
/// declared UTF-16 over ASCII bytes is a mislabel: the bytes win). Returns the encoding and the BOM
/// length.
pub(crate) fn detect_encoding(head: &[u8]) -> (&'static Encoding, usize) {
    match head {
        [0xEF, 0xBB, 0xBF, ..] => return (encoding_rs::UTF_8, 3),
        [0xFF, 0xFE, ..] => return (encoding_rs::UTF_16LE, 2),
        [0xFE, 0xFF, ..] => return (encoding_rs::UTF_16BE, 2),
        [0x3C, 0x00, _, 0x00, ..] => return (encoding_rs::UTF_16LE, 0),
        [0x00, 0x3C, 0x00, _, ..] => return (encoding_rs::UTF_16BE, 0),
        _ => {}
    }
    let t = head.trim_ascii_start();
    if let Some(decl) = t.strip_prefix(b"<?xml") {
        let end = decl.windows(2).position(|w| w == b"?>").unwrap_or(decl.len());
        let decl = &decl[..end];
        if let Some(p) = decl.windows(8).position(|w| w == b"encoding") {
            let rest = decl[p + 8..].trim_ascii_start();
            if let Some(rest) = rest.strip_prefix(b"=") {
                let rest = rest.trim_ascii_start();
                if let Some((&q, value)) = rest.split_first()
                    && (q == b'"' || q == b'\'')
                {
                    let label = value.split(|&c| c == q).next().unwrap_or_default();
                    if let Some(enc) = Encoding::for_label(label)
                        && enc.is_ascii_compatible()
                        && enc != encoding_rs::UTF_8
                    {
                        return (enc, 0);
                    }
                }
            }
        }
    }
    (encoding_rs::UTF_8, 0)
}

/// Peels compression layers and sets up UTF-8 decoding of `body`.
pub(crate) fn prepare<'a>(body: &'a [u8], meta: &FetchMeta, limits: &Limits) -> Result<Prepared<'a>, PrepareError> {
    let mut layers: Vec<&'static str> = Vec::new();
    let codings = if looks_plain(body.get(..HEAD_BYTES).unwrap_or(body)) { Vec::new() } else { header_codings(meta) };
    let compressed = body.starts_with(&GZIP_MAGIC) || !codings.is_empty();

    if !compressed {
        // Fast path: the body is the document.
        let cap = usize::try_from(limits.hard_cap_bytes).unwrap_or(usize::MAX);
        let doc = body.get(..cap).unwrap_or(body);
        let meter = Meter::with(doc.len() as u64, body.len() > doc.len());
        let (encoding, bom) = detect_encoding(doc.get(..HEAD_BYTES).unwrap_or(doc));
        let doc = doc.get(bom..).unwrap_or_default();
        if encoding == encoding_rs::UTF_8 {
            let head = doc.get(..HEAD_BYTES).unwrap_or(doc).to_vec();
            return Ok(Prepared { source: Source::Slice(doc), head, layers, encoding, meter });
        }
        let stream: Box<dyn BufRead + 'a> = Box::new(Transcode::new(doc, encoding));
        let (head, stream) =
            peek(stream, HEAD_BYTES).map_err(|e| PrepareError::Compression("charset", e.to_string()))?;
        return Ok(Prepared { source: Source::Stream(stream), head, layers, encoding, meter });
    }

    let mut stream: Box<dyn BufRead + 'a> = Box::new(body);
    let mut meter = Meter::with(body.len() as u64, false);
    for coding in codings {
        let (s, m) = match coding {
            "br" => capped(Layer::Brotli, stream, limits),
            _ => capped(Layer::Zlib, stream, limits),
        };
        layers.push(coding);
        stream = s;
        meter = m;
    }
    let mut gzip_layers = 0u8;
    let head = loop {
        let (head, s) = peek(stream, HEAD_BYTES)
            .map_err(|e| PrepareError::Compression(layers.last().copied().unwrap_or("gzip"), e.to_string()))?;
        stream = s;
        if !head.starts_with(&GZIP_MAGIC) {
            break head;
        }
        if gzip_layers >= limits.max_layers {
            return Err(PrepareError::TooManyLayers(gzip_layers));
        }
        gzip_layers += 1;
        let (s, m) = capped(Layer::GzipFirstMember, stream, limits);
        layers.push("gzip");
        stream = s;
        meter = m;
    };
    let (encoding, bom) = detect_encoding(&head);
    if encoding == encoding_rs::UTF_8 {
        let mut head = head;
        if bom > 0 {
            stream.consume(0);
            let mut skip = [0u8; 3];
            stream
                .read_exact(skip.get_mut(..bom).unwrap_or_default())
                .map_err(|e| PrepareError::Compression("gzip", e.to_string()))?;
            head.drain(..bom.min(head.len()));
        }
        return Ok(Prepared { source: Source::Stream(stream), head, layers, encoding, meter });
    }
    let stream: Box<dyn BufRead + 'a> = Box::new(Transcode::new(stream, encoding));
    let (head, stream) = peek(stream, HEAD_BYTES).map_err(|e| PrepareError::Compression("charset", e.to_string()))?;
    Ok(Prepared { source: Source::Stream(stream), head, layers, encoding, meter })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        assert_eq!(detect_encoding(b"\xEF\xBB\xBF<?xml"), (encoding_rs::UTF_8, 3));
        assert_eq!(detect_encoding(b"\xFF\xFE<\0?\0"), (encoding_rs::UTF_16LE, 2));
        assert_eq!(detect_encoding(b"<\0?\0x\0"), (encoding_rs::UTF_16LE, 0));
        assert_eq!(detect_encoding(b"\0<\0?\0x"), (encoding_rs::UTF_16BE, 0));
        assert_eq!(detect_encoding(b"<?xml version=\"1.0\" encoding=\"utf-16\"?>"), (encoding_rs::UTF_8, 0));
        assert_eq!(detect_encoding(b"<?xml version='1.0' encoding = 'ISO-8859-1'?>").0, encoding_rs::WINDOWS_1252);
        assert_eq!(detect_encoding(b"https://a.example/").0, encoding_rs::UTF_8);
    }
}
