//! The password file (`~/.pgpass`, `PGPASSFILE`, the `passfile` connection parameter), as libpq
//! reads it (PostgreSQL documentation, "The Password File", section 34.16).
//!
//! One entry per line, `hostname:port:database:username:password`; `*` in any of the first four
//! fields matches anything; `\:` and `\\` stand for a colon and a backslash; lines starting with `#`
//! and lines with fewer than five fields are ignored. The first matching line wins. A host given as
//! a Unix-domain socket directory matches the entry `localhost`.

/// What a connection is looking up: the server's host, port, database and user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookup<'a> {
    /// Host name or address as given (a socket directory is matched as `localhost`).
    pub host: &'a str,
    /// TCP port.
    pub port: u16,
    /// Database name.
    pub database: &'a str,
    /// User (role) name.
    pub user: &'a str,
}

/// The password of the first entry of `text` (a password file's contents) matching `want`, if any.
/// Never fails: a malformed line is skipped, as libpq skips it.
pub fn find(text: &str, want: &Lookup<'_>) -> Option<String> {
    let host = if want.host.starts_with('/') { "localhost" } else { want.host };
    let port = want.port.to_string();
    let wanted = [host, port.as_str(), want.database, want.user];
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields = split(line);
        if fields.len() < 5 {
            continue;
        }
        if fields[..4].iter().zip(wanted).all(|(f, w)| f == "*" || f == w) {
            // A password may itself contain unescaped colons after the fourth field.
            return Some(fields[4..].join(":"));
        }
    }
    None
}

/// Splits one line at unescaped colons, undoing `\:` and `\\`.
fn split(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next) => fields.last_mut().map_or((), |f| f.push(next)),
                None => fields.last_mut().map_or((), |f| f.push('\\')),
            },
            ':' => fields.push(String::new()),
            c => fields.last_mut().map_or((), |f| f.push(c)),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want<'a>(host: &'a str, user: &'a str) -> Lookup<'a> {
        Lookup { host, port: 5432, database: "wk", user }
    }

    #[test]
    fn first_matching_entry_wins_with_wildcards_and_escapes() {
        let text = "# comment\n\
                    db.example:5432:wk:alice:first\n\
                    *:*:*:alice:second\n\
                    127.0.0.1:5432:*:bob:p\\:w\\\\d\n\
                    short:line\n\
                    *:5432:wk:carol:with:colons\r\n";
        assert_eq!(find(text, &want("db.example", "alice")).as_deref(), Some("first"));
        assert_eq!(find(text, &want("other.example", "alice")).as_deref(), Some("second"));
        assert_eq!(find(text, &want("127.0.0.1", "bob")).as_deref(), Some("p:w\\d"));
        assert_eq!(find(text, &want("h", "carol")).as_deref(), Some("with:colons"));
        assert_eq!(find(text, &want("127.0.0.2", "bob")), None);
        assert_eq!(find("", &want("h", "alice")), None);
    }

    #[test]
    fn a_socket_directory_matches_localhost() {
        let text = "localhost:5432:wk:dave:sock\n";
        assert_eq!(find(text, &want("/var/run/postgresql", "dave")).as_deref(), Some("sock"));
        let other_port = Lookup { port: 5433, ..want("localhost", "dave") };
        assert_eq!(find(text, &other_port), None);
    }
}
