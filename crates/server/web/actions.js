// The player's buttons beside the board, each shown only while it means something: a draw
// offer while the referee would take one (not after one's declined offer until the opponent
// has offered; where offers go with a move, a toggle that sends it with the next move), accept
// and decline while the opponent's offer stands, a claim while a draw may be claimed, a
// takeback request while one's own move stands and the game allows takebacks, its answers
// while the opponent's request stands; nothing once the game is over.

import { sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// The state's fields for the buttons (from a `gameState`).
export function readActions(game, st) {
  game.mayOffer = st.mayOffer || [true, true];
  game.offerWithMove = !!st.offerWithMove;
  game.mayTakeback = st.mayTakeback || [false, false];
  game.takeback = st.takeback || null;
  // An offer to go with the next move lapses where one may no longer offer.
  if (!game.mayOffer[mine(game)]) game.offerNext = false;
}

// The index of the player's side in the state's pairs (first, second).
function mine(game) {
  const [first] = game.sides || ["white"];
  return game.mySide === first ? 0 : 1;
}

// Wires the buttons to `act` (a socket message sender); `redraw` after a local change.
export function setupActions(game, act, redraw) {
  $("draw").addEventListener("click", () => {
    if (game.offerWithMove) {
      game.offerNext = !game.offerNext;
      redraw();
    } else {
      act({ t: "draw-offer" });
    }
  });
  $("accept").addEventListener("click", () => act({ t: "draw-accept" }));
  $("decline").addEventListener("click", () => act({ t: "draw-decline" }));
  $("takeback").addEventListener("click", () => act({ t: "takeback-offer" }));
  $("takeback-accept").addEventListener("click", () => act({ t: "takeback-accept" }));
  $("takeback-decline").addEventListener("click", () => act({ t: "takeback-decline" }));
}

// Shows the buttons for the game as it stands (`over`: it has ended).
export function drawActions(game, over) {
  const seat = Boolean(game.token) && game.mode === "seat";
  const me = mine(game);
  const theirOffer = seat && !over && game.offer && game.offer !== game.mySide;
  const myOffer = seat && !over && game.offer === game.mySide;
  $("offer").textContent = over || !game.offer
    ? game.offerNext && !over ? t("offerGoesWithMove") : ""
    : myOffer
      ? t("youOffered")
      : t("offers", { side: sideName(game.offer) });
  $("buttons").hidden = !seat;
  const draw = $("draw");
  draw.hidden = over || theirOffer || myOffer || !game.mayOffer[me];
  draw.textContent = game.offerWithMove ? t("offerWithMove") : t("offerDraw");
  draw.setAttribute("aria-pressed", String(Boolean(game.offerWithMove && game.offerNext)));
  draw.classList.toggle("pressed", Boolean(game.offerWithMove && game.offerNext));
  $("accept").hidden = $("decline").hidden = !theirOffer;
  // A false claim is a foul: the button is there only while a draw may be claimed.
  $("claim").hidden = over || !game.claimable;
  // Resigning and aborting stay in sight, disabled, once it is over.
  for (const id of ["draw", "claim", "resign", "abort"]) $(id).disabled = over;
  // A game both sides have moved in is resigned, not aborted.
  $("abort").hidden = game.moves.length >= 2;
  const theirTakeback = seat && !over && game.takeback && game.takeback !== game.mySide;
  const myTakeback = seat && !over && game.takeback === game.mySide;
  $("takeback").hidden = !seat || over || Boolean(game.takeback) || !game.mayTakeback[me];
  $("takeback-accept").hidden = $("takeback-decline").hidden = !theirTakeback;
  const note = $("takeback-note");
  note.textContent = myTakeback ? t("youAskedTakeback") : theirTakeback ? t("asksTakeback", { side: sideName(game.takeback) }) : "";
  note.hidden = !note.textContent;
}
