//! PGN: the streaming reader shared by both games, the one writer every PGN of arbiter is
//! written with, and the Xiangqi reader and writer.

mod reader;
mod tree;
pub mod write;
mod xiangqi;

pub use self::xiangqi::{
    chinese_for_cchess, start_position, write_pgn, write_pgn_styled, PgnStyle, XiangqiGames, XiangqiVisitor,
};
pub use reader::{PgnReader, Skip, Visitor};
pub(crate) use tree::{write_movetext, MoveText};
pub use write::{escape_tag_value, write_tag, CommentStyle, Movetext, SEVEN_TAG_ROSTER};
