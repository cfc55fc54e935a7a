//! The streaming interface: what the parser reports while it reads ([`Found`], through a
//! [`Visitor`]) and what it knows at the end ([`Summary`]).

use std::ops::ControlFlow;

use url::Url;
use wellknown_core::{Diagnostic, Locator};

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

/// One URL the sitemap declares, validated (absolute http(s), normalised by the `url` crate).
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// What the URL is.
    pub relation: Relation,
    /// The URL.
    pub url: Url,
    /// Where it is declared: XML path (`/urlset/url[3]/loc`) or text line.
    pub locator: Locator,
    /// Hints as declared (`lastmod`, `changefreq`, `priority`, `hreflang`,
    /// `news_title`, `news_publication_date`), trimmed, never interpreted.
    pub hints: Vec<(&'static str, String)>,
    /// True when the URL breaks the location rule (see [`crate::LocationRule`]); only ever set on
    /// primary relations.
    pub out_of_location: bool,
}

/// Receives what the parser finds, in document order, while it reads.
pub trait Visitor {
    /// A URL was declared. Return `ControlFlow::Break(())` to stop reading.
    fn found(&mut self, found: Found) -> ControlFlow<()>;
    /// A diagnostic (error or warning) was raised (only called when [`Visitor::wants`] said yes).
    fn diagnostic(&mut self, diagnostic: Diagnostic);
    /// Asked before a diagnostic with `code` is built; returning false skips it (its message is then
    /// never formatted). Lets a visitor cap diagnostics per code cheaply. Default: true.
    fn wants(&mut self, code: &str) -> bool {
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
    /// The character encoding the document was decoded from (`UTF-8`, `UTF-16LE`, `windows-1252`...).
    pub encoding: &'static str,
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
