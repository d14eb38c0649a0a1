//! A Swiss event run round by round, kept as its TRF: create it, register players (late
//! entrants too), take byes and withdrawals, pair the next round (FIDE Dutch or 积分编排制),
//! enter results, and print standings and crosstables (text or HTML). Plain functions on
//! [`Trf`], so the command line and the server share them.
//!
//! The file is TRF-2026 as in-tournament data exchange wants it: `012` name, `062` players,
//! `142` rounds, `152` initial colour, `162` point system (when not 1/½/0), `192` coded type,
//! `202`/`212` tie-breaks (when chosen), and `240` byes for rounds not paired yet (withdrawals
//! are zero-point byes in every round left). Files with JaVaFo's `XXR`/`XXC` read as well and
//! are written back in TRF-2026 records; bbpPairings v6 and `arbiter pair` read both.

use crate::cxa_swiss;
use crate::dutch::{self, Pairing, PointSystem};
use crate::standings::TieBreak;
use crate::trf::{Colour, Player, RequestedBye, Round, Trf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Dutch,
    Cxa,
}

impl System {
    pub fn parse(s: &str) -> Option<System> {
        match s {
            "dutch" => Some(System::Dutch),
            "cxa" => Some(System::Cxa),
            _ => None,
        }
    }

    /// The coded type (`192`).
    pub fn code(self) -> &'static str {
        match self {
            System::Dutch => "FIDE_DUTCH_2025",
            System::Cxa => "CXA_SWISS",
        }
    }
}

/// Why an event cannot do what was asked (the same message-carrying error as reading one).
pub use crate::dutch::EventError;

fn err<T>(message: impl Into<String>) -> Result<T, EventError> {
    Err(EventError(message.into()))
}

/// Win 2, draw 1, loss 0: 中国象棋竞赛规则 (2011) art. 13.1 (tournament spec §7.1).
pub const CXA_POINTS: PointSystem = PointSystem {
    win: 20,
    draw: 10,
    loss: 0,
    zero_bye: 0,
    forfeit_loss: 0,
    pab: 20,
};

/// A new event: its name, rounds, system and the colour drawn for the first board. A 积分编排制
/// event scores 2/1/0 (change it with [`set_points`] before round 1).
pub fn create(name: &str, rounds: usize, system: System, first_white: bool) -> Trf {
    let mut trf = Trf {
        players: Vec::new(),
        other: vec![
            format!("012 {name}"),
            "062 0".into(),
            format!("142 {rounds}"),
            format!("152 {}", if first_white { 'W' } else { 'B' }),
            format!("192 {}", system.code()),
        ],
    };
    if system == System::Cxa {
        trf.set_records("162", points_record(&CXA_POINTS).into_iter().collect());
    }
    trf
}

pub fn system(trf: &Trf) -> System {
    if trf.record("192") == Some("CXA_SWISS") {
        System::Cxa
    } else {
        System::Dutch
    }
}

pub fn total_rounds(trf: &Trf) -> usize {
    trf.record("142")
        .or_else(|| trf.record("XXR"))
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

/// The event's records in TRF-2026 form: `XXR` becomes `142`, `XXC white1|black1` becomes
/// `152`, and `062` counts the players. Everything else stays as it was.
pub fn tidy(trf: &mut Trf) {
    if let Some(rounds) = trf.record("XXR").map(str::to_string) {
        if trf.record("142").is_none() {
            trf.set_records("142", vec![format!("142 {rounds}")]);
        }
        trf.set_records("XXR", Vec::new());
    }
    if let Some(xxc) = trf.record("XXC").map(str::to_string) {
        let mut rest = Vec::new();
        for word in xxc.split_whitespace() {
            let colour = match word {
                "white1" => 'W',
                "black1" => 'B',
                _ => {
                    // `rank` (pairing numbers from the rank column) has no TRF-2026 record.
                    rest.push(word);
                    continue;
                }
            };
            if trf.record("152").is_none() {
                trf.set_records("152", vec![format!("152 {colour}")]);
            }
        }
        let keep = (!rest.is_empty()).then(|| format!("XXC {}", rest.join(" ")));
        trf.set_records("XXC", keep.into_iter().collect());
    }
    trf.set_records("062", vec![format!("062 {}", trf.players.len())]);
}

/// The event as kept between changes: TRF-2026 records, no ranks.
pub fn text(trf: &Trf) -> String {
    let mut t = trf.clone();
    tidy(&mut t);
    t.write(|_| None)
}

/// The event as a TRF-2026 file to hand on: [`text`] with each player's rank (points, then the
/// event's tie-breaks; equals share the place). Before round 1 the players already have the
/// start numbers pairing round 1 gives them, so any engine pairs the file as the event will.
pub fn export(trf: &Trf) -> String {
    let mut t = trf.clone();
    tidy(&mut t);
    if dutch::rounds_paired(&t) == 0 {
        number_by_rating(&mut t);
    }
    // A `202` list with codes this program does not compute still gets ranks by points.
    let order = tiebreaks(&t).unwrap_or_default();
    let places: std::collections::HashMap<u32, usize> = crate::standings::standings(&t, &order)
        .into_iter()
        .map(|l| (l.number, l.place))
        .collect();
    t.write(|n| places.get(&n).copied())
}

// --- Point system -------------------------------------------------------------------------

/// Points as the command line takes them: at most one decimal, below 100.
fn tenths(s: &str) -> Option<u32> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let whole: u32 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let frac: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse().ok()?,
        _ => return None,
    };
    (whole < 100 && !s.starts_with('+')).then_some(whole * 10 + frac)
}

