// The lobby: games listed and filtered by variant and status (ListGames, paged), a form that
// creates a game with the variant's options as DescribeVariant describes them (defaults and
// ranges), and seats taken with JoinGame. Every token lands in the browser's storage under its
// game, so a reload (or the replay, later) still holds the seat. Signed in as a player
// (player.js), the game is created and seats are taken with the player's token, so they are the
// player's on every device (#/me lists them): "take a seat, as you" binds the creator's seat in
// the creation itself (seat_players), other seats may be bound to players at once, and a game
// with seats still free opens the host's invitations (#/host/GAME). A correspondence clock (a
// deadline per turn in hours or days, vacation days, missed turns and what follows them) is
// set with the ranges DescribeVariant gives.

import { call, tokens } from "./api.js";
import { routeNow, say, sayError, variants } from "./app.js";
import { el, statusWord } from "./dom.js";
import { caseOf } from "./variants.js";
import { player } from "./player.js";
import { lobbyTitle, panelText, ui } from "./words.js";

const STATUSES = ["GAME_STATUS_WAITING", "GAME_STATUS_ACTIVE", "GAME_STATUS_FINISHED",
  "GAME_STATUS_ABANDONED", "GAME_STATUS_CANCELLED"];



// "CLASSIC_SETUP_MODE_" of CLASSIC_SETUP_MODE_CLAIM and CLASSIC_SETUP_MODE_RANDOM_DEAL
function commonPrefix(names) {
  if (names.length < 2) return "";
  let prefix = names[0];
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf("_") + 1);
}

