//! OpenPGP signature verification of a cleartext-signed security.txt (RFC 9116 section 2.3), with
//! rPGP (the `pgp` crate).
//!
//! [`verify`] is pure: it takes the [`SignedDocument`] found by the parser and the bytes of a public
//! key (armored or binary), and says whether the signature verifies. RFC 9116 section 2.5.4 warns that
//! the `Encryption` key need not be the signing key, so a signature made by a key that is not in the
//! supplied key is `not_checked`, not `failed`.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pgp::composed::{Deserializable, DetachedSignature, SignedPublicKey};
use pgp::types::KeyDetails;

use crate::signed::SignedDocument;

/// The outcome of checking a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureStatus {
    /// The signature verifies with the key whose fingerprint (upper-case hex) is given.
    Verified {
        /// Fingerprint of the (sub)key that made the signature.
        fingerprint: String,
    },
    /// The signature does not verify: it is malformed, or the key that made it is present and the
    /// signed text does not match.
    Failed {
        /// Why, for people.
        reason: String,
    },
    /// The signature could not be checked: no key, an unreadable key, or a signature made by a key
    /// the supplied key file does not contain.
    NotChecked {
        /// Why, for people.
        reason: String,
    },
}

impl SignatureStatus {
    /// `verified`, `failed` or `not_checked` (the report's `signature` fact).
    pub fn as_str(&self) -> &'static str {
        match self {
            SignatureStatus::Verified { .. } => "verified",
            SignatureStatus::Failed { .. } => "failed",
            SignatureStatus::NotChecked { .. } => "not_checked",
        }
    }

    /// The fingerprint when verified, otherwise the reason.
    pub fn detail(&self) -> &str {
        match self {
            SignatureStatus::Verified { fingerprint } => fingerprint,
            SignatureStatus::Failed { reason } | SignatureStatus::NotChecked { reason } => reason,
        }
    }
}

/// Largest public key file read (bytes). Real keys with many signatures stay well under this.
pub const MAX_KEY_BYTES: usize = 1024 * 1024;

/// Verifies `signed`'s signature with the OpenPGP public key(s) in `public_key` (ASCII-armored
/// `PUBLIC KEY BLOCK` or binary transferable public keys; primary keys and subkeys are tried).
///
/// Pure and panic-free: any panic inside the OpenPGP library is caught and reported as `failed`.
pub fn verify(signed: &SignedDocument, public_key: &[u8]) -> SignatureStatus {
    if public_key.len() > MAX_KEY_BYTES {
        return SignatureStatus::NotChecked { reason: format!("the public key is larger than {MAX_KEY_BYTES} bytes") };
    }
    match catch_unwind(AssertUnwindSafe(|| verify_inner(signed, public_key))) {
        Ok(status) => status,
        Err(_) => SignatureStatus::Failed { reason: "the OpenPGP library could not process the signature".into() },
    }
}

fn read_keys(public_key: &[u8]) -> Result<Vec<SignedPublicKey>, String> {
    let armored = public_key.windows(10).any(|w| w == b"-----BEGIN");
    let keys: Vec<SignedPublicKey> = if armored {
        let (iter, _headers) = SignedPublicKey::from_armor_many(Cursor::new(public_key)).map_err(|e| e.to_string())?;
        iter.filter_map(Result::ok).collect()
    } else {
        SignedPublicKey::from_bytes_many(Cursor::new(public_key))
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .collect()
    };
    if keys.is_empty() { Err("no public key found".into()) } else { Ok(keys) }
}

fn verify_inner(signed: &SignedDocument, public_key: &[u8]) -> SignatureStatus {
    let keys = match read_keys(public_key) {
        Ok(k) => k,
        Err(e) => return SignatureStatus::NotChecked { reason: format!("the public key could not be read: {e}") },
    };
    let sig = match DetachedSignature::from_armor_single(Cursor::new(signed.signature_armor.as_bytes())) {
        Ok((sig, _)) => sig.signature,
        Err(e) => return SignatureStatus::Failed { reason: format!("the signature could not be decoded: {e}") },
    };
    let text = signed.signed_text();
    let issuer_ids = sig.issuer_key_id();
    let issuer_fps = sig.issuer_fingerprint();
    let anonymous = issuer_ids.is_empty() && issuer_fps.is_empty();
    let mut issuer_present = false;
    for key in &keys {
        let primary = &key.primary_key;
        let subkeys = key.public_subkeys.iter().map(|s| &s.key);
        // The primary key and every subkey, as (key id, fingerprint, verify result).
        let mut candidates =
            vec![(primary.legacy_key_id(), primary.fingerprint(), sig.verify(primary, text.as_bytes()).is_ok())];
        candidates
            .extend(subkeys.map(|k| (k.legacy_key_id(), k.fingerprint(), sig.verify(k, text.as_bytes()).is_ok())));
        for (id, fp, ok) in candidates {
            if ok {
                return SignatureStatus::Verified { fingerprint: format!("{fp:X}") };
            }
            if anonymous || issuer_ids.iter().any(|i| **i == id) || issuer_fps.iter().any(|f| **f == fp) {
                issuer_present = true;
            }
        }
    }
    if issuer_present {
        SignatureStatus::Failed { reason: "the signature does not match the signed text".into() }
    } else {
        let by = issuer_fps
            .first()
            .map(|f| format!("{f:X}"))
            .or_else(|| issuer_ids.first().map(|i| i.to_string().to_ascii_uppercase()))
            .unwrap_or_default();
        SignatureStatus::NotChecked {
            reason: format!("signed by key {by}, which the supplied public key does not contain"),
        }
    }
}
