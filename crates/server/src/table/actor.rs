//! The game's task: it logs each command, then applies it, publishes the lines it caused, and
//! answers; it wakes by itself when a flag may fall or the game is abandoned.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game::Side;
use referee::clock::Millis;
use referee::{Command, EventKind};
use tokio::sync::mpsc;

use super::lag::LagQuota;
use super::{Ack, Msg, Table};
use crate::cluster::Node;
use crate::codec::encode;
use crate::db::Db;
use crate::error::{ApiError, End};
use crate::live::{Live, Spec};
use crate::view::View;

pub(super) struct Actor {
    pub(super) id: Arc<str>,
    pub(super) spec: Spec,
    pub(super) live: Live,
    pub(super) view: View,
    pub(super) db: Db,
    /// Weak, so the task ends when the server drops the game.
    pub(super) table: std::sync::Weak<Table>,
    pub(super) base: Millis,
    pub(super) epoch: Instant,
    /// The wake time last ticked at, so a tick that rules nothing is not repeated at once.
    pub(super) last_tick: Option<Millis>,
    pub(super) lag: LagQuota,
    pub(super) abandon: Option<Duration>,
    /// Wall-clock creation time: a game never started is abandoned by it, across restarts.
    pub(super) created: std::time::SystemTime,
    /// In a cluster: where each new line goes for the other nodes.
    pub(super) fanout: Option<Arc<Node>>,
}

impl Actor {
    fn now(&self) -> Millis {
        self.base + self.epoch.elapsed().as_millis() as Millis
    }

    /// When the server must act by itself: a flag may fall (`false`) or the game is abandoned
    /// (`true`).
    fn deadline(&self, finished: bool) -> Option<(Instant, bool)> {
        if finished {
            return None;
        }
        let wake = self.live.wake_at().filter(|&w| Some(w) != self.last_tick);
        // A flag falls only once the mover's lag credit could no longer save the move (at most
        // 2 s later, as lichess's grace).
        let grace = self.lag.grace(self.live.turn());
        let flag = wake.map(|w| (self.game_instant(w + grace + 1), false));
        let abandon = self.abandon.filter(|_| self.view.moves.len() < 2).map(|after| {
            let at = if self.live.commands() == 0 {
                let left = (self.created + after)
                    .duration_since(std::time::SystemTime::now())
                    .unwrap_or_default();
                Instant::now() + left
            } else {
                self.game_instant(self.live.last_at() + after.as_millis() as Millis)
            };
            (at, true)
        });
        match (flag, abandon) {
            (Some(f), Some(a)) => Some(if a.0 < f.0 { a } else { f }),
            (f, a) => f.or(a),
        }
    }

    fn game_instant(&self, at: Millis) -> Instant {
        self.epoch + Duration::from_millis(at.saturating_sub(self.base))
    }

    pub(super) async fn run(mut self, mut rx: mpsc::Receiver<Msg>, mut finished: bool) {
        loop {
            let deadline = self.deadline(finished);
            let sleep = async {
                match deadline {
                    Some((d, _)) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    None => return,
                    Some(Msg::Act { side, command, lag, reply }) => {
                        let r = self.act(side, command, lag, &mut finished).await;
                        let fenced = fenced(&r);
                        let _ = reply.send(r);
                        if fenced {
                            return self.fenced_out();
                        }
                    }
                    Some(Msg::Full(reply)) => {
                        let full = self.view.full(&self.id, &self.live, &self.spec, self.now());
                        let _ = reply.send((full.to_string(), self.view.count));
                    }
                    Some(Msg::Pgn(names, reply)) => {
                        let _ = reply.send(self.live.pgn(&self.id, self.created, &names));
                    }
                    Some(Msg::Stop(done)) => {
                        let _ = done.send(());
                        return;
                    }
                },
                _ = sleep => {
                    let side = self.live.turn();
                    let command = match deadline {
                        Some((_, true)) => Command::Abort,
                        _ => {
                            self.last_tick = self.live.wake_at();
                            Command::Tick
                        }
                    };
                    let r = self.act(side, command.clone(), 0, &mut finished).await;
                    if fenced(&r) {
                        return self.fenced_out();
                    }
                    if let Err(e) = r {
                        tracing::error!(game = %self.id, ?command, error = %e, "the server's own command failed");
                    }
                }
            }
        }
    }

