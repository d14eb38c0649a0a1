// The event pages: `/event/new` creates an event; `/event/ID` shows it to anyone (standings,
// the crosstable or bracket, the current round's boards live), and more to whoever holds a
// token in the fragment: `#organiser=T` (register, start rounds, results, withdrawals) or
// `#player=T` (their pairing and a link to their game with their seat). A token is kept in
// localStorage per event, as the game page keeps seats, and leaves the address bar.
// The event's NDJSON stream says when something changed; the page then reads the event again.

import { api, readLines } from "./api.js";
import { errorText, showError } from "./errors.js";
import { setupLanguage, sideName, t } from "./i18n.js";
import { MiniBoards } from "./minis.js";
import { listed, organiserPanel, organiserUpdate, rosterHint } from "./eventorg.js";
import { entrantsTable, matchScore, stageTables, standings } from "./eventtables.js";

const $ = (id) => document.getElementById(id);

const view = { id: null, ev: null, organiser: null, player: null, me: null, version: 0 };

// A token from the fragment (kept for this browser), else the one kept before.
function tokenFromUrl(name) {
  const params = new URLSearchParams(location.hash.slice(1));
  const key = `${name}:${view.id}`;
  const fresh = params.get(name);
  if (fresh) localStorage.setItem(key, fresh);
  return fresh || localStorage.getItem(key);
}

function createForm() {
  $("new").hidden = false;
  const shown = () => {
    const f = $("ev-format").value;
    const staged = f === "groups" || f.includes("round-robin");
    $("ev-rounds-box").hidden = !f.includes("swiss");
    $("ev-groups-box").hidden = f !== "groups";
    $("ev-draw-box").hidden = f !== "knockout";
    $("ev-final-box").hidden = !staged;
    $("ev-advance-box").hidden = !staged || !$("ev-final").value;
    $("ev-playoff-box").hidden = !f.includes("knockout") && !$("ev-final").value.includes("knockout");
  };
  $("ev-final").addEventListener("change", shown);
  $("ev-format").addEventListener("change", shown);
  shown();
  $("create-event").addEventListener("submit", async (evt) => {
    evt.preventDefault();
    const f = new FormData(evt.target);
    const format = f.get("format");
    const body = {
      name: f.get("name"),
      format,
      games: Number(f.get("games")),
      kind: f.get("kind"),
      clock: { limit: Number(f.get("minutes")) * 60, increment: Number(f.get("increment")) },
      openRegistration: $("ev-open").checked,
    };
    if (format.includes("swiss")) body.rounds = Number(f.get("rounds"));
    if (format === "groups") body.groups = Number(f.get("groups"));
    if (f.get("ruleset")) body.ruleset = f.get("ruleset");
    if (!$("ev-draw-box").hidden) body.draw = f.get("draw");
    if (!$("ev-playoff-box").hidden) body.playoff = Number(f.get("playoff"));
    if (!$("ev-final-box").hidden && f.get("final")) {
      body.final = f.get("final");
      body.advance = Number(f.get("advance"));
    }
    if (Number(f.get("boards")) > 0) body.boards = Number(f.get("boards"));
    try {
      const made = await api("POST", "/api/event", body);
      location.assign(made.url);
    } catch (e) {
      showError($("ev-create-error"), e);
    }
  });
}

const names = () => new Map((view.ev?.entrants || []).map((e) => [e.id, e.name]));

// The current round: the last one paired in the last stage that has any.
export function currentRound(ev) {
  for (const stage of [...(ev.stages || [])].reverse()) {
    const rounds = [...(stage.rounds || []), ...(stage.playoffs || [])];
    if (rounds.length) return rounds[rounds.length - 1];
  }
  return null;
}

