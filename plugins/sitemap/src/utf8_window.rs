//! UTF-8 validation of an in-memory body a window at a time, just ahead of the parser.
//!
//! Field text must be a `str`. Checking each field alone costs a call per field (the fields of a
//! sitemap are short: ~10 ns each, a quarter of the parse on a dense file); checking the whole body
//! first reads it from memory twice (a 50 MB body mostly made of ignored captions got slower). A
//! window of [`WINDOW`] bytes is checked when the parser first asks for text in it, so the bytes are
//! read once into the cache for both, and every field inside the window is a slice of it. A field that
//! straddles two windows, or lies in a window that is not valid UTF-8, gets `None`: the caller checks
//! it alone (and diagnoses what is invalid).

/// Bytes checked at a time: a few dozen fields, small enough to stay in the first-level caches.
const WINDOW: usize = 32 * 1024;

/// Windows of a body checked as UTF-8 on demand.
pub(crate) struct Utf8Window<'a> {
    bytes: &'a [u8],
    /// Offset of `text` in `bytes`.
    start: usize,
    /// The checked window (empty when the window was not valid UTF-8).
    text: &'a str,
    /// End of the window last checked (valid or not).
    end: usize,
}

impl<'a> Utf8Window<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Utf8Window { bytes, start: 0, text: "", end: 0 }
    }

    /// `bytes[from..to]` as a `str`, when it lies inside one valid window.
    #[inline]
    pub(crate) fn get(&mut self, from: usize, to: usize) -> Option<&'a str> {
        if from < self.start || to > self.end {
            self.check_from(from, to);
        }
        self.text.get(from.checked_sub(self.start)?..to.checked_sub(self.start)?)
    }

    /// Checks the window that starts at `from` and covers at least `to` (ending on a character
    /// boundary as far as the bytes tell: never inside a multi-byte sequence).
    fn check_from(&mut self, from: usize, to: usize) {
        let len = self.bytes.len();
        let mut end = from.saturating_add(WINDOW).max(to).min(len);
        // Back off continuation bytes so that the window does not cut a character in two.
        let mut steps = 0;
        while end > to && steps < 3 && self.bytes.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
            end -= 1;
            steps += 1;
        }
        self.start = from;
        self.end = end;
        self.text = self.bytes.get(from..end).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_inside_valid_windows_are_slices() {
        let body = "<loc>é</loc>".repeat(10_000);
        let mut w = Utf8Window::new(body.as_bytes());
        for (i, _) in body.match_indices("<loc>") {
            let (a, b) = (i + 5, i + 5 + "é".len());
            assert_eq!(w.get(a, b), Some("é"), "at {a}");
        }
        // A field past the window checked last moves the window.
        assert_eq!(w.get(5, 7), Some("é"));
    }

    #[test]
    fn invalid_windows_and_cut_characters_give_none() {
        let mut bytes = vec![b'a'; 100];
        bytes.push(0xFF);
        bytes.extend(std::iter::repeat_n(b'b', 2 * WINDOW));
        let mut w = Utf8Window::new(&bytes);
        assert_eq!(w.get(0, 3), None, "the window holds an invalid byte");
        assert_eq!(w.get(101, 103), None, "same window: the caller checks the field alone");
        assert_eq!(w.get(WINDOW + 200, WINDOW + 202), Some("bb"), "a later window is valid");
        let s = "ab€cd";
        let mut w = Utf8Window::new(s.as_bytes());
        assert_eq!(w.get(2, 3), None, "a range inside a character");
        assert_eq!(w.get(0, 2), Some("ab"));
        assert_eq!(w.get(0, 99), None, "past the end");
    }
}
