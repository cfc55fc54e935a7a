//! The plain-text format (sitemaps.org "Text file"): one absolute URL per line, UTF-8. Lines are
//! trimmed (CR, spaces), blank lines skipped; each line is its own entry, located by line number.

use std::io::BufRead;

use wellknown_core::Locator;

use crate::codes;
use crate::emit::Emitter;
use crate::input::Source;
use crate::model::{Format, Hints, Place, Relation, Visitor};
use crate::values::push_utf8;

struct Lines<'e, 'v, V: Visitor> {
    em: &'e mut Emitter<'v, V>,
    line_no: u32,
    nonblank: u64,
    line: Vec<u8>,
    text: String,
    overflow: bool,
}

impl<V: Visitor> Lines<'_, '_, V> {
    fn append(&mut self, bytes: &[u8]) {
        if self.line.len() + bytes.len() > self.em.limits.max_value_bytes {
            self.overflow = true;
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn end_line(&mut self) {
        let overflow = std::mem::take(&mut self.overflow);
        let raw = std::mem::take(&mut self.line);
        // A lone CR also ends a line (old Mac line ends); the empty piece after a CRLF is skipped.
        for (i, piece) in raw.split(|&b| b == b'\r').enumerate() {
            if i == 0 || !piece.trim_ascii().is_empty() {
                self.one_line(piece, overflow && i == 0);
            }
            if self.em.stop {
                break;
            }
        }
        self.line = raw;
        self.line.clear();
    }

    fn one_line(&mut self, raw: &[u8], overflow: bool) {
        self.line_no = self.line_no.saturating_add(1);
        let trimmed = raw.trim_ascii();
        if trimmed.is_empty() && !overflow {
            return;
        }
        self.nonblank += 1;
        self.em.entries += 1;
        self.text.clear();
        if !push_utf8(trimmed, &mut self.text) {
            self.em.invalid_utf8(Some(Locator::Line(self.line_no)));
        }
        let place = Place::Line(self.line_no);
        self.em.value(Relation::Loc, &self.text, place, None, overflow, Hints::default(), None);
    }
}

/// Reads the text format; returns the format decided (`Text`, or `Unknown` when no line is a URL).
pub(crate) fn parse_text<V: Visitor>(source: Source<'_>, em: &mut Emitter<'_, V>) -> Format {
    let mut lines = Lines { em, line_no: 0, nonblank: 0, line: Vec::new(), text: String::new(), overflow: false };
    match source {
        Source::Slice(bytes) => {
            let mut rest = bytes;
            while !rest.is_empty() && !lines.em.stop {
                let (line, next) = match memchr::memchr(b'\n', rest) {
                    Some(i) => (rest.get(..i).unwrap_or_default(), rest.get(i + 1..).unwrap_or_default()),
                    None => (rest, &[][..]),
                };
                lines.append(line);
                lines.end_line();
                rest = next;
            }
        }
        Source::Stream(mut stream) => loop {
            if lines.em.stop {
                break;
            }
            let buf = match stream.fill_buf() {
                Ok(b) => b,
                Err(e) => {
                    if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        lines.em.truncated("the compressed stream ends early", Some(Locator::Line(lines.line_no + 1)));
                    } else {
                        lines.em.incomplete = true;
                        lines.em.error(codes::INVALID_COMPRESSION, format!("reading stopped: {e}"), None);
                    }
                    break;
                }
            };
            if buf.is_empty() {
                if !lines.line.is_empty() || lines.overflow {
                    lines.end_line();
                }
                break;
            }
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    lines.append(buf.get(..i).unwrap_or_default());
                    stream.consume(i + 1);
                    lines.end_line();
                }
                None => {
                    let n = buf.len();
                    lines.append(buf);
                    stream.consume(n);
                }
            }
        },
    }
    let (nonblank, em) = (lines.nonblank, lines.em);
    if nonblank == 0 {
        em.error(codes::EMPTY_DOCUMENT, "the document is empty", None);
        return Format::Unknown;
    }
    if em.urls == 0 && !em.stop {
        em.error(codes::NOT_A_SITEMAP, "no line of this text document is an absolute http(s) URL", None);
        return Format::Unknown;
    }
    Format::Text
}
