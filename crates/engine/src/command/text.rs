//! The text of the commands, written into a buffer: the `position` line, moves in the engine's
//! coordinates (and its moves read back), and the `go` limits as UCI and UCCI word them.

use game::Side;

use crate::{Limits, MoveText};

/// Whether two moves' texts are equal. Every ply compares the whole game again, and moves are
/// four or five bytes: one word compared, then the rest, is much cheaper than a call to
/// `memcmp` a move.
pub(super) fn same_move(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (a.split_first_chunk::<4>(), b.split_first_chunk::<4>()) {
        (Some((a4, a_rest)), Some((b4, b_rest))) => {
            // The rest (a promotion's letter) byte by byte: `==` on slices calls `memcmp`.
            u32::from_ne_bytes(*a4) == u32::from_ne_bytes(*b4) && a_rest.iter().zip(b_rest).all(|(x, y)| x == y)
        }
        _ => a == b,
    }
}

/// Starts a `position` command at `fen` (the start position if none).
pub(super) fn position_line(line: &mut String, fen: Option<&str>) {
    line.clear();
    match fen {
        Some(f) => {
            line.push_str("position fen ");
            line.push_str(f.trim());
        }
        None => line.push_str("position startpos"),
    }
}

/// Writes a project-coordinate move for the engine: as it is, or with Xiangqi ranks 1–10.
pub(super) fn push_move(buf: &mut String, fsf: bool, m: &str) {
    let b = m.as_bytes();
    if !fsf || b.len() != 4 || !b[1].is_ascii_digit() || !b[3].is_ascii_digit() {
        buf.push_str(m);
        return;
    }
    for sq in [&b[..2], &b[2..]] {
        buf.push(sq[0] as char);
        match sq[1] {
            b'9' => buf.push_str("10"),
            r => buf.push((r + 1) as char),
        }
    }
}

/// Reads an engine's Xiangqi move (`h2e2`, or with ranks 1–10 `h3e3`, `e10e9`) into ICCS.
pub(super) fn xiangqi_move(m: &str, fsf: bool) -> Option<MoveText> {
    let b = m.as_bytes();
    let mut out = [0u8; 4];
    let mut i = 0;
    for k in 0..2 {
        let f = *b.get(i)?;
        if !(b'a'..=b'i').contains(&f) {
            return None;
        }
        i += 1;
        let mut rank = 0u32;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            rank = rank * 10 + u32::from(b[i] - b'0');
            i += 1;
        }
        if i == start {
            return None;
        }
        let rank = if fsf { rank.checked_sub(1)? } else { rank };
        if rank > 9 || (!fsf && i - start != 1) {
            return None;
        }
        out[2 * k] = f;
        out[2 * k + 1] = b'0' + rank as u8;
    }
    if i != b.len() {
        return None;
    }
    MoveText::new(std::str::from_utf8(&out).ok()?)
}

pub(super) fn uci_limits(buf: &mut String, l: &Limits) {
    let fields = [
        ("wtime", l.wtime),
        ("btime", l.btime),
        ("winc", l.winc),
        ("binc", l.binc),
        ("movestogo", l.movestogo.map(u64::from)),
        ("movetime", l.movetime),
        ("nodes", l.nodes),
        ("depth", l.depth.map(u64::from)),
    ];
    for (name, value) in fields {
        if let Some(v) = value {
            field(buf, name, v);
        }
    }
}

/// UCCI has one search mode per `go`: a clock if there is one (the game's real constraint),
/// else a fixed time per move (as a clock with one move to go), else nodes, else depth.
/// Clocks are the mover's and the opponent's rather than by colour.
pub(super) fn ucci_limits(buf: &mut String, l: &Limits, turn: Side) {
    let (own, own_inc, opp, opp_inc) = match turn {
        Side::First => (l.wtime, l.winc, l.btime, l.binc),
        Side::Second => (l.btime, l.binc, l.wtime, l.winc),
    };
    if let Some(t) = own {
        field(buf, "time", t);
        if let Some(n) = l.movestogo {
            field(buf, "movestogo", n.into());
        } else if let Some(i) = own_inc {
            field(buf, "increment", i);
        }
        if let Some(t) = opp {
            field(buf, "opptime", t);
            if let Some(n) = l.movestogo {
                field(buf, "oppmovestogo", n.into());
            } else if let Some(i) = opp_inc {
                field(buf, "oppincrement", i);
            }
        }
    } else if let Some(t) = l.movetime {
        field(buf, "time", t);
        buf.push_str(" movestogo 1");
    } else if let Some(n) = l.nodes {
        field(buf, "nodes", n);
    } else if let Some(d) = l.depth {
        field(buf, "depth", d.into());
    }
}

/// Writes ` name value`.
fn field(buf: &mut String, name: &str, value: u64) {
    buf.push(' ');
    buf.push_str(name);
    buf.push(' ');
    buf.push_str(itoa::Buffer::new().format(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        let mut s = String::new();
        push_move(&mut s, true, "h2e2");
        s.push(' ');
        push_move(&mut s, true, "e9e8");
        s.push(' ');
        push_move(&mut s, false, "e9e8");
        assert_eq!(s, "h3e3 e10e9 e9e8");
        assert_eq!(xiangqi_move("e10e9", true).unwrap(), "e9e8");
        assert_eq!(xiangqi_move("h3e3", true).unwrap(), "h2e2");
        assert_eq!(xiangqi_move("h2e2", false).unwrap(), "h2e2");
        for bad in ["e10e9", "h2e", "j2e2", "h2e2x", "", "h22e2"] {
            assert!(xiangqi_move(bad, false).is_none(), "{bad}");
        }
        for bad in ["e11e9", "h0e1", "e10e", "e100e9"] {
            assert!(xiangqi_move(bad, true).is_none(), "{bad}");
        }
    }
}
