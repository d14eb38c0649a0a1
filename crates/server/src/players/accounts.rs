//! What a name and a password must be, and the password's hash (argon2id, salted, in the PHC
//! string form that carries its own parameters).

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::error::{ApiError, Problem};

pub const NAME_MIN: usize = 2;
pub const NAME_MAX: usize = 20;
pub const PASSWORD_MIN: usize = 8;
/// Bytes: argon2 takes any length, but a request that big is no password.
pub const PASSWORD_MAX: usize = 256;
pub const DISPLAY_MAX: usize = 30;

/// An account's name: 2 to 20 letters (any script), digits, `_` or `-`, beginning with a
/// letter or digit. It is also the player page's address, so nothing that needs escaping.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if !(NAME_MIN..=NAME_MAX).contains(&n) {
        return Err(ApiError::bad(
            Problem::NameLength,
            format!("name: {NAME_MIN} to {NAME_MAX} characters (this one has {n})"),
        )
        .arg("min", NAME_MIN)
        .arg("max", NAME_MAX)
        .arg("count", n));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(ApiError::bad(
            Problem::NameCharacter,
            format!("name: letters, digits, _ and - only (not {c:?})"),
        )
        .arg("character", c.to_string()));
    }
    if !name.chars().next().is_some_and(char::is_alphanumeric) {
        return Err(ApiError::bad(
            Problem::NameStart,
            "name: begins with a letter or a digit",
        ));
    }
    Ok(())
}

pub fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < PASSWORD_MIN {
        return Err(ApiError::bad(
            Problem::PasswordShort,
            format!("password: at least {PASSWORD_MIN} characters"),
        )
        .arg("min", PASSWORD_MIN));
    }
    if password.len() > PASSWORD_MAX {
        return Err(
            ApiError::bad(Problem::PasswordLong, format!("password: at most {PASSWORD_MAX} bytes"))
                .arg("max", PASSWORD_MAX),
        );
    }
    Ok(())
}

/// A display name trimmed, or why it cannot be one: 1 to 30 characters, no control characters.
pub fn display_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let n = name.chars().count();
    if !(1..=DISPLAY_MAX).contains(&n) {
        return Err(ApiError::bad(
            Problem::DisplayNameLength,
            format!("name: 1 to {DISPLAY_MAX} characters once trimmed (this one has {n})"),
        )
        .arg("max", DISPLAY_MAX)
        .arg("count", n));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad(
            Problem::DisplayNameControl,
            "name: no control characters",
        ));
    }
    Ok(name.to_string())
}

/// Hashes computed at once at most: each takes argon2's 19 MiB for tens of milliseconds, and
/// a flood of sign-ins under many names must not take the server's memory with it.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Runs `work` (a hash or a check) off the async threads, when its turn comes.
pub async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    let _turn = HASHING.acquire().await.map_err(|e| ApiError::internal(e.to_string()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// Whether `password` is the password of an account whose stored hash is `stored`; `None`
/// (no such account) is checked against a hash of nothing, so the time taken does not tell
/// names that have accounts from names that do not.
pub fn verify_or_not(password: &str, stored: Option<&str>) -> bool {
    static NOBODY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    match stored {
        Some(h) => verify(password, h),
        None => {
            let nobody = NOBODY.get_or_init(|| hash("no account has this password").unwrap_or_default());
            verify(password, nobody);
            false
        }
    }
}

/// The argon2id hash of `password` with a fresh salt. Slow on purpose: run it through
/// [`off_thread`].
pub fn hash(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("hashing: {e}")))
}

/// Whether `password` is the one `stored` (a PHC string) was made from.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["ab", "李白", "Ann_2", "x-y", "12345678901234567890"] {
            check_name(ok).unwrap();
        }
        for (bad, why) in [
            ("a", "2 to 20"),
            ("123456789012345678901", "2 to 20"),
            ("a b", "not ' '"),
            ("a/b", "not '/'"),
            ("-ab", "begins"),
            ("_ab", "begins"),
        ] {
            let e = check_name(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn display_names_are_trimmed_and_bounded() {
        assert_eq!(display_name("  王  ").unwrap(), "王");
        assert!(display_name("   ").is_err());
        assert!(display_name(&"x".repeat(31)).is_err());
        assert!(display_name("a\u{7}b").is_err());
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify("correct horse", &h));
        assert!(!verify("correct horsf", &h));
        assert!(!verify("correct horse", "not a hash"));
        assert!(verify_or_not("correct horse", Some(&h)));
        assert!(!verify_or_not("no account has this password", None));
        check_password("1234567").unwrap_err();
        check_password(&"x".repeat(257)).unwrap_err();
        check_password("12345678").unwrap();
    }
}
