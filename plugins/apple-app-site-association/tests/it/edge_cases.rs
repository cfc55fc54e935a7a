//! One test per diagnostic path of the AASA parser, with locators and the candidates kept.

use url::Url;
use wellknown_apple_app_site_association::interpret;
use wellknown_conformance::{at_pointer as e, code_pointers as diags};
use wellknown_core::{CandidateKind, FetchMeta, Locator, Report, Timestamp};

fn meta_at(url: &str, content_type: Option<&str>) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).expect("url"), content_type, Timestamp::UNIX_EPOCH)
}

fn run(body: &str) -> Report {
    interpret(body.as_bytes(), &meta_at("https://a.example/.well-known/apple-app-site-association", None))
}

#[test]
fn top_level_and_details_shape() {
    let r = run("[]");
    assert_eq!(diags(&r.errors), [e("not_json_object", "")]);
    assert_eq!(r.kind, "invalid");
    assert_eq!(diags(&run(r#"{"applinks":[]}"#).errors), [e("not_json_object", "/applinks")]);
    assert_eq!(diags(&run(r#"{"applinks":{"apps":[]}}"#).errors), [e("details_not_array", "/applinks")]);
    assert_eq!(diags(&run(r#"{"applinks":{"details":"x"}}"#).errors), [e("details_not_array", "/applinks/details")]);

    // Early iOS 9 dictionary form: diagnosed, but its apps and paths are read.
    let dict =
        run(r#"{"applinks":{"apps":[],"details":{"ABCDE12345.com.example.app":{"paths":["/a/*","NOT /a/b"]}}}}"#);
    assert_eq!(diags(&dict.errors), [e("details_not_array", "/applinks/details")]);
    assert_eq!(dict.values(CandidateKind::App).collect::<Vec<_>>(), ["apple:ABCDE12345.com.example.app"]);
    assert_eq!(dict.values(CandidateKind::Path).collect::<Vec<_>>(), ["/a/*", "/a/b"]);
    assert_eq!(dict.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://a.example/a/b"]);
    let url = dict.candidates.iter().find(|c| c.kind() == CandidateKind::Url).expect("url");
    assert!(url.has_flag("excluded"));
    assert_eq!(
        url.locator(),
        Some(Locator::JsonPointer("/applinks/details/ABCDE12345.com.example.app/paths/1".into()))
    );
}

#[test]
fn app_id_rules() {
    let r = run(r#"{"applinks":{"details":[{"appIDs":["abcde12345.com.x", 7],"components":[]},{"components":[]}]},
                    "webcredentials":{"apps":"ABCDE12345.com.x"},"appclips":{"apps":["SHORT.com.x.Clip"]}}"#);
    assert_eq!(
        diags(&r.errors),
        [
            e("invalid_app_id", "/applinks/details/0/appIDs/0"),
            e("invalid_appIDs", "/applinks/details/0/appIDs/1"),
            e("invalid_appIDs", "/applinks/details/1"),
            e("invalid_app_id", "/webcredentials"),
            e("invalid_app_id", "/appclips/apps/0"),
        ]
    );
    let apps: Vec<_> = r.candidates.iter().filter(|c| c.kind() == CandidateKind::App).collect();
    assert_eq!(apps.len(), 2);
    assert!(apps.iter().all(|c| c.has_flag("invalid")));
    assert_eq!(apps[1].relation(), "appclips");
    assert_eq!(
        diags(&run(r#"{"applinks":{"details":[{"appID":5,"paths":[]}]}}"#).errors),
        [e("invalid_app_id", "/applinks/details/0/appID")]
    );
}

#[test]
fn paths_and_components_types() {
    let r = run(r#"{"applinks":{"details":[{"appID":"ABCDE12345.com.x","paths":"/a/*"}]}}"#);
    assert_eq!(diags(&r.errors), [e("invalid_paths", "/applinks/details/0/paths")]);
    assert_eq!(diags(&r.warnings), [e("legacy_applinks_format", "/applinks/details")]);

    let r = run(r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":{"/":"/a"}}]}}"#);
    assert_eq!(diags(&r.errors), [e("invalid_component", "/applinks/details/0/components")]);

    let r = run(r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":[
            "/a", {"/": 3}, {"/":"/b","exclude":"yes","?":{"q":1},"caseSensitive":false}]}]}}"#);
    assert_eq!(
        diags(&r.errors),
        [
            e("invalid_component", "/applinks/details/0/components/0"),
            e("invalid_component", "/applinks/details/0/components/1/~1"),
            e("invalid_component", "/applinks/details/0/components/2/?"),
            e("invalid_component", "/applinks/details/0/components/2/exclude"),
        ]
    );
    // A non-boolean exclude: the pattern is kept, but not silently read as included: its path and
    // url are flagged `invalid_exclude` (and not `excluded`).
    assert_eq!(r.values(CandidateKind::Path).collect::<Vec<_>>(), ["/b"]);
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://a.example/b"]);
    for c in r.candidates.iter().filter(|c| matches!(c.kind(), CandidateKind::Path | CandidateKind::Url)) {
        assert_eq!(c.flags().collect::<Vec<_>>(), ["invalid_exclude"], "{}", c.value());
    }
}

#[test]
fn dot_segment_patterns_give_no_url() {
    let r = run(r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":[
            {"/":"/../../etc/passwd"},{"/":"/a/%2E%2e/b","exclude":true},{"/":"/ok/./*"},{"/":"/a.b/..c"}]},
            {"appID":"ABCDE12345.com.y","paths":["NOT /x/.."]}]}}"#);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(
        diags(&r.warnings),
        [
            e("dot_segment_path", "/applinks/details/0/components/0/~1"),
            e("dot_segment_path", "/applinks/details/0/components/1/~1"),
            e("dot_segment_path", "/applinks/details/0/components/2/~1"),
            e("dot_segment_path", "/applinks/details/1/paths/0"),
            e("mixed_applinks_formats", "/applinks/details"),
        ]
    );
    // Every path is kept as written, flagged; only the pattern without a dot segment names a URL.
    let paths: Vec<(&str, Vec<&str>)> = r
        .candidates
        .iter()
        .filter(|c| c.kind() == CandidateKind::Path)
        .map(|c| (c.value(), c.flags().collect()))
        .collect();
    assert_eq!(
        paths,
        [
            ("/../../etc/passwd", vec!["dot_segment"]),
            ("/a/%2E%2e/b", vec!["excluded", "dot_segment"]),
            ("/ok/./*", vec!["dot_segment"]),
            ("/a.b/..c", vec![]),
            ("/x/..", vec!["excluded", "dot_segment"]),
        ]
    );
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://a.example/a.b/..c"]);
}

#[test]
fn a_document_without_services_is_a_warning() {
    for body in ["{}", r#"{"applink":{"details":[]}}"#] {
        let r = run(body);
        assert!(r.errors.is_empty(), "{body}: {:?}", r.errors);
        assert_eq!(diags(&r.warnings), [e("no_services", "")], "{body}");
        assert_eq!(r.candidates.len(), 0);
    }
    // One service is enough: no warning.
    assert!(run(r#"{"webcredentials":{"apps":["ABCDE12345.com.x"]}}"#).warnings.is_empty());
}

#[test]
fn formats_are_told_apart() {
    let new = run(r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":[{"/":"/a/*"}]}]}}"#);
    assert!(new.warnings.is_empty());
    let across = run(r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":[{"/":"/a/*"}]},
                                   {"appID":"ABCDE12345.com.y","paths":["/b/*"]}]}}"#);
    assert_eq!(diags(&across.warnings), [e("mixed_applinks_formats", "/applinks/details")]);
    assert_eq!(across.facts.get("applinks_format"), Some(&serde_json::json!("mixed")));
}

#[test]
fn literal_patterns_stay_on_the_origin() {
    let body = r##"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x"],"components":[
        {"/":"/account/settings"},{"/":"//evil.example/x"},{"/":"/a/$(lang)/b"},{"/":"/help/????"},
        {"/":"/account/settings","exclude":true},{"?":{"id":"1"}},{"#":"top"}]}]}}"##;
    let r = interpret(body.as_bytes(), &meta_at("https://a.example:8443/.well-known/apple-app-site-association", None));
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://a.example:8443/account/settings"]);
    assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["a.example"]);
    assert_eq!(r.values(CandidateKind::Path).count(), 5, "components without '/' name no path");
}

#[test]
fn transport_media_type_and_size() {
    let body = r#"{"webcredentials":{"apps":["ABCDE12345.com.x"]}}"#;
    let codes = |r: &Report| r.errors.iter().map(|d| d.code.clone()).collect::<Vec<_>>();
    let plain = interpret(body.as_bytes(), &meta_at("http://a.example/.well-known/apple-app-site-association", None));
    assert_eq!(codes(&plain), ["insecure_transport"]);
    for ok in [None, Some("application/json"), Some("application/json; charset=UTF-8")] {
        let r = interpret(body.as_bytes(), &meta_at("https://a.example/.well-known/apple-app-site-association", ok));
        assert!(r.valid(), "{ok:?}");
    }
    let signed = interpret(
        body.as_bytes(),
        &meta_at("https://a.example/.well-known/apple-app-site-association", Some("application/pkcs7-mime")),
    );
    assert_eq!(codes(&signed), ["invalid_content_type"]);
    let mut meta = meta_at("https://a.example/.well-known/apple-app-site-association", None);
    meta.truncated = true;
    let cut = interpret(br#"{"webcredentials":{"apps":["ABCDE12345.com.x"#, &meta);
    assert_eq!(codes(&cut), ["too_large", "invalid_json"]);
    let mut big = String::from(r#"{"webcredentials":{"apps":["ABCDE12345.com.x"]},"pad":""#);
    big.push_str(&"x".repeat(128 * 1024));
    big.push_str("\"}");
    let r = run(&big);
    assert_eq!(codes(&r), ["too_large"]);
    assert_eq!(r.values(CandidateKind::App).collect::<Vec<_>>(), ["apple:ABCDE12345.com.x"]);
}

/// A repeated `applinks` hides nothing: the app and paths of the first occurrence are candidates
/// (tryout4 item 1).
#[test]
fn duplicate_applinks_hides_nothing() {
    let r = run(
        r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.evil"],"components":[{"/":"/pay/*"}]}]},"applinks":{"details":[]}}"#,
    );
    // A warning: RFC 8259 section 4 says SHOULD, and Apple's format adds no uniqueness rule.
    assert!(r.valid());
    assert_eq!(diags(&r.warnings), [e("duplicate_member", "/applinks")]);
    assert_eq!(r.values(CandidateKind::App).collect::<Vec<_>>(), ["apple:ABCDE12345.com.evil"]);
    assert_eq!(r.values(CandidateKind::Path).collect::<Vec<_>>(), ["/pay/*"]);
}

/// A repeated `appIDs` inside a repeated `applinks`: the app of every occurrence is a candidate
/// (review 4 finding 4: the inner first occurrence was in no reading).
#[test]
fn nested_repeat_inside_a_replaced_applinks_hides_nothing() {
    let r = run(
        r#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.evil"],"appIDs":["ABCDE12345.com.other"],"components":[{"/":"/pay/*"}]}]},"applinks":{"details":[]}}"#,
    );
    let mut apps: Vec<&str> = r.values(CandidateKind::App).collect();
    apps.sort_unstable();
    assert_eq!(apps, ["apple:ABCDE12345.com.evil", "apple:ABCDE12345.com.other"]);
    assert_eq!(r.values(CandidateKind::Path).collect::<Vec<_>>(), ["/pay/*"]);
}
