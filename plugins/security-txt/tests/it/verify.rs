//! `verify` on its own: verified, failed, and the not-checked cases (unreadable key, another key).

use wellknown_security_txt::signed::{split, split_lines};
use wellknown_security_txt::{SignatureStatus, SignedDocument, verify};

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown")
}

fn signed_doc(text: &str) -> SignedDocument {
    split(split_lines(text).0).signed.expect("signed")
}

fn example_key() -> String {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("sectxt_signed_valid.meta.json")).expect("meta"))
            .expect("json");
    meta["pgp_public_key"].as_str().expect("key").to_string()
}

fn example_body() -> String {
    std::fs::read_to_string(dir().join("sectxt_signed_valid.input")).expect("input")
}

#[test]
fn verifies_and_is_line_ending_agnostic() {
    let key = example_key();
    let doc = signed_doc(&example_body());
    assert_eq!(
        verify(&doc, key.as_bytes()),
        SignatureStatus::Verified { fingerprint: "FE97DFC2056251B106166645E4C6D44B1BB2DC1D".into() }
    );
    let crlf = example_body().replace('\n', "\r\n");
    assert_eq!(verify(&signed_doc(&crlf), key.as_bytes()).as_str(), "verified");
    // Trailing whitespace is not part of the signed text (RFC 4880 section 7.1).
    let spaced = example_body().replace("Expires: 2027-05-31T18:37:07z", "Expires: 2027-05-31T18:37:07z  \t");
    assert_eq!(verify(&signed_doc(&spaced), key.as_bytes()).as_str(), "verified");
}

/// A file signed by GnuPG whose first signed line holds lone CRs (tests/data/README.md): GnuPG
/// ends cleartext lines at LF only, so the CRs are signed text; the fields are still read apart.
#[test]
fn a_lone_cr_inside_a_signed_line_is_signed_text() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let body = std::fs::read_to_string(data.join("cr_in_signed_line.txt")).expect("fixture");
    let key = std::fs::read_to_string(data.join("cr_in_signed_line.key.asc")).expect("key");
    let doc = signed_doc(&body);
    assert_eq!(
        doc.signed_text(),
        "Contact: mailto:security@example.com\r- not a dash escape\rExpires: 2027-01-01T00:00:00.000Z\r\n\
         Preferred-Languages: en"
    );
    assert_eq!(
        verify(&doc, key.as_bytes()),
        SignatureStatus::Verified { fingerprint: "20807831AE9C859B26884F8192380EDFA48C983C".into() }
    );
    // The CR is covered: the same text with CR LF there is another text.
    let moved = body.replacen("example.com\r-", "example.com\r\n-", 1);
    assert!(matches!(verify(&signed_doc(&moved), key.as_bytes()), SignatureStatus::Failed { .. }));
}

#[test]
fn altered_text_or_signature_fails() {
    let key = example_key();
    let altered = example_body().replace("mailto:security@", "mailto:attacker@");
    assert!(matches!(verify(&signed_doc(&altered), key.as_bytes()), SignatureStatus::Failed { .. }));
    let mut doc = signed_doc(&example_body());
    doc.signature_armor = "-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n".into();
    assert!(matches!(verify(&doc, key.as_bytes()), SignatureStatus::Failed { .. }));
}

#[test]
fn unreadable_or_foreign_keys_are_not_checked() {
    let doc = signed_doc(&example_body());
    assert!(matches!(verify(&doc, b"not a key"), SignatureStatus::NotChecked { .. }));
    assert!(matches!(
        verify(&doc, b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----\n"),
        SignatureStatus::NotChecked { .. }
    ));
    assert!(matches!(verify(&doc, &[]), SignatureStatus::NotChecked { .. }));
    // internet.nl's file is signed by internet.nl's key, not by the example key.
    let corpus =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/internet.nl/.well-known/security.txt");
    let other = signed_doc(&std::fs::read_to_string(corpus).expect("internet.nl"));
    match verify(&other, example_key().as_bytes()) {
        SignatureStatus::NotChecked { reason } => assert!(reason.starts_with("signed by key "), "{reason}"),
        s => panic!("expected not_checked, got {s:?}"),
    }
}
