//! The API's errors: each a 4xx or 5xx with a JSON body `{"error": "..."}`, never a panic.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
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
    #[error("{1}")]
    Status(StatusCode, String),
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
    /// The HTTP status it answers with (a socket's error frame gives it as `code`).
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Refused { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Status(s, _) => *s,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage(_) | ApiError::Gone | ApiError::Moved => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Remote { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }

    /// The JSON body: `{"error": …}`, and for a refusal the version and how the game ended.
    pub fn body(&self) -> serde_json::Value {
        if let ApiError::Remote { body, .. } = self {
            return body.clone();
        }
        let mut body = serde_json::json!({ "error": self.to_string() });
        if let ApiError::Refused { version, end, why, .. } = self {
            body["version"] = (*version).into();
            if let Some(why) = why {
                body["why"] = (*why).into();
            }
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
            // Whole seconds, rounded up: a client waiting that long is served.
            let secs = (wait.as_millis().div_ceil(1000).max(1)) as u64;
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}
