//! The lobby and game page written in the visitor's language by the server. Its static labels
//! live in `web/labels.json`, the one table both the page's script (as the module
//! `/static/labels.js`) and the server read, so the page paints in the visitor's language —
//! and the lobby paints at all — before any script has run.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::http::{header, HeaderMap};

const LABELS_JSON: &str = include_str!("../../web/labels.json");

/// The cookie the page sets when the visitor chooses a language.
pub const LANGUAGE_COOKIE: &str = "arbiter_lang";

/// The labels as the page's script imports them.
pub static LABELS_JS: LazyLock<String> =
    LazyLock::new(|| format!("// web/labels.json, served as a module.\nexport const LABELS = {LABELS_JSON};\n"));

type Table = HashMap<String, String>;

static LABELS: LazyLock<HashMap<String, Table>> =
    LazyLock::new(|| serde_json::from_str(LABELS_JSON).expect("web/labels.json is a table of tables of strings"));

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    En = 0,
    Zh = 1,
}

impl Language {
    fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Zh => "zh",
        }
    }

    fn html_lang(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Zh => "zh-CN",
        }
    }

    /// The visitor's language: the one they chose (the cookie), else their browser's first
    /// (`Accept-Language`, as `navigator.language` gives the script), else English.
    pub fn of(headers: &HeaderMap) -> Language {
        match crate::app::cookie(headers, LANGUAGE_COOKIE) {
            Some("zh") => return Language::Zh,
            Some("en") => return Language::En,
            _ => {}
        }
        let first = headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .unwrap_or("");
        if first.trim().to_ascii_lowercase().starts_with("zh") {
            Language::Zh
        } else {
            Language::En
        }
    }
}

fn label(lang: Language, key: &str) -> Option<&'static str> {
    LABELS.get(lang.code())?.get(key).map(String::as_str)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The value of attribute `name` in start tag `tag` (`<… name="value" …>`), with its span.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<(std::ops::Range<usize>, &'a str)> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    let end = start + tag[start..].find('"')?;
    Some((start..end, &tag[start..end]))
}

/// `tag` with attribute `name` set to `value` (added before the `>` if it has none).
fn set_attribute(tag: &str, name: &str, value: &str) -> String {
    match attribute(tag, name) {
        Some((span, _)) => format!("{}{}{}", &tag[..span.start], escape(value), &tag[span.end..]),
        None => format!("{} {name}=\"{}\">", tag.trim_end_matches('>'), escape(value)),
    }
}

/// `html` in `lang`: each element marked `data-i18n` gets its label as its text,
/// `data-i18n-placeholder` its placeholder, `data-i18n-label` its `aria-label`, exactly as the
/// script's `translate` does; the document's `lang` says which, and `data-lang` tells the
/// script the server's choice. Keys without a label keep the HTML's text.
pub fn translated(html: &str, lang: Language) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let mut tag = rest[open..open + close + 1].to_string();
        rest = &rest[open + close + 1..];
        if tag.starts_with("<html") {
            tag = set_attribute(&tag, "lang", lang.html_lang());
            tag = set_attribute(&tag, "data-lang", lang.code());
        }
        if let Some(text) = attribute(&tag, "data-i18n-placeholder").and_then(|(_, k)| label(lang, k)) {
            tag = set_attribute(&tag, "placeholder", text);
        }
        if let Some(text) = attribute(&tag, "data-i18n-label").and_then(|(_, k)| label(lang, k)) {
            tag = set_attribute(&tag, "aria-label", text);
        }
        let text = attribute(&tag, "data-i18n").and_then(|(_, k)| label(lang, k));
        out.push_str(&tag);
        if let Some(text) = text {
            // The element's own text: up to its first child or its end.
            let end = rest.find('<').unwrap_or(rest.len());
            out.push_str(&escape(text));
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = include_str!("../../web/index.html");

    fn keys(html: &str, attr: &str) -> Vec<String> {
        let needle = format!(" {attr}=\"");
        html.match_indices(&needle)
            .map(|(i, _)| {
                let v = &html[i + needle.len()..];
                v[..v.find('"').unwrap()].to_string()
            })
            .collect()
    }

    #[test]
    fn every_label_of_the_page_is_in_both_languages() {
        for attr in ["data-i18n", "data-i18n-placeholder", "data-i18n-label"] {
            for key in keys(INDEX, attr) {
                for lang in [Language::En, Language::Zh] {
                    assert!(label(lang, &key).is_some(), "{attr}={key:?} has no {lang:?} label");
                }
            }
        }
    }

    #[test]
    fn the_page_is_written_in_the_visitors_language() {
        let zh = translated(INDEX, Language::Zh);
        assert!(
            zh.starts_with("<!doctype html>\n<html lang=\"zh-CN\" data-lang=\"zh\">"),
            "{}",
            &zh[..60]
        );
        assert!(zh.contains(r#"<h1 data-i18n="newGame" elementtiming="lobby">新对局</h1>"#));
        assert!(zh.contains(r#"placeholder="默认""#), "the ruleset's placeholder");
        assert!(zh.contains(r#"data-i18n-label="whosePiece" aria-label=""#));
        // Markup around and inside the labelled elements is kept.
        assert_eq!(zh.matches('<').count(), INDEX.matches('<').count());
        let en = translated(INDEX, Language::En);
        assert!(en.contains(r#"<h1 data-i18n="newGame" elementtiming="lobby">New game</h1>"#));
        assert!(en.contains("<html lang=\"en\" data-lang=\"en\">"));
    }

    #[test]
    fn the_language_is_the_chosen_one_else_the_browsers() {
        let with = |pairs: &[(header::HeaderName, &str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.append(k.clone(), v.parse().unwrap());
            }
            Language::of(&h)
        };
        assert_eq!(with(&[]), Language::En);
        assert_eq!(
            with(&[(header::ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9,en;q=0.8")]),
            Language::Zh
        );
        assert_eq!(with(&[(header::ACCEPT_LANGUAGE, "en-GB,zh;q=0.5")]), Language::En);
        assert_eq!(
            with(&[
                (header::ACCEPT_LANGUAGE, "zh-TW"),
                (header::COOKIE, "arbiter_session=x; arbiter_lang=en")
            ]),
            Language::En
        );
        assert_eq!(with(&[(header::COOKIE, "arbiter_lang=zh")]), Language::Zh);
        assert_eq!(with(&[(header::COOKIE, "arbiter_lang=fr")]), Language::En);
    }
}
