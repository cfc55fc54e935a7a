//! The streaming interface: what the parser reports while it reads ([`Found`], through a
//! [`Visitor`]) and what it knows at the end ([`Summary`]).

use std::ops::ControlFlow;

use wellknown_core::{CandidateBuilder, Diagnostic, Locator};

/// The document format, decided from the body (never from headers or the URL suffix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `<urlset>` (sitemaps.org 0.9, Google 0.84, any namespace or prefix).
    Urlset,
    /// `<sitemapindex>`.
    SitemapIndex,
    /// Plain text, one URL per line.
    Text,
    /// RSS 2.0 (`<rss>`) or RSS 1.0 (`<rdf:RDF>`).
    Rss,
    /// Atom 0.3 or 1.0 (`<feed>`).
    Atom,
    /// An HTML page (soft 404, login page, interstitial).
    Html,
    /// Nothing recognisable: empty, an unknown XML root, a text body with no URL, a refused DOCTYPE, a
    /// corrupt compression layer.
    Unknown,
}

impl Format {
    /// The format name as reported in the `format` fact (`urlset`, `sitemapindex`, `text`, `rss`,
    /// `atom`, `html`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Urlset => "urlset",
            Format::SitemapIndex => "sitemapindex",
            Format::Text => "text",
            Format::Rss => "rss",
            Format::Atom => "atom",
            Format::Html => "html",
            Format::Unknown => "unknown",
        }
    }
}

/// What a reported URL is to the sitemap that declares it. Each maps to one candidate relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// A page URL: `<url><loc>`, a feed item's link, a text line (`sitemap_loc`, kind `url`).
    Loc,
    /// A child sitemap of an index (`sitemap_child`, kind `sitemap`).
    Child,
    /// `<image:image><image:loc>` or `media:thumbnail` (`sitemap_image`).
    Image,
    /// `<video:video>` `thumbnail_loc`, `content_loc`, `player_loc`, `gallery_loc` (`sitemap_video`).
    Video,
    /// `<xhtml:link rel="alternate" hreflang=".." href="..">`, or a further Atom alternate link
    /// (`sitemap_alternate`).
    Alternate,
    /// An RSS `<enclosure url>`, Atom `rel="enclosure"` link or `media:content url` (`sitemap_enclosure`).
    Enclosure,
}

impl Relation {
    /// The candidate relation name.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Loc => "sitemap_loc",
            Relation::Child => "sitemap_child",
            Relation::Image => "sitemap_image",
            Relation::Video => "sitemap_video",
            Relation::Alternate => "sitemap_alternate",
            Relation::Enclosure => "sitemap_enclosure",
        }
    }

    /// True for the URLs the location rule applies to (page URLs and child sitemaps), false for
    /// extension URLs (images on a CDN, alternates on other hosts are legal).
    pub fn is_primary(self) -> bool {
        matches!(self, Relation::Loc | Relation::Child)
    }
}

/// One URL the sitemap declares, validated (absolute http(s)) and normalised: `url` is exactly what
/// `Url::parse(..).as_str()` gives (computed by a byte-level fast path when the declared text is
/// already in that form, by the `url` crate otherwise). Borrowed from the parser's buffers: a visitor
/// copies what it keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found<'a> {
    /// What the URL is.
    pub relation: Relation,
    /// The normalised URL.
    pub url: &'a str,
    /// Where it is declared (formatted on demand: [`Place::to_locator`]).
    pub place: Place<'a>,
    /// Hints as declared (`lastmod`, `changefreq`, `priority`, `hreflang`, `news_title`,
    /// `news_publication_date`), trimmed, never interpreted; each key at most once.
    pub hints: Hints<'a>,
    /// True when the URL breaks the location rule (see [`crate::LocationRule`]); only ever set on
    /// primary relations.
    pub out_of_location: bool,
}

