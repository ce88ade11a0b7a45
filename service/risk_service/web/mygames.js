// "My games" (#/me) and an invitation link (#/invite/CODE): sign in as a player (issued by the
// service, or a pasted token), the player's games from ListMyGames with whose turn it is and
// until when (the player's own turn highlighted), their pending invitations with who invites
// them to what, accept and decline, and an invitation link accepted in one tap. A waiting game
// the player hosts offers "Invite players" (#/host/GAME, host.js). The page follows the
// player's stream (StreamPlayerEvents: an invitation made, withdrawn or answered, a game
// started, their turn, a game over) and reads the lists again at each entry, so an invitation
// withdrawn by its host leaves the page by itself. Laid out as one column of cards, so it
// works on a phone (docs/web.md, "My games").

import { call, stream } from "./api.js";
import { onLeave, routeNow, say, sayError, variants } from "./app.js";
import { drawnAs, el, redraw, statusWord } from "./dom.js";
import { hosting } from "./host.js";
import { player, signInAsNew, signInWithToken, when } from "./player.js";
import { ui } from "./words.js";

function seatName(game, seat) {
  const entry = (game.seats || [])[seat];
  return entry?.displayName || ui("ui.me.seatN", { n: seat });
}

function signInPanel(done) {
  const pasted = el("input", { name: "player_token", placeholder: ui("ui.me.pasteToken"),
    autocomplete: "off", spellcheck: "false" });
  const form = el("form", { class: "paste", id: "paste-token" }, pasted,
    el("button", { type: "submit", class: "secondary" }, ui("ui.me.useToken")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await signInWithToken(pasted.value); done(); } catch (error) { sayError(error); }
  });
  return el("section", { class: "card", id: "sign-in" },
    el("h2", {}, ui("ui.me.signIn")),
    el("p", {}, ui("ui.me.signInWhy")),
    el("button", { id: "sign-in-new", onclick: async () => {
      try { await signInAsNew(); done(); } catch (error) { sayError(error); }
    } }, ui("ui.me.newPlayer")),
    el("p", { class: "muted" }, ui("ui.me.orToken")), form);
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
    lines.push(ui("ui.me.seatsTaken", { taken, n: (game.seats || []).length }));
  } else if (status === "active") {
    const deciding = game.decision?.seats || [];
    lines.push(mine.yourTurn ? ui("ui.me.yourTurn")
      : deciding.length
        ? ui("ui.me.waitingFor", { seats: deciding.map((s) => seatName(game, s)).join(", ") })
        : ui("ui.me.noDecision"));
    if (Number(game.deadlineMs || 0)) {
      lines.push(ui("ui.me.deadline", { when: when(Number(game.deadlineMs)) }));
    }
  } else if (game.outcome) {
    const winner = game.outcome.winner ?? 0;
    lines.push(winner >= 0 ? ui("ui.me.won", { seat: seatName(game, winner) }) : ui("ui.me.draw"));
  }
  const you = seat >= 0 ? ui("ui.me.youAre", { seat: seatName(game, seat) }) : ui("ui.me.youHost");
  const actions = [];
  if (seat >= 0 && (status === "active" || status === "waiting")) {
    actions.push(el("a", { href: `#/play/${id}`, class: "button play" },
      mine.yourTurn ? ui("ui.me.playNow") : ui("ui.me.open")));
  }
  actions.push(el("a", { href: `#/watch/${id}`, class: "button secondary watch" },
    ui("ui.me.watch")));
  const hostLine = el("div", { class: "hosting muted", hidden: true });
  const card = el("li", { class: "card my-game" + (mine.yourTurn ? " your-turn" : ""),
    "data-game": id, "data-status": status, "data-your-turn": mine.yourTurn ? "yes" : "no" },
  el("div", { class: "title" }, el("b", {}, described?.title || described?.name || ui("ui.me.game")),
    el("span", { class: "badge" }, status)),
  ...lines.map((line, i) => el("div", { class: i === 0 ? "turn" : "deadline" }, line)),
  el("div", { class: "muted" }, you), hostLine,
  el("div", { class: "card-actions" }, ...actions));
  return drawnAs(card);
}

// Shows `cards` in `list`: a read of the lists that changed nothing touches no card
// (dom.redraw), so a tap on "Open" whose press and release straddle it still opens the game.
function showCards(list, cards) {
  redraw(list, ...cards);
  for (const card of list.children) {
    if (card.dataset.status === "waiting") showHosting(card);
  }
}

