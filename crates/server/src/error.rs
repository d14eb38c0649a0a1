//! The API's errors: each a 4xx or 5xx with a JSON body `{"error": "...", "why": "<code>",
//! "args": {...}}`, never a panic. `error` is English; `why` (a [`Problem`]'s code, or for a
//! refusal the referee's) and `args` (the values its sentence takes) let a page say it in its
//! own language.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{Map, Value};

pub use crate::problem::Problem;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// An error with its problem's code and the values its sentence takes.
    #[error("{text}")]
    Said {
        status: StatusCode,
        problem: Problem,
        text: String,
        args: Map<String, Value>,
    },
    /// The referee refused the command (illegal move, not one's turn, …); it is in the log all
    /// the same, as fouls count. `end`: the game ended with it (a foul over the limit).
    #[error("{reason}{}", end.map_or(String::new(), |e| format!("; the game is over ({})", e.reason)))]
    Refused {
        reason: String,
        /// The referee's code for it ([`referee::Why`]), for a page to say it in its language.
        why: Option<&'static str>,
        version: u64,
        end: Option<End>,
    },
    #[error("missing or malformed Authorization: Bearer <seat token>")]
    Unauthorized,
    #[error("this token holds no seat in this game")]
    Forbidden,
    #[error("no such game")]
    NotFound,
    /// 429, with how long until a request would be taken (sent as `Retry-After`, in seconds).
    #[error("too many requests: try again in {} ms", .0.as_millis() + 1)]
    TooManyRequests(std::time::Duration),
    #[error("storage: {0}")]
    Storage(#[from] sqlx::Error),
    #[error("the game is shutting down")]
    Gone,
    /// A cluster's game between nodes (its owner died or is handing it over): try again.
    #[error("this game is moving to another server node; try again shortly")]
    Moved,
    /// The error another node of the cluster answered a forwarded command with.
    #[error("{}", body["error"].as_str().unwrap_or("error"))]
    Remote { status: u16, body: serde_json::Value },
}

/// How a game ended, as answers give it: lichess's status name, arbiter's exact reason, the
/// winner (`None`: a draw or no result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    pub status: &'static str,
    pub reason: &'static str,
    pub winner: Option<&'static str>,
}

impl ApiError {
    /// A 400 for `problem`, `text` its English.
    pub fn bad(problem: Problem, text: impl Into<String>) -> ApiError {
        ApiError::of(StatusCode::BAD_REQUEST, problem, text)
    }

    /// A `status` for `problem`, `text` its English.
    pub fn of(status: StatusCode, problem: Problem, text: impl Into<String>) -> ApiError {
        ApiError::Said {
            status,
            problem,
            text: text.into(),
            args: Map::new(),
        }
    }

    /// A request only a hand-made client sends: its English `detail` is the sentence.
    pub fn malformed(status: StatusCode, detail: impl Into<String>) -> ApiError {
        let detail = detail.into();
        ApiError::of(status, Problem::BadRequest, detail.clone()).arg("detail", detail)
    }

    /// A 400 only a hand-made client meets ([`ApiError::malformed`]).
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError::malformed(StatusCode::BAD_REQUEST, detail)
    }

    /// A 500: the server's own fault, `text` its English.
    pub fn internal(text: impl Into<String>) -> ApiError {
        ApiError::of(StatusCode::INTERNAL_SERVER_ERROR, Problem::Internal, text)
    }

    /// An organiser's or arbiter's setting or command not accepted, `detail` its English.
    pub fn not_accepted(detail: impl Into<String>) -> ApiError {
        let detail = detail.into();
        ApiError::bad(Problem::NotAccepted, detail.clone()).arg("detail", detail)
    }

    /// With the value `name` of the sentence's arguments (one of the problem's `params`).
    pub fn arg(mut self, name: &'static str, value: impl Into<Value>) -> ApiError {
        if let ApiError::Said { problem, args, .. } = &mut self {
            debug_assert!(
                problem.params().contains(&name),
                "{}: no argument {name}",
                problem.code()
            );
            args.insert(name.into(), value.into());
        }
        self
    }

    /// The error's code: its problem's, or for a refusal the referee's.
    pub fn why(&self) -> Option<&'static str> {
        let problem = match self {
            ApiError::Said { problem, .. } => *problem,
            ApiError::Refused { why, .. } => return *why,
            ApiError::Unauthorized => Problem::Unauthorized,
            ApiError::Forbidden => Problem::NotYourSeat,
            ApiError::NotFound => Problem::NoSuchGame,
            ApiError::TooManyRequests(_) => Problem::TooManyRequests,
            ApiError::Storage(_) => Problem::Storage,
            ApiError::Gone => Problem::ShuttingDown,
            ApiError::Moved => Problem::Moving,
            // Its body carries the code the other node gave.
            ApiError::Remote { .. } => return None,
        };
        Some(problem.code())
    }

    /// The HTTP status it answers with (a socket's error frame gives it as `code`).
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Refused { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Said { status, .. } => *status,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage(_) | ApiError::Gone | ApiError::Moved => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Remote { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }

    /// The JSON body: `{"error": …, "why": …}`, `args` where the sentence takes values, and
    /// for a refusal the version and how the game ended.
    pub fn body(&self) -> Value {
        if let ApiError::Remote { body, .. } = self {
            return body.clone();
        }
        let mut body = serde_json::json!({ "error": self.to_string() });
        if let Some(why) = self.why() {
            body["why"] = why.into();
        }
        match self {
            ApiError::Said { args, .. } if !args.is_empty() => body["args"] = Value::Object(args.clone()),
            ApiError::TooManyRequests(wait) => body["args"] = serde_json::json!({ "seconds": retry_after(*wait) }),
            _ => {}
        }
        if let ApiError::Refused { version, end, .. } = self {
            body["version"] = (*version).into();
            if let Some(end) = end {
                body["status"] = end.status.into();
                body["reason"] = end.reason.into();
                body["winner"] = end.winner.into();
            }
        }
        body
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(self.body())).into_response();
        if let ApiError::TooManyRequests(wait) = self {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, retry_after(wait).into());
        }
        response
    }
}

/// Whole seconds, rounded up: a client waiting that long is served.
fn retry_after(wait: std::time::Duration) -> u64 {
    wait.as_millis().div_ceil(1000).max(1) as u64
}
