// The overlay for streaming software (overlay.html; docs/overlay.md): one game on a 1920x1080
// screen with no controls, for a broadcaster's browser source. The URL's fragment chooses it:
// `#game=GAME`, or `#event=TOURNAMENT` for the event's featured table (StreamGames' `featured`
// announcements: the overlay switches game when the table changes); `&bg=transparent` lets the
// broadcast show through. It shows the board (board.js, drawn from DescribeVariant's map), each
// seat with what it holds (armies, territories, cards, and each variant's own counts: Deep
// Space's gems, ore and bases, Legacy's red stars, missiles and cities, Strike's coins and
// hands), the last moves and the last battle's dice in the text table's words (text.js), and
// for a tournament's game the event's standings from its results feed (StreamResults). It
// follows the game as the spectator view does (feed.js: StreamEvents on a WebSocket, resumed
// from its last seq after a drop) and holds no credential: it sees what any spectator sees.

import { ApiError, call, explain, stream } from "./api.js";
import { Board, seatLook, seatMark } from "./board.js";
import { Feed } from "./feed.js";
import { el, statusWord } from "./dom.js";
import * as V from "./variants.js";
import { Renderer } from "./text.js";
import { ui } from "./words.js";

const MOVES = 6; // move lines shown, newest first
const BACKLOG = 60; // events read back on opening a game: the last moves and the last battle
const STANDINGS = 6; // rows of the event's standings shown, the seats on screen besides
const TEXT = new Renderer("en");
const $ = (id) => document.getElementById(id);
const main = $("overlay");

// refusals another try would only repeat
const FINAL = new Set(["not_found", "unauthenticated", "permission_denied", "invalid_argument",
  "failed_precondition", "unimplemented"]);

// a refusal in the words a broadcaster acts on (the app's `explain` names the reason)
function words(error) {
  if (error instanceof ApiError) {
    if (error.reason === "TOURNAMENT_NOT_FOUND") {
      return ui("ui.overlay.noEvent");
    }
    if (error.reason === "GAME_NOT_FOUND" || error.code === "not_found") {
      return ui("ui.overlay.noGame");
    }
    if (error.code === "invalid_argument") return ui("ui.overlay.badGame");
    if (error.reason === "CONNECTION_LOST") return ui("ui.overlay.unreachable");
  }
  return explain(error);
}

function say(message) {
  $("notice").textContent = message;
  $("notice").hidden = !message;
}

