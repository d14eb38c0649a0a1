// An event's tables, drawn from `GET /api/event/ID`: the standings as the competition model
// gives them, a crosstable of every round-robin stage (one a group), and a bracket of every
// knockout stage.

import { t } from "./i18n.js";

function el(tag, attrs = {}, parent = null, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== "") e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// A game's score for the first-named: 1, ½ or 0 (forfeits count as the result they give).
function points(score) {
  const s = JSON.stringify(score);
  if (/win/i.test(s)) return 1;
  if (/draw/i.test(s)) return 0.5;
  return 0;
}

const half = (x) => String(x).replace(/\.5$/, "½").replace(/^0½$/, "½");

// The first-named's points in `games` and the second's: a double forfeit scores for neither.
function pointsOf(games) {
  const scored = games.filter((g) => !g.double_forfeit);
  const a = scored.reduce((s, g) => s + points(g.score), 0);
  return [a, scored.length - a];
}

// A pairing's score as `1½–½`, or "" before any game is scored.
export function matchScore(p) {
  const games = p.games || [];
  if (!games.length) return "";
  const [a, b] = pointsOf(games);
  return `${half(a)}–${half(b)}`;
}

// The competition model's notes and titles are English words: these are said in the page's
// language.
const NOTES = [
  [/^champion$/, "noteChampion"],
  [/^runner-up$/, "noteRunnerUp"],
  [/^place (\d+)$/, "notePlace"],
  [/^won round (\d+)$/, "noteWon"],
  [/^out in round (\d+)$/, "noteOut"],
  [/^playing round (\d+)$/, "notePlaying"],
  [/^bye in round (\d+)$/, "noteBye"],
  [/^qualified after a play-off$/, "noteQualifiedPlayoff"],
  [/^out after a play-off$/, "noteOutPlayoff"],
  [/^qualified$/, "noteQualified"],
  [/^lost in round (\d+), still in$/, "noteStillIn"],
  [/^won the third-place match$/, "noteThirdWon"],
  [/^lost the third-place match$/, "noteThirdLost"],
];

function noteText(note) {
  for (const [re, key] of NOTES) {
    const m = re.exec(note);
    if (m) return t(key, { n: m[1] });
  }
  return note;
}

// A table's title as the model writes it (`round-robin`, `stage 1 (groups), group A`,
// `final (knockout)`), in the page's language.
export function tableTitle(title) {
  const m = /^(?:(stage (\d+)|final) \(([\w-]+)\)|([\w-]+))(?:, group (\w+))?$/.exec(title || "");
  if (!m) return title || "";
  const format = t(`fmt:${m[3] || m[4]}`);
  let text = m[2] ? t("stageN", { n: m[2], format }) : m[1] ? t("finalStage", { format }) : format;
  if (m[5]) text = t("inGroup", { title: text, group: m[5] });
  return text;
}

// A tie-break's code (`DE`, `SB`, `GP` …) as a column's head: its name in the page's language
// where the page knows it (the code in the tooltip), else the code.
function columnHead(tr, code) {
  const name = t(`tb:${code}`);
  const th = el("th", {}, tr, name === `tb:${code}` ? code : name);
  th.title = code;
}

export function standings(ev) {
  const box = el("div");
  if (!Array.isArray(ev.standings)) {
    el("p", { class: "error" }, box, ev.standings?.error || "");
    return box;
  }
  for (const table of ev.standings) {
    if (ev.standings.length > 1) el("h3", {}, box, tableTitle(table.title));
    // A bracket's places come from how far one went: it has no points to show.
    const scored = !/knockout/.test(table.title || "");
    const tab = el("table", { class: "standings" }, box);
    const head = el("tr", {}, el("thead", {}, tab));
    const noted = table.lines.some((l) => l.note);
    for (const h of [t("place"), t(teams(ev) ? "team" : "player"), ...(scored ? [t("points")] : [])]) el("th", {}, head, h);
    for (const code of table.columns || []) columnHead(head, code);
    if (noted) el("th", {}, head, t("note"));
    const body = el("tbody", {}, tab);
    for (const line of table.lines) {
      const tr = el("tr", {}, body);
      el("td", {}, tr, String(line.place));
      el("td", {}, tr, line.name);
      if (scored) el("td", {}, tr, half(line.points));
      for (const tb of line.tiebreaks || []) el("td", {}, tr, half(tb));
      if (noted) el("td", { class: "note" }, tr, noteText(line.note || ""));
    }
  }
  return box;
}

const teams = (ev) => (ev.settings?.boards || 0) > 0;
const isKnockout = (plan) => /knockout/.test(plan?.format || "");

// Every stage as its format shows it: a knockout's bracket, a round robin's crosstable (one a
// group), each under its stage's name when there are several.
export function stageTables(ev, who) {
  const box = el("div");
  (ev.stages || []).forEach((stage, s) => {
    const plan = ev.plan[s];
    if (ev.plan.length > 1) {
      const last = s + 1 === ev.plan.length;
      const format = t(`fmt:${plan.format}`);
      el("h3", { class: "stage-title" }, box, last ? t("finalStage", { format }) : t("stageN", { n: s + 1, format }));
    }
    box.appendChild(isKnockout(plan) ? bracket(ev, s, who) : crosstables(ev, s, who));
  });
  return box;
}

