//! A Swiss as one stage of a longer event (a Swiss preliminary feeding a knockout, say): its
//! TRF kept inside the stage and paired by [`crate::event`], each round mirrored as the
//! stage's pairings so results, standings and qualifiers work as in every other stage.
//! Players are matched between the two by name (names are unique in an event).

use super::pairing::{Pairing, Round, Side, Verdict};
use super::progress::rule;
use super::standings::{Standing, Table};
use super::{Error, Event, Format, Stage};
use crate::event::{self as swiss_event, System};
use crate::trf::Trf;

fn trf_of(stage: &Stage) -> Result<Trf, Error> {
    let text = stage
        .trf
        .as_deref()
        .ok_or_else(|| Error::other("the Swiss stage has no TRF"))?;
    Trf::parse(text).map_err(|e| Error::other(e.to_string()))
}

/// The TRF of a Swiss stage starting with `field` (in seeding order).
pub(crate) fn start(event: &Event, s: usize, field: &[u32]) -> Result<String, Error> {
    let Format::Swiss { system, rounds } = event.plan[s].format else {
        return Err(Error::other("not a Swiss stage"));
    };
    if rounds == 0 {
        return Err(Error::other("a Swiss stage needs its number of rounds"));
    }
    let mut trf = swiss_event::create(&event.name, rounds as usize, system, true);
    if event.teams() {
        // A Swiss of teams pairs on what ranks them: its TRF records each team pairing's
        // result, scored as the event's match points (a 3/1/0 puts a win and a loss above two
        // draws, as 1/½/0 would not).
        swiss_event::set_points(&mut trf, &match_point_system(event))
            .map_err(|e| Error::other(format!("match points: {e}")))?;
    } else if system == System::Dutch || event.settings.points != [1.0, 0.5, 0.0] {
        swiss_event::set_points(&mut trf, &event.point_system()).map_err(|e| Error::other(e.to_string()))?;
    }
    for &id in field {
        let e = event
            .entrant(id)
            .ok_or_else(|| Error::other(format!("no entrant {id}")))?;
        swiss_event::register(&mut trf, &e.name, e.rating, &e.club.chars().take(3).collect::<String>())
            .map_err(|err| Error::other(err.to_string()))?;
    }
    Ok(swiss_event::text(&trf))
}

fn system(event: &Event, s: usize) -> System {
    match event.plan[s].format {
        Format::Swiss { system, .. } => system,
        _ => System::Dutch,
    }
}

/// The event's match points as a TRF counts them (tenths), a pairing-allocated bye worth a
/// won match.
fn match_point_system(event: &Event) -> crate::dutch::PointSystem {
    let [win, draw, loss] = event.settings.match_points.map(|x| (x * 10.0).round().max(0.0) as u32);
    crate::dutch::PointSystem {
        win,
        draw,
        loss,
        zero_bye: 0,
        forfeit_loss: 0,
        pab: win,
    }
}

/// The entrant a TRF player is.
fn entrant_of(event: &Event, trf: &Trf, number: u32) -> Option<u32> {
    let name = &trf.player(number)?.name;
    event.entrants.iter().find(|e| &e.name == name).map(|e| e.id)
}

fn number_of(event: &Event, trf: &Trf, id: u32) -> Option<u32> {
    let name = &event.entrant(id)?.name;
    trf.players.iter().find(|p| &p.name == name).map(|p| p.number)
}

