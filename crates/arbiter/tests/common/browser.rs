//! A browser as the players' and seeks' HTTP tests need one: a cookie jar of one cookie, the
//! session's, as the server last set it.

use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::Value;

pub struct Browser {
    pub http: Client,
    pub base: String,
    pub cookie: Option<String>,
}

/// The session id a `Set-Cookie` gives, if it gives one.
pub fn session_cookie(r: &Response) -> Option<String> {
    r.headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("arbiter_session="))
        .map(|v| v.split(';').next().unwrap().to_string())
}

impl Browser {
    /// A browser that has opened nothing yet (no session).
    pub fn new(base: &str) -> Browser {
        Browser {
            http: Client::new(),
            base: base.into(),
            cookie: None,
        }
    }

    /// A new browser that has opened the lobby (and so has a session).
    pub async fn opened(base: &str) -> Browser {
        let mut b = Browser::new(base);
        b.page("/").await;
        assert!(b.cookie.is_some(), "the lobby gives a session");
        b
    }

    /// Another tab of the same browser: the same cookie, its own connection.
    pub fn tab(&self) -> Browser {
        Browser {
            http: Client::new(),
            base: self.base.clone(),
            cookie: self.cookie.clone(),
        }
    }

    pub async fn send(&mut self, method: Method, path: &str, body: Option<Value>, bearer: Option<&str>) -> Response {
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            r = r.header(COOKIE, format!("arbiter_session={c}"));
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        if let Some(t) = bearer {
            r = r.bearer_auth(t);
        }
        let r = r.send().await.unwrap();
        if let Some(c) = session_cookie(&r) {
            self.cookie = Some(c);
        }
        r
    }

    /// A request that must succeed; its JSON.
    pub async fn ok(&mut self, method: Method, path: &str, body: Option<Value>) -> Value {
        let r = self.send(method.clone(), path, body, None).await;
        let status = r.status();
        let text = r.text().await.unwrap();
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// A page, as a browser opens it.
    pub async fn page(&mut self, path: &str) {
        let r = self.send(Method::GET, path, None, None).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
    }

    /// A request that must fail with `status`; its error text.
    pub async fn fails(&mut self, method: Method, path: &str, body: Option<Value>, status: StatusCode) -> String {
        let r = self.send(method.clone(), path, body, None).await;
        assert_eq!(r.status(), status, "{method} {path}");
        let v: Value = r.json().await.unwrap();
        v["error"].as_str().unwrap().to_string()
    }

    /// The lobby's seeks as this browser sees them: `{seeks, mine}`.
    pub async fn lobby(&mut self) -> Value {
        self.ok(Method::GET, "/api/seeks", None).await
    }

    /// The token of the seat this browser holds in `game`, and its side.
    pub async fn seat(&mut self, game: &str) -> Option<(String, String)> {
        let me = self.ok(Method::GET, "/api/me", None).await;
        me["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["game"] == game)
            .map(|s| {
                (
                    s["token"].as_str().unwrap().to_string(),
                    s["side"].as_str().unwrap().to_string(),
                )
            })
    }
}