// The words under a pairing's box: its score, and how a tie was broken (the play-off games,
// the lot).
function matchNote(ev, p) {
  const score = matchScore(p);
  if (p.verdict === "pending") return score || t("playing");
  if (p.second == null) return t("bye");
  if (!score) return t("drawn");
  const games = (p.games || []).length;
  const main = teams(ev) ? ev.settings.boards : ev.settings?.games || 1;
  const extra = games > main && !teams(ev) ? ` · ${t("afterPlayoff", { n: games - main })}` : "";
  const lot = p.lot ? ` · ${t("byLots")}` : "";
  return `${score}${extra}${lot}`;
}

// The cards of a card-drawn round (seed 000 §9): pairing `r.N` is the holders of red N and
// black N, red N's holder named first (red in the match's first game); `r.K` is the K's bye.
function cardOf(round, p) {
  if (!/^card draw/.test(round.draw || "")) return null;
  const n = p.id.split(".").pop();
  return n === "K" ? { first: "K" } : { first: t("redCard", { n }), second: t("blackCard", { n }) };
}

// A knockout stage's rounds as columns, each pairing a box: the winner in bold, the score
// beside, the cards drawn where the round was drawn by cards.
export function bracket(ev, s, who) {
  const stage = ev.stages[s];
  const b = el("div", { class: "bracket" });
  const rounds = [...(stage.rounds || []), ...(stage.playoffs || [])];
  // A single knockout's last rounds have their names.
  const single = ev.plan[s]?.format === "knockout";
  const cards = ev.plan[s]?.draw === "cards";
  const total = cards
    ? cardRounds((stage.entrants || []).length)
    : Math.ceil(Math.log2(Math.max(2, (stage.entrants || []).length)));
  const names = { 0: "final", 1: "semiFinals", 2: "quarterFinals" };
  for (const round of rounds) {
    const col = el("div", { class: "bracket-round" }, b);
    const named = single && (stage.rounds || []).includes(round) && names[total - round.number];
    el("h3", {}, col, named ? t(named) : t("roundN", { n: round.number }));
    for (const p of round.pairings) {
      const m = el("div", { class: "match", "data-pairing": p.id }, col);
      const won = p.verdict?.won;
      const card = cardOf(round, p);
      for (const [side, id] of [["first", p.first], ["second", p.second]]) {
        if (id == null && card) continue;
        const row = el("div", { class: `entrant${won === side ? " winner" : won ? " loser" : ""}` }, m);
        if (card) el("span", { class: `card ${card[side] === "K" ? "king" : side === "first" ? "red" : "black"}` }, row, card[side]);
        el("span", { class: "name" }, row, id == null ? t("bye") : who.get(id) || `#${id}`);
      }
      el("div", { class: "score" }, m, matchNote(ev, p));
    }
  }
  if (cards && rounds.length) el("p", { class: "draw-note" }, b, t("cardRule"));
  if (!rounds.length) el("p", {}, b, t("notStarted"));
  return b;
}

// How many rounds a card-drawn knockout of `n` takes: the field halves (rounded up) each round.
function cardRounds(n) {
  let r = 0;
  for (let m = n; m > 1; m = Math.ceil(m / 2)) r += 1;
  return r;
}

// A round-robin stage's entrants against each other, one table a group: points scored in the
// cell, ties summed.
export function crosstables(ev, s, who) {
  const box = el("div");
  const stage = ev.stages[s];
  const groups = stage.groups?.length ? stage.groups : [stage.entrants || []];
  const cell = new Map();
  for (const round of [...(stage.rounds || []), ...(stage.playoffs || [])]) {
    for (const p of round.pairings) {
      if (p.second == null || !(p.games || []).length) continue;
      const [a, b] = pointsOf(p.games);
      const add = (x, y, v) => cell.set(`${x}-${y}`, (cell.get(`${x}-${y}`) ?? 0) + v);
      add(p.first, p.second, a);
      add(p.second, p.first, b);
    }
  }
  groups.forEach((ids, g) => {
    if (groups.length > 1) el("h4", { class: "group-title" }, box, t("groupN", { group: String.fromCharCode(65 + g) }));
    const tab = el("table", { class: "crosstable", "data-group": String(g) }, box);
    const head = el("tr", {}, el("thead", {}, tab));
    // The numbers' column: named for screen readers, shown bare.
    el("span", { class: "sr-only" }, el("th", {}, head), t("number"));
    el("th", {}, head, t(teams(ev) ? "team" : "player"));
    ids.forEach((_, i) => el("th", {}, head, String(i + 1)));
    const body = el("tbody", {}, tab);
    ids.forEach((a, i) => {
      const tr = el("tr", {}, body);
      el("td", {}, tr, String(i + 1));
      el("td", {}, tr, who.get(a) || `#${a}`);
      for (const b of ids) {
        const v = cell.get(`${a}-${b}`);
        const td = el("td", { class: a === b ? "self" : "", "data-a": a, "data-b": b }, tr);
        td.textContent = a === b ? "×" : v === undefined ? "" : half(v);
      }
    });
  });
  return box;
}

// Before the first round: who has registered, by rating.
export function entrantsTable(ev) {
  const tab = el("table", { class: "standings entrants" });
  const head = el("tr", {}, el("thead", {}, tab));
  for (const h of [t("place"), t(teams(ev) ? "team" : "player"), t("rating")]) el("th", {}, head, h);
  const body = el("tbody", {}, tab);
  const sorted = [...ev.entrants].sort((a, b) => b.rating - a.rating || a.id - b.id);
  sorted.forEach((e, i) => {
    const tr = el("tr", {}, body);
    el("td", {}, tr, String(i + 1));
    el("td", {}, tr, e.name + (e.withdrawn ? ` (${t("withdrawn")})` : ""));
    el("td", {}, tr, e.rating ? String(e.rating) : "");
  });
  return tab;
}
