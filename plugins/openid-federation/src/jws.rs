//! Compact JWS (RFC 7515 section 7.1) splitting and signature checking against a JWK (RFC 7517),
//! with `ring` (the crypto provider rustls already links). Pure: no I/O.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::signature::{self, RsaPublicKeyComponents, UnparsedPublicKey};
use serde_json::{Map, Value};

/// The three parts of a compact JWS: the decoded header and payload bytes, the signature bytes, and
/// the signing input (`BASE64URL(header) || '.' || BASE64URL(payload)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactJws<'a> {
    /// Decoded protected header (JSON bytes).
    pub header: Vec<u8>,
    /// Decoded payload (JSON bytes for a JWT).
    pub payload: Vec<u8>,
    /// Decoded signature.
    pub signature: Vec<u8>,
    /// The ASCII signing input the signature covers.
    pub signing_input: &'a str,
}

/// Why a compact JWS could not be split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// Not three `.`-separated parts.
    Parts(usize),
    /// Part 0, 1 or 2 is not base64url without padding.
    Base64(usize),
}

/// Splits `text` (surrounding ASCII whitespace removed) into its parts (RFC 7515 section 7.1).
pub fn split(text: &str) -> Result<CompactJws<'_>, SplitError> {
    let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let parts: Vec<&str> = text.split('.').collect();
    let [h, p, s] = parts.as_slice() else { return Err(SplitError::Parts(parts.len())) };
    let decode = |i: usize, part: &str| URL_SAFE_NO_PAD.decode(part).map_err(|_| SplitError::Base64(i));
    let signing_input = text.get(..h.len() + 1 + p.len()).ok_or(SplitError::Parts(parts.len()))?;
    Ok(CompactJws { header: decode(0, h)?, payload: decode(1, p)?, signature: decode(2, s)?, signing_input })
}

/// The outcome of checking a signature with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The signature verifies with the key.
    Valid,
    /// It does not (or the key's members are malformed for the algorithm).
    Invalid,
    /// The algorithm is not one this checker implements (or `none`).
    UnsupportedAlg,
    /// The key's type or curve does not fit the algorithm.
    WrongKeyType,
}

/// The JWS algorithms [`verify`] implements (RFC 7518 section 3.1; EdDSA from RFC 8037 section 3.1).
pub const ALGORITHMS: &[&str] =
    &["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA", "Ed25519"];

fn member(jwk: &Map<String, Value>, name: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(jwk.get(name)?.as_str()?).ok()
}

/// Checks `sig` over `input` with algorithm `alg` and public key `jwk`. Never panics.
pub fn verify(alg: &str, jwk: &Map<String, Value>, input: &[u8], sig: &[u8]) -> Check {
    let kty = jwk.get("kty").and_then(Value::as_str).unwrap_or_default();
    let crv = jwk.get("crv").and_then(Value::as_str).unwrap_or_default();
    let ok = |r: Result<(), ring::error::Unspecified>| if r.is_ok() { Check::Valid } else { Check::Invalid };
    let rsa: Option<&'static signature::RsaParameters> = match alg {
        "RS256" => Some(&signature::RSA_PKCS1_2048_8192_SHA256),
        "RS384" => Some(&signature::RSA_PKCS1_2048_8192_SHA384),
        "RS512" => Some(&signature::RSA_PKCS1_2048_8192_SHA512),
        "PS256" => Some(&signature::RSA_PSS_2048_8192_SHA256),
        "PS384" => Some(&signature::RSA_PSS_2048_8192_SHA384),
        "PS512" => Some(&signature::RSA_PSS_2048_8192_SHA512),
        _ => None,
    };
    if let Some(params) = rsa {
        if kty != "RSA" {
            return Check::WrongKeyType;
        }
        let (Some(n), Some(e)) = (member(jwk, "n"), member(jwk, "e")) else { return Check::Invalid };
        return ok(RsaPublicKeyComponents { n: &n, e: &e }.verify(params, input, sig));
    }
    let ec: Option<(&'static signature::EcdsaVerificationAlgorithm, &str)> = match alg {
        "ES256" => Some((&signature::ECDSA_P256_SHA256_FIXED, "P-256")),
        "ES384" => Some((&signature::ECDSA_P384_SHA384_FIXED, "P-384")),
        _ => None,
    };
    if let Some((algorithm, curve)) = ec {
        if kty != "EC" || crv != curve {
            return Check::WrongKeyType;
        }
        let (Some(x), Some(y)) = (member(jwk, "x"), member(jwk, "y")) else { return Check::Invalid };
        let mut point = Vec::with_capacity(1 + x.len() + y.len());
        point.push(4);
        point.extend_from_slice(&x);
        point.extend_from_slice(&y);
        return ok(UnparsedPublicKey::new(algorithm, &point).verify(input, sig));
    }
    if matches!(alg, "EdDSA" | "Ed25519") {
        if kty != "OKP" || crv != "Ed25519" {
            return Check::WrongKeyType;
        }
        let Some(x) = member(jwk, "x") else { return Check::Invalid };
        return ok(UnparsedPublicKey::new(&signature::ED25519, &x).verify(input, sig));
    }
    Check::UnsupportedAlg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_errors() {
        assert_eq!(split("a.b"), Err(SplitError::Parts(2)));
        assert_eq!(split("a.b.c.d"), Err(SplitError::Parts(4)));
        assert_eq!(split("e30.e30.!!"), Err(SplitError::Base64(2)));
        let jws = split(" e30.e30.AA\n").unwrap();
        assert_eq!((jws.header.as_slice(), jws.signing_input), (&b"{}"[..], "e30.e30"));
    }

    #[test]
    fn key_type_and_algorithm_checks() {
        let ec: Map<String, Value> = serde_json::from_str(r#"{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}"#).unwrap();
        assert_eq!(verify("RS256", &ec, b"x", b"y"), Check::WrongKeyType);
        assert_eq!(verify("ES384", &ec, b"x", b"y"), Check::WrongKeyType);
        assert_eq!(verify("ES256", &ec, b"x", b"y"), Check::Invalid);
        assert_eq!(verify("none", &ec, b"x", b""), Check::UnsupportedAlg);
        assert_eq!(verify("HS256", &ec, b"x", b""), Check::UnsupportedAlg);
    }
}
