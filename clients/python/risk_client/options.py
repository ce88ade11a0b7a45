"""Game options as protobuf messages, one shortcut per variant.

Every option field in the contract is optional and an unset field takes the service's default,
so a shortcut sets only what its caller named.
"""

from __future__ import annotations

from typing import TypeVar

from risk_proto.risk.v1 import classic_pb2, game_pb2
from risk_rules import variants

T = TypeVar("T")

SETUP_MODES: dict[str, classic_pb2.ClassicSetupMode] = {
    "claim": classic_pb2.CLASSIC_SETUP_MODE_CLAIM,
    "random-deal": classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL,
}
TRADE_SCHEDULES: dict[str, classic_pb2.ClassicTradeSchedule] = {
    "seed": classic_pb2.CLASSIC_TRADE_SCHEDULE_SEED,
    "hasbro-1993": classic_pb2.CLASSIC_TRADE_SCHEDULE_HASBRO_1993,
    "fixed": classic_pb2.CLASSIC_TRADE_SCHEDULE_FIXED,
}
FORTIFY_MODES: dict[str, classic_pb2.ClassicFortifyMode] = {
    "connected": classic_pb2.CLASSIC_FORTIFY_MODE_CONNECTED,
    "adjacent": classic_pb2.CLASSIC_FORTIFY_MODE_ADJACENT,
}


def classic_options(
    players: int | None = None,
    *,
    setup: str | None = None,
    auto_place: bool | None = None,
    trade_schedule: str | None = None,
    fortify: str | None = None,
    auto_defend_max_dice: bool | None = None,
    cards: bool | None = None,
    max_turns: int | None = None,
) -> game_pb2.GameOptions:
    """Classic Risk options; `setup`, `trade_schedule` and `fortify` take the names above."""
    opts = classic_pb2.ClassicOptions()
    if players is not None:
        opts.players = players
    if setup is not None:
        opts.setup = _pick(SETUP_MODES, setup, "setup")
    if auto_place is not None:
        opts.auto_place = auto_place
    if trade_schedule is not None:
        opts.trade_schedule = _pick(TRADE_SCHEDULES, trade_schedule, "trade schedule")
    if fortify is not None:
        opts.fortify = _pick(FORTIFY_MODES, fortify, "fortify mode")
    if auto_defend_max_dice is not None:
        opts.auto_defend_max_dice = auto_defend_max_dice
    if cards is not None:
        opts.cards = cards
    if max_turns is not None:
        opts.max_turns = max_turns
    return game_pb2.GameOptions(classic=opts)


def _pick(table: dict[str, T], name: str, what: str) -> T:
    key = name.strip().lower().replace("_", "-")
    try:
        return table[key]
    except KeyError:
        raise ValueError(f"unknown {what} {name!r}; one of {', '.join(table)}") from None


def variant_options(
    variant: str,
    *,
    players: int | None = None,
    max_turns: int | None = None,
    auto_defend_max_dice: bool | None = None,
    auto_pass: bool | None = None,
) -> game_pb2.GameOptions:
    """Options for any variant of the contract by its name (`deep_space`), setting only the
    fields named that the variant has; the rest take the service's defaults."""
    described = variants.descriptor(variant)
    if described.case is None:
        raise ValueError(f"variant {variant!r} travels outside the contract's options")
    options = game_pb2.GameOptions()
    chosen = getattr(options, described.case)
    chosen.SetInParent()
    fields = chosen.DESCRIPTOR.fields_by_name
    for name, value in (("players", players), ("max_turns", max_turns),
                        ("auto_defend_max_dice", auto_defend_max_dice),
                        ("auto_pass", auto_pass)):
        if value is None:
            continue
        if name not in fields:
            raise ValueError(f"{variant} has no option {name}")
        setattr(chosen, name, value)
    return options
