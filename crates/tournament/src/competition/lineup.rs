//! A team's lineup for one pairing: which of its players sit at the boards. Reserves may come
//! in, but the roster's order is kept (a player never sits above one listed before him), as
//! team regulations require; without a lineup the first `boards` members play.

use super::pairing::Verdict;
use super::progress::rule;
use super::{refuse, Error, ErrorKind, Event, Side};

impl Event {
    /// Sets the lineup of `team` in pairing `id`: `players` board by board, each a member of
    /// the team, in roster order. Only before any board's result is in, and not for a team
    /// that has withdrawn. Nothing changes on an error.
    pub fn set_lineup(&mut self, id: &str, team: u32, players: &[String]) -> Result<(), Error> {
        if !self.teams() {
            return refuse(ErrorKind::NotTeams, "lineups are for team events");
        }
        let Some(p) = self.pairing(id) else {
            return refuse(
                ErrorKind::NoPairing { pairing: id.into() },
                format!("no pairing {id:?}"),
            );
        };
        let name = self.name_of(team);
        let side = match (p.first == team, p.second == Some(team)) {
            (true, _) => Side::First,
            (_, true) => Side::Second,
            _ => {
                let kind = ErrorKind::NotInPairing {
                    team: name.clone(),
                    pairing: id.into(),
                };
                return refuse(kind, format!("{name} does not play in {id}"));
            }
        };
        if self.entrant(team).is_some_and(|e| e.withdrawn) {
            return refuse(
                ErrorKind::TeamWithdrawn { team: name.clone() },
                format!("{name} has withdrawn: it plays no more"),
            );
        }
        let s = self.stages.len() - 1;
        if !p.games.is_empty() || p.verdict(rule(self, s, &p)) != Verdict::Pending {
            return refuse(
                ErrorKind::LineupFixed { pairing: id.into() },
                format!("{id} has results already: its lineups are fixed"),
            );
        }
        let boards = self.settings.boards as usize;
        if players.len() != boards {
            let kind = ErrorKind::LineupSize {
                boards,
                given: players.len(),
            };
            return refuse(
                kind,
                format!("a lineup names {boards} players, one a board ({} given)", players.len()),
            );
        }
        let roster = &self.entrant(team).expect("a paired entrant").members;
        let mut last: Option<(usize, &str)> = None;
        for (k, player) in players.iter().enumerate() {
            let player = player.trim();
            let Some(at) = roster.iter().position(|m| m == player) else {
                let kind = ErrorKind::NotOnRoster {
                    name: player.into(),
                    team: name.clone(),
                };
                return refuse(kind, format!("{player:?} is not on {name}'s roster"));
            };
            if players[..k].iter().any(|q| q.trim() == player) {
                return refuse(
                    ErrorKind::NamedTwice { name: player.into() },
                    format!("{player:?} is named twice: one player a board"),
                );
            }
            if let Some((_, above)) = last.filter(|&(l, _)| at < l) {
                return refuse(
                    ErrorKind::RosterOrder { name: player.into() },
                    format!(
                        "{player:?} is listed below {above:?} but stands above on the roster: a lineup keeps the roster's order"
                    ),
                );
            }
            last = Some((at, player));
        }
        let players: Vec<String> = players.iter().map(|n| n.trim().to_string()).collect();
        let p = self.pairing_mut(id).expect("found above");
        let lineups = p.lineups.get_or_insert_with(Default::default);
        match side {
            Side::First => lineups.0 = players,
            Side::Second => lineups.1 = players,
        }
        Ok(())
    }

    /// Who sits at board `board` (from 0) for `side` of pairing `p`: its lineup, else the
    /// roster's first members.
    pub fn board_player(&self, p: &super::Pairing, side: Side, board: usize) -> Option<String> {
        let lineup = p.lineups.as_ref().map(|l| match side {
            Side::First => &l.0,
            Side::Second => &l.1,
        });
        if let Some(name) = lineup.and_then(|l| l.get(board)) {
            return Some(name.clone());
        }
        self.entrant(p.entrant(side)?)?.members.get(board).cloned()
    }

    /// Whether a pairing's first-named entrant has red (white) in its game `game` (from 1): in
    /// games 1, 3, 5 … of a match; on boards 1, 3, 5 … of a team pairing, the other way round
    /// in its first play-off match, and so on ([`super::Pairing::first_red`]).
    pub fn first_red(&self, game: u32) -> bool {
        super::Pairing::first_red(game.saturating_sub(1) as usize, self.settings.boards)
    }

    /// The board (from 0) a team pairing's game `game` (from 1) is played on: play-off matches
    /// are on the same boards, by the same players.
    pub fn board_index(&self, game: u32) -> usize {
        let k = game.saturating_sub(1) as usize;
        match self.settings.boards as usize {
            0 => k,
            n => k % n,
        }
    }
}
