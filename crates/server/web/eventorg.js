// The organiser's panel on the event page (`#organiser=TOKEN`): register players (their links
// kept in this browser to hand out), start each round, open each board's arbiter's console (the
// organiser's token is every game's arbiter token) or make its board device's link, enter or
// correct a result with its reason, set a team's lineup, withdraw a player. Every action is one POST with the organiser's token; the event's
// stream then redraws the page.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const linksKey = (id) => `links:${id}`;

// Names typed in one line, separated as either language writes a list.
export const listed = (text) => text.split(/[,，、]/).map((m) => m.trim()).filter(Boolean);

// A team's roster as a hint beside a lineup form: who may play, in the order kept.
export function rosterHint(team) {
  return team ? t("rosterOf", { team: team.name, roster: (team.members || []).join(", ") }) : "";
}

function keptLinks(id) {
  try {
    return JSON.parse(localStorage.getItem(linksKey(id))) || [];
  } catch {
    return [];
  }
}

function drawLinks(id) {
  const list = $("org-links");
  list.replaceChildren();
  for (const { name, url } of keptLinks(id)) {
    const li = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = t("linkOf", { name });
    const input = document.createElement("input");
    input.readOnly = true;
    input.className = "player-link";
    input.dataset.name = name;
    input.value = `${location.origin}${url}`;
    li.append(label, " ", input);
    list.appendChild(li);
  }
}

export function organiserPanel(view, refresh) {
  const id = view.id;
  $("org").hidden = false;
  $("org-link").value = `${location.origin}/event/${id}#organiser=${view.organiser}`;
  drawLinks(id);
  const run = async (what) => {
    showError($("org-message"), null);
    try {
      await what();
      await refresh();
      return true;
    } catch (e) {
      showError($("org-message"), e);
      return false;
    }
  };
  const post = (path, body) => api("POST", `/api/event/${id}/${path}`, body, view.organiser);
  $("org-register").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const body = { name: $("reg-name").value };
    if ($("reg-rating").value) body.rating = Number($("reg-rating").value);
    const members = listed($("reg-members").value);
    if (!$("reg-members").hidden) body.members = members;
    run(async () => {
      const reg = await post("register", body);
      localStorage.setItem(linksKey(id), JSON.stringify([...keptLinks(id), { name: reg.name, url: reg.url }]));
      drawLinks(id);
      $("reg-name").value = "";
      $("reg-rating").value = "";
      $("reg-members").value = "";
      $("reg-name").focus();
    });
  });
  $("res-pairing").addEventListener("change", (evt) => {
    evt.target.dataset.chosen = evt.target.value;
  });
  $("org-start").addEventListener("click", () => run(() => post("round/start")));
  $("org-result").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const results = $("res-results").value.split(/[\s,]+/).filter(Boolean);
    run(() =>
      post("result", {
        pairing: $("res-pairing").value,
        results,
        replace: $("res-replace").checked,
        reason: $("res-reason").value,
      }),
    ).then((ok) => {
      if (!ok) return;
      $("res-results").value = $("res-reason").value = "";
      $("res-replace").checked = false;
      delete $("res-pairing").dataset.chosen;
    });
  });
  for (const el of ["lu-pairing", "lu-team"]) {
    $(el).addEventListener("change", (evt) => {
      evt.target.dataset.chosen = evt.target.value;
      if (el === "lu-pairing") delete $("lu-team").dataset.chosen;
      organiserUpdate(view, null, true);
    });
  }
  $("org-lineup").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const players = listed($("lu-players").value);
    run(() => post("lineup", { pairing: $("lu-pairing").value, team: Number($("lu-team").value), players })).then(
      (ok) => {
        if (ok) $("lu-players").value = "";
      },
    );
  });
  $("org-withdraw").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const who = Number($("wd-entrant").value);
    const name = $("wd-entrant").selectedOptions[0]?.textContent || "";
    if (!confirm(t("confirmWithdraw", { name }))) return;
    run(() => post("withdraw", { entrant: who }));
  });
}

