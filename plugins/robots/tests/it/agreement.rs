//! Agreement with `texting_robots` and `robotstxt` (Google's matcher ported to Rust) on the
//! benchmark's inputs: 300 real robots.txt files and the same (agent, URL) queries per file
//! (`benches/queries.rs`). Not timed. Run with `--nocapture` to see every disagreement; the counts
//! and the reasons are in `docs/benchmarks/robots.md`.

#[path = "../../benches/queries.rs"]
mod queries;

use queries::{AGENTS, load_corpus, query_count, run_ours, run_robotstxt, run_texting};
use wellknown_robots::RobotsTxt;

struct Disagreement {
    host: String,
    bom: bool,
    agent: &'static str,
    url: String,
    ours: bool,
    rule: String,
}

fn compare(name: &str, ours: &[bool], theirs: &[bool]) -> Vec<Disagreement> {
    let inputs = load_corpus();
    let mut out = Vec::new();
    let mut i = 0;
    for input in &inputs {
        let robots = RobotsTxt::parse(&input.body);
        for agent in AGENTS {
            for url in &input.urls {
                if ours.get(i) != theirs.get(i) {
                    let v = robots.check(agent, url);
                    let rule =
                        v.rule.map(|r| format!("line {} {}: {}", r.line, r.directive, r.pattern)).unwrap_or_default();
                    out.push(Disagreement {
                        host: input.host.clone(),
                        bom: input.body.starts_with(b"\xEF\xBB\xBF"),
                        agent,
                        url: url.clone(),
                        ours: v.allowed,
                        rule,
                    });
                }
                i += 1;
            }
        }
    }
    println!("== {name}: {} disagreements", out.len());
    for d in &out {
        println!("{}\t{}\t{}\tours={}\t{}", d.host, d.agent, d.url, if d.ours { "allow" } else { "disallow" }, d.rule);
    }
    out
}

#[test]
fn agreement_with_texting_robots_and_robotstxt() {
    let inputs = load_corpus();
    assert_eq!(inputs.len(), 300);
    let n = query_count(&inputs);
    let (mut ours, mut texting, mut google) = (Vec::new(), Vec::new(), Vec::new());
    run_ours(&inputs, &mut ours);
    run_texting(&inputs, &mut texting);
    run_robotstxt(&inputs, &mut google);
    assert_eq!((ours.len(), texting.len(), google.len()), (n, n, n));
    let t = compare("texting_robots", &ours, &texting);
    let g = compare("robotstxt", &ours, &google);
    println!("queries {n}; agree with texting_robots {}; agree with robotstxt {}", n - t.len(), n - g.len());

    // Every disagreement must be one RFC 9309 decides in our favour (docs/benchmarks/robots.md).
    assert!(t.is_empty(), "unexplained disagreements with texting_robots: {}", t.len());
    let robots_txt = g.iter().filter(|d| d.url.ends_with("/robots.txt")).count();
    let bom = g.iter().filter(|d| !d.url.ends_with("/robots.txt") && d.bom).count();
    println!("robotstxt: {robots_txt} on /robots.txt (RFC 9309 2.2.2), {bom} after a UTF-8 BOM (port skips no BOM)");
    let unexplained: Vec<_> = g.iter().filter(|d| !d.url.ends_with("/robots.txt") && !d.bom).map(|d| &d.url).collect();
    assert!(unexplained.is_empty(), "unexplained disagreements with robotstxt: {unexplained:?}");
    assert!(g.iter().filter(|d| d.url.ends_with("/robots.txt")).all(|d| d.ours));
}

/// The conformance cases answered by the other two crates: where they differ from the expected
/// answer (RFC 9309, or Google where the RFC is silent). Printed for the benchmark document; the
/// counts are pinned so a change in either crate or in the cases is noticed.
#[test]
fn conformance_cases_with_the_other_crates() {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/robots/robots_cases.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut texting_wrong, mut google_wrong, mut total) = (Vec::new(), Vec::new(), 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        let field = |k: &str| case.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        let (id, robots, agent, url) = (field("id"), field("robots"), field("agent"), field("url"));
        let want = case.get("allowed").and_then(|v| v.as_bool()).unwrap_or_default();
        total += 1;
        let texting = texting_robots::Robot::new(&agent, robots.as_bytes()).map(|r| r.allowed(&url)).unwrap_or(true);
        if texting != want {
            texting_wrong.push(id.clone());
        }
        let google = robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(&robots, &agent, &url);
        if google != want {
            google_wrong.push(id);
        }
    }
    println!("conformance cases: {total}");
    println!("texting_robots differs on {}: {texting_wrong:?}", texting_wrong.len());
    println!("robotstxt differs on {}: {google_wrong:?}", google_wrong.len());
    assert_eq!((total, texting_wrong.len(), google_wrong.len()), (96, 10, 8));
}
