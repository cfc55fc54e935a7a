//! One test per diagnostic path of the statement-list parser, with locators and the candidates kept.

use url::Url;
use wellknown_assetlinks::interpret;
use wellknown_conformance::{at_pointer as e, code_pointers};
use wellknown_core::{CandidateKind, FetchMeta, RedirectHop, Report, Timestamp};

const FP: &str = "10:39:38:EE:45:37:E5:9E:8E:E7:92:F6:54:50:4F:B8:34:6F:C6:B3:46:D0:BB:C4:41:5F:C3:39:FC:FC:8E:C1";

fn meta_at(url: &str, content_type: Option<&str>) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).expect("url"), content_type, Timestamp::UNIX_EPOCH)
}

fn run(body: &str) -> Report {
    interpret(body.as_bytes(), &meta_at("https://a.example/.well-known/assetlinks.json", Some("application/json")))
}

/// `(code, json pointer)` of every error.
fn errors(r: &Report) -> Vec<(String, Option<String>)> {
    code_pointers(&r.errors)
}

fn android(package: &str, fps: &str) -> String {
    format!(
        r#"[{{"relation":["delegate_permission/common.handle_all_urls"],
             "target":{{"namespace":"android_app","package_name":{package},"sha256_cert_fingerprints":{fps}}}}}]"#
    )
}

