// The lobby's games being played: a small board for each, following its game, that opens it
// for watching. The list is read again every little while, so new games appear and finished
// ones go.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { MiniBoards } from "./minis.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 10000;

let boards = null;
let listed = [];

function playerName(p) {
  if (p.computer) return t("computerLevel", { level: p.computer });
  return p.name || t("anonymous");
}

function draw() {
  $("no-live").hidden = listed.length > 0;
  boards.showGames(listed.map((g) => ({ id: g.id, first: playerName(g.players[0]), second: playerName(g.players[1]) })));
}

async function refresh() {
  try {
    listed = (await api("GET", "/api/games/live")).games;
    draw();
  } catch {
    // Read again on the next round.
  }
}

/// Starts the list (the lobby shows it).
export function watching() {
  boards = new MiniBoards($("live-games"), null);
  refresh();
  setInterval(() => {
    if (!document.hidden) refresh();
  }, REFRESH_MS);
}

/// Names again, in the page's language.
export function redrawWatching() {
  if (boards) draw();
}