function optionInput(option) {
  const name = option.name;
  const fallback = option.defaultValue || {};
  const type = option.type || "";
  const hint = option.description || "";
  if (type === "OPTION_TYPE_BOOL") {
    return el("label", { title: hint }, name.replace(/_/g, " "),
      el("select", { name, "data-type": "bool" }, el("option", { value: "" }, "default" +
        ("boolValue" in fallback ? ` (${fallback.boolValue ? "yes" : "no"})` : "")),
      el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no")));
  }
  if (type === "OPTION_TYPE_ENUM") {
    const choices = (option.choices || []).filter((c) => (c.number ?? 0) !== 0);
    const prefix = commonPrefix(choices.map((c) => c.name));
    return el("label", { title: hint }, name.replace(/_/g, " "),
      el("select", { name, "data-type": "enum" }, el("option", { value: "" }, "default"),
        ...choices.map((c) => el("option", { value: c.name, title: c.description || "",
          selected: fallback.enumValue === c.number || undefined },
        c.name.slice(prefix.length).replace(/_/g, " ").toLowerCase()))));
  }
  if (type === "OPTION_TYPE_INT") {
    return el("label", { title: hint }, name.replace(/_/g, " "),
      el("input", { name, type: "number", "data-type": "int", min: option.min, max: option.max,
        placeholder: fallback.intValue ?? "" }));
  }
  if (type === "OPTION_TYPE_STRING") {
    return el("label", { title: hint }, name.replace(/_/g, " "),
      el("input", { name, "data-type": "string", placeholder: fallback.stringValue ?? "" }));
  }
  return null; // a message (Legacy's world) is the service's to set
}

function readOptions(form) {
  const options = {};
  for (const input of form.querySelectorAll("[data-type]")) {
    const value = input.value.trim();
    if (!value) continue;
    const key = input.name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    const type = input.dataset.type;
    if (type === "int") {
      const number = Number(value);
      if (!Number.isInteger(number)) throw new Error(`${input.name} must be a whole number`);
      if (input.min !== "" && number < Number(input.min) ||
          input.max !== "" && number > Number(input.max)) {
        throw new Error(`${input.name} must be between ${input.min || "…"} and ${input.max || "…"}`);
      }
      options[key] = number;
    } else if (type === "bool") options[key] = value === "true";
    else options[key] = value;
  }
  return options;
}

// The correspondence clock (ClockOptions' turn_seconds, vacation_days, missed_turns_limit,
// on_missed_turns), with the ranges and the missed-turn choices DescribeVariant describes
// (the same for every variant: the clock is the service's).
function clockOption(known, name) {
  return (known.list[0]?.clockOptions || []).find((o) => o.name === name) || {};
}

function clockFields(known) {
  const turn = clockOption(known, "turn_seconds");
  const vacation = clockOption(known, "vacation_days");
  const missed = clockOption(known, "missed_turns_limit");
  const policy = clockOption(known, "on_missed_turns");
  const fallback = policy.defaultValue?.enumValue;
  const hours = (seconds) => Math.round(Number(seconds || 0) / 3600);
  return el("fieldset", { class: "clock", id: "clock" },
    el("legend", {}, "Correspondence clock (optional)"),
    el("label", { title: `each seat's whole turn within this time: ${hours(turn.min || 3600)} ` +
      `hour to ${hours(turn.max || 2592000) / 24} days` }, "turn deadline",
    el("span", { class: "pair" },
      el("input", { name: "turn_length", type: "number", min: "1", step: "any",
        "aria-label": "turn deadline" }),
      el("select", { name: "turn_unit", "aria-label": "unit" },
        el("option", { value: "3600" }, "hours"), el("option", { value: "86400" }, "days")))),
    el("label", { title: vacation.description || "" }, "vacation days",
      el("input", { name: "vacation_days", type: "number", min: vacation.min ?? 0,
        max: vacation.max ?? 60 })),
    el("label", { title: missed.description || "" }, "missed turns in a row",
      el("input", { name: "missed_turns_limit", type: "number", min: missed.min ?? 0,
        max: missed.max ?? 10, placeholder: "no limit" })),
    el("label", { title: policy.description || "" }, "then",
      el("select", { name: "on_missed_turns" },
        ...(policy.choices || []).filter((c) => (c.number ?? 0) !== 0).map((c) =>
          el("option", { value: c.name, selected: c.number === fallback || undefined },
            c.description || c.name)))));
}

function readClock(form, known) {
  const data = new FormData(form);
  const number = (name) => Number(String(data.get(name) || "").trim() || 0);
  const length = number("turn_length");
  const vacationDays = number("vacation_days");
  const limit = number("missed_turns_limit");
  if (!length) {
    if (vacationDays || limit) throw new Error("vacation days and missed turns need a turn deadline");
    return null;
  }
  const turn = clockOption(known, "turn_seconds");
  const seconds = Math.round(length * Number(data.get("turn_unit") || 3600));
  const least = Number(turn.min || 3600), most = Number(turn.max || 2592000);
  if (!(seconds >= least && seconds <= most)) {
    throw new Error(`the turn deadline is ${least / 3600} hour to ${most / 86400} days`);
  }
  for (const [name, value, words] of [["vacation_days", vacationDays, "vacation days"],
    ["missed_turns_limit", limit, "missed turns in a row"]]) {
    const range = clockOption(known, name);
    if (!Number.isInteger(value) || value < Number(range.min ?? 0) ||
        value > Number(range.max ?? value)) {
      throw new Error(`${words} must be a whole number from ${range.min ?? 0} to ${range.max}`);
    }
  }
  const clock = { turnSeconds: seconds, vacationDays };
  if (limit) {
    clock.missedTurnsLimit = limit;
    clock.onMissedTurns = String(data.get("on_missed_turns") || "") || undefined;
  }
  return clock;
}

async function createForm(container, known, refresh) {
  const variantSelect = el("select", { name: "variant" },
    ...known.list.map((v) => el("option", { value: v.name }, v.title || v.name)));
  const optionsBox = el("div", { class: "options" });
  const showOptions = () => {
    const v = known.byName.get(variantSelect.value);
    optionsBox.replaceChildren(...(v?.options || []).filter((o) => o.settable)
      .map(optionInput).filter(Boolean));
  };
  variantSelect.addEventListener("change", showOptions);
  const form = el("form", { class: "create", id: "create" },
    el("label", {}, ui("ui.lobby.variant"), variantSelect), optionsBox,
    el("label", {}, ui("ui.lobby.yourName"), el("input", { name: "display_name",
      placeholder: "seat N", maxlength: "40" })),
    el("label", {}, ui("ui.lobby.seed"), el("input", { name: "seed", inputmode: "numeric",
      pattern: "[0-9]*", size: "12" })),
    el("label", {}, ui("ui.lobby.delay"), el("input", { name: "delay_events",
      type: "number", min: "0", value: "0" })),
    el("label", { title: ui("ui.lobby.seatPlayersHint") }, ui("ui.lobby.seatPlayers"),
      el("input", { name: "seat_players", placeholder: "p-…, p-…", autocomplete: "off" })),
    clockFields(known),
    el("label", {}, ui("ui.lobby.seating"),
      el("select", { name: "seating" },
        el("option", { value: "one" }, ui(player.get() ? "ui.lobby.seatAsYou"
          : "ui.lobby.seatZero")),
        el("option", { value: "all" }, ui("ui.lobby.seatAll")),
        el("option", { value: "none" }, ui("ui.lobby.seatNone")))),
    el("button", { type: "submit" }, ui("ui.lobby.create")));
  showOptions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = new FormData(form);
      const variant = known.byName.get(data.get("variant"));
      const request = {
        options: { [caseOf(variant.name)]: readOptions(form) },
        spectatorDelayEvents: Number(data.get("delay_events") || 0),
        issueSeatTokens: data.get("seating") === "all",
      };
      const seatPlayers = String(data.get("seat_players") || "").split(",")
        .map((p) => p.trim());
      const me = player.get()?.playerId;
      const name = String(data.get("display_name") || "").trim();
      if (me && data.get("seating") === "one" && !seatPlayers.includes(me)) {
        // the creator's seat is bound to them in the creation itself: theirs on every device
        const free = seatPlayers.indexOf("");
        seatPlayers[free < 0 ? seatPlayers.length : free] = me;
      }
      if (seatPlayers.some(Boolean)) request.seatPlayers = seatPlayers;
      if (me && name && seatPlayers.includes(me)) {
        request.seatNames = seatPlayers.map((p) => (p === me ? name : ""));
      }
      const clock = readClock(form, known);
      if (clock) request.clock = clock;
      const seed = String(data.get("seed") || "").trim();
      if (seed) {
        if (!/^\d+$/.test(seed)) throw new Error("the seed is a whole number (0 to 2^64-1)");
        request.seed = seed; // a string: 64 bits do not fit a JavaScript number
      }
      const reply = await call("CreateGame", request, player.token());
      const gameId = reply.game.gameId;
      tokens.save(gameId, { host: reply.hostToken });
      const waiting = statusWord(reply.game.status) === "waiting";
      if (me && seatPlayers.includes(me)) {
        // the player's own seat: their token plays it; seats still free: invite players first
        location.hash = waiting ? `#/host/${gameId}` : `#/play/${gameId}`;
      } else if (data.get("seating") === "none" && waiting) {
        location.hash = `#/host/${gameId}`; // the host only: invite the players
      } else if (request.issueSeatTokens) {
        const seats = Object.fromEntries((reply.seatTokens || []).map((t, i) => [i, t]));
        tokens.save(gameId, { seats });
        location.hash = `#/play/${gameId}`;
      } else if (data.get("seating") === "one") {
        await takeSeat(gameId, 0, String(data.get("display_name") || ""));
      } else {
        say(ui("ui.lobby.created", { game: gameId }), "info");
        refresh();
      }
    } catch (error) {
      sayError(error);
    }
  });
  container.append(el("h2", {}, ui("ui.lobby.newGame")), form);
}