fn show(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// Reads `W/D/L` points, e.g. `2/1/0` (Xiangqi) or `3/1/0`; byes score as wins and draws,
/// absences and forfeit losses nothing.
pub fn parse_points(s: &str) -> Result<PointSystem, EventError> {
    let parts: Vec<Option<u32>> = s.split('/').map(tenths).collect();
    let [Some(win), Some(draw), Some(loss)] = parts[..] else {
        return err(format!(
            "points {s:?}: win/draw/loss, each 0 to 99.9 (e.g. 2/1/0 or 1/0.5/0)"
        ));
    };
    if !(win >= draw && draw >= loss && win > loss) {
        return err(format!(
            "points {s:?}: a win must score more than a loss, a draw in between"
        ));
    }
    Ok(PointSystem {
        win,
        draw,
        loss,
        zero_bye: 0,
        forfeit_loss: 0,
        pab: win,
    })
}

/// What each result is worth: the `162` record (or bbpPairings' `BBW` … lines), as the pairing
/// engines read it; 1/½/0 when there is none (or it cannot be read).
pub fn point_system(trf: &Trf) -> PointSystem {
    stated_point_system(trf).unwrap_or_default()
}

/// The point system the file states (a `162` record or bbpPairings' `BB*` lines), if it states
/// one that can be read.
pub fn stated_point_system(trf: &Trf) -> Option<PointSystem> {
    dutch::model::stated_points(trf).ok().flatten()
}

/// The `162` record of a point system (`None` for 1/½/0): only the values that differ from
/// the defaults, a letter and four columns each, nine columns apart from column 6, as
/// bbpPairings writes it (`162  W 2.0    D 1.0`).
fn points_record(ps: &PointSystem) -> Option<String> {
    let d = PointSystem::default();
    let groups: Vec<String> = [
        ('W', ps.win, ps.win != d.win),
        ('D', ps.draw, ps.draw != d.draw),
        ('L', ps.loss, ps.loss != d.loss),
        ('P', ps.pab, ps.pab != ps.win),
    ]
    .iter()
    .filter(|g| g.2)
    .map(|&(letter, value, _)| format!("{letter}{:>4}", show(value)))
    .collect();
    (!groups.is_empty()).then(|| format!("162  {}", groups.join("    ")))
}

/// Sets the point system (written as `162`); fixed once round 1 is paired, since scores and
/// the pairings made from them would no longer agree.
pub fn set_points(trf: &mut Trf, ps: &PointSystem) -> Result<(), EventError> {
    if dutch::rounds_paired(trf) > 0 {
        return err("the point system is fixed once round 1 is paired");
    }
    if ps.zero_bye != 0 || ps.forfeit_loss != 0 {
        return err("absences and forfeit losses score nothing here");
    }
    if ps.win > 999 || ps.draw > ps.win || ps.loss > ps.draw || ps.pab > 999 {
        return err("points: 0 to 99.9, a win at least a draw, a draw at least a loss");
    }
    for code in ["BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"] {
        trf.set_records(code, Vec::new());
    }
    trf.set_records("162", points_record(ps).into_iter().collect());
    refresh_points(trf);
    Ok(())
}

/// Points of one round in tenths, as the pairing engines (and FIDE's Gacrux, for tie-breaks)
/// count them.
pub(crate) fn round_points(ps: &PointSystem, r: &Round) -> u32 {
    let paired = r.opponent != 0;
    match r.result.to_ascii_uppercase() {
        'U' => ps.pab,
        '1' | '+' | 'W' | 'F' => ps.win,
        '=' | 'D' | 'H' => ps.draw,
        '0' | 'L' if paired => ps.loss,
        '-' if paired => ps.forfeit_loss,
        // A game still without a result counts nothing yet.
        ' ' if paired => 0,
        _ => ps.zero_bye,
    }
}

fn refresh_points(trf: &mut Trf) {
    let ps = point_system(trf);
    for p in &mut trf.players {
        p.points = f64::from(p.rounds.iter().map(|r| round_points(&ps, r)).sum::<u32>()) / 10.0;
    }
}

// --- Tie-breaks ---------------------------------------------------------------------------

/// Reads a list of tie-break codes, comma- or space-separated; modifiers as `BH-C1` or as
/// FIDE's Gacrux writes them, `BH/C1`.
pub fn parse_tiebreaks(list: &str) -> Result<Vec<TieBreak>, EventError> {
    list.split([',', ' '])
        .filter(|c| !c.trim().is_empty())
        .map(|c| TieBreak::parse(&c.replace('/', "-")).ok_or_else(|| EventError(format!("unknown tie-break {c:?}"))))
        .collect()
}

/// The tie-breaks the organiser chose (`212` without its `PTS`, else `202`); empty if none.
pub fn tiebreaks(trf: &Trf) -> Result<Vec<TieBreak>, EventError> {
    if let Some(list) = trf.record("212") {
        let codes: Vec<&str> = list
            .split([',', ' '])
            .filter(|c| !c.trim().is_empty() && !c.trim().eq_ignore_ascii_case("PTS"))
            .collect();
        return parse_tiebreaks(&codes.join(","));
    }
    trf.record("202").map_or(Ok(Vec::new()), parse_tiebreaks)
}

/// Sets the tie-breaks (`202`, and `212` with `PTS` first); an empty list removes them.
pub fn set_tiebreaks(trf: &mut Trf, order: &[TieBreak]) {
    let codes: Vec<String> = order.iter().map(|t| t.code().replace('-', "/")).collect();
    let (tb, standings) = if codes.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        (
            vec![format!("202 {}", codes.join(","))],
            vec![format!("212 PTS,{}", codes.join(","))],
        )
    };
    trf.set_records("202", tb);
    trf.set_records("212", standings);
}

