//! PGN: the streaming reader shared by both games, and the Xiangqi reader and writer.

mod reader;
mod write;
mod xiangqi;

pub use self::xiangqi::{start_position, write_pgn, XiangqiGames, XiangqiVisitor};
pub use reader::{PgnReader, Skip, Visitor};
pub(crate) use write::{write_movetext, MoveText, Wrap};
