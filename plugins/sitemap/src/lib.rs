//! Sitemaps protocol 0.9 parser and probe (urlset, index, text, RSS, Atom, gzip)