// --- Players ------------------------------------------------------------------------------

/// Adds a player with the next start number; rounds already paired count as absences.
pub fn register(trf: &mut Trf, name: &str, rating: u32, federation: &str) -> Result<u32, EventError> {
    register_late(trf, name, rating, federation, 'Z')
}

/// Adds a player with the next start number. Rounds already paired are `missed`: `Z`
/// (absent) or `H` (a half-point bye, where the organiser grants them to late entrants).
/// Start numbers of the others stay as they are once round 1 is paired (before it, pairing
/// round 1 orders everyone by rating).
pub fn register_late(
    trf: &mut Trf,
    name: &str,
    rating: u32,
    federation: &str,
    missed: char,
) -> Result<u32, EventError> {
    if name.trim().is_empty() {
        return err("a player needs a name");
    }
    if !matches!(missed, 'Z' | 'H') {
        return err("missed rounds are Z (absent) or H (half-point byes)");
    }
    let number = trf.players.iter().map(|p| p.number).max().unwrap_or(0) + 1;
    if number > 9999 {
        return err("TRF holds at most 9,999 players");
    }
    let paired = dutch::rounds_paired(trf);
    trf.players.push(Player {
        number,
        name: name.trim().to_string(),
        rating,
        federation: federation.trim().to_string(),
        points: 0.0,
        rounds: vec![absent(missed); paired],
        written: paired,
    });
    refresh_points(trf);
    Ok(number)
}

fn absent(result: char) -> Round {
    Round {
        opponent: 0,
        colour: Colour::None,
        result,
    }
}

/// Games of the last paired round still without a result, as (white, black).
pub fn pending(trf: &Trf) -> Vec<(u32, u32)> {
    let round = dutch::rounds_paired(trf);
    if round == 0 {
        return Vec::new();
    }
    trf.players
        .iter()
        .filter_map(|p| {
            let r = p.rounds.get(round - 1)?;
            (r.opponent != 0 && r.colour == Colour::White && r.result == ' ').then_some((p.number, r.opponent))
        })
        .collect()
}

/// Marks a player as not to be paired in the next round: a requested half-point bye (`H`),
/// zero-point bye (`Z`) or full-point bye (`F`). Returns that round.
pub fn request_bye(trf: &mut Trf, number: u32, kind: char) -> Result<usize, EventError> {
    let round = dutch::rounds_paired(trf) + 1;
    request_bye_in(trf, number, kind, round)?;
    Ok(round)
}

/// A bye asked for in a round not paired yet (a `240` record until the round is paired; a
/// later request for the same round replaces it).
pub fn request_bye_in(trf: &mut Trf, number: u32, kind: char, round: usize) -> Result<(), EventError> {
    if !matches!(kind, 'H' | 'Z' | 'F') {
        return err("a bye is H, Z or F");
    }
    let paired = dutch::rounds_paired(trf);
    if round <= paired {
        return err(format!("round {round} is already paired"));
    }
    let total = total_rounds(trf);
    if total > 0 && round > total {
        return err(format!("the event has {total} rounds"));
    }
    let p = player(trf, number)?;
    if round == paired + 1 && p.written > paired {
        return err(format!("player {number} already has an entry for round {round}"));
    }
    let mut byes = trf.requested_byes();
    byes.retain(|b| !(b.player == number && b.round == round));
    byes.push(RequestedBye {
        round,
        player: number,
        kind,
    });
    trf.set_requested_byes(&byes);
    Ok(())
}

fn player(trf: &Trf, number: u32) -> Result<&Player, EventError> {
    trf.player(number)
        .ok_or_else(|| EventError(format!("no player {number}")))
}

fn player_mut(trf: &mut Trf, number: u32) -> Result<&mut Player, EventError> {
    match trf.players.iter_mut().find(|p| p.number == number) {
        Some(p) => Ok(p),
        None => err(format!("no player {number}")),
    }
}

