// The leaderboard (#/leaderboard, #/leaderboard/VARIANT; docs/ratings.md): a variant's players
// best first (GetLeaderboard, paged with "more"), each with their place, rating (mu - 3 sigma),
// games and whether it is still provisional; a past season by name; signed in as a player, the
// player's own rating and latest rated games (GetRating) and "around me", their place in the
// middle of the page, their row marked. Public reads: no token is sent. One column of cards on a
// phone, as "My games" is.

import { call } from "./api.js";
import { routeNow, say, sayError, variants } from "./app.js";
import { el } from "./dom.js";
import { player, when } from "./player.js";
import { ui } from "./words.js";

const PAGE = 50;

function figure(value) { return Number(value || 0).toFixed(1); }

function ratingWords(rating) {
  return ui("ui.leaderboard.ratingWords", { rating: figure(rating.rating),
    mu: Number(rating.mu || 0).toFixed(2), sigma: Number(rating.sigma || 0).toFixed(2),
    games: Number(rating.games || 0), provisional: rating.provisional ? "yes" : "no" });
}

// CLDR's ordinal category for English (1st, 2nd, 3rd, 4th, 11th, 21st); the table's
// "ui.leaderboard.place" selects its suffix by it, so a locale words its own places
function ordinal(rank) {
  const tens = rank % 100, ones = rank % 10;
  if (tens >= 11 && tens <= 13) return "other";
  return ones === 1 ? "one" : ones === 2 ? "two" : ones === 3 ? "few" : "other";
}

function place(rank) {
  return ui("ui.leaderboard.place", { rank, ordinal: ordinal(rank) });
}

function row(entry, me) {
  const rating = entry.rating || {};
  const mine = me && rating.playerId === me;
  return el("tr", { "data-player": rating.playerId, class: mine ? "mine" : undefined },
    el("td", { class: "rank" }, String(entry.rank || 0)),
    el("td", {}, el("code", {}, rating.playerId || ""), mine ? ui("ui.leaderboard.you") : ""),
    el("td", { class: "rating" }, figure(rating.rating)),
    el("td", {}, String(rating.games || 0)),
    el("td", {}, rating.provisional ? ui("ui.leaderboard.provisional") : ""));
}

async function myCard(variant, season, me) {
  const reply = await call("GetRating", { playerId: me, variant, season, pageSize: 5 });
  const rating = reply.rating || {};
  const history = (reply.history || []).map((change) => {
    const delta = Number(change.ratingAfter || 0) - Number(change.ratingBefore || 0);
    return el("li", {},
      ui("ui.leaderboard.placeOf", { place: place(change.rank || 0), seats: change.seats || 0 }),
      el("a", { href: `#/replay/${change.gameId}` }, el("code", {}, change.gameId)),
      ui("ui.leaderboard.change", { before: figure(change.ratingBefore),
        after: figure(change.ratingAfter), delta: `${delta >= 0 ? "+" : ""}${delta.toFixed(1)}`,
        when: when(Number(change.atMs || 0)) }));
  });
  return el("section", { class: "card", id: "my-rating" },
    el("h2", {}, ui("ui.leaderboard.yourRating")),
    el("p", {}, Number(rating.games || 0)
      ? rating.rank
        ? ui("ui.leaderboard.onBoard", { ratingWords: ratingWords(rating), place: place(rating.rank) })
        : ratingWords(rating)
      : ui("ui.leaderboard.noGames")),
    history.length ? el("ul", { class: "history" }, ...history) : null);
}

export async function showLeaderboard(main, variantName = "") {
  const known = await variants();
  const generation = routeNow();
  const chosen = known.byName.get(variantName) || known.byName.get("classic") || known.list[0];
  const me = player.get()?.playerId || "";
  const variantPick = el("select", { name: "board_variant" },
    ...known.list.map((v) => el("option", { value: v.name, selected: v === chosen }, v.title || v.name)));
  const seasonField = el("input", { name: "board_season", placeholder: ui("ui.leaderboard.currentSeason"),
    autocomplete: "off", spellcheck: "false" });
  const heading = el("p", { id: "board-summary", class: "muted" });
  const body = el("tbody", { id: "board-rows" });
  const more = el("button", { class: "secondary", id: "board-more", hidden: true },
    ui("ui.leaderboard.more"));
  const around = el("button", { class: "secondary", id: "board-around", hidden: !me },
    ui("ui.leaderboard.aroundMe"));
  const mine = el("div");
  let pageToken = "";
  let request = {};

  const load = async (append, aroundMe = false) => {
    try {
      if (!append) {
        request = { variant: chosen.variant, season: seasonField.value.trim(), pageSize: PAGE,
          ...(aroundMe ? { aroundPlayer: me } : {}) };
      }
      const reply = await call("GetLeaderboard", append ? { ...request, aroundPlayer: undefined,
        pageToken } : request);
      if (routeNow() !== generation) return;
      pageToken = reply.nextPageToken || "";
      more.hidden = !pageToken;
      const rows = (reply.entries || []).map((entry) => row(entry, me));
      if (append) body.append(...rows); else body.replaceChildren(...rows);
      const total = Number(reply.total || 0);
      heading.textContent = total
        ? ui("ui.leaderboard.summary", { n: total, season: reply.season })
        : ui("ui.leaderboard.nobody", { season: reply.season });
      if (me && !append) {
        const card = await myCard(chosen.variant, request.season, me);
        if (routeNow() === generation) mine.replaceChildren(card);
      }
    } catch (error) {
      if (error.reason === "NOT_RATED") say(ui("ui.leaderboard.notRated"), "info");
      else sayError(error);
    }
  };

  variantPick.addEventListener("change", () => {
    location.hash = `#/leaderboard/${encodeURIComponent(variantPick.value)}`;
  });
  seasonField.addEventListener("change", () => load(false));
  more.addEventListener("click", () => load(true));
  around.addEventListener("click", () => load(false, true));
  main.replaceChildren(el("section", { class: "card", id: "leaderboard" },
    el("h1", {}, ui("ui.leaderboard.title", { variant: chosen.title || chosen.name })),
    el("div", { class: "filters" }, el("label", {}, ui("ui.leaderboard.variant"), variantPick),
      el("label", {}, ui("ui.leaderboard.season"), seasonField), around),
    heading,
    el("table", { class: "games board" },
      el("thead", {}, el("tr", {}, el("th", {}, ui("ui.leaderboard.rank")),
        el("th", {}, ui("ui.leaderboard.player")), el("th", {}, ui("ui.leaderboard.rating")),
        el("th", {}, ui("ui.leaderboard.games")),
        el("th", {}, el("span", { class: "sr-only" }, ui("ui.leaderboard.provisional"))))),
      body),
    more), mine);
  await load(false);
}
