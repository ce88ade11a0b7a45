"""Risk: Deep Space, described once (see `descriptor.VariantDescriptor`)."""

from __future__ import annotations

from risk_proto.risk.v1 import common_pb2, deep_space_pb2
from risk_rules.engine import get_ruleset
from risk_rules.engine.deep_space.model import DeepSpaceOptions
from risk_rules.variants.descriptor import (
    Defaults,
    Golden,
    LeakProbe,
    Messages,
    VariantDescriptor,
)

DESCRIPTOR = VariantDescriptor(
    rules=get_ruleset("deep_space"),
    messages=Messages.named(deep_space_pb2, "DeepSpace"),
    number=common_pb2.VARIANT_DEEP_SPACE,
    case="deep_space",
    defaults=Defaults(
        phases=("start", "mining", "main"),
        # the defaults (200-turn cap) spelled out, so a change of default cannot silently
        # change the games measured
        bench_options={"max_turns": 200},
        # 3 players: every action card kind, a gem warp, a two-card trade, two battles (one
        # roll taken by a space dog) and a base win, in 131 actions
        golden=Golden(DeepSpaceOptions(players=3, max_turns=200), seed=105, win_reason="bases"),
        # hands are dealt face up: its secrets are the draw pile (in no event) and the generator
        leaks=LeakProbe(seed=0xDEE95ACE, redacts=False, resign_at=40),
    ),
    renderer="risk_client.boards.deep_space:board_text",
    describe="risk_rules.descriptions.deep_space:describe",
    draws={"OrderRolled": ("rolls",), "BattleRolled": ("attacker_roll", "defender_roll"),
           "CardDrawn": ("card",), "CardsTraded": ("cards",), "CardPlayed": ("card",),
           "CardDiscarded": ("card",)},
)
