// The play view (#/play/GAME, with a seat token from the browser's storage) and the spectator
// view (#/watch/GAME, no token): the board drawn from DescribeVariant, the game as GetGame
// shows it to this caller, the live event log from StreamEvents (resumed from its last seq
// after any drop), moves sent on the seat's WebSocket Session (session.js), and for a seat
// whose decision it is the legal actions of ListLegalActions,
// chosen by clicking regions (a first region, then a target where the action has one) and
// picking a count where the action has a range. Holding several seats (a game created with
// "every seat on this device") the view acts for whichever of them is asked. A signed-in
// player's seat is played with the player's token (player.js), on any device; in a
// correspondence game the seat may go on vacation and come back (StartVacation, EndVacation).

import { ApiError, call, tokens } from "./api.js";
import { connectionState, onLeave, routeNow, say, sayError, variants } from "./app.js";
import { Board, seatMark } from "./board.js";
import { Feed } from "./feed.js";
import { SeatSession } from "./session.js";
import { el, redraw, statusWord } from "./dom.js";
import * as V from "./variants.js";
import { player, when } from "./player.js";
import { PlayPanels } from "./panels.js";
import { ui } from "./words.js";

const LOG_LIMIT = 400; // entries kept on the page; the export has them all

export async function showGame(main, gameId, mode) {
  const route = routeNow();
  const known = await variants();
  const held = mode === "play" ? tokens.of(gameId) : {};
  const seats = Object.entries(held.seats || {}).map(([s, t]) => [Number(s), t]);
  if (mode === "play" && !seats.length && player.get()) {
    // the player's own seat, if they hold one: GetGame with their token names it
    const mine = await call("GetGame", { gameId }, player.token());
    const seat = mine.viewerSeat ?? 0;
    if (seat >= 0) seats.push([seat, player.token()]);
  }
  if (routeNow() !== route) return;
  if (mode === "play" && !seats.length) {
    say(ui("ui.noSeatHere"), "info");
    location.hash = `#/watch/${gameId}`;
    return;
  }
  const view = new GameView(main, gameId, mode, seats, known);
  onLeave(() => view.stop());
  await view.start(route);
}

class GameView {
  constructor(main, gameId, mode, seats, known) {
    this.main = main;
    this.gameId = gameId;
    this.mode = mode;
    this.seats = new Map(seats);
    this.known = known;
    this.summary = null;
    this.board = null;
    this.legal = [];
    this.selection = [];
    this.version = 0;
    this.refreshing = null;
    this.dirty = false;
    this.lost = false; // the connection dropped and no call has been answered since
    this.sessions = new Map(); // seat token -> its SeatSession, opened at its first move
  }

  // the seat this page acts for now: one asked to decide, else the first held
  get actingSeat() {
    const asked = this.summary?.decision?.seats || [];
    for (const seat of asked) if (this.seats.has(seat)) return seat;
    return this.seats.size ? [...this.seats.keys()][0] : -1;
  }

  get token() { return this.seats.get(this.actingSeat) || ""; }

  async start(route) {
    const first = await call("GetGame", { gameId: this.gameId }, this.firstToken());
    if (routeNow() !== route) return;
    this.variant = this.known.byEnum.get(String(first.game.variant));
    if (!this.variant) throw new Error(`this service does not describe variant ${first.game.variant}`);
    this.name = this.variant.name;
    this.layout();
    this.apply(first);
    await this.loadActions();
    this.feed = new Feed(this.gameId, this.mode === "play" ? this.firstToken() : "", {
      onEvent: (event) => this.onEvent(event),
      onState: (state) => this.onFeedState(state),
      onError: (error) => {
        if (error instanceof ApiError && error.reason === "CONNECTION_LOST") {
          this.lost = true;
          say(ui("ui.connectionLost"), "error");
          // a resumed stream answers only once there is an event to send: ask GetGame each
          // second to learn that the service is back
          this.probe ||= setInterval(() => this.refresh(), 1000);
        } else sayError(error);
      },
    });
    this.feed.run();
  }

  firstToken() { return this.seats.size ? [...this.seats.values()][0] : ""; }

