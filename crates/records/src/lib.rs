//! Game records: reading and writing the files Xiangqi and chess games are kept in.
//!
//! - [`record`]: the model every reader produces — tags, start position, a move tree with
//!   comments and variations.
//! - [`text`]: the encodings of Xiangqi text (UTF-8, GBK, Big5), detected from the bytes.

pub mod cbr;
pub mod chess;
pub mod dhtmlxq;
pub mod files;
pub mod pgn;
pub mod record;
pub mod text;
pub mod xqf;

pub use game::Outcome;
pub use record::{Issue, MoveTree, Node, NodeId, ReadOptions, Record, Refusal, RefusedMove, Tags, XiangqiRecord};
pub use text::TextEncoding;