// A waiting game the player hosts (ListInvitations with the game answers its host only): how
// many invitations are open, and the way to the host's page.
async function showHosting(card) {
  const gameId = card.dataset.game;
  let host;
  try { host = await hosting(gameId); } catch { return; }
  if (host === null) return;
  const open = host.invitations.filter((i) => /PENDING/.test(String(i.state))).length;
  const line = card.querySelector(".hosting");
  line.textContent = open ? ui("ui.me.youHostOpen", { n: open }) : ui("ui.me.youHost");
  line.hidden = false;
  if (!card.querySelector("a.invite")) {
    card.querySelector(".card-actions").prepend(el("a", { href: `#/host/${gameId}`,
      class: "button invite" }, ui("ui.me.invitePlayers")));
  }
  card.dataset.host = "yes";
}

// Who invites the player to what: the host's name where the host holds a seat, the variant,
// the seat and how many seats are taken (GetGame, as a spectator reads it).
async function invitationWords(invitation, known) {
  const described = known.byEnum.get(String(invitation.variant));
  const variant = described?.title || described?.name || ui("ui.me.someVariant");
  let game = null;
  try { game = (await call("GetGame", { gameId: invitation.gameId }, player.token())).game; }
  catch { game = null; }
  const seats = game?.seats || [];
  const host = invitation.hostPlayer
    ? seats.find((s) => s.playerId === invitation.hostPlayer)?.displayName : "";
  const taken = seats.filter((s) => s.taken).length;
  return {
    head: ui("ui.me.invites", { host: host || ui("ui.me.aHost"), seat: invitation.seat ?? 0,
      variant }),
    seats: seats.length ? ui("ui.me.seatsTaken", { taken, n: seats.length }) : "",
  };
}

function invitationCard(invitation, reload, words) {
  const ref = { gameId: invitation.gameId, invitationId: invitation.invitationId };
  const name = el("input", { name: "display_name", placeholder: ui("ui.me.yourName"),
    maxlength: "40", autocomplete: "nickname", "aria-label": ui("ui.me.yourNameLabel") });
  const accept = async () => {
    try {
      const taken = await call("AcceptInvitation", { ...ref, displayName: name.value.trim() },
        player.token());
      location.hash = `#/play/${taken.gameId}`;
    } catch (error) { sayError(error); }
  };
  const decline = async () => {
    try { await call("DeclineInvitation", ref, player.token()); reload(); }
    catch (error) { sayError(error); }
  };
  const expires = Number(invitation.expiresAtMs || 0);
  return el("li", { class: "card invitation", "data-invitation": invitation.invitationId,
    "data-game": invitation.gameId },
  el("div", {}, words.head),
  words.seats ? el("div", { class: "muted" }, words.seats) : null,
  expires ? el("div", { class: "muted" }, ui("ui.me.openUntil", { when: when(expires) })) : null,
  el("div", { class: "card-actions" }, name,
    el("button", { class: "accept", onclick: accept }, ui("ui.me.accept")),
    el("button", { class: "secondary decline", onclick: decline }, ui("ui.me.decline"))));
}

export async function showMyGames(main) {
  const route = routeNow();
  const known = await variants();
  if (routeNow() !== route) return;
  const signedIn = player.get();
  following?.stop();
  following = null;
  main.replaceChildren();
  main.classList.add("me");
  if (!signedIn) {
    main.append(el("h1", {}, ui("ui.me.title")), signInPanel(() => showMyGames(main)));
    return;
  }
  const list = el("ul", { class: "cards-list", id: "my-games" });
  const invitations = el("ul", { class: "cards-list", id: "invitations" });
  const invitationBox = el("section", { id: "invitations-box", hidden: true },
    el("h2", {}, ui("ui.me.invitations")), invitations);
  const more = el("button", { class: "secondary", hidden: true }, ui("ui.me.moreGames"));
  let pageToken = "";
  let reads = 0;
  const load = async (append) => {
    const read = ++reads;
    try {
      const [page, invited] = await Promise.all([
        call("ListMyGames", { pageSize: 50, pageToken: append ? pageToken : "" }, signedIn.token),
        append ? null : call("ListInvitations", {}, signedIn.token)]);
      const words = await Promise.all((invited?.invitations || [])
        .map((i) => invitationWords(i, known)));
      if (read !== reads || routeNow() !== route) return; // a later read draws instead
      pageToken = page.nextPageToken || "";
      more.hidden = !pageToken;
      const cards = (page.games || []).map((mine) => gameCard(mine, known));
      showCards(list, append ? [...list.children, ...cards] : cards.length ? cards
        : [el("li", { class: "muted" }, ui("ui.me.noGames"))]);
      if (invited) {
        const pending = invited.invitations || [];
        invitations.replaceChildren(...pending.map((i, n) =>
          invitationCard(i, () => load(false), words[n])));
        invitationBox.hidden = !pending.length;
      }
      main.dataset.loaded = String(Number(main.dataset.loaded || 0) + 1);
    } catch (error) {
      sayError(error);
    }
  };
  more.addEventListener("click", () => load(true));
  const link = el("input", { name: "invitation_code", placeholder: ui("ui.me.invitationCode"),
    autocomplete: "off", spellcheck: "false" });
  const linkForm = el("form", { class: "paste", id: "accept-link" }, link,
    el("button", { type: "submit", class: "secondary" }, ui("ui.me.accept")));
  linkForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = link.value.trim().split("#/invite/").pop();
    if (code) location.hash = `#/invite/${encodeURIComponent(code)}`;
  });
  main.append(
    el("h1", {}, ui("ui.me.title")),
    el("div", { class: "who" }, ui("ui.me.signedInAs"), el("code", { id: "player-id" }, signedIn.playerId),
      el("button", { class: "secondary", id: "sign-out", onclick: () => {
        player.clear(); showMyGames(main);
      } }, ui("ui.me.signOut"))),
    el("p", { class: "muted" }, ui("ui.me.invitedById")),
    el("div", { class: "card-actions" },
      el("button", { class: "secondary", id: "refresh", onclick: () => load(false) },
        ui("ui.me.refresh")),
      el("a", { href: "#/", class: "button secondary" }, ui("ui.me.lobby"))),
    invitationBox, list, more,
    el("section", {}, el("h2", {}, ui("ui.me.haveLink")), linkForm));
  await load(false);
  if (routeNow() !== route) return;
  following = new PlayerFollow(signedIn, () => load(false));
  onLeave(() => following?.stop());
  following.run();
}