/// Withdraws a player from round `from` (1-based) on: a zero-point bye in every round left
/// (C.07 16.2), so they are not paired again; rounds already played keep their results. A round
/// where the player is already paired is refused: its result is entered first (a forfeit loss
/// if they do not play it). Returns the first round the player is out of.
pub fn withdraw(trf: &mut Trf, number: u32, from: usize) -> Result<usize, EventError> {
    let total = total_rounds(trf);
    if total == 0 {
        return err("the event does not say how many rounds it has (record 142)");
    }
    let paired = dutch::rounds_paired(trf);
    if paired >= total {
        return err(format!("all {total} rounds are paired"));
    }
    if from == 0 || from > total {
        return err(format!("round {from}: the event has rounds 1 to {total}"));
    }
    let p = player(trf, number)?;
    for r in from..=paired {
        let Some(x) = p.rounds.get(r - 1) else { continue };
        if x.opponent == 0 && !x.result.eq_ignore_ascii_case(&'U') {
            continue;
        }
        return if x.opponent != 0 && x.result == ' ' {
            err(format!(
                "player {number} is paired in round {r}: enter that game's result first (a forfeit is \
                 -/+ or +/-), then withdraw from round {}",
                r + 1
            ))
        } else {
            err(format!(
                "player {number} was paired in round {r}, whose result stays: withdraw from round {} or later",
                paired + 1
            ))
        };
    }
    let first = from.max(paired + 1);
    let p = player_mut(trf, number)?;
    // A bye asked for in the next round's column (as older versions kept it) gives way.
    if p.written > paired {
        p.rounds.truncate(paired);
        p.written = paired;
    }
    let mut byes = trf.requested_byes();
    byes.retain(|b| !(b.player == number && b.round >= first));
    byes.extend((first..=total).map(|round| RequestedBye {
        round,
        player: number,
        kind: 'Z',
    }));
    trf.set_requested_byes(&byes);
    refresh_points(trf);
    Ok(first)
}

/// Takes a withdrawn player back from round `from` on (not paired yet): their zero-point byes
/// from then on are dropped.
pub fn reenter(trf: &mut Trf, number: u32, from: usize) -> Result<(), EventError> {
    let paired = dutch::rounds_paired(trf);
    if from <= paired {
        return err(format!(
            "round {from} is already paired: re-enter from round {} or later",
            paired + 1
        ));
    }
    let mut byes = trf.requested_byes();
    let before = byes.len();
    byes.retain(|b| !(b.player == number && b.round >= from && b.kind == 'Z'));
    let p = player_mut(trf, number)?;
    let column = from == paired + 1 && p.written > paired && p.rounds[paired].result.eq_ignore_ascii_case(&'Z');
    if column {
        p.rounds.truncate(paired);
        p.written = paired;
    }
    if byes.len() == before && !column {
        return err(format!("player {number} is not withdrawn from round {from}"));
    }
    trf.set_requested_byes(&byes);
    refresh_points(trf);
    Ok(())
}

// --- Rounds -------------------------------------------------------------------------------

/// Pairing numbers before round 1: by rating, then name (C.04.2); start numbers follow, and
/// the byes already asked for follow their players.
fn number_by_rating(trf: &mut Trf) {
    trf.players
        .sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
    let mut renumbered = std::collections::HashMap::new();
    for (i, p) in trf.players.iter_mut().enumerate() {
        renumbered.insert(p.number, i as u32 + 1);
        p.number = i as u32 + 1;
    }
    let mut byes = trf.requested_byes();
    for b in &mut byes {
        b.player = renumbered.get(&b.player).copied().unwrap_or(b.player);
    }
    trf.set_requested_byes(&byes);
}

/// Pairs the next round and writes it into the event (results blank until entered). Byes asked
/// for that round move from `240` records into its column. Nothing changes on an error.
pub fn pair(trf: &mut Trf, seed: u64) -> Result<Pairing, EventError> {
    if !pending(trf).is_empty() {
        return err(format!(
            "round {} still has games without a result",
            dutch::rounds_paired(trf)
        ));
    }
    let round = dutch::rounds_paired(trf);
    let total = total_rounds(trf);
    if total > 0 && round >= total {
        return err(format!("all {total} rounds are paired"));
    }
    if trf.players.len() < 2 {
        return err("pairing needs at least two players");
    }
    let mut next = trf.clone();
    if round == 0 {
        number_by_rating(&mut next);
    }
    let mut byes = next.requested_byes();
    for b in byes.iter().filter(|b| b.round == round + 1) {
        let Some(p) = next.players.iter_mut().find(|p| p.number == b.player) else {
            return err(format!(
                "a bye in round {} names player {}, who is not entered",
                b.round, b.player
            ));
        };
        if p.written <= round {
            p.rounds.truncate(round);
            p.rounds.resize(round, absent('Z'));
            p.rounds.push(absent(b.kind));
            p.written = round + 1;
        }
    }
    byes.retain(|b| b.round > round + 1);
    next.set_requested_byes(&byes);
    let pairing = match system(&next) {
        System::Dutch => dutch::pair_next(&next).map_err(|e| EventError(e.to_string()))?,
        System::Cxa => {
            let options = cxa_swiss::Options {
                avoid_same_team: false,
                seed,
            };
            cxa_swiss::pair(&cxa_swiss::entrants(&next), round + 1, &options).map_err(|e| EventError(e.to_string()))?
        }
    };
    for p in &mut next.players {
        if p.written <= round {
            p.rounds.truncate(round);
            p.rounds.resize(round, absent('Z'));
        }
    }
    let index: std::collections::HashMap<u32, usize> =
        next.players.iter().enumerate().map(|(i, p)| (p.number, i)).collect();
    let mut put = |number: u32, r: Round| {
        let p = &mut next.players[index[&number]];
        p.rounds.push(r);
        p.written = p.rounds.len();
    };
    for &(w, b) in &pairing.boards {
        put(
            w,
            Round {
                opponent: b,
                colour: Colour::White,
                result: ' ',
            },
        );
        put(
            b,
            Round {
                opponent: w,
                colour: Colour::Black,
                result: ' ',
            },
        );
    }
    if let Some(b) = pairing.bye {
        put(b, absent('U'));
    }
    // Anyone neither paired nor excused (cannot happen with a complete pairing) stays absent.
    for p in &mut next.players {
        if p.written <= round {
            p.rounds.push(absent('Z'));
            p.written = p.rounds.len();
        }
    }
    refresh_points(&mut next);
    *trf = next;
    Ok(pairing)
}

