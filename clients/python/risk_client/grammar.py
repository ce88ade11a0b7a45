"""The command-line action grammar, read off a variant's typed action builders.

A variant's SDK module (`risk_client.strike`, ...) defines one builder per action, named after
the action's case in the contract (`play_spy` for `StrikeAction.play_spy`; a trailing `_` is
dropped, `pass_` is `pass`) and taking the case's fields by their contract names. `Verbs` reads
those signatures once and so knows, for every action of the variant, its verb (`play-spy`),
its words and how to write an action back as words that parse to it again:

- a parameter without a default is positional, in order: a number, a place name (the longest
  run of words naming one, or its id), an enum value by name, or, last, a list of numbers;
- a parameter with a default is given as `name=value` (`planet=Mars`), a flag as its bare name
  (`with-dog`), and is left out of the words when it holds its default.

So the grammar, `risk legal`'s copy-pasteable commands and the SDK cannot drift apart: there is
one list of actions, the builders. What a parameter is comes from its annotation: `int`,
`bool`, `Sequence[int]`, or `Annotated[..., marker]` with one of the markers below.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from google.protobuf.message import Message

from risk_client.places import Places, did_you_mean, name_key
from risk_proto.risk.v1 import game_pb2
from risk_rules import wire

Builder = Callable[..., game_pb2.Action]
USAGE_COLUMN = 36  # where a verb's summary starts in the usage text


@dataclass(frozen=True, eq=False)  # hashed by identity: it marks annotations
class Choice:
    """An enum parameter: `names` maps each value's word (`attacker`) to its number."""

    what: str
    names: Mapping[str, int]

    def find(self, word: str | int) -> int:
        if isinstance(word, int):
            if word in self.names.values():
                return word
            raise ValueError(f"{self.what} must be one of {', '.join(self.names)}")
        for name, value in self.names.items():
            if name_key(name) == name_key(word):
                return value
        raise ValueError(f"no {self.what} {word!r}; one of {', '.join(self.names)}"
                         f"{did_you_mean(word, list(self.names))}")

    def number(self, word: str | int) -> Any:
        """`find`, typed for the generated enum fields (which take any of their numbers)."""
        return self.find(word)

    def name(self, value: int) -> str:
        return next((n for n, v in self.names.items() if v == value), str(value))


@dataclass(frozen=True)
class Labelled:
    """A number shown with a label in descriptions (a card id as "Meteor Strike (card 12)",
    a seat as "seat 2"); the command keeps the number."""

    label: Callable[[int], str]


SEAT = Labelled(lambda seat: f"seat {seat}")
Place = Places  # the marker for a place parameter is the variant's `Places`


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str  # number, flag, numbers, place, choice
    optional: bool  # has a default: `name=value` words, left out at its default
    marker: Any = None  # the Places, Choice or Labelled of the annotation

    @property
    def word(self) -> str:
        return self.name.replace("_", "-")


def _parameter(name: str, hint: Any, has_default: bool) -> Parameter:
    marker = None
    if typing.get_origin(hint) in (types.UnionType, typing.Union):  # `X | None`: optional
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    if typing.get_origin(hint) is Annotated:
        hint, marker = typing.get_args(hint)[:2]
    if typing.get_origin(hint) in (types.UnionType, typing.Union):  # `int | str`: a number
        hint = int
    if isinstance(marker, Places):
        kind = "place"
    elif isinstance(marker, Choice):
        kind = "choice"
    elif hint is bool:
        kind = "flag"
    elif hint is int:
        kind = "number"
    elif typing.get_origin(hint) in (Sequence, list, tuple):
        kind = "numbers"
    else:
        raise TypeError(f"parameter {name}: no words for {hint!r}")
    return Parameter(name, kind, has_default, marker)


