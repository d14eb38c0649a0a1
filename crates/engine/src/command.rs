//! The commands a request becomes, written into one reusable buffer: the position, the banned
//! moves and `go`. The game is followed move by move across requests, so each ply costs only
//! its new move to check and the text to write — or, for moves a referee already checked
//! ([`Go::checked`]), only the text: the position catches up when a command needs it.
//!
//! The game as told so far is kept in `track`, the commands' words are written by `text`; this
//! file turns a request into them.

use game::{Game, Kind, Side};

use crate::{Coordinates, EngineError, Go, MoveText, Protocol};

mod text;
mod track;

use text::{position_line, push_move, ucci_limits, uci_limits, xiangqi_move};
use track::Track;

pub(crate) struct Commander<G: Game> {
    protocol: Protocol,
    /// Xiangqi squares go to the engine with ranks 1–10.
    fsf: bool,
    track: Option<Track<G>>,
    /// What follows the `position` command (kept in the track, sent as it is: copying it
    /// would cost the whole game's moves every ply): its line end, `banmoves`, `go`.
    rest: String,
}

impl<G: Game> Commander<G> {
    pub fn new(protocol: Protocol, coordinates: Coordinates) -> Commander<G> {
        Commander {
            protocol,
            fsf: G::KIND == Kind::Xiangqi && coordinates == Coordinates::Fsf,
            track: None,
            rest: String::with_capacity(4096),
        }
    }

    /// The coordinates moves cross the protocol in.
    pub fn coordinates(&self) -> Coordinates {
        if self.fsf {
            Coordinates::Fsf
        } else {
            Coordinates::Iccs
        }
    }

    /// Forgets the game (a new one starts).
    pub fn reset(&mut self) {
        self.track = None;
    }

    /// Brings the followed game up to the request's moves. Each new move is checked and
    /// played as it comes, unless `checked` — then it is only written down — or the protocol
    /// is UCCI, whose `position` starts after the last capture: every move must be seen.
    fn follow<S: AsRef<str>>(
        &mut self,
        start_fen: Option<&str>,
        moves: &[S],
        checked: bool,
    ) -> Result<(), EngineError> {
        let ucci = self.protocol == Protocol::Ucci;
        let fsf = self.fsf;
        let reuse = self.track.as_ref().is_some_and(|t| t.extends(start_fen, moves));
        if !reuse {
            self.track = None;
        }
        let track = match &mut self.track {
            Some(t) => t,
            none => none.insert(Track::new(start_fen)?),
        };
        let new = &moves[track.ends.len()..];
        if checked && !ucci {
            for text in new {
                track.write_down(text.as_ref(), fsf);
            }
            return Ok(());
        }
        // Unchecked moves after checked ones: the position catches up first.
        if let Err(e) = track.position() {
            self.track = None;
            return Err(e);
        }
        for text in new {
            let text = text.as_ref();
            let m = match track.pos.parse_move(text) {
                Ok(m) => m,
                Err(_) => {
                    let err = EngineError::Request(format!("move {} ({text}) is not legal", track.ends.len() + 1));
                    self.track = None;
                    return Err(err);
                }
            };
            let zeroing = track.pos.is_zeroing(m);
            let coordinate = track.pos.coordinate(m);
            track.pos.play(m);
            track.at += 1;
            // UCCI gets the position after the last capture and the moves since: the engine
            // then sees every position of a repetition cycle without replaying the whole
            // game, which is what the protocol asks of a GUI.
            if zeroing && ucci {
                track.played.push_str(&coordinate);
                track.ends.push(track.played.len());
                position_line(&mut track.line, Some(&track.pos.fen()));
                track.line_has_moves = false;
            } else {
                track.write_down(&coordinate, fsf);
            }
        }
        Ok(())
    }

    /// The commands [`Commander::prepare`] wrote, in two parts to be sent one after the other:
    /// the `position` command, then the rest.
    pub fn request(&self) -> [&[u8]; 2] {
        let line = self.track.as_ref().map_or("", |t| t.line.as_str());
        [line.as_bytes(), self.rest.as_bytes()]
    }

