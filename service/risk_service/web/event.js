// A tournament event's page (docs/tournaments.md, "Events in the service"), at
// /app/event.html#LABEL: the event's status, registration for the signed-in player (the
// player token the app keeps, player.js; sign in on the app's "My games" page), the current
// round's tables with a link to watch each game, and the standings. It reads GetEvent every
// few seconds while the event is open; the service's director does the seating and scoring.

import { call, explain } from "./api.js";
import { redraw } from "./dom.js";
import { player } from "./player.js";
import { ui } from "./words.js";

const REFRESH_MS = 2000;

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
    return ui("ui.event.knockout", { advance: s.advance || 1 });
  }
  return ui("ui.event.swiss", { rounds: s.rounds || 0, final: s.final ? "yes" : "no" });
}

function registration(event, label, refresh) {
  const me = player.get();
  const box = el("section", { id: "registration" });
  const mine = (event.players || []).find((p) => me && p.playerId === me.playerId);
  if (!me) {
    box.append(el("p", {}, ui("ui.event.signInOn"),
      el("a", { href: "/#/me" }, ui("ui.event.myGames")), ui("ui.event.toRegister")));
    return box;
  }
  if (mine) {
    box.append(el("p", { id: "registered" }, ui("ui.event.registered",
      { name: mine.name, withdrawn: mine.withdrawn ? "yes" : "no" })));
    if (!mine.withdrawn) {
      const leave = el("button", { id: "withdraw", type: "button" }, ui("ui.event.withdraw"));
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
    box.append(el("p", {}, ui("ui.event.closed")));
    return box;
  }
  const form = el("form", { id: "register" });
  const name = el("input", { name: "name", placeholder: ui("ui.event.namePlaceholder"),
    maxlength: "64", "aria-label": ui("ui.event.namePlaceholder") });
  form.append(name, el("button", { type: "submit" }, ui("ui.event.register")));
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
  box.append(el("h2", {}, current.final ? ui("ui.event.final")
    : ui("ui.event.round", { n: current.number })));
  const list = el("ul", {});
  for (const table of current.tables || []) {
    const seats = (table.players || []).map((id, seat) => id ? (names[id] || id)
      : ui("ui.event.bot", { level: String((table.bots || [])[seat] || "")
        .replace("BOT_LEVEL_", "").toLowerCase() }));
    const item = el("li", { "data-game": table.gameId || "" });
    item.append(seats.join(", "));
    if (table.gameId) {
      item.append(" ", el("a", { href: `/#/watch/${table.gameId}` }, ui("ui.event.watch")));
    }
    if (table.ranking && table.ranking.length) {
      item.append(ui("ui.event.winner", { name: seats[table.ranking[0]] }));
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
  box.append(el("h2", {}, event.status === "EVENT_STATUS_FINISHED"
    ? ui("ui.event.finalStandings") : ui("ui.event.standings")));
  const table = el("table", {});
  table.append(el("tr", {}, el("th", {}, ui("ui.event.place")),
    el("th", {}, ui("ui.event.player")), el("th", {}, ui("ui.event.points")),
    el("th", {}, ui("ui.event.wins")), el("th", {}, ui("ui.event.played"))));
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
    // the page is drawn again every REFRESH_MS, each part only where it changed (dom.redraw):
    // a name being typed into the registration form keeps its field, text, caret and focus
    redraw(main,
      el("h1", {}, ui("ui.event.title", { event: event.event })),
      el("p", { id: "status", "data-status": event.status || "" },
        ui("ui.event.summary", { status: ui("ui.event.status", { status: event.status || "" }),
          shape: shape(event), size: event.tableSize, players: (event.players || []).length })),
      registration(event, label, refresh), tables(event), standings(event));
    if (event.status !== "EVENT_STATUS_FINISHED") timer = setTimeout(refresh, REFRESH_MS);
  };
  await refresh();
}

// the page's own words (event.html holds the English ones until this runs)
document.title = ui("ui.event.pageTitle");
document.getElementById("nav-me").textContent = ui("ui.nav.myGames");

const label = decodeURIComponent(location.hash.replace(/^#/, ""));
if (label) {
  show(label);
} else {
  document.getElementById("event").replaceChildren(
    el("p", {}, ui("ui.event.noLabel")));
}
