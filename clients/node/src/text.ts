/**
 * Events and actions in sentences for people, from the one text table the service's rules
 * package keeps (service/rules/risk_rules/text: en.json, fields.json; docs/text.md), embedded
 * here by scripts/gen-text.sh as src/text_table.ts. The web app uses this module too: the same
 * script bundles it into service/risk_service/web/text.js.
 *
 * The templates are an ICU MessageFormat subset: `{name}`, `{name, plural, =0 {...} one {...}
 * other {...}}` with `#` for the number, `{name, select, key {...} other {...}}`. This renderer
 * and the Python SDK's (clients/python/risk_client/text.py) are written by hand, line for line
 * alike, because the two must agree byte for byte (a test renders every event and action of
 * every variant with both); see that module for why no MessageFormat library is used.
 *
 * Input: the message as protobuf's JSON mapping (lowerCamelCase, fields without presence
 * written at their default, 64-bit integers as strings): what the HTTP port sends and what
 * `toJson(..., { alwaysEmitImplicit: true })` gives for a message of this client.
 */
import { TEXT_FIELDS, TEXT_TABLES } from "./text_table.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Node = string | ["hash"] | ["arg", string] | ["plural" | "select", string, Record<string, Node[]>];

/** What ids are called in one game, for one viewer (-1: a spectator). */
export interface Names {
  regions: string[];
  cards: Record<string, string>;
  seats: string[];
  players: number;
  viewer: number;
}

/** Names from a DescribeVariant reply as JSON (its map's regions, its decks' cards). */
export function namesOf(description: Json, seats: string[] = [], players = 0, viewer = -1): Names {
  const cards: Record<string, string> = {};
  for (const deck of description?.decks || []) {
    for (const card of deck.cards || []) cards[String(card.id ?? 0)] = card.name || "";
  }
  return { regions: (description?.map?.regions || []).map((r: Json) => r.name || ""), cards,
    seats, players, viewer };
}

// ---- the template language ----------------------------------------------------------------

export function parse(template: string): Node[] {
  const [nodes, at] = message(template, 0, false);
  if (at !== template.length) throw new Error(`unbalanced '}' at ${at} in ${template}`);
  return nodes;
}

function message(s: string, start: number, inPlural: boolean): [Node[], number] {
  const nodes: Node[] = [];
  let text = "";
  let at = start;
  while (at < s.length) {
    const ch = s[at];
    if (ch === "}") break;
    if (ch === "#" && inPlural) {
      if (text) { nodes.push(text); text = ""; }
      nodes.push(["hash"]);
      at += 1;
      continue;
    }
    if (ch !== "{") { text += ch; at += 1; continue; }
    if (text) { nodes.push(text); text = ""; }
    const [node, next] = argument(s, at + 1, inPlural);
    nodes.push(node);
    at = next;
  }
  if (text) nodes.push(text);
  return [nodes, at];
}

function argument(s: string, start: number, inPlural: boolean): [Node, number] {
  const end = s.indexOf("}", start);
  const comma = s.indexOf(",", start);
  if (end < 0) throw new Error(`unclosed '{' in ${s}`);
  if (comma < 0 || comma > end) return [["arg", s.slice(start, end).trim()], end + 1];
  const name = s.slice(start, comma).trim();
  const second = s.indexOf(",", comma + 1);
  const kind = s.slice(comma + 1, second).trim();
  if (kind !== "plural" && kind !== "select") throw new Error(`unknown argument type ${kind} in ${s}`);
  let at = second + 1;
  const cases: Record<string, Node[]> = {};
  for (;;) {
    while (at < s.length && /\s/.test(s[at])) at += 1;
    if (at >= s.length) throw new Error(`unclosed ${kind} in ${s}`);
    if (s[at] === "}") return [[kind, name, cases], at + 1];
    const brace = s.indexOf("{", at);
    const key = s.slice(at, brace).trim();
    const [body, next] = message(s, brace + 1, kind === "plural" || inPlural);
    if (next >= s.length || s[next] !== "}") throw new Error(`unclosed case ${key} in ${s}`);
    cases[key] = body;
    at = next + 1;
  }
}

interface Arg {
  text: (atStart: boolean) => string;
  key: string;
  count: number;
  hash: string;
}

