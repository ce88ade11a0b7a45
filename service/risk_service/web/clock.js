// The game's clocks, counting down each second: the pending decision's deadline (GetGame's
// deadline_ms: a timed game's decision clock, or a correspondence game's turn deadline, told as
// the local date and time it falls due and the time left), and each seat's time bank, the
// deciding seats' running down from the game's last change. An untimed game says so. Nothing is
// decided here: the service enforces every deadline; this only shows it.

import { el } from "./dom.js";
import { durationText, panelText, seatText } from "./words.js";

// a moment in the browser's own time zone and language, as player.js's lists show deadlines
export function localTime(ms) {
  return new Date(ms).toLocaleString(undefined, { weekday: "short", day: "numeric",
    month: "short", hour: "2-digit", minute: "2-digit" });
}

export class ClockPanel {
  constructor(names) {
    this.names = names;
    this.summary = null;
    this.deadline = el("p", { id: "deadline" });
    this.banks = el("ul", { id: "banks", class: "banks" });
    this.element = el("section", { id: "clock" }, el("h2", {}, panelText("panel.clocks")),
      this.deadline, this.banks);
    this.timer = setInterval(() => this.tick(), 1000);
  }

  update(summary) {
    this.summary = summary;
    this.tick();
  }

  stop() { clearInterval(this.timer); }

  tick() {
    const s = this.summary;
    if (!s) return;
    const names = this.names();
    const clock = s.clock || {};
    const due = Number(s.deadlineMs || 0);
    const asked = s.outcome ? [] : s.decision?.seats || [];
    const now = Date.now();
    const timed = Number(clock.decisionSeconds || 0) > 0 || Number(clock.bankSeconds || 0) > 0 ||
      Number(clock.turnSeconds || 0) > 0;
    let text = "";
    if (due > 0 && asked.length) {
      const left = due - now;
      const one = asked.length === 1 ? asked[0] : -1;
      const you = one >= 0 && one === names.viewer;
      const seat = asked.map((x) => seatText(x, names)).join(", ");
      if (left <= 0) text = panelText("panel.overdue");
      else if (Number(clock.turnSeconds || 0) > 0) {
        text = panelText(you ? "panel.turnDueYou" : "panel.turnDue",
          { seat, time: localTime(due), left: durationText(left) });
      } else {
        text = panelText(you ? "panel.deadlineYou" : "panel.deadline",
          { seat, left: durationText(left) });
      }
      this.deadline.dataset.leftMs = String(Math.max(0, left));
    } else if (!timed) {
      text = panelText("panel.untimed");
      delete this.deadline.dataset.leftMs;
    } else {
      delete this.deadline.dataset.leftMs;
    }
    this.deadline.dataset.deadlineMs = String(due);
    this.deadline.hidden = !text;
    this.deadline.textContent = text;
    const banks = Number(clock.bankSeconds || 0) > 0 ? s.bankMs || [] : [];
    const since = now - Number(s.updatedAtMs || now);
    this.banks.replaceChildren(...banks.map((ms, seat) => {
      const running = asked.includes(seat);
      const left = Math.max(0, Number(ms || 0) - (running ? Math.max(0, since) : 0));
      return el("li", { "data-seat": seat, "data-left-ms": left, class: running ? "running" : undefined },
        panelText("panel.timeBank", { seat: seatText(seat, names), left: durationText(left) }));
    }));
  }
}