/// Enters a result of round `round` (1-based): `1-0`, `0-1`, `1/2`, `+/-`, `-/+` or `-/-`.
pub fn set_result(trf: &mut Trf, round: usize, white: u32, black: u32, result: &str) -> Result<(), EventError> {
    let (w, b) = match result {
        "1-0" => ('1', '0'),
        "0-1" => ('0', '1'),
        "1/2" | "1/2-1/2" | "=" => ('=', '='),
        "+/-" => ('+', '-'),
        "-/+" => ('-', '+'),
        "-/-" => ('-', '-'),
        _ => return err(format!("unknown result {result:?} (1-0, 0-1, 1/2, +/-, -/+, -/-)")),
    };
    let i = round
        .checked_sub(1)
        .ok_or_else(|| EventError("rounds start at 1".into()))?;
    let sides = [(white, black, Colour::White, w), (black, white, Colour::Black, b)];
    // Both sides are checked before either changes.
    for (me, them, colour, _) in sides {
        match player(trf, me)?.rounds.get(i) {
            Some(r) if r.opponent == them && r.colour == colour => {}
            _ => return err(format!("round {round} has no game {white} (white) - {black} (black)")),
        }
    }
    for (me, _, _, res) in sides {
        player_mut(trf, me)?.rounds[i].result = res;
    }
    refresh_points(trf);
    Ok(())
}

fn cell(r: &Round) -> String {
    if r.opponent == 0 {
        return match r.result {
            'U' => "PAB".into(),
            'H' => "½ bye".into(),
            'F' => "1 bye".into(),
            _ => "–".into(),
        };
    }
    let colour = if r.colour == Colour::White { 'w' } else { 'b' };
    let result = match r.result {
        '1' => "1",
        '0' => "0",
        '=' => "½",
        '+' => "+",
        '-' => "−",
        _ => "",
    };
    format!("{}{colour}{result}", r.opponent)
}