// CLDR's plural category for English ("one-other"), the one locale so far
function pluralCategory(n: number): string {
  return n === 1 ? "one" : "other";
}

function format(nodes: Node[], resolve: (name: string) => Arg, out: string[], hashed?: Arg): void {
  for (const node of nodes) {
    if (typeof node === "string") {
      out.push(node);
    } else if (node[0] === "hash") {
      out.push(hashed ? hashed.hash : "#");
    } else if (node[0] === "arg") {
      out.push(resolve(node[1]).text(!out.join("")));
    } else {
      const [kind, name, cases] = node;
      const arg = resolve(name);
      if (kind === "plural") {
        const exact = `=${arg.hash}`;
        const chosen = exact in cases ? cases[exact]
          : cases[pluralCategory(arg.count)] ?? cases.other ?? [];
        format(chosen || [], resolve, out, arg);
      } else {
        format(cases[arg.key] ?? cases.other ?? [], resolve, out, hashed);
      }
    }
  }
}

// ---- placeholders -------------------------------------------------------------------------

const isInt = (text: string) => /^-?\d+$/.test(text);
const intOr = (value: Json, fallback: number) =>
  typeof value === "number" && Number.isInteger(value) ? value : fallback;
const wordsOf = (name: string) => name.toLowerCase().replaceAll("_", " ");
const pad = (n: number) => String(n).padStart(2, "0");

function caseOf(variant: string): string {
  const [head, ...rest] = variant.split("_");
  return head + rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

function only(body: Json): [string, Json] {
  for (const [kind, inner] of Object.entries(body || {})) {
    return [kind, inner && typeof inner === "object" && !Array.isArray(inner) ? inner : {}];
  }
  return ["", {}];
}

function selectKey(of: string, value: Json, names: Names): string {
  if (value === undefined || value === null) return "none";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    return value.every((v) => typeof v === "number" && v < 0) ? "hidden" : "some";
  }
  if (of === "seat" && typeof value === "number") {
    if (names.viewer >= 0 && value === names.viewer) return "you";
    if (value < 0) return "none";
    return names.players > 0 && value === names.players ? "neutral" : String(value);
  }
  if ((of === "region" || of === "card" || of === "position") && typeof value === "number" &&
    value < 0) return "none";
  if (typeof value === "string" && !value) return "none";
  return String(value);
}

/** One locale's table, rendering for every variant's messages. */
export class Renderer {
  readonly table: Json;
  readonly words: Record<string, string>;
  private parsed = new Map<string, Node[]>();

  constructor(locale = "en") {
    const words = TEXT_TABLES[locale];
    if (!words) throw new Error(`no text for locale ${locale}`);
    this.table = { ...words, fields: TEXT_FIELDS };
    this.words = this.table.words;
  }

  private nodes(template: string): Node[] {
    let nodes = this.parsed.get(template);
    if (!nodes) { nodes = parse(template); this.parsed.set(template, nodes); }
    return nodes;
  }

  /** One of the table's words with plain values ("seat {n}", "{n} hidden cards"). */
  fill(key: string, values: Record<string, string | number>): string {
    const resolve = (name: string): Arg => {
      const value = values[name] ?? "";
      const text = String(value);
      const count = typeof value === "number" ? value : 0;
      return { text: () => text, key: text, count, hash: text };
    };
    const out: string[] = [];
    format(this.nodes(this.words[key]), resolve, out);
    return out.join("");
  }

  join(items: string[]): string {
    if (!items.length) return this.words.none;
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(this.words.listSeparator) + this.words.listLast + items[items.length - 1];
  }

  seat(value: number, names: Names, atStart: boolean): string {
    if (names.viewer >= 0 && value === names.viewer) return this.words[atStart ? "youAtStart" : "you"];
    const start = atStart ? "AtStart" : "";
    if (value < 0) return this.words["noOne" + start];
    if (names.players > 0 && value === names.players) return this.words["neutral" + start];
    if (value < names.seats.length && names.seats[value]) return names.seats[value];
    return this.fill("seat" + start, { n: value });
  }

  private section(variant: string, name: string): Json {
    return this.table.variants[variant]?.[name] || {};
  }

