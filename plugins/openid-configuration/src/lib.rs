//! OpenID Connect Discovery 1.0 metadata probe, with JWKS
