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

const PAGE = 50;

function figure(value) { return Number(value || 0).toFixed(1); }

function ratingWords(rating) {
  const games = Number(rating.games || 0);
  return `${figure(rating.rating)} (mu ${Number(rating.mu || 0).toFixed(2)}, sigma ` +
    `${Number(rating.sigma || 0).toFixed(2)}), ${games} game${games === 1 ? "" : "s"}` +
    (rating.provisional ? ", provisional" : "");
}

function place(rank) {
  const tens = rank % 100, ones = rank % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${rank}${suffix}`;
}

function row(entry, me) {
  const rating = entry.rating || {};
  const mine = me && rating.playerId === me;
  return el("tr", { "data-player": rating.playerId, class: mine ? "mine" : undefined },
    el("td", { class: "rank" }, String(entry.rank || 0)),
    el("td", {}, el("code", {}, rating.playerId || ""), mine ? " (you)" : ""),
    el("td", { class: "rating" }, figure(rating.rating)),
    el("td", {}, String(rating.games || 0)),
    el("td", {}, rating.provisional ? "provisional" : ""));
}

async function myCard(variant, season, me) {
  const reply = await call("GetRating", { playerId: me, variant, season, pageSize: 5 });
  const rating = reply.rating || {};
  const history = (reply.history || []).map((change) => {
    const delta = Number(change.ratingAfter || 0) - Number(change.ratingBefore || 0);
    return el("li", {}, `${place(change.rank || 0)} of ${change.seats || 0} in `,
      el("a", { href: `#/replay/${change.gameId}` }, el("code", {}, change.gameId)),
      `: ${figure(change.ratingBefore)} → ${figure(change.ratingAfter)} ` +
      `(${delta >= 0 ? "+" : ""}${delta.toFixed(1)}), ${when(Number(change.atMs || 0))}`);
  });
  return el("section", { class: "card", id: "my-rating" },
    el("h2", {}, "Your rating"),
    el("p", {}, Number(rating.games || 0)
      ? `${ratingWords(rating)}${rating.rank ? `, ${place(rating.rank)} on the board` : ""}`
      : "No rated games yet in this variant and season."),
    history.length ? el("ul", { class: "history" }, ...history) : null);
}

export async function showLeaderboard(main, variantName = "") {
  const known = await variants();
  const generation = routeNow();
  const chosen = known.byName.get(variantName) || known.byName.get("classic") || known.list[0];
  const me = player.get()?.playerId || "";
  const variantPick = el("select", { name: "board_variant" },
    ...known.list.map((v) => el("option", { value: v.name, selected: v === chosen }, v.title || v.name)));
  const seasonField = el("input", { name: "board_season", placeholder: "current season",
    autocomplete: "off", spellcheck: "false" });
  const heading = el("p", { id: "board-summary", class: "muted" });
  const body = el("tbody", { id: "board-rows" });
  const more = el("button", { class: "secondary", id: "board-more", hidden: true }, "more");
  const around = el("button", { class: "secondary", id: "board-around", hidden: !me },
    "Around me");
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
        ? `${total} rated player${total === 1 ? "" : "s"}, season ${reply.season}`
        : `Nobody is rated yet in season ${reply.season}.`;
      if (me && !append) {
        const card = await myCard(chosen.variant, request.season, me);
        if (routeNow() === generation) mine.replaceChildren(card);
      }
    } catch (error) {
      if (error.reason === "NOT_RATED") say("You are not on this board yet: play a rated game.", "info");
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
    el("h1", {}, `Leaderboard: ${chosen.title || chosen.name}`),
    el("div", { class: "filters" }, el("label", {}, "variant", variantPick),
      el("label", {}, "season", seasonField), around),
    heading,
    el("table", { class: "games board" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "player"),
        el("th", {}, "rating"), el("th", {}, "games"),
        el("th", {}, el("span", { class: "sr-only" }, "provisional")))),
      body),
    more), mine);
  await load(false);
}
