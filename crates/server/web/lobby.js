// The lobby (`/`): a form that creates a game against a person (and gives the players' and
// spectators' links) or against the computer (and opens its board); the games to watch.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { sideName, t } from "./i18n.js";
import { redrawMe, setupMe } from "./me.js";
import { redrawWatching, watching } from "./watching.js";
import { drawSeeks, setupSeeks } from "./seek.js";

const $ = (id) => document.getElementById(id);

// The seat names for the game chosen in the lobby's form.
export function lobbyLabels() {
  const xq = $("kind").value === "xiangqi";
  const first = sideName(xq ? "red" : "white");
  const second = sideName("black");
  $("label-white").textContent = t("linkFor", { side: first });
  $("label-black").textContent = t("linkFor", { side: second });
  $("play-white").textContent = t("playHere", { side: first });
  $("play-black").textContent = t("playHere", { side: second });
  $("seat-first").textContent = first;
  $("seat-second").textContent = second;
  for (const o of $("opponent").options) {
    if (o.value !== "person") o.textContent = t("computerLevel", { level: o.value });
  }
  redrawMe();
  redrawWatching();
  drawSeeks();
}

export function lobby() {
  $("lobby").hidden = false;
  setupMe();
  watching();
  setupSeeks();
  $("kind").addEventListener("change", lobbyLabels);
  lobbyLabels();
  $("create").addEventListener("submit", async (evt) => {
    evt.preventDefault();
    const f = new FormData(evt.target);
    const body = {
      kind: f.get("kind"),
      clock: { limit: Number(f.get("minutes")) * 60, increment: Number(f.get("increment")) },
    };
    if (f.get("ruleset")) body.ruleset = f.get("ruleset");
    // The seat played here is this browser's (its session's): any tab of it finds the seat.
    body.seat = f.get("seat");
    // Against the computer: it takes the other seat, and the player goes straight to the board.
    const computer = f.get("opponent") !== "person";
    if (computer) {
      const xq = body.kind === "xiangqi";
      body.computer = { level: Number(f.get("opponent")), side: body.seat === "first" ? "black" : xq ? "red" : "white" };
    }
    try {
      const created = await api("POST", "/api/game", body);
      const base = `${location.origin}/game/${created.id}`;
      if (computer) {
        const mine = created.seats[body.seat === "first" ? 0 : 1];
        location.href = `${base}#seat=${mine.token}&side=${mine.side}`;
        return;
      }
      $("links").hidden = false;
      // The seat token goes in the fragment, which browsers never send to the server.
      const link = (seat) => `${base}#seat=${seat.token}&side=${seat.side}`;
      $("link-white").value = link(created.seats[0]);
      $("link-black").value = link(created.seats[1]);
      $("link-watch").value = `${base}#watch`;
      $("play-white").href = $("link-white").value;
      $("play-black").href = $("link-black").value;
      $("watch").href = `${base}#watch`;
      $("links").dataset.game = created.id;
      lobbyLabels();
      showError($("create-error"), null);
    } catch (e) {
      showError($("create-error"), e);
    }
  });
}
