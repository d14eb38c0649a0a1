//! Events the server runs: beside each event's document, what the document does not hold —
//! how its games are played, its bearer tokens (hashes only) and which live game each game of
//! a pairing is, with whether its result has been entered ([`crate::event_games`]). Whatever
//! must change with the document changes in the same transaction as it
//! ([`Store::save_event_with`]).

use std::collections::HashMap;

use game::Kind;
use sqlx::Row;

use crate::events::{save_many_in, EventError};
use crate::Store;

/// How an event's games are played, and whether it takes registrations from anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedEvent {
    pub kind: Kind,
    /// The referee's rules.
    pub ruleset: String,
    /// The judge's rules.
    pub rules: String,
    /// Main time and increment, milliseconds; `None` keeps the ruleset's own.
    pub clock: Option<(u64, u64)>,
    pub open_registration: bool,
    /// The rating list its games are rated into when it ends, and the system to start the
    /// list with if there is none of that name by then.
    pub rating_list: Option<(String, Option<String>)>,
    /// The public sees the standings only as the organiser publishes them (else live).
    pub publish_standings: bool,
    /// The round in play is paused: its games adjourned.
    pub paused: bool,
}

/// What is saved with a new state of an event, in its transaction.
#[derive(Debug, Clone)]
pub enum Also<'a> {
    /// A bearer token's hash for entrant `entrant` (0: the organiser).
    Token { hash: &'a str, entrant: u32 },
    /// The result of this game of the pairing is in the event now.
    Entered { pairing: &'a str, game: u32 },
    /// The standings (JSON) of the event at `version` are published.
    Published { version: u64, standings: &'a str },
    /// The round in play is paused (or no longer).
    Paused(bool),
}

impl Store {
    /// A new event run by the server, at version 1, with its organiser's token hash.
    pub async fn create_served_event(
        &self,
        name: &str,
        body: &str,
        served: &ServedEvent,
        organiser_hash: &str,
    ) -> Result<(), EventError> {
        let mut tx = self.pool.begin().await?;
        let made =
            sqlx::query("INSERT INTO events (name, body, version) VALUES ($1, $2, 1) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(body)
                .execute(&mut *tx)
                .await?;
        if made.rows_affected() == 0 {
            return Err(EventError::Exists(name.into()));
        }
        sqlx::query("INSERT INTO changes (event, version, action) VALUES ($1, 1, 'create')")
            .bind(name)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO served_events (event, kind, ruleset, rules, clock_limit_ms, clock_increment_ms, \
             open_registration, rating_list, rating_system, publish_standings) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(name)
        .bind(served.kind.name())
        .bind(&served.ruleset)
        .bind(&served.rules)
        .bind(served.clock.map(|c| c.0 as i64))
        .bind(served.clock.map(|c| c.1 as i64))
        .bind(i64::from(served.open_registration))
        .bind(served.rating_list.as_ref().map(|l| l.0.clone()))
        .bind(served.rating_list.as_ref().and_then(|l| l.1.clone()))
        .bind(i64::from(served.publish_standings))
        .execute(&mut *tx)
        .await?;
        insert_token(&mut tx, name, organiser_hash, 0).await?;
        tx.commit().await?;
        Ok(())
    }

    /// How a served event's games are played; `None` for an event the server does not run.
    pub async fn served_event(&self, name: &str) -> Result<Option<ServedEvent>, EventError> {
        let Some(row) = sqlx::query(
            "SELECT kind, ruleset, rules, clock_limit_ms, clock_increment_ms, open_registration, \
             rating_list, rating_system, publish_standings, paused FROM served_events WHERE event = $1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let kind: String = row.try_get(0)?;
        let kind = kind
            .parse::<Kind>()
            .map_err(|e| EventError::Database(sqlx::Error::Decode(e.into())))?;
        let limit: Option<i64> = row.try_get(3)?;
        let increment: Option<i64> = row.try_get(4)?;
        Ok(Some(ServedEvent {
            kind,
            ruleset: row.try_get(1)?,
            rules: row.try_get(2)?,
            clock: limit.zip(increment).map(|(l, i)| (l.max(0) as u64, i.max(0) as u64)),
            open_registration: row.try_get::<i64, _>(5)? != 0,
            rating_list: row
                .try_get::<Option<String>, _>(6)?
                .map(|l| Ok::<_, sqlx::Error>((l, row.try_get(7)?)))
                .transpose()?,
            publish_standings: row.try_get::<i64, _>(8)? != 0,
            paused: row.try_get::<i64, _>(9)? != 0,
        }))
    }

    /// The standings the organiser of event `name` last published, and the event's version
    /// they are of.
    pub async fn published_standings(&self, name: &str) -> Result<Option<(u64, String)>, EventError> {
        let row = sqlx::query(
            "SELECT published_version, published_standings FROM served_events \
             WHERE event = $1 AND published_version IS NOT NULL",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some((r.try_get::<i64, _>(0)?.max(0) as u64, r.try_get(1)?)),
            None => None,
        })
    }

    /// Every served event's name.
    pub async fn served_events(&self) -> Result<Vec<String>, EventError> {
        let rows = sqlx::query("SELECT event FROM served_events ORDER BY event")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// Whose token of event `name` this hash is: the entrant's number, 0 for the organiser.
    pub async fn event_token(&self, name: &str, hash: &str) -> Result<Option<u32>, EventError> {
        let row = sqlx::query("SELECT entrant FROM event_tokens WHERE event = $1 AND hash = $2")
            .bind(name)
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<i64, _>(0)? as u32),
            None => None,
        })
    }

    /// The hashes of every token of event `name`, by entrant (0: the organiser).
    pub async fn token_hashes(&self, name: &str) -> Result<HashMap<u32, String>, EventError> {
        let rows = sqlx::query("SELECT entrant, hash FROM event_tokens WHERE event = $1")
            .bind(name)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)? as u32, r.try_get(1)?)))
            .collect()
    }

    /// [`Store::save_event`] with `also` in the same transaction: all saved, or nothing.
    pub async fn save_event_with(
        &self,
        name: &str,
        read: u64,
        body: &str,
        action: &str,
        also: &[Also<'_>],
    ) -> Result<u64, EventError> {
        self.save_event_changes(name, read, body, &[action], also).await
    }

    /// Several changes made one after another on the event read at `read` (the results of
    /// games that ended together), saved in one transaction with `also`: each change its own
    /// version and line in the change log, `body` the state after the last; returns the last
    /// version. All saved, or nothing.
    pub async fn save_event_changes(
        &self,
        name: &str,
        read: u64,
        body: &str,
        actions: &[&str],
        also: &[Also<'_>],
    ) -> Result<u64, EventError> {
        let (mut tx, version) = save_many_in(self.pool.begin().await?, name, read, body, actions).await?;
        for a in also {
            match a {
                Also::Token { hash, entrant } => insert_token(&mut tx, name, hash, *entrant).await?,
                Also::Entered { pairing, game } => {
                    crate::event_games::mark_entered_in(&mut tx, name, pairing, *game).await?
                }
                Also::Paused(paused) => {
                    sqlx::query("UPDATE served_events SET paused = $1 WHERE event = $2")
                        .bind(i64::from(*paused))
                        .bind(name)
                        .execute(&mut *tx)
                        .await?;
                }
                Also::Published { version, standings } => {
                    sqlx::query(
                        "UPDATE served_events SET published_version = $1, published_standings = $2 WHERE event = $3",
                    )
                    .bind(*version as i64)
                    .bind(*standings)
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
        tx.commit().await?;
        Ok(version)
    }
}

async fn insert_token(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    name: &str,
    hash: &str,
    entrant: u32,
) -> Result<(), EventError> {
    sqlx::query("INSERT INTO event_tokens (hash, event, entrant) VALUES ($1, $2, $3)")
        .bind(hash)
        .bind(name)
        .bind(i64::from(entrant))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A served event's token and its entered game are saved with the document, or not at
    /// all when the document's version has moved on.
    #[tokio::test]
    async fn saved_with_the_event_or_not_at_all() {
        let store = Store::memory().await.unwrap();
        let served = ServedEvent {
            kind: Kind::Xiangqi,
            ruleset: "online".into(),
            rules: "cxa".into(),
            clock: Some((60_000, 1_000)),
            open_registration: true,
            rating_list: Some(("L".into(), Some("elo".into()))),
            publish_standings: true,
            paused: false,
        };
        store.create_served_event("E", "{}", &served, "org").await.unwrap();
        assert_eq!(store.served_event("E").await.unwrap(), Some(served));
        assert_eq!(store.event_token("E", "org").await.unwrap(), Some(0));
        let v = store
            .save_event_with("E", 1, "{1}", "register 1 A", &[Also::Token { hash: "a", entrant: 1 }])
            .await
            .unwrap();
        assert_eq!(v, 2);
        let hashes = store.token_hashes("E").await.unwrap();
        assert_eq!(hashes, HashMap::from([(0, "org".into()), (1, "a".into())]));
        // Stale: nothing saved, the token neither.
        let stale = store
            .save_event_with("E", 1, "{x}", "register 2 B", &[Also::Token { hash: "b", entrant: 2 }])
            .await;
        assert!(matches!(stale, Err(EventError::Changed { .. })), "{stale:?}");
        assert_eq!(store.event_token("E", "b").await.unwrap(), None);
        store
            .create_game(&crate::NewGame {
                id: "g1",
                kind: Kind::Xiangqi,
                ruleset: "online",
                rules: "cxa",
                clock: None,
                per_move: None,
                token_hashes: &["a".into(), "b".into()],
                arbiter_hash: None,
                created_unix_ms: 0,
                computer: None,
            })
            .await
            .unwrap();
        store.link_event_game("E", "1.1", 1, "g1").await.unwrap();
        assert_eq!(store.unentered_event_games().await.unwrap().len(), 1);
        store
            .save_event_with(
                "E",
                2,
                "{2}",
                "result 1.1 1-0",
                &[Also::Entered {
                    pairing: "1.1",
                    game: 1,
                }],
            )
            .await
            .unwrap();
        assert!(store.unentered_event_games().await.unwrap().is_empty());
        assert!(store.event_games("E").await.unwrap()[0].entered);
        assert_eq!(store.pairing_games("E", "1.1").await.unwrap().len(), 1);
        assert!(store.pairing_games("E", "1.2").await.unwrap().is_empty());
        // Published standings and the pause go with the document, or not at all.
        assert_eq!(store.published_standings("E").await.unwrap(), None);
        let also = [
            Also::Published {
                version: 3,
                standings: "[]",
            },
            Also::Paused(true),
        ];
        let stale = store.save_event_with("E", 2, "{2}", "publish", &also).await;
        assert!(matches!(stale, Err(EventError::Changed { .. })), "{stale:?}");
        assert_eq!(store.published_standings("E").await.unwrap(), None);
        assert!(!store.served_event("E").await.unwrap().unwrap().paused);
        store.save_event_with("E", 3, "{2}", "publish", &also).await.unwrap();
        assert_eq!(store.published_standings("E").await.unwrap(), Some((3, "[]".into())));
        assert!(store.served_event("E").await.unwrap().unwrap().paused);
    }

    /// Results saved together: one version and one line of the log each, the document the
    /// last state, the games marked entered with them; stale or empty, nothing at all.
    #[tokio::test]
    async fn changes_saved_together_keep_a_version_each() {
        let store = Store::memory().await.unwrap();
        let served = ServedEvent {
            kind: Kind::Xiangqi,
            ruleset: "online".into(),
            rules: "cxa".into(),
            clock: None,
            open_registration: false,
            rating_list: None,
            publish_standings: false,
            paused: false,
        };
        store.create_served_event("E", "{}", &served, "org").await.unwrap();
        for (n, id) in ["g1", "g2"].iter().enumerate() {
            let hashes = [format!("a{n}"), format!("b{n}")];
            store
                .create_game(&crate::NewGame {
                    id,
                    kind: Kind::Xiangqi,
                    ruleset: "online",
                    rules: "cxa",
                    clock: None,
                    per_move: None,
                    token_hashes: &hashes,
                    arbiter_hash: None,
                    created_unix_ms: 0,
                    computer: None,
                })
                .await
                .unwrap();
            store
                .link_event_game("E", &format!("1.{}", n + 1), 1, id)
                .await
                .unwrap();
        }
        let entered = [
            Also::Entered {
                pairing: "1.1",
                game: 1,
            },
            Also::Entered {
                pairing: "1.2",
                game: 1,
            },
        ];
        let actions = ["result 1.1 1-0", "result 1.2 0-1"];
        let stale = store.save_event_changes("E", 0, "{x}", &actions, &entered).await;
        assert!(matches!(stale, Err(EventError::Changed { .. })), "{stale:?}");
        let none = store.save_event_changes("E", 1, "{x}", &[], &entered).await;
        assert!(none.is_err(), "{none:?}");
        assert_eq!(store.unentered_event_games().await.unwrap().len(), 2);
        assert_eq!(store.event_version("E").await.unwrap(), Some(1));
        let v = store
            .save_event_changes("E", 1, "{2}", &actions, &entered)
            .await
            .unwrap();
        assert_eq!(v, 3);
        assert_eq!(store.event("E").await.unwrap(), Some(("{2}".into(), 3)));
        assert_eq!(store.event_version("E").await.unwrap(), Some(3));
        let log: Vec<(u64, String)> = store
            .event_log("E")
            .await
            .unwrap()
            .into_iter()
            .map(|c| (c.version, c.action))
            .collect();
        assert_eq!(
            log,
            [
                (1, "create".to_string()),
                (2, actions[0].into()),
                (3, actions[1].into())
            ]
        );
        assert!(store.unentered_event_games().await.unwrap().is_empty());
        // Games not wanted are marked without a change of the event.
        store.link_event_game("E", "1.1", 2, "g2").await.unwrap();
        store.mark_entered("E", &[("1.1", 2)]).await.unwrap();
        assert!(store.unentered_event_games().await.unwrap().is_empty());
        assert_eq!(store.event_version("E").await.unwrap(), Some(3));
        assert_eq!(store.event_version("F").await.unwrap(), None);
    }
}
