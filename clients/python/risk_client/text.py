"""Events and actions in sentences for people, from the one text table (`risk_rules.text`).

The table's templates are an ICU MessageFormat subset (docs/text.md): `{name}`, `{name,
plural, =0 {...} one {...} other {...}}` with `#` for the number, and `{name, select, key
{...} other {...}}`. This renderer and the JavaScript one (clients/node/src/text.ts, which the
web app and the Node client use) are written by hand, line for line alike, because the two
must agree byte for byte on every sentence (a test renders every event and action of every
variant with both): a MessageFormat library on each side (messageformat in JavaScript,
babel's plural rules in Python) would have two implementations of plural categories, list
joining and our placeholder kinds (seats, regions, cards, dice) to keep in step, and the
subset used here is a small parser.

Both take the same input: the message as protobuf's JSON mapping (lowerCamelCase names,
every field without presence written even at its default, 64-bit integers as strings), which
is what the HTTP port writes and the web app reads, and `Names`: what ids are called in this
game (regions and cards from DescribeVariant, seats from the game's summary, the viewer).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from risk_proto.risk.v1 import game_pb2, variant_pb2
from risk_rules.text import table as text_table

Node = str | tuple[Any, ...]


@dataclass(frozen=True)
class Names:
    """What ids are called in one game, for one viewer (-1: a spectator)."""

    regions: Sequence[str] = ()
    cards: Mapping[int, str] = field(default_factory=dict)
    seats: Sequence[str] = ()
    players: int = 0
    viewer: int = -1

    @classmethod
    def of(cls, description: variant_pb2.VariantDescription | None, seats: Sequence[str] = (),
           players: int = 0, viewer: int = -1) -> Names:
        """Names from a variant's DescribeVariant reply and the game's seats."""
        if description is None:
            return cls(seats=tuple(seats), players=players, viewer=viewer)
        cards = {c.id: c.name for deck in description.decks for c in deck.cards}
        return cls(tuple(r.name for r in description.map.regions), cards, tuple(seats),
                   players, viewer)

    def as_json(self) -> dict[str, Any]:
        """The same names as the JavaScript renderer takes them."""
        return {"regions": list(self.regions),
                "cards": {str(k): v for k, v in sorted(self.cards.items())},
                "seats": list(self.seats), "players": self.players, "viewer": self.viewer}


# ---- the template language ---------------------------------------------------------------------


def parse(template: str) -> list[Node]:
    """Text, ("arg", name), ("plural"|"select", name, {key: nodes}) and ("hash",) nodes."""
    nodes, at = _message(template, 0, False)
    if at != len(template):
        raise ValueError(f"unbalanced '}}' at {at} in {template!r}")
    return nodes


def _message(s: str, at: int, in_plural: bool) -> tuple[list[Node], int]:
    nodes: list[Node] = []
    text = ""
    while at < len(s):
        ch = s[at]
        if ch == "}":
            break
        if ch == "#" and in_plural:
            if text:
                nodes.append(text)
                text = ""
            nodes.append(("hash",))
            at += 1
            continue
        if ch != "{":
            text += ch
            at += 1
            continue
        if text:
            nodes.append(text)
            text = ""
        node, at = _argument(s, at + 1, in_plural)
        nodes.append(node)
    if text:
        nodes.append(text)
    return nodes, at


def _argument(s: str, at: int, in_plural: bool) -> tuple[Node, int]:
    end = s.find("}", at)
    comma = s.find(",", at)
    if end < 0:
        raise ValueError(f"unclosed '{{' in {s!r}")
    if comma < 0 or comma > end:
        return ("arg", s[at:end].strip()), end + 1
    name = s[at:comma].strip()
    second = s.find(",", comma + 1)
    kind = s[comma + 1:second].strip()
    if kind not in ("plural", "select"):
        raise ValueError(f"unknown argument type {kind!r} in {s!r}")
    at = second + 1
    cases: dict[str, list[Node]] = {}
    while True:
        while at < len(s) and s[at].isspace():
            at += 1
        if at >= len(s):
            raise ValueError(f"unclosed {kind} in {s!r}")
        if s[at] == "}":
            return (kind, name, cases), at + 1
        brace = s.find("{", at)
        key = s[at:brace].strip()
        body, at = _message(s, brace + 1, kind == "plural" or in_plural)
        if at >= len(s) or s[at] != "}":
            raise ValueError(f"unclosed case {key!r} in {s!r}")
        cases[key] = body
        at += 1


@dataclass
class _Arg:
    """One placeholder's value as the template may use it."""

    text: Callable[[bool], str]  # the words, told whether they start the sentence
    key: str  # the select key
    count: float  # the plural number
    hash: str  # what '#' shows


