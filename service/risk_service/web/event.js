// A tournament event's page (docs/tournaments.md, "Events in the service"), at
// /app/event.html#LABEL: the event's status, registration for the signed-in player (the
// player token the app keeps, player.js; sign in on the app's "My games" page), the current
// round's tables with a link to watch each game, and the standings. It reads GetEvent every
// few seconds while the event is open; the service's director does the seating and scoring.

import { call, explain } from "./api.js";
import { player } from "./player.js";

const REFRESH_MS = 2000;
const STATUS = {
  EVENT_STATUS_REGISTRATION: "registration open",
  EVENT_STATUS_RUNNING: "running",
  EVENT_STATUS_FINISHED: "finished",
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function say(message) {
  const notice = document.getElementById("notice");
  notice.textContent = message;
  notice.hidden = !message;
}

function points(value) {
  return String(Math.round((value || 0) * 1000) / 1000);
}

function shape(event) {
  const s = event.settings || {};
  if (s.format === "EVENT_FORMAT_KNOCKOUT") {
    return `knockout (the first ${s.advance || 1} of each table go through)`;
  }
  return `swiss, ${s.rounds || 0} rounds${s.final ? " and a final" : ""}`;
}

function registration(event, label, refresh) {
  const me = player.get();
  const box = el("section", { id: "registration" });
  const mine = (event.players || []).find((p) => me && p.playerId === me.playerId);
  if (!me) {
    box.append(el("p", {}, "Sign in on ", el("a", { href: "/#/me" }, "My games"),
      " to register."));
    return box;
  }
  if (mine) {
    box.append(el("p", { id: "registered" }, `You are registered as ${mine.name}` +
      (mine.withdrawn ? " (withdrawn)." : ".")));
    if (!mine.withdrawn) {
      const leave = el("button", { id: "withdraw", type: "button" }, "Withdraw");
      leave.addEventListener("click", async () => {
        try { await call("WithdrawEvent", { event: label }, me.token); say(""); }
        catch (error) { say(explain(error)); }
        await refresh();
      });
      box.append(leave);
    }
    return box;
  }
  if (event.status !== "EVENT_STATUS_REGISTRATION" && !(event.settings || {}).lateEntries) {
    box.append(el("p", {}, "Registration is closed."));
    return box;
  }
  const form = el("form", { id: "register" });
  const name = el("input", { name: "name", placeholder: "your name at the tables",
    maxlength: "64", "aria-label": "your name at the tables" });
  form.append(name, el("button", { type: "submit" }, "Register"));
  form.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    try { await call("RegisterEvent", { event: label, name: name.value }, me.token); say(""); }
    catch (error) { say(explain(error)); }
    await refresh();
  });
  box.append(form);
  return box;
}

function tables(event) {
  const rounds = event.rounds || [];
  const box = el("section", { id: "tables" });
  if (!rounds.length) return box;
  const current = rounds[rounds.length - 1];
  const names = Object.fromEntries((event.players || []).map((p) => [p.playerId, p.name]));
  box.append(el("h2", {}, current.final ? "Final" : `Round ${current.number}`));
  const list = el("ul", {});
  for (const table of current.tables || []) {
    const seats = (table.players || []).map((id, seat) => id ? (names[id] || id)
      : `bot (${String((table.bots || [])[seat] || "").replace("BOT_LEVEL_", "").toLowerCase()})`);
    const item = el("li", { "data-game": table.gameId || "" });
    item.append(seats.join(", "));
    if (table.gameId) {
      item.append(" ", el("a", { href: `/#/watch/${table.gameId}` }, "watch"));
    }
    if (table.ranking && table.ranking.length) {
      item.append(` — winner: ${seats[table.ranking[0]]}`);
    }
    list.append(item);
  }
  box.append(list);
  return box;
}

function standings(event) {
  const box = el("section", { id: "standings" });
  const lines = event.standings || [];
  if (!lines.length) return box;
  box.append(el("h2", {}, event.status === "EVENT_STATUS_FINISHED" ? "Final standings"
    : "Standings"));
  const table = el("table", {});
  table.append(el("tr", {}, el("th", {}, "#"), el("th", {}, "Player"), el("th", {}, "Points"),
    el("th", {}, "Wins"), el("th", {}, "Played")));
  for (const line of lines) {
    table.append(el("tr", { "data-player": line.playerId || "" },
      el("td", {}, String(line.place)), el("td", {}, line.name || line.playerId),
      el("td", {}, points(line.pointsValue)), el("td", {}, String(line.wins || 0)),
      el("td", {}, String(line.played || 0))));
  }
  box.append(table);
  return box;
}

async function show(label) {
  const main = document.getElementById("event");
  let timer = null;
  const refresh = async () => {
    clearTimeout(timer);
    let event;
    try {
      event = await call("GetEvent", { event: label });
    } catch (error) {
      say(explain(error));
      timer = setTimeout(refresh, REFRESH_MS);
      return;
    }
    main.replaceChildren(
      el("h1", {}, `Event ${event.event}`),
      el("p", { id: "status", "data-status": event.status || "" },
        `${STATUS[event.status] || event.status}: ${shape(event)}, tables of ` +
        `${event.tableSize}, ${(event.players || []).length} players`),
      registration(event, label, refresh), tables(event), standings(event));
    if (event.status !== "EVENT_STATUS_FINISHED") timer = setTimeout(refresh, REFRESH_MS);
  };
  await refresh();
}

const label = decodeURIComponent(location.hash.replace(/^#/, ""));
if (label) {
  show(label);
} else {
  document.getElementById("event").replaceChildren(
    el("p", {}, "Name the event after # in the address: /app/event.html#LABEL"));
}
