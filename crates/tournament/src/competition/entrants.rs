//! Registration and withdrawal.

use super::pairing::{Game, Verdict};
use super::{err, progress, refuse, Entrant, Error, ErrorKind, Event};
use crate::result::Score;

impl Event {
    /// Registers a player, or a team with its `members` in board order, before the first stage
    /// starts; returns the entrant's number. A team needs at least as many members as boards.
    pub fn register(&mut self, name: &str, rating: u32, club: &str, members: &[String]) -> Result<u32, Error> {
        if self.is_swiss() {
            return err("a Swiss event registers into its TRF (crate::event::register)");
        }
        if !self.stages.is_empty() {
            return refuse(
                ErrorKind::RegistrationClosed,
                "the event has started: registration is closed",
            );
        }
        let name = name.trim();
        if name.is_empty() {
            return refuse(ErrorKind::NameNeeded, "a name is needed");
        }
        if self.entrants.iter().any(|e| e.name == name) {
            return refuse(
                ErrorKind::AlreadyRegistered { name: name.into() },
                format!("{name:?} is already registered"),
            );
        }
        if self.teams() && (members.len() as u32) < self.settings.boards {
            let kind = ErrorKind::TooFewMembers {
                team: name.into(),
                members: members.len(),
                boards: self.settings.boards,
            };
            return refuse(
                kind,
                format!(
                    "team {name:?} has {} member(s) for {} boards",
                    members.len(),
                    self.settings.boards
                ),
            );
        }
        if !self.teams() && !members.is_empty() {
            return refuse(
                ErrorKind::MembersForTeams,
                "members are for team events (create the event with --boards)",
            );
        }
        let id = self.entrants.len() as u32 + 1;
        self.entrants.push(Entrant {
            id,
            name: name.to_string(),
            rating,
            club: club.trim().to_string(),
            members: members.iter().map(|m| m.trim().to_string()).collect(),
            withdrawn: false,
        });
        Ok(id)
    }

    /// Withdraws an entrant: no longer paired; every pairing of theirs still open is forfeited
    /// to the opponent. Returns the ids of the pairings so forfeited.
    pub fn withdraw(&mut self, id: u32) -> Result<Vec<String>, Error> {
        let Some(e) = self.entrant(id) else {
            return refuse(ErrorKind::NoEntrant { entrant: id }, format!("no entrant {id}"));
        };
        if e.withdrawn {
            return refuse(
                ErrorKind::AlreadyWithdrawn { name: e.name.clone() },
                format!("{} has already withdrawn", e.name),
            );
        }
        let mut next = self.clone();
        next.entrants[id as usize - 1].withdrawn = true;
        let mut forfeited = Vec::new();
        if let Some(s) = next.stages.len().checked_sub(1) {
            let rule_of = |p: &super::Pairing| progress::rule(&next, s, p);
            let open: Vec<(String, super::pairing::Rule)> = next.stages[s]
                .rounds
                .iter()
                .chain(&next.stages[s].playoffs)
                .flat_map(|r| &r.pairings)
                .filter(|p| (p.first == id || p.second == Some(id)) && p.second.is_some())
                .map(|p| (p.id.clone(), rule_of(p)))
                .filter(|(pid, rule)| next.pairing(pid).is_some_and(|p| p.verdict(*rule) == Verdict::Pending))
                .collect();
            for (pid, rule) in open {
                let p = next.pairing_mut(&pid).expect("found above");
                let score = if p.first == id { Score::Loss } else { Score::Win };
                // The rest of the match now being played (a team's boards, of a play-off
                // match too); a match of players ends at its next game's forfeit.
                let left = if rule.boards > 0 {
                    p.games_due(rule) - p.games.len()
                } else {
                    1
                };
                for _ in 0..left {
                    p.games.push(Game {
                        score,
                        forfeit: true,
                        double_forfeit: false,
                    });
                }
                forfeited.push(pid);
            }
            if next.stages[s].trf.is_some() {
                for pid in &forfeited {
                    super::swiss::record(&mut next, s, pid)?;
                }
            }
        }
        *self = next;
        Ok(forfeited)
    }

    pub(crate) fn pairing_mut(&mut self, id: &str) -> Option<&mut super::Pairing> {
        self.stages
            .iter_mut()
            .flat_map(|s| s.rounds.iter_mut().chain(s.playoffs.iter_mut()))
            .flat_map(|r| r.pairings.iter_mut())
            .find(|p| p.id.eq_ignore_ascii_case(id))
    }
}
