//! The fetcher's Content-Encoding decoder on arbitrary bytes: the first byte picks up to three
//! codings (gzip, deflate, br), the second the decoded-size cap and the chunk size. Invariants: no
//! panic, no hang (libFuzzer's timeout), never more decoded bytes than the cap.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wellknown_http::{BodyDecoder, Coding, DecodeError};

fuzz_target!(|data: &[u8]| {
    let [pick, sizes, body @ ..] = data else { return };
    let all = [Coding::Gzip, Coding::Deflate, Coding::Brotli];
    let n = usize::from(pick & 3);
    let codings: Vec<Coding> = (0..n).map(|i| all[usize::from(pick >> (2 + 2 * i)) % 3]).collect();
    let cap = usize::from(*sizes) * 64;
    let chunk = usize::from(sizes & 0x0f) + 1;
    let mut d = BodyDecoder::new(&codings, cap);
    let mut stopped = false;
    for part in body.chunks(chunk) {
        if let Err(DecodeError::Full | DecodeError::Corrupt(_)) = d.push(part) {
            stopped = true;
            break;
        }
    }
    if !stopped {
        let _ = d.finish();
    }
    assert!(d.into_bytes().len() <= cap);
});
