"""Every variant's actions as command-line words: parse, write back, describe, usage.

`words_for(variant)` answers for a variant by its descriptor name: classic's hand-written
grammar (`risk_client.actions`, with its card trades and `+2` bonus), and for the others the
grammar read off their SDK builder modules (`risk_client.grammar.Verbs`). A variant this client
has no builders for gets None, and the command line says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from risk_client import actions, deep_space, legacy, strike
from risk_client.places import Places
from risk_proto.risk.v1 import game_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD

_CLASSIC_CONTINENTS = Places("continent", [r.name for r in CLASSIC_BOARD.regions])
# per variant: the last word of an event field's name -> the names it holds ids of
_PLACES: dict[str, dict[str, Places]] = {
    "classic": {"territory": actions.TERRITORIES, "continent": _CLASSIC_CONTINENTS},
    "legacy": {"territory": legacy.TERRITORIES, "continent": _CLASSIC_CONTINENTS,
               "hq": legacy.TERRITORIES},
    "strike": {"continent": strike.CONTINENTS},
    "deep_space": {"planet": deep_space.NODES, "origin": deep_space.NODES,
                   "destination": deep_space.NODES, "node": deep_space.NODES,
                   "station": deep_space.NODES},
}


class ActionWords(Protocol):
    def parse(self, words: Sequence[str]) -> game_pb2.Action: ...

    def command(self, action: game_pb2.Action, max_count: int = 0) -> str: ...

    def describe(self, action: game_pb2.Action, max_count: int = 0) -> str: ...

    def usage(self) -> str: ...


class ClassicWords:
    """Classic's grammar, kept by hand (`risk_client.actions`): trades name cards by
    territory, and a multi-word verb set older than the builders' naming."""

    def parse(self, words: Sequence[str]) -> game_pb2.Action:
        return actions.parse_action(words)

    def command(self, action: game_pb2.Action, max_count: int = 0) -> str:
        return actions.action_command(action, max_count)

    def describe(self, action: game_pb2.Action, max_count: int = 0) -> str:
        return actions.describe_action(action, max_count)

    def usage(self) -> str:
        return actions.USAGE


_WORDS: dict[str, ActionWords] = {
    "classic": ClassicWords(),
    "deep_space": deep_space.VERBS,
    "strike": strike.VERBS,
    "legacy": legacy.VERBS,
}


def words_for(variant: str) -> ActionWords | None:
    return _WORDS.get(variant)


def describe_any(action: game_pb2.Action, max_count: int = 0) -> str:
    """An action of any variant in words (the variant is the action's own case)."""
    words = _WORDS.get(action.WhichOneof("variant") or "")
    return words.describe(action, max_count) if words else "(an action this client cannot read)"


def command_any(action: game_pb2.Action, max_count: int = 0) -> str:
    words = _WORDS.get(action.WhichOneof("variant") or "")
    return words.command(action, max_count) if words else "<an action this client cannot write>"


def places_for(variant: str) -> dict[str, Places]:
    return _PLACES.get(variant, {})