impl Found<'_> {
    /// The locator (`/urlset/url[3]/loc`, a text line), built now.
    pub fn locator(&self) -> Locator {
        self.place.to_locator()
    }
}

/// Where a value is declared, kept as parts and formatted only when needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'a> {
    /// 1-based line of a text sitemap.
    Line(u32),
    /// An XML path: the entry's path (`/urlset/url[3]`), then an extension group with its 1-based
    /// index (`image[2]`), then a leaf element with an optional 1-based index (`loc`, `link[1]`).
    Xml {
        /// The entry's path, `/urlset/url[3]`.
        entry: &'a str,
        /// Extension group and its index: `("image", 2)` gives `/image[2]`.
        group: Option<(&'static str, u32)>,
        /// Leaf element and optional index: `("loc", None)` gives `/loc`, `("link", Some(1))`
        /// gives `/link[1]`.
        leaf: Option<(&'static str, Option<u32>)>,
    },
}

impl Place<'_> {
    /// The locator: `Locator::Line` or `Locator::Xml` with the path formatted.
    pub fn to_locator(&self) -> Locator {
        match *self {
            Place::Line(n) => Locator::Line(n),
            Place::Xml { entry, .. } => {
                let mut s = String::with_capacity(entry.len() + 24);
                self.write_xml_path(&mut s);
                Locator::Xml(s)
            }
        }
    }

    /// Sets the locator of the candidate being built, the XML path written straight into the
    /// candidate list's text (no `String` of its own).
    pub fn locate(&self, c: &mut CandidateBuilder<'_>) {
        match *self {
            Place::Line(n) => c.locator(Some(&Locator::Line(n))),
            Place::Xml { .. } => c.xml_locator(|s| self.write_xml_path(s)),
        };
    }

    /// Appends the XML path (nothing for a line).
    pub fn write_xml_path(&self, out: &mut String) {
        let Place::Xml { entry, group, leaf } = *self else {
            return;
        };
        out.push_str(entry);
        if let Some((g, i)) = group {
            out.push('/');
            out.push_str(g);
            push_index(out, i);
        }
        if let Some((name, index)) = leaf {
            out.push('/');
            out.push_str(name);
            if let Some(i) = index {
                push_index(out, i);
            }
        }
    }
}

/// Appends `[i]`.
fn push_index(out: &mut String, i: u32) {
    out.push('[');
    push_u32(out, i);
    out.push(']');
}

/// Appends the decimal digits of `n` without formatting machinery.
pub(crate) fn push_u32(s: &mut String, n: u32) {
    let mut buf = [0u8; 10];
    let digits = decimal(n, &mut buf);
    s.push_str(std::str::from_utf8(digits).unwrap_or_default());
}

/// Two-digit groups `00` to `99`.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the decimal digits of `n` at the end of `buf` (two at a time) and returns them.
pub(crate) fn decimal(mut n: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut i = buf.len();
    let mut put = |i: usize, pair: usize, one: bool| {
        let digits = PAIRS.get(2 * pair..2 * pair + 2).unwrap_or(b"00");
        if one {
            if let (Some(b), Some(d)) = (buf.get_mut(i), digits.get(1)) {
                *b = *d;
            }
        } else if let Some(b) = buf.get_mut(i..i + 2) {
            b.copy_from_slice(digits);
        }
    };
    while n >= 100 {
        i -= 2;
        put(i, (n % 100) as usize, false);
        n /= 100;
    }
    if n >= 10 {
        i -= 2;
        put(i, n as usize, false);
    } else {
        i -= 1;
        put(i, n as usize, true);
    }
    buf.get(i..).unwrap_or_default()
}

/// The hints of one value: `(key, value)` pairs over a shared text buffer, each key at most once,
/// in the order first declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hints<'a> {
    text: &'a str,
    spans: &'a [(&'static str, u32, u32)],
}

