// The words of the play view's panels (totals, what is left to place, dice, clocks, the
// your-turn alert, resign), rendered by the one text renderer (text.js, docs/text.md) in the
// same ICU MessageFormat subset as the text table, so a translation is one more locale here.
// They are kept beside the table rather than in it (service/rules/risk_rules/text/en.json)
// while that table is being reworked: moving this block into its "words" is a copy, since
// `panelText` already looks a key up in the table first.

import { Renderer } from "./text.js";

const PANEL_WORDS = {
  en: {
    "panel.players": "Players",
    "panel.player": "Player",
    "panel.territories": "Territories",
    "panel.planets": "Planets held",
    "panel.armies": "Armies",
    "panel.troops": "Troops",
    "panel.recruits": "Recruits on the board",
    "panel.cards": "Cards",
    "panel.toPlaceStart": "Starting armies left",
    "panel.supply": "Supply",
    "panel.bases": "Bases",
    "panel.gems": "Gems",
    "panel.ore": "Ore",
    "panel.redStars": "Red stars",
    "panel.missiles": "Missiles",
    "panel.faction": "Faction",
    "panel.hqs": "Headquarters",
    "panel.coins": "Coins",
    "panel.faction.LEGACY_FACTION_DIE_MECHANIKER": "Die Mechaniker",
    "panel.faction.LEGACY_FACTION_ENCLAVE_OF_THE_BEAR": "Enclave of the Bear",
    "panel.faction.LEGACY_FACTION_IMPERIAL_BALKANIA": "Imperial Balkania",
    "panel.faction.LEGACY_FACTION_KHAN_INDUSTRIES": "Khan Industries",
    "panel.faction.LEGACY_FACTION_SAHARAN_REPUBLIC": "Saharan Republic",
    "panel.continentCards": "Continent cards",
    "panel.tactics": "Tactics cards",
    "panel.out": "out",
    "panel.you": "{name} (you)",
    "panel.placeNow": "{seat} {n, plural, one {has # army} other {has # armies}} to place now",
    "panel.placeNowYou": "You have {n, plural, one {# army} other {# armies}} to place now",
    "panel.reinforcements": "{seat} received {n, plural, one {# army} other {# armies}} this turn ({bonus} from continents)",
    "panel.recruited": "{seat} recruited {n, plural, one {# troop} other {# troops}} this turn ({bonus} from continents)",
    "panel.movesLeft": "{n, plural, one {# move} other {# moves}} left this turn",
    "panel.bank": "Bank: {gems, plural, one {# gem} other {# gems}} and {ore} ore",
    "panel.world": "This world",
    "panel.scars": "{n, plural, =0 {No scars} one {# scarred territory} other {# scarred territories}}",
    "panel.cities": "{n, plural, =0 {No cities} one {# city} other {# cities}} (population {people})",
    "panel.fortified": "{n, plural, =0 {No fortifications} one {# fortified territory} other {# fortified territories}}",
    "panel.decks": "Deck: {n, plural, one {# card} other {# cards}} left",
    "panel.nextTrade": "The next set traded is worth {n} armies",
    "panel.battle": "Battle",
    "panel.battleLine": "{attacker} attacks {to}, held by {defender}, from {from}",
    "panel.battleRolls": "{n, plural, =0 {No roll yet} one {# roll so far} other {# rolls so far}}",
    "panel.side.1": "attacking",
    "panel.side.2": "defending",
    "panel.troopsOf": "{seat}: {n, plural, one {# troop} other {# troops}} ({side})",
    "panel.dice": "Dice of the last battle",
    "panel.diceNone": "No battle yet",
    "panel.attacker": "Attacker",
    "panel.defender": "Defender",
    "panel.die": "a die showing {n}",
    "panel.clocks": "Clock",
    "panel.deadline": "{seat} must decide within {left}",
    "panel.deadlineYou": "You must decide within {left}",
    "panel.turnDue": "{seat}'s turn is due by {time}: {left} left",
    "panel.turnDueYou": "Your turn is due by {time}: {left} left",
    "panel.overdue": "The time to decide is up; the service acts at once",
    "panel.timeBank": "Time bank of {seat}: {left}",
    "panel.untimed": "No clock: take your time",
    "panel.yourTurnTitle": "Your turn · {title}",
    "panel.yourTurnNote": "Your turn in {title}",
    "panel.alertsAsk": "Tell me when it is my turn",
    "panel.alertsOn": "This browser tells you when it is your turn",
    "panel.alertsDenied": "This browser does not allow this page's notifications; the tab's title still says when it is your turn",
    "panel.alertsNone": "This browser has no notifications; the tab's title says when it is your turn",
    "panel.resign": "Resign",
    "panel.resignAsk": "Resign from this game? {seat} leaves it for good and cannot come back.",
    "panel.resignAskYou": "Resign from this game? You leave it for good and cannot come back.",
    "panel.resignYes": "Yes, resign",
    "panel.resignNo": "Keep playing",
    "panel.resigned": "{seat} resigned",
  },
};

const TEXT = new Renderer("en");
const OWN = PANEL_WORDS.en;

// a panel's sentence: the table's words where it has the key, else this module's
export function panelText(key, values = {}) {
  if (!(key in TEXT.words)) TEXT.words[key] = OWN[key];
  if (TEXT.words[key] === undefined) throw new Error(`no words for ${key}`);
  return TEXT.fill(key, values);
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

const LOBBY_WORDS = {
  "lobby.title": "{variant} for {n} · {name}",
  "lobby.titleNoName": "{variant} for {n}",
  "lobby.players": "{n, plural, one {# player} other {# players}}",
  "lobby.openSeat": "open seat {n}",
  "lobby.seatN": "seat {n}",
  "lobby.openCount": "{n, plural, =0 {} one { (# open)} other { (# open)}}",
  "lobby.invite": "invitation links",
};
Object.assign(OWN, LOBBY_WORDS);

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