  private lookup(variant: string, section: string, key: string): Json {
    const own = this.section(variant, section);
    if (key in own) return own[key];
    return this.table.shared[section]?.[key];
  }

  spec(variant: string, kind: string, name: string): Json {
    const fields = this.table.fields;
    const own = fields.variants[variant] || {};
    for (const where of [own, fields.shared]) {
      for (const key of [`${kind}.${name}`, name]) {
        if (key in where) {
          const found = where[key];
          return typeof found === "string" ? { kind: found } : { ...found };
        }
      }
    }
    return null;
  }

  argument(variant: string, kind: string, name: string, args: Record<string, Json>, names: Names,
    maxCount: number): Arg {
    let value = args[name];
    const spec = this.spec(variant, kind, name);
    const of: string = spec ? spec.kind : "";
    const words = this.words;
    if (typeof value === "string" && !["enum", "reason", "name"].includes(of) && isInt(value)) {
      value = Number(value); // 64-bit integers arrive as strings
    }
    if (Array.isArray(value)) value = value.map((v) => (typeof v === "string" && isInt(v) ? Number(v) : v));

    let key = selectKey(of, value, names);
    let count = Array.isArray(value) ? value.length : typeof value === "number" ? value : 0;
    let hashText = String(count);
    if (name === "count" && maxCount > count) {
      hashText = this.fill("range", { low: String(count), high: maxCount });
      count = maxCount;
      key = "range";
    }

    const text = (atStart: boolean): string => {
      if (key === "range") return hashText;
      if ((value === undefined || value === null) && !["seat", "region", "card"].includes(of)) {
        return words.none; // a message field left unset
      }
      if (of === "seat") return this.seat(intOr(value, -1), names, atStart);
      if (of === "seats") return this.join((value || []).map((v: number) => this.seat(v, names, false)));
      if (of === "region") {
        const v = intOr(value, -1);
        if (v < 0) return words[spec?.none ?? "nowhere"];
        return v < names.regions.length ? names.regions[v] : this.fill("region", { n: v });
      }
      if (of === "card") return this.card(intOr(value, -1), names, spec || {});
      if (of === "cards") {
        const cards: number[] = value || [];
        if (!cards.length) return words.none;
        if (!("hidden" in (spec || {})) && cards.every((c) => c < 0)) {
          return this.fill("hiddenCards", { n: cards.length });
        }
        return this.join(cards.map((c) => this.card(c, names, spec || {})));
      }
      if (of === "enum") {
        const found = this.lookup(variant, "enums", String(value));
        return found !== undefined && found !== null ? String(found) : wordsOf(String(value));
      }
      if (of === "reason") {
        const own = spec ? this.section(variant, "reasons")[spec.set] || {} : {};
        const shared = spec ? this.table.shared.reasons[spec.set] || {} : {};
        const said = own[value] ?? shared[value];
        return said !== undefined && said !== null ? String(said) : wordsOf(String(value));
      }
      if (of === "numbered") {
        const sets = (spec ? this.lookup(variant, "numbered", spec.set) : null) || {};
        return String(sets[String(value)] ?? sets.other ?? words.none);
      }
      if (of === "position") {
        const v = intOr(value, -1);
        return v < 0 ? words.none : String(v + 1);
      }
      if (of === "positions") return this.join((value || []).map((v: number) => String(v + 1)));
      if (of === "tally") {
        const held = new Map<number, number>();
        for (const owner of value || []) if (owner >= 0) held.set(owner, (held.get(owner) || 0) + 1);
        return this.join([...held.keys()].sort((a, b) => a - b).map((s) => this.fill("tallyEach", {
          seat: this.seat(s, names, false), count: held.get(s) || 0 })));
      }
      if (of === "seatRolls") {
        const seats: Json[] = args.seats || [];
        const rolls: Json[] = value || [];
        return this.join(seats.slice(0, rolls.length).map((s, i) => this.fill("seatRoll", {
          seat: this.seat(s, names, false), roll: rolls[i] })));
      }
      if (of === "time") {
        const moment = new Date(intOr(value, 0));
        return this.fill("time", {
          date: `${moment.getUTCFullYear()}-${pad(moment.getUTCMonth() + 1)}-${pad(moment.getUTCDate())}`,
          clock: `${pad(moment.getUTCHours())}:${pad(moment.getUTCMinutes())}` });
      }
      if (of === "duration") return this.duration(intOr(value, 0));
      if (of === "name") return value ? String(value) : words.none;
      if (of === "numbers" || Array.isArray(value)) {
        return this.join((value || []).map((v: Json) => String(v)));
      }
      if (value === undefined || value === null) return words.none;
      if (typeof value === "boolean") return words[value ? "yes" : "no"];
      return String(value);
    };
    return { text, key, count, hash: hashText };
  }

