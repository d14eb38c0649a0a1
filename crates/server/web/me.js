// Who the visitor is: the session the server gave this browser on its first page (a cookie the
// page never sees), its display name, and the account it may sign into. The seats the session
// holds come with it (`/api/me`), so a game's page finds its seat without the seat link.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// `/api/me` once a page: `{name, account, seats: [{game, side, token}]}`, or null when the
// server cannot say.
let asked = null;
export function me() {
  asked ??= api("GET", "/api/me").catch(() => null);
  return asked;
}

// The seat this browser holds in game `id`, or null.
export async function heldSeat(id) {
  const mine = await me();
  return mine?.seats.find((s) => s.game === id) || null;
}

// A seat opened by its link: bound to this browser's session (and account), so its other tabs
// and devices find it. Failing that, the link still plays here.
export function holdSeat(game, token) {
  return api("POST", "/api/me/seat", { game, token }).catch(() => null);
}

function show(mine) {
  if (!mine) return;
  if (document.activeElement !== $("display-name")) $("display-name").value = mine.name || "";
  $("signed-in").hidden = !mine.account;
  // Rated games are for accounts (the server refuses the others).
  $("seek-rated").disabled = !mine.account;
  if (!mine.account) $("seek-rated").checked = false;
  $("rated-hint").hidden = !!mine.account;
  $("account-form").hidden = !!mine.account;
  if (mine.account) {
    $("signed-in-as").textContent = t("signedInAs", { name: mine.account });
    $("my-page").href = `/player/${encodeURIComponent(mine.account)}`;
  }
}

let shown = null;

// The lobby's forms: the display name, and the account (made, signed into, signed out of).
export function setupMe() {
  me().then((m) => show((shown = m)));
  const done = (m) => {
    asked = Promise.resolve(m);
    show((shown = m));
    showError($("me-error"), null);
  };
  const failed = (e) => showError($("me-error"), e);
  $("name-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    api("POST", "/api/me/name", { name: $("display-name").value })
      .then((m) => {
        done(m);
        $("name-note").textContent = t("nameSaved");
      })
      .catch(failed);
  });
  const credentials = () => ({ name: $("account-name").value.trim(), password: $("account-password").value });
  $("account-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    api("POST", "/api/login", credentials()).then(done).catch(failed);
  });
  $("make-account").addEventListener("click", () => {
    api("POST", "/api/account", credentials()).then(done).catch(failed);
  });
  $("sign-out").addEventListener("click", () => {
    api("POST", "/api/logout").then(done).catch(failed);
  });
}

// The texts drawn from data, again in the language chosen.
export function redrawMe() {
  show(shown);
}