function draw() {
  const ev = view.ev;
  if (!ev) return;
  const who = names();
  $("ev-title").textContent = ev.name;
  document.title = `arbiter · ${ev.name}`;
  const plan = ev.plan
    .map((p) => (p.draw === "cards" ? t("byCards", { format: t(`fmt:${p.format}`) }) : t(`fmt:${p.format}`)))
    .join(" → ");
  const clock = ev.clock ? `${ev.clock.initial / 60000}′ + ${ev.clock.increment / 1000}″` : "";
  const state = ev.finished ? t("finished") : currentRound(ev) ? t("roundN", { n: currentRound(ev).number }) : t("registering");
  const boards = ev.settings?.boards || 0;
  const games = ev.settings?.games || 1;
  const knockout = ev.plan.some((p) => p.format.includes("knockout"));
  // How a match is played: best of N (seed 000 §6: 三局两胜), its play-off games, then lots.
  const match = boards
    ? t("nBoards", { n: boards })
    : [
        games === 3 ? t("bestOfThree") : games > 1 ? t("bestOf", { n: games }) : "",
        knockout && ev.settings?.playoff ? t("playoffGames", { n: ev.settings.playoff }) : "",
        knockout ? t("thenLots") : "",
      ]
        .filter(Boolean)
        .join(t("listComma"));
  const ruleset = t(`ruleset:${ev.ruleset}`);
  $("ev-summary").textContent = [
    plan,
    match,
    t(ev.kind),
    ruleset.startsWith("ruleset:") ? ev.ruleset : ruleset,
    clock,
    t(boards ? "nTeams" : "nPlayers", { n: ev.entrants.length }),
    state,
  ]
    .filter(Boolean)
    .join(" · ");
  const round = currentRound(ev);
  if (round) {
    const every = ev.plan.every((p) => p.format.includes("knockout"));
    $("table-title").textContent = t(every ? "bracket" : knockout ? "stagesTitle" : "crosstable");
    $("table").replaceChildren(stageTables(ev, who));
  } else {
    $("table-title").textContent = t(boards ? "teams" : "players");
    $("table").replaceChildren(entrantsTable(ev));
  }
  $("standings-box").hidden = !round;
  $("standings").replaceChildren(standings(ev));
  const live = round ? round.pairings.filter((p) => (p.liveGames || []).length) : [];
  $("boards-box").hidden = !live.length;
  if (round) $("boards-title").textContent = t("boardsOfRound", { n: round.number });
  minis.show(live, who, (p) => matchScore(p) || t(p.verdict === "bye" ? "bye" : "drawn"), boards);
  $("join").hidden = !(ev.openRegistration && !view.player && !view.organiser && !currentRound(ev));
  if (view.organiser) organiserUpdate(view, round);
  drawMe();
}

// The pairing `id` in the event: its entrants in order.
function findPairing(ev, id) {
  for (const stage of ev?.stages || []) {
    for (const round of [...(stage.rounds || []), ...(stage.playoffs || [])]) {
      const p = round.pairings.find((q) => q.id === id);
      if (p) return p;
    }
  }
  return null;
}

// The round of pairing `id` in the event.
function roundOf(ev, id) {
  for (const stage of ev?.stages || []) {
    for (const round of [...(stage.rounds || []), ...(stage.playoffs || [])]) {
      if (round.pairings.some((q) => q.id === id)) return round;
    }
  }
  return null;
}

