//! security.txt (RFC 9116) parser and probe