    /// The commands as one text.
    #[cfg(test)]
    fn text(&self) -> String {
        String::from_utf8(self.request().concat()).unwrap_or_default()
    }

    /// Writes the request's commands (see [`Commander::request`]); returns the side to move.
    pub fn prepare<S: AsRef<str>>(&mut self, req: &Go<'_, S>) -> Result<Side, EngineError> {
        let ucci = self.protocol == Protocol::Ucci;
        let fsf = self.fsf;
        self.follow(req.start_fen, req.moves, req.checked)?;
        let Some(track) = &mut self.track else {
            return Err(EngineError::Request("no game".into()));
        };
        let buf = &mut self.rest;
        buf.clear();
        buf.push('\n');
        let turn = track.turn();

        let mut banned: Vec<G::Move> = Vec::new();
        if !req.banned.is_empty() {
            let pos = match track.position() {
                Ok(pos) => pos,
                Err(e) => {
                    self.track = None;
                    return Err(e);
                }
            };
            for text in req.banned {
                if let Ok(m) = pos.parse_move(text) {
                    if !banned.contains(&m) {
                        banned.push(m);
                    }
                }
            }
        }
        let pos = &track.pos;
        if ucci && !banned.is_empty() {
            buf.push_str("banmoves");
            for &m in &banned {
                buf.push(' ');
                push_move(buf, fsf, &pos.coordinate(m));
            }
            buf.push('\n');
        }
        buf.push_str("go");
        if ucci {
            if req.draw_offered {
                buf.push_str(" draw");
            }
            ucci_limits(buf, &req.limits, turn);
        } else {
            uci_limits(buf, &req.limits);
            // Last: engines read every word after `searchmoves` as a move.
            if !banned.is_empty() {
                let allowed: Vec<G::Move> = pos.legal_moves().into_iter().filter(|m| !banned.contains(m)).collect();
                if allowed.is_empty() {
                    return Err(EngineError::Request("every legal move is banned".into()));
                }
                buf.push_str(" searchmoves");
                for m in allowed {
                    buf.push(' ');
                    push_move(buf, fsf, &pos.coordinate(m));
                }
            }
        }
        buf.push('\n');
        Ok(turn)
    }

