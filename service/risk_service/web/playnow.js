// "Play now" (#/match; docs/ratings.md "Matchmaking", docs/web.md): a signed-in player asks
// the matchmaker for a game (RequestMatch: a variant, the table sizes they accept, rated or
// not, bots after a wait they allow, their seat's name) and the page waits, saying for how
// long, until the request is seated; then it opens the game (#/play/GAME), where the player's
// own token plays their seat. "Cancel" takes the request out of its queue. A request still
// waiting when the page is left keeps its place, and the page follows it again on return (its
// ticket is kept in this browser). It reads the ticket once a second (GetMatchTicket). One
// column of cards, so it works on a phone.

import { call } from "./api.js";
import { onLeave, routeNow, say, sayError, variants } from "./app.js";
import { el } from "./dom.js";
import { player, signInAsNew } from "./player.js";

const KEY = "risk.match";
const POLL_MS = 1000;
const OPEN = new Set(["MATCH_STATUS_WAITING", "MATCH_STATUS_MATCHING"]);
const BOT_WAITS = [[0, "never"], [30, "after 30 s"], [60, "after 1 min"], [120, "after 2 min"]];

// the request this browser follows: {playerId, ticketId}
const followed = {
  get(playerId) {
    try {
      const entry = JSON.parse(localStorage.getItem(KEY) || "null");
      return entry?.playerId === playerId ? entry.ticketId : "";
    } catch { return ""; }
  },
  set(playerId, ticketId) { localStorage.setItem(KEY, JSON.stringify({ playerId, ticketId })); },
  clear() { localStorage.removeItem(KEY); },
};

function signInCard(main) {
  return el("section", { class: "card", id: "match-sign-in" },
    el("h1", {}, "Play now"),
    el("p", {}, "Sign in as a player to be seated at a table with players of your rating."),
    el("button", { id: "match-new-player", onclick: async () => {
      try { await signInAsNew(); await showPlayNow(main); } catch (error) { sayError(error); }
    } }, "Play as a new player"),
    el("p", { class: "muted" }, "or sign in with your own token on ",
      el("a", { href: "#/me" }, "My games"), "."));
}

