//! The team standings as an aligned text table: place, team, MP, GP and the tie-breaks asked
//! for, numbers right-aligned, names left-aligned by their width on a terminal (a Chinese
//! character takes two columns). A shared place is printed once, on its first line.

use super::standings::TeamLine;
use super::tiebreak::TeamTieBreak;

/// Columns a character takes on a terminal: two for the East Asian wide and full-width ranges
/// (CJK ideographs, kana, hangul, full-width forms), one otherwise.
fn char_width(c: char) -> usize {
    let wide = matches!(u32::from(c),
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD);
    if wide {
        2
    } else {
        1
    }
}

/// Columns a string takes on a terminal.
pub fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// A number as short as it reads exactly: `7`, `6.5`, `12.25`.
pub fn number(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The standings as text, one line per team after a header; `order` is the tie-break list the
/// lines were ranked by.
///
/// ```
/// use tournament::result::Score::{Draw, Loss, Win};
/// use tournament::team::{standings, table, Board, TeamRound, TeamScoring};
///
/// let rounds = [TeamRound { round: 1, first: 0, second: Some(1), boards: vec![Win, Draw].into_iter().map(Board::from).collect() }];
/// let lines = standings(&["红队", "Blue"], &rounds, &TeamScoring::default(), &[]).unwrap();
/// assert_eq!(table::render(&lines, &[]), "Place  Team  MP   GP\n    1  红队   2  1.5\n    2  Blue   0  0.5\n");
/// ```
pub fn render(lines: &[TeamLine], order: &[TeamTieBreak]) -> String {
    let mut rows: Vec<Vec<String>> = vec![["Place", "Team", "MP", "GP"]
        .iter()
        .map(|s| s.to_string())
        .chain(order.iter().map(|tb| tb.code()))
        .collect()];
    for (i, l) in lines.iter().enumerate() {
        let shared = i > 0 && lines[i - 1].place == l.place;
        let place = if shared { String::new() } else { l.place.to_string() };
        rows.push(
            [place, l.name.clone(), number(l.match_points), number(l.game_points)]
                .into_iter()
                .chain(l.tiebreaks.iter().map(|&x| number(x)))
                .collect(),
        );
    }
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c] - width(cell));
            if c > 0 {
                line.push_str("  ");
            }
            // The team's name reads from the left, numbers from the right.
            if c == 1 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
