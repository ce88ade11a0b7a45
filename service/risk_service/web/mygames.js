// "My games" (#/me) and an invitation link (#/invite/CODE): sign in as a player (issued by the
// service, or a pasted token), the player's games from ListMyGames with whose turn it is and
// until when (the player's own turn highlighted), their pending invitations with accept and
// decline, and an invitation link accepted in one tap. Laid out as one column of cards, so it
// works on a phone (docs/web.md, "My games").

import { call } from "./api.js";
import { routeNow, say, sayError, variants } from "./app.js";
import { el, statusWord } from "./dom.js";
import { player, signInAsNew, signInWithToken, when } from "./player.js";

function seatName(game, seat) {
  const entry = (game.seats || [])[seat];
  return entry?.displayName || `seat ${seat}`;
}

function signInPanel(done) {
  const pasted = el("input", { name: "player_token", placeholder: "paste a player token",
    autocomplete: "off", spellcheck: "false" });
  const form = el("form", { class: "paste", id: "paste-token" }, pasted,
    el("button", { type: "submit", class: "secondary" }, "Use this token"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await signInWithToken(pasted.value); done(); } catch (error) { sayError(error); }
  });
  return el("section", { class: "card", id: "sign-in" },
    el("h2", {}, "Sign in"),
    el("p", {}, "Your games, your turns and your invitations, on any device you sign in on."),
    el("button", { id: "sign-in-new", onclick: async () => {
      try { await signInAsNew(); done(); } catch (error) { sayError(error); }
    } }, "Play as a new player"),
    el("p", { class: "muted" }, "or, with a token from your account:"), form);
}

function gameCard(mine, known) {
  const game = mine.game || {};
  const id = game.gameId;
  const seat = mine.seat ?? 0;
  const status = statusWord(game.status);
  const described = known.byEnum.get(String(game.variant));
  const lines = [];
  if (status === "waiting") {
    const taken = (game.seats || []).filter((s) => s.taken).length;
    lines.push(`${taken} of ${(game.seats || []).length} seats taken`);
  } else if (status === "active") {
    const deciding = game.decision?.seats || [];
    lines.push(mine.yourTurn ? "Your turn"
      : deciding.length ? `Waiting for ${deciding.map((s) => seatName(game, s)).join(", ")}`
        : "No decision pending");
    if (Number(game.deadlineMs || 0)) lines.push(`Deadline ${when(Number(game.deadlineMs))}`);
  } else if (game.outcome) {
    const winner = game.outcome.winner ?? 0;
    lines.push(winner >= 0 ? `${seatName(game, winner)} won` : "A draw");
  }
  const you = seat >= 0 ? `you are ${seatName(game, seat)}` : "you host it";
  const actions = [];
  if (seat >= 0 && (status === "active" || status === "waiting")) {
    actions.push(el("a", { href: `#/play/${id}`, class: "button play" },
      mine.yourTurn ? "Play now" : "Open"));
  }
  actions.push(el("a", { href: `#/watch/${id}`, class: "button secondary watch" }, "Watch"));
  return el("li", { class: "card my-game" + (mine.yourTurn ? " your-turn" : ""),
    "data-game": id, "data-status": status, "data-your-turn": mine.yourTurn ? "yes" : "no" },
  el("div", { class: "title" }, el("b", {}, described?.title || described?.name || "game"),
    el("span", { class: "badge" }, status)),
  ...lines.map((line, i) => el("div", { class: i === 0 ? "turn" : "deadline" }, line)),
  el("div", { class: "muted" }, `${you} · `, el("code", {}, id)),
  el("div", { class: "card-actions" }, ...actions));
}

function invitationCard(invitation, reload) {
  const ref = { gameId: invitation.gameId, invitationId: invitation.invitationId };
  const accept = async () => {
    try {
      const taken = await call("AcceptInvitation", ref, player.token());
      location.hash = `#/play/${taken.gameId}`;
    } catch (error) { sayError(error); }
  };
  const decline = async () => {
    try { await call("DeclineInvitation", ref, player.token()); reload(); }
    catch (error) { sayError(error); }
  };
  const expires = Number(invitation.expiresAtMs || 0);
  return el("li", { class: "card invitation", "data-invitation": invitation.invitationId },
    el("div", {}, `Seat ${invitation.seat ?? 0} of `, el("code", {}, invitation.gameId),
      invitation.hostPlayer ? ` from ${invitation.hostPlayer}` : ""),
    expires ? el("div", { class: "muted" }, `open until ${when(expires)}`) : null,
    el("div", { class: "card-actions" },
      el("button", { class: "accept", onclick: accept }, "Accept"),
      el("button", { class: "secondary decline", onclick: decline }, "Decline")));
}