def _plural_category(n: float) -> str:
    """CLDR's plural category for English ("one-other"), the one locale so far."""
    return "one" if n == 1 else "other"


def _format(nodes: Sequence[Node], resolve: Callable[[str], _Arg], out: list[str],
            hashed: _Arg | None = None) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif node[0] == "hash":
            out.append(hashed.hash if hashed else "#")
        elif node[0] == "arg":
            out.append(resolve(node[1]).text(not "".join(out)))
        else:
            kind, name, cases = node
            arg = resolve(name)
            if kind == "plural":
                exact = f"={arg.hash}"
                chosen = cases.get(exact) if exact in cases else cases.get(
                    _plural_category(arg.count), cases.get("other", []))
                _format(chosen or [], resolve, out, arg)
            else:
                _format(cases.get(arg.key, cases.get("other", [])), resolve, out, hashed)


# ---- placeholders ------------------------------------------------------------------------------


class Renderer:
    """One locale's table, rendering for one variant's messages."""

    def __init__(self, locale: str = "en") -> None:
        self.table = text_table(locale)
        self.words: dict[str, str] = self.table["words"]
        self._parsed: dict[str, list[Node]] = {}

    def _nodes(self, template: str) -> list[Node]:
        if template not in self._parsed:
            self._parsed[template] = parse(template)
        return self._parsed[template]

    def fill(self, key: str, values: Mapping[str, object]) -> str:
        """One of the table's words with plain values ("seat {n}", "{n} hidden cards")."""
        def resolve(name: str) -> _Arg:
            value = values.get(name, "")
            text = str(value)
            count = float(value) if isinstance(value, int | float) else 0.0
            return _Arg(lambda _start: text, text, count, text)
        out: list[str] = []
        _format(self._nodes(self.words[key]), resolve, out)
        return "".join(out)

    def join(self, items: Sequence[str]) -> str:
        if not items:
            return self.words["none"]
        if len(items) == 1:
            return items[0]
        return self.words["listSeparator"].join(items[:-1]) + self.words["listLast"] + items[-1]

    def seat(self, value: int, names: Names, at_start: bool) -> str:
        if names.viewer >= 0 and value == names.viewer:
            return self.words["youAtStart" if at_start else "you"]
        start = "AtStart" if at_start else ""
        if value < 0:
            return self.words["noOne" + start]
        if names.players > 0 and value == names.players:
            return self.words["neutral" + start]
        if value < len(names.seats) and names.seats[value]:
            return names.seats[value]
        return self.fill("seat" + start, {"n": value})

    def _section(self, variant: str, name: str) -> dict[str, Any]:
        section: dict[str, Any] = self.table["variants"].get(variant, {}).get(name, {})
        return section

    def _lookup(self, variant: str, section: str, key: str) -> Any:
        own = self._section(variant, section)
        if key in own:
            return own[key]
        return self.table["shared"].get(section, {}).get(key)

    def spec(self, variant: str, kind: str, name: str) -> dict[str, Any] | None:
        fields = self.table["fields"]
        own = fields["variants"].get(variant, {})
        for where in (own, fields["shared"]):
            for key in (f"{kind}.{name}", name):
                if key in where:
                    found = where[key]
                    return {"kind": found} if isinstance(found, str) else dict(found)
        return None

    def argument(self, variant: str, kind: str, name: str, args: Mapping[str, Any], *,
                 names: Names, max_count: int) -> _Arg:
        value = args.get(name)
        spec = self.spec(variant, kind, name)
        of = spec["kind"] if spec else ""
        words = self.words
        if isinstance(value, str) and of not in ("enum", "reason", "name") and _is_int(value):
            value = int(value)  # 64-bit integers arrive as strings
        if isinstance(value, list):
            value = [int(v) if isinstance(v, str) and _is_int(v) else v for v in value]

        key = _select_key(of, value, names)
        count = float(len(value)) if isinstance(value, list) else (
            float(value) if isinstance(value, int | float) and not isinstance(value, bool)
            else 0.0)
        hash_text = _number(count)
        if name == "count" and max_count > count:
            hash_text = self.fill("range", {"low": _number(count), "high": max_count})
            count = float(max_count)
            key = "range"

        def text(at_start: bool) -> str:
            if key == "range":
                return hash_text
            if value is None and of not in ("seat", "region", "card"):
                return words["none"]  # a message field left unset
            if of == "seat":
                return self.seat(_int(value, -1), names, at_start)
            if of == "seats":
                return self.join([self.seat(v, names, False) for v in value or []])
            if of == "region":
                v = _int(value, -1)
                if v < 0:
                    return words[spec.get("none", "nowhere") if spec else "nowhere"]
                return names.regions[v] if v < len(names.regions) else self.fill(
                    "region", {"n": v})
            if of == "card":
                return self.card(_int(value, -1), names, spec or {})
            if of == "cards":
                cards = value or []
                if not cards:
                    return words["none"]
                if "hidden" not in (spec or {}) and all(c < 0 for c in cards):
                    return self.fill("hiddenCards", {"n": len(cards)})
                return self.join([self.card(c, names, spec or {}) for c in cards])
            if of == "enum":
                found = self._lookup(variant, "enums", str(value))
                return str(found) if found is not None else _words_of(str(value))
            if of == "reason":
                own = self._section(variant, "reasons").get(spec["set"], {}) if spec else {}
                shared = self.table["shared"]["reasons"].get(spec["set"], {}) if spec else {}
                said = own.get(value, shared.get(value))
                return str(said) if said is not None else _words_of(str(value))
            if of == "numbered":
                sets = self._lookup(variant, "numbered", spec["set"]) if spec else None
                sets = sets or {}
                return str(sets.get(str(value), sets.get("other", words["none"])))
            if of == "position":
                v = _int(value, -1)
                return words["none"] if v < 0 else str(v + 1)
            if of == "positions":
                return self.join([str(v + 1) for v in value or []])
            if of == "tally":
                held: dict[int, int] = {}
                for owner in value or []:
                    if owner >= 0:
                        held[owner] = held.get(owner, 0) + 1
                return self.join([self.fill("tallyEach", {
                    "seat": self.seat(s, names, False), "count": held[s]}) for s in sorted(held)])
            if of == "seatRolls":
                seats = args.get("seats") or []
                return self.join([self.fill("seatRoll", {
                    "seat": self.seat(s, names, False), "roll": r})
                    for s, r in zip(seats, value or [], strict=False)])
            if of == "time":
                moment = datetime.fromtimestamp(_int(value, 0) / 1000, UTC)
                return self.fill("time", {"date": moment.strftime("%Y-%m-%d"),
                                          "clock": moment.strftime("%H:%M")})
            if of == "duration":
                return self.duration(_int(value, 0))
            if of == "name":
                return str(value) if value else words["none"]
            if of == "numbers" or isinstance(value, list):
                return self.join([_number(v) for v in value or []])
            if value is None:
                return words["none"]
            if isinstance(value, bool):
                return words["yes" if value else "no"]
            if isinstance(value, int | float):
                return _number(value)
            return str(value)

        return _Arg(text, key, count, hash_text)

    def card(self, value: int, names: Names, spec: Mapping[str, Any]) -> str:
        if value < 0:
            return self.words[spec.get("hidden", "hiddenCard")]
        return names.cards.get(value) or self.fill("card", {"n": value})

    def duration(self, ms: int) -> str:
        """A span in its largest unit and the next one: "2 days 3 hours", "5 minutes"."""
        seconds = max(0, ms // 1000)
        units = (("days", 86400), ("hours", 3600), ("minutes", 60), ("seconds", 1))
        for i, (unit, size) in enumerate(units):
            if seconds >= size or unit == "seconds":
                amount, rest = divmod(seconds, size)
                parts = [self.fill(f"duration.{unit}", {"n": amount})]
                if i + 1 < len(units) and rest // units[i + 1][1]:
                    parts.append(self.fill(f"duration.{units[i + 1][0]}",
                                           {"n": rest // units[i + 1][1]}))
                return " ".join(parts)
        return ""

    def render(self, variant: str, section: str, kind: str, fields: Mapping[str, Any], *,
               names: Names, max_count: int = 0) -> str:
        """The sentence for one event or action body (`section`: events, actions or
        lifecycle), its fields as protobuf's JSON mapping writes them."""
        if section == "lifecycle":
            template = self.table["shared"]["lifecycle"].get(kind)
        else:
            template = self._lookup(variant, section, kind)
        if template is None:
            return self.words["unknownAction" if section == "actions" else "unknownEvent"]
        args: dict[str, Any] = {}
        for key, value in fields.items():
            if isinstance(value, dict):
                for inner, item in value.items():
                    args[f"{key}.{inner}"] = item
            else:
                args[key] = value
        out: list[str] = []
        _format(self._nodes(template), lambda name: self.argument(
            variant, kind, name, args, names=names, max_count=max_count), out)
        return "".join(out)

    # ---- messages ------------------------------------------------------------------------------

    def event(self, event: Mapping[str, Any], variant: str, names: Names) -> str:
        """An Event as protobuf's JSON mapping writes it."""
        if "lifecycle" in event:
            kind, body = _only(event["lifecycle"])
            return self.render(variant, "lifecycle", kind, body, names=names)
        case = _case(variant)
        if case not in event:
            return self.words["unknownEvent"]
        kind, body = _only(event[case])
        return self.render(variant, "events", kind, body, names=names)

    def action(self, action: Mapping[str, Any], variant: str, names: Names,
               max_count: int = 0) -> str:
        case = _case(variant)
        if case not in action:
            return self.words["unknownAction"]
        kind, body = _only(action[case])
        return self.render(variant, "actions", kind, body, names=names, max_count=max_count)

    def error(self, reason: str, message: str = "") -> str:
        """A refusal in words: the table's sentence for the service's (or the engine's)
        reason, else the service's own message."""
        said = self.table["shared"].get("errors", {}).get(reason)
        return str(said) if said is not None else message or self.words["unknownError"]

    def option(self, variant: str, name: str) -> str:
        """A game option's label ("turn limit"), by its name in the Options message."""
        found = self._lookup(variant, "options", name)
        return str(found) if found is not None else _words_of(name)

    def enum(self, variant: str, value: str) -> str:
        """An enum value in words (an option's choice, a side, a resource), by its name."""
        found = self._lookup(variant, "enums", value)
        return str(found) if found is not None else _words_of(value)

    def phase(self, variant: str, kind: str) -> str:
        found = self._lookup(variant, "phases", kind)
        return str(found) if found is not None else _words_of(kind)


def _case(variant: str) -> str:
    head, *rest = variant.split("_")
    return head + "".join(part.title() for part in rest)


def _only(body: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    for kind, inner in body.items():
        return kind, inner if isinstance(inner, dict) else {}
    return "", {}


def _select_key(of: str, value: Any, names: Names) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if not value:
            return "none"
        return "hidden" if all(isinstance(v, int) and v < 0 for v in value) else "some"
    if of == "seat" and isinstance(value, int):
        if names.viewer >= 0 and value == names.viewer:
            return "you"
        if value < 0:
            return "none"
        return "neutral" if names.players > 0 and value == names.players else str(value)
    if of in ("region", "card", "position") and isinstance(value, int) and value < 0:
        return "none"
    if isinstance(value, str) and not value:
        return "none"
    return _number(value) if isinstance(value, int | float) else str(value)


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _number(value: float) -> str:
    """A number as JavaScript's String() writes it (no ".0" on a whole number)."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return str(value)


def _words_of(name: str) -> str:
    return name.lower().replace("_", " ")


# ---- protobuf messages in, sentences out -------------------------------------------------------


def as_json(message: Message) -> dict[str, Any]:
    """A message as the HTTP port's JSON writes it (every field without presence included)."""
    data: dict[str, Any] = json_format.MessageToDict(
        message, always_print_fields_with_no_presence=True)
    return data


_DEFAULT = Renderer()


def event_text(event: game_pb2.Event, variant: str, names: Names) -> str:
    return _DEFAULT.event(as_json(event), variant, names)


def action_text(action: game_pb2.Action, names: Names, max_count: int = 0) -> str:
    variant = action.WhichOneof("variant") or ""
    return _DEFAULT.action(as_json(action), variant, names, max_count)


def phase_text(variant: str, kind: str) -> str:
    return _DEFAULT.phase(variant, kind)


def error_text(reason: str, message: str = "") -> str:
    return _DEFAULT.error(reason, message)


def outcome_text(variant: str, winner: int, ranking: Sequence[int], reason: str,
                 names: Names) -> str:
    """A game's end without the event's "Game over: " ("seat 2 won by conquest; ranking:
    seat 2, seat 0 and seat 1")."""
    fields = {"winner": winner, "ranking": list(ranking), "reason": reason}
    return _DEFAULT.render(variant, "outcome", "gameEnded", fields, names=names)