function connection(text) {
  $("connection").textContent = text;
  $("connection").hidden = !text;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const at = (list, i) => Number(list?.[i] ?? 0);
const sizeOf = (list, i) => (list?.[i]?.values || []).length;
const total = (list) => (list || []).reduce((a, b) => a + Number(b || 0), 0);

// What a seat holds, per variant, as [words, number] pairs read off the spectator's view;
// `held` is what the board draws for the seat (its regions and the count on them).
const STATS = {
  classic: (v, seat, held) => [["territories", held.regions], ["armies", held.count],
    ["cards", at(v.handCounts, seat)]],
  legacy: (v, seat, held) => [["territories", held.regions], ["troops", held.count],
    ["cards", at(v.handCounts, seat)], ["redStars", at(v.redStars, seat)],
    ["missiles", at(v.missiles, seat)],
    ["cities", (v.population || []).filter((p, i) => p > 0 && at(v.owner, i) === seat).length]],
  deep_space: (v, seat, held) => [["planets", held.regions],
    ["crew", total(v.recruits?.[seat]?.values)], ["bases", sizeOf(v.bases, seat)],
    ["gems", at(v.gems, seat)], ["ore", at(v.ore, seat)], ["cards", sizeOf(v.hands, seat)]],
  strike: (v, seat) => [["continentCards", sizeOf(v.continents, seat)],
    ["coins", (v.coins || []).filter((c) => c === seat).length],
    ["tacticsCards", at(v.handCounts, seat)]],
};

// What the board holds besides the seats' own, per variant
const WORLD = {
  legacy: (v) => [["scars", (v.scars || []).filter((s) => s > 0).length],
    ["cities", (v.population || []).filter((p) => p > 0).length]],
  deep_space: (v) => [["bankGems", Number(v.bankGems || 0)],
    ["bankOre", Number(v.bankOre || 0)]],
};

// A battle's dice as the event carries them
// (attackDice and defenceDice, or attack and defence: Strike's and Legacy's rolls; Deep Space
// throws one die a side per roll)
function diceOf(body) {
  for (const [a, d] of [["attackDice", "defenceDice"], ["attack", "defence"]]) {
    if (Array.isArray(body[a]) && Array.isArray(body[d]) &&
        body[a].length + body[d].length > 0) return { attack: body[a], defence: body[d] };
  }
  if ("attackerRoll" in body && "defenderRoll" in body) {
    return { attack: [body.attackerRoll], defence: [body.defenderRoll] };
  }
  return null;
}

// a count and its words: the key names it (data-stat), the text table's "ui.overlay.stat." words
function stat([key, value]) {
  return el("span", { class: "stat", "data-stat": key }, el("b", {}, String(value)),
    ui(`ui.overlay.stat.${key}`));
}

class GameOverlay {
  constructor(gameId, known, standingsOf) {
    this.gameId = gameId;
    this.known = known;
    this.standingsOf = standingsOf;
    this.version = 0;
    this.refreshing = null;
    this.dirty = false;
    this.stopped = false;
  }

  async start() {
    const first = await call("GetGame", { gameId: this.gameId });
    if (this.stopped) return;
    this.variant = this.known.get(String(first.game.variant));
    if (!this.variant) throw new Error(ui("ui.overlay.noVariant"));
    this.name = this.variant.name;
    this.board = new Board($("board"), this.variant.map || {});
    $("moves").replaceChildren();
    $("dice").hidden = true;
    main.dataset.game = this.gameId;
    main.dataset.variant = this.name;
    this.apply(first);
    this.standings = this.standingsOf(first.game);
    const from = Math.max(0, Number(first.game.lastSeq || 0) - BACKLOG);
    this.feed = new Feed(this.gameId, "", {
      onEvent: (event) => this.onEvent(event),
      onState: (state) => this.onFeedState(state),
      onError: (error) => {
        if (error instanceof ApiError && error.reason === "CONNECTION_LOST") {
          say("");
          connection(ui("ui.overlay.reconnecting"));
        } else say(words(error));
      },
    });
    this.feed.lastSeq = from;
    this.feed.run();
    // the spectator count and a finished game's last state without an event to prompt them
    this.ticker = setInterval(() => this.refresh(), 15000);
  }

  stop() {
    this.stopped = true;
    this.feed?.stop();
    clearInterval(this.ticker);
  }

  names() { return V.textNames(this.variant, this.summary?.seats, -1); }

  players() { return (this.summary?.seats || []).length; }

  apply(reply) {
    this.summary = reply.game;
    this.version = Number(this.summary.version || 0);
    this.view = reply.board?.[V.caseOf(this.name)] || null;
    const s = this.summary, names = this.names(), players = this.players();
    main.dataset.version = String(this.version);
    main.dataset.status = statusWord(s.status);
    $("title").replaceChildren(this.variant.title || this.name, s.tournament
      ? el("span", { class: "event" },
        ui("ui.overlay.round", { tournament: s.tournament, round: Number(s.round || 0) })) : "");
    const watching = Number(s.spectators || 0);
    $("spectators").textContent = ui("ui.overlay.watching", { n: watching });
    $("turn").textContent = this.turnLine(names);
    this.board.layout(players);
    const pieces = this.view
      ? V.pieces(this.name, reply.board, this.board.regions.length, this.variant) : [];
    if (this.view) this.board.show(pieces, players);
    else say(ui("ui.overlay.hidden"));
    this.showPlayers(names, pieces);
  }

  turnLine(names) {
    const s = this.summary, status = statusWord(s.status);
    if (s.outcome) {
      const outcome = s.outcome;
      return V.eventText(this.name, { [V.caseOf(this.name)]: { gameEnded: {
        winner: outcome.winner ?? 0, ranking: outcome.ranking || [],
        reason: outcome.reason || "" } } }, names);
    }
    if (status === "waiting") return ui("ui.overlay.waiting");
    if (status !== "active") return "";
    const decision = s.decision || {};
    const who = (decision.seats || []).map((seat) => TEXT.seat(seat, names, true));
    const turn = this.view?.turn ? ui("ui.overlay.turn", { n: this.view.turn }) : "";
    const now = who.length ? ui("ui.overlay.now", { seats: TEXT.join(who),
      phase: V.phaseText(this.name, decision.kind) }) : "";
    return [turn, now].filter(Boolean).join(" · ");
  }

  showPlayers(names, pieces) {
    const s = this.summary, v = this.view || {}, players = this.players();
    const asked = new Set(s.outcome ? [] : s.decision?.seats || []);
    const held = (seat) => {
      const mine = pieces.filter((p) => p.owner === seat);
      return { regions: mine.length, count: total(mine.map((p) => p.count)) };
    };
    const stats = STATS[this.name] || (() => []);
    const rows = (s.seats || []).map((entry, seat) => {
      const out = Boolean(v.eliminated?.[seat] || v.out?.[seat]);
      const bot = (s.botSeats || [])[seat] ||
        ((s.botLevels || [])[seat] && s.botLevels[seat] !== "BOT_LEVEL_UNSPECIFIED");
      const tags = [asked.has(seat) ? "toPlay" : "", bot ? "bot" : "", out ? "out" : "",
        s.outcome && (s.outcome.winner ?? -1) === seat ? "winner" : ""].filter(Boolean)
        .map((tag) => ui(`ui.overlay.tag.${tag}`));
      const row = el("li", { class: "player" + (asked.has(seat) ? " now" : "") +
        (out ? " out" : ""), "data-seat": seat,
      style: { borderLeftColor: seatLook(seat, players)[0] } },
      el("div", { class: "name" }, seatMark(seat, players),
        el("span", { class: "who" }, TEXT.seat(seat, names, true)),
        ...tags.map((t) => el("span", { class: "tag" }, t))),
      el("div", { class: "stats" }, ...(this.view ? stats(v, seat, held(seat)).map(stat) : [])));
      return row;
    });
    // the neutral of a two-player classic game holds territories too
    const neutral = held(players);
    if (this.view && neutral.regions) {
      rows.push(el("li", { class: "player neutral", "data-seat": players,
        style: { borderLeftColor: seatLook(players, players)[0] } },
      el("div", { class: "name" }, seatMark(players, players),
        el("span", { class: "who" }, TEXT.seat(players, names, true))),
      el("div", { class: "stats" }, stat(["territories", neutral.regions]),
        stat(["armies", neutral.count]))));
    }
    const world = this.view ? (WORLD[this.name] || (() => []))(v) : [];
    if (world.length) rows.push(el("li", { class: "world" }, el("div", { class: "stats" },
      ...world.map(stat))));
    $("players").replaceChildren(...rows);
    main.dataset.players = String(players);
  }

  onEvent(event) {
    const seq = Number(event.seq || 0);
    const names = this.names();
    const line = V.eventText(this.name, event, names);
    $("moves").prepend(el("li", { "data-seq": seq }, line));
    while ($("moves").children.length > MOVES) $("moves").lastChild.remove();
    const body = event[V.caseOf(this.name)];
    if (body) {
      const [kind] = Object.keys(body);
      const dice = diceOf(body[kind] || {});
      if (dice) this.showDice(dice, line);
      const named = new Set(V.regionsNamed(this.name, event));
      for (const [id, parts] of this.board.shapes) {
        parts.group.classList.toggle("named", named.has(id));
      }
    }
    main.dataset.lastSeq = String(seq);
    main.dataset.state = "live";
    if (Number(event.version || 0) > this.version) this.refresh();
  }

  showDice(dice, line) {
    const row = (words, values, kind) => el("div", { class: "row" },
      el("span", { class: "side-name" }, words),
      ...values.map((d) => el("span", { class: `die ${kind}` }, String(d))));
    $("dice").replaceChildren(el("h2", {}, ui("ui.overlay.lastBattle")),
      el("div", { class: "line" }, line),
      row(ui("ui.overlay.attack"), dice.attack, "attack"),
      row(ui("ui.overlay.defence"), dice.defence, "defence"));
    $("dice").hidden = false;
  }

  // GetGame again; events that arrive meanwhile fold into one more read
  async refresh() {
    if (this.refreshing) { this.dirty = true; return; }
    this.refreshing = (async () => {
      do {
        this.dirty = false;
        try {
          const reply = await call("GetGame", { gameId: this.gameId });
          if (this.stopped) return;
          this.apply(reply);
          connection("");
        } catch (error) {
          if (!(error instanceof ApiError && error.reason === "CONNECTION_LOST")) {
            say(words(error));
          }
          break;
        }
      } while (this.dirty);
    })();
    try { await this.refreshing; } finally { this.refreshing = null; }
  }

  onFeedState(state) {
    main.dataset.feed = state;
    if (state === "reconnecting") {
      connection(ui("ui.overlay.reconnecting"));
      main.dataset.reconnects = String(Number(main.dataset.reconnects || 0) + 1);
    } else if (state === "live") {
      connection("");
      say("");
      this.refresh();
    } else if (state === "stopped") {
      connection(ui("ui.overlay.notFollowing"));
    }
  }
}

// The event's standings. For an event the service runs (GetEvent answers for the game's
// tournament label), the director's own standings with every tiebreak (docs/tournaments.md,
// "Scoring and tiebreaks"), read again every few seconds; for a tournament of rounds its
// server creates itself (GetEvent: not found), a table from its results feed (StreamResults):
// points by finishing rank as the director scores them ((n - rank) / (n - 1) at a table of
// n seats), then games won, then name; players by their label, bots left out.
const EVENT_POLL_MS = 5000;

class Standings {
  constructor(tournament) {
    this.tournament = tournament;
    this.games = new Map(); // game id -> {round, players}
    this.finished = new Map(); // game id -> ranking (seats, first place first)
    this.afterSeq = 0;
    this.event = null; // GetEvent's answer, for an event the service runs
    this.stopped = false;
    this.seated = { labels: new Set(), ids: new Set() };
    this.controller = null;
  }

  async run() {
    let wait = 250;
    while (!this.stopped) {
      try {
        this.event = await call("GetEvent", { event: this.tournament });
        this.show();
        wait = EVENT_POLL_MS;
      } catch (error) {
        if (this.stopped) return;
        // not an event of this service (or a service without events): its results feed
        if (error.code === "not_found" || error.code === "unimplemented") break;
        if (FINAL.has(error.code)) { say(words(error)); return; }
        wait = Math.min(wait * 2, 4000);
      }
      await pause(wait);
    }
    if (!this.stopped) await this.results();
  }

  async results() {
    let wait = 250;
    while (!this.stopped) {
      this.controller = new AbortController();
      try {
        await stream("StreamResults", { tournament: this.tournament,
          afterSeq: String(this.afterSeq) }, (message) => {
          wait = 250;
          this.take(message.fact || {});
        }, { signal: this.controller.signal });
      } catch (error) {
        if (this.stopped) return;
        if (FINAL.has(error.code)) { say(words(error)); return; }
      }
      if (this.stopped) return;
      await pause(wait);
      wait = Math.min(wait * 2, 4000);
    }
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }

  take(fact) {
    this.afterSeq = Math.max(this.afterSeq, Number(fact.seq || 0));
    if (fact.created) {
      this.games.set(fact.gameId, { round: Number(fact.round || 0),
        players: fact.created.players || [] });
    }
    if (fact.finished) this.finished.set(fact.gameId, fact.finished.outcome?.ranking || []);
    this.show();
  }

  // the players seated in the game on screen are highlighted
  follow(summary) {
    const seats = summary.seats || [];
    this.seated = { labels: new Set(seats.map((seat) => seat.displayName).filter(Boolean)),
      ids: new Set(seats.map((seat) => seat.playerId).filter(Boolean)) };
    this.show();
  }

  // [{place, name, points (words), wins, games, seated}] best first
  rows() {
    if (this.event) {
      return (this.event.standings || []).map((line) => ({
        place: Number(line.place || 0), name: line.name || "", points: line.points || "0",
        wins: Number(line.wins || 0), games: Number(line.played || 0),
        seated: this.seated.ids.has(line.playerId) }));
    }
    const rows = new Map();
    const row = (label) => {
      if (!rows.has(label)) rows.set(label, { name: label, value: 0, wins: 0, games: 0 });
      return rows.get(label);
    };
    for (const game of this.games.values()) for (const label of game.players) if (label) row(label);
    for (const [gameId, ranking] of this.finished) {
      const players = this.games.get(gameId)?.players || [];
      const n = players.length;
      ranking.forEach((seat, index) => {
        const label = players[seat];
        if (!label || n < 2) return;
        const entry = row(label);
        entry.value += (n - (index + 1)) / (n - 1);
        entry.games += 1;
        if (index === 0) entry.wins += 1;
      });
    }
    return [...rows.values()].sort((a, b) => b.value - a.value || b.wins - a.wins ||
      a.name.localeCompare(b.name)).map((r, i) => ({ ...r, place: i + 1,
      points: String(Math.round(r.value * 100) / 100), seated: this.seated.labels.has(r.name) }));
  }

  show() {
    const box = $("standings");
    const rows = this.rows();
    box.hidden = !rows.length;
    box.dataset.source = this.event ? "event" : "results";
    box.replaceChildren(el("h2", {}, ui("ui.overlay.standings", { tournament: this.tournament })),
      el("table", { class: "standings" },
        el("tr", {}, el("th", {}, ui("ui.overlay.place")), el("th", {}, ui("ui.overlay.player")),
          el("th", {}, ui("ui.overlay.points")), el("th", {}, ui("ui.overlay.wins")),
          el("th", {}, ui("ui.overlay.games"))),
        ...rows.filter((r, i) => i < STANDINGS || r.seated).map((r) => el("tr", {
          class: r.seated ? "playing" : "", "data-player": r.name },
        el("td", { class: "n" }, String(r.place)), el("td", {}, r.name),
        el("td", { class: "n" }, r.points), el("td", { class: "n" }, String(r.wins)),
        el("td", { class: "n" }, String(r.games))))));
    main.dataset.standings = String(rows.length);
  }
}

// One game on screen at a time, and the standings of its tournament (kept while the game on
// screen changes within the same event)
class Screen {
  constructor(known) {
    this.known = known;
    this.game = null;
    this.standings = null;
  }

  async show(gameId) {
    if (this.game?.gameId === gameId) return;
    this.game?.stop();
    this.game = new GameOverlay(gameId, this.known, (summary) => this.standingsOf(summary));
    try {
      await this.game.start();
    } catch (error) {
      say(words(error));
    }
  }

  standingsOf(summary) {
    const tournament = summary.tournament || "";
    if (this.standings?.tournament !== tournament) {
      this.standings?.stop();
      this.standings = null;
      $("standings").hidden = true;
      if (tournament) {
        this.standings = new Standings(tournament);
        this.standings.run();
      }
    }
    this.standings?.follow(summary);
    return this.standings;
  }
}

// `#event=T`: the featured table of the event, switched as StreamGames announces it
async function followFeatured(screen, tournament) {
  let resumeToken = "", wait = 250;
  say(ui("ui.overlay.waitingFeatured", { tournament }));
  for (;;) {
    try {
      await stream("StreamGames", { tournament, resumeToken }, (message) => {
        wait = 250;
        resumeToken = message.resumeToken || resumeToken;
        const featured = message.featured;
        if (featured && featured.gameId) {
          say("");
          main.dataset.featured = featured.gameId;
          screen.show(featured.gameId);
        }
      });
    } catch (error) {
      if (error.code === "unimplemented") {
        say(ui("ui.overlay.noFeatured"));
        return;
      }
      if (FINAL.has(error.code)) { say(words(error)); return; }
    }
    await pause(wait);
    wait = Math.min(wait * 2, 4000);
  }
}

async function open() {
  // the page's own words (overlay.html holds the English ones until this runs)
  document.title = ui("ui.overlay.pageTitle");
  document.querySelector(".moves h2").textContent = ui("ui.overlay.lastMoves");
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  document.body.classList.toggle("transparent", params.get("bg") === "transparent");
  const reply = await call("ListVariants", {});
  const known = new Map((reply.variants || []).map((v) => [String(v.variant ?? ""), v]));
  const screen = new Screen(known);
  const gameId = params.get("game") || "";
  const event = params.get("event") || "";
  if (gameId) await screen.show(gameId);
  else if (event) await followFeatured(screen, event);
  else say(ui("ui.overlay.chooseGame"));
}

// nothing reaches the console: errors are said on the page
window.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  say(words(event.reason));
});
window.addEventListener("error", (event) => {
  event.preventDefault();
  say(String(event.message || event.error));
});
// a broadcaster who edits the URL gets the new choice
window.addEventListener("hashchange", () => location.reload());
open().catch((error) => say(words(error)));
