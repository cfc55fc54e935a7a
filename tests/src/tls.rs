//! A throwaway certificate authority for HTTPS fixtures (rcgen, ring).

use rcgen::{BasicConstraints, Certificate, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A CA that signs leaf certificates for the fixture server. Its PEM goes to the scanner's
/// `--ca-cert`, so tests see real certificate verification, not a disabled check.
pub struct TestCa {
    cert_pem: String,
    cert_der: CertificateDer<'static>,
    cert: Certificate,
    key: KeyPair,
}

/// A leaf certificate chain and its key, ready for rustls.
pub struct Leaf {
    /// Leaf then CA.
    pub chain: Vec<CertificateDer<'static>>,
    /// The leaf's private key.
    pub key: PrivateKeyDer<'static>,
}

impl TestCa {
    /// Makes a new CA.
    ///
    /// Errors: rcgen's, as text.
    pub fn new() -> Result<TestCa, String> {
        let key = KeyPair::generate().map_err(|e| e.to_string())?;
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(|e| e.to_string())?;
        params.distinguished_name.push(DnType::CommonName, "wellknown fixture CA");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages =
            vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let cert = params.self_signed(&key).map_err(|e| e.to_string())?;
        let cert_pem = cert.pem();
        let cert_der = cert.der().clone();
        Ok(TestCa { cert_pem, cert_der, cert, key })
    }

    /// The CA certificate, PEM.
    pub fn pem(&self) -> &str {
        &self.cert_pem
    }

    /// Issues a leaf for `names` (DNS names, wildcards like `*.test`, or IP literals).
    ///
    /// Errors: rcgen's, as text.
    pub fn leaf(&self, names: &[String]) -> Result<Leaf, String> {
        let key = KeyPair::generate().map_err(|e| e.to_string())?;
        let mut params = CertificateParams::new(names.to_vec()).map_err(|e| e.to_string())?;
        params.distinguished_name.push(DnType::CommonName, "wellknown fixture");
        let cert = params.signed_by(&key, &self.cert, &self.key).map_err(|e| e.to_string())?;
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        Ok(Leaf { chain: vec![cert.der().clone(), self.cert_der.clone()], key })
    }

    /// A self-signed leaf for `names`, signed by no CA anyone trusts (for `tls` failure tests).
    ///
    /// Errors: rcgen's, as text.
    pub fn self_signed(names: &[String]) -> Result<Leaf, String> {
        let key = KeyPair::generate().map_err(|e| e.to_string())?;
        let params = CertificateParams::new(names.to_vec()).map_err(|e| e.to_string())?;
        let cert = params.self_signed(&key).map_err(|e| e.to_string())?;
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        Ok(Leaf { chain: vec![cert.der().clone()], key })
    }
}
