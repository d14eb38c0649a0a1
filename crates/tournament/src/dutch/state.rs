//! What the criteria read of each player: colour preference (C.04.3 Art. 1.6), floats (1.4),
//! eligibility for the pairing-allocated bye (C2), and which pairs may meet (C1, C3).

use super::model::{Event, Tenths};
use crate::trf::Colour;
use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// One player to be paired this round.
#[derive(Debug, Clone)]
pub struct Player {
    pub index: usize,
    pub rank: usize,
    /// Score with acceleration (what brackets are made of).
    pub score: Tenths,
    /// Score without acceleration (board order).
    pub raw_score: Tenths,
    pub played_games: usize,
    /// Colours of the games played, in order.
    pub colours: Vec<Colour>,
    /// |whites − blacks| over played games.
    pub imbalance: usize,
    pub preference: Colour,
    /// The colour of the last two played games when they were the same.
    pub repeated: Colour,
    pub strong: bool,
    pub eligible_for_bye: bool,
    /// Floats one and two rounds before.
    pub floats: [Float; 2],
}

impl Player {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated != Colour::None
    }
}

pub struct State {
    pub rounds_played: usize,
    /// Players to pair, best first (score with acceleration, then pairing number).
    pub players: Vec<Player>,
    forbidden: HashSet<(usize, usize)>,
    /// Scores above this are topscorers' (only when pairing the last round).
    topscore: Option<Tenths>,
}

impl State {
    pub fn new(event: &Event) -> State {
        let round = event.played_rounds;
        let mut forbidden = HashSet::new();
        for f in event.forbidden.iter().filter(|f| f.from <= round && round < f.to) {
            for &a in &f.players {
                for &b in &f.players {
                    if a != b {
                        forbidden.insert((a, b));
                    }
                }
            }
        }
        let mut players = Vec::new();
        for (me, e) in event.entrants.iter().enumerate() {
            if !e.valid {
                continue;
            }
            for m in e.matches.iter().filter(|m| m.played) {
                forbidden.insert((me, m.opponent));
                forbidden.insert((m.opponent, me));
            }
            if event.to_pair(me) {
                players.push(player(event, me));
            }
        }
        players.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
        let last_round = round + 1 >= event.total_rounds;
        let best = event.points.win.max(event.points.draw);
        State {
            rounds_played: round,
            players,
            forbidden,
            topscore: last_round.then_some(round as Tenths * best / 2),
        }
    }

    fn topscorer(&self, p: &Player) -> bool {
        self.topscore.is_some_and(|t| p.score > t)
    }

    /// C1 and C3: not met before (or forbidden by the organiser), and not two non-topscorers with
    /// the same absolute colour preference.
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        let (p, q) = (&self.players[a], &self.players[b]);
        !self.forbidden.contains(&(p.index, q.index))
            && (!p.absolute()
                || !q.absolute()
                || p.preference != q.preference
                || self.topscorer(p)
                || self.topscorer(q))
    }
}

fn player(event: &Event, me: usize) -> Player {
    let e = &event.entrants[me];
    let (mut white, mut black, mut run, mut last, mut played) = (0usize, 0usize, 0usize, Colour::None, 0);
    let mut colours = Vec::new();
    for m in e.matches.iter().filter(|m| m.played) {
        played += 1;
        colours.push(m.colour);
        if m.colour == Colour::White {
            white += 1;
        } else {
            black += 1;
        }
        run = if run == 0 || m.colour != last { 1 } else { run + 1 };
        last = m.colour;
    }
    let lower = if white > black { Colour::Black } else { Colour::White };
    let imbalance = white.abs_diff(black);
    let other = super::model::invert(last);
    let preference = if imbalance > 1 {
        lower
    } else if run > 1 {
        other
    } else if imbalance > 0 {
        lower
    } else if run > 0 {
        other
    } else {
        Colour::None
    };
    let repeated = if run > 1 { last } else { Colour::None };
    let absolute = imbalance > 1 || repeated != Colour::None;
    let eligible_for_bye = !e
        .matches
        .iter()
        .any(|m| !m.played && (event.points_of(me, m) >= event.points.win || (m.paired && m.opponent == me)));
    let float = |back: usize| {
        if event.played_rounds < back {
            return Float::None;
        }
        let m = &e.matches[event.played_rounds - back];
        if !m.played {
            return if event.points_of(me, m) > event.points.loss {
                Float::Down
            } else {
                Float::None
            };
        }
        let (mine, theirs) = (event.pairing_score(me, back), event.pairing_score(m.opponent, back));
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    };
    Player {
        index: me,
        rank: e.rank,
        score: event.pairing_score(me, 0),
        raw_score: e.score,
        played_games: played,
        colours,
        imbalance,
        preference,
        repeated,
        strong: !absolute && imbalance > 0,
        eligible_for_bye,
        floats: [float(1), float(2)],
    }
}
