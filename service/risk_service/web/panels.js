// The play and spectator views' panels of what the rules let a player know, read from the view
// GetGame returns to this caller and nothing else: per-player totals (regions held, armies or
// their variant's pieces, cards), what is left to place now and the starting armies left, and
// each variant's own figures — Deep Space's gems, ore, supply, bases and the bank; Legacy's red
// stars, missiles, headquarters, factions and the world's scars, cities and fortifications;
// Strike's coins, hand sizes and the battle under way. Every word comes from words.js (the text
// renderer). Each figure is a cell with data-key and data-seat, so a test reads the numbers the
// way a person does, and compares them with GetGame.

import { say, sayError } from "./app.js";
import { seatMark } from "./board.js";
import { ClockPanel } from "./clock.js";
import { DicePanel } from "./dice.js";
import { el, statusWord } from "./dom.js";
import { TurnAlert } from "./alerts.js";
import { ResignBox } from "./resign.js";
import { caseOf } from "./variants.js";
import { enumText, panelText, seatText } from "./words.js";

// the panels' stylesheet, kept beside this module (index.html links only app.css)
if (!document.querySelector("link[href='/app/panels.css']")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/app/panels.css" }));
}

const count = (list, test) => (list || []).reduce((n, x, i) => n + (test(x, i) ? 1 : 0), 0);
const sum = (list) => (list || []).reduce((n, x) => n + Number(x || 0), 0);
const valuesOf = (list) => (list || []).map((x) => x.values || []);
// the seats' factions when the game has no campaign world: seat i plays faction i+1
// (legacy.proto, World.factions)
const FACTIONS = ["LEGACY_FACTION_DIE_MECHANIKER", "LEGACY_FACTION_ENCLAVE_OF_THE_BEAR",
  "LEGACY_FACTION_IMPERIAL_BALKANIA", "LEGACY_FACTION_KHAN_INDUSTRIES",
  "LEGACY_FACTION_SAHARAN_REPUBLIC"];

// a Legacy seat's faction, shown under its name
function factionOf(v, s) {
  const chosen = v.options?.world?.factions?.[s]?.faction;
  const name = chosen && chosen !== "LEGACY_FACTION_UNSPECIFIED" ? chosen : FACTIONS[s];
  return name ? enumText("legacy", name) : "";
}

// per variant: the columns of the totals, each [key, words, (view, seat) => number or text]
const COLUMNS = {
  classic: [
    ["territories", "panel.territories", (v, s) => count(v.owner, (o) => o === s)],
    ["armies", "panel.armies", (v, s) => sum((v.armies || []).filter((_, t) => v.owner?.[t] === s))],
    ["cards", "panel.cards", (v, s) => Number(v.handCounts?.[s] ?? 0)],
    ["toPlace", "panel.toPlaceStart", (v, s) => Number(v.toPlace?.[s] ?? 0)],
  ],
  legacy: [
    ["territories", "panel.territories", (v, s) => count(v.owner, (o) => o === s)],
    ["armies", "panel.troops", (v, s) => sum((v.troops || []).filter((_, t) => v.owner?.[t] === s))],
    ["cards", "panel.cards", (v, s) => Number(v.handCounts?.[s] ?? 0)],
    ["redStars", "panel.redStars", (v, s) => Number(v.redStars?.[s] ?? 0)],
    ["missiles", "panel.missiles", (v, s) => Number(v.missiles?.[s] ?? 0)],
    ["hqs", "panel.hqs", (v, s) => count(v.hqs, (t) => v.owner?.[t] === s)],
  ],
  deep_space: [
    ["territories", "panel.planets", (v, s) => count(valuesOf(v.recruits)[s], (n) => n > 0)],
    ["armies", "panel.recruits", (v, s) => sum(valuesOf(v.recruits)[s])],
    ["cards", "panel.cards", (v, s) => (valuesOf(v.hands)[s] || []).length],
    ["supply", "panel.supply", (v, s) => Number(v.supply?.[s] ?? 0)],
    ["bases", "panel.bases", (v, s) => (valuesOf(v.bases)[s] || []).length],
    ["gems", "panel.gems", (v, s) => Number(v.gems?.[s] ?? 0)],
    ["ore", "panel.ore", (v, s) => Number(v.ore?.[s] ?? 0)],
  ],
  strike: [
    ["territories", "panel.continentCards", (v, s) => (valuesOf(v.continents)[s] || []).length],
    ["coins", "panel.coins", (v, s) => count(v.coins, (c) => c === s)],
    ["cards", "panel.tactics", (v, s) => Number(v.handCounts?.[s] ?? 0)],
  ],
};

