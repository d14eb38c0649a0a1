// A finished game's rematch, on its board: each seat's holder sees a Rematch button; one offers,
// the other accepts, and the server makes the same game with colours swapped, both seats bound.
// While the game is over, the page asks after the offer, and goes to the new game once made.
// The server knows the players by their sessions: the page's seat token plays no part.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const POLL_MS = 2000;

let id = null;
let state = null;
let polling = null;
// Whether this page saw the rematch open (offered or clicked): only then does it follow the
// new game, so that a finished game opened later stays where it is.
let waiting = false;

function show() {
  $("rated").hidden = !state?.rated;
  const can = Boolean(state?.over && state.seat && state.opponent);
  $("rematch").hidden = !can;
  if (!can) return;
  const button = $("rematch-go");
  button.textContent = t(state.offer === "theirs" ? "acceptRematch" : state.offer === "yours" ? "rematchOffered" : "rematch");
  button.disabled = state.offer === "yours" || Boolean(state.game);
  $("rematch-note").textContent =
    state.offer === "theirs" ? t("theyOfferRematch") : state.offer === "yours" ? t("youOfferedRematch") : "";
}

function took(s) {
  if (!s) return;
  state = s;
  if (state.offer && !state.game) waiting = true;
  if (state.game && waiting) {
    location.href = `/game/${state.game}`;
    return;
  }
  show();
}

const ask = () => api("GET", `/api/game/${id}/rematch`).then(took, () => null);

// Called with every drawing of the board: asks once (the rated mark), then, once the game is
// over, every few seconds.
export function rematch(gameId, over) {
  if (id === null) {
    id = gameId;
    $("rematch-go").addEventListener("click", () => {
      waiting = true;
      api("POST", `/api/game/${id}/rematch`).then(took, (e) => showError($("message"), e));
    });
    ask();
  }
  if (over && !polling) {
    ask();
    polling = setInterval(ask, POLL_MS);
  }
  show();
}
