//! Moving an event on: pairing the next round of the stage, play-offs for a tie on a
//! qualifying place, and starting the next stage with those who qualified.

use super::format::{Draw, Format, Seeding};
use super::pairing::{lot_seed, Pairing, Round, Rule, Verdict};
use super::{err, knockout, qualify, refuse, round_robin, swiss, Error, ErrorKind, Event, Stage};

impl Event {
    /// Pairs what comes next — the next round, a play-off, or the first round of the next
    /// stage — and returns it. Nothing changes on an error.
    pub fn pair(&mut self) -> Result<Round, Error> {
        if self.is_swiss() {
            return err("a Swiss event pairs through its TRF (crate::event::pair)");
        }
        let mut next = self.clone();
        let round = next.pair_next()?;
        *self = next;
        Ok(round)
    }

    fn pair_next(&mut self) -> Result<Round, Error> {
        if self.stages.is_empty() {
            let field = self.seeded(self.entrants.iter().filter(|e| !e.withdrawn).map(|e| e.id).collect());
            self.start_stage(field)?;
        }
        let s = self.stages.len() - 1;
        let open = self.open_pairings(s);
        if !open.is_empty() {
            let message = format!("{} pairing(s) still without a result: {}", open.len(), open.join(", "));
            return refuse(ErrorKind::ResultsMissing { pairings: open }, message);
        }
        if let Some(round) = self.next_round(s)? {
            return Ok(round);
        }
        if s + 1 == self.plan.len() {
            return refuse(ErrorKind::Finished, "the event is finished: every stage is played out");
        }
        match qualify::qualify(self, s)? {
            qualify::Qualify::PlayOff(round) => {
                self.stages[s].playoffs.push(round.clone());
                Ok(round)
            }
            qualify::Qualify::Done(list) => {
                self.stages[s].qualified = Some(list.clone());
                self.start_stage(list)?;
                self.next_round(s + 1)?
                    .ok_or_else(|| super::Error::other("the next stage has nothing to pair"))
            }
        }
    }

    /// Entrants in seeding order: by rating (then registration), or as registered.
    pub(crate) fn seeded(&self, mut ids: Vec<u32>) -> Vec<u32> {
        if self.settings.seeding == Seeding::Rating {
            ids.sort_by_key(|&id| (std::cmp::Reverse(self.entrant(id).map_or(0, |e| e.rating)), id));
        }
        ids
    }

    /// Starts the next stage of the plan with `field` in seeding order.
    fn start_stage(&mut self, field: Vec<u32>) -> Result<(), Error> {
        let s = self.stages.len();
        let plan = self.plan[s];
        let least = match plan.format {
            Format::Groups { groups, .. } => 2 * groups.max(1) as usize,
            _ => 2,
        };
        if field.len() < least {
            let kind = ErrorKind::TooFewEntrants {
                stage: s + 1,
                format: plan.format.name().into(),
                least,
                has: field.len(),
            };
            return refuse(
                kind,
                format!(
                    "stage {} ({}) needs at least {least} entrants, has {}",
                    s + 1,
                    plan.format.name(),
                    field.len()
                ),
            );
        }
        let groups = match plan.format {
            Format::RoundRobin { .. } => vec![field.clone()],
            Format::Groups { groups, .. } => round_robin::deal(self, &field, groups as usize, plan.separate)?,
            _ => Vec::new(),
        };
        let trf = match plan.format {
            Format::Swiss { .. } => Some(swiss::start(self, s, &field)?),
            _ => None,
        };
        self.stages.push(Stage {
            entrants: field,
            groups,
            compact: Vec::new(),
            rounds: Vec::new(),
            trf,
            playoffs: Vec::new(),
            qualified: None,
        });
        Ok(())
    }

    /// How many pairings of the current stage are still to be decided.
    pub fn open_count(&self) -> usize {
        self.stages
            .len()
            .checked_sub(1)
            .map_or(0, |s| self.open_pairings(s).len())
    }

    /// The ids of the current stage's pairings still without a verdict (their games, or the
    /// next games of their matches, still to play).
    pub fn open_pairing_ids(&self) -> Vec<String> {
        self.stages
            .len()
            .checked_sub(1)
            .map_or_else(Vec::new, |s| self.open_pairings(s))
    }

    /// The ids of the stage's pairings still without a verdict.
    pub(crate) fn open_pairings(&self, s: usize) -> Vec<String> {
        let stage = &self.stages[s];
        stage
            .rounds
            .iter()
            .chain(&stage.playoffs)
            .flat_map(|r| &r.pairings)
            .filter(|p| p.verdict(rule(self, s, p)) == Verdict::Pending)
            .map(|p| p.id.clone())
            .collect()
    }

    /// Pairs the stage's next round into it, or `None` when its rounds are done.
    fn next_round(&mut self, s: usize) -> Result<Option<Round>, Error> {
        let round = match self.plan[s].format {
            Format::RoundRobin { .. } | Format::Groups { .. } => round_robin::next(self, s),
            Format::Knockout { draw: Draw::Cards, .. } => knockout::next_by_cards(self, s),
            Format::Knockout { draw: Draw::Seeded, .. } | Format::DoubleKnockout => knockout::next_in_bracket(self, s)?,
            Format::Swiss { .. } => swiss::next(self, s)?,
        };
        if let Some(r) = &round {
            super::compact::fold(self, s);
            self.stages[s].rounds.push(r.clone());
        }
        Ok(round)
    }

    /// The prefix of the stage's pairing ids: none for the first stage, `F` for the final one,
    /// `S2-`, `S3-` … between.
    pub(crate) fn id_prefix(&self, s: usize) -> String {
        if s == 0 {
            String::new()
        } else if s + 1 == self.plan.len() {
            "F".into()
        } else {
            format!("S{}-", s + 1)
        }
    }
}

/// How pairing `p` of stage `s` is decided.
pub(crate) fn rule(event: &Event, s: usize, p: &Pairing) -> Rule {
    let playoff = event.stages[s]
        .playoffs
        .iter()
        .any(|r| r.pairings.iter().any(|q| q.id == p.id));
    let st = &event.settings;
    let swiss = matches!(event.plan[s].format, Format::Swiss { .. });
    Rule {
        // A Swiss stage plays one game a round, as its TRF records it.
        games: if swiss {
            1
        } else if playoff {
            st.playoff.max(1)
        } else {
            st.games.max(1)
        },
        needs_winner: playoff || event.plan[s].format.needs_winner(),
        playoff: if playoff { 0 } else { st.playoff },
        boards: st.boards,
        board_points: st.board_points,
        seed: lot_seed(event.seed, &p.id),
    }
}

/// Whether stage `s` has played out: its rounds all paired and decided, its play-offs too.
pub(crate) fn stage_done(event: &Event, s: usize) -> bool {
    if s >= event.stages.len() || !event.open_pairings(s).is_empty() {
        return false;
    }
    let stage = &event.stages[s];
    match event.plan[s].format {
        Format::RoundRobin { cycles } | Format::Groups { cycles, .. } => {
            stage.round_count() == round_robin::rounds_of(stage, cycles)
        }
        Format::Knockout { draw: Draw::Cards, .. } => knockout::by_cards_done(event, s),
        Format::Knockout { draw: Draw::Seeded, .. } | Format::DoubleKnockout => knockout::bracket_done(event, s),
        Format::Swiss { rounds, .. } => stage
            .trf
            .as_deref()
            .and_then(|t| crate::trf::Trf::parse(t).ok())
            .is_some_and(|t| {
                crate::dutch::rounds_paired(&t) == rounds as usize && crate::event::pending(&t).is_empty()
            }),
    }
}
