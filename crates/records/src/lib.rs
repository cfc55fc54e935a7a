//! `wellknown-records`: the records a scan emits, the public output contract
//! (`docs/output-schema.md`).
//!
//! Every line of `wellknown scan`'s JSON Lines output is one [`Record`]: `document`, `diagnostic`,
//! `candidate`, `evidence`, `verification`, `inventory`, `vhost`, `budget`, `origin`, and the
//! `summary` last. The engine (`wellknown-engine`) produces them; the store (`wellknown-store`) and
//! the binary consume them. Beside the records: the scan units they name ([`Unit`], [`UnitKind`]),
//! the verification verdicts ([`VerifyStatus`]) and their source ([`VerifySource`]), and what a scan does with a revealed unit
//! ([`InventoryAction`]), each with the one `as_str` / `parse` pair that names it in records, the
//! store and on the command line.
//!
//! INVARIANTS: no runtime, no network, no file I/O (this crate depends on `wellknown-core`, serde
//! and `url` alone), so a consumer of records (the store) builds without the engine and tokio; a
//! field or name published here changes only with `docs/output-schema.md`.

mod record;
mod unit;
mod verify;

pub use record::{
    BudgetRecord, CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, InventoryAction, InventoryRecord,
    OriginRecord, Record, Summary, VerificationRecord, VhostRecord, recognised,
};
pub use unit::{Unit, UnitKind, UnitTarget};
pub use verify::{VerifySource, VerifyStatus};
