// A player's page (`/player/NAME`): the account's games, newest first, each linked to its page
// (a game in play, or its record and ending), and the player's ratings in each list that has
// them.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { reasonName, setupLanguage, sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.replace(/^\/player\//, ""));
let data = null;

function cell(row, text) {
  const td = document.createElement("td");
  if (text instanceof Node) td.append(text);
  else td.textContent = text;
  row.append(td);
}

const ONLINE_LISTS = ["online-xiangqi", "online-chess"];

// A rating list's state, as its system keeps it: a number to show.
function ratingOf(r) {
  const s = r.state || {};
  if (r.system === "levels") return `${s.level ?? ""} (${s.points ?? ""})`;
  if (s.rating === undefined) return "";
  // Provisional while Glicko-2 is still unsure of it, marked as lichess marks it.
  const unsure = r.system === "glicko2" && Number(s.deviation) > 110 ? "?" : "";
  return `${Math.round(Number(s.rating))}${unsure}`;
}

function draw() {
  $("player-title").textContent = t("playerTitle", { name: data?.name || name });
  if (!data) return;
  const games = $("games").querySelector("tbody");
  games.replaceChildren();
  for (const g of data.games) {
    const row = document.createElement("tr");
    row.className = "game";
    row.dataset.game = g.id;
    cell(row, new Date(g.createdAt).toLocaleDateString(document.documentElement.lang));
    cell(row, t(g.kind === "xiangqi" ? "xiangqiTitle" : "chessTitle"));
    cell(row, sideName(g.side));
    if (g.opponent) {
      const a = document.createElement("a");
      a.href = `/player/${encodeURIComponent(g.opponent)}`;
      a.textContent = g.opponent;
      cell(row, a);
    } else cell(row, "");
    const how = reasonName(g.result || "", g.kind);
    cell(row, g.live ? t("live") : g.score ? `${t("score:" + g.score)} (${how})` : how);
    const link = document.createElement("a");
    link.href = g.url;
    link.textContent = t("openGame");
    cell(row, link);
    games.append(row);
  }
  $("games").hidden = data.games.length === 0;
  $("no-games").hidden = data.games.length > 0;
  const ratings = $("ratings").querySelector("tbody");
  ratings.replaceChildren();
  for (const r of data.ratings) {
    const row = document.createElement("tr");
    // The site's own lists by what they rate; an event's by the name it was given.
    cell(row, ONLINE_LISTS.includes(r.list) ? t(`list:${r.list}`) : r.list);
    cell(row, r.system);
    cell(row, ratingOf(r));
    cell(row, String(r.state?.games ?? ""));
    ratings.append(row);
  }
  $("ratings").hidden = data.ratings.length === 0;
  $("no-ratings").hidden = data.ratings.length > 0;
}

setupLanguage(draw);
api("GET", `/api/player/${encodeURIComponent(name)}`)
  .then((d) => {
    data = d;
    draw();
  })
  .catch((e) => {
    showError($("player-error"), e);
    $("games").hidden = $("ratings").hidden = true;
  });