export async function takeSeat(gameId, seat, name) {
  const reply = await call("JoinGame", { gameId, seat, displayName: name || `seat ${seat}`,
    requestId: crypto.randomUUID() }, player.token());
  if (reply.playerId) { // the seat is the player's: their token plays it on any device
    location.hash = `#/play/${gameId}`;
    return;
  }
  const held = tokens.of(gameId).seats || {};
  tokens.save(gameId, { seats: { ...held, [reply.seat ?? 0]: reply.seatToken } });
  location.hash = `#/play/${gameId}`;
}

function gameRow(game, known) {
  const id = game.gameId;
  const held = tokens.of(id);
  const mine = Object.keys(held.seats || {});
  const status = statusWord(game.status);
  const described = known.byEnum.get(String(game.variant));
  const variant = described?.title || described?.name || String(game.variant);
  const buttons = [];
  if (mine.length && status !== "finished") {
    buttons.push(el("a", { href: `#/play/${id}`, class: "play" },
      ui("ui.lobby.play", { seats: mine.join(", ") })));
  }
  for (const seat of game.seats || []) {
    if (!seat.taken && status === "waiting") {
      buttons.push(el("button", { class: "secondary join", "data-seat": seat.seat ?? 0,
        onclick: () => takeSeat(id, seat.seat ?? 0,
          document.querySelector("#create [name=display_name]")?.value || "").catch(sayError) },
      ui("ui.lobby.takeSeat", { n: seat.seat ?? 0 })));
    }
  }
  buttons.push(el("a", { href: `#/watch/${id}`, class: "watch" }, ui("ui.lobby.watch")));
  // a finished game's replay is for anyone (its events as a spectator saw them; replay.js)
  if (status === "finished") {
    buttons.push(el("a", { href: `#/replay/${id}`, class: "replay" }, ui("ui.lobby.replay")));
  }
  const open = (game.seats || []).filter((s) => !s.taken).length;
  if (held.host && status === "waiting" && open) {
    buttons.push(el("a", { href: `#/host/${id}`, class: "invite" }, panelText("lobby.invite")));
  }
  const { title, seats } = lobbyTitle(game, variant);
  return el("tr", { "data-game": id },
    el("td", {}, el("span", { class: "game-title" }, title), " ", el("code", { class: "muted" }, id)),
    el("td", {}, variant), el("td", { class: "status" }, status),
    el("td", { class: "seat-names" }, seats), el("td", {}, String(game.version || 0)),
    el("td", { class: "actions" }, ...buttons));
}

