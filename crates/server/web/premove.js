// Premoves: while the opponent is to move, the player picks a piece of their own and a target
// (board.js); the move waits, highlighted, and goes the moment the opponent's move arrives if
// the server's list of legal moves then has it, else it is dropped. A takeback or the end of the
// game drops it too.

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// Whether the board takes premoves now: the player's seat, the game on, the opponent to move.
export function premoving(game, live) {
  return live && game.mode === "seat" && Boolean(game.token) && Boolean(game.mySide) && game.toMove !== game.mySide;
}

// After a new state (`plies` moves before it): the premove sent by `send(move)` if it is the
// player's turn now and the move is legal, else kept while the opponent is still to move.
export function playPremove(game, plies, live, send) {
  const waiting = game.premove;
  if (!waiting) return;
  if (!live || game.moves.length < plies) {
    game.premove = null;
    return;
  }
  if (game.toMove !== game.mySide) return;
  game.premove = null;
  const legal = game.legal || [];
  const move = legal.find((m) => m === waiting) || legal.find((m) => waiting.length === 4 && m.slice(0, 4) === waiting);
  if (move) send(move);
}

// The note beside the board while a premove waits.
export function drawPremove(game) {
  const note = $("premove-note");
  note.hidden = !game.premove;
  note.textContent = game.premove ? t("premoveSet", { move: game.premove }) : "";
}
