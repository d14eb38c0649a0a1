//! Game slots pinned to CPUs of their own (`affinity`), and the scheduling policy of their
//! engines (`yield_to_engines`), as each fake engine reports them.

use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::Control;
use matches::runner::{run_match, Entrant};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::fake;
use support::{config, dir};

/// Runs 8 short games of two `uci.py --cpus` engines under `control`, pinned (and yielding if
/// `yielding`): what each engine process wrote (its CPUs, its scheduling policy), by process.
fn pinned_engines(name: &str, control: Control, yielding: bool) -> Option<Vec<(Vec<usize>, i32)>> {
    let d = dir(name);
    let cpus = d.join("cpus");
    let _ = std::fs::remove_dir_all(&cpus);
    std::fs::create_dir_all(&cpus).unwrap();
    let c = cpus.display().to_string();
    let a = fake("a", "uci.py", &["--cpus", &c])?;
    let b = fake("b", "uci.py", &["--cpus", &c])?;
    let mut cfg = config(
        vec![
            Entrant {
                config: a,
                control: control.clone(),
            },
            Entrant { config: b, control },
        ],
        8,
        &d.join("games.pgn"),
    );
    cfg.adjudication.max_moves = Some(3);
    cfg.affinity = true;
    cfg.yield_to_engines = yielding;
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!(s.finished.len(), 8);
    let mut engines = Vec::new();
    for e in std::fs::read_dir(&cpus).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "cpus") {
            let list = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .map(|l| l.parse().unwrap())
                .collect();
            let policy = std::fs::read_to_string(path.with_extension("policy")).unwrap();
            engines.push((list, policy.trim().parse().unwrap()));
        }
    }
    Some(engines)
}

/// SCHED_OTHER and SCHED_BATCH (Linux).
const NORMAL: i32 = 0;
const BATCH: i32 = 3;

#[test]
fn with_affinity_each_game_slot_keeps_its_engines_on_a_cpu_of_its_own() {
    let control = Control {
        movetime: Some(500),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity", control, true) else {
        return;
    };
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        engines.len() >= 4,
        "the preflight's two engines, then two a slot: {engines:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut pinned = 0;
    for (list, policy) in &engines {
        // Timed searches: the slots do not yield (an answer is timed when it is written).
        assert_eq!(*policy, NORMAL, "{engines:?}");
        if list.len() == 1 {
            pinned += 1;
            seen.insert(list[0]);
        }
    }
    if available >= 2 {
        // Each slot that played starts both engines on its one CPU (a slot may find no game
        // left if the other was quick); the preflight's engines may run anywhere.
        assert!(pinned == 2 || pinned == 4, "{pinned} engines on one CPU: {engines:?}");
        assert_eq!(seen.len(), pinned / 2, "the slots share no CPU: {seen:?}");
    }
}

/// Pinned slots change no scheduling policy unless asked to yield (`--yield-to-engines`).
#[test]
fn pinned_slots_keep_the_normal_policy_unless_asked_to_yield() {
    let control = Control {
        nodes: Some(1000),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity-not-asked", control, false) else {
        return;
    };
    assert!(engines.iter().all(|(_, p)| *p == NORMAL), "{engines:?}");
}

/// Untimed searches on pinned slots, asked to yield: the slot's thread and its engines yield
/// to each other (SCHED_BATCH, `matches::cpu`); the preflight's engines, started before, do not.
#[test]
fn pinned_slots_with_untimed_searches_yield_to_their_engines() {
    let control = Control {
        nodes: Some(1000),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity-untimed", control, true) else {
        return;
    };
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        println!("skipped: one CPU, nothing to pin apart");
        return;
    }
    let slot_engines: Vec<i32> = engines.iter().filter(|(l, _)| l.len() == 1).map(|(_, p)| *p).collect();
    assert!(!slot_engines.is_empty(), "{engines:?}");
    assert!(slot_engines.iter().all(|&p| p == BATCH), "{engines:?}");
    assert!(
        engines.iter().filter(|(l, _)| l.len() > 1).all(|(_, p)| *p == NORMAL),
        "{engines:?}"
    );
}