@dataclass(frozen=True)
class Verb:
    case: str  # the action's oneof case in the variant's action message
    builder: Builder
    parameters: tuple[Parameter, ...]
    summary: str  # the builder's first docstring line

    @property
    def word(self) -> str:
        return self.case.replace("_", "-")

    def usage(self) -> str:
        words = [self.word]
        for p in self.parameters:
            upper = p.name.upper()
            if p.kind == "numbers":
                words.append(f"{upper}...")
            elif p.kind == "flag":
                words.append(f"[{p.word}]")
            elif p.optional:
                words.append(f"[{p.word}={upper}]")
            else:
                words.append(upper)
        return " ".join(words)


def _verb(builder: Builder) -> Verb:
    hints = typing.get_type_hints(builder, include_extras=True)
    signature = inspect.signature(builder)
    parameters = tuple(
        _parameter(name, hints[name], p.default is not inspect.Parameter.empty)
        for name, p in signature.parameters.items()
    )
    positional = [p for p in parameters if not p.optional]
    if any(p.kind == "numbers" for p in positional[:-1]):
        raise TypeError(f"{builder.__name__}: a list of numbers must be the last positional")
    summary = (inspect.getdoc(builder) or "").splitlines()[0] if builder.__doc__ else ""
    return Verb(builder.__name__.rstrip("_"), builder, parameters, summary)


class Verbs:
    """Every action of one variant as command-line words, from its builders."""

    def __init__(self, case: str, builders: Sequence[Builder]) -> None:
        self.case = case  # the variant's case in the Action envelope
        self.verbs = {verb.case: verb for verb in map(_verb, builders)}
        self._by_word = {name_key(v.case): v for v in self.verbs.values()}

    def usage(self) -> str:
        """One line per verb, its words then what it does (on the next line when long)."""
        lines = []
        for verb in self.verbs.values():
            words = verb.usage()
            if len(words) < USAGE_COLUMN:
                lines.append(f"{words:<{USAGE_COLUMN}}{verb.summary}".rstrip())
            else:
                lines += [words, f"{'':<{USAGE_COLUMN}}{verb.summary}"]
        return "\n".join(lines)

    # ---- words -> action -------------------------------------------------------------------

    def parse(self, words: Sequence[str]) -> game_pb2.Action:
        if not words:
            raise ValueError(f"no action given; one of:\n{self.usage()}")
        verb = self._by_word.get(name_key(words[0]))
        if verb is None:
            known = [v.word for v in self.verbs.values()]
            raise ValueError(f"unknown action {words[0]!r}{did_you_mean(words[0], known)}; "
                             f"one of:\n{self.usage()}")
        try:
            return verb.builder(**_arguments(verb, list(words[1:])))
        except ValueError as exc:
            raise ValueError(f"{exc}\nusage: {verb.usage()}") from None

    # ---- action -> words -------------------------------------------------------------------

    def message(self, action: game_pb2.Action) -> tuple[Verb, Message] | None:
        if action.WhichOneof("variant") != self.case:
            return None
        inner = getattr(action, self.case)
        kind = inner.WhichOneof("kind")
        verb = self.verbs.get(kind) if kind else None
        return (verb, getattr(inner, kind)) if verb and kind else None

    def command(self, action: game_pb2.Action, max_count: int = 0) -> str:
        """The words `parse` reads back as `action` (a count family at its largest count)."""
        found = self.message(action)
        if found is None:
            return f"<not a {self.case} action>"
        verb, message = found
        words = [verb.word]
        for p, value in _values(verb, message, max_count, self.case):
            if p.kind == "flag":
                words.append(p.word)
            elif p.optional:
                words.append(f"{p.word}={_command_value(p, value)}")
            else:
                words.append(_command_value(p, value))
        return " ".join(words)

    def describe(self, action: game_pb2.Action, max_count: int = 0) -> str:
        """The action in words: "play spy: target seat 2", "deploy: side attacker, count 1 to 3"."""
        found = self.message(action)
        if found is None:
            return "(an action this client cannot read)"
        verb, message = found
        parts = []
        for p, value in _values(verb, message, 0, self.case):
            if p.kind == "flag":
                parts.append(p.name.replace("_", " "))
                continue
            text = _described_value(p, value)
            if p.name == "count" and max_count and max_count != value:
                text = f"{value} to {max_count}"
            parts.append(f"{p.name.replace('_', ' ')} {text}")
        head = verb.case.replace("_", " ")
        return f"{head}: {', '.join(parts)}" if parts else head


