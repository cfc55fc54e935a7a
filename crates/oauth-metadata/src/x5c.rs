//! The subject of an `x5c` certificate (RFC 7517 section 4.7), read with the RustCrypto `x509-cert`
//! DER decoder. Only the subject is read; nothing is verified (no chain, no signature, no validity).

use x509_cert::Certificate;
use x509_cert::der::Decode;

/// The subject distinguished name of a DER-encoded X.509 certificate as an RFC 4514 string
/// (`CN=idp.example,O=Example`), None when the bytes are not a certificate. Never panics.
pub fn certificate_subject(der: &[u8]) -> Option<String> {
    let cert = Certificate::from_der(der).ok()?;
    Some(cert.tbs_certificate.subject.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_none() {
        assert_eq!(certificate_subject(b""), None);
        assert_eq!(certificate_subject(&[0x30, 0x82, 0xff, 0xff, 0x01]), None);
    }
}
