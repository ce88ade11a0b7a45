// The replay of a finished game from its export (ExportGame, every page merged; the host's or
// a seat's token from this browser's storage): step, scrub or play through its events. A
// classic board is folded from the events up to the step (owners and armies, exactly as the
// events tell them); for the other variants the events named regions are marked on the board
// and the final board (GetGame) is shown at the last step.

import { call, tokens } from "./api.js";
import { onLeave, say, variants } from "./app.js";
import { Board } from "./board.js";
import { el } from "./dom.js";
import * as V from "./variants.js";

async function exportOf(gameId, token) {
  const whole = { log: [], events: [] };
  let pageToken = "";
  do {
    const page = await call("ExportGame", { gameId, pageToken }, token);
    for (const [key, value] of Object.entries(page)) {
      if (key === "log" || key === "events") whole[key].push(...value);
      else if (key !== "chain" && !(key in whole)) whole[key] = value;
    }
    pageToken = page.nextPageToken || "";
  } while (pageToken);
  return whole;
}

export async function showReplay(main, gameId) {
  const held = tokens.of(gameId);
  const token = held.host || Object.values(held.seats || {})[0];
  if (!token) {
    say("a replay needs the game's export, which only its host and seats may read: this " +
      "browser holds no token for this game");
    return;
  }
  const known = await variants();
  const [record, final] = await Promise.all([exportOf(gameId, token),
    call("GetGame", { gameId }, token)]);
  const variant = known.byEnum.get(String(record.variant));
  const name = variant.name;
  const events = record.events;
  const players = (final.game.seats || []).length;
  const boardBox = el("div", { class: "board-box" });
  const slider = el("input", { type: "range", min: "0", max: String(events.length), value: "0",
    id: "scrub", "aria-label": "step" });
  const stepLabel = el("span", { id: "step" });
  const log = el("ol", { class: "log", id: "log" });
  let timer = 0;
  const play = el("button", { class: "secondary", id: "play" }, "play");
  main.replaceChildren(
    el("h1", {}, `Replay · ${variant.title || name} · `, el("code", {}, gameId)),
    el("p", { class: "muted" }, `${events.length} events, version ${record.version || 0}` +
      (record.outcome ? `, ended (${record.outcome.reason || ""})` : "")),
    el("div", { class: "replay-controls" },
      el("button", { class: "secondary", id: "back", onclick: () => go(step - 1) }, "◀ step"),
      slider,
      el("button", { class: "secondary", id: "forward", onclick: () => go(step + 1) }, "step ▶"),
      play, stepLabel),
    el("div", { class: "game" }, el("div", {}, boardBox),
      el("div", { class: "panel" }, el("section", {}, el("h2", {}, "Events"), log))));
  const board = new Board(boardBox, variant.map || {});
  const names = (id) => board.name(id);
  const seatName = (s) => (s < 0 ? "none" : s >= players ? "neutral"
    : record.seatNames?.[s] || `seat ${s}`);
  const cards = V.cardNames(name, variant);
  const cardName = (id) => cards.get(id) || `card ${id}`;
  log.append(...events.map((event, i) => el("li", { "data-seq": event.seq, value: i + 1 },
    V.describeEvent(name, event, names, seatName, cardName))));
  let step = 0;
  const go = (to) => {
    step = Math.max(0, Math.min(events.length, to));
    slider.value = String(step);
    stepLabel.textContent = `${step} / ${events.length}`;
    main.dataset.step = String(step);
    if (V.foldable(name)) {
      board.show(V.fold(name, events.slice(0, step), board.regions.length, players), players);
    } else if (step === events.length && final.board) {
      board.show(V.pieces(name, final.board, board.regions.length, variant), players);
    } else {
      board.show([], players);
    }
    const named = new Set(step ? V.regionsNamed(name, events[step - 1]) : []);
    for (const [id, parts] of board.shapes) parts.group.classList.toggle("named", named.has(id));
    [...log.children].forEach((li, i) => li.classList.toggle("current", i === step - 1));
    log.children[step - 1]?.scrollIntoView({ block: "nearest" });
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  play.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = 0; play.textContent = "play"; return; }
    play.textContent = "pause";
    timer = setInterval(() => {
      if (step >= events.length) { clearInterval(timer); timer = 0; play.textContent = "play"; }
      else go(step + 1);
    }, 300);
  });
  onLeave(() => clearInterval(timer));
  go(events.length);
}