function drawMe() {
  const me = view.me;
  $("me").hidden = !me;
  if (!me) return;
  $("me-name").textContent = me.entrant.name + (me.entrant.withdrawn ? ` (${t("withdrawn")})` : "");
  const p = me.pairing;
  const lines = [];
  if (p && p.id) {
    const pairing = findPairing(view.ev, p.id);
    // Scores and verdicts name the first-named's side first: turned round for the second.
    const second = pairing?.second === me.entrant.id;
    const parts = matchScore(pairing || {}).split("–");
    const score = parts.length === 2 ? (second ? parts.reverse() : parts).join("–") : "";
    let text = p.opponent
      ? t(score ? "yourPairingScore" : "yourPairing", { round: p.round, opponent: p.opponent.name, score })
      : t("yourBye", { round: p.round });
    const v = p.verdict;
    const mine = second ? "second" : "first";
    if (v && v.won) text += ` — ${t(v.won === mine ? "youWon" : "youLost")}`;
    else if (v === "drawn") text += ` — ${t("drawn")}`;
    if (pairing?.lot) text += t(pairing.lot.winner === mine ? "youWonLots" : "youLostLots");
    lines.push(text);
    // The card this entrant drew (seed 000 §9): a red card has red, the K the bye.
    const round = roundOf(view.ev, p.id);
    if (/^card draw/.test(round?.draw || "")) {
      const n = p.id.split(".").pop();
      lines.push(n === "K" ? t("youDrewK") : t(second ? "youDrewBlack" : "youDrewRed", { n }));
    }
  } else {
    lines.push(t("notPaired"));
  }
  $("me-pairing").textContent = lines.join(" ");
  const g = me.game;
  const playing = g && !g.resultEntered && p && p.verdict === "pending";
  // A team's token seats its players on every board: a link for each board still in play.
  const boards = (p?.boards || []).filter((b) => !b.resultEntered && p.verdict === "pending");
  $("me-play").hidden = !playing || boards.length > 0;
  if (playing) {
    $("me-play").href = g.url;
    $("me-play").textContent = t("playYourGame", { side: sideName(g.side) });
  }
  const list = $("me-boards");
  list.replaceChildren();
  for (const b of boards) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.className = "play";
    a.href = b.url;
    a.dataset.board = b.board;
    a.textContent = t("playBoard", { n: b.board, player: b.player, side: sideName(b.side) });
    li.appendChild(a);
    list.appendChild(li);
  }
  list.hidden = !boards.length;
  // A team's captain names its players for the pairing, until play begins on it.
  const team = view.ev?.settings?.boards > 0 && p?.id && p.verdict === "pending";
  $("me-lineup").hidden = !team;
  $("me-lu-roster").textContent = team ? rosterHint(view.ev.entrants.find((e) => e.id === me.entrant.id)) : "";
}

async function refresh() {
  try {
    view.ev = await api("GET", `/api/event/${view.id}`);
    view.version = view.ev.version;
    if (view.player) {
      view.me = await api("GET", `/api/event/${view.id}/me`, undefined, view.player).catch((e) => {
        showError($("ev-connection"), e);
        return null;
      });
    }
    draw();
  } catch (e) {
    showError($("ev-connection"), e);
  }
}

// Many changes at once (a round paired, its games made) are read once.
let pending = null;
function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(refresh, 150);
}

async function follow() {
  for (;;) {
    try {
      const res = await fetch(`/api/event/${view.id}/stream?since=${view.version}`);
      if (!res.ok) throw new Error(`${res.status}`);
      showError($("ev-connection"), null);
      await readLines(res, (change) => {
        view.version = Math.max(view.version, change.version);
        refreshSoon();
      });
    } catch (e) {
      $("ev-connection").textContent = t("reconnecting", { error: await errorText(e) });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

let minis = null;

async function eventPage(id) {
  view.id = id;
  view.organiser = tokenFromUrl("organiser");
  view.player = tokenFromUrl("player");
  if (/(organiser|player)=/.test(location.hash)) history.replaceState(null, "", location.pathname);
  addEventListener("hashchange", () => {
    if (/(organiser|player)=/.test(location.hash)) location.reload();
  });
  $("event").hidden = false;
  minis = new MiniBoards($("boards"), id);
  if (view.organiser) organiserPanel(view, refresh);
  $("me-lineup").addEventListener("submit", async (evt) => {
    evt.preventDefault();
    try {
      const players = listed($("me-lu-players").value);
      await api("POST", `/api/event/${id}/lineup`, { pairing: view.me?.pairing?.id, players }, view.player);
      showError($("me-lu-error"), null);
      $("me-lu-players").value = "";
      await refresh();
    } catch (e) {
      showError($("me-lu-error"), e);
    }
  });
  $("join-form").addEventListener("submit", async (evt) => {
    evt.preventDefault();
    try {
      const joined = await api("POST", `/api/event/${id}/join`, { name: $("join-name").value });
      localStorage.setItem(`player:${id}`, joined.token);
      view.player = joined.token;
      showError($("join-error"), null);
      await refresh();
    } catch (e) {
      showError($("join-error"), e);
    }
  });
  await refresh();
  follow();
}

const m = /^\/event\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
if (m && m[1] !== "new") {
  setupLanguage(draw);
  eventPage(m[1]);
} else {
  setupLanguage(() => {});
  createForm();
}
