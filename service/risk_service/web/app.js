// The web app's entry: routes (#/ lobby, #/play/GAME, #/watch/GAME, #/replay/GAME, #/me the
// player's games, #/invite/CODE an invitation link, #/host/GAME a host's invitations,
// #/leaderboard/VARIANT a variant's leaderboard, #/match "play now": matchmaking), the
// signed-in player in the header, the one notice line where every error is shown in words, and
// the variants' descriptions from ListVariants (fetched once: they change only with the
// service's rules version).

import { call, explain } from "./api.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showReplay } from "./replay.js";
import { showInvitation, showMyGames } from "./mygames.js";
import { showHost } from "./host.js";
import { showLeaderboard } from "./leaderboard.js";
import { showPlayNow } from "./playnow.js";
import { player } from "./player.js";
import { ui } from "./words.js";

const main = document.getElementById("main");
const notice = document.getElementById("notice");
const connection = document.getElementById("connection");
const signedIn = document.getElementById("signed-in");
// the header's words from the text table (index.html's are the same, for a page before this runs)
for (const [id, key] of [["nav-me", "ui.nav.myGames"], ["nav-leaderboard", "ui.nav.leaderboard"],
  ["nav-match", "ui.nav.playNow"]]) document.getElementById(id).textContent = ui(key);

function showPlayer(entry) {
  signedIn.textContent = entry ? entry.playerId : "";
  signedIn.title = entry ? ui("ui.nav.signedIn") : "";
  signedIn.hidden = !entry;
}
showPlayer(player.get());
player.onChange(showPlayer);
let noticeTimer = 0;

export function say(message, kind = "error") {
  notice.textContent = message;
  notice.className = "notice " + kind;
  notice.hidden = !message;
  notice.dataset.kind = kind;
  clearTimeout(noticeTimer);
  if (kind === "info") noticeTimer = setTimeout(() => { notice.hidden = true; }, 6000);
}

export function sayError(error) { say(explain(error), "error"); }

export function connectionState(text) {
  connection.textContent = text;
  connection.hidden = !text;
}

let variantsPromise = null;

// {byName, byEnum, list}: VariantDescription per name and per GameSummary.variant JSON value
export function variants() {
  if (!variantsPromise) {
    variantsPromise = call("ListVariants", {}).then((reply) => {
      const list = reply.variants || [];
      const byName = new Map(), byEnum = new Map();
      for (const v of list) {
        byName.set(v.name, v);
        byEnum.set(String(v.variant ?? ""), v);
      }
      return { list, byName, byEnum };
    }, (error) => { variantsPromise = null; throw error; });
  }
  return variantsPromise;
}

let leaving = () => {};
let generation = 0;

// Which route is showing: a view that awaited something checks it is still the current one
// before it draws, so a slow view left for another (a tap on "My games" while a game loads)
// never draws over the page that replaced it.
export function routeNow() { return generation; }

export function onLeave(stop) { leaving = stop; }

async function route() {
  generation++;
  leaving();
  leaving = () => {};
  say("");
  connectionState("");
  const [, view = "", gameId = ""] = location.hash.split("/");
  const id = decodeURIComponent(gameId);
  main.className = "";
  try {
    if (view === "play" || view === "watch") await showGame(main, id, view);
    else if (view === "replay") await showReplay(main, id);
    else if (view === "me") await showMyGames(main);
    else if (view === "invite") await showInvitation(main, id);
    else if (view === "host") await showHost(main, id);
    else if (view === "leaderboard") await showLeaderboard(main, id);
    else if (view === "match") await showPlayNow(main);
    else await showLobby(main);
  } catch (error) {
    sayError(error);
  }
}

// Errors nobody caught still reach the user in words, and not the console.
window.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  sayError(event.reason);
});
window.addEventListener("error", (event) => {
  event.preventDefault();
  say(String(event.message || event.error));
});
window.addEventListener("hashchange", route);
route();
