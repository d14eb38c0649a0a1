//! What an event is created from: the command line's `tournament create` options, and the
//! games' settings as `POST /api/game` takes them; checked as the command line checks them.

use game::Kind;
use serde::Deserialize;
use store::ServedEvent;
use tournament::competition::{Draw, Event, Format, Plan, Seeding};

use super::model_error;
use crate::error::{ApiError, Problem};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateEvent {
    name: String,
    /// As `arbiter tournament create` names it.
    format: String,
    rounds: Option<u32>,
    groups: Option<u32>,
    /// Games a pairing plays (best of N in a knockout; default 3 there, else 1).
    games: Option<u32>,
    /// A team event: each team pairing is played on this many boards.
    boards: Option<u32>,
    /// A team event's boards scored by colour, `W/RD/BD/L` (e.g. `3/1/2/0`: a draw with black
    /// above one with red).
    board_points: Option<String>,
    playoff: Option<u32>,
    playoff_time: Option<String>,
    /// A knockout's draw: `seeded` or `cards`.
    draw: Option<String>,
    third_place: Option<bool>,
    #[serde(rename = "final")]
    final_format: Option<String>,
    final_draw: Option<String>,
    advance: Option<u32>,
    separate: Option<bool>,
    /// `W/D/L`, e.g. `1/0.5/0` or `3/1/0`.
    points: Option<String>,
    tiebreaks: Option<String>,
    seeding: Option<String>,
    seed: Option<u64>,
    /// The games: as `POST /api/game` takes them.
    kind: String,
    ruleset: Option<String>,
    rules: Option<String>,
    clock: Option<Clock>,
    /// Anyone with the event's id may join with a name.
    open_registration: Option<bool>,
    /// The public sees the standings only as the organiser publishes them.
    publish_standings: Option<bool>,
    /// The rating list (`arbiter rate --list`) its games are rated into when it ends.
    pub rating_list: Option<String>,
    /// `levels`, `elo` or `glicko2`: the list's system, to start it if there is none by then.
    pub rating_system: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Clock {
    limit: f64,
    increment: f64,
}

fn draw_of(s: Option<&str>) -> Result<Draw, ApiError> {
    match s.unwrap_or("seeded") {
        "seeded" => Ok(Draw::Seeded),
        "cards" => Ok(Draw::Cards),
        other => Err(ApiError::bad(
            Problem::KnockoutDraw,
            format!("a knockout's draw is seeded or cards, not {other:?}"),
        )
        .arg("draw", other)),
    }
}

/// The event and its games' settings from a create request, checked as the command line
/// checks them.
pub fn event_of(req: &CreateEvent) -> Result<(Event, ServedEvent), ApiError> {
    let bad = |problem: Problem, m: &str| Err(ApiError::bad(problem, m));
    let name = req.name.trim();
    if name.is_empty() || name.len() > 200 {
        return Err(ApiError::bad(Problem::EventNameLength, "name: 1 to 200 characters").arg("max", 200));
    }
    let third = req.third_place.unwrap_or(false);
    let first = Format::parse(
        &req.format,
        req.rounds.unwrap_or(0),
        req.groups.unwrap_or(0),
        draw_of(req.draw.as_deref())?,
        third,
    )
    .map_err(model_error)?;
    let mut plan = vec![Plan::new(first)];
    plan[0].separate = req.separate.unwrap_or(false);
    match (first, req.rounds) {
        (Format::Swiss { .. }, None) => return bad(Problem::SwissNeedsRounds, "a Swiss needs rounds"),
        (Format::Swiss { .. }, Some(r)) if r == 0 || r > 99 => {
            return Err(ApiError::bad(Problem::EventRounds, "rounds: 1 to 99").arg("max", 99))
        }
        (Format::Swiss { .. }, _) | (_, None) => {}
        (_, Some(_)) => {
            return bad(
                Problem::RoundsForSwiss,
                &format!("rounds are for a Swiss; a {} pairs as many as it takes", first.name()),
            )
        }
    }
    if let Format::Groups { groups, .. } = first {
        if groups < 2 {
            return bad(Problem::GroupsCount, "groups need groups (2 or more)");
        }
    }
    let advance = req.advance.unwrap_or(0);
    match &req.final_format {
        Some(f) => {
            let last = Format::parse(f, 0, 0, draw_of(req.final_draw.as_deref())?, third).map_err(model_error)?;
            if matches!(last, Format::Swiss { .. } | Format::Groups { .. }) {
                return bad(Problem::FinalFormat, "the final stage is a round robin or a knockout");
            }
            if advance == 0 {
                return bad(
                    Problem::FinalNeedsAdvance,
                    "final needs advance (how many go on; per group for groups)",
                );
            }
            plan[0].advance = advance;
            plan.push(Plan::new(last));
        }
        None if advance > 0 => {
            return bad(
                Problem::AdvanceNeedsFinal,
                "advance needs final (the stage they advance to)",
            )
        }
        None => {}
    }
    let mut e = Event::new(name, plan);
    // A Swiss alone too is a stage of the general model here, so every format is run alike.
    e.settings.general = matches!(first, Format::Swiss { .. }) && e.plan.len() == 1;
    e.seed = req.seed.unwrap_or_else(rand::random);
    e.settings.games = req.games.unwrap_or(if first.needs_winner() { 3 } else { 1 });
    if e.settings.games == 0 || e.settings.games > 99 {
        return Err(ApiError::bad(Problem::GamesPerMatch, "games: 1 to 99").arg("max", 99));
    }
    if let Some(b) = req.boards {
        if b > 20 {
            return Err(ApiError::bad(Problem::BoardsBounds, "boards: 0 to 20").arg("max", 20));
        }
        e.settings.boards = b;
    }
    if let Some(p) = &req.board_points {
        if e.settings.boards == 0 {
            return bad(Problem::BoardPointsForTeams, "boardPoints is for a team event (boards)");
        }
        let parsed = tournament::team::BoardPoints::parse(p)
            .map_err(|why| ApiError::bad(Problem::BadBoardPoints, why).arg("text", p.as_str()))?;
        e.settings.board_points = Some(parsed);
    }
    if let Some(p) = req.playoff {
        if p > 99 {
            return Err(ApiError::bad(Problem::PlayoffBounds, "playoff: 0 to 99").arg("max", 99));
        }
        e.settings.playoff = p;
    }
    e.settings.playoff_time = req.playoff_time.clone();
    if let Some(p) = &req.points {
        let ps = tournament::event::parse_points(p)
            .map_err(|e| ApiError::bad(Problem::BadPoints, format!("points: {e}")).arg("text", p.as_str()))?;
        e.settings.points = [ps.win, ps.draw, ps.loss].map(|t| f64::from(t) / 10.0);
    }
    if let Some(t) = &req.tiebreaks {
        e.settings.tiebreaks = t
            .split([',', ' '])
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(code) = e
            .settings
            .tiebreaks
            .iter()
            .find(|c| tournament::event::parse_tiebreaks(c).is_err())
        {
            return Err(
                ApiError::bad(Problem::UnknownTiebreak, format!("unknown tie-break {code:?}"))
                    .arg("code", code.as_str()),
            );
        }
        e.tiebreak_order().map_err(model_error)?;
    }
    e.settings.seeding = match req.seeding.as_deref().unwrap_or("rating") {
        "rating" => Seeding::Rating,
        "registration" => Seeding::Registration,
        other => {
            return Err(ApiError::bad(
                Problem::UnknownSeeding,
                format!("seeding is rating or registration, not {other:?}"),
            )
            .arg("seeding", other))
        }
    };
    let kind = crate::seeks::kind_of(&req.kind)?;
    let clock = match &req.clock {
        Some(c) if !(0.0..=86_400.0).contains(&c.limit) || !(0.0..=3_600.0).contains(&c.increment) => {
            return Err(
                ApiError::bad(Problem::ClockBounds, "clock: limit 0 to 86400 s, increment 0 to 3600 s")
                    .arg("limit", 86_400)
                    .arg("increment", 3_600),
            )
        }
        Some(c) => Some(((c.limit * 1000.0).round() as u64, (c.increment * 1000.0).round() as u64)),
        None => None,
    };
    let served = ServedEvent {
        kind,
        ruleset: req.ruleset.clone().unwrap_or_else(|| "online".into()),
        rules: req
            .rules
            .clone()
            .unwrap_or_else(|| if kind == Kind::Xiangqi { "cxa" } else { "fide" }.into()),
        clock,
        open_registration: req.open_registration.unwrap_or(false),
        rating_list: rating_list(req)?,
        publish_standings: req.publish_standings.unwrap_or(false),
        paused: false,
    };
    super::spec_of(&served).validate()?;
    Ok((e, served))
}

/// The rating list named, checked as far as it can be without the store.
fn rating_list(req: &CreateEvent) -> Result<Option<(String, Option<String>)>, ApiError> {
    let system = req
        .rating_system
        .as_deref()
        .map(|s| {
            s.parse::<store::ratings::System>()
                .map_err(|why| ApiError::bad(Problem::UnknownRatingSystem, why).arg("system", s))
        })
        .transpose()?;
    match req.rating_list.as_deref().map(str::trim) {
        None if system.is_some() => Err(ApiError::bad(
            Problem::RatingSystemNeedsList,
            "ratingSystem is the system of ratingList: name the list",
        )),
        None => Ok(None),
        Some(l) if l.is_empty() || l.len() > 100 => {
            Err(ApiError::bad(Problem::RatingListLength, "ratingList: 1 to 100 characters").arg("max", 100))
        }
        Some(l) => Ok(Some((l.to_string(), system.map(|s| s.as_str().to_string())))),
    }
}
