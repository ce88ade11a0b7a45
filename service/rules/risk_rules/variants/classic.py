"""Classic Risk, described once (see `descriptor.VariantDescriptor`)."""

from __future__ import annotations

from risk_proto.risk.v1 import classic_pb2, common_pb2
from risk_rules.engine import get_ruleset
from risk_rules.engine.classic.model import (
    ClassicOptions,
    FortifyMode,
    SetupMode,
    TradeSchedule,
)
from risk_rules.variants.descriptor import (
    Defaults,
    Golden,
    LeakProbe,
    Messages,
    VariantDescriptor,
)

DESCRIPTOR = VariantDescriptor(
    rules=get_ruleset("classic"),
    messages=Messages.named(classic_pb2, "Classic"),
    number=common_pb2.VARIANT_CLASSIC,
    case="classic",
    defaults=Defaults(
        phases=("claim", "setup_place", "reinforce", "attack", "defend", "move_in", "fortify"),
        # cards on and the defender's dice rolled automatically, as in bot and timed games
        bench_options={"cards": True, "auto_defend_max_dice": True},
        # ends by conquest after 1165 actions, with forced trades after an elimination; claim
        # setup and explicit defence dice exercise every classic decision kind
        golden=Golden(
            ClassicOptions(
                players=4,
                setup=SetupMode.CLAIM,
                auto_place=False,
                trade_schedule=TradeSchedule.SEED,
                fortify=FortifyMode.CONNECTED,
                auto_defend_max_dice=False,
                cards=True,
                max_turns=400,
            ),
            seed=34,
            win_reason="conquest",
        ),
        # 3 players, ~370 actions; seat 0 falls holding 4 cards while seat 1 still plays
        leaks=LeakProbe(
            seed=0xC0FFEE87ED000029,
            options={"setup": SetupMode.RANDOM_DEAL, "auto_place": True,
                     "auto_defend_max_dice": True, "max_turns": 60},
            hidden_hands="deck",
            event_secrets={"CardDrawn": (("seat",), "card"),
                           "PlayerEliminated": (("seat", "by"), "cards_taken")},
        ),
    ),
    describe="risk_rules.descriptions.classic:describe",
    renderer="risk_client.boards.classic:board_text",
    draws={"OrderRolled": ("rolls",), "BattleResolved": ("attack_dice", "defence_dice"),
           "CardDrawn": ("card",), "CardsTraded": ("cards", "bonus_territory"),
           "PlayerEliminated": ("cards_taken",)},
)
