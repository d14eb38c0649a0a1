//! The API's errors: each a 4xx or 5xx with a JSON body `{"error": "..."}`, never a panic.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    /// The referee refused the command (illegal move, not one's turn, …); it is in the log all
    /// the same, as fouls count.
    #[error("{reason}")]
    Refused { reason: String, version: u64 },
    #[error("missing or malformed Authorization: Bearer <seat token>")]
    Unauthorized,
    #[error("this token holds no seat in this game")]
    Forbidden,
    #[error("no such game")]
    NotFound,
    #[error("{1}")]
    Status(StatusCode, String),
    #[error("storage: {0}")]
    Storage(#[from] sqlx::Error),
    #[error("the game is shutting down")]
    Gone,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match &self {
            ApiError::BadRequest(_) | ApiError::Refused { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Status(s, _) => *s,
            ApiError::Storage(_) | ApiError::Gone => StatusCode::SERVICE_UNAVAILABLE,
        };
        let mut body = serde_json::json!({ "error": self.to_string() });
        if let ApiError::Refused { version, .. } = &self {
            body["version"] = (*version).into();
        }
        (status, Json(body)).into_response()
    }
}
