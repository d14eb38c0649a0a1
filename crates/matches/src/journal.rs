//! The state file of a match with a PGN output, `F.pgn` → `F.pgn.state.jsonl`: a journal with
//! one line a finished game, so that an interrupted match resumes where it stopped.
//!
//! The first line names the match (a hash of what makes it the same match) and the PGN's length
//! when it started; each further line is a game as the match counted it and the PGN's length
//! once its record was written. A game
//! costs one appended line — a state file rewritten whole and renamed into place cost an open
//! and a rename a game (a third of the runner's own time at `go nodes 1000`) and grew with the
//! match. A line a kill cut short is not a game: a resumed match drops it, and the PGN past the
//! last whole line, and plays that game again.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::runner::{io_err, Finished, MatchError};

/// The state file of a PGN output.
pub fn path(pgn: &Path) -> PathBuf {
    let mut s = pgn.as_os_str().to_owned();
    s.push(".state.jsonl");
    PathBuf::from(s)
}

#[derive(Serialize, Deserialize)]
struct Header {
    config_hash: String,
    pgn_bytes: u64,
}

/// A game's line: `G` is the game, borrowed to write a line and owned when one is read.
#[derive(Serialize, Deserialize)]
struct Entry<G> {
    #[serde(flatten)]
    game: G,
    pgn_bytes: u64,
}

/// What an earlier run of the match left.
#[derive(Debug, Default)]
pub struct Resumed {
    pub games: Vec<Finished>,
    /// The PGN's length after the last game counted; `None` when there was no journal (nothing
    /// to cut back).
    pub pgn_bytes: Option<u64>,
}

/// The journal, open for appending.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Starts the journal of match `hash` afresh, the PGN `pgn_bytes` long.
    pub fn create(path: &Path, hash: &str, pgn_bytes: u64) -> Result<Journal, MatchError> {
        let mut file = File::create(path).map_err(|e| io_err("create", path, e))?;
        let header = serde_json::to_string(&Header {
            config_hash: hash.to_string(),
            pgn_bytes,
        })
        .map_err(|e| MatchError::Io(e.to_string()))?;
        writeln!(file, "{header}").map_err(|e| io_err("write", path, e))?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens the journal of match `hash` to go on with it: the games it holds, with a torn last
    /// line dropped. No journal: a fresh one (the PGN `pgn_bytes` long). Another match's
    /// journal: an error.
    pub fn resume(path: &Path, hash: &str, pgn_bytes: u64) -> Result<(Journal, Resumed), MatchError> {
        let text = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok((Journal::create(path, hash, pgn_bytes)?, Resumed::default()))
            }
            Err(e) => return Err(io_err("read", path, e)),
        };
        let (resumed, whole) =
            read(&text, hash).map_err(|why| MatchError::Config(format!("{}: {why}", path.display())))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| io_err("open", path, e))?;
        file.set_len(whole as u64).map_err(|e| io_err("truncate", path, e))?;
        Ok((
            Journal {
                file,
                path: path.to_path_buf(),
            },
            resumed,
        ))
    }

    /// Adds a game, counted once its record is `pgn_bytes` into the PGN.
    pub fn add(&mut self, game: &Finished, pgn_bytes: u64) -> Result<(), MatchError> {
        let mut line = serde_json::to_vec(&Entry { game, pgn_bytes }).map_err(|e| MatchError::Io(e.to_string()))?;
        line.push(b'\n');
        // One write: a kill leaves the line whole or torn, never two games run together.
        self.file.write_all(&line).map_err(|e| io_err("write", &self.path, e))
    }
}

/// The games of a journal's text and the length of its whole lines; an error when it is not a
/// journal or is another match's.
fn read(text: &[u8], hash: &str) -> Result<(Resumed, usize), String> {
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    let not_state = |e: &dyn std::fmt::Display| format!("not a match state file: {e}");
    let first = lines
        .next()
        .filter(|l| l.ends_with(b"\n"))
        .ok_or_else(|| not_state(&"no header line"))?;
    let header: Header = serde_json::from_slice(first).map_err(|e| not_state(&e))?;
    if header.config_hash != hash {
        return Err(
            "the state is of another match (different engines, time control, openings or games); \
                    start without --resume or use another --pgnout"
                .to_string(),
        );
    }
    let mut resumed = Resumed {
        games: Vec::new(),
        pgn_bytes: Some(header.pgn_bytes),
    };
    let mut whole = first.len();
    for line in lines {
        let Some(entry) = line
            .ends_with(b"\n")
            .then(|| serde_json::from_slice::<Entry<Finished>>(line).ok())
            .flatten()
        else {
            break;
        };
        resumed.games.push(entry.game);
        resumed.pgn_bytes = Some(entry.pgn_bytes);
        whole += line.len();
    }
    Ok((resumed, whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: u32) -> Finished {
        Finished {
            number,
            first: "A".into(),
            second: "B \"quoted\"".into(),
            result: "1-0".into(),
            termination: "checkmate".into(),
        }
    }

    #[test]
    fn games_come_back_and_a_torn_line_is_dropped() {
        let dir = std::env::temp_dir().join(format!("arbiter-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("m.pgn.state.jsonl");
        let mut j = Journal::create(&p, "abc", 7).unwrap();
        j.add(&game(1), 100).unwrap();
        j.add(&game(2), 250).unwrap();
        drop(j);
        let whole = std::fs::read(&p).unwrap();
        // A kill in the middle of the third line.
        let mut torn = whole.clone();
        torn.extend_from_slice(b"{\"number\":3,\"fir");
        std::fs::write(&p, &torn).unwrap();
        let (mut j, r) = Journal::resume(&p, "abc", 0).unwrap();
        assert_eq!(r.games, [game(1), game(2)]);
        assert_eq!(r.pgn_bytes, Some(250));
        assert_eq!(std::fs::read(&p).unwrap(), whole);
        j.add(&game(3), 400).unwrap();
        let (_, r) = Journal::resume(&p, "abc", 0).unwrap();
        assert_eq!(r.games.len(), 3);
        assert_eq!(r.pgn_bytes, Some(400));
        // Another match's journal, and a file that is no journal, are refused.
        assert!(Journal::resume(&p, "abd", 0)
            .unwrap_err()
            .to_string()
            .contains("another match"));
        std::fs::write(&p, b"{}").unwrap();
        assert!(Journal::resume(&p, "abc", 0)
            .unwrap_err()
            .to_string()
            .contains("not a match state file"));
        // Killed before a game was in: the PGN goes back to its length at the start.
        Journal::create(&p, "abc", 7).unwrap();
        let (_, r) = Journal::resume(&p, "abc", 0).unwrap();
        assert!(r.games.is_empty() && r.pgn_bytes == Some(7));
        // No journal yet: a fresh one.
        std::fs::remove_file(&p).unwrap();
        let (_, r) = Journal::resume(&p, "abc", 9).unwrap();
        assert!(r.games.is_empty() && r.pgn_bytes.is_none());
        let (_, r) = Journal::resume(&p, "abc", 0).unwrap();
        assert_eq!(r.pgn_bytes, Some(9));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