export class Panels {
  // names(): the text renderer's names of this game (textNames of game.js)
  constructor(variant, description, names) {
    this.variant = variant;
    this.description = description;
    this.names = names;
    this.totals = el("div", { class: "totals", id: "totals" });
    this.placing = el("p", { id: "placing", hidden: true });
    this.due = el("p", { id: "reinforcements", hidden: true });
    this.extra = el("div", { id: "variant-panel" });
    this.battle = el("div", { id: "battle", hidden: true });
    this.element = el("section", { id: "panels" }, el("h2", {}, panelText("panel.players")),
      this.totals, this.due, this.placing, this.battle, this.extra);
  }

  // summary: GetGame's game; view: its board (null while a delayed game hides it)
  update(summary, view) {
    const v = view?.[caseOf(this.variant)];
    this.element.hidden = !v;
    if (!v) return;
    const names = this.names();
    const seats = (summary?.seats || []).length;
    const columns = COLUMNS[this.variant] || [];
    const out = v.out || v.eliminated || [];
    // a block per seat: its marker, name (and Legacy faction), then its figures as labelled
    // values that wrap, so any number of seats and figures fits the side panel and a phone
    const blocks = Array.from({ length: seats }, (_, s) => el("div", { "data-seat": s,
      class: ["seat-totals", s === v.current && !summary.outcome ? "current" : "",
        out[s] ? "out" : ""].filter(Boolean).join(" ") },
    el("div", { class: "who" }, seatMark(s, seats), " ", el("b", {}, seatText(s, names)),
    this.variant === "legacy" ? el("span", {}, " · ", el("span", { class: "faction",
      "data-key": "faction", "data-seat": s }, factionOf(v, s))) : null,
    out[s] ? el("span", { class: "muted" }, ` · ${panelText("panel.out")}`) : null),
    el("dl", { class: "figures" }, ...columns.map(([key, words, read]) => el("div", {},
      el("dt", {}, panelText(words)),
      el("dd", { "data-key": key, "data-seat": s }, String(read(v, s))))))));
    this.totals.replaceChildren(...blocks);
    this.showPlacing(v, summary, names);
    this.showExtra(v);
    this.showBattle(v, names);
  }

  // the reinforcements the turn's seat received, as the event that gave them says (the rules
  // count them; the page only tells them): classic's turn start, Legacy's recruits
  onEvent(event) {
    const body = event[caseOf(this.variant)];
    if (!body) return;
    const [kind] = Object.keys(body);
    const e = body[kind] || {};
    const names = this.names();
    let text = "";
    if (this.variant === "classic" && kind === "turnStarted") {
      text = panelText("panel.reinforcements", { seat: seatText(Number(e.seat ?? 0), names),
        n: Number(e.reinforcements || 0), bonus: Number(e.continentBonus || 0) });
    } else if (this.variant === "legacy" && kind === "troopsRecruited") {
      text = panelText("panel.recruited", { seat: seatText(Number(e.seat ?? 0), names),
        n: Number(e.base || 0) + Number(e.continentBonus || 0),
        bonus: Number(e.continentBonus || 0) });
    } else return;
    this.due.hidden = false;
    this.due.textContent = text;
    this.due.dataset.seq = String(Number(event.seq || 0));
  }

  // the armies the seat deciding now still has to place (classic, Legacy: `pending`); Deep
  // Space's moves left this turn
  showPlacing(v, summary, names) {
    const now = Number(v.current ?? -1);
    let text = "";
    if (summary.outcome || now < 0) text = "";
    else if ((this.variant === "classic" || this.variant === "legacy") && Number(v.pending) > 0) {
      text = now === names.viewer ? panelText("panel.placeNowYou", { n: Number(v.pending) })
        : panelText("panel.placeNow", { seat: seatText(now, names), n: Number(v.pending) });
    } else if (this.variant === "deep_space" && Number(v.movesLeft) > 0) {
      text = panelText("panel.movesLeft", { n: Number(v.movesLeft) });
    }
    this.placing.hidden = !text;
    this.placing.textContent = text;
    this.placing.dataset.pending = String(Number(v.pending ?? v.movesLeft ?? 0));
  }