def _engine_action(case: str, kind: str, message: Message) -> object:
    """What the service makes of `message`: the engine action the wire decodes it to."""
    envelope = game_pb2.Action()
    getattr(getattr(envelope, case), kind).CopyFrom(message)
    return wire.action_from_proto(envelope)[1]


def _redundant(case: str, kind: str, message: Message, name: str) -> bool:
    """Whether leaving the optional field `name` out means the same action (it holds the
    value the rules take when it is unset: -1 for "none", a card's unused count, ...)."""
    trimmed = type(message)()
    trimmed.CopyFrom(message)
    trimmed.ClearField(name)
    return _engine_action(case, kind, trimmed) == _engine_action(case, kind, message)


def _values(verb: Verb, message: Message, max_count: int, case: str
            ) -> list[tuple[Parameter, Any]]:
    """The parameters `message` sets, with their values (optional ones at their default left
    out, so a command carries only what the action needs)."""
    out = []
    for p in verb.parameters:
        value = getattr(message, p.name)
        field = message.DESCRIPTOR.fields_by_name[p.name]
        if p.optional and (
            (field.has_presence and not message.HasField(p.name)) or value is False
            or _redundant(case, verb.case, message, p.name)
        ):
            continue
        if p.name == "count" and max_count:
            value = max_count
        out.append((p, list(value) if p.kind == "numbers" else value))
    return out


def _command_value(p: Parameter, value: Any) -> str:
    if p.kind == "place":
        return str(p.marker.word(value))
    if p.kind == "choice":
        return str(p.marker.name(value))
    if p.kind == "numbers":
        return " ".join(str(v) for v in value)
    return str(value)


def _described_value(p: Parameter, value: Any) -> str:
    if p.kind == "place":
        return str(p.marker.name(value))
    if isinstance(p.marker, Labelled):
        return str(p.marker.label(value))
    return _command_value(p, value)


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"{what} must be a number, got {word!r}") from None


def _flag(word: str, what: str) -> bool:
    key = name_key(word)
    if key in ("yes", "true", "1", "on"):
        return True
    if key in ("no", "false", "0", "off"):
        return False
    raise ValueError(f"{what} is yes or no, got {word!r}")


def _one(p: Parameter, words: list[str], at: int) -> tuple[Any, int]:
    """The value of `p` from `words[at:]` and how many words it took."""
    if p.kind == "place":
        place: int
        place, span = p.marker.read(words, at)
        return place, span
    if p.kind == "choice":
        return p.marker.find(words[at]), 1
    if p.kind == "flag":
        return _flag(words[at], p.word), 1
    return _number(words[at], p.word), 1


def _arguments(verb: Verb, words: list[str]) -> dict[str, Any]:
    by_word = {name_key(p.name): p for p in verb.parameters}
    values: dict[str, Any] = {}
    loose: list[str] = []
    for word in words:  # keyword words first: `planet=Mars`, bare flags
        name, equals, rest = word.partition("=")
        keyed = by_word.get(name_key(name))
        if equals and keyed is not None:
            values[keyed.name] = _one(keyed, [rest], 0)[0]
        elif keyed is not None and keyed.kind == "flag" and not equals:
            values[keyed.name] = True
        else:
            loose.append(word)
    at = 0
    for p in verb.parameters:
        if p.optional:
            continue
        if p.kind == "numbers":
            values[p.name] = [_number(w, p.word) for w in loose[at:]]
            at = len(loose)
            continue
        if at >= len(loose):
            raise ValueError(f"missing {p.word}")
        values[p.name], span = _one(p, loose, at)
        at += span
    if at < len(loose):
        raise ValueError(f"unexpected words: {' '.join(loose[at:])!r}")
    return values
