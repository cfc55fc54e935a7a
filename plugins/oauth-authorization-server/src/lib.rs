//! OAuth 2.0 Authorization Server Metadata (RFC 8414) probe
