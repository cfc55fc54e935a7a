//! The confidence of a relation, derived from its evidence (the model is documented in
//! `docs/confidence.md`; the constants here are the ones it names).
//!
//! For a relation `document --relation--> value`:
//!
//! 1. **Declaration**: look at the latest scan that fetched the declaring document (same probe,
//!    same requested URL). If that scan has evidence of the relation, it is `listed`; if the
//!    document answered (2xx) without listing it in any scan since the relation's latest evidence,
//!    `withdrawn` (a later outage does not raise it back to `unanswered`); if it only failed to
//!    answer since, `unanswered`. A scan that did not fetch the document says nothing. Base:
//!    listed 0.5, unanswered 0.25, withdrawn 0.15.
//! 2. **Recency**: the base decays with the age of the latest evidence, half-life 180 days.
//! 3. **Corroboration**: +0.1 for each other document currently listing the same value, at most +0.2.
//! 4. **Verification** (latest verdict of the value, any scan): alive +0.3, auth_required +0.25,
//!    redirect +0.15, error +0.05, gone −0.25, dns / connect / tls / timeout / failure −0.1;
//!    out_of_scope, disallowed_by_robots, private_address, skipped and never verified: 0 (nothing
//!    was sent, so nothing was learnt).
//!
//! The score is clamped to [0, 1] and rounded to three decimals. Earlier evidence is never removed:
//! a withdrawn relation keeps all its evidence, only its state and score change.
//!
//! Steps 1, 3 and the latest verdict are computed in the database ([`crate::query::facts`]); the
//! score is [`score`], applied to each streamed row.

use serde::Serialize;
use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

/// Base score of a relation listed by the latest fetch of its document.
pub const LISTED: f64 = 0.5;
/// Base score when the latest fetch of the document did not answer.
pub const UNANSWERED: f64 = 0.25;
/// Base score when the document answered without listing the relation.
pub const WITHDRAWN: f64 = 0.15;
/// Half-life of the base score, in days since the latest evidence.
pub const HALF_LIFE_DAYS: f64 = 180.0;
/// Bonus per other document currently listing the same value.
pub const CORROBORATION_STEP: f64 = 0.1;
/// Maximum corroboration bonus.
pub const CORROBORATION_MAX: f64 = 0.2;

/// The adjustment a verification verdict makes.
pub fn verification_delta(status: VerifyStatus) -> f64 {
    match status {
        VerifyStatus::Alive => 0.3,
        VerifyStatus::AuthRequired => 0.25,
        VerifyStatus::Redirect => 0.15,
        VerifyStatus::Error => 0.05,
        VerifyStatus::Gone => -0.25,
        VerifyStatus::Dns
        | VerifyStatus::Connect
        | VerifyStatus::Tls
        | VerifyStatus::Timeout
        | VerifyStatus::Failure => -0.1,
        // Nothing was requested: nothing learnt.
        VerifyStatus::OutOfScope
        | VerifyStatus::DisallowedByRobots
        | VerifyStatus::PrivateAddress
        | VerifyStatus::Skipped => 0.0,
    }
}

/// What the latest fetch of the declaring document says about a relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    /// The latest fetch of the document lists it.
    Listed,
    /// The document answered (2xx) without listing it in a fetch since the relation's latest
    /// evidence, whatever later fetches met.
    Withdrawn,
    /// The document did not answer (2xx) in any fetch since the relation's latest evidence.
    Unanswered,
}

impl Declaration {
    /// `listed`, `withdrawn` or `unanswered`.
    pub fn as_str(self) -> &'static str {
        match self {
            Declaration::Listed => "listed",
            Declaration::Withdrawn => "withdrawn",
            Declaration::Unanswered => "unanswered",
        }
    }
}

/// A relation's confidence and what it was derived from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scored {
    /// The score in [0, 1].
    pub confidence: f64,
    /// Declaration state.
    pub state: Declaration,
    /// Sightings (evidence rows).
    pub evidence: usize,
    /// Latest evidence.
    pub last_seen: Timestamp,
    /// Earliest evidence.
    pub first_seen: Timestamp,
    /// Other documents currently listing the same value.
    pub corroborating: usize,
    /// Latest verification verdict of the value, if any.
    pub verification: Option<VerifyStatus>,
}

/// The score of `s` at instant `now` (its state's base decayed by the age of its latest evidence,
/// plus corroboration and its value's verdict), clamped to [0, 1] and rounded to three decimals.
pub fn score(s: &Scored, now: Timestamp) -> f64 {
    let others = s.corroborating;
    let base = match s.state {
        Declaration::Listed => LISTED,
        Declaration::Unanswered => UNANSWERED,
        Declaration::Withdrawn => WITHDRAWN,
    };
    let age_days = (now.as_second() - s.last_seen.as_second()).max(0) as f64 / 86_400.0;
    let recency = 0.5f64.powf(age_days / HALF_LIFE_DAYS);
    let corroboration = (CORROBORATION_STEP * others as f64).min(CORROBORATION_MAX);
    let delta = s.verification.map_or(0.0, verification_delta);
    let v = (base * recency + corroboration + delta).clamp(0.0, 1.0);
    (v * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(state: Declaration, verification: Option<&str>, age_days: i64) -> f64 {
        let now: Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
        let last = Timestamp::from_second(now.as_second() - age_days * 86_400).unwrap();
        let s = Scored {
            confidence: 0.0,
            state,
            evidence: 1,
            last_seen: last,
            first_seen: last,
            corroborating: 0,
            verification: verification.map(|v| VerifyStatus::parse(v).unwrap()),
        };
        score(&s, now)
    }

    #[test]
    fn the_model_orders_what_it_should() {
        assert_eq!(scored(Declaration::Listed, None, 0), 0.5);
        assert_eq!(scored(Declaration::Listed, Some("alive"), 0), 0.8);
        assert_eq!(scored(Declaration::Listed, Some("gone"), 0), 0.25);
        assert_eq!(scored(Declaration::Withdrawn, Some("alive"), 0), 0.45);
        assert_eq!(scored(Declaration::Unanswered, None, 0), 0.25);
        assert_eq!(scored(Declaration::Listed, None, 180), 0.25, "one half-life");
        assert!(scored(Declaration::Listed, Some("alive"), 0) > scored(Declaration::Listed, Some("redirect"), 0));
        assert_eq!(scored(Declaration::Withdrawn, Some("gone"), 0), 0.0, "clamped");
        assert_eq!(scored(Declaration::Listed, Some("private_address"), 0), 0.5, "refused: nothing learnt");
        assert_eq!(scored(Declaration::Listed, Some("disallowed_by_robots"), 0), 0.5);
    }
}