export async function showLobby(main) {
  // a lobby left for another route (or drawn again: "/" then "#/") while it awaited must not
  // add its form or list to the page that replaced it: two lists would show every game twice
  const route = routeNow();
  const known = await variants();
  if (routeNow() !== route) return;
  main.replaceChildren(el("h1", {}, ui("ui.lobby.heading")));
  const list = el("tbody");
  const more = el("button", { class: "secondary", hidden: true }, ui("ui.lobby.more"));
  const variantFilter = el("select", { name: "filter_variant" },
    el("option", { value: "" }, ui("ui.lobby.all")),
    ...known.list.map((v) => el("option", { value: String(v.variant) }, v.title || v.name)));
  const statusFilter = el("select", { name: "filter_status" },
    el("option", { value: "" }, ui("ui.lobby.all")),
    ...STATUSES.map((s) => el("option", { value: s }, statusWord(s))));
  let pageToken = "";
  let loads = 0; // only the latest listing is shown: a filter changed twice quickly answers twice
  const load = async (append) => {
    const mine = ++loads;
    try {
      const reply = await call("ListGames", { variant: variantFilter.value || undefined,
        status: statusFilter.value || undefined, pageSize: 50,
        pageToken: append ? pageToken : "" });
      if (mine !== loads) return;
      pageToken = reply.nextPageToken || "";
      more.hidden = !pageToken;
      const rows = (reply.games || []).map((g) => gameRow(g, known));
      if (append) list.append(...rows); else list.replaceChildren(...rows);
    } catch (error) {
      sayError(error);
    }
  };
  variantFilter.addEventListener("change", () => load(false));
  statusFilter.addEventListener("change", () => load(false));
  more.addEventListener("click", () => load(true));
  await createForm(main, known, () => load(false));
  if (routeNow() !== route) return;
  main.append(el("h2", {}, ui("ui.lobby.games")),
    el("div", { class: "filters" }, el("label", {}, ui("ui.lobby.variant"), variantFilter),
      el("label", {}, ui("ui.lobby.status"), statusFilter),
      el("button", { class: "secondary", onclick: () => load(false) }, ui("ui.lobby.refresh"))),
    el("table", { class: "games" }, el("thead", {}, el("tr", {}, ...["colGame", "colVariant",
      "colStatus", "colSeats", "colVersion"].map((h) => el("th", {}, ui(`ui.lobby.${h}`))),
      el("th", {}, el("span", { class: "sr-only" }, ui("ui.lobby.colActions"))))), list), more);
  await load(false);
}
