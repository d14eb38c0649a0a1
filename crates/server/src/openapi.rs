//! The API described: an OpenAPI 3.1 document written by hand (`crates/server/openapi.json`),
//! embedded and served at `GET /api/openapi.json`.
//!
//! The routes are declared once, in the routers (`analyse/mod.rs`, `api.rs`, `create.rs`, `seeks/`, `console.rs`,
//! `event/routes.rs`, `players/routes.rs`, `review.rs`, `socket.rs`, `watching.rs`, this file); the test below
//! reads those declarations and checks that the document describes exactly them, each with its method.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The document, as served.
pub const DOCUMENT: &str = include_str!("../openapi.json");

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/openapi.json", get(document))
}

async fn document() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::DOCUMENT;

    /// The sources that declare the API's routes.
    const ROUTERS: [&str; 13] = [
        include_str!("analyse/mod.rs"),
        include_str!("api.rs"),
        include_str!("create.rs"),
        include_str!("seeks/routes.rs"),
        include_str!("seeks/rematch.rs"),
        include_str!("console.rs"),
        include_str!("device.rs"),
        include_str!("event/routes.rs"),
        include_str!("review.rs"),
        include_str!("openapi.rs"),
        include_str!("players/routes.rs"),
        include_str!("socket.rs"),
        include_str!("watching.rs"),
    ];

    /// `(METHOD, path)` of every route on an `/api` path declared in the routers' sources (a
    /// `route` call with a literal path, then its method router), chained methods
    /// (`get(a).post(b)`) too.
    fn declared() -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        let marker = [".route(", "\"/api"].concat();
        for source in ROUTERS {
            for (at, _) in source.match_indices(&marker) {
                let rest = &source[at + ".route(\"".len()..];
                let end = rest.find('"').expect("a closing quote");
                let path = &rest[..end];
                let mut methods = &rest[end + 1..];
                methods = methods.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
                loop {
                    let name: String = methods.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
                    assert!(!name.is_empty(), "no method after {path}");
                    out.insert((name.to_ascii_uppercase(), path.to_string()));
                    // Skip the handler's parentheses, then look for a chained method.
                    let mut depth = 0;
                    let mut close = 0;
                    for (i, c) in methods.char_indices() {
                        match c {
                            '(' => depth += 1,
                            ')' => {
                                depth -= 1;
                                if depth == 0 {
                                    close = i;
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    methods = &methods[close + 1..];
                    let chained = methods.strip_prefix('.').filter(|m| {
                        ["get(", "post(", "put(", "delete(", "patch("]
                            .iter()
                            .any(|p| m.starts_with(p))
                    });
                    match chained {
                        Some(m) => methods = m,
                        None => break,
                    }
                }
            }
        }
        out
    }

    fn document() -> Value {
        serde_json::from_str(DOCUMENT).expect("openapi.json is JSON")
    }

    #[test]
    fn the_document_describes_exactly_the_routes() {
        let doc = document();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
        let mut described = BTreeSet::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for method in item.as_object().unwrap().keys() {
                if ["get", "post", "put", "delete", "patch", "head", "options"].contains(&method.as_str()) {
                    described.insert((method.to_ascii_uppercase(), path.clone()));
                }
            }
        }
        let declared = declared();
        assert!(declared.len() >= 11, "{declared:?}");
        let missing: Vec<_> = declared.difference(&described).collect();
        let extra: Vec<_> = described.difference(&declared).collect();
        assert!(missing.is_empty(), "routes the document does not describe: {missing:?}");
        assert!(extra.is_empty(), "operations the router does not have: {extra:?}");
    }

    /// Every `$ref` points at a schema that exists, every operation has an id, responses and a
    /// summary, every path parameter is declared, and every link leads to an operation.
    #[test]
    fn the_document_is_whole() {
        let doc = document();
        fn refs(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r.clone());
                    }
                    m.values().for_each(|x| refs(x, out));
                }
                Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        refs(&doc, &mut all);
        assert!(!all.is_empty());
        for r in &all {
            let pointer = r.strip_prefix('#').unwrap_or_else(|| panic!("external $ref {r}"));
            assert!(doc.pointer(pointer).is_some(), "dangling $ref {r}");
        }
        let mut ids = BTreeSet::new();
        let mut links = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            let names: Vec<String> = path
                .split('{')
                .skip(1)
                .map(|s| s.split('}').next().unwrap().to_string())
                .collect();
            for (method, op) in item.as_object().unwrap() {
                if method == "parameters" {
                    continue;
                }
                let id = op["operationId"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{method} {path}: no operationId"));
                assert!(ids.insert(id.to_string()), "operationId {id} twice");
                for response in op["responses"].as_object().into_iter().flat_map(|r| r.values()) {
                    for link in response["links"].as_object().into_iter().flat_map(|l| l.values()) {
                        links.push(link["operationId"].as_str().expect("a link's operationId").to_string());
                    }
                }
                assert!(op["summary"].is_string(), "{id}: no summary");
                assert!(
                    op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                    "{id}: no responses"
                );
                let mut params: Vec<&Value> = op["parameters"]
                    .as_array()
                    .map(|a| a.iter().collect())
                    .unwrap_or_default();
                params.extend(item["parameters"].as_array().into_iter().flatten());
                for name in &names {
                    let p = params
                        .iter()
                        .map(|p| match p.get("$ref").and_then(Value::as_str) {
                            Some(r) => doc.pointer(&r[1..]).unwrap(),
                            None => *p,
                        })
                        .find(|p| p["name"] == name.as_str() && p["in"] == "path");
                    assert!(p.is_some(), "{id}: path parameter {name} not declared");
                }
            }
        }
        for l in &links {
            assert!(ids.contains(l), "a link to no operation: {l}");
        }
    }
}