// One line a live game of the round still in play: its players, a link to its console and a
// button that makes its board device's link (kept while the game is listed: a new one would lock
// out the device given the old).
function drawBoards(view, who, round) {
  const list = $("org-boards");
  const games = [];
  for (const p of round?.pairings || []) {
    if (p.verdict !== "pending") continue;
    for (const g of p.liveGames || []) {
      if (g.entered) continue;
      const [red, black] = g.game % 2 === 1 ? [p.first, p.second] : [p.second, p.first];
      games.push({ id: g.id, label: `${p.id}${(p.liveGames.length > 1) ? ` · ${t("boardN", { n: g.game })}` : ""}: ${who.get(red)} – ${who.get(black)}` });
    }
  }
  const kept = new Map([...list.children].map((li) => [li.dataset.game, li]));
  list.replaceChildren();
  for (const g of games) {
    let li = kept.get(g.id);
    if (!li) {
      li = document.createElement("li");
      li.dataset.game = g.id;
      const label = document.createElement("span");
      label.className = "board-label";
      const con = document.createElement("a");
      con.className = "con-link";
      con.href = `/game/${g.id}#arbiter=${view.organiser}&event=${view.id}`;
      con.target = "_blank";
      const dev = document.createElement("button");
      dev.className = "dev-make";
      const link = document.createElement("input");
      link.readOnly = true;
      link.className = "dev-link";
      link.hidden = true;
      dev.addEventListener("click", async () => {
        try {
          const made = await api("POST", `/api/arbiter/game/${g.id}/device`, undefined, view.organiser);
          link.value = `${location.origin}${made.url}&event=${view.id}`;
          link.hidden = false;
          link.select();
        } catch (e) {
          showError($("org-message"), e);
        }
      });
      li.append(label, " ", con, " ", dev, " ", link);
    }
    li.querySelector(".board-label").textContent = g.label;
    li.querySelector(".con-link").textContent = t("consoleLink");
    li.querySelector(".dev-make").textContent = t("deviceFor");
    list.appendChild(li);
  }
  $("org-boards-box").hidden = !games.length;
}

// The lineup form: a team pairing still to be played, one of its teams, that team's roster.
function drawLineup(ev, who) {
  const teams = ev.settings?.boards > 0;
  const pairing = $("lu-pairing");
  const open = [];
  for (const stage of teams ? ev.stages || [] : []) {
    for (const round of [...(stage.rounds || []), ...(stage.playoffs || [])]) {
      open.push(...round.pairings.filter((p) => p.second != null && (ev.open || []).includes(p.id)));
    }
  }
  pairing.replaceChildren(
    ...open.map((p) => {
      const o = document.createElement("option");
      o.value = p.id;
      o.textContent = `${p.id}: ${who.get(p.first)} – ${who.get(p.second)}`;
      return o;
    }),
  );
  const chosen = pairing.dataset.chosen;
  if (chosen && open.some((p) => p.id === chosen)) pairing.value = chosen;
  const p = open.find((q) => q.id === pairing.value);
  const team = $("lu-team");
  const picked = team.dataset.chosen;
  team.replaceChildren(
    ...(p ? [p.first, p.second] : []).map((n) => {
      const o = document.createElement("option");
      o.value = n;
      o.textContent = who.get(n);
      return o;
    }),
  );
  if (picked && [...team.options].some((o) => o.value === picked)) team.value = picked;
  $("lu-roster").textContent = rosterHint(ev.entrants.find((e) => String(e.id) === team.value));
  $("org-lineup").hidden = !open.length;
}

// The choices that follow the event: every pairing played or to play, every active player.
// `lineupOnly`: a choice in the lineup form, which redraws that form alone.
export function organiserUpdate(view, round, lineupOnly = false) {
  const ev = view.ev;
  const who = new Map(ev.entrants.map((e) => [e.id, e.name]));
  drawLineup(ev, who);
  if (lineupOnly) return;
  drawBoards(view, who, round);
  $("res-note").textContent = t(ev.settings?.boards > 0 ? "teamResultNote" : "resultNote");
  const pairing = $("res-pairing");
  // What the organiser picked stays picked; else the first pairing still open.
  const chosen = pairing.dataset.chosen;
  pairing.replaceChildren();
  for (const stage of ev.stages || []) {
    for (const round of [...(stage.rounds || []), ...(stage.playoffs || [])]) {
      for (const p of round.pairings) {
        if (p.second == null) continue;
        const o = document.createElement("option");
        o.value = p.id;
        const open = (ev.open || []).includes(p.id);
        o.textContent = `${p.id}: ${who.get(p.first)} – ${who.get(p.second)}${open ? "" : " ✓"}`;
        pairing.appendChild(o);
      }
    }
  }
  if (chosen && [...pairing.options].some((o) => o.value === chosen)) pairing.value = chosen;
  else if (ev.open?.length) pairing.value = ev.open[0];
  $("org-result").hidden = !pairing.options.length;
  const wd = $("wd-entrant");
  const kept = wd.value;
  wd.replaceChildren();
  for (const e of ev.entrants.filter((e) => !e.withdrawn)) {
    const o = document.createElement("option");
    o.value = e.id;
    o.textContent = e.name;
    wd.appendChild(o);
  }
  if (kept) wd.value = kept;
  $("org-withdraw").hidden = !wd.options.length;
  $("org-start").disabled = ev.finished || (ev.open || []).length > 0;
  $("org-register").hidden = ev.finished;
  // A team is registered with its players, board order first, reserves after.
  $("reg-members").hidden = !(ev.settings?.boards > 0);
  $("reg-name").placeholder = t(ev.settings?.boards > 0 ? "teamName" : "playerName");
}
