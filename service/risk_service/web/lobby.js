// The lobby: games listed and filtered by variant and status (ListGames, paged), a form that
// creates a game with the variant's options as DescribeVariant describes them (defaults and
// ranges), and seats taken with JoinGame. Every token lands in the browser's storage under its
// game, so a reload (or the replay, later) still holds the seat. Signed in as a player
// (player.js), the game is created and seats are taken with the player's token, so they are the
// player's on every device (#/me lists them); seats may be bound to players at creation, and a
// correspondence clock (a deadline per turn, vacation days, missed turns) set.

import { call, tokens } from "./api.js";
import { say, sayError, variants } from "./app.js";
import { el, statusWord } from "./dom.js";
import { caseOf } from "./variants.js";
import { player } from "./player.js";

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
    el("label", {}, "variant", variantSelect), optionsBox,
    el("label", {}, "your name", el("input", { name: "display_name", placeholder: "seat N",
      maxlength: "40" })),
    el("label", {}, "seed (optional)", el("input", { name: "seed", inputmode: "numeric",
      pattern: "[0-9]*", size: "12" })),
    el("label", {}, "spectator delay (events)", el("input", { name: "delay_events",
      type: "number", min: "0", value: "0" })),
    el("label", { title: "player ids by seat, separated by commas; a bound seat is the " +
      "player's at once" }, "players by seat (optional)",
    el("input", { name: "seat_players", placeholder: "p-…, p-…", autocomplete: "off" })),
    el("label", { title: "correspondence: each turn within this many hours (1 to 720)" },
      "turn deadline (hours)", el("input", { name: "turn_hours", type: "number", min: "1",
        max: "720", step: "any" })),
    el("label", { title: "correspondence: days of vacation each seat may take" },
      "vacation days", el("input", { name: "vacation_days", type: "number", min: "0",
        max: "60" })),
    el("label", {}, "seats",
      el("select", { name: "seating" },
        el("option", { value: "one" }, "take seat 0"),
        el("option", { value: "all" }, "every seat on this device"),
        el("option", { value: "none" }, "none (host only)"))),
    el("button", { type: "submit" }, "Create game"));
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
      if (seatPlayers.some(Boolean)) request.seatPlayers = seatPlayers;
      const turnHours = Number(data.get("turn_hours") || 0);
      if (turnHours) {
        request.clock = { turnSeconds: Math.round(turnHours * 3600),
          vacationDays: Number(data.get("vacation_days") || 0) };
      }
      const seed = String(data.get("seed") || "").trim();
      if (seed) {
        if (!/^\d+$/.test(seed)) throw new Error("the seed is a whole number (0 to 2^64-1)");
        request.seed = seed; // a string: 64 bits do not fit a JavaScript number
      }
      const reply = await call("CreateGame", request, player.token());
      const gameId = reply.game.gameId;
      tokens.save(gameId, { host: reply.hostToken });
      if (player.get() && seatPlayers.includes(player.get().playerId)) {
        location.hash = `#/play/${gameId}`; // the player's own seat: their token plays it
      } else if (request.issueSeatTokens) {
        const seats = Object.fromEntries((reply.seatTokens || []).map((t, i) => [i, t]));
        tokens.save(gameId, { seats });
        location.hash = `#/play/${gameId}`;
      } else if (data.get("seating") === "one") {
        await takeSeat(gameId, 0, String(data.get("display_name") || ""));
      } else {
        say(`created ${gameId}`, "info");
        refresh();
      }
    } catch (error) {
      sayError(error);
    }
  });
  container.append(el("h2", {}, "New game"), form);
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
    buttons.push(el("a", { href: `#/play/${id}`, class: "play" }, `play (seat ${mine.join(", ")})`));
  }
  for (const seat of game.seats || []) {
    if (!seat.taken && status === "waiting") {
      buttons.push(el("button", { class: "secondary join", "data-seat": seat.seat ?? 0,
        onclick: () => takeSeat(id, seat.seat ?? 0,
          document.querySelector("#create [name=display_name]")?.value || "").catch(sayError) },
      `take seat ${seat.seat ?? 0}`));
    }
  }
  buttons.push(el("a", { href: `#/watch/${id}`, class: "watch" }, "watch"));
  if (status === "finished" && (held.host || mine.length)) {
    buttons.push(el("a", { href: `#/replay/${id}`, class: "replay" }, "replay"));
  }
  const seats = (game.seats || []).map((s) => (s.taken ? s.displayName || `seat ${s.seat ?? 0}`
    : "—")).join(", ");
  return el("tr", { "data-game": id },
    el("td", {}, el("code", {}, id)), el("td", {}, variant), el("td", { class: "status" }, status),
    el("td", {}, seats), el("td", {}, String(game.version || 0)),
    el("td", { class: "actions" }, ...buttons));
}

export async function showLobby(main) {
  const known = await variants();
  main.replaceChildren();
  const list = el("tbody");
  const more = el("button", { class: "secondary", hidden: true }, "more");
  const variantFilter = el("select", { name: "filter_variant" }, el("option", { value: "" }, "all"),
    ...known.list.map((v) => el("option", { value: String(v.variant) }, v.title || v.name)));
  const statusFilter = el("select", { name: "filter_status" }, el("option", { value: "" }, "all"),
    ...STATUSES.map((s) => el("option", { value: s }, statusWord(s))));
  let pageToken = "";
  const load = async (append) => {
    try {
      const reply = await call("ListGames", { variant: variantFilter.value || undefined,
        status: statusFilter.value || undefined, pageSize: 50,
        pageToken: append ? pageToken : "" });
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
  main.append(el("h2", {}, "Games"),
    el("div", { class: "filters" }, el("label", {}, "variant", variantFilter),
      el("label", {}, "status", statusFilter),
      el("button", { class: "secondary", onclick: () => load(false) }, "refresh")),
    el("table", { class: "games" }, el("thead", {}, el("tr", {}, ...["game", "variant", "status",
      "seats", "version", ""].map((h) => el("th", {}, h)))), list), more);
  await load(false);
}
