//! The words of the explanations.

use game::{Kind, Side};

use super::Proof;

pub(super) fn side(s: Side) -> &'static str {
    s.name(Kind::Chess)
}

pub(super) fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

pub(super) fn proof_text(p: Proof) -> String {
    match p {
        Proof::InsufficientMaterial => "insufficient material".to_string(),
        Proof::LockedPawns => "the pawns are locked and no piece can ever give check past them".to_string(),
        Proof::Exhausted { positions } => {
            format!("all {positions} positions reachable by legal moves were examined and none is mate")
        }
    }
}

/// `third`, `fifth`, `7th`.
pub(super) fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        _ => format!("{n}th"),
    }
}

/// `threefold repetition`.
pub(super) fn fold(n: u32) -> String {
    match n {
        3 => "threefold repetition".into(),
        5 => "fivefold repetition".into(),
        _ => format!("{n}-fold repetition"),
    }
}

/// `4, 8 and 12`.
pub(super) fn list(plies: Vec<usize>) -> String {
    let texts: Vec<String> = plies.iter().map(|p| p.to_string()).collect();
    match texts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
