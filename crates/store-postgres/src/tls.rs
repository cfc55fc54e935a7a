//! TLS to the server through rustls with the ring provider: the fetcher's TLS stack, so the binary
//! carries one (no OpenSSL, no aws-lc).
//!
//! What each `sslmode` verifies (libpq's meanings, PostgreSQL documentation section 34.19.1):
//! `prefer` and `require` accept any certificate (the handshake still proves the server holds the
//! certificate's key, and SCRAM channel binding ties the password exchange to it); `verify-ca` checks
//! the chain against the trusted CAs but not the name; `verify-full` checks both.

use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;
use wellknown_store::StoreError;

use crate::connect::{Roots, SslMode, Target};

/// The TLS connector for `target`.
///
/// Errors: `verify-ca` / `verify-full` without trusted CAs (the message says how to give them); a CA
/// file that cannot be read or holds no certificate.
pub fn connector(target: &Target) -> Result<MakeRustlsConnect, StoreError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let algorithms = provider.signature_verification_algorithms;
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::new(format!("TLS set-up: {e}")))?;
    let verifier: Arc<dyn ServerCertVerifier> = if target.sslmode.verifies() {
        let roots = Arc::new(roots(&target.roots, target.sslmode)?);
        let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider)
            .build()
            .map_err(|e| StoreError::new(format!("TLS set-up: {e}")))?;
        if target.sslmode == SslMode::VerifyFull { webpki } else { Arc::new(ChainOnly(webpki)) }
    } else {
        Arc::new(AnyCertificate(algorithms))
    };
    let config = builder.dangerous().with_custom_certificate_verifier(verifier).with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

fn roots(roots: &Roots, mode: SslMode) -> Result<RootCertStore, StoreError> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::System => store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Roots::File(path) => {
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
                .map_err(|e| StoreError::new(format!("reading the CA file {}: {e}", path.display())))?
                .collect::<Result<_, _>>()
                .map_err(|e| StoreError::new(format!("reading the CA file {}: {e}", path.display())))?;
            let (added, _ignored) = store.add_parsable_certificates(certs);
            if added == 0 {
                return Err(StoreError::new(format!("the CA file {} holds no usable certificate", path.display())));
            }
        }
        Roots::Missing => {
            let mode = if mode == SslMode::VerifyFull { "verify-full" } else { "verify-ca" };
            return Err(StoreError::new(format!(
                "sslmode={mode} needs trusted CA certificates: add sslrootcert=FILE (PEM) to the URL, set \
                 PGSSLROOTCERT, put them in ~/.postgresql/root.crt, or use sslrootcert=system for the public roots"
            )));
        }
    }
    Ok(store)
}

/// `verify-ca`: the chain is checked, the name is not.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.0.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `prefer` / `require`: any certificate, but the handshake signatures are checked against it.
#[derive(Debug)]
struct AnyCertificate(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}