  showExtra(v) {
    const lines = [];
    if (this.variant === "classic") {
      lines.push(["nextTrade", panelText("panel.nextTrade", { n: Number(v.nextTradeValue || 0) })],
        ["deck", panelText("panel.decks", { n: Number(v.deckCount || 0) })]);
    } else if (this.variant === "deep_space") {
      lines.push(["bank", panelText("panel.bank", { gems: Number(v.bankGems || 0),
        ore: Number(v.bankOre || 0) })],
      ["deck", panelText("panel.decks", { n: Number(v.deckCount || 0) })]);
    } else if (this.variant === "legacy") {
      const cities = (v.population || []).filter((p) => p > 0);
      lines.push(["scars", panelText("panel.scars", { n: count(v.scars, (x) => Number(x) > 0) })],
      ["cities", panelText("panel.cities", { n: cities.length, people: sum(cities) })],
      ["fortified", panelText("panel.fortified", { n: count(v.fortifications, (x) => x > 0) })],
      ["deck", panelText("panel.decks", { n: Number(v.deckCount || 0) })]);
    } else if (this.variant === "strike") {
      lines.push(["deck", panelText("panel.decks", { n: Number(v.tacticsDeckCount || 0) })]);
    }
    this.extra.replaceChildren(...lines.map(([key, text]) =>
      el("p", { "data-key": key, class: "muted" }, text)));
  }

  // Strike's battle under way: who attacks what, the troops each side has in, the rolls so far
  showBattle(v, names) {
    const sides = v.sides || [];
    const fighting = this.variant === "strike" && sides.some((x) => Number(x) > 0);
    this.battle.hidden = !fighting;
    if (!fighting) { this.battle.replaceChildren(); return; }
    const region = (r) => names.regions[r] || "";
    const attacker = sides.findIndex((x) => Number(x) === 1);
    const troops = valuesOf(v.troops);
    this.battle.replaceChildren(el("h3", {}, panelText("panel.battle")),
      el("p", { id: "battle-line" }, panelText("panel.battleLine", {
        attacker: seatText(attacker, names), defender: seatText(Number(v.defender ?? -1), names, false),
        from: region(Number(v.fromContinent ?? 0)), to: region(Number(v.toContinent ?? 0)) })),
      el("ul", {}, ...sides.map((side, s) => Number(side) > 0 ? el("li", { "data-seat": s,
        "data-troops": (troops[s] || []).length }, panelText("panel.troopsOf", {
        seat: seatText(s, names), n: (troops[s] || []).length,
        side: panelText(`panel.side.${Number(side)}`) })) : null)),
      el("p", { class: "muted", "data-key": "rolls" },
        panelText("panel.battleRolls", { n: Number(v.rolls || 0) })));
  }
}

// Everything above, the dice, the clocks, the your-turn alert and resign, hooked into a game
// view (game.js's GameView) with one call each from it: created in its layout, updated after
// each GetGame it applies, told each event of its stream, stopped when the page leaves.
export class PlayPanels {
  constructor(game, side) {
    this.game = game;
    const names = () => game.textNames();
    this.panels = new Panels(game.name, game.variant, names);
    this.dice = new DicePanel(game.name, names);
    this.clock = new ClockPanel(names);
    const sections = [this.panels.element, this.dice.element, this.clock.element];
    if (game.mode === "play") {
      this.alert = new TurnAlert(game.variant.title || game.name);
      this.resign = new ResignBox(game.gameId, () => [game.actingSeat, game.token], names,
        (reply, text) => {
          game.apply({ game: reply.game, board: game.view });
          say(text, "info");
          game.refresh();
        }, sayError);
      sections.unshift(el("section", { id: "turn" }, this.alert.element, this.resign.element));
    }
    const anchor = side.querySelector("#actions");
    if (anchor) anchor.after(...sections); else side.prepend(...sections);
  }

  update() {
    const game = this.game;
    const summary = game.summary || {};
    this.panels.update(summary, game.view);
    this.clock.update(summary);
    if (game.mode !== "play") return;
    const active = statusWord(summary.status) === "active" && !summary.outcome;
    const asked = summary.decision?.seats || [];
    this.alert.update(active && asked.some((seat) => game.seats.has(seat)));
    const v = game.view?.[caseOf(game.name)] || {};
    const gone = v.out || v.eliminated || [];
    this.resign.update(active && [...game.seats.keys()].some((seat) => !gone[seat]));
  }

  onEvent(event) {
    this.dice.onEvent(event);
    this.panels.onEvent(event);
  }

  stop() {
    this.clock.stop();
    this.alert?.stop();
  }
}
