// The board device (`/game/ID#device=TOKEN`): one screen at the table for both players. Either
// side moves on the board when it is their turn; beside each side's clock, that side's buttons:
// offer a draw (with the next move for the side to move, as the seeds' rules have it; on its
// own for the other) or answer the other's offer, claim a draw while one may be claimed, press the
// clock without a move (a foul, as at the table), resign. The referee rules each as it would a
// seat's; the device's token acts for no one else and does nothing of the arbiter's.

import { api } from "./api.js";
import { showError } from "./errors.js";
import { sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class Device {
  constructor(game) {
    this.game = game;
    document.getElementById("play").classList.add("device");
  }

  async act(side, path) {
    showError($("message"), null);
    try {
      await api("POST", `/api/device/game/${this.game.id}/${side}/${path}`, undefined, this.game.token);
    } catch (e) {
      showError($("message"), e);
    }
  }

  /// A move made on the board: the side to move's, with a draw offer when its player asked.
  move(mv) {
    const side = this.game.toMove;
    const offering = this.offerWithMove === side;
    this.offerWithMove = null;
    this.act(side, `move/${mv}${offering ? "?offeringDraw=true" : ""}`);
  }

  button(bar, cls, label, onClick) {
    const b = document.createElement("button");
    b.className = cls;
    b.textContent = label;
    b.addEventListener("click", onClick);
    bar.appendChild(b);
  }

  /// Each side's bar, by its clock, from the state.
  draw() {
    const g = this.game;
    const live = g.status === "started" || g.status === "created";
    const sides = g.sides || ["white", "black"];
    sides.forEach((side, i) => {
      const bar = $(i === 0 ? "bar-white" : "bar-black");
      bar.hidden = false;
      bar.className = `device-bar ${$(i === 0 ? "clock-white" : "clock-black").classList.contains("top") ? "top" : "bottom"}`;
      bar.dataset.side = side;
      bar.replaceChildren();
      if (!live) return;
      const other = sides[1 - i];
      const name = sideName(side);
      const turn = g.toMove === side;
      if (g.offer === other) {
        this.button(bar, "dev-accept", t("acceptDraw"), () => this.act(side, "draw/yes"));
        this.button(bar, "dev-decline", t("decline"), () => this.act(side, "draw/no"));
      } else if (g.offer === side) {
        const span = document.createElement("span");
        span.className = "dev-offered";
        span.textContent = t("offers", { side: name });
        bar.appendChild(span);
      } else if (turn) {
        // Where the rules have a draw offered with one's move, the offer waits for the move.
        const on = this.offerWithMove === side;
        this.button(bar, `dev-offer-move${on ? " on" : ""}`, t(on ? "offerWithMoveOn" : "offerWithMove"), () => {
          this.offerWithMove = on ? null : side;
          this.draw();
        });
      } else {
        this.button(bar, "dev-offer", t("offerDraw"), () => this.act(side, "draw/yes"));
      }
      if (turn && g.claimable) this.button(bar, "dev-claim", t("claim"), () => this.act(side, "claim-draw"));
      if (turn) this.button(bar, "dev-press", t("pressClock"), () => this.act(side, "press-clock"));
      this.button(bar, "dev-resign", t("resignSide", { side: name }), () => {
        if (confirm(t("confirmResign", { side: name }))) this.act(side, "resign");
      });
    });
  }
}
