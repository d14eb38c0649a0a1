// The arbiter's console on the game page (`/game/ID#arbiter=TOKEN`, an event's organiser's
// token being every one of its games' arbiter token): what happens at the table entered as the
// referee's commands — a touch, a piece straightened, a technical foul, a move as the player made
// it (an illegal one is ruled), the clock pressed without a move, a claim, a refusal of the rules,
// a resignation, a time correction — for the side chosen, and for the board the clocks started,
// adjourned, resumed and its corrections (5.8, 纠正失误). Moves on the board are entered for the
// side to move. The referee's rulings (obligations, warnings, fouls and their limits, the end)
// are listed as the stream brings them, the game's earlier ones first read from its log.

import { api, readLines } from "./api.js";
import { showError } from "./errors.js";
import { explanationOf, sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// Stream events that are rulings, or things an arbiter must see.
const RULINGS = new Set([
  "Obligation", "Foul", "Warning", "MustVary", "Corrected", "TimeCorrected", "MoveRejected",
  "Refused", "ClaimRejected", "OfferRefused", "GameOver", "Adjourned", "Resumed",
]);

export class Console {
  /// `game`: the page's game; `noticeText(event)`: an event in words.
  constructor(game, noticeText) {
    this.game = game;
    this.noticeText = noticeText;
    this.seen = new Set();
    $("console").hidden = false;
    const side = () => (document.querySelector("input[name=con-side]:checked")?.value === "second" ? 1 : 0);
    const forSide = (path, body) => this.post(`${this.sideName(side())}/${path}`, body);
    $("con-touch").addEventListener("submit", (e) => {
      e.preventDefault();
      forSide("touch", { square: $("con-square").value.trim(), piece: $("con-whose").value });
    });
    $("con-straighten").addEventListener("click", () =>
      forSide("straighten", { square: $("con-square").value.trim(), piece: $("con-whose").value, how: $("con-how").value }),
    );
    $("con-foul").addEventListener("submit", (e) => {
      e.preventDefault();
      const kind = $("con-foul-kind").value;
      forSide("foul", kind ? { kind } : { what: $("con-foul-what").value });
    });
    $("con-foul-kind").addEventListener("change", () => ($("con-foul-what").hidden = !!$("con-foul-kind").value));
    $("con-foul-what").hidden = true;
    $("con-move").addEventListener("submit", (e) => {
      e.preventDefault();
      forSide(`move/${encodeURIComponent($("con-mv").value.trim())}`).then((ok) => ok && ($("con-mv").value = ""));
    });
    $("con-press").addEventListener("click", () => forSide("press-clock"));
    $("con-claim").addEventListener("click", () => forSide("claim-draw"));
    $("con-refuses").addEventListener("click", () => confirm(t("confirmRuling")) && forSide("refuses-rules"));
    $("con-resign").addEventListener("click", () => confirm(t("confirmRuling")) && forSide("resign"));
    $("con-time").addEventListener("submit", (e) => {
      e.preventDefault();
      const seconds = Number($("con-seconds").value);
      forSide("time", { [$("con-time-how").value]: seconds, reason: $("con-time-reason").value });
    });
    $("con-start").addEventListener("click", () => this.post("start"));
    $("con-adjourn").addEventListener("click", () => this.post("adjourn"));
    $("con-resume").addEventListener("click", () => this.post("resume"));
    $("con-correct").addEventListener("submit", (e) => {
      e.preventDefault();
      const correction = $("con-correction").value;
      const body = correction === "restore" ? { correction, ply: Number($("con-ply").value) } : { correction };
      this.post("correct", body);
    });
    $("con-correction").addEventListener("change", () => ($("con-ply").hidden = $("con-correction").value !== "restore"));
    $("con-device").addEventListener("click", async () => {
      if ($("con-device-link").value && !confirm(t("confirmNewDevice"))) return;
      const made = await this.post("device");
      if (!made) return;
      const link = $("con-device-link");
      link.value = `${location.origin}${made.url}`;
      link.hidden = false;
      link.select();
    });
  }

  sideName(i) {
    return (this.game.sides || ["white", "black"])[i];
  }

  /// A console command (`path` under the game's console); its answer, or null after showing
  /// why it was refused.
  async post(path, body) {
    showError($("message"), null);
    try {
      return await api("POST", `/api/arbiter/game/${this.game.id}/${path}`, body, this.game.token);
    } catch (e) {
      showError($("message"), e);
      return null;
    }
  }

  /// A move made on the board: entered for the side to move.
  move(mv) {
    this.post(`${this.game.toMove}/move/${mv}`);
  }

  /// The rulings in the page's language, the side names, and the side to move chosen by
  /// default, after each state.
  draw() {
    for (const li of $("rulings").children) li.textContent = this.text(li.ruling, li.dataset.kind);
    $("con-first-name").textContent = sideName(this.sideName(0));
    $("con-second-name").textContent = sideName(this.sideName(1));
    if (this.game.toMove !== this.lastToMove) {
      this.lastToMove = this.game.toMove;
      $(this.game.toMove === this.sideName(1) ? "con-second" : "con-first").checked = true;
    }
  }

  text(ev, kind) {
    return kind === "GameOver" ? t("gameOverBecause", { why: explanationOf(ev.GameOver) }) : this.noticeText(ev);
  }

  /// A line of the stream: listed when it is a ruling.
  onLine(line) {
    const ev = line.event;
    if (line.version === undefined || this.seen.has(line.version) || !ev) return;
    const kind = typeof ev === "string" ? ev : Object.keys(ev)[0];
    if (!RULINGS.has(kind)) return;
    this.seen.add(line.version);
    if (!this.text(ev, kind)) return;
    const li = document.createElement("li");
    li.dataset.kind = kind;
    li.dataset.version = String(line.version);
    li.textContent = this.text(ev, kind);
    // Kept to be said again in another language.
    li.ruling = ev;
    // Newest first, in version order whichever way they came (the log read, or the stream).
    const after = [...$("rulings").children].find((e) => Number(e.dataset.version) < line.version);
    $("rulings").insertBefore(li, after || null);
  }

  /// The rulings before the page opened: the stream from the start, up to version `upto`.
  async history(upto) {
    // Version 0 is the start: the log asked from it brings what came after.
    if (upto < 1) return;
    try {
      const res = await fetch(`/api/board/game/stream/${this.game.id}?since=0`);
      await readLines(res, (line) => {
        this.onLine(line);
        return line.version >= upto;
      });
    } catch {
      // The live rulings still come.
    }
  }
}
