//! App IDs: `<Team ID>.<bundle ID>` (Apple: "The value of the appID key is the team ID or app ID
//! prefix, followed by the bundle ID").

/// Checks an App ID: a 10-character Team ID of upper-case letters and digits, a `.`, then a bundle ID
/// of `.`-separated non-empty segments of ASCII letters, digits and `-`.
///
/// Errors: a short reason for the message.
pub fn check_app_id(app_id: &str) -> Result<(), &'static str> {
    let Some((team, bundle)) = app_id.split_once('.') else {
        return Err("expected <TeamID>.<bundle ID>");
    };
    if team.len() != 10 || !team.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
        return Err("the Team ID must be 10 upper-case letters or digits");
    }
    if bundle.split('.').any(|seg| seg.is_empty() || !seg.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')) {
        return Err("the bundle ID must be dot-separated letters, digits and hyphens");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_ids() {
        assert!(check_app_id("AKK7J2GV64.org.wikimedia.wikipedia").is_ok());
        assert!(check_app_id("S32Z3HMYVQ.org.provenance-emu.provenance-watch.watchkitapp").is_ok());
        assert!(check_app_id("5A8RM3W5R7.org.fivecalls.FiveCalls-ios").is_ok());
        for bad in [
            "",
            "ABCDE12345",
            "ABCDE1234.com.x",
            "abcde12345.com.x",
            "ABCDE12345.",
            "ABCDE12345.com..x",
            "ABCDE12345.com x",
        ] {
            assert!(check_app_id(bad).is_err(), "{bad:?}");
        }
    }
}