    /// The engine's move in the project's coordinates, checked for form only.
    pub fn engine_move(&self, m: &str) -> Result<MoveText, EngineError> {
        let bad = || EngineError::Protocol(format!("unreadable move {m:?}"));
        match G::KIND {
            Kind::Xiangqi => xiangqi_move(m, self.fsf).ok_or_else(bad),
            Kind::Chess => {
                let b = m.as_bytes();
                let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
                let ok = (b.len() == 4 || (b.len() == 5 && b"qrbnk".contains(&b[4])))
                    && square(b[0], b[1])
                    && square(b[2], b[3]);
                if ok {
                    MoveText::new(m).ok_or_else(bad)
                } else {
                    Err(bad())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use std::time::Instant;

    fn go<'a>(moves: &'a [&'a str], banned: &'a [&'a str], limits: Limits) -> Go<'a> {
        Go {
            moves,
            banned,
            limits,
            ..Go::default()
        }
    }

    #[test]
    fn uci_xiangqi_fsf() {
        let mut c: Commander<xiangqi::Position> = Commander::new(Protocol::Uci, Coordinates::Fsf);
        let limits = Limits {
            wtime: Some(1000),
            btime: Some(2000),
            winc: Some(10),
            binc: Some(10),
            ..Limits::default()
        };
        assert_eq!(c.prepare(&go(&[], &[], limits)).unwrap(), Side::First);
        assert_eq!(
            c.text(),
            "position startpos\ngo wtime 1000 btime 2000 winc 10 binc 10\n"
        );
        c.prepare(&go(&["h2e2", "h9g7"], &["h0g2"], Limits::default())).unwrap();
        assert!(
            c.text()
                .starts_with("position startpos moves h3e3 h10g8\ngo searchmoves "),
            "{}",
            c.text()
        );
        assert!(!c.text().contains(" h1g3"));
        assert!(c.text().contains(" b1c3"));
        assert!(c.text().ends_with('\n'));
        assert!(matches!(
            c.prepare(&go(&["h2e2", "h2e2"], &[], Limits::default())),
            Err(EngineError::Request(_))
        ));
        // Back to a consistent game after an error.
        c.prepare(&go(&["h2e2"], &[], Limits::default())).unwrap();
        assert_eq!(c.text(), "position startpos moves h3e3\ngo\n");
    }

    #[test]
    fn ucci_since_capture() {
        let mut c: Commander<xiangqi::Position> = Commander::new(Protocol::Ucci, Coordinates::Iccs);
        let limits = Limits {
            wtime: Some(60_000),
            btime: Some(50_000),
            winc: Some(1000),
            binc: Some(2000),
            ..Limits::default()
        };
        // The cannon takes the knight on h9, then play goes on.
        let moves = ["h2h9", "i9h9", "b2e2"];
        let req = Go {
            moves: &moves,
            limits,
            draw_offered: true,
            banned: &["a6a5", "z9z9"],
            ..Go::default()
        };
        assert_eq!(c.prepare(&req).unwrap(), Side::Second);
        let text = c.text();
        let mut lines = text.lines();
        let position = lines.next().unwrap();
        let fen = "rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 2";
        assert_eq!(position, format!("position fen {fen} moves b2e2"));
        let mut after = <xiangqi::Position as Game>::start();
        for m in &moves[..2] {
            let m = Game::parse_move(&after, m).unwrap();
            Game::play(&mut after, m);
        }
        assert_eq!(Game::fen(&after), fen);
        assert_eq!(lines.next(), Some("banmoves a6a5"));
        assert_eq!(
            lines.next(),
            Some("go draw time 50000 increment 2000 opptime 60000 oppincrement 1000")
        );
        let limits = Limits {
            movetime: Some(300),
            ..Limits::default()
        };
        c.prepare(&go(&[], &[], limits)).unwrap();
        assert_eq!(c.text(), "position startpos\ngo time 300 movestogo 1\n");
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        c.prepare(&go(&["h2e2"], &[], limits)).unwrap();
        assert_eq!(c.text(), "position startpos moves h2e2\ngo depth 5\n");
    }

    #[test]
    fn start_fen_in_standard_form() {
        let mut c: Commander<xiangqi::Position> = Commander::new(Protocol::Uci, Coordinates::Iccs);
        let lenient = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        let req = Go {
            start_fen: Some(lenient),
            moves: &["h2e2"],
            ..Go::default()
        };
        c.prepare(&req).unwrap();
        assert_eq!(
            c.text(),
            format!("position fen {} moves h2e2\ngo\n", xiangqi::Fen::START)
        );
    }

    #[test]
    fn chess_uci() {
        let mut c: Commander<chess::Position> = Commander::new(Protocol::Uci, Coordinates::Fsf);
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let req = Go {
            start_fen: Some(fen),
            moves: &["e1g1"],
            limits: Limits {
                nodes: Some(100),
                depth: Some(3),
                movestogo: Some(5),
                ..Limits::default()
            },
            ..Go::default()
        };
        c.prepare(&req).unwrap();
        assert_eq!(
            c.text(),
            format!("position fen {fen} moves e1g1\ngo movestogo 5 nodes 100 depth 3\n")
        );
        assert_eq!(c.engine_move("e7e8q").unwrap(), "e7e8q");
        assert!(c.engine_move("e7e9").is_err());
        let all_banned = ["e8d8", "e8f8", "e8d7", "e8e7", "e8f7"];
        let req = Go {
            start_fen: Some(fen),
            moves: &["e1g1"],
            banned: &all_banned,
            ..Go::default()
        };
        assert!(matches!(c.prepare(&req), Err(EngineError::Request(_))));
    }

    /// A game of legal moves in coordinates, captures included, from the start.
    fn some_game(plies: usize) -> Vec<String> {
        let mut pos = <xiangqi::Position as Game>::start();
        let mut moves: Vec<String> = Vec::new();
        for i in 0..plies {
            let legal = Game::legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[(i * 7 + 3) % legal.len()];
            moves.push(Game::coordinate(&pos, m));
            Game::play(&mut pos, m);
        }
        moves
    }

    /// Checked moves make the same commands as moves checked one by one, whatever mix of the
    /// two comes; the position they skip catches up when banned moves need it.
    #[test]
    fn checked_moves_are_written_down_and_played_when_needed() {
        let moves = some_game(200);
        assert!(moves.len() > 100);
        for protocol in [Protocol::Uci, Protocol::Ucci] {
            let mut unchecked: Commander<xiangqi::Position> = Commander::new(protocol, Coordinates::Fsf);
            let mut checked: Commander<xiangqi::Position> = Commander::new(protocol, Coordinates::Fsf);
            let mut mixed: Commander<xiangqi::Position> = Commander::new(protocol, Coordinates::Fsf);
            let mut pos = <xiangqi::Position as Game>::start();
            for n in 0..=moves.len() {
                // Every fifth ply, a banned move (the first legal one), so that the position
                // is needed.
                let ban = (n % 5 == 4).then(|| Game::coordinate(&pos, Game::legal_moves(&pos)[0]));
                let banned: Vec<&str> = ban.iter().map(String::as_str).collect();
                let req = |checked: bool| Go {
                    moves: &moves[..n],
                    banned: &banned,
                    checked,
                    ..Go::default()
                };
                let want = unchecked.prepare(&req(false)).unwrap();
                assert_eq!(checked.prepare(&req(true)).unwrap(), want);
                assert_eq!(checked.text(), unchecked.text(), "{protocol:?} ply {n}");
                assert_eq!(mixed.prepare(&req(n % 3 == 0)).unwrap(), want);
                assert_eq!(mixed.text(), unchecked.text(), "{protocol:?} ply {n}");
                if let Some(text) = moves.get(n) {
                    let m = Game::parse_move(&pos, text).unwrap();
                    Game::play(&mut pos, m);
                }
            }
        }
        // A "checked" move that is not legal is found once the position is needed.
        let mut c: Commander<xiangqi::Position> = Commander::new(Protocol::Uci, Coordinates::Iccs);
        let bad = ["h2e2", "h2e2"];
        let req = |banned: &'static [&'static str]| Go {
            moves: &bad,
            banned,
            checked: true,
            ..Go::default()
        };
        c.prepare(&req(&[])).unwrap();
        assert!(matches!(c.prepare(&req(&["a0a1"])), Err(EngineError::Request(_))));
    }

    /// The runner's own cost per ply: following the game and writing the commands, for a long
    /// game passed whole at every ply.
    #[test]
    fn per_ply_cost() {
        let moves = some_game(300);
        let limits = Limits {
            wtime: Some(1000),
            btime: Some(1000),
            ..Limits::default()
        };
        for protocol in [Protocol::Uci, Protocol::Ucci] {
            let mut c: Commander<xiangqi::Position> = Commander::new(protocol, Coordinates::Fsf);
            let t = Instant::now();
            for n in 0..=moves.len() {
                let req = Go {
                    moves: &moves[..n],
                    limits,
                    ..Go::default()
                };
                c.prepare(&req).unwrap();
            }
            let per_ply = t.elapsed() / (moves.len() as u32 + 1);
            println!("{protocol:?}: {} plies, {per_ply:?} a ply", moves.len());
            if !cfg!(debug_assertions) {
                assert!(per_ply.as_micros() < 20, "{per_ply:?} a ply");
            }
        }
    }
}