impl<'a> Hints<'a> {
    /// Hints over `text`, each span `(key, start, end)` a byte range of `text`.
    pub(crate) fn new(text: &'a str, spans: &'a [(&'static str, u32, u32)]) -> Self {
        Hints { text, spans }
    }

    /// No hints.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Number of hints.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// The `(key, value)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'a str)> + 'a {
        let text = self.text;
        self.spans.iter().map(move |&(k, s, e)| (k, text.get(s as usize..e as usize).unwrap_or_default()))
    }

    /// The value of hint `key`, if declared.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// Receives what the parser finds, in document order, while it reads.
pub trait Visitor {
    /// A URL was declared. Return `ControlFlow::Break(())` to stop reading.
    fn found(&mut self, found: &Found<'_>) -> ControlFlow<()>;
    /// A diagnostic (error or warning) was raised (only called when [`Visitor::wants`] said yes).
    fn diagnostic(&mut self, diagnostic: Diagnostic);
    /// Asked before a diagnostic with `code` (one of the constants of [`crate::codes`]) is built;
    /// returning false skips it (its message is then never formatted). Lets a visitor cap
    /// diagnostics per code cheaply. Default: true.
    fn wants(&mut self, code: &'static str) -> bool {
        let _ = code;
        true
    }
}

/// What is known once reading has ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The format decided from the body.
    pub format: Format,
    /// Compression layers peeled, outermost first (`gzip`, `deflate`, `br`).
    pub layers: Vec<&'static str>,
    /// The character encoding the document was decoded from (`UTF-8`, `UTF-16LE`, `windows-1252`...);
    /// `None` when nothing was decoded (a compression layer that cannot be read, too many layers).
    pub encoding: Option<&'static str>,
    /// Uncompressed bytes read (up to the hard cap).
    pub bytes: u64,
    /// Entries seen (`<url>`, `<sitemap>`, items, text lines with content).
    pub entries: u64,
    /// Primary URLs (page or child) accepted, duplicates included.
    pub urls: u64,
    /// The file breaks the protocol's 50 MB limit.
    pub too_large: bool,
    /// The file breaks the protocol's 50,000 URL limit.
    pub too_many_urls: bool,
    /// The file was refused (DOCTYPE with entities, HTML, unknown root, corrupt compression).
    pub refused: bool,
    /// Reading stopped before the end (hard cap, malformed XML, truncated input).
    pub incomplete: bool,
}

impl Summary {
    /// The report kind: `urlset | sitemapindex | text | rss | atom | invalid`. A file that breaks a
    /// protocol limit (50 MB, 50,000 URLs) or was refused is `invalid`; its format stays in
    /// [`Summary::format`] and what it declared is still reported.
    pub fn kind(&self) -> &'static str {
        if self.refused || self.too_large || self.too_many_urls {
            return "invalid";
        }
        match self.format {
            Format::Urlset | Format::SitemapIndex | Format::Text | Format::Rss | Format::Atom => self.format.as_str(),
            Format::Html | Format::Unknown => "invalid",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        let mut buf = [0u8; 10];
        for n in (0..100_000).chain([999_999, 1_000_000, 4_294_967_295, u32::MAX - 1]) {
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes(), "{n}");
        }
        let mut s = String::from("x[");
        push_u32(&mut s, 40_213);
        assert_eq!(s, "x[40213");
    }

    #[test]
    fn places_format_paths() {
        let p = Place::Xml { entry: "/urlset/url[3]", group: Some(("image", 2)), leaf: Some(("loc", None)) };
        assert_eq!(p.to_locator(), Locator::Xml("/urlset/url[3]/image[2]/loc".into()));
        let p = Place::Xml { entry: "/urlset/url[3]", group: None, leaf: Some(("link", Some(1))) };
        assert_eq!(p.to_locator(), Locator::Xml("/urlset/url[3]/link[1]".into()));
        assert_eq!(Place::Line(7).to_locator(), Locator::Line(7));
    }
}
