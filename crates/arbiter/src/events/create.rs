//! `arbiter tournament create`: a Swiss as its TRF, any other format as its plan of stages.

use anyhow::{bail, Context, Result};
use tournament::competition::{Draw, Event, Format, Plan, Seeding};
use tournament::event::{self, System};

use super::open;
use crate::TournamentCommand;

/// `W/D/L` as three numbers.
pub(super) fn three(s: &str, what: &str) -> Result<[f64; 3]> {
    let ps = event::parse_points(s).with_context(|| format!("--{what}"))?;
    Ok([ps.win, ps.draw, ps.loss].map(|t| f64::from(t) / 10.0))
}

fn draw_of(s: &str) -> Result<Draw> {
    Ok(match s {
        "seeded" => Draw::Seeded,
        "cards" => Draw::Cards,
        other => bail!("a knockout's draw is seeded or cards, not {other:?}"),
    })
}

pub(super) fn run(action: TournamentCommand) -> Result<()> {
    let TournamentCommand::Create {
        name,
        format,
        rounds,
        system,
        first,
        points,
        tiebreaks,
        games,
        playoff,
        playoff_time,
        draw,
        third_place,
        groups,
        separate,
        advance,
        final_format,
        final_draw,
        boards,
        match_points,
        game_points_first,
        board_points,
        seeding,
        seed,
        db,
    } = action
    else {
        bail!("not a create command");
    };
    let Some(system) = System::parse(&system) else {
        bail!("unknown system {system:?} (dutch, cxa)");
    };
    let format = if format == "swiss" && system == System::Cxa {
        "cxa-swiss".to_string()
    } else {
        format
    };
    let first_format = Format::parse(
        &format,
        rounds.unwrap_or(0) as u32,
        groups,
        draw_of(&draw)?,
        third_place,
    )?;
    // A Swiss of players alone is kept as its TRF; a Swiss of teams, or one feeding a final,
    // as a stage of the general model.
    if let (Format::Swiss { system, .. }, None, 0) = (first_format, &final_format, boards) {
        let Some(rounds) = rounds else {
            bail!("a Swiss needs --rounds");
        };
        if rounds == 0 || rounds > 99 {
            bail!("rounds: 1 to 99");
        }
        let first_white = match first.as_str() {
            "white" => true,
            "black" => false,
            _ => bail!("--first is white or black"),
        };
        let mut trf = event::create(&name, rounds, system, first_white);
        if let Some(p) = &points {
            event::set_points(&mut trf, &event::parse_points(p)?)?;
        }
        if let Some(t) = &tiebreaks {
            event::set_tiebreaks(&mut trf, &event::parse_tiebreaks(t)?);
        }
        let db = open(db.as_deref())?;
        db.run(db.store.create_event(&name, &event::text(&trf)))?;
        println!("created {name:?}: {} Swiss, {rounds} rounds", first_format.name());
        return Ok(());
    }
    match (first_format, rounds) {
        (Format::Swiss { .. }, None) => bail!("a Swiss needs --rounds"),
        (Format::Swiss { .. }, Some(r)) if r == 0 || r > 99 => bail!("rounds: 1 to 99"),
        (Format::Swiss { .. }, _) | (_, None) => {}
        (_, Some(_)) => bail!(
            "--rounds is for a Swiss; a {} pairs as many rounds as it takes",
            first_format.name()
        ),
    }
    if let Format::Groups { groups, .. } = first_format {
        if groups < 2 {
            bail!("groups need --groups (2 or more)");
        }
    }
    let mut first_plan = Plan::new(first_format);
    first_plan.separate = separate;
    let mut plan = vec![first_plan];
    if let Some(f) = final_format {
        let last = Format::parse(&f, 0, 0, draw_of(&final_draw)?, third_place)?;
        if matches!(last, Format::Swiss { .. } | Format::Groups { .. }) {
            bail!("the final stage is a round robin or a knockout");
        }
        if advance == 0 {
            bail!("--final needs --advance (how many go on; per group for groups)");
        }
        plan[0].advance = advance;
        plan.push(Plan::new(last));
    } else if advance > 0 {
        bail!("--advance needs --final (the stage they advance to)");
    }
    let mut e = Event::new(&name, plan);
    e.seed = seed;
    let knockout = first_format.needs_winner();
    e.settings.games = games.unwrap_or(if knockout { 3 } else { 1 });
    if e.settings.games == 0 || e.settings.games > 99 {
        bail!("--games: 1 to 99");
    }
    e.settings.playoff = playoff;
    e.settings.playoff_time = playoff_time;
    e.settings.boards = boards;
    if boards > 0 && games.is_some_and(|g| g > 1) {
        bail!("a team pairing is one match on its boards: --games is for players");
    }
    if boards > 0 {
        e.settings.games = 1;
    }
    e.settings.match_points = three(&match_points, "match-points")?;
    if let Some(p) = &points {
        e.settings.points = three(p, "points")?;
    }
    e.settings.game_points_first = game_points_first;
    if game_points_first && boards == 0 {
        bail!("--game-points-first is for team events (--boards)");
    }
    if let Some(b) = &board_points {
        if boards == 0 {
            bail!("--board-points is for team events (--boards)");
        }
        let parsed = tournament::team::BoardPoints::parse(b).map_err(anyhow::Error::msg)?;
        e.settings.board_points = Some(parsed);
    }
    if let Some(t) = &tiebreaks {
        super::formats::set_tiebreaks(&mut e, t)?;
    }
    e.settings.seeding = match seeding.as_str() {
        "rating" => Seeding::Rating,
        "registration" => Seeding::Registration,
        other => bail!("--seeding is rating or registration, not {other:?}"),
    };
    let db = open(db.as_deref())?;
    db.run(db.store.create_event(&name, &e.to_text()))?;
    let stages: Vec<&str> = e.plan.iter().map(|p| p.format.name()).collect();
    println!("created {name:?}: {}", stages.join(" then "));
    Ok(())
}
