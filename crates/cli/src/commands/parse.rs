//! `wellknown parse PROBE FILE --url URL ...`: interpret one local file as if fetched from URL.
//!
//! The sitemap probe's report is written while the file is parsed
//! ([`wellknown_sitemap::write_report_streaming`]): a 50,000-URL file's candidates are never all in
//! memory. The object holds the same keys and values as the serialised `Report`, candidates first.
//! `--pretty` output is built in memory as for every other probe.

use std::io::{Read, Write};
use std::path::Path;

use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Report, Timestamp, probe_by_id, probe_ids};

use crate::args::ParseArgs;
use crate::exit;

/// Runs the command: prints one JSON report. Exit 0 when the document is valid, 1 when it has
/// errors, 2 on bad arguments.
pub fn run(args: &ParseArgs) -> Result<i32, String> {
    let Some(probe) = probe_by_id(&args.probe) else {
        return Err(format!("unknown probe {:?} (registered: {})", args.probe, probe_ids()));
    };
    let url = Url::parse(&args.url).map_err(|e| format!("--url {:?}: {e}", args.url))?;
    let now = match &args.now {
        Some(t) => t.parse::<Timestamp>().map_err(|e| format!("--now {t:?} is not an RFC 3339 instant: {e}"))?,
        None => Timestamp::now(),
    };
    // Read no more than the scan's fetcher would (the probe's fetch policy cap), so `parse` and
    // `scan` judge the same bytes and a huge file costs no more memory than the cap.
    let cap = probe.policy().max_body_bytes;
    let (body, truncated) = read_input_capped(&args.file, cap)?;
    // A local file has no media type: without --content-type, take the one the probe asks for, so
    // the report does not blame the server for a header it never sent.
    let content_type = args.content_type.clone().or_else(|| expected_media_type(probe.policy().accept.as_deref()));
    let mut meta = FetchMeta::synthetic(url.clone(), content_type.as_deref(), now);
    meta.status = Some(args.status);
    meta.size = body.len() as u64;
    meta.truncated = truncated;
    for r in &args.redirected_from {
        let u = Url::parse(r).map_err(|e| format!("--redirected-from {r:?}: {e}"))?;
        meta.redirect_chain.push(RedirectHop { url: u, status: 301 });
    }
    if let Some(first) = meta.redirect_chain.first() {
        meta.requested_url = first.url.clone();
    }
    if probe.id() == wellknown_sitemap::PROBE_ID && meta.is_success() && !args.pretty {
        let valid = stream_sitemap(&body, &meta)?;
        return Ok(if valid { exit::FOUND } else { exit::NOTHING });
    }
    let report = if meta.is_success() {
        probe.interpret(&body, &meta)
    } else {
        probe.interpret_unavailable(&meta).unwrap_or_else(|| {
            let mut r = Report::new(probe.id(), &url, "unavailable");
            r.error("http_status", format!("status {} is not a document to interpret", args.status), None);
            r
        })
    };
    let text = if args.pretty { serde_json::to_string_pretty(&report) } else { serde_json::to_string(&report) };
    super::print_line(&text.map_err(|e| e.to_string())?)?;
    Ok(if report.valid() { exit::FOUND } else { exit::NOTHING })
}

/// Reads `path` (`-` for standard input) up to `cap` bytes, as the fetcher reads a body under a
/// [`FetchPolicy`](wellknown_core::FetchPolicy) `max_body_bytes` of `cap`: the bytes up to the cap,
/// and whether there was more (the fetcher's `truncated`). Reads at most `cap + 1` bytes.
///
/// Errors: the file cannot be opened or read, as text.
pub fn read_input_capped(path: &Path, cap: u64) -> Result<(Vec<u8>, bool), String> {
    let limit = cap.saturating_add(1);
    let mut buf = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().take(limit).read_to_end(&mut buf).map_err(|e| format!("reading standard input: {e}"))
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(limit).read_to_end(&mut buf))
            .map_err(|e| format!("reading {}: {e}", path.display()))
    };
    read?;
    let truncated = buf.len() as u64 > cap;
    if truncated {
        buf.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    }
    Ok((buf, truncated))
}