let following = null;
// the last seq this page saw of each player's stream, so coming back to the page resumes
const seen = new Map();

// The player's stream (StreamPlayerEvents, Connect's streaming protocol: the browser's
// protobuf bundle has StreamEvents' and Session's codecs only) from the last seq this page
// saw, again from that seq after a drop (0.25 s, doubling to 4 s). Each burst of entries reads
// the lists again once (the first, the entries kept from before, once more than needed).
class PlayerFollow {
  constructor(signedIn, changed) {
    this.player = signedIn.playerId;
    this.token = signedIn.token;
    this.changed = changed;
    this.controller = null;
    this.stopped = false;
    this.timer = 0;
  }

  async run() {
    let pause = 250;
    while (!this.stopped) {
      this.controller = new AbortController();
      try {
        await stream("StreamPlayerEvents", { afterSeq: String(seen.get(this.player) || 0) },
          (message) => {
            const seq = Number(message.event?.seq || 0);
            if (seq <= (seen.get(this.player) || 0)) return;
            seen.set(this.player, seq);
            pause = 250;
            this.soon();
          }, { token: this.token, signal: this.controller.signal });
      } catch (error) {
        if (this.stopped) return;
        if (["unauthenticated", "permission_denied", "invalid_argument"].includes(error.code)) {
          return; // the token is no good for it: the Refresh button still reads the lists
        }
      }
      if (this.stopped) return;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 4000);
    }
  }

  // one read of the lists for a burst of entries
  soon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.stopped) this.changed(); }, 200);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller?.abort();
  }
}

// #/invite/CODE: an open-seat link. Signed in, one tap takes the seat; else sign in first.
export async function showInvitation(main, code) {
  const route = routeNow();
  main.replaceChildren();
  main.classList.add("me");
  if (!player.get()) {
    main.append(el("h1", {}, ui("ui.me.invited")),
      el("p", {}, ui("ui.me.signInToTake")), signInPanel(() => showInvitation(main, code)));
    return;
  }
  // the game the link names (its id leads the code), as a spectator reads it
  const known = await variants();
  let game = null;
  try { game = (await call("GetGame", { gameId: code.split("-")[0] }, player.token())).game; }
  catch { game = null; }
  if (routeNow() !== route) return;
  const name = el("input", { name: "display_name", placeholder: ui("ui.me.yourName"),
    maxlength: "40", autocomplete: "nickname", "aria-label": ui("ui.me.yourNameLabel") });
  const accept = async () => {
    try {
      const taken = await call("AcceptInvitation", { code, displayName: name.value.trim() },
        player.token());
      say(ui("ui.me.seatYours", { n: taken.seat ?? 0 }), "info");
      location.hash = `#/play/${taken.gameId}`;
    } catch (error) { sayError(error); }
  };
  const described = game && known.byEnum.get(String(game.variant));
  const seats = game?.seats || [];
  main.append(...[el("h1", {}, ui("ui.me.invited")),
    game ? el("p", { id: "invited-game" }, ui("ui.me.invitedGame", {
      variant: described?.title || described?.name || ui("ui.me.aGame"),
      taken: seats.filter((s) => s.taken).length, n: seats.length })) : null,
    el("div", { class: "card-actions" }, name,
      el("button", { id: "accept-invitation", onclick: accept }, ui("ui.me.takeSeat")),
      el("a", { href: "#/me", class: "button secondary" }, ui("ui.me.notNow")))].filter(Boolean));
}
