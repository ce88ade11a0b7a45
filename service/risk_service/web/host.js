// The host's invitations (#/host/GAME, docs/web.md "Players"): invite a player by id to a free
// seat (CreateInvitation with `invitee`), make an open-seat link (CreateInvitation with `link`:
// a URL of #/invite/CODE, the page that takes the seat, copyable; the service shows the code
// once), the game's invitations in every state (ListInvitations with the game) and a button to
// withdraw one that is still open (RevokeInvitation). The host acts with the signed-in player's
// own token where the player hosts the game (a game created signed in: theirs to host on any
// device, and the invitations name them), else with the host token this browser got at
// creation. The game's stream (its seats taken, its start) redraws the page; an invitee's
// decline is no event of the game, so "Refresh" reads it.

import { call, tokens } from "./api.js";
import { onLeave, routeNow, say, sayError, variants } from "./app.js";
import { el, redraw, statusWord } from "./dom.js";
import { Feed } from "./feed.js";
import { player, when } from "./player.js";
import { ui } from "./words.js";

const DAY_S = 86400;
// how long an invitation stays open (the service takes 60 s to 30 days; a week by default)
// (in days; the text table's "ui.host.expiry" words them)
const EXPIRIES = [1, 3, 7, 30];

// The credential the caller hosts the game with, and the game's invitations: the signed-in
// player's token where the player hosts it (their invitations then name them as the host),
// else the host token this browser got at creation; null where neither hosts it
// (ListInvitations with a game answers its host only).
export async function hosting(gameId) {
  const tried = [player.token(), tokens.of(gameId).host].filter(Boolean);
  for (const credential of tried) {
    try {
      const reply = await call("ListInvitations", { gameId }, credential);
      return { credential, invitations: reply.invitations || [] };
    } catch (error) {
      if (error.code !== "permission_denied") throw error; // NOT_HOST, NOT_A_PLAYER
    }
  }
  return null;
}

// the address a link's code is taken at: this page's own origin and path, route #/invite/CODE
export function linkUrl(code) {
  return `${location.origin}${location.pathname}#/invite/${encodeURIComponent(code)}`;
}

function seatName(game, seat) {
  const entry = (game.seats || [])[seat];
  return entry?.displayName || ui("ui.host.seatN", { n: seat });
}

// "open until Tue 8 Dec, 14:00 (in 6 days 23 h)", "accepted by Ada", ...
function stateWords(invitation, game) {
  const state = String(invitation.state || "").replace("INVITATION_STATE_", "").toLowerCase();
  if (state === "pending") {
    return ui("ui.host.state", { state, when: when(Number(invitation.expiresAtMs || 0)) });
  }
  if (state === "accepted") {
    const seat = (game.seats || [])[invitation.seat ?? 0];
    const name = seat?.playerId === invitation.acceptedBy && seat?.displayName;
    return ui("ui.host.state", name ? { state: "acceptedBy", name } : { state });
  }
  // declined, revoked ("withdrawn"), and the rest ("closed: ...")
  return ui("ui.host.state", { state });
}

function expirySelect() {
  return el("select", { name: "expires", "aria-label": ui("ui.host.openFor") },
    ...EXPIRIES.map((days) => el("option", { value: String(days * DAY_S),
      selected: days === 7 || undefined }, ui("ui.host.expiry", { days }))));
}

