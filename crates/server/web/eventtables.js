// An event's tables, drawn from `GET /api/event/ID`: the standings as the competition model
// gives them, a crosstable of every round-robin stage, and a bracket of every knockout stage.

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

// The competition model's notes are English words: these are said in the page's language.
const NOTES = [
  [/^champion$/, "noteChampion"],
  [/^runner-up$/, "noteRunnerUp"],
  [/^place (\d+)$/, "notePlace"],
  [/^won round (\d+)$/, "noteWon"],
  [/^out in round (\d+)$/, "noteOut"],
  [/^playing round (\d+)$/, "notePlaying"],
  [/^bye in round (\d+)$/, "noteBye"],
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

export function standings(ev) {
  const box = el("div");
  if (!Array.isArray(ev.standings)) {
    el("p", { class: "error" }, box, ev.standings?.error || "");
    return box;
  }
  for (const table of ev.standings) {
    if (ev.standings.length > 1) el("h3", {}, box, table.title);
    // A bracket's places come from how far one went: it has no points to show.
    const scored = !/knockout/.test(table.title || "");
    const tab = el("table", { class: "standings" }, box);
    const head = el("tr", {}, el("thead", {}, tab));
    const noted = table.lines.some((l) => l.note);
    const heads = [t("place"), t("player"), ...(scored ? [t("points")] : []), ...(table.columns || []), ...(noted ? [t("note")] : [])];
    for (const h of heads) el("th", {}, head, h);
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

// Each stage's rounds as columns, each pairing a box: the winner in bold, the score beside.
export function bracket(ev, who) {
  const box = el("div", { class: "bracket-host" });
  (ev.stages || []).forEach((stage, s) => {
    const b = el("div", { class: "bracket" }, box);
    const rounds = [...(stage.rounds || []), ...(stage.playoffs || [])];
    // A single knockout's last rounds have their names.
    const single = ev.plan[s]?.format === "knockout";
    const total = Math.ceil(Math.log2(Math.max(2, (stage.entrants || []).length)));
    const names = { 0: "final", 1: "semiFinals", 2: "quarterFinals" };
    for (const round of rounds) {
      const col = el("div", { class: "bracket-round" }, b);
      const named = single && (stage.rounds || []).includes(round) && names[total - round.number];
      el("h3", {}, col, named ? t(named) : t("roundN", { n: round.number }));
      for (const p of round.pairings) {
        const m = el("div", { class: "match", "data-pairing": p.id }, col);
        const won = p.verdict?.won;
        for (const [side, id] of [["first", p.first], ["second", p.second]]) {
          const row = el("div", { class: `entrant${won === side ? " winner" : won ? " loser" : ""}` }, m);
          el("span", { class: "name" }, row, id == null ? t("bye") : who.get(id) || `#${id}`);
        }
        const score = matchScore(p);
        el("div", { class: "score" }, m, p.verdict === "pending" ? score || t("playing") : score || t(p.verdict === "bye" ? "bye" : "drawn"));
      }
    }
    if (!rounds.length) el("p", {}, b, t("notStarted"));
  });
  return box;
}

// Each stage's entrants against each other: points scored in the cell, ties summed.
export function crosstable(ev, who) {
  const box = el("div");
  for (const stage of ev.stages || []) {
    const ids = stage.entrants || [];
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
    const tab = el("table", { class: "crosstable" }, box);
    const head = el("tr", {}, el("thead", {}, tab));
    // The numbers' column: named for screen readers, shown bare.
    el("span", { class: "sr-only" }, el("th", {}, head), t("number"));
    el("th", {}, head, t("player"));
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
  }
  return box;
}

// Before the first round: who has registered, by rating.
export function entrantsTable(ev) {
  const tab = el("table", { class: "standings entrants" });
  const head = el("tr", {}, el("thead", {}, tab));
  for (const h of [t("place"), t("player"), t("rating")]) el("th", {}, head, h);
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
