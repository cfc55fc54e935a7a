//! robots.txt (RFC 9309) parser, matcher and probe
