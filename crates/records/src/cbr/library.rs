//! `.cbl` libraries: the index of games, each a CBR record in its slots, and a scan for the
//! games when the index cannot be trusted.

use super::*;

const LIB_CAPACITY: usize = 60;
const LIB_NAME: (usize, usize) = (64, 512);
const LIB_CREATOR: (usize, usize) = (0x340, 128);
const LIB_DESCRIPTION: (usize, usize) = (0x440, 65536);
const LIB_INDEX: usize = 66624;
const LIB_ENTRY_LEN: usize = 276;
const LIB_SLOT_LEN: usize = 4096;

/// A 象棋桥 library: its name and description, and every game in index order.
#[derive(Debug)]
pub struct CblLibrary {
    pub name: String,
    /// The creator field (a user name in the samples).
    pub creator: String,
    /// The description (简介), lines separated by `\n`.
    pub description: String,
    /// One entry per game the index lists; a damaged game is an `Err` in its place, so the
    /// others still read and the numbering stays that of the library.
    pub games: Vec<Result<XiangqiRecord, CbrError>>,
    /// Problems with the library itself (an index that had to be bypassed …).
    pub issues: Vec<Issue>,
}

/// Reads a `.cbl` library: every game its index lists, in index order.
///
/// Each game is read as by [`read_cbr`]; one that cannot be read is an `Err` in its place
/// ([`CbrError::InLibrary`], naming the game and where its record starts). Only a file that is
/// not a library at all is an `Err` for the whole. When the index lists no game (damaged or
/// from an unknown version), the file is searched for records instead, one per 4,096-byte slot
/// or run of slots, and an issue says so.
pub fn read_cbl(bytes: &[u8]) -> Result<CblLibrary, CbrError> {
    check_magic(bytes, LIBRARY_MAGIC, "CCBridge library")?;
    let mut library = CblLibrary {
        name: field_text(bytes, LIB_NAME.0, LIB_NAME.1),
        creator: field_text(bytes, LIB_CREATOR.0, LIB_CREATOR.1),
        description: field_text(bytes, LIB_DESCRIPTION.0, LIB_DESCRIPTION.1).replace("\r\n", "\n"),
        games: Vec::new(),
        issues: Vec::new(),
    };
    let capacity = u32_at(bytes, LIB_CAPACITY).unwrap_or(0) as usize;
    let slots = capacity
        .checked_mul(LIB_ENTRY_LEN)
        .and_then(|n| n.checked_add(LIB_INDEX))
        .filter(|&end| end <= bytes.len());
    match slots {
        Some(slots) => {
            for entry in 0..capacity {
                let offset = LIB_INDEX + entry * LIB_ENTRY_LEN;
                let (Some(state), Some(slot), Some(size)) = (
                    u32_at(bytes, offset),
                    u32_at(bytes, offset + 4),
                    u32_at(bytes, offset + 12),
                ) else {
                    break;
                };
                if state == 0 {
                    continue;
                }
                let game = library.games.len();
                let start = (slot as usize)
                    .checked_mul(LIB_SLOT_LEN)
                    .and_then(|n| n.checked_add(slots));
                let start = match start.filter(|&s| s < bytes.len()) {
                    Some(s) => s,
                    None => {
                        library.games.push(Err(CbrError::SlotOutOfRange {
                            entry,
                            offset,
                            slot,
                            slot_offset: start.unwrap_or(usize::MAX),
                            len: bytes.len(),
                        }));
                        continue;
                    }
                };
                // The size is the record's; a damaged one is bounded by the file.
                let end = start.saturating_add(size as usize).min(bytes.len());
                let end = if size == 0 {
                    bytes.len().min(start + LIB_SLOT_LEN)
                } else {
                    end
                };
                library
                    .games
                    .push(read_cbr(&bytes[start..end]).map_err(|e| CbrError::InLibrary {
                        game,
                        offset: start,
                        source: Box::new(e),
                    }));
            }
            if library.games.is_empty() {
                library.issues.push(Issue {
                    refused: None,
                    ply: None,
                    message: format!(
                        "the index at byte offset {LIB_INDEX} ({capacity} entries) lists no game; \
                         searching the file for records"
                    ),
                });
                scan(bytes, &mut library);
            }
        }
        None => {
            library.issues.push(Issue {
                refused: None,
                ply: None,
                message: format!(
                    "the index ({capacity} entries of {LIB_ENTRY_LEN} bytes from byte offset {LIB_INDEX}) does not \
                     fit in the file ({} bytes); searching the file for records",
                    bytes.len()
                ),
            });
            scan(bytes, &mut library);
        }
    }
    Ok(library)
}

/// Finds records without the index: from the first magic, every 4,096-byte slot that starts with
/// one begins a game, which runs to the next such slot.
fn scan(bytes: &[u8], library: &mut CblLibrary) {
    let Some(first) = bytes.windows(16).position(|w| w == RECORD_MAGIC) else {
        return;
    };
    let starts: Vec<usize> = (first..bytes.len())
        .step_by(LIB_SLOT_LEN)
        .filter(|&s| bytes.get(s..s + 16) == Some(&RECORD_MAGIC[..]))
        .collect();
    for (game, &start) in starts.iter().enumerate() {
        let end = starts.get(game + 1).copied().unwrap_or(bytes.len());
        library
            .games
            .push(read_cbr(&bytes[start..end]).map_err(|e| CbrError::InLibrary {
                game,
                offset: start,
                source: Box::new(e),
            }));
    }
}
