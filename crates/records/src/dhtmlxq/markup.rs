//! The pseudo-BBCode of DhtmlXQ text: where each `[DhtmlXQ]` block and each of its fields
//! is, found case-insensitively, and the HTML escapes a page puts into their values.

/// ASCII-case-insensitive search; the needles are ASCII, so hits fall on char boundaries.
pub(super) fn find_ci(hay: &str, from: usize, needle: &str) -> Option<usize> {
    find_ci_before(hay, from, hay.len(), needle)
}

/// As [`find_ci`], for a match ending by `to`.
fn find_ci_before(hay: &str, from: usize, to: usize, needle: &str) -> Option<usize> {
    let h = hay.as_bytes().get(from..to.min(hay.len()))?;
    let n = needle.as_bytes();
    if n.is_empty() {
        return None;
    }
    h.windows(n.len())
        .position(|w| w.eq_ignore_ascii_case(n))
        .map(|i| i + from)
}

/// The blocks of a text: where each opening tag is, and the byte range of its body.
pub(super) fn blocks(text: &str) -> Vec<(usize, (usize, usize))> {
    const OPEN: &str = "[DhtmlXQ]";
    const CLOSE: &str = "[/DhtmlXQ]";
    let mut out = Vec::new();
    let mut p = 0;
    while let Some(start) = find_ci(text, p, OPEN) {
        let body = start + OPEN.len();
        // Looking for the close only up to the next opening keeps a page of unclosed blocks
        // linear.
        let next = find_ci(text, body, OPEN);
        let limit = next.unwrap_or(text.len());
        let (end, resume) = match find_ci_before(text, body, limit, CLOSE) {
            Some(c) => (c, c + CLOSE.len()),
            None => (limit, limit),
        };
        out.push((start, (body, end)));
        p = resume;
    }
    out
}

/// One `[DhtmlXQ_name]value[/DhtmlXQ_name]` field.
pub(super) struct Field<'a> {
    pub(super) name: String,
    pub(super) value: &'a str,
    pub(super) offset: usize,
}

pub(super) fn fields(text: &str, (start, end): (usize, usize)) -> Vec<Field<'_>> {
    const OPEN: &str = "[DhtmlXQ_";
    let body = &text[start..end];
    let mut out = Vec::new();
    let mut p = 0;
    while let Some(s) = find_ci(body, p, OPEN) {
        let name_start = s + OPEN.len();
        let name_len = body.as_bytes()[name_start..]
            .iter()
            .take(41)
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'));
        let Some(len) = name_len.filter(|&n| n > 0 && body.as_bytes().get(name_start + n) == Some(&b']')) else {
            p = name_start;
            continue;
        };
        let name = &body[name_start..name_start + len];
        let value_start = name_start + len + 1;
        // A value cannot hold another field, so neither its end nor its closing tag lies
        // beyond the next opening.
        let limit = find_ci(body, value_start, OPEN).unwrap_or(body.len());
        let closing = format!("[/DhtmlXQ_{name}]");
        let (value_end, next) = match find_ci_before(body, value_start, limit, &closing) {
            Some(e) => (e, e + closing.len()),
            None => (limit, limit),
        };
        out.push(Field {
            name: name.to_ascii_lowercase(),
            value: &body[value_start..value_end],
            offset: start + s,
        });
        p = next;
    }
    out
}

/// The few HTML escapes a page puts into field text.
pub(super) fn unescape(s: &str) -> String {
    if !s.contains('&') && !s.contains('<') {
        return s.to_string();
    }
    let mut s = s.to_string();
    for br in ["<br />", "<br/>", "<br>", "<BR>", "<BR />"] {
        s = s.replace(br, "\n");
    }
    s.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}