/// The crosstable in standings order (points, then the given tie-breaks).
pub fn crosstable(trf: &Trf, order: &[crate::standings::TieBreak]) -> String {
    let lines = crate::standings::standings(trf, order);
    let rounds = trf.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut out = format!("{:>4} {:>4} {:<28} {:>4}", "Rk", "No", "Name", "Rtg");
    for r in 1..=rounds {
        out.push_str(&format!(" {:>7}", format!("R{r}")));
    }
    out.push_str("   Pts\n");
    for l in &lines {
        let p = trf.player(l.number).expect("a standings line is a player");
        out.push_str(&format!(
            "{:>4} {:>4} {:<28} {:>4}",
            l.place, p.number, p.name, p.rating
        ));
        for r in &p.rounds {
            out.push_str(&format!(" {:>7}", cell(r)));
        }
        out.push_str(&format!(" {:>5.1}\n", p.points));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The crosstable as a standalone HTML page.
pub fn crosstable_html(trf: &Trf, title: &str, order: &[crate::standings::TieBreak]) -> String {
    let lines = crate::standings::standings(trf, order);
    let rounds = trf.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n\
         <style>table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:2px 6px;text-align:right}}\
         td.name{{text-align:left}}</style></head><body>\n<h1>{0}</h1>\n<table>\n<tr><th>Rk</th><th>No</th>\
         <th>Name</th><th>Rtg</th>",
        escape(title)
    );
    for r in 1..=rounds {
        out.push_str(&format!("<th>R{r}</th>"));
    }
    out.push_str("<th>Pts</th>");
    for t in order {
        out.push_str(&format!("<th>{}</th>", t.code()));
    }
    out.push_str("</tr>\n");
    for l in &lines {
        let p = trf.player(l.number).expect("a standings line is a player");
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td class=\"name\">{}</td><td>{}</td>",
            l.place,
            p.number,
            escape(&p.name),
            p.rating
        ));
        for r in &p.rounds {
            out.push_str(&format!("<td>{}</td>", escape(&cell(r))));
        }
        out.push_str(&format!("<td>{:.1}</td>", p.points));
        for v in &l.tiebreaks {
            out.push_str(&format!("<td>{v}</td>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Through the stored text and back, as the command line does between steps.
    fn through(trf: &Trf) -> Trf {
        Trf::parse(&text(trf)).unwrap()
    }

    fn results(trf: &mut Trf, round: usize, pairing: &Pairing, seed: &mut u64) {
        for &(w, b) in &pairing.boards {
            *seed = crate::lots::splitmix64(*seed);
            let result = ["1-0", "0-1", "1/2"][(*seed % 3) as usize];
            set_result(trf, round, w, b, result).unwrap();
        }
    }

    fn event(players: u32, rounds: usize, system: System) -> Trf {
        let mut trf = create("Club open", rounds, system, true);
        for i in 0..players {
            register(&mut trf, &format!("Player {i}"), 2200 - 37 * i, "CHN").unwrap();
        }
        trf
    }

    #[test]
    fn a_whole_event_round_by_round_is_what_the_checker_expects() {
        for system in [System::Dutch, System::Cxa] {
            let mut trf = event(11, 5, system);
            let mut seed = 7u64;
            for round in 1..=5 {
                if round == 3 {
                    assert_eq!(request_bye(&mut trf, 4, 'H'), Ok(3));
                }
                let pairing = pair(&mut trf, round as u64).unwrap();
                assert!(pair(&mut trf, 0).is_err(), "results are missing");
                results(&mut trf, round, &pairing, &mut seed);
                trf = through(&trf);
            }
            assert!(pair(&mut trf, 0).is_err(), "all rounds paired");
            if system == System::Dutch {
                assert!(dutch::check(&trf).is_empty());
            }
            let text = crosstable(&trf, &[]);
            assert_eq!(text.lines().count(), 12);
            assert!(crosstable_html(&trf, "<Club>", &[]).contains("&lt;Club&gt;"));
            // 5 boards and a bye a round (one a half-point bye in round 3): a win's worth each.
            let win = if system == System::Cxa { 2.0 } else { 1.0 };
            let total: f64 = trf.players.iter().map(|p| p.points).sum();
            assert!(total > 5.0 * 5.0 * win && total <= 6.0 * 5.0 * win, "{total}");
        }
    }

    #[test]
    fn wrong_results_are_refused() {
        let mut trf = create("X", 3, System::Dutch, true);
        for i in 0..4 {
            register(&mut trf, &format!("P{i}"), 2000, "").unwrap();
        }
        let p = pair(&mut trf, 0).unwrap();
        let (w, b) = p.boards[0];
        let before = trf.clone();
        assert!(set_result(&mut trf, 1, b, w, "1-0").is_err());
        assert!(set_result(&mut trf, 1, w, b, "2-0").is_err());
        assert!(set_result(&mut trf, 2, w, b, "1-0").is_err());
        assert!(set_result(&mut trf, 1, w, p.boards[1].0, "1-0").is_err());
        assert_eq!(trf, before, "a refused result changes nothing");
        assert!(register(&mut trf, " ", 0, "").is_err());
        assert!(register_late(&mut trf, "Late", 0, "", 'F').is_err());
    }

    #[test]
    fn a_new_event_writes_trf_2026_records() {
        let trf = create("Xiangqi open", 7, System::Cxa, false);
        let text = text(&trf);
        assert_eq!(
            text,
            "012 Xiangqi open\n062 0\n142 7\n152 B\n162  W 2.0    D 1.0\n192 CXA_SWISS\n"
        );
        // Columns of 162: a letter at 6, its points at 7-10, the next letter at 15.
        let line = text.lines().find(|l| l.starts_with("162")).unwrap();
        assert_eq!(
            (&line[5..6], &line[6..10], &line[14..15], &line[15..19]),
            ("W", " 2.0", "D", " 1.0")
        );
        assert_eq!(point_system(&trf), CXA_POINTS);
        let dutch = create("Open", 9, System::Dutch, true);
        assert_eq!(
            text_lines(&dutch),
            ["012 Open", "062 0", "142 9", "152 W", "192 FIDE_DUTCH_2025"]
        );
        assert_eq!(point_system(&dutch), PointSystem::default());
    }

    fn text_lines(trf: &Trf) -> Vec<String> {
        text(trf).lines().map(str::to_string).collect()
    }

    #[test]
    fn point_systems_are_read_and_written_as_162() {
        assert_eq!(parse_points("2/1/0"), Ok(CXA_POINTS));
        let three = parse_points("3/1/0").unwrap();
        assert_eq!((three.win, three.draw, three.pab), (30, 10, 30));
        assert_eq!(points_record(&three).as_deref(), Some("162  W 3.0    D 1.0"));
        assert_eq!(points_record(&parse_points("1/0.5/0").unwrap()), None);
        assert_eq!(
            points_record(&parse_points("10/5/1").unwrap()).as_deref(),
            Some("162  W10.0    D 5.0    L 1.0")
        );
        for bad in ["2/1", "1/2/0", "2/1/0/0", "x/1/0", "100/1/0", "1.25/1/0", "0/0/0"] {
            assert!(parse_points(bad).is_err(), "{bad}");
        }
        // Read back the way the pairing engine reads it, bbp's BB* lines too.
        let mut trf = create("X", 5, System::Dutch, true);
        set_points(&mut trf, &three).unwrap();
        assert_eq!(point_system(&through(&trf)), three);
        assert_eq!(dutch::Event::before_round(&trf, 0).unwrap().points, three);
        let bbp = Trf::parse("XXR 5\nBBW 3.0\nBBD 1.0\nBBU 2.0\n").unwrap();
        assert_eq!(point_system(&bbp), PointSystem { pab: 20, ..three });
        // Tenths of TRF-2026's A (absence) code.
        let absences = Trf::parse("162  A 0.5    P 1.0\n").unwrap();
        let ps = point_system(&absences);
        assert_eq!((ps.zero_bye, ps.forfeit_loss, ps.pab, ps.win), (5, 5, 10, 10));
    }

    #[test]
    fn a_xiangqi_event_scores_two_one_nothing_and_pairs_by_those_scores() {
        let mut trf = event(7, 4, System::Dutch);
        set_points(&mut trf, &CXA_POINTS).unwrap();
        let mut seed = 3;
        for round in 1..=4 {
            let pairing = pair(&mut trf, 0).unwrap();
            assert!(
                set_points(&mut trf, &PointSystem::default()).is_err(),
                "fixed after round 1"
            );
            results(&mut trf, round, &pairing, &mut seed);
            trf = through(&trf);
        }
        assert!(dutch::check(&trf).is_empty());
        for p in &trf.players {
            let expected: f64 = p
                .rounds
                .iter()
                .map(|r| match r.result {
                    '1' | 'U' => 2.0,
                    '=' => 1.0,
                    _ => 0.0,
                })
                .sum();
            assert_eq!(p.points, expected, "player {}", p.number);
        }
        // 3 boards and a bye a round, 2 points each.
        assert_eq!(trf.players.iter().map(|p| p.points).sum::<f64>(), 4.0 * 4.0 * 2.0);
    }

    #[test]
    fn a_withdrawn_player_is_not_paired_again_and_keeps_past_results() {
        let mut trf = event(8, 5, System::Dutch);
        let mut seed = 11;
        let first = pair(&mut trf, 0).unwrap();
        let (w, b) = first.boards[0];
        // Paired in round 1 without a result: refused until the result is in.
        let e = withdraw(&mut trf, w, 1).unwrap_err();
        assert!(e.0.contains("enter that game's result first"), "{e}");
        set_result(&mut trf, 1, w, b, "-/+").unwrap();
        results(
            &mut trf,
            1,
            &Pairing {
                boards: first.boards[1..].to_vec(),
                bye: None,
            },
            &mut seed,
        );
        let e = withdraw(&mut trf, w, 1).unwrap_err();
        assert!(e.0.contains("withdraw from round 2 or later"), "{e}");
        assert_eq!(withdraw(&mut trf, w, 2), Ok(2));
        assert!(withdraw(&mut trf, 99, 2).is_err());
        assert!(withdraw(&mut trf, b, 6).is_err());
        assert!(withdraw(&mut trf, b, 0).is_err());
        trf = through(&trf);
        let zero: Vec<_> = trf.requested_byes().into_iter().filter(|x| x.player == w).collect();
        assert_eq!(
            zero.iter().map(|x| (x.round, x.kind)).collect::<Vec<_>>(),
            [(2, 'Z'), (3, 'Z'), (4, 'Z'), (5, 'Z')]
        );
        for round in 2..=5 {
            let pairing = pair(&mut trf, 0).unwrap();
            assert!(pairing.boards.iter().all(|&(x, y)| x != w && y != w) && pairing.bye != Some(w));
            results(&mut trf, round, &pairing, &mut seed);
            trf = through(&trf);
        }
        let p = trf.player(w).unwrap();
        assert_eq!(
            p.rounds[0],
            Round {
                opponent: b,
                colour: Colour::White,
                result: '-'
            }
        );
        assert!(p.rounds[1..].iter().all(|r| *r == absent('Z')));
        assert!(trf.requested_byes().is_empty(), "all byes are in their columns now");
        assert!(dutch::check(&trf).is_empty());
    }

    #[test]
    fn a_withdrawn_player_can_come_back() {
        let mut trf = event(6, 4, System::Cxa);
        let mut seed = 5;
        let pairing = pair(&mut trf, 0).unwrap();
        results(&mut trf, 1, &pairing, &mut seed);
        assert!(reenter(&mut trf, 2, 2).is_err(), "not withdrawn");
        withdraw(&mut trf, 2, 2).unwrap();
        trf = through(&trf);
        let pairing = pair(&mut trf, 0).unwrap();
        assert_eq!((pairing.boards.len(), pairing.bye.is_some()), (2, true));
        assert!(pairing.boards.iter().all(|&(x, y)| x != 2 && y != 2) && pairing.bye != Some(2));
        results(&mut trf, 2, &pairing, &mut seed);
        assert!(reenter(&mut trf, 2, 2).is_err(), "round 2 is paired");
        reenter(&mut trf, 2, 3).unwrap();
        assert!(trf.requested_byes().is_empty());
        trf = through(&trf);
        let pairing = pair(&mut trf, 0).unwrap();
        assert_eq!((pairing.boards.len(), pairing.bye), (3, None));
        assert_eq!(trf.player(2).unwrap().rounds[1], absent('Z'));
    }

    #[test]
    fn late_entrants_miss_the_rounds_played_and_keep_everyone_s_numbers() {
        for missed in ['Z', 'H'] {
            let mut trf = event(6, 5, System::Dutch);
            let mut seed = 2;
            for round in 1..=2 {
                let pairing = pair(&mut trf, 0).unwrap();
                results(&mut trf, round, &pairing, &mut seed);
            }
            let names: Vec<(u32, String)> = trf.players.iter().map(|p| (p.number, p.name.clone())).collect();
            // A strong player after round 2: the next start number, not a place by rating.
            let late = register_late(&mut trf, "Late strong", 2700, "", missed).unwrap();
            assert_eq!(late, 7);
            trf = through(&trf);
            let p = trf.player(late).unwrap();
            assert_eq!(p.rounds, vec![absent(missed); 2]);
            assert_eq!(p.points, if missed == 'H' { 1.0 } else { 0.0 });
            for round in 3..=5 {
                let pairing = pair(&mut trf, 0).unwrap();
                assert!(pairing.boards.iter().any(|&(x, y)| x == late || y == late) || pairing.bye == Some(late));
                results(&mut trf, round, &pairing, &mut seed);
                trf = through(&trf);
            }
            for (number, name) in &names {
                assert_eq!(&trf.player(*number).unwrap().name, name);
            }
            assert!(dutch::check(&trf).is_empty());
        }
    }

    #[test]
    fn byes_asked_before_round_1_follow_their_players_to_their_start_numbers() {
        let mut trf = create("X", 3, System::Dutch, true);
        for (name, rating) in [("Low", 1500), ("High", 2500), ("Mid", 2000), ("Top", 2600)] {
            register(&mut trf, name, rating, "").unwrap();
        }
        // "Low" is 1 until round 1 is paired, then 4.
        request_bye(&mut trf, 1, 'H').unwrap();
        request_bye_in(&mut trf, 1, 'F', 2).unwrap();
        assert!(request_bye_in(&mut trf, 1, 'F', 4).is_err(), "3 rounds");
        trf = through(&trf);
        // Exported before round 1, the file is numbered and paired as the event will be.
        let exported = Trf::parse(&export(&trf)).unwrap();
        let pairing = pair(&mut trf, 0).unwrap();
        assert_eq!(dutch::pair_next(&exported), Ok(pairing.clone()));
        let low = trf.players.iter().find(|p| p.name == "Low").unwrap();
        assert_eq!(low.number, 4);
        assert_eq!(low.rounds, [absent('H')]);
        assert_eq!(pairing.boards.len(), 1);
        assert!(pairing.bye.is_some() && pairing.bye != Some(4));
        assert_eq!(
            trf.requested_byes(),
            [RequestedBye {
                round: 2,
                player: 4,
                kind: 'F'
            }]
        );
        assert!(request_bye_in(&mut trf, 4, 'H', 1).is_err(), "round 1 is paired");
    }

    #[test]
    fn byes_asked_one_after_another_leave_the_others_to_be_paired() {
        let mut trf = event(6, 3, System::Dutch);
        let mut seed = 1;
        let pairing = pair(&mut trf, 0).unwrap();
        results(&mut trf, 1, &pairing, &mut seed);
        for number in [1, 2] {
            trf = through(&trf);
            request_bye(&mut trf, number, 'H').unwrap();
            trf = through(&trf);
        }
        let pairing = pair(&mut trf, 0).unwrap();
        assert_eq!(pairing.boards.len(), 2);
        assert_eq!(
            (
                trf.player(1).unwrap().rounds[1].result,
                trf.player(2).unwrap().rounds[1].result
            ),
            ('H', 'H')
        );
    }

    #[test]
    fn old_style_files_read_and_are_written_back_in_trf_2026_records() {
        let old = "012 Old\nXXR 4\nXXC black1\n192 FIDE_DUTCH_2025\n\
                   001    1      A                                 2000                             1.0          2 b 1\n\
                   001    2      B                                 1900                             0.0          1 w 0\n\
                   001    3      C                                 1800                             0.5          4 b =\n\
                   001    4      D                                 1700                             1.0          3 w =  0000 - H\n";
        let trf = Trf::parse(old).unwrap();
        assert_eq!(total_rounds(&trf), 4);
        let new = export(&trf);
        assert!(
            new.starts_with("012 Old\n062 4\n142 4\n152 B\n192 FIDE_DUTCH_2025\n"),
            "{new}"
        );
        assert!(!new.contains("XXR") && !new.contains("XXC"));
        assert_eq!(export(&Trf::parse(&new).unwrap()), new, "export, import, export");
        // The same next round from either file; player 3's half-point bye stays in its column.
        let (a, b) = (
            dutch::pair_next(&trf).unwrap(),
            dutch::pair_next(&Trf::parse(&new).unwrap()).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!((a.boards.len(), a.bye.is_some()), (1, true));
        assert!(a.boards.iter().all(|&(x, y)| x != 4 && y != 4) && a.bye != Some(4));
        // Ranks by points: A and D (with the half-point bye asked for round 2) share the first
        // place.
        let ranks: Vec<&str> = new
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(|l| l[85..89].trim())
            .collect();
        assert_eq!(ranks, ["1", "4", "3", "1"]);
        let kept = Trf::parse("XXC rank white1\n").unwrap();
        assert_eq!(text(&kept), "XXC rank\n062 0\n152 W\n");
    }

    #[test]
    fn tie_breaks_chosen_are_202_and_212() {
        let mut trf = create("X", 5, System::Dutch, true);
        let order = parse_tiebreaks("BH-C1, BH,SB").unwrap();
        set_tiebreaks(&mut trf, &order);
        let lines = text_lines(&trf);
        assert!(lines.contains(&"202 BH/C1,BH,SB".to_string()), "{lines:?}");
        assert!(lines.contains(&"212 PTS,BH/C1,BH,SB".to_string()), "{lines:?}");
        assert_eq!(tiebreaks(&through(&trf)), Ok(order));
        assert!(parse_tiebreaks("BH,XYZ").is_err());
        set_tiebreaks(&mut trf, &[]);
        assert!(!text_lines(&trf)
            .iter()
            .any(|l| l.starts_with("202") || l.starts_with("212")));
        assert_eq!(tiebreaks(&trf), Ok(Vec::new()));
        assert_eq!(tiebreaks(&Trf::parse("202 SB\n").unwrap()), Ok(vec![TieBreak::Sb]));
    }
}