export async function showHost(main, gameId) {
  const route = routeNow();
  const known = await variants();
  if (routeNow() !== route) return;
  const host = await hosting(gameId);
  if (routeNow() !== route) return;
  main.replaceChildren();
  main.classList.add("me");
  if (!host) {
    main.append(el("h1", {}, ui("ui.host.title")), el("p", {}, ui("ui.host.onlyHost")));
    return;
  }
  const { credential } = host;
  let game = {};
  let held = [];
  let drawing = null;
  const title = el("h1", {}, ui("ui.host.title"));
  const about = el("p", { id: "host-game" });
  const seatList = el("ul", { class: "seat-list", id: "host-seats" });
  const list = el("ul", { class: "cards-list", id: "game-invitations" });
  const started = el("p", { id: "host-started", class: "notice info", hidden: true });

  const inviteSeat = el("select", { name: "seat", "aria-label": ui("ui.host.seat") });
  const linkSeat = el("select", { name: "seat", "aria-label": ui("ui.host.seat") });
  const invitee = el("input", { name: "invitee", placeholder: ui("ui.host.inviteePlaceholder"),
    autocomplete: "off", spellcheck: "false", required: true });
  const inviteExpiry = expirySelect();
  const linkExpiry = expirySelect();
  const inviteForm = el("form", { class: "invite", id: "invite-player" },
    el("label", {}, ui("ui.host.player"), invitee),
    el("label", {}, ui("ui.host.seat"), inviteSeat),
    el("label", {}, ui("ui.host.openFor"), inviteExpiry),
    el("button", { type: "submit" }, ui("ui.host.invite")));
  const linkBox = el("div", { id: "link-box", hidden: true });
  const linkForm = el("form", { class: "invite", id: "make-link" },
    el("label", {}, ui("ui.host.seat"), linkSeat),
    el("label", {}, ui("ui.host.openFor"), linkExpiry),
    el("button", { type: "submit", class: "secondary" }, ui("ui.host.makeLink")));
  const forms = el("div", { id: "host-forms" },
    el("section", { class: "card" }, el("h2", {}, ui("ui.host.invitePlayer")),
      el("p", { class: "muted" }, ui("ui.host.invitePlayerWhy")),
      inviteForm),
    el("section", { class: "card" }, el("h2", {}, ui("ui.host.shareLink")),
      el("p", { class: "muted" }, ui("ui.host.shareLinkWhy")), linkForm, linkBox));

  const draw = () => {
    const status = statusWord(game.status);
    const described = known.byEnum.get(String(game.variant));
    const seats = game.seats || [];
    const free = seats.filter((s) => !s.taken).map((s) => s.seat ?? 0);
    about.replaceChildren(ui("ui.host.about", {
      variant: described?.title || described?.name || ui("ui.host.game"), status,
      taken: seats.length - free.length, n: seats.length }));
    redraw(seatList, ...seats.map((s, i) => el("li", { "data-seat": i,
      "data-taken": s.taken ? "yes" : "no" }, ui("ui.host.seatLine", { n: i }),
    s.taken ? el("b", {}, s.displayName || ui("ui.host.taken"))
      : el("span", { class: "muted" }, ui("ui.host.free")))));
    // the seat offered first: a free one nobody holds an open invitation to
    const invited = new Set(held.filter((i) => /PENDING/.test(String(i.state)))
      .map((i) => i.seat ?? 0));
    const first = free.find((s) => !invited.has(s)) ?? free[0];
    for (const select of [inviteSeat, linkSeat]) {
      const was = select.value;
      redraw(select, ...free.map((s) => el("option", { value: String(s),
        selected: s === first || undefined }, ui("ui.host.seatN", { n: s }))));
      if (free.map(String).includes(was) && select.dataset.touched) select.value = was;
    }
    const waiting = status === "waiting";
    forms.hidden = !waiting || !free.length;
    started.hidden = waiting;
    started.textContent = waiting ? "" : status === "active"
      ? ui("ui.host.started") : ui("ui.host.over", { status });
    redraw(list, ...(held.length ? held.map((invitation) => {
      const pending = /PENDING/.test(String(invitation.state));
      const who = invitation.invitee ? el("code", {}, invitation.invitee)
        : ui("ui.host.anyone");
      return el("li", { class: "card invitation", "data-invitation": invitation.invitationId,
        "data-state": pending ? "pending" : "closed" },
      el("div", {}, ui("ui.host.invitationSeat", { n: invitation.seat ?? 0 }), who),
      el("div", { class: "muted state" }, stateWords(invitation, game)),
      pending ? el("div", { class: "card-actions" }, el("button", { class: "secondary revoke",
        onclick: () => revoke(invitation) }, ui("ui.host.withdraw"))) : null);
    }) : [el("li", { class: "muted" }, ui("ui.host.noInvitations"))]));
    main.dataset.invitations = String(held.length);
  };

  const load = async () => {
    if (drawing) return drawing;
    drawing = (async () => {
      try {
        const [read, invitations] = await Promise.all([
          call("GetGame", { gameId }, credential),
          call("ListInvitations", { gameId }, credential)]);
        if (routeNow() !== route) return;
        game = read.game || {};
        held = invitations.invitations || [];
        draw();
        main.dataset.loaded = String(Number(main.dataset.loaded || 0) + 1);
      } catch (error) { sayError(error); }
    })();
    try { await drawing; } finally { drawing = null; }
    return undefined;
  };

  const revoke = async (invitation) => {
    try {
      await call("RevokeInvitation", { gameId, invitationId: invitation.invitationId },
        credential);
      say(ui("ui.host.withdrawn"), "info");
    } catch (error) { sayError(error); }
    await load();
  };

  for (const select of [inviteSeat, linkSeat]) {
    select.addEventListener("change", () => { select.dataset.touched = "yes"; });
  }
  inviteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = invitee.value.trim();
    if (!id) { say(ui("ui.host.typeId")); return; }
    try {
      await call("CreateInvitation", { gameId, seat: Number(inviteSeat.value), invitee: id,
        expiresInSeconds: String(expirySeconds(inviteExpiry)) }, credential);
      invitee.value = "";
      say(ui("ui.host.invited", { player: id, n: inviteSeat.value }), "info");
    } catch (error) { sayError(error); }
    await load();
  });
  linkForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await call("CreateInvitation", { gameId, seat: Number(linkSeat.value),
        link: true, expiresInSeconds: String(expirySeconds(linkExpiry)) }, credential);
      showLink(linkBox, made);
    } catch (error) { sayError(error); }
    await load();
  });

  main.append(title, about, started, seatList, forms,
    el("h2", {}, ui("ui.host.invitations")), list,
    el("div", { class: "card-actions" },
      el("button", { class: "secondary", id: "host-refresh", onclick: () => load() },
        ui("ui.host.refresh")),
      el("a", { href: `#/play/${gameId}`, class: "button secondary" }, ui("ui.host.openGame")),
      el("a", { href: "#/me", class: "button secondary" }, ui("ui.host.myGames"))));
  await load();
  if (routeNow() !== route) return;
  // the game's own events (a seat taken by an accepted invitation, the start) redraw the page
  const feed = new Feed(gameId, credential, { onEvent: () => load() });
  feed.lastSeq = Number(game.lastSeq || 0);
  onLeave(() => feed.stop());
  feed.run();
}

function expirySeconds(select) { return Number(select.value) || 7 * DAY_S; }

// The link, once: a read-only field holding the URL (selected on focus) and a copy button.
function showLink(box, made) {
  const url = linkUrl(made.code);
  const field = el("input", { id: "invitation-link", readonly: true, value: url,
    "aria-label": ui("ui.host.linkLabel"), onfocus: (event) => event.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      say(ui("ui.host.copied"), "info");
    } catch {
      field.focus();
      field.select();
      say(ui("ui.host.selectIt"), "info");
    }
  };
  box.replaceChildren(
    el("p", {}, ui("ui.host.linkMade", { n: made.seat ?? 0,
      when: when(Number(made.expiresAtMs || 0)) })),
    el("div", { class: "paste" }, field,
      el("button", { type: "button", id: "copy-link", onclick: copy }, ui("ui.host.copy"))));
  box.hidden = false;
}
