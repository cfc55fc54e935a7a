//! Content types the fixture server sends when no sidecar says otherwise.

/// The Content-Type for a served path, from its file name the way common servers configure it:
/// robots.txt and security.txt are `text/plain`, XML sitemaps `application/xml`, JSON documents
/// (`.json`, openid-configuration, oauth-authorization-server, apple-app-site-association, jwks)
/// `application/json`, `.gz` `application/gzip`, `.html` `text/html`; anything else `text/plain`.
pub fn guess_content_type(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path).split('?').next().unwrap_or("");
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".gz") {
        "application/gzip"
    } else if lower.ends_with(".xml") || lower == "sitemap" {
        "application/xml"
    } else if lower.ends_with(".json")
        || lower.ends_with(".jwks")
        || matches!(
            lower.as_str(),
            "openid-configuration"
                | "oauth-authorization-server"
                | "apple-app-site-association"
                | "oauth-protected-resource"
                | "jwks"
        )
    {
        "application/json"
    } else if lower.ends_with(".html") || lower.ends_with(".htm") {
        "text/html; charset=utf-8"
    } else if lower.ends_with(".rss") {
        "application/rss+xml"
    } else if lower.ends_with(".atom") {
        "application/atom+xml"
    } else if lower == "security.txt" {
        "text/plain; charset=utf-8"
    } else {
        "text/plain"
    }
}

#[cfg(test)]
mod tests {
    use super::guess_content_type;

    #[test]
    fn types() {
        assert_eq!(guess_content_type("/robots.txt"), "text/plain");
        assert_eq!(guess_content_type("/.well-known/openid-configuration"), "application/json");
        assert_eq!(guess_content_type("/sitemap.xml?page=2"), "application/xml");
        assert_eq!(guess_content_type("/companies/sitemap"), "application/xml");
        assert_eq!(guess_content_type("/s.xml.gz"), "application/gzip");
    }
}
