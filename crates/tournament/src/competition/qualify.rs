//! Who qualifies from a stage for the next: the top of each group (or of a knockout), seeded
//! for the next stage, with play-offs (附加赛) and then lots for a tie on the last qualifying
//! place.

use super::knockout::winner_loser;
use super::pairing::{lot_seed, Pairing, Round};
use super::round_robin::letter;
use super::standings::stage_tables;
use super::{Error, Event};

/// What deciding the qualifiers of a stage came to.
pub(crate) enum Qualify {
    /// A tie on a qualifying place goes to this play-off first.
    PlayOff(Round),
    /// These go on, in seeding order for the next stage.
    Done(Vec<u32>),
}

/// Who goes on from stage `s`: the top `advance` of each group (or of the knockout), in
/// seeding order for the next stage — group winners first, group by group, then the
/// runners-up in reverse group order, and so on, so a seeded bracket keeps group winners
/// apart and a group's entrants apart in its first round. A tie across the last qualifying
/// place goes to a play-off (each pair of the tied meets once, a winner needed), then lots.
pub(crate) fn qualify(event: &Event, s: usize) -> Result<Qualify, Error> {
    let advance = event.plan[s].advance.max(1) as usize;
    let tables = stage_tables(event, s)?;
    let mut playoff: Vec<Pairing> = Vec::new();
    let mut ranked_groups: Vec<Vec<u32>> = Vec::new();
    let prefix = event.id_prefix(s);
    let done_playoffs: Vec<&Pairing> = event.stages[s].playoffs.iter().flat_map(|r| &r.pairings).collect();
    for (g, t) in tables.iter().enumerate() {
        if t.lines.len() <= advance {
            ranked_groups.push(t.lines.iter().map(|l| l.id).collect());
            continue;
        }
        let cut_place = t.lines[advance - 1].place;
        let tied: Vec<u32> = t.lines.iter().filter(|l| l.place == cut_place).map(|l| l.id).collect();
        let straddles = t.lines[advance].place == cut_place;
        let mut order: Vec<u32> = t.lines.iter().map(|l| l.id).collect();
        if straddles {
            let tag = if tables.len() > 1 { letter(g) } else { String::new() };
            let played: Vec<&&Pairing> = done_playoffs
                .iter()
                .filter(|p| tied.contains(&p.first) && p.second.is_some_and(|x| tied.contains(&x)))
                .collect();
            if played.is_empty() && event.settings.qualifying_playoffs {
                let mut b = 0;
                for (i, &x) in tied.iter().enumerate() {
                    for &y in &tied[i + 1..] {
                        b += 1;
                        playoff.push(Pairing::new(format!("{prefix}{tag}PO.{b}"), x, Some(y)));
                    }
                }
                continue;
            }
            let wins = |id: u32| {
                played
                    .iter()
                    .filter(|p| winner_loser(event, s, p).is_some_and(|(w, _)| w == id))
                    .count()
            };
            let seed = lot_seed(event.seed, &format!("{prefix}{tag}qualify"));
            let mut sorted = tied.clone();
            sorted.sort_by_key(|&id| {
                (
                    std::cmp::Reverse(wins(id)),
                    crate::lots::splitmix64(seed ^ u64::from(id)),
                )
            });
            let start = order
                .iter()
                .position(|id| tied.contains(id))
                .expect("tied are in the table");
            order.splice(start..start + sorted.len(), sorted);
        }
        ranked_groups.push(order);
    }
    if !playoff.is_empty() {
        let number = event.stages[s].playoffs.len() as u32 + 1;
        return Ok(Qualify::PlayOff(Round {
            number,
            pairings: playoff,
            draw: Some("play-off for a qualifying place (附加赛)".into()),
        }));
    }
    // The groups' qualifiers, seeded so a bracket keeps group winners and group mates apart.
    let groups: Vec<Vec<usize>> = ranked_groups
        .iter()
        .map(|g| g.iter().take(advance).map(|&id| id as usize).collect())
        .collect();
    let out = if groups.iter().all(|g| g.len() == advance) {
        crate::groups::final_seeding(&groups, advance)
            .map_err(|e| Error::other(e.to_string()))?
            .into_iter()
            .map(|id| id as u32)
            .collect()
    } else {
        (0..advance)
            .flat_map(|row| groups.iter().filter_map(move |g| g.get(row)))
            .map(|&id| id as u32)
            .collect()
    };
    Ok(Qualify::Done(out))
}