// a retried request finds its ticket by this (getRandomValues: also on plain http, unlike
// randomUUID)
function requestId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function sizesWords(sizes) {
  const list = (sizes || []).map(String);
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} or ${list.at(-1)}` : list[0] || "";
}

export async function showPlayNow(main) {
  const generation = routeNow();
  const me = player.get();
  if (!me) {
    main.replaceChildren(signInCard(main));
    return;
  }
  const known = await variants();
  if (routeNow() !== generation) return;
  let timer = 0;
  onLeave(() => clearTimeout(timer));

  const variantPick = el("select", { name: "match_variant" },
    ...known.list.map((v) => el("option", { value: v.name }, v.title || v.name)));
  const sizes = el("div", { class: "sizes", id: "match-sizes" });
  const showSizes = () => {
    const chosen = known.byName.get(variantPick.value) || known.list[0];
    const usual = Number(chosen.defaultPlayers || 0);
    sizes.replaceChildren(...(chosen.seatCounts || []).map((n) => el("label", {},
      el("input", { type: "checkbox", name: "match_size", value: String(n),
        checked: Number(n) === usual }), ` ${n}`)));
  };
  variantPick.addEventListener("change", showSizes);
  showSizes();
  const rated = el("input", { type: "checkbox", name: "match_rated" });
  const bots = el("select", { name: "match_bots" },
    ...BOT_WAITS.map(([seconds, words]) => el("option", { value: String(seconds) }, words)));
  const name = el("input", { name: "match_name", placeholder: "your name at the table",
    autocomplete: "nickname", maxlength: "64" });
  const find = el("button", { type: "submit", id: "match-find" }, "Find a game");
  const form = el("form", { class: "card invite", id: "match-form" },
    el("h1", {}, "Play now"),
    el("p", { class: "muted" }, "The service seats you with players close to your rating; " +
      "the longer you wait, the wider it looks."),
    el("label", {}, "variant ", variantPick),
    el("fieldset", { class: "clock" }, el("legend", {}, "table sizes you accept"), sizes),
    el("label", {}, rated, " rated"),
    el("label", {}, "bots may fill the table ", bots),
    el("label", {}, "name ", name),
    find);

  const status = el("p", { id: "match-status" });
  const cancel = el("button", { class: "secondary", id: "match-cancel" }, "Cancel");
  const waiting = el("section", { class: "card", id: "match-waiting", hidden: true },
    el("h2", {}, "Looking for a table"), status, cancel);

  const showForm = () => { waiting.hidden = true; form.hidden = false; find.disabled = false; };
  const showWaiting = (ticket) => {
    form.hidden = true;
    waiting.hidden = false;
    const described = known.byEnum.get(String(ticket.variant));
    const waited = Math.max(0, Math.round((Date.now() - Number(ticket.createdAtMs || 0)) / 1000));
    status.textContent = ticket.status === "MATCH_STATUS_MATCHING"
      ? "A table is formed: its game is being created."
      : `A table of ${sizesWords(ticket.sizes)} (${described?.title || described?.name || "game"}, ` +
        `${ticket.rated ? "rated" : "unrated"}): waiting ${waited} s.`;
  };

  const follow = async (ticketId) => {
    clearTimeout(timer);
    try {
      const ticket = await call("GetMatchTicket", { ticketId }, me.token);
      if (routeNow() !== generation) return;
      if (ticket.status === "MATCH_STATUS_MATCHED") {
        followed.clear();
        location.hash = `#/play/${encodeURIComponent(ticket.gameId)}`;
        return;
      }
      if (!OPEN.has(ticket.status)) {
        followed.clear();
        say(ticket.status === "MATCH_STATUS_EXPIRED" ? "No table formed in time: ask again."
          : "The request was cancelled.", "info");
        showForm();
        return;
      }
      showWaiting(ticket);
    } catch (error) {
      if (routeNow() !== generation) return;
      if (error.reason === "MATCH_TICKET_NOT_FOUND") { followed.clear(); showForm(); return; }
      sayError(error);
    }
    timer = setTimeout(() => follow(ticketId), POLL_MS);
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = known.byName.get(variantPick.value) || known.list[0];
    const picked = [...sizes.querySelectorAll("input:checked")].map((box) => Number(box.value));
    if (!picked.length) { say("Choose at least one table size.", "error"); return; }
    find.disabled = true;
    try {
      const ticket = await call("RequestMatch", { variant: chosen.variant, sizes: picked,
        rated: rated.checked, allowBotsAfterSeconds: Number(bots.value),
        displayName: name.value.trim(), requestId: requestId() }, me.token);
      followed.set(me.playerId, ticket.ticketId);
      await follow(ticket.ticketId);
    } catch (error) {
      if (error.reason === "ALREADY_QUEUED" && error.metadata?.ticket_id) {
        say("You have a request open already: here it is.", "info");
        followed.set(me.playerId, error.metadata.ticket_id);
        await follow(error.metadata.ticket_id);
      } else {
        find.disabled = false;
        sayError(error);
      }
    }
  });

  cancel.addEventListener("click", async () => {
    const ticketId = followed.get(me.playerId);
    if (!ticketId) { showForm(); return; }
    try {
      const ticket = await call("CancelMatch", { ticketId }, me.token);
      clearTimeout(timer);
      followed.clear();
      if (ticket.status === "MATCH_STATUS_CANCELLED") say("Request cancelled.", "info");
      showForm();
    } catch (error) {
      if (error.reason === "MATCH_ALREADY_FORMED") await follow(ticketId); // too late: play
      else sayError(error);
    }
  });

  main.replaceChildren(form, waiting);
  const open = followed.get(me.playerId);
  if (open) await follow(open);
}