  stop() {
    this.feed?.stop();
    this.extras?.stop();
    clearInterval(this.probe);
    for (const session of this.sessions.values()) session.close();
  }

  sessionOf(token) {
    if (!this.sessions.has(token)) this.sessions.set(token, new SeatSession(this.gameId, token));
    return this.sessions.get(token);
  }

  layout() {
    const map = this.variant.map || {};
    this.boardBox = el("div", { class: "board-box" });
    this.statusLine = el("div", { class: "status", id: "status" });
    this.seatLine = el("div", { class: "seats", id: "seats" });
    this.choices = el("div", { class: "choices", id: "choices" });
    this.windowBox = el("section", { id: "windows", hidden: true });
    this.hand = el("ul", { class: "cards", id: "hand" });
    // focusable: a keyboard scrolls the log (WCAG 2.1.1)
    this.log = el("ol", { class: "log", id: "log", tabindex: "0", "aria-label": ui("ui.events") });
    this.vacationBox = el("section", { id: "vacation", hidden: true });
    const side = el("div", { class: "panel" });
    if (this.mode === "play") {
      side.append(el("section", { id: "actions" }, el("h2", {}, ui("ui.yourMove")), this.choices),
        this.windowBox, el("section", {}, el("h2", {}, ui("ui.yourCards")), this.hand),
        this.vacationBox);
    } else {
      side.append(this.windowBox);
    }
    side.append(el("section", {}, el("h2", {}, ui("ui.events")), this.log));
    this.extras = new PlayPanels(this, side); // totals, dice, clocks, alert, resign (panels.js)
    this.main.replaceChildren(
      el("h1", {}, `${this.variant.title || this.name} · `, el("code", {}, this.gameId),
        this.mode === "watch" ? ui("ui.spectating") : ""),
      this.statusLine, this.seatLine,
      el("div", { class: "game" }, el("div", {}, this.boardBox), side));
    this.board = new Board(this.boardBox, map);
    this.board.onClick = (id) => this.click(id);
    this.board.describe = (at) => at.owner < 0 ? ""
      : ui("ui.heldBy", { seat: this.seatName(at.owner) });
    this.main.dataset.regions = String(this.board.regions.length);
  }

  players() { return (this.summary?.seats || []).length; }

  seatName(seat) {
    const entry = (this.summary?.seats || [])[seat];
    if (seat < 0) return ui("ui.seatNone");
    if (seat >= this.players()) return ui("ui.seatNeutral");
    return entry?.displayName || ui("ui.seatN", { n: seat });
  }

  apply(reply) {
    this.summary = reply.game;
    this.version = Number(this.summary.version || 0);
    this.view = reply.board || null;
    const s = this.summary, status = statusWord(s.status);
    const decision = s.decision || {};
    const outcome = s.outcome;
    const present = (...items) => items.filter((item) => item !== null && item !== undefined);
    this.statusLine.replaceChildren(...present(
      el("span", {}, ui("ui.status"), el("b", { id: "game-status" }, status)),
      el("span", {}, ui("ui.version"), el("b", { id: "game-version" }, String(this.version))),
      el("span", {}, ui("ui.lastEvent"), el("b", { id: "game-seq" }, String(s.lastSeq || 0))),
      decision.seats?.length ? el("span", { id: "decision" }, decision.kind
        ? ui("ui.decision", { seats: decision.seats.map((x) => this.seatName(x)).join(", "),
          phase: V.phaseText(this.name, decision.kind) })
        : decision.seats.map((x) => this.seatName(x)).join(", ")) : null,
      outcome ? el("span", { id: "outcome" }, V.eventText(this.name, { [V.caseOf(this.name)]: {
        gameEnded: { winner: outcome.winner ?? 0, ranking: outcome.ranking || [],
          reason: outcome.reason || "" } } }, this.textNames())) : null,
      s.spectatorDelayEvents || s.spectatorDelaySeconds ? el("span", { class: "muted" },
        ui("ui.spectatorDelay", { events: s.spectatorDelayEvents || 0,
          seconds: s.spectatorDelaySeconds || 0 })) : null));
    this.seatLine.replaceChildren(...present(...(s.seats || []).map((seat, i) => el("span", {
      class: "seat" + (this.seats.has(i) ? " mine" : "") },
    seatMark(i, this.players()),
    this.seats.has(i) ? ui("ui.seatYou", { name: this.seatName(i) }) : this.seatName(i))),
    this.players() === 2 && this.name === "classic" ? el("span", {},
      seatMark(this.players(), this.players()), "neutral") : null));
    this.board.layout(this.players());
    if (this.view) {
      this.board.show(V.pieces(this.name, this.view, this.board.regions.length, this.variant),
        this.players());
      this.boardBox.dataset.shown = "board";
    } else {
      this.boardBox.dataset.shown = "hidden";
      say(ui("ui.boardHidden"), "info");
    }
    this.showHand();
    this.showWindows();
    this.showVacation();
    this.extras.update();
  }