/// Pairs the Swiss's next round into its TRF and returns it as the stage's round, or `None`
/// when all its rounds are played.
pub(crate) fn next(event: &mut Event, s: usize) -> Result<Option<Round>, Error> {
    let Format::Swiss { rounds, .. } = event.plan[s].format else {
        return Ok(None);
    };
    let mut trf = trf_of(&event.stages[s])?;
    let paired = crate::dutch::rounds_paired(&trf);
    if paired >= rounds as usize {
        return Ok(None);
    }
    // Withdrawn entrants are not paired from this round on.
    for e in event.entrants.iter().filter(|e| e.withdrawn) {
        if let Some(n) = number_of(event, &trf, e.id) {
            let _ = swiss_event::withdraw(&mut trf, n, paired + 1);
        }
    }
    let seed = super::pairing::lot_seed(event.seed, &format!("swiss{}", paired + 1));
    let pairing = if event.teams() && event.settings.game_points_first && system(event, s) == System::Dutch {
        super::swiss_teams::pair(event, s, &mut trf, seed)?
    } else {
        swiss_event::pair(&mut trf, seed).map_err(|e| Error::other(e.to_string()))?
    };
    let r = paired + 1;
    let prefix = event.id_prefix(s);
    let mut pairings = Vec::new();
    for (b, &(w, k)) in pairing.boards.iter().enumerate() {
        let (Some(w), Some(k)) = (entrant_of(event, &trf, w), entrant_of(event, &trf, k)) else {
            return Err(Error::other("a Swiss board names a player who is not entered"));
        };
        pairings.push(Pairing::new(format!("{prefix}{r}.{}", b + 1), w, Some(k)));
    }
    if let Some(bye) = pairing.bye.and_then(|n| entrant_of(event, &trf, n)) {
        pairings.push(Pairing::new(format!("{prefix}{r}.bye"), bye, None));
    }
    event.stages[s].trf = Some(swiss_event::text(&trf));
    Ok(Some(Round {
        number: r as u32,
        pairings,
        draw: Some(format!("{} round {r}", event.plan[s].format.name())),
    }))
}

/// Writes pairing `id`'s result into the stage's TRF, as the Swiss counts it: a game, or a
/// team match as its verdict (a forfeit only when no board was played). A pairing without a
/// verdict (a correction entered in part) takes the TRF's result back to none, so neither the
/// next pairing nor the standings count what it replaced.
pub(crate) fn record(event: &mut Event, s: usize, id: &str) -> Result<(), Error> {
    let Some(round) = event.stages[s]
        .rounds
        .iter()
        .find(|r| r.pairings.iter().any(|p| p.id == id))
        .map(|r| r.number)
    else {
        return Ok(());
    };
    let p = event
        .pairing(id)
        .map(std::borrow::Cow::into_owned)
        .ok_or_else(|| Error::other(format!("no pairing {id}")))?;
    let mut trf = trf_of(&event.stages[s])?;
    let (Some(w), Some(b)) = (
        number_of(event, &trf, p.first),
        p.second.and_then(|x| number_of(event, &trf, x)),
    ) else {
        return Ok(());
    };
    let every = |f: fn(&super::Game) -> bool| !p.games.is_empty() && p.games.iter().all(f);
    let (double_forfeit, forfeit) = (every(|g| g.double_forfeit), every(|g| g.forfeit || g.double_forfeit));
    let text = match p.verdict(rule(event, s, &p)) {
        Verdict::Bye => return Ok(()),
        Verdict::Pending => None,
        _ if double_forfeit => Some("-/-"),
        Verdict::Won(Side::First) if forfeit => Some("+/-"),
        Verdict::Won(Side::Second) if forfeit => Some("-/+"),
        Verdict::Won(Side::First) => Some("1-0"),
        Verdict::Won(Side::Second) => Some("0-1"),
        Verdict::Drawn => Some("1/2"),
    };
    match text {
        Some(text) => swiss_event::set_result(&mut trf, round as usize, w, b, text),
        None => swiss_event::clear_result(&mut trf, round as usize, w, b),
    }
    .map_err(|e| Error::other(e.to_string()))?;
    event.stages[s].trf = Some(swiss_event::text(&trf));
    Ok(())
}

/// The Swiss stage's standings: points, then the event's tie-breaks (BH-C1, BH, SB unless
/// it names FIDE codes of its own); a Swiss of teams as a team table, like a round robin of
/// teams.
pub(crate) fn table(event: &Event, s: usize, title: String) -> Result<Table, Error> {
    if event.teams() {
        return super::standings::team_standings(event, s, &event.stages[s].entrants, true);
    }
    let trf = trf_of(&event.stages[s])?;
    let order = match event.settings.tiebreaks.is_empty() {
        true => swiss_event::parse_tiebreaks("BH-C1,BH,SB"),
        false => swiss_event::parse_tiebreaks(&event.settings.tiebreaks.join(",")),
    }
    .map_err(|e| Error::other(e.to_string()))?;
    let lines = crate::standings::standings(&trf, &order)
        .into_iter()
        .filter_map(|l| {
            Some(Standing {
                place: l.place,
                id: entrant_of(event, &trf, l.number)?,
                name: l.name,
                points: l.points,
                tiebreaks: l.tiebreaks,
                note: String::new(),
            })
        })
        .collect();
    Ok(Table {
        stage: s,
        title,
        columns: order.iter().map(|t| t.code().to_string()).collect(),
        lines,
    })
}