#[test]
fn top_level_must_be_an_array_of_objects() {
    let r = run(r#"{"relation":[],"target":{}}"#);
    assert_eq!(errors(&r), [e("not_json_array", "")]);
    assert_eq!(r.kind, "invalid");
    let r = run(r#"[1, "x"]"#);
    assert_eq!(errors(&r), [e("not_json_object", "/0"), e("not_json_object", "/1")]);
    assert_eq!(errors(&run("[]")), [e("no_statements", "")]);
}

#[test]
fn relation_rules() {
    let web = r#""target":{"namespace":"web","site":"https://b.example"}"#;
    let r = run(&format!(
        r#"[{{"relation":["delegate_permission/*", 3, "delegate_permission/common.get_login_creds"],{web}}}]"#
    ));
    assert_eq!(errors(&r), [e("invalid_relation", "/0/relation/0"), e("invalid_relation", "/0/relation/1")]);
    let origin = r.candidates.iter().find(|c| c.kind() == CandidateKind::Origin).expect("origin");
    assert_eq!(origin.hint("relations"), Some("delegate_permission/common.get_login_creds"));
    assert_eq!(
        errors(&run(&format!(r#"[{{"relation":"delegate_permission/common.x",{web}}}]"#))),
        [e("invalid_relation", "/0/relation")]
    );
    assert_eq!(errors(&run(&format!(r#"[{{"relation":[],{web}}}]"#))), [e("missing_relation", "/0/relation")]);
    assert_eq!(errors(&run(&format!(r#"[{{{web}}}]"#))), [e("missing_relation", "/0")]);
}

#[test]
fn target_rules() {
    let rel = r#""relation":["delegate_permission/common.handle_all_urls"]"#;
    assert_eq!(errors(&run(&format!("[{{{rel}}}]"))), [e("missing_target", "/0")]);
    assert_eq!(
        errors(&run(&format!(r#"[{{{rel},"target":"https://b.example"}}]"#))),
        [e("missing_target", "/0/target")]
    );
    assert_eq!(
        errors(&run(&format!(r#"[{{{rel},"target":{{"site":"https://b.example"}}}}]"#))),
        [e("unknown_namespace", "/0/target")]
    );
    assert_eq!(
        errors(&run(&format!(r#"[{{{rel},"target":{{"namespace":"ios_app","appid":"585027354"}}}}]"#))),
        [e("unknown_namespace", "/0/target/namespace")]
    );
}

#[test]
fn android_app_rules() {
    let r = run(&android(r#""B A D""#, &format!(r#"["{FP}"]"#)));
    assert_eq!(errors(&r), [e("invalid_package_name", "/0/target/package_name")]);
    let app = r.candidates.iter().find(|c| c.kind() == CandidateKind::App).expect("app kept");
    assert_eq!(app.value(), "android:B A D");
    assert!(app.has_flag("invalid"));

    let missing = r#"[{"relation":["delegate_permission/common.handle_all_urls"],
        "target":{"namespace":"android_app","sha256_cert_fingerprints":["00"]}}]"#;
    assert_eq!(
        errors(&run(missing)),
        [e("missing_package_name", "/0/target"), e("invalid_fingerprint", "/0/target/sha256_cert_fingerprints/0")]
    );
    let no_fps = r#"[{"relation":["delegate_permission/common.handle_all_urls"],
        "target":{"namespace":"android_app","package_name":"org.example.app"}}]"#;
    assert_eq!(errors(&run(no_fps)), [e("invalid_fingerprint", "/0/target")]);
    assert_eq!(
        errors(&run(&android(r#""org.example.app""#, "[]"))),
        [e("invalid_fingerprint", "/0/target/sha256_cert_fingerprints")]
    );
    assert_eq!(
        errors(&run(&android(r#""org.example.app""#, &format!(r#""{FP}""#)))),
        [e("invalid_fingerprint", "/0/target/sha256_cert_fingerprints")]
    );

    let lower = run(&android(r#""org.example.app""#, &format!(r#"["{}", {{}}]"#, FP.to_ascii_lowercase())));
    assert_eq!(
        errors(&lower),
        [
            e("invalid_fingerprint", "/0/target/sha256_cert_fingerprints/0"),
            e("invalid_fingerprint", "/0/target/sha256_cert_fingerprints/1")
        ]
    );
    let key = lower.candidates.iter().find(|c| c.kind() == CandidateKind::Key).expect("key kept");
    assert_eq!(key.value(), format!("sha256:{FP}"), "normalised to upper case");
    assert!(key.has_flag("invalid"));
}

#[test]
fn web_site_rules() {
    let stmt = |site: &str| {
        format!(
            r#"[{{"relation":["delegate_permission/common.get_login_creds"],"target":{{"namespace":"web","site":{site}}}}}]"#
        )
    };
    let ok = run(&stmt(r#""https://Login.Example:8443""#));
    assert!(ok.valid(), "{:?}", ok.errors);
    assert_eq!(ok.values(CandidateKind::Origin).collect::<Vec<_>>(), ["https://login.example:8443"]);
    assert_eq!(ok.values(CandidateKind::Host).collect::<Vec<_>>(), ["login.example"]);

    let slash = run(&stmt(r#""https://b.example/""#));
    assert_eq!(errors(&slash), [e("invalid_web_site", "/0/target/site")]);
    let origin = slash.candidates.iter().find(|c| c.kind() == CandidateKind::Origin).expect("kept");
    assert_eq!((origin.value(), origin.has_flag("invalid")), ("https://b.example", true));
    // The URL a site with a path names is a candidate too, flagged; a valid site gives none.
    let url = |r: &wellknown_core::Report| {
        r.candidates
            .iter()
            .find(|c| c.kind() == CandidateKind::Url)
            .map(|c| (c.value().to_string(), c.has_flag("invalid")))
    };
    assert_eq!(url(&slash), Some(("https://b.example/".to_string(), true)));
    let path = run(&stmt(r#""https://B.example/app?x=1""#));
    assert_eq!(errors(&path), [e("invalid_web_site", "/0/target/site")]);
    assert_eq!(url(&path), Some(("https://b.example/app?x=1".to_string(), true)));
    assert_eq!(path.values(CandidateKind::Host).collect::<Vec<_>>(), ["b.example"]);
    let c = path.candidates.iter().find(|c| c.kind() == CandidateKind::Url).expect("url");
    assert_eq!(c.relation(), "asset_link");
    assert_eq!(c.hint("relations"), Some("delegate_permission/common.get_login_creds"));
    assert_eq!(url(&ok), None);

    assert_eq!(errors(&run(&stmt("7"))), [e("invalid_web_site", "/0/target/site")]);
    let no_site = r#"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web"}}]"#;
    assert_eq!(errors(&run(no_site)), [e("invalid_web_site", "/0/target")]);
    let garbage = run(&stmt(r#""b.example""#));
    assert_eq!(errors(&garbage), [e("invalid_web_site", "/0/target/site")]);
    assert!(garbage.candidates.is_empty());
}

#[test]
fn include_rules() {
    let with_target =
        run(r#"[{"include":"https://a.example/more.json","target":{"namespace":"web","site":"https://b.example"},
             "relation":["delegate_permission/common.get_login_creds"]}]"#);
    assert_eq!(errors(&with_target), [e("include_with_other_fields", "/0")]);
    assert_eq!(with_target.values(CandidateKind::Origin).collect::<Vec<_>>(), ["https://b.example"]);
    // An include statement has no relation nor target: the one it lacks is not also missing.
    let target_only = run(r#"[{"target":{"namespace":"web","site":"https://b.example"},
             "include":"https://a.example/more.json"}]"#);
    assert_eq!(errors(&target_only), [e("include_with_other_fields", "/0")]);
    assert_eq!(target_only.values(CandidateKind::Host).collect::<Vec<_>>(), ["b.example", "a.example"]);
    assert_eq!(target_only.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://a.example/more.json"]);
    assert_eq!(target_only.follow_ups.len(), 1);
    let relation_only =
        run(r#"[{"include":"https://a.example/more.json","relation":["delegate_permission/common.get_login_creds"]}]"#);
    assert_eq!(errors(&relation_only), [e("include_with_other_fields", "/0")]);
    let bad_relation = run(r#"[{"include":"https://a.example/more.json","relation":["Bad"]}]"#);
    assert_eq!(errors(&bad_relation), [e("include_with_other_fields", "/0"), e("invalid_relation", "/0/relation/0")]);

    let extensible = run(r#"[{"include":"https://a.example/more.json","magicfield":{"foo":"bar"}}]"#);
    assert!(extensible.valid(), "non-standard members are allowed next to include (comptest2005)");
    assert_eq!(extensible.follow_ups.len(), 1);

    let insecure = run(r#"[{"include":"http://c.example/more.json"}]"#);
    assert_eq!(errors(&insecure), [e("insecure_include", "/0/include")]);
    assert!(insecure.follow_ups.is_empty(), "verifiers refuse it, so it is not followed");
    let url = insecure.candidates.iter().find(|c| c.kind() == CandidateKind::Url).expect("url kept");
    assert_eq!((url.value(), url.has_flag("insecure")), ("http://c.example/more.json", true));

    let plain = interpret(
        br#"[{"include":"http://c.example/more.json"}]"#,
        &meta_at("http://a.example/.well-known/assetlinks.json", Some("application/json")),
    );
    assert_eq!(plain.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["insecure_transport"]);
    assert_eq!(plain.follow_ups.len(), 1, "an http list may include an http list (comptest5008)");

    assert_eq!(errors(&run(r#"[{"include":42}]"#)), [e("invalid_include", "/0/include")]);
    assert_eq!(errors(&run(r#"[{"include":"/relative.json"}]"#)), [e("invalid_include", "/0/include")]);
    assert_eq!(errors(&run(r#"[{"include":"ftp://c.example/x"}]"#)), [e("invalid_include", "/0/include")]);
}

#[test]
fn transport_and_media_type() {
    let body = android(r#""org.example.app""#, &format!(r#"["{FP}"]"#));
    let mut meta =
        meta_at("https://www.a.example/.well-known/assetlinks.json", Some("application/json; charset=utf-8"));
    assert!(interpret(body.as_bytes(), &meta).valid());
    meta.redirect_chain =
        vec![RedirectHop { url: Url::parse("https://a.example/.well-known/assetlinks.json").unwrap(), status: 301 }];
    meta.truncated = true;
    let r = interpret(body.as_bytes(), &meta);
    let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["redirected", "too_large"]);
    assert_eq!(r.values(CandidateKind::App).collect::<Vec<_>>(), ["android:org.example.app"]);

    let none = interpret(body.as_bytes(), &meta_at("https://a.example/.well-known/assetlinks.json", None));
    assert_eq!(none.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["invalid_content_type"]);
    let latin = interpret(
        body.as_bytes(),
        &meta_at("https://a.example/.well-known/assetlinks.json", Some("application/json; charset=iso-8859-1")),
    );
    assert_eq!(latin.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["invalid_charset"]);
    let html = interpret(
        b"<!doctype html><title>404</title>",
        &meta_at("https://a.example/.well-known/assetlinks.json", Some("text/html")),
    );
    assert_eq!(
        html.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
        ["invalid_content_type", "invalid_json"]
    );
    assert_eq!(html.kind, "invalid");
}

/// A repeated member name hides nothing: the package a first-wins verifier reads is an app too, and
/// the key keeps the app it signs in each reading (tryout4 item 1).
#[test]
fn duplicate_members_keep_every_app_and_key_pairing() {
    let body = format!(
        r#"[{{"relation":["delegate_permission/common.handle_all_urls"],
             "target":{{"namespace":"android_app","package_name":"com.evil","package_name":"com.good",
                        "sha256_cert_fingerprints":["{FP}"]}}}}]"#
    );
    let r = run(&body);
    // A warning: RFC 8259 section 4 says SHOULD, and Digital Asset Links adds no uniqueness rule.
    assert!(r.valid());
    assert_eq!(code_pointers(&r.warnings), [e("duplicate_member", "/0/target/package_name")]);
    let apps: Vec<&str> = r.values(CandidateKind::App).collect();
    assert_eq!(apps, ["android:com.good", "android:com.evil"]);
    let key_apps: Vec<(&str, Option<&str>)> =
        r.candidates.iter().filter(|c| c.kind() == CandidateKind::Key).map(|c| (c.value(), c.hint("app"))).collect();
    let key = format!("sha256:{FP}");
    assert_eq!(key_apps, [(key.as_str(), Some("android:com.good")), (key.as_str(), Some("android:com.evil"))]);
    assert_eq!(r.facts["statements"], 1);
}

/// 23,000 includes next to a repeated name (a 1 MB list): every include is one follow-up, and the
/// alternate reading's follow-ups are merged through a hash set (review 4 finding 2: the merge was
/// quadratic).
#[test]
fn many_includes_with_a_repeated_name() {
    let mut body =
        String::from(r#"[{"include":"https://a.example/dup.json","include":"https://a.example/first.json"}"#);
    for i in 0..23_000 {
        body.push_str(&format!(r#",{{"include":"https://a.example/{i}.json"}}"#));
    }
    body.push(']');
    let r = run(&body);
    assert_eq!(r.facts["statements"], 23_001);
    assert_eq!(r.follow_ups.len(), 23_002);
    assert_eq!(r.follow_ups[0].url.as_str(), "https://a.example/first.json");
    assert_eq!(r.follow_ups[23_000].url.as_str(), "https://a.example/22999.json");
    assert_eq!(r.follow_ups[23_001].url.as_str(), "https://a.example/dup.json");
    assert!(r.follow_ups.iter().all(|f| f.role == "include"));
}
