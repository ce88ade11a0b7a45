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
import { ui } from "./words.js";

const KEY = "risk.match";
const POLL_MS = 1000;
const OPEN = new Set(["MATCH_STATUS_WAITING", "MATCH_STATUS_MATCHING"]);
// (in seconds; the text table's "ui.match.botWait" words them)
const BOT_WAITS = [0, 30, 60, 120];

function botWaitWords(seconds) {
  const wait = seconds < 60 ? ui("ui.match.seconds", { n: seconds })
    : ui("ui.match.minutes", { n: seconds / 60 });
  return ui("ui.match.botWait", { seconds, wait });
}

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
    el("h1", {}, ui("ui.match.title")),
    el("p", {}, ui("ui.match.signInWhy")),
    el("button", { id: "match-new-player", onclick: async () => {
      try { await signInAsNew(); await showPlayNow(main); } catch (error) { sayError(error); }
    } }, ui("ui.match.newPlayer")),
    el("p", { class: "muted" }, ui("ui.match.orToken"),
      el("a", { href: "#/me" }, ui("ui.match.myGames")), ui("ui.match.orTokenEnd")));
}

// a retried request finds its ticket by this (getRandomValues: also on plain http, unlike
// randomUUID)
function requestId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function sizesWords(sizes) {
  const list = (sizes || []).map(String);
  return list.length > 1 ? ui("ui.match.sizesOr", {
    first: list.slice(0, -1).join(ui("ui.match.sizesSeparator")), last: list.at(-1) })
    : list[0] || "";
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
  // the ticket whose CancelMatch is in flight: a poll answered meanwhile is not shown (it
  // would say "the request was cancelled" as if by someone else, or reopen the waiting card)
  let cancelling = null;
  onLeave(() => clearTimeout(timer));

  const variantPick = el("select", { name: "match_variant" },
    ...known.list.map((v) => el("option", { value: v.name }, v.title || v.name)));
  const sizes = el("div", { class: "sizes", id: "match-sizes" });
  const showSizes = () => {
    const chosen = known.byName.get(variantPick.value) || known.list[0];
    const usual = Number(chosen.defaultPlayers || 0);
    sizes.replaceChildren(...(chosen.seatCounts || []).map((n) => el("label", {},
      el("input", { type: "checkbox", name: "match_size", value: String(n),
        checked: Number(n) === usual }), ui("ui.match.size", { n }))));
  };
  variantPick.addEventListener("change", showSizes);
  showSizes();
  const rated = el("input", { type: "checkbox", name: "match_rated" });
  const bots = el("select", { name: "match_bots" },
    ...BOT_WAITS.map((seconds) => el("option", { value: String(seconds) }, botWaitWords(seconds))));
  const name = el("input", { name: "match_name", placeholder: ui("ui.match.namePlaceholder"),
    autocomplete: "nickname", maxlength: "64" });
  const find = el("button", { type: "submit", id: "match-find" }, ui("ui.match.find"));
  const form = el("form", { class: "card invite", id: "match-form" },
    el("h1", {}, ui("ui.match.title")),
    el("p", { class: "muted" }, ui("ui.match.how")),
    el("label", {}, ui("ui.match.variant"), variantPick),
    el("fieldset", { class: "clock" }, el("legend", {}, ui("ui.match.sizes")), sizes),
    el("label", {}, rated, ui("ui.match.rated")),
    el("label", {}, ui("ui.match.bots"), bots),
    el("label", {}, ui("ui.match.name"), name),
    find);

  const status = el("p", { id: "match-status" });
  const cancel = el("button", { class: "secondary", id: "match-cancel" }, ui("ui.match.cancel"));
  const waiting = el("section", { class: "card", id: "match-waiting", hidden: true },
    el("h2", {}, ui("ui.match.looking")), status, cancel);

  const showForm = () => { waiting.hidden = true; form.hidden = false; find.disabled = false; };
  const showWaiting = (ticket) => {
    form.hidden = true;
    waiting.hidden = false;
    const described = known.byEnum.get(String(ticket.variant));
    const waited = Math.max(0, Math.round((Date.now() - Number(ticket.createdAtMs || 0)) / 1000));
    status.textContent = ticket.status === "MATCH_STATUS_MATCHING"
      ? ui("ui.match.formed")
      : ui("ui.match.waiting", { sizes: sizesWords(ticket.sizes),
        variant: described?.title || described?.name || ui("ui.match.game"),
        rated: ticket.rated ? "yes" : "no", seconds: waited });
  };

  const follow = async (ticketId) => {
    clearTimeout(timer);
    try {
      const ticket = await call("GetMatchTicket", { ticketId }, me.token);
      if (routeNow() !== generation || cancelling === ticketId) return;
      if (ticket.status === "MATCH_STATUS_MATCHED") {
        followed.clear();
        location.hash = `#/play/${encodeURIComponent(ticket.gameId)}`;
        return;
      }
      if (!OPEN.has(ticket.status)) {
        followed.clear();
        say(ticket.status === "MATCH_STATUS_EXPIRED" ? ui("ui.match.expired")
          : ui("ui.match.cancelled"), "info");
        showForm();
        return;
      }
      showWaiting(ticket);
    } catch (error) {
      if (routeNow() !== generation || cancelling === ticketId) return;
      if (error.reason === "MATCH_TICKET_NOT_FOUND") { followed.clear(); showForm(); return; }
      sayError(error);
    }
    timer = setTimeout(() => follow(ticketId), POLL_MS);
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = known.byName.get(variantPick.value) || known.list[0];
    const picked = [...sizes.querySelectorAll("input:checked")].map((box) => Number(box.value));
    if (!picked.length) { say(ui("ui.match.chooseSize"), "error"); return; }
    find.disabled = true;
    try {
      const ticket = await call("RequestMatch", { variant: chosen.variant, sizes: picked,
        rated: rated.checked, allowBotsAfterSeconds: Number(bots.value),
        displayName: name.value.trim(), requestId: requestId() }, me.token);
      followed.set(me.playerId, ticket.ticketId);
      await follow(ticket.ticketId);
    } catch (error) {
      if (error.reason === "ALREADY_QUEUED" && error.metadata?.ticket_id) {
        say(ui("ui.match.openAlready"), "info");
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
    clearTimeout(timer);
    cancelling = ticketId;
    let answer = null;
    try {
      answer = await call("CancelMatch", { ticketId }, me.token);
    } catch (error) {
      answer = error;
    } finally {
      cancelling = null;
    }
    if (routeNow() !== generation) return;
    if (answer instanceof Error) {
      if (answer.reason !== "MATCH_ALREADY_FORMED") sayError(answer);
      await follow(ticketId); // formed meanwhile: play; otherwise keep waiting
      return;
    }
    followed.clear();
    if (answer.status === "MATCH_STATUS_CANCELLED") say(ui("ui.match.requestCancelled"), "info");
    showForm();
  });

  main.replaceChildren(form, waiting);
  const open = followed.get(me.playerId);
  if (open) await follow(open);
}
