// The game's move list beside the board, in the notation chosen (the server's Chinese, WXF or
// SAN, or coordinates), remembered per kind of game.

import { strings } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export function drawMoves(game) {
  const select = $("notation");
  const kinds = game.kind === "xiangqi" ? ["chinese", "wxf", "iccs"] : ["san", "uci"];
  if (select.dataset.kind !== game.kind) {
    const chosen = select.value || localStorage.getItem(`notation:${game.kind}`);
    select.innerHTML = "";
    for (const k of kinds) {
      const o = document.createElement("option");
      o.value = k;
      o.textContent = strings().notation[k];
      select.appendChild(o);
    }
    if (kinds.includes(chosen)) select.value = chosen;
    select.dataset.kind = game.kind;
  }
  const which = select.value;
  const named = game.notation[which];
  // The server's notation, one entry a move; coordinates while it has not sent them.
  const list = which === "uci" || which === "iccs" || !named || named.length !== game.moves.length ? game.moves : named;
  const ol = $("moves");
  ol.innerHTML = "";
  ol.dataset.notation = list === game.moves ? (game.kind === "xiangqi" ? "iccs" : "uci") : which;
  for (let i = 0; i < list.length; i += 2) {
    const li = document.createElement("li");
    for (const j of [i, i + 1]) {
      if (j >= list.length) break;
      const span = document.createElement("span");
      span.className = "move";
      span.dataset.ply = String(j + 1);
      span.textContent = list[j];
      li.appendChild(span);
    }
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
