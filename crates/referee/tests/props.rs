//! Random command sequences under every ruleset: nothing panics, versions run 0, 1, 2 …,
//! nothing happens after the game is over, time left never grows while a side thinks, and
//! replaying the command log gives the same events.

use game::{Game, Side};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;
use proptest::prelude::*;
use referee::touch::Touch;
use referee::{Command, EventKind, Referee, RefereeRules};

fn command(kind: u8, pick: u8, pos: &xiangqi::Position) -> Command {
    let moves = pos.legal_moves();
    let legal = |i: u8| moves.get(i as usize % moves.len().max(1)).map(|&m| pos.coordinate(m));
    match kind % 16 {
        0..=6 => Command::Move(legal(pick).unwrap_or_else(|| "a0a1".into())),
        7 => Command::MoveOfferingDraw(legal(pick).unwrap_or_else(|| "a0a1".into())),
        8 => Command::Move(["h0h2", "zz", "a0a5", "e1c2"][pick as usize % 4].into()),
        9 => [Command::OfferDraw, Command::AcceptDraw, Command::DeclineDraw][pick as usize % 3].clone(),
        10 => Command::ClaimDraw,
        11 => Command::Touch(if pick & 1 == 0 {
            Touch::Own(["h2", "e0", "a0"][pick as usize % 3].into())
        } else {
            Touch::Opponent(["h9", "e9", "a9"][pick as usize % 3].into())
        }),
        12 => [Command::PressClock, Command::Tick, Command::ClaimTime][pick as usize % 3].clone(),
        // Takebacks: taken under the online rules, refused under the others.
        13 => [
            Command::Adjourn,
            Command::Resume,
            Command::ProposeTakeback,
            Command::AcceptTakeback,
            Command::DeclineTakeback,
        ][pick as usize % 5]
            .clone(),
        14 => Command::TechnicalFoul("x".into()),
        // Endings by fiat are rare, so games run long.
        _ => match pick % 16 {
            0 => Command::Resign,
            1 => Command::Abort,
            2 => Command::RefusesRules,
            _ => Command::Tick,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn referee_never_panics_and_replays(
        rules in 0usize..5,
        steps in proptest::collection::vec((0u64..90_000, any::<bool>(), any::<u8>(), any::<u8>()), 1..120),
    ) {
        let rules = RefereeRules::by_name(RefereeRules::NAMES[rules]).unwrap();
        let start = xiangqi::Position::start();
        let mut r = Referee::new(XiangqiJudge::new(start.clone(), Rules::cxa()), rules.clone());
        let mut now = 0;
        r.apply(now, Side::First, Command::Start);
        for (dt, other, kind, pick) in steps {
            let before = r.events().len();
            let to_move: Side = Game::turn(r.judge().position());
            let side = if other { !to_move } else { to_move };
            let was_over = r.ending().is_some();
            let left = r.clock().remaining(to_move, now);
            let later = r.clock().remaining(to_move, now + dt);
            prop_assert!(later.main <= left.main);
            now += dt;
            let c = command(kind, pick, r.judge().position());
            r.apply(now, side, c);
            if was_over {
                let refused = r.events()[before..].iter().all(|e| matches!(e.kind, EventKind::Refused { .. }));
                prop_assert!(refused);
            }
        }
        for (i, e) in r.events().iter().enumerate() {
            prop_assert_eq!(e.version, i as u64);
        }
        let mut again = Referee::new(XiangqiJudge::new(start, Rules::cxa()), rules);
        for (at, side, c) in r.log().to_vec() {
            again.apply(at, side, c);
        }
        prop_assert_eq!(again.events(), r.events());
    }
}
