// The your-turn alert of the play view: while one of this page's seats is asked to decide, the
// tab's title starts with "Your turn", and when the turn comes while the tab is hidden, a
// notification says so (the Notification API, only where the person allowed it). Permission is
// asked only from a click on this panel's button, as browsers require and people expect; a
// browser without notifications, or a refusal, leaves the title as the alert.

import { el } from "./dom.js";
import { panelText } from "./words.js";

export class TurnAlert {
  constructor(title) {
    this.title = title;
    this.before = document.title;
    this.yours = false;
    this.notified = 0;
    this.state = el("p", { class: "muted", id: "alerts-state" });
    this.ask = el("button", { class: "secondary", id: "alerts-ask", type: "button",
      onclick: () => this.askPermission() }, panelText("panel.alertsAsk"));
    this.element = el("div", { id: "alerts" }, this.ask, this.state);
    this.showPermission();
  }

  get supported() { return typeof Notification === "function"; }

  showPermission() {
    const permission = this.supported ? Notification.permission : "unsupported";
    this.element.dataset.permission = permission;
    this.ask.hidden = permission !== "default";
    this.state.hidden = permission === "default";
    this.state.textContent = permission === "granted" ? panelText("panel.alertsOn")
      : permission === "denied" ? panelText("panel.alertsDenied") : panelText("panel.alertsNone");
  }

  async askPermission() {
    if (!this.supported) { this.showPermission(); return; }
    try { await Notification.requestPermission(); } finally { this.showPermission(); }
  }

  // yours: one of this page's seats is asked to decide now
  update(yours) {
    const was = this.yours;
    this.yours = yours;
    document.title = yours ? panelText("panel.yourTurnTitle", { title: this.title }) : this.before;
    document.documentElement.dataset.yourTurn = String(yours);
    if (yours && !was && document.hidden && this.supported && Notification.permission === "granted") {
      new Notification(panelText("panel.yourTurnNote", { title: this.title }), { tag: "risk-turn" });
      this.notified += 1;
      this.element.dataset.notified = String(this.notified);
    }
  }

  stop() {
    document.title = this.before;
    delete document.documentElement.dataset.yourTurn;
  }
}