  card(value: number, names: Names, spec: Json): string {
    if (value < 0) return this.words[spec.hidden ?? "hiddenCard"];
    return names.cards[String(value)] || this.fill("card", { n: value });
  }

  /** A span in its largest unit and the next one: "2 days 3 hours", "5 minutes". */
  duration(ms: number): string {
    const seconds = Math.max(0, Math.floor(ms / 1000));
    const units: [string, number][] = [["days", 86400], ["hours", 3600], ["minutes", 60], ["seconds", 1]];
    for (let i = 0; i < units.length; i++) {
      const [unit, size] = units[i];
      if (seconds >= size || unit === "seconds") {
        const amount = Math.floor(seconds / size);
        const rest = seconds % size;
        const parts = [this.fill(`duration.${unit}`, { n: amount })];
        if (i + 1 < units.length && Math.floor(rest / units[i + 1][1])) {
          parts.push(this.fill(`duration.${units[i + 1][0]}`, { n: Math.floor(rest / units[i + 1][1]) }));
        }
        return parts.join(" ");
      }
    }
    return "";
  }

  /** The sentence for one event or action body (`section`: events, actions or lifecycle). */
  render(variant: string, section: string, kind: string, fields: Json, names: Names, maxCount = 0): string {
    const template = section === "lifecycle" ? this.table.shared.lifecycle[kind]
      : this.lookup(variant, section, kind);
    if (template === undefined || template === null) {
      return this.words[section === "actions" ? "unknownAction" : "unknownEvent"];
    }
    const args: Record<string, Json> = {};
    for (const [key, value] of Object.entries(fields || {})) {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        for (const [inner, item] of Object.entries(value)) args[`${key}.${inner}`] = item;
      } else {
        args[key] = value;
      }
    }
    const out: string[] = [];
    format(this.nodes(template), (name) => this.argument(variant, kind, name, args, names, maxCount), out);
    return out.join("");
  }

  /** An Event as protobuf's JSON mapping writes it. */
  event(event: Json, variant: string, names: Names): string {
    if (event.lifecycle) {
      const [kind, body] = only(event.lifecycle);
      return this.render(variant, "lifecycle", kind, body, names);
    }
    const body = event[caseOf(variant)];
    if (!body) return this.words.unknownEvent;
    const [kind, inner] = only(body);
    return this.render(variant, "events", kind, inner, names);
  }

  action(action: Json, variant: string, names: Names, maxCount = 0): string {
    const body = action[caseOf(variant)];
    if (!body) return this.words.unknownAction;
    const [kind, inner] = only(body);
    return this.render(variant, "actions", kind, inner, names, maxCount);
  }

  /** A refusal in words: the table's sentence for the service's (or the engine's) reason,
   * else the service's own message. */
  error(reason: string, message = ""): string {
    const said = this.table.shared.errors?.[reason];
    return said !== undefined && said !== null ? String(said) : message || this.words.unknownError;
  }

  /** A game option's label ("turn limit"), by its name in the Options message. */
  option(variant: string, name: string): string {
    const found = this.lookup(variant, "options", name);
    return found !== undefined && found !== null ? String(found) : wordsOf(name);
  }

  /** An enum value in words (an option's choice, a side, a resource), by its name. */
  enum(variant: string, value: string): string {
    const found = this.lookup(variant, "enums", value);
    return found !== undefined && found !== null ? String(found) : wordsOf(value);
  }

  phase(variant: string, kind: string): string {
    const found = this.lookup(variant, "phases", kind);
    return found !== undefined && found !== null ? String(found) : wordsOf(kind);
  }
}
