//! Content decoding with caps, in one place for every reader of compressed bytes: the fetcher
//! (`Content-Encoding`, RFC 9110 section 8.4) and the sitemap parser (`.gz` sitemaps, sitemaps.org).
//! Decompression is flate2 (gzip RFC 1952, zlib RFC 1950, raw deflate RFC 1951) and
//! brotli-decompressor (RFC 7932); this crate adds the caps and the stream rules around them.
//!
//! * [`BodyDecoder`] (push): encoded bytes are written in as they arrive, decoded into a buffer of
//!   at most a cap; how the fetcher decodes a body while reading it.
//! * [`Capped`] and [`layer`] (pull): a decompressing reader per layer, each layer's output read
//!   through a cap whose [`Meter`] says how many bytes went through and whether there were more; how
//!   the sitemap parser streams a compressed document into its XML reader.
//!
//! Pure: no file or network I/O (only the `Read`/`Write` traits over what callers hand in), no
//! clock, no panic on any input; memory is the cap plus the decoders' fixed buffers.

mod body;
mod reader;

pub use body::{BodyDecoder, Coding, DecodeError, parse_content_encoding};
pub use reader::{Capped, Layer, Meter, layer};
