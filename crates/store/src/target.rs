//! Which database a command uses: the one rule every command follows.

use std::fmt;
use std::path::PathBuf;

/// A database to open: an SQLite file or a server at a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// An SQLite file, created when missing.
    File(PathBuf),
    /// A `postgres://`, `postgresql://` or `sqlite:` URL, as sqlx reads it.
    Url(String),
}

/// Where the database named came from, for messages ("SQLite file x.db, from --db").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Flag,
    DatabaseUrl,
    ArbiterDb,
    Default,
}

/// The database a command uses, and where it was named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub target: Target,
    pub source: Source,
}

/// An environment variable that names no database arbiter can open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTarget(pub String);

impl fmt::Display for BadTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadTarget {}

/// The file arbiter uses when nothing names another.
pub const DEFAULT_FILE: &str = "arbiter.db";

impl Target {
    /// A URL (`postgres://…`, `postgresql://…`, `sqlite:…`) as it is, anything else a file.
    pub fn parse(text: &str) -> Target {
        if is_url(text) {
            Target::Url(text.to_string())
        } else {
            Target::File(PathBuf::from(text))
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Target::Url(u) if u.starts_with("postgres://") || u.starts_with("postgresql://"))
    }

    /// The URL sqlx opens: a file's path percent-encoded where a URL would misread it (`?`,
    /// `#`, `%`, spaces), opened read-write and created when missing.
    pub fn url(&self) -> String {
        match self {
            Target::Url(u) => u.clone(),
            Target::File(path) => {
                let mut url = String::from("sqlite:");
                for b in path.as_os_str().as_encoded_bytes() {
                    match b {
                        b'%' | b'?' | b'#' | b' ' | b'"' | b'<' | b'>' | b'`' | b'{' | b'}' | 0..=0x1f | 0x7f.. => {
                            url += &format!("%{b:02X}")
                        }
                        _ => url.push(*b as char),
                    }
                }
                url + "?mode=rwc"
            }
        }
    }
}

fn is_url(text: &str) -> bool {
    ["postgres://", "postgresql://", "sqlite:"]
        .iter()
        .any(|p| text.starts_with(p))
}

impl fmt::Display for Resolved {
    /// Never the URL itself: it may hold a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            Target::File(p) => write!(f, "SQLite file {}", p.display())?,
            Target::Url(_) if self.target.is_postgres() => f.write_str("PostgreSQL")?,
            Target::Url(_) => f.write_str("SQLite")?,
        }
        match self.source {
            Source::Flag => f.write_str(", from --db"),
            Source::DatabaseUrl => f.write_str(", from $DATABASE_URL"),
            Source::ArbiterDb => f.write_str(", from $ARBITER_DB"),
            Source::Default => Ok(()),
        }
    }
}

/// The database for every command: `--db` (a file or a URL), else `$DATABASE_URL` (a
/// `postgres://` or `sqlite:` URL), else `$ARBITER_DB` (a file or a URL), else the SQLite file
/// `arbiter.db`. Empty variables count as unset.
pub fn resolve(flag: Option<&str>) -> Result<Resolved, BadTarget> {
    resolve_with(flag, |name| std::env::var(name).ok())
}

/// [`resolve`] with the environment given (tests).
pub fn resolve_with(flag: Option<&str>, env: impl Fn(&str) -> Option<String>) -> Result<Resolved, BadTarget> {
    let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let (target, source) = if let Some(flag) = flag.filter(|f| !f.is_empty()) {
        (Target::parse(flag), Source::Flag)
    } else if let Some(url) = env("DATABASE_URL") {
        if !is_url(&url) {
            return Err(BadTarget(
                "DATABASE_URL is neither a postgres:// nor an sqlite: URL (for a file, use --db FILE or ARBITER_DB)"
                    .into(),
            ));
        }
        (Target::Url(url), Source::DatabaseUrl)
    } else if let Some(db) = env("ARBITER_DB") {
        (Target::parse(&db), Source::ArbiterDb)
    } else {
        (Target::File(DEFAULT_FILE.into()), Source::Default)
    };
    Ok(Resolved { target, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    const PG: &str = "postgres://u@h/db";

    #[test]
    fn point_one_database_resolution_follows_flag_database_url_arbiter_db_default() {
        let all = [("DATABASE_URL", PG), ("ARBITER_DB", "env.db")];
        let r = resolve_with(Some("flag.db"), env(&all)).unwrap();
        assert_eq!((r.target, r.source), (Target::File("flag.db".into()), Source::Flag));
        let r = resolve_with(Some("postgresql://x/y"), env(&all)).unwrap();
        assert_eq!(r.target, Target::Url("postgresql://x/y".into()));
        let r = resolve_with(None, env(&all)).unwrap();
        assert_eq!((r.target, r.source), (Target::Url(PG.into()), Source::DatabaseUrl));
        let r = resolve_with(None, env(&[("ARBITER_DB", "env.db"), ("DATABASE_URL", "")])).unwrap();
        assert_eq!((r.target, r.source), (Target::File("env.db".into()), Source::ArbiterDb));
        let r = resolve_with(None, env(&[("ARBITER_DB", PG)])).unwrap();
        assert!(r.target.is_postgres());
        let r = resolve_with(None, env(&[])).unwrap();
        assert_eq!(
            (r.target.clone(), r.source),
            (Target::File("arbiter.db".into()), Source::Default)
        );
        assert_eq!(r.to_string(), "SQLite file arbiter.db");
    }

    #[test]
    fn a_database_url_that_is_not_one_is_refused_not_ignored() {
        let e = resolve_with(None, env(&[("DATABASE_URL", "mysql://x"), ("ARBITER_DB", "a.db")])).unwrap_err();
        assert!(e.0.contains("DATABASE_URL"), "{e}");
        // --db still wins over a bad variable.
        assert!(resolve_with(Some("a.db"), env(&[("DATABASE_URL", "mysql://x")])).is_ok());
    }

    #[test]
    fn messages_never_show_a_url_and_its_password() {
        let r = resolve_with(None, env(&[("DATABASE_URL", "postgres://u:secret@h/db")])).unwrap();
        assert_eq!(r.to_string(), "PostgreSQL, from $DATABASE_URL");
    }

    #[test]
    fn file_names_a_url_would_misread_are_encoded() {
        assert_eq!(
            Target::parse("a b/c?#%.db").url(),
            "sqlite:a%20b/c%3F%23%25.db?mode=rwc"
        );
        assert_eq!(Target::parse("/tmp/x.db").url(), "sqlite:/tmp/x.db?mode=rwc");
        assert_eq!(Target::parse("sqlite::memory:").url(), "sqlite::memory:");
    }
}
