//! Tournament formats, Swiss pairings, standings and events run round by round.
//!
//! - [`round_robin`]: FIDE Berger tables (C.05 Annex 1), single and double, odd fields with a
//!   bye; seeds dealt into groups in snake order (分组循环).
//! - [`groups`]: the grouped round robin's deal (snake, clubs kept apart), the final stage's
//!   seeding of the qualifiers (group winners and group mates kept apart), play-off ties.
//! - [`knockout`]: seeded brackets with byes to the top seeds, and seed 000's card draw (two sets
//!   of cards 1…m/2, red and black, and a K for the bye; the red card plays red), seeded so a
//!   draw can be audited and replayed.
//! - [`double_elimination`]: winners' and losers' brackets, a grand final with reset.
//! - [`bracket`]: single and double elimination as data (a graph of matches fed by seeds, byes,
//!   winners and losers), played one result at a time: which matches are ready, the champion.
//! - [`matches`](mod@matches): matches of N games (三局两胜) with alternating colours and a play-off or lots
//!   on a tie; [`lots`]: the one generator every lot is drawn with (splitmix64).
//! - [`result`]: a player's result in a round (胜/和/负, forfeits, byes), the one type the
//!   formats work on; [`trf`] reads and writes it as TRF.
//! - [`trf`]: the FIDE Tournament Report File, the one edge where results, byes and records
//!   are letters and codes; [`tiebreak`] and [`standings`]: the FIDE C.07 (2026) tie-breaks.
//! - [`dutch`]: the FIDE Dutch system (C.04.3) on [`matching`], a maximum-weight matching;
//!   [`cxa`] and [`cxa_swiss`]: the CXA's Swiss orders and its 积分编排制.
//! - [`competition`]: an event of any format — round robin, groups, knockouts, Swiss, stages
//!   feeding stages, matches of N games, teams — from registration to final standings.
//! - [`event`]: a Swiss event run round by round (players, byes, withdrawals, pairing, results,
//!   crosstables).
//! - [`team`]: team events (团体赛): board colours, a team pairing's game and match points
//!   (局分、场分), team standings with the FIDE C.07 team tie-breaks and the CXA's order.

pub mod bracket;
pub mod competition;
pub mod cxa;
pub mod cxa_swiss;
pub mod double_elimination;
pub mod dutch;
pub mod event;
pub mod groups;
pub mod knockout;
pub mod lots;
pub mod matches;
pub mod matching;
pub mod result;
pub mod round_robin;
pub mod standings;
pub mod team;
pub mod tiebreak;
pub mod trf;
