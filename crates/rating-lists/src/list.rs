//! Rating an event into a list kept in the store: the event's games are rated from the
//! players' standings in the list (or their starting values, or a new player's default), and
//! the new standings and what changed are saved in one transaction — only if the list did not
//! change meanwhile; if it did, the event is rated again from the list as it now is.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Result};
use store::ratings::{Origin, Rated, System};
use store::{RatingError, Store};

use crate::standing::{self, State};
use crate::Game;

/// How often an update is computed again when another came first.
const ATTEMPTS: usize = 5;

/// One player's change in an update.
#[derive(Debug, Clone)]
pub struct Row {
    pub player: String,
    /// Where `before` came from.
    pub origin: Origin,
    /// Games played in the event (0: a Glicko-2 player whose deviation widened).
    pub played: u32,
    pub before: State,
    pub after: State,
}

/// What an update did: the list's new version and every player it changed, highest first.
#[derive(Debug, Clone)]
pub struct Report {
    pub list: String,
    pub system: System,
    pub version: u64,
    pub games: usize,
    pub rows: Vec<Row>,
}

/// Rates `games` into the list `list` (created under `system` if there is none; `None` takes
/// the list's), with `start` the starting values for players not yet in it, and records the
/// changes under `source`. Nothing is saved when anything fails; when another update came
/// first, the games are rated again from the list as it now is.
pub async fn rate_into(
    store: &Store,
    list: &str,
    system: Option<System>,
    games: &[Game],
    source: &str,
    start: &BTreeMap<String, State>,
) -> Result<Report> {
    rate_period(store, list, system, games, source, start, Period::Event).await
}

/// Rates one game, ended at `now`, into `list` as a rating period of its own, as a site rates
/// its games one by one (lichess does): only its two players are read and change — under
/// Glicko-2 the rest of the list is not widened by every game somebody else plays, and each
/// player's deviation first grows with the time since they were last rated in the list.
pub async fn rate_game_into(
    store: &Store,
    list: &str,
    system: Option<System>,
    game: &Game,
    source: &str,
    now: SystemTime,
) -> Result<Report> {
    let games = std::slice::from_ref(game);
    rate_period(store, list, system, games, source, &BTreeMap::new(), Period::Game(now)).await
}

/// Glicko-2 rating periods a day of time away, as lichess counts them (its
/// `ratingPeriodsPerDay`): a settled deviation of 50 grows to ~115 in about 15 months away.
pub const GLICKO2_PERIODS_PER_DAY: f64 = 0.21436;

/// What a rating period is: an event, where the whole list takes part (Glicko-2 widens the
/// deviation of those who did not play), or one game ended at a time, where only its players do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Period {
    Event,
    Game(SystemTime),
}

/// `state` of `player` as of `now`: under Glicko-2 its deviation grown by the days since the
/// player was last rated in `list`.
async fn as_of(store: &Store, list: &str, player: &str, state: State, now: SystemTime) -> Result<State> {
    let State::Glicko2 { rating, games } = state else {
        return Ok(state);
    };
    let Some(last) = store.last_rated(list, player).await? else {
        return Ok(state);
    };
    let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let days = (now - last).max(0) as f64 / 86_400.0;
    Ok(State::Glicko2 {
        rating: ratings::glicko2::widen(rating, days * GLICKO2_PERIODS_PER_DAY),
        games,
    })
}

async fn rate_period(
    store: &Store,
    list: &str,
    system: Option<System>,
    games: &[Game],
    source: &str,
    start: &BTreeMap<String, State>,
    period: Period,
) -> Result<Report> {
    if games.is_empty() {
        bail!("no rated games to rate into {list:?}");
    }
    if let Some(g) = games.iter().find(|g| g.first == g.second) {
        bail!("{} cannot play themselves; nothing was rated", g.first);
    }
    for attempt in 1..=ATTEMPTS {
        let stored = match period {
            Period::Event => store.rating_list(list).await?,
            Period::Game(_) => {
                let players: Vec<&str> = games.iter().flat_map(|g| [&*g.first, &*g.second]).collect();
                store.rating_list_of(list, &players).await?
            }
        };
        let system = match (&stored, system) {
            (Some(l), Some(s)) if l.system != s => {
                bail!("rating list {list:?} keeps {} ratings, not {s}", l.system)
            }
            (Some(l), _) => l.system,
            (None, Some(s)) => s,
            (None, None) => bail!("no rating list named {list:?}; name its system (--system) to start one"),
        };
        if let Some((name, s)) = start.iter().find(|(_, s)| s.system() != system) {
            bail!("the starting values of {name} are {}, the list is {system}", s.system());
        }
        let mut before: BTreeMap<String, (Origin, State)> = BTreeMap::new();
        if let Some(l) = &stored {
            for (name, text) in &l.standings {
                let mut state = State::from_json(system, text)?;
                if let Period::Game(now) = period {
                    state = as_of(store, list, name, state, now).await?;
                }
                before.insert(name.clone(), (Origin::List, state));
            }
        }
        for g in games {
            for name in [&g.first, &g.second] {
                if !before.contains_key(name) {
                    let entry = match start.get(name) {
                        Some(s) => (Origin::Start, *s),
                        None => (Origin::New, State::new(system)),
                    };
                    before.insert(name.clone(), entry);
                }
            }
        }
        let states: BTreeMap<String, State> = before.iter().map(|(n, (_, s))| (n.clone(), *s)).collect();
        let after = standing::rate(system, &states, games)?;
        let mut played: BTreeMap<&str, u32> = BTreeMap::new();
        for g in games {
            *played.entry(&g.first).or_default() += 1;
            *played.entry(&g.second).or_default() += 1;
        }
        let mut rows: Vec<Row> = after
            .iter()
            .map(|(name, a)| Row {
                player: name.clone(),
                origin: before[name].0,
                played: played.get(name.as_str()).copied().unwrap_or(0),
                before: before[name].1,
                after: *a,
            })
            .collect();
        rows.sort_by(|a, b| b.after.key().total_cmp(&a.after.key()).then(a.player.cmp(&b.player)));
        let rated: Vec<Rated> = rows
            .iter()
            .map(|r| Rated {
                player: r.player.clone(),
                origin: r.origin,
                before: r.before.to_json().to_string(),
                after: r.after.to_json().to_string(),
            })
            .collect();
        let read = stored.as_ref().map_or(0, |l| l.version);
        match store.update_ratings(list, system, read, source, &rated).await {
            Ok(version) => {
                return Ok(Report {
                    list: list.into(),
                    system,
                    version,
                    games: games.len(),
                    rows,
                })
            }
            Err(RatingError::Changed { .. }) if attempt < ATTEMPTS => continue,
            Err(e) => return Err(e.into()),
        }
    }
    unreachable!("the last attempt returns")
}
