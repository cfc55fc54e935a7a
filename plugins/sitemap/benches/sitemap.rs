//! Placeholder until the sitemap benchmark lands.
fn main() {}
