"""Every variant's actions as command-line words: parse, write back, describe, usage.

`words_for(variant)` answers for a variant by its descriptor name: classic's hand-written
grammar (`risk_client.actions`, with its card trades and `+2` bonus), and for the others the
grammar read off their SDK builder modules (`risk_client.grammar.Verbs`). A variant this client
has no builders for gets None, and the command line says so instead of guessing. A variant's
module (and with it its engine's board and cards) is imported the first time its words are
asked for, so a command on a classic game does not import the other variants, and classic's
grammar (`risk_client.actions`, which imports classic's engine model) is imported only for a
classic game.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Protocol

from risk_client.places import Places
from risk_proto.risk.v1 import game_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD

_CLASSIC_CONTINENTS = Places("continent", [r.name for r in CLASSIC_BOARD.regions])
# the variants whose grammar is read off their SDK builder module (its VERBS and place names)
_BUILDERS = {name: f"risk_client.{name}" for name in ("deep_space", "strike", "legacy")}


@cache
def places_for(variant: str) -> dict[str, Places]:
    """The last word of an event field's name -> the names it holds ids of."""
    if variant == "classic":
        from risk_client.actions import TERRITORIES  # noqa: PLC0415

        return {"territory": TERRITORIES, "continent": _CLASSIC_CONTINENTS}
    if variant not in _BUILDERS:
        return {}
    module = importlib.import_module(_BUILDERS[variant])
    if variant == "legacy":
        return {"territory": module.TERRITORIES, "continent": _CLASSIC_CONTINENTS,
                "hq": module.TERRITORIES}
    if variant == "strike":
        return {"continent": module.CONTINENTS}
    return {field: module.NODES
            for field in ("planet", "origin", "destination", "node", "station")}


class ActionWords(Protocol):
    def parse(self, words: Sequence[str]) -> game_pb2.Action: ...

    def command(self, action: game_pb2.Action, max_count: int = 0) -> str: ...

    def describe(self, action: game_pb2.Action, max_count: int = 0) -> str: ...

    def usage(self) -> str: ...


class ClassicWords:
    """Classic's grammar, kept by hand (`risk_client.actions`, imported on first use): trades
    name cards by territory, and a multi-word verb set older than the builders' naming."""

    def parse(self, words: Sequence[str]) -> game_pb2.Action:
        from risk_client.actions import parse_action  # noqa: PLC0415

        return parse_action(words)

    def command(self, action: game_pb2.Action, max_count: int = 0) -> str:
        from risk_client.actions import action_command  # noqa: PLC0415

        return action_command(action, max_count)

    def describe(self, action: game_pb2.Action, max_count: int = 0) -> str:
        from risk_client.actions import describe_action  # noqa: PLC0415

        return describe_action(action, max_count)

    def usage(self) -> str:
        from risk_client.actions import USAGE  # noqa: PLC0415

        return USAGE


_CLASSIC_WORDS = ClassicWords()


def words_for(variant: str) -> ActionWords | None:
    if variant == "classic":
        return _CLASSIC_WORDS
    if variant not in _BUILDERS:
        return None
    verbs: ActionWords = importlib.import_module(_BUILDERS[variant]).VERBS
    return verbs


def describe_any(action: game_pb2.Action, max_count: int = 0) -> str:
    """An action of any variant in words (the variant is the action's own case)."""
    words = words_for(action.WhichOneof("variant") or "")
    return words.describe(action, max_count) if words else "(an action this client cannot read)"


def command_any(action: game_pb2.Action, max_count: int = 0) -> str:
    words = words_for(action.WhichOneof("variant") or "")
    return words.command(action, max_count) if words else "<an action this client cannot write>"