    /// The node's lease no longer covers this game (another node took it over): the task
    /// ends, writing nothing more, and the table follows the new owner.
    fn fenced_out(self) {
        tracing::warn!(game = %self.id, "fenced: another node runs this game now; it is dropped here");
    }

    /// Hands new lines to the streams, and in a cluster to the other nodes — even none, as
    /// the count of logged commands they carry keeps the followers' count exact.
    fn publish(&self, lines: Vec<Arc<str>>) {
        let over = self.live.ending().is_some();
        let logged = self.live.commands() as u64;
        if let Some(node) = &self.fanout {
            node.fanout(&self.id, self.view.count - lines.len() as u64, &lines, over, logged);
        }
        if let Some(table) = self.table.upgrade() {
            let mut held = table.lines.write().unwrap_or_else(|e| e.into_inner());
            held.extend(lines);
            table.logged.store(logged, std::sync::atomic::Ordering::Release);
            table.progress.send_replace((self.view.count, over));
        }
    }

    async fn act(&mut self, side: Side, command: Command, lag: Millis, finished: &mut bool) -> Result<Ack, ApiError> {
        let version = self.view.count.saturating_sub(1);
        if self.live.ending().is_some() {
            return Err(ApiError::Refused {
                reason: "the game is over".into(),
                why: Some(referee::Why::GameOver.code()),
                version,
                end: None,
            });
        }
        if command == Command::Abort && self.view.moves.len() >= 2 {
            return Err(ApiError::Refused {
                reason: "too late to abort: both sides have moved; resign instead".into(),
                why: Some("too_late_to_abort"),
                version,
                end: None,
            });
        }
        // An offer while the other side's offer stands is lichess's `draw/yes`: an acceptance.
        let command = match command {
            Command::OfferDraw if self.view.offer == Some(!side) => Command::AcceptDraw,
            c => c,
        };
        let at = self.now().max(self.live.last_at());
        // Lag compensation: the side to move is credited the delay its client reports, within
        // its quota; the referee charges its clock up to when the move was made (never before
        // its turn began) and starts the other side's on arrival. The credit is logged with
        // the move, so a replay rules the same.
        let own_move =
            matches!(command, Command::Move(_) | Command::MoveOfferingDraw(_)) && self.lag.applies(&self.live, side);
        let command = if own_move {
            let credit = self.lag.credit(side, lag, at - self.live.last_at());
            match command {
                Command::Move(text) if credit > 0 => Command::LaggedMove {
                    text: text.into(),
                    offering: false,
                    lag: credit,
                },
                Command::MoveOfferingDraw(text) if credit > 0 => Command::LaggedMove {
                    text: text.into(),
                    offering: true,
                    lag: credit,
                },
                c => c,
            }
        } else {
            command
        };
        let text = encode(&command).ok_or_else(|| ApiError::bad_request("not a command the API takes"))?;
        // The clocks start with the first move, not at creation: a game created and then
        // shared costs no one time while the other player arrives. Before it, only resigning
        // or aborting (which end the game) are taken, and the arbiter's starting the clocks
        // (over the board, lateness runs from it); anything else — a move out of turn, an
        // offer, a claim — is refused unlogged and starts no clock.
        let starting = self.live.commands() == 0;
        if command == Command::Start {
            if !starting {
                return Err(ApiError::Refused {
                    reason: "the game has already started".into(),
                    why: None,
                    version,
                    end: None,
                });
            }
            self.db.append(vec![(self.id.clone(), 0, at, side, text)]).await?;
            let events = self.live.apply(at, side, Command::Start);
            let lines = self.view.follow(&self.live, &events);
            self.publish(lines);
            return Ok(Ack {
                version: self.view.count.saturating_sub(1),
                status: "started".into(),
                reason: None,
                winner: None,
            });
        }
        let first_move = side == self.live.turn()
            && matches!(
                command,
                Command::Move(_) | Command::MoveOfferingDraw(_) | Command::LaggedMove { .. }
            );
        if starting && !first_move && !matches!(command, Command::Resign | Command::Abort | Command::Decide { .. }) {
            let first = self.live.turn().name(self.live.kind());
            let (why, reason) = if side == self.live.turn() {
                (
                    referee::Why::NotStarted,
                    format!("the game has not started: it starts with {first}'s first move"),
                )
            } else {
                (
                    referee::Why::NotYourTurn,
                    format!("not this side's turn: the game starts with {first}'s first move"),
                )
            };
            return Err(ApiError::Refused {
                reason,
                why: Some(why.code()),
                version,
                end: None,
            });
        }
        let mut entries = Vec::with_capacity(2);
        if starting {
            entries.push((self.id.clone(), 0, at, Side::First, "start".to_string()));
        }
        entries.push((
            self.id.clone(),
            self.live.commands() + usize::from(starting),
            at,
            side,
            text,
        ));
        // Durable first: a command the database did not take never happened.
        self.db.append(entries).await?;
        if starting {
            let started = self.live.apply(at, Side::First, Command::Start);
            // Rendered and published before the command applies, as a replay renders it.
            let lines = self.view.follow(&self.live, &started);
            self.publish(lines);
        }
        let events = self.live.apply(at, side, command);
        let lines = self.view.follow(&self.live, &events);
        self.publish(lines);
        let over = self.live.ending().is_some();
        if over && !*finished {
            *finished = true;
            let end = self.live.ending().map(referee::rule_code).unwrap_or_default();
            let outcome = self
                .live
                .ending()
                .map(|e| e.result)
                .filter(|o| o.is_over())
                .map(|o| o.pgn());
            if let Err(e) = self.db.finish(&self.id, end, outcome).await {
                tracing::error!(game = %self.id, error = %e, "could not mark the game finished");
            }
            // Off the game's task: its last move is answered without waiting for the rating.
            let (store, id, kind) = (self.db.store().clone(), self.id.clone(), self.spec.kind);
            let result = self.live.ending().map_or(judge::Outcome::Ongoing, |e| e.result);
            tokio::spawn(async move {
                use crate::players::rating::{rate_game, Rated};
                match rate_game(&store, &id, kind, result).await {
                    Ok(Rated::Casual | Rated::Already) => {}
                    Ok(Rated::Into { list, version }) => tracing::info!(game = %id, list, version, "rated"),
                    Ok(Rated::Skipped(why)) => tracing::info!(game = %id, why, "rated game left unrated"),
                    Err(e) => tracing::error!(game = %id, error = %e, "could not rate the game"),
                }
            });
        }
        let refusal = events.iter().find_map(|e| match &e.kind {
            EventKind::MoveRejected { reason, code, .. }
            | EventKind::Refused { reason, code, .. }
            | EventKind::OfferRefused { reason, code, .. }
            | EventKind::ClaimRejected { reason, code, .. } => Some((reason.clone(), code.code())),
            _ => None,
        });
        let version = self.view.count.saturating_sub(1);
        match refusal {
            Some((reason, why)) => Err(ApiError::Refused {
                reason,
                why: Some(why),
                version,
                end: self.end(),
            }),
            None => Ok(match self.end() {
                None => Ack {
                    version,
                    status: "started".into(),
                    reason: None,
                    winner: None,
                },
                Some(end) => Ack {
                    version,
                    status: end.status.into(),
                    reason: Some(end.reason.into()),
                    winner: end.winner.map(Into::into),
                },
            }),
        }
    }

    /// How the game ended, if it has.
    fn end(&self) -> Option<End> {
        let end = self.live.ending()?;
        let reason = referee::rule_code(end);
        let winner = match end.result {
            judge::Outcome::FirstWins => Some(Side::First.name(self.live.kind())),
            judge::Outcome::SecondWins => Some(Side::Second.name(self.live.kind())),
            _ => None,
        };
        Some(End {
            status: crate::view::lichess_status(reason, winner.is_some()),
            reason,
            winner,
        })
    }
}

/// Whether a command failed because the node's lease is gone (see `store::lease`).
fn fenced<T>(r: &Result<T, ApiError>) -> bool {
    matches!(r, Err(ApiError::Storage(e)) if store::lease::is_fenced(e))
}