  // A correspondence game with vacation days: the seat's days left, until when it is away,
  // and a button to go or to come back.
  showVacation() {
    const s = this.summary || {};
    const clock = s.clock || {};
    const seat = this.seats.size ? [...this.seats.keys()][0] : -1;
    const offered = this.mode === "play" && Number(clock.turnSeconds || 0) > 0 &&
      Number(clock.vacationDays || 0) > 0 && statusWord(s.status) === "active" && seat >= 0;
    this.vacationBox.hidden = !offered;
    if (!offered) return;
    const left = Number((s.vacationLeftMs || [])[seat] || 0);
    const until = Number((s.vacationUntilMs || [])[seat] || 0);
    const daysLeft = Math.floor(left / 86400000);
    const away = until > Date.now();
    const request = { gameId: this.gameId, seat };
    const act = async (method, extra = {}) => {
      try {
        const reply = await call(method, { ...request, ...extra }, this.seats.get(seat));
        this.apply({ game: reply.game, board: this.view });
        this.refresh();
      } catch (error) { sayError(error); }
    };
    const days = el("input", { name: "vacation_days", type: "number", min: "1",
      max: String(Math.max(1, daysLeft)), value: "1", "aria-label": ui("ui.vacationDays") });
    redraw(this.vacationBox, el("h2", {}, ui("ui.vacation")),
      el("p", { id: "vacation-state" }, away ? ui("ui.vacationUntil", { when: when(until) }) : "",
        ui("ui.vacationLeft", { n: daysLeft })),
      away ? el("button", { id: "end-vacation", onclick: () => act("EndVacation") },
        ui("ui.vacationBack"))
        : el("div", { class: "choice" }, days, el("button", { id: "start-vacation",
          disabled: daysLeft < 1 || undefined,
          onclick: () => act("StartVacation", { days: Number(days.value || 1) }) },
        ui("ui.vacationGo"))));
  }

  cardName(id) {
    this.cardNames ||= V.cardNames(this.name, this.variant);
    return this.cardNames.get(id) || `card ${id}`;
  }

  showHand() {
    if (this.mode !== "play") return;
    const { cards } = V.hand(this.name, this.view);
    redraw(this.hand, ...(cards.length ? cards.map((id) => el("li", { "data-card": id },
      this.cardName(id))) : [el("li", { class: "muted" }, ui("ui.noCards"))]));
  }

  showWindows() {
    const open = V.windows(this.name, this.view);
    const decision = this.summary?.decision || {};
    const out = this.summary?.outcome ? [] : open;
    this.windowBox.hidden = !out.length;
    this.windowBox.classList.toggle("window", out.length > 0);
    redraw(this.windowBox, el("h2", {}, ui("ui.responseWindow")), ...out.map((w) => {
      const asked = w.order.find((seat) => !w.passed.includes(seat));
      return el("p", {}, ui("ui.answering", { order: w.order.map((x) => this.seatName(x))
        .join(", "), asked: asked === undefined ? ui("ui.noneAsked") : this.seatName(asked) }) +
        (w.stack.length ? ui("ui.resolving", { n: w.stack.length }) : ""));
    }), decision.kind ? el("p", { class: "muted" },
      ui("ui.now", { phase: V.phaseText(this.name, decision.kind) })) : null);
  }

