// Resigning from the play view: a "Resign" button that asks first, on the page itself (a
// confirmation a keyboard and a screen reader reach, not the browser's modal dialog), then
// calls Resign for the seat with a fresh request id, so a repeated click cannot resign twice.

import { call } from "./api.js";
import { el } from "./dom.js";
import { panelText, seatText } from "./words.js";

export class ResignBox {
  // seat(): the seat to resign and its token; names(): the text names; done(reply): after
  constructor(gameId, seat, names, done, fail) {
    this.gameId = gameId;
    this.seat = seat;
    this.names = names;
    this.done = done;
    this.fail = fail;
    this.open = el("button", { class: "danger", id: "resign", type: "button",
      onclick: () => this.confirming(true) }, panelText("panel.resign"));
    this.question = el("p", { id: "resign-question" });
    this.yes = el("button", { class: "danger", id: "resign-yes", type: "button",
      onclick: () => this.resign() }, panelText("panel.resignYes"));
    this.no = el("button", { class: "secondary", id: "resign-no", type: "button",
      onclick: () => this.confirming(false) }, panelText("panel.resignNo"));
    this.confirm = el("div", { class: "confirm", role: "alertdialog",
      "aria-labelledby": "resign-question" }, this.question, this.yes, this.no);
    this.element = el("div", { id: "resign-box" }, this.open, this.confirm);
    this.confirming(false);
  }

  confirming(on) {
    this.confirm.hidden = !on;
    this.open.hidden = on;
    if (on) {
      const [seat] = this.seat();
      const names = this.names();
      this.question.textContent = seat === names.viewer ? panelText("panel.resignAskYou")
        : panelText("panel.resignAsk", { seat: seatText(seat, names) });
      this.no.focus();
    }
  }

  // offered while the game is on and this page holds a seat still in it
  update(offered) {
    this.element.hidden = !offered;
    if (!offered) this.confirming(false);
  }

  async resign() {
    const [seat, token] = this.seat();
    this.yes.disabled = true;
    try {
      const reply = await call("Resign", { gameId: this.gameId, seat,
        requestId: crypto.randomUUID() }, token);
      this.confirming(false);
      this.done(reply, panelText("panel.resigned", { seat: seatText(seat, this.names()) }));
    } catch (error) {
      this.fail(error);
    } finally {
      this.yes.disabled = false;
    }
  }
}