/// The media type a probe prefers, from its `Accept` header value (RFC 9110 section 12.5.1): the
/// first range with the highest `q`, wildcards (`*/*`, `text/*`) skipped. None when there is none.
pub fn expected_media_type(accept: Option<&str>) -> Option<String> {
    let mut best: Option<(f32, &str)> = None;
    for range in accept?.split(',') {
        let mut parts = range.split(';');
        let essence = parts.next().unwrap_or("").trim();
        if essence.is_empty() || essence.contains('*') {
            continue;
        }
        let q =
            parts.find_map(|p| p.trim().strip_prefix("q=").and_then(|v| v.trim().parse::<f32>().ok())).unwrap_or(1.0);
        if best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, essence));
        }
    }
    best.filter(|(q, _)| *q > 0.0).map(|(_, e)| e.to_string())
}

/// Writes the sitemap report of `body` to standard output as one JSON line, while parsing. Returns
/// whether the report is valid. A closed pipe ends the process quietly, as `print_line` does.
fn stream_sitemap(body: &[u8], meta: &FetchMeta) -> Result<bool, String> {
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    match write_sitemap_line(body, meta, &mut out).and_then(|valid| out.flush().map(|()| valid)) {
        Ok(valid) => Ok(valid),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("writing to standard output: {e}")),
    }
}

/// The sitemap report as one JSON object and a newline (what the probe's `interpret` gives).
fn write_sitemap_line(body: &[u8], meta: &FetchMeta, out: &mut impl Write) -> std::io::Result<bool> {
    let valid =
        wellknown_sitemap::write_report_streaming(body, meta, &wellknown_sitemap::Limits::default(), &mut *out)?;
    out.write_all(b"\n")?;
    Ok(valid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_media_type_is_the_preferred_concrete_range() {
        assert_eq!(expected_media_type(Some("application/json")).as_deref(), Some("application/json"));
        assert_eq!(
            expected_media_type(Some("application/jwk-set+json, application/json")).as_deref(),
            Some("application/jwk-set+json")
        );
        assert_eq!(
            expected_media_type(Some("text/plain;q=0.5, application/xml, */*;q=0.1")).as_deref(),
            Some("application/xml")
        );
        assert_eq!(expected_media_type(Some("*/*")), None);
        assert_eq!(expected_media_type(Some("text/plain;q=0")), None);
        assert_eq!(expected_media_type(None), None);
    }

    #[test]
    fn input_is_read_up_to_the_cap() {
        let dir = std::env::temp_dir().join(format!("wk-parse-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("body");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_input_capped(&file, 4).unwrap(), (b"0123".to_vec(), true));
        assert_eq!(read_input_capped(&file, 10).unwrap(), (b"0123456789".to_vec(), false));
        assert_eq!(read_input_capped(&file, 0).unwrap(), (Vec::new(), true));
        assert!(read_input_capped(&dir.join("absent"), 4).unwrap_err().contains("absent"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn streamed_sitemap_report_equals_the_probe_report() {
        let probe = probe_by_id("sitemap").expect("sitemap probe linked");
        let bodies: [&[u8]; 3] = [
            b"<urlset><url><loc>https://a.example/m/1</loc><lastmod>bad</lastmod></url>\
              <url><loc>https://a.example/m/1</loc></url><url><loc>https://b.example/2</loc></url></urlset>",
            b"<sitemapindex><sitemap><loc>https://a.example/m/c.xml</loc></sitemap></sitemapindex>",
            b"https://a.example/m/a\nnot a url\n",
        ];
        for body in bodies {
            let meta =
                FetchMeta::synthetic(Url::parse("https://a.example/m/s.xml").unwrap(), None, Timestamp::UNIX_EPOCH);
            let mut out = Vec::new();
            let valid = write_sitemap_line(body, &meta, &mut out).unwrap();
            assert_eq!(out.last(), Some(&b'\n'));
            let streamed: serde_json::Value = serde_json::from_slice(&out).unwrap();
            let report = probe.interpret(body, &meta);
            assert_eq!(streamed, serde_json::to_value(&report).unwrap());
            assert_eq!(valid, report.valid());
        }
    }
}
