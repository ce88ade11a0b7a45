"""Risk Strike, described once (see `descriptor.VariantDescriptor`)."""

from __future__ import annotations

from risk_proto.risk.v1 import common_pb2, strike_pb2
from risk_rules.engine import get_ruleset
from risk_rules.engine.strike.model import StrikeOptions
from risk_rules.variants.descriptor import (
    Defaults,
    Golden,
    LeakProbe,
    Messages,
    VariantDescriptor,
)

DESCRIPTOR = VariantDescriptor(
    rules=get_ruleset("strike"),
    messages=Messages.named(strike_pb2, "Strike"),
    number=common_pb2.VARIANT_STRIKE,
    case="strike",
    defaults=Defaults(
        phases=("draw", "main", "deploy", "after_deploy", "after_roll", "cancel", "continue"),
        # every seat is asked in every response window (auto_pass off, the default), so most
        # actions are passes: the figure measures the windows as a client meets them
        bench_options={"auto_pass": False},
        # plays every tactics card type, a supporter, a Cancel Order and a Spy's reveal, and a
        # domination coin taken from another player, in 390 actions
        golden=Golden(StrikeOptions(players=4, max_turns=200, auto_pass=False), seed=21,
                      win_reason="domination"),
        leaks=LeakProbe(
            seed=0x5771CE,
            hidden_hands="tactics_deck",
            event_secrets={"TacticsDrawn": (("seat",), "cards"),
                           "HandRevealed": (("seat",), "cards")},
            resign_at=60,
        ),
    ),
    describe="risk_rules.descriptions.strike:describe",
    renderer="risk_client.boards.strike:board_text",
    draws={"OrderRolled": ("rolls",), "DiceRolled": ("attack", "defence"),
           "DiceChanged": ("attack", "defence"), "BattleResolved": ("attack", "defence"),
           "ContinentCardsDrawn": ("cards",), "ContinentCardLost": ("card",),
           "TacticsDrawn": ("cards",), "HandRevealed": ("cards",),
           "TacticPlayed": ("play.card_id",), "TroopsDeployed": ("cards",),
           "TroopsDiscarded": ("cards",), "TroopsReturned": ("cards",)},
)