  async loadActions() {
    if (this.mode !== "play") return;
    const asked = this.summary?.decision?.seats || [];
    if (!asked.some((seat) => this.seats.has(seat)) || this.summary.outcome) {
      this.legal = [];
    } else {
      const reply = await call("ListLegalActions", { gameId: this.gameId, seat: this.actingSeat },
        this.token);
      if (Number(reply.version || 0) !== this.version) { this.dirty = true; }
      this.legal = (reply.actions || []).map((legal) => ({
        action: legal.action, max: legal.maxCount ?? 0,
        regions: V.regionsOf(this.name, legal.action), ...V.actionParts(this.name, legal.action),
      }));
    }
    // a selection survives a refresh only while some legal action still starts with it
    const { next, ready } = this.narrowed();
    if (!next.size && !ready.length) this.selection = [];
    this.showChoices();
  }

  // region ids that may be clicked now, and the actions the selection has narrowed to
  narrowed() {
    const sel = this.selection;
    const matching = this.legal.filter((a) => sel.every((r, i) => a.regions[i] === r));
    const next = new Set(matching.filter((a) => a.regions.length > sel.length)
      .map((a) => a.regions[sel.length]));
    const ready = matching.filter((a) => a.regions.length === sel.length);
    return { next, ready };
  }

  showChoices() {
    if (this.mode !== "play") return;
    const { next, ready } = this.narrowed();
    const sel = this.selection;
    this.board.mark(sel.length ? new Set() : next, sel[0] ?? null,
      sel.length ? next : new Set());
    const items = [];
    const seat = this.actingSeat;
    if (!this.legal.length) {
      const seats = this.summary?.seats || [];
      const taken = seats.filter((x) => x.taken).length;
      const asked = (this.summary?.decision?.seats || []).map((x) => this.seatName(x));
      items.push(el("p", { class: "muted", id: "waiting" }, this.summary?.outcome
        ? ui("ui.gameOver")
        : statusWord(this.summary?.status) === "waiting"
          ? ui("ui.waitingPlayers", { taken, n: seats.length })
          : asked.length ? ui("ui.waitingFor", { seats: asked.join(", ") }) : ui("ui.noMove")));
    } else {
      items.push(el("p", { class: "muted" }, ui("ui.actingAs", { seat: this.seatName(seat) }) +
        (next.size ? sel.length ? ui("ui.clickTarget") : ui("ui.clickRegion",
          { noun: this.variant.map?.regionNoun || ui("ui.regionNoun") }) : "")));
    }
    if (sel.length) {
      items.push(el("p", {}, ui("ui.selected", { regions: sel.map((r) => this.board.name(r))
        .join(" → ") }), " ",
      el("button", { class: "secondary", id: "clear", onclick: () => { this.selection = [];
        this.showChoices(); } }, ui("ui.clear"))));
    }
    ready.forEach((choice, index) => items.push(this.choiceRow(choice, index)));
    redraw(this.choices, ...items);
  }

  // what the text table calls ids in this game; "you" is the one seat this page holds
  textNames() {
    const viewer = this.mode === "play" && this.seats.size === 1 ? [...this.seats.keys()][0] : -1;
    return V.textNames(this.variant, this.summary?.seats, viewer);
  }

  choiceRow(choice, index) {
    // a count offered as a range reads "1 to 5" in the label, picked in the field beside it
    const label = V.actionText(this.name, choice.action, this.textNames(), choice.max);
    const least = choice.fields.count ?? 0;
    const count = choice.max > 0 ? el("input", { type: "number", min: least, max: choice.max,
      value: choice.max, "aria-label": ui("ui.count"), class: "count" }) : null;
    const button = el("button", { class: "act", "data-kind": choice.kind, "data-index": index,
      onclick: () => {
        const action = structuredClone(choice.action);
        if (count) {
          const n = Number(count.value);
          if (!Number.isInteger(n) || n < least || n > choice.max) {
            say(ui("ui.pickCount", { least, max: choice.max }));
            return;
          }
          action[V.caseOf(this.name)][choice.kind].count = n;
        }
        this.submit(action);
      } }, label);
    return el("div", { class: "choice" }, button, count ? el("span", {}, ui("ui.count")) : null,
      count,
      count ? el("span", { class: "muted" }, `${least}–${choice.max}`) : null);
  }