export async function showMyGames(main) {
  const route = routeNow();
  const known = await variants();
  if (routeNow() !== route) return;
  const signedIn = player.get();
  main.replaceChildren();
  main.classList.add("me");
  if (!signedIn) {
    main.append(el("h1", {}, "My games"), signInPanel(() => showMyGames(main)));
    return;
  }
  const list = el("ul", { class: "cards-list", id: "my-games" });
  const invitations = el("ul", { class: "cards-list", id: "invitations" });
  const invitationBox = el("section", { id: "invitations-box", hidden: true },
    el("h2", {}, "Invitations"), invitations);
  const more = el("button", { class: "secondary", hidden: true }, "More games");
  let pageToken = "";
  const load = async (append) => {
    try {
      const [page, invited] = await Promise.all([
        call("ListMyGames", { pageSize: 50, pageToken: append ? pageToken : "" }, signedIn.token),
        append ? null : call("ListInvitations", {}, signedIn.token)]);
      pageToken = page.nextPageToken || "";
      more.hidden = !pageToken;
      const cards = (page.games || []).map((mine) => gameCard(mine, known));
      if (append) list.append(...cards);
      else list.replaceChildren(...(cards.length ? cards
        : [el("li", { class: "muted" }, "No games yet: take a seat in the lobby, or accept an invitation.")]));
      if (invited) {
        const pending = invited.invitations || [];
        invitations.replaceChildren(...pending.map((i) => invitationCard(i, () => load(false))));
        invitationBox.hidden = !pending.length;
      }
      main.dataset.loaded = String(Number(main.dataset.loaded || 0) + 1);
    } catch (error) {
      sayError(error);
    }
  };
  more.addEventListener("click", () => load(true));
  const link = el("input", { name: "invitation_code", placeholder: "invitation link or code",
    autocomplete: "off", spellcheck: "false" });
  const linkForm = el("form", { class: "paste", id: "accept-link" }, link,
    el("button", { type: "submit", class: "secondary" }, "Accept"));
  linkForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = link.value.trim().split("#/invite/").pop();
    if (code) location.hash = `#/invite/${encodeURIComponent(code)}`;
  });
  main.append(
    el("h1", {}, "My games"),
    el("div", { class: "who" }, "Signed in as ", el("code", { id: "player-id" }, signedIn.playerId),
      el("button", { class: "secondary", id: "sign-out", onclick: () => {
        player.clear(); showMyGames(main);
      } }, "Sign out")),
    el("div", { class: "card-actions" },
      el("button", { class: "secondary", id: "refresh", onclick: () => load(false) }, "Refresh"),
      el("a", { href: "#/", class: "button secondary" }, "Lobby")),
    invitationBox, list, more,
    el("section", {}, el("h2", {}, "Have an invitation link?"), linkForm));
  await load(false);
}

// #/invite/CODE: an open-seat link. Signed in, one tap takes the seat; else sign in first.
export async function showInvitation(main, code) {
  main.replaceChildren();
  main.classList.add("me");
  if (!player.get()) {
    main.append(el("h1", {}, "You are invited to a game"),
      el("p", {}, "Sign in to take the seat."), signInPanel(() => showInvitation(main, code)));
    return;
  }
  const accept = async () => {
    try {
      const taken = await call("AcceptInvitation", { code }, player.token());
      say(`seat ${taken.seat ?? 0} is yours`, "info");
      location.hash = `#/play/${taken.gameId}`;
    } catch (error) { sayError(error); }
  };
  main.append(el("h1", {}, "You are invited to a game"),
    el("p", {}, "Game ", el("code", {}, code.split("-")[0])),
    el("div", { class: "card-actions" },
      el("button", { id: "accept-invitation", onclick: accept }, "Take the seat"),
      el("a", { href: "#/me", class: "button secondary" }, "Not now")));
}
