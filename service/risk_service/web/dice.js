// The dice of the latest battle, shown as dice faces beside the board, from the events that
// carry them (the log tells them too, in the text table's words): classic's and Legacy's
// battle results, Legacy's and Strike's rolls and Strike's changed dice, Deep Space's battle
// rolls. Each die is a face (⚀ to ⚅; a number in a box past six) with its value in
// data-value and words for a screen reader.

import { el } from "./dom.js";
import { caseOf } from "./variants.js";
import { panelText, seatText } from "./words.js";

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// per event kind: [attacker's dice, defender's dice] as lists of numbers, and the seats
const READ = {
  battleResolved: (e) => ({ attack: e.attackFinal?.length ? e.attackFinal : e.attackDice,
    defence: e.defenceFinal?.length ? e.defenceFinal : e.defenceDice,
    attacker: e.attacker, defender: e.defender }),
  diceRolled: (e) => ({ attack: e.attack, defence: e.defence }),
  diceChanged: (e) => ({ attack: e.attack, defence: e.defence }),
  battleRolled: (e) => ({ attack: [e.attackerRoll], defence: [e.defenderRoll],
    attacker: e.attacker, defender: e.defender }),
};

export class DicePanel {
  constructor(variant, names) {
    this.variant = variant;
    this.names = names;
    this.attack = el("div", { class: "dice-row", id: "dice-attack" });
    this.defence = el("div", { class: "dice-row", id: "dice-defence" });
    this.none = el("p", { class: "muted", id: "dice-none" }, panelText("panel.diceNone"));
    this.element = el("section", { id: "dice" }, el("h2", {}, panelText("panel.dice")),
      this.none, this.attack, this.defence);
    this.attack.hidden = this.defence.hidden = true;
    this.seats = { attacker: -1, defender: -1 };
  }

  // an event of the live stream: the dice it carries replace the ones shown
  onEvent(event) {
    const body = event[caseOf(this.variant)];
    if (!body) return;
    const [kind] = Object.keys(body);
    const read = READ[kind];
    const inner = body[kind] || {};
    if (!read) {
      if ("defender" in inner && "seat" in inner) this.noteSeats(inner.seat, inner.defender);
      return;
    }
    const dice = read(inner);
    if (!(dice.attack || []).length && !(dice.defence || []).length) return;
    // a roll event names no seats: the battle's seats from the event that opened it stay
    if (dice.attacker !== undefined) this.seats.attacker = dice.attacker;
    if (dice.defender !== undefined) this.seats.defender = dice.defender;
    this.show(dice.attack || [], dice.defence || [], Number(event.seq || 0));
  }

  // an attack declared names the seats before the dice come
  noteSeats(attacker, defender) {
    this.seats = { attacker, defender };
  }

  show(attack, defence, seq) {
    const names = this.names();
    const row = (box, label, seat, values) => {
      box.hidden = false;
      box.replaceChildren(el("span", { class: "dice-who" }, panelText(label) +
        (seat >= 0 ? ` · ${seatText(seat, names)}` : "")),
      ...values.map((n) => el("span", { class: "die", role: "img", "data-value": n,
        "aria-label": panelText("panel.die", { n }) }, n >= 1 && n <= 6 ? FACES[n - 1] : String(n))));
    };
    this.none.hidden = true;
    row(this.attack, "panel.attacker", this.seats.attacker, attack.map(Number));
    row(this.defence, "panel.defender", this.seats.defender, defence.map(Number));
    this.element.dataset.seq = String(seq);
  }
}
