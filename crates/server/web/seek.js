// Finding an opponent from the lobby: a seek posted (listed to every other visitor while this
// page keeps asking for the list), the others' seeks with a button each to play them, and a
// challenge by link. When someone accepts this visitor's seek, the list's next answer names the
// game, and the page goes to its board (the seat is already this browser's).

import { api } from "./api.js";
import { showError } from "./errors.js";
import { sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// How often the lobby asks: well within the server's 30 s, after which a seek is dropped.
const POLL_MS = 2500;

// The list's last answer: `{seeks, mine}`.
let last = { seeks: [], mine: [] };

// A seek's terms in words: the game, its time control, rated or casual.
function terms(s) {
  return [t(s.kind), t(`time${s.time}`), t(s.rated ? "rated" : "casual")].join(" · ");
}

function asked() {
  return {
    kind: $("seek-kind").value,
    time: $("seek-time").value,
    rated: $("seek-rated").checked,
    colour: $("seek-colour").value,
  };
}

function failed(e) {
  showError($("seek-error"), e);
}

function item(text, label, button, onClick) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.textContent = text;
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = button;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  li.append(span, " ", b);
  return li;
}

// The lists and the colour choice's names, in the page's language.
export function drawSeeks() {
  const xq = $("seek-kind").value === "xiangqi";
  $("seek-first").textContent = sideName(xq ? "red" : "white");
  $("seek-second").textContent = sideName("black");
  $("my-seeks").replaceChildren(
    ...last.mine.map((s) => {
      const what = terms(s);
      return item(t("waiting", { what }), t("cancelSeekLabel", { what }), t("cancelSeek"), () =>
        api("DELETE", `/api/seeks/${s.id}`).then(poll, failed),
      );
    }),
  );
  $("no-seeks").hidden = last.seeks.length > 0;
  $("seeks").replaceChildren(
    ...last.seeks.map((s) => {
      const name = s.name || t("anonymous");
      const what = terms(s);
      return item(`${name} · ${what}`, t("playLabel", { name, what }), t("play"), () =>
        api("POST", `/api/seeks/${s.id}/accept`).then((r) => (location.href = r.url), (e) => (failed(e), poll())),
      );
    }),
  );
}

async function poll() {
  try {
    last = await api("GET", "/api/seeks");
  } catch {
    return;
  }
  const made = last.mine.find((s) => s.game);
  if (made) {
    location.href = made.url;
    return;
  }
  drawSeeks();
}

export function setupSeeks() {
  $("seek-kind").addEventListener("change", drawSeeks);
  $("seek-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    $("seek-error").textContent = "";
    api("POST", "/api/seeks", asked()).then(poll, failed);
  });
  $("challenge-go").addEventListener("click", () => {
    $("seek-error").textContent = "";
    api("POST", "/api/challenge", asked()).then((c) => {
      $("challenge").hidden = false;
      $("challenge-link").value = `${location.origin}${c.url}`;
      $("challenge-board").href = c.url;
    }, failed);
  });
  poll();
  setInterval(poll, POLL_MS);
}

// A challenge's link (`/game/ID#challenge=C`) opened: the first visitor other than its maker
// takes the free seat (bound to this browser, so the board finds it); anyone later watches.
export async function takeChallenge(fragment) {
  const id = new URLSearchParams(fragment.slice(1)).get("challenge");
  if (id) await api("POST", `/api/challenge/${encodeURIComponent(id)}/take`).catch(() => null);
}