  click(region) {
    if (this.mode !== "play") return;
    const { next } = this.narrowed();
    if (next.has(region)) {
      this.selection = [...this.selection, region];
    } else if (this.selection[0] === region) {
      this.selection = [];
    } else {
      const starts = new Set(this.legal.map((a) => a.regions[0]).filter((r) => r !== undefined));
      if (starts.has(region)) {
        this.selection = [region];
      } else {
        say(ui(this.legal.length ? "ui.noLegalWith" : "ui.notYourMove",
          { region: this.board.name(region) }));
        return;
      }
    }
    say("");
    this.showChoices();
  }

  async submit(action) {
    // every choice waits for the answer: the next ones come with the refreshed game
    const keyboard = this.choices.contains(document.activeElement);
    for (const other of this.choices.querySelectorAll("button")) other.disabled = true;
    const seat = this.actingSeat;
    const session = this.sessionOf(this.token);
    try {
      const reply = await session.submit({ action, seat, expectedVersion: String(this.version),
        requestId: crypto.randomUUID() });
      this.selection = [];
      say("");
      if (Number(reply.version || 0) > this.version) this.version = Number(reply.version);
    } catch (error) {
      sayError(error);
    }
    const sessions = [...this.sessions.values()];
    this.main.dataset.socketMoves = String(sessions.reduce((n, s) => n + s.acked, 0));
    this.main.dataset.unaryMoves = String(sessions.reduce((n, s) => n + s.fallbacks, 0));
    await this.refresh();
    this.showChoices();
    if (keyboard) this.focusNext();
  }

  // after a move chosen with the keyboard the buttons are redrawn: focus goes to the first
  // choice offered, else to the first region a move can start from, not back to the page's top
  focusNext() {
    const button = this.choices.querySelector("button.act:not([disabled])");
    if (button) { button.focus(); return; }
    const region = this.boardBox.querySelector(".region.clickable");
    if (region) this.board.focus(Number(region.dataset.region));
  }

  // GetGame and the legal actions again; calls that arrive meanwhile fold into one more run
  async refresh() {
    if (this.refreshing) { this.dirty = true; return this.refreshing; }
    this.refreshing = (async () => {
      do {
        this.dirty = false;
        try {
          const token = this.mode === "play" ? this.token : "";
          this.apply(await call("GetGame", { gameId: this.gameId }, token));
          if (this.lost) {
            // the service answers again; the stream, already asked again from its last seq,
            // brings whatever was missed (it answers only once there is an event to send)
            this.lost = false;
            clearInterval(this.probe);
            this.probe = 0;
            say(ui("ui.reconnected"), "info");
            connectionState("");
          }
          await this.loadActions();
        } catch (error) {
          sayError(error);
          break;
        }
      } while (this.dirty);
    })();
    try { await this.refreshing; } finally { this.refreshing = null; }
    return undefined;
  }

  onEvent(event) {
    const seq = Number(event.seq || 0);
    const text = V.eventText(this.name, event, this.textNames());
    this.extras.onEvent(event);
    this.log.prepend(el("li", { "data-seq": seq, value: seq }, text));
    while (this.log.children.length > LOG_LIMIT) this.log.lastChild.remove();
    this.main.dataset.lastSeq = String(seq);
    this.main.dataset.repeats = String(this.feed?.repeats ?? 0);
    this.main.dataset.gaps = String(this.feed?.gaps ?? 0);
    if (Number(event.version || 0) > this.version || seq > Number(this.summary?.lastSeq || 0)) {
      this.refresh();
    }
  }

  onFeedState(state) {
    const was = this.main.dataset.feed;
    this.main.dataset.feed = state;
    if (state === "reconnecting") {
      connectionState(ui("ui.reconnecting"));
      this.main.dataset.reconnects = String(Number(this.main.dataset.reconnects || 0) + 1);
    } else if (state === "stopped") {
      connectionState(ui("ui.notFollowing"));
    } else {
      if (!this.lost) connectionState("");
      // the stream is back after an outage: the legal moves the page holds are from before
      // it (or missing, when a read failed meanwhile), and a game waiting on this page's own
      // move sends no event that would ask for them again
      if (was === "reconnecting") this.refresh();
    }
  }
}
