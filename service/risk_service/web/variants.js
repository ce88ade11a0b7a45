// What the web app must know of each variant's messages that DescribeVariant does not carry:
// which action fields name a region (the field list says a region field is there even where a
// JSON writer that leaves zeros out sent none; this service's HTTP port writes them), how a view
// reads as pieces on regions, and where the hand is. The map itself, the cards and the options
// always come from DescribeVariant; a replay's boards come from the service (GetGame at_version).

import { namesOf, Renderer } from "./text.js";

// JSON's name of a variant's case in the envelopes (Action, Event, BoardView): lowerCamelCase.
export function caseOf(name) {
  return name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

const FROM_TO = ["fromTerritory", "toTerritory"];

// per variant, per action kind: the region fields, the one chosen first leading
const REGION_FIELDS = {
  classic: { claimTerritory: ["territory"], placeArmies: ["territory"],
    placeNeutral: ["territory"], attack: FROM_TO, fortify: FROM_TO },
  legacy: { placeHq: ["territory"], playScar: ["territory"], joinWar: ["territory"],
    placeTroops: ["territory"], expand: FROM_TO, attack: FROM_TO, maneuver: FROM_TO },
  deep_space: { mine: ["planet"], move: ["origin", "destination"],
    warp: ["origin", "destination"], buildBase: ["planet"], relocateDog: ["planet"],
    playCard: ["planet"] },
  strike: { attack: ["fromContinent", "toContinent"] },
};

// fields that are `optional` in the contract: absent means unset, not zero
const OPTIONAL_FIELDS = new Set(["playCard.planet"]);

export function regionFields(variant, kind, fields) {
  return (REGION_FIELDS[variant]?.[kind] || []).filter(
    (f) => !OPTIONAL_FIELDS.has(`${kind}.${f}`) || f in fields);
}

// {kind, fields} of an Action's JSON for this variant
export function actionParts(variant, action) {
  const body = action[caseOf(variant)] || {};
  const [kind] = Object.keys(body);
  return { kind: kind || "?", fields: body[kind] || {} };
}

export function regionsOf(variant, action) {
  const { kind, fields } = actionParts(variant, action);
  return regionFields(variant, kind, fields).map((f) => fields[f] ?? 0);
}

const values = (list) => (list || []).map((x) => x.values || []);

// per region {owner, count, mark}: owner -1 for none, `players` for the neutral
export function deck(description, name) {
  return (description?.decks || []).find((d) => d.name === name);
}

// description: the variant's DescribeVariant (its decks say what a card shows)
export function pieces(variant, view, size, description) {
  const v = view?.[caseOf(variant)];
  const out = Array.from({ length: size }, () => ({ owner: -1, count: 0, mark: "" }));
  if (!v) return out;
  if (variant === "classic" || variant === "legacy") {
    const counts = variant === "classic" ? v.armies : v.troops;
    for (let i = 0; i < size; i++) {
      out[i].owner = v.owner?.[i] ?? -1;
      out[i].count = counts?.[i] ?? 0;
      if (variant === "legacy" && (v.hqs || []).includes(i)) out[i].mark = "★";
    }
  } else if (variant === "deep_space") {
    values(v.recruits).forEach((perNode, seat) => perNode.forEach((n, node) => {
      if (node < size && n > out[node].count) out[node] = { owner: seat, count: n, mark: "" };
    }));
    values(v.bases).forEach((planets) => planets.forEach((p) => {
      if (p < size) out[p].mark = "⌂";
    }));
  } else if (variant === "strike") {
    // each seat's continent cards, counted by the continent the deck says each shows; the
    // coin's holder owns the continent, else the seat with the most of its cards
    const continentOf = new Map((deck(description, "continent")?.cards || [])
      .map((card) => [card.id ?? 0, card.region ?? 0]));
    const held = Array.from({ length: size }, () => new Map());
    values(v.continents).forEach((cards, seat) => cards.forEach((card) => {
      const c = continentOf.get(card) ?? -1;
      if (c >= 0 && c < size) held[c].set(seat, (held[c].get(seat) || 0) + 1);
    }));
    held.forEach((bySeat, c) => {
      const coin = v.coins?.[c] ?? -1;
      const most = [...bySeat].sort((a, b) => b[1] - a[1])[0];
      out[c] = { owner: coin >= 0 ? coin : most ? most[0] : -1,
        count: [...bySeat.values()].reduce((a, b) => a + b, 0), mark: coin >= 0 ? "◉" : "" };
    });
  }
  return out;
}

// every card's name by id: the hand's deck first where two decks share an id
export function cardNames(variant, description) {
  const names = new Map();
  const decks = [...(description?.decks || [])].sort((a, b) =>
    Number(a.name === handDeck(variant)) - Number(b.name === handDeck(variant)));
  for (const d of decks) {
    for (const c of d.cards || []) names.set(c.id ?? 0, c.name || `card ${c.id ?? 0}`);
  }
  return names;
}

// the deck a hand draws from
export function handDeck(variant) {
  return { classic: "territory", legacy: "resource", deep_space: "action",
    strike: "tactics" }[variant] || "";
}

// the viewer's cards: ids into the deck named `deck`
export function hand(variant, view) {
  const v = view?.[caseOf(variant)];
  if (!v) return { deck: "", cards: [] };
  const name = handDeck(variant);
  if (variant === "deep_space") return { deck: name, cards: values(v.hands)[v.viewer ?? 0] || [] };
  return { deck: name, cards: v.hand || [] };
}

// the open response windows of a view (Strike, Legacy): [{order, passed, stack}]
export function windows(variant, view) {
  return (view?.[caseOf(variant)]?.windows || []).map((w) => ({
    kind: w.kind ?? 0, order: w.order || [], passed: w.passed || [], stack: w.stack || [],
  }));
}

// ---- words for people -------------------------------------------------------------------------
// Every sentence comes from the one text table (text.js: the service's table and the renderer
// the Node client uses, bundled by clients/node/scripts/gen-text.sh; docs/text.md).

const TEXT = new Renderer("en");

// what ids are called in this game: the variant's regions and cards, the seats' display names
// (a seat without one is "seat N"), and the seat this page speaks to as "you" (-1: nobody)
export function textNames(description, seats, viewer = -1) {
  // a seat joined without a name is "seat N" (the lobby's default): the table's own words
  // say that, with a capital where a sentence starts
  const named = (seat, i) => (seat.displayName === `seat ${i}` ? "" : seat.displayName || "");
  return namesOf(description, (seats || []).map(named), (seats || []).length, viewer);
}

export function eventText(variant, event, names) {
  return TEXT.event(event, variant, names);
}

// an action's button label; `maxCount` above the action's count offers a range of counts
export function actionText(variant, action, names, maxCount = 0) {
  return TEXT.action(action, variant, names, maxCount);
}

export function phaseText(variant, kind) {
  return TEXT.phase(variant, kind);
}

// fields that hold a region id (not a count: continentBonus, continentCards, territories)
const REGION_KEY = new RegExp("^(territory|fromTerritory|toTerritory|bonusTerritory|continent|" +
  "fromContinent|toContinent|planet|origin|destination|station|fromPlanet|toPlanet|payFrom|" +
  "recruitFrom)$");

// the regions an event names (a replay marks them)
export function regionsNamed(variant, event) {
  const body = event[caseOf(variant)];
  if (!body) return [];
  const [kind] = Object.keys(body);
  return Object.entries(body[kind] || {}).filter(([k, v]) => REGION_KEY.test(k) &&
    typeof v === "number" && v >= 0).map(([, v]) => v);
}
