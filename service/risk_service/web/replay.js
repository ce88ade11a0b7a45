// The replay of a finished game: its events from its export (ExportGame, every page merged;
// the host's or a seat's token from this browser's storage) or, for anyone holding no token,
// from StreamEvents as a spectator saw them, to step, scrub or play through,
// and at each step the board the service rebuilds for that step's version (GetGame with
// at_version: the spectator's board, replayed from the game's log by the rules on the server,
// the same for every variant). A version's events commit together, so every step of one
// version shows the board after the whole version; step 0, before the first event, is empty.
// Boards are fetched one at a time, the latest step wanted first, and kept by version.

import { call, socketStream, stream, tokens } from "./api.js";
import { onLeave, say, sayError, variants } from "./app.js";
import { Board } from "./board.js";
import { el, statusWord } from "./dom.js";
import * as V from "./variants.js";
import { ui } from "./words.js";

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

// Without a token (a spectator): the game's events as anyone may read them, StreamEvents from
// the start up to the last seq GetGame names (what a spectator saw live: other seats' cards
// hidden), and the seat names from GetGame. A finished game is public to replay, as it was to
// watch (docs/web.md, "Replays for anyone").
async function spectatorRecord(gameId, final) {
  const last = Number(final.game.lastSeq || 0);
  const events = [];
  const controller = new AbortController();
  const take = (message) => {
    for (const event of message.events?.length ? message.events : [message.event || {}]) {
      if (Number(event.seq || 0) > (events.at(-1)?.seq ?? 0)) events.push(event);
    }
    if (Number(events.at(-1)?.seq || 0) >= last) controller.abort();
  };
  if (last > 0) {
    const request = { gameId, afterSeq: "0" };
    if (typeof WebSocket === "function") {
      await socketStream({ ...request, maxBatch: 64 }, take, { signal: controller.signal });
    } else {
      await stream("StreamEvents", request, take, { signal: controller.signal });
    }
  }
  return { variant: final.game.variant, version: final.game.version, outcome: final.game.outcome,
    events, seatNames: (final.game.seats || []).map((seat) => seat.displayName || "") };
}

export async function showReplay(main, gameId) {
  delete main.dataset.drawn; // what another replay drew is no step of this one
  delete main.dataset.version;
  const held = tokens.of(gameId);
  const token = held.host || Object.values(held.seats || {})[0] || "";
  const known = await variants();
  const final = await call("GetGame", { gameId }, token);
  if (!["finished", "abandoned", "cancelled"].includes(statusWord(final.game.status))) {
    say(ui("ui.replay.notOver"), "info");
    location.hash = `#/watch/${gameId}`;
    return;
  }
  // the host and the seats read the export (every event, each with all they may see);
  // anyone else the events a spectator was shown
  const record = token ? await exportOf(gameId, token) : await spectatorRecord(gameId, final);
  main.dataset.replaySource = token ? "export" : "stream";
  const variant = known.byEnum.get(String(record.variant));
  const name = variant.name;
  const events = record.events;
  const players = (final.game.seats || []).length;
  // the export's seat names; the replay speaks to nobody as "you"
  const seats = Array.from({ length: players }, (_, s) => ({ displayName: record.seatNames?.[s] || "" }));
  const names = V.textNames(variant, seats, -1);
  // the end in the text table's words ("Game over: Ada won by conquest"), as the play view says it
  const outcome = final.game.outcome ? V.eventText(name, { [V.caseOf(name)]: { gameEnded: {
    winner: final.game.outcome.winner ?? 0, ranking: final.game.outcome.ranking || [],
    reason: final.game.outcome.reason || "" } } }, names) : "";
  const boardBox = el("div", { class: "board-box" });
  const slider = el("input", { type: "range", min: "0", max: String(events.length), value: "0",
    id: "scrub", "aria-label": ui("ui.replay.step") });
  const stepLabel = el("span", { id: "step" });
  const log = el("ol", { class: "log", id: "log", tabindex: "0", "aria-label": ui("ui.events") });
  let timer = 0;
  const play = el("button", { class: "secondary", id: "play" }, ui("ui.replay.play"));
  main.replaceChildren(
    el("h1", {}, ui("ui.replay.title", { variant: variant.title || name }),
      el("code", {}, gameId)),
    el("p", { class: "muted" }, ui("ui.replay.summary", { n: events.length,
      version: record.version || 0 })),
    outcome ? el("p", { id: "outcome" }, outcome) : null,
    el("div", { class: "replay-controls" },
      el("button", { class: "secondary", id: "back", onclick: () => go(step - 1) },
        ui("ui.replay.back")),
      slider,
      el("button", { class: "secondary", id: "forward", onclick: () => go(step + 1) },
        ui("ui.replay.forward")),
      play, stepLabel),
    el("div", { class: "game" }, el("div", {}, boardBox),
      el("div", { class: "panel" }, el("section", {}, el("h2", {}, ui("ui.events")), log))));
  const board = new Board(boardBox, variant.map || {});
  log.append(...events.map((event, i) => el("li", { "data-seq": event.seq, value: i + 1 },
    V.eventText(name, event, names))));
  let step = 0;
  let drawn = -1; // the step whose board is drawn
  let drawing = false;
  const boards = new Map(); // version -> the drawn pieces
  const boardAt = async (version) => {
    if (!boards.has(version)) {
      const reply = await call("GetGame", { gameId, atVersion: String(version) }, token);
      boards.set(version, V.pieces(name, reply.board, board.regions.length, variant));
    }
    return boards.get(version);
  };
  const draw = async () => {
    if (drawing) return; // the running loop draws the latest step once its fetch is done
    drawing = true;
    try {
      while (drawn !== step) {
        const target = step;
        const version = target ? Number(events[target - 1].version || 0) : -1;
        const pieces = version < 0 ? [] : await boardAt(version);
        if (target !== step) continue;
        board.show(pieces, players);
        const named = new Set(target ? V.regionsNamed(name, events[target - 1]) : []);
        for (const [id, parts] of board.shapes) parts.group.classList.toggle("named", named.has(id));
        drawn = target;
        main.dataset.drawn = String(target);
        main.dataset.version = String(version);
      }
    } catch (error) {
      sayError(error);
    } finally {
      drawing = false;
    }
  };
  const go = (to) => {
    step = Math.max(0, Math.min(events.length, to));
    slider.value = String(step);
    stepLabel.textContent = ui("ui.replay.at", { step, n: events.length });
    main.dataset.step = String(step);
    [...log.children].forEach((li, i) => li.classList.toggle("current", i === step - 1));
    log.children[step - 1]?.scrollIntoView({ block: "nearest" });
    draw();
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  play.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = 0; play.textContent = ui("ui.replay.play"); return; }
    play.textContent = ui("ui.replay.pause");
    timer = setInterval(() => {
      if (step >= events.length) {
        clearInterval(timer); timer = 0; play.textContent = ui("ui.replay.play");
      }
      else go(step + 1);
    }, 300);
  });
  onLeave(() => clearInterval(timer));
  go(events.length);
}
