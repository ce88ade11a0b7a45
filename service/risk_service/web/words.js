// The words of the play view's panels (totals, what is left to place, dice, clocks, the
// your-turn alert, resign), of the lobby's rows and of every page (ui(): docs/text.md lists
// the pages' key prefixes), kept in the one text table
// (service/rules/risk_rules/text/en.json, its "words" starting "panel.", "lobby." and "ui."; Legacy's
// factions among its enums) and rendered by the one renderer (text.js, docs/text.md).

import { Renderer } from "./text.js";

const TEXT = new Renderer("en");

// a panel's sentence from the table's words
export function panelText(key, values = {}) {
  if (TEXT.words[key] === undefined) throw new Error(`the text table has no words for ${key}`);
  return TEXT.fill(key, values);
}

// the page's own words (headings, buttons, "acting as"): the table's words starting "ui."
export function ui(key, values = {}) {
  return panelText(key, values);
}

// a seat as the text table names it ("you" where `atStart` is false and it is the viewer)
export function seatText(seat, names, atStart = true) {
  return TEXT.seat(seat, names, atStart);
}

// an enum value's words in a variant's table (Legacy's factions), its name as words otherwise
export function enumText(variant, name) {
  const found = TEXT.lookup(variant, "enums", name);
  return found !== undefined && found !== null ? String(found) : TEXT.phase(variant, name);
}

export function durationText(ms) {
  return TEXT.duration(Math.max(0, ms));
}

// a lobby row's title and its seats by name: the proto has no game title, so the variant, the
// number of seats and the first seated player's name (the host's, when the host sat first)
export function lobbyTitle(game, variant) {
  const seats = game.seats || [];
  const first = seats.find((s) => s.taken && s.displayName);
  const n = panelText("lobby.players", { n: seats.length });
  const title = first ? panelText("lobby.title", { variant, n, name: first.displayName })
    : panelText("lobby.titleNoName", { variant, n });
  const names = seats.map((s, i) => s.taken
    ? s.displayName || panelText("lobby.seatN", { n: s.seat ?? i })
    : panelText("lobby.openSeat", { n: s.seat ?? i }));
  return { title, seats: TEXT.join(names) +
    panelText("lobby.openCount", { n: seats.filter((s) => !s.taken).length }) };
}
