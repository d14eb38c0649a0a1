//! A round robin of single games between players, kept compact: its pairings follow from the
//! Berger tables, so a played round is kept as one result code a board ([`Stage::compact`]),
//! in the order [`super::round_robin::pairings`] lists the round's pairings. A round of a
//! 10,000-player field is 5,000 bytes instead of 5,000 pairings, and a middle round of it
//! (25 million games behind) still reads, changes and writes back in well under a second.
//!
//! Only what reads back exactly is folded: a round whose pairings, rebuilt from the tables
//! and its codes, equal it. Matches of N games, team pairings, lots and lineups keep the full
//! form. A round is materialised where one is asked for ([`Event::stage_round`]).
//!
//! [`Stage::compact`]: super::Stage::compact

use std::borrow::Cow;

use super::pairing::{Game, Pairing, Round};
use super::{round_robin, Event, Format};
use crate::result::Score;

/// No result (a bye's board, or a game still to play).
pub(crate) const NONE: u8 = b'.';

/// The code of a pairing's result, if it has one of the forms kept compact.
fn code(p: &Pairing) -> Option<u8> {
    if p.lot.is_some() || p.lineups.is_some() {
        return None;
    }
    let [g] = p.games.as_slice() else {
        return p.games.is_empty().then_some(NONE);
    };
    Some(match (g.score, g.forfeit, g.double_forfeit) {
        (Score::Win, false, false) => b'1',
        (Score::Draw, false, false) => b'=',
        (Score::Loss, false, false) => b'0',
        (Score::Win, true, false) => b'+',
        (Score::Loss, true, false) => b'-',
        (Score::Loss, false, true) => b'/',
        _ => return None,
    })
}

/// The games a code stands for.
pub(crate) fn games(code: u8) -> Vec<Game> {
    let g = |score, forfeit, double_forfeit| {
        vec![Game {
            score,
            forfeit,
            double_forfeit,
        }]
    };
    match code {
        b'1' => g(Score::Win, false, false),
        b'=' => g(Score::Draw, false, false),
        b'0' => g(Score::Loss, false, false),
        b'+' => g(Score::Win, true, false),
        b'-' => g(Score::Loss, true, false),
        b'/' => g(Score::Loss, false, true),
        _ => Vec::new(),
    }
}

/// Whether stage `s` keeps its decided rounds compact: a round robin or groups of players,
/// one game a pairing.
pub(crate) fn applies(event: &Event, s: usize) -> bool {
    matches!(event.plan[s].format, Format::RoundRobin { .. } | Format::Groups { .. })
        && !event.teams()
        && event.settings.games.max(1) == 1
}

/// The round's codes, if it reads back exactly from them and the tables.
pub(crate) fn encode(event: &Event, s: usize, round: &Round) -> Option<String> {
    if round.draw.is_some() {
        return None;
    }
    let codes: Vec<u8> = round.pairings.iter().map(code).collect::<Option<_>>()?;
    let codes = String::from_utf8(codes).ok()?;
    (decode(event, s, round.number, &codes)? == *round).then_some(codes)
}

/// Round `number` of stage `s` from its codes; `None` if they do not fit the tables.
fn decode(event: &Event, s: usize, number: u32, codes: &str) -> Option<Round> {
    let mut pairings = round_robin::pairings(event, s, number as usize)?;
    if pairings.len() != codes.len() {
        return None;
    }
    for (p, c) in pairings.iter_mut().zip(codes.bytes()) {
        p.games = games(c);
    }
    Some(Round {
        number,
        pairings,
        draw: None,
    })
}

/// Moves the stage's leading decided rounds that read back exactly into its compact form.
pub(crate) fn fold(event: &mut Event, s: usize) {
    if !applies(event, s) {
        return;
    }
    let mut folded = Vec::new();
    for round in &event.stages[s].rounds {
        let decided = round.pairings.iter().all(|p| p.second.is_none() || !p.games.is_empty());
        match encode(event, s, round) {
            Some(codes) if decided => folded.push(codes),
            _ => break,
        }
    }
    let stage = &mut event.stages[s];
    stage.rounds.drain(..folded.len());
    stage.compact.extend(folded);
}

/// The round number a pairing id of stage `s` names, if it is one of a round robin's
/// (`[prefix][group]R.B`).
fn round_of(event: &Event, s: usize, id: &str) -> Option<usize> {
    let prefix = event.id_prefix(s);
    let rest = id
        .get(..prefix.len())
        .filter(|p| p.eq_ignore_ascii_case(&prefix))
        .map(|_| &id[prefix.len()..])?;
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    rest.split_once('.')?.0.parse().ok()
}

impl super::Stage {
    /// Rounds paired so far, compact ones included.
    pub fn round_count(&self) -> usize {
        self.compact.len() + self.rounds.len()
    }
}

impl Event {
    /// Round `number` (from 1) of stage `s`, materialised from its codes if kept compact.
    pub fn stage_round(&self, s: usize, number: usize) -> Option<Cow<'_, Round>> {
        let stage = self.stages.get(s)?;
        let k = number.checked_sub(1)?;
        match stage.compact.get(k) {
            Some(codes) => decode(self, s, number as u32, codes).map(Cow::Owned),
            None => stage.rounds.get(k - stage.compact.len()).map(Cow::Borrowed),
        }
    }

    /// Every round of stage `s` in order (play-offs not included), compact ones materialised
    /// one at a time.
    pub fn stage_rounds(&self, s: usize) -> impl Iterator<Item = Cow<'_, Round>> {
        let n = self.stages.get(s).map_or(0, |st| st.round_count());
        (1..=n).filter_map(move |r| self.stage_round(s, r))
    }

    /// Pairing `id` of stage `s` if it is in a compact round, with the round's index there.
    pub(crate) fn compact_pairing(&self, s: usize, id: &str) -> Option<(usize, usize, Pairing)> {
        let stage = &self.stages[s];
        if stage.compact.is_empty() {
            return None;
        }
        let r = round_of(self, s, id)?;
        let codes = stage.compact.get(r.checked_sub(1)?)?;
        let round = decode(self, s, r as u32, codes)?;
        let (b, p) = round
            .pairings
            .into_iter()
            .enumerate()
            .find(|(_, p)| p.id.eq_ignore_ascii_case(id))?;
        Some((r - 1, b, p))
    }

    /// Writes pairing `p` of stage `s` back where it is kept: in its round, or as its code.
    /// Fails (changing nothing) if a compact round cannot keep what it now holds.
    pub(crate) fn put_pairing(&mut self, s: usize, p: Pairing) -> Result<(), super::Error> {
        if let Some((k, b, _)) = self.compact_pairing(s, &p.id) {
            let Some(c) = code(&p) else {
                return super::err(format!("{}: a round kept compact holds one game a pairing", p.id));
            };
            let mut bytes = std::mem::take(&mut self.stages[s].compact[k]).into_bytes();
            bytes[b] = c;
            self.stages[s].compact[k] = String::from_utf8(bytes).expect("codes are ASCII");
            return Ok(());
        }
        match self.pairing_mut(&p.id) {
            Some(slot) => {
                *slot = p;
                Ok(())
            }
            None => super::err(format!("no pairing {:?}", p.id)),
        }
    }
}
