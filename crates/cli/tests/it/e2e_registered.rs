//! End to end: `--all-registered` records every IANA-registered suffix an origin answers.

use crate::common;

use common::scan;

#[test]
fn all_registered_records_which_suffixes_exist() {
    let (code, records, stderr) = scan(&[
        "--probe",
        "robots",
        "--all-registered",
        "--rate",
        "1000",
        "--per-host",
        "8",
        "https://registered.test",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let inventory: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["type"] == "document" && r["probe"] == "well-known").collect();
    // Every registered, non-obsoleted suffix is asked for once (104 in the snapshot, fewer obsoleted ones).
    assert!(inventory.len() > 80, "{}", inventory.len());
    let found: Vec<&str> =
        inventory.iter().filter(|d| d["status"] == 200).filter_map(|d| d["facts"]["suffix"].as_str()).collect();
    assert_eq!(found, ["host-meta", "mta-sts.txt"]);
    let host_meta = inventory.iter().find(|d| d["facts"]["suffix"] == "host-meta").unwrap();
    assert_eq!(host_meta["kind"], "unparsed");
    assert_eq!(host_meta["size"], 177);
    assert_eq!(host_meta["sha256"].as_str().map(str::len), Some(64));
    assert_eq!(host_meta["facts"]["registry_status"], "permanent");
    assert!(inventory.iter().all(|d| d["url"].as_str().unwrap().starts_with("https://registered.test/.well-known/")));
}
