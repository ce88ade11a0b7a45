"""`risk_client.results` on games of every variant played through a real service: the
snapshot's decoded board, each seat's figures and the decoded events agree with the game."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from risk_client import RiskClient, play_game
from risk_client.results import snapshot
from risk_proto.risk.v1 import deep_space_pb2, game_pb2, legacy_pb2, strike_pb2
from risk_rules.engine.classic.model import ClassicView
from risk_rules.engine.deep_space.model import DeepSpaceView
from risk_rules.engine.legacy.model import LegacyView
from risk_rules.engine.strike.model import StrikeView
from risk_testing.harness import ServiceProcess
from tests.client.serving import finished_events, module_service

service = module_service("sdk-results")

OPTIONS = {
    "classic": game_pb2.GameOptions(classic={"players": 3, "max_turns": 20,
                                             "auto_defend_max_dice": True}),
    "deep_space": game_pb2.GameOptions(
        deep_space=deep_space_pb2.DeepSpaceOptions(players=3, max_turns=16)),
    "strike": game_pb2.GameOptions(strike=strike_pb2.StrikeOptions(players=3, max_turns=16)),
    "legacy": game_pb2.GameOptions(legacy=legacy_pb2.LegacyOptions(players=3, max_turns=30)),
}
VIEWS = {"classic": ClassicView, "deep_space": DeepSpaceView, "strike": StrikeView,
         "legacy": LegacyView}
FIGURES = {
    "classic": ["territories", "armies", "cards"],
    "deep_space": ["recruits on the board", "bases", "gems", "ore", "cards"],
    "strike": ["continent cards", "coins", "tactics cards"],
    "legacy": ["territories", "troops", "red stars", "missiles"],
}


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


@pytest.mark.parametrize("variant", sorted(OPTIONS))
async def test_snapshot_figures_and_events_of_every_variant(
    client: RiskClient, variant: str
) -> None:
    """A finished game of each variant reads as its variant, with its outcome, its seats'
    figures taken from its own board, and every event decoded in order."""
    final = snapshot(await play_game(client, OPTIONS[variant], seed=11, players=3))
    assert final.variant == variant and final.status == "finished" and final.is_over
    assert final.outcome is not None
    assert sorted(final.outcome.ranking) == [0, 1, 2]
    assert final.outcome.winner in (-1, final.outcome.ranking[0])
    view = final.view_as(VIEWS[variant])
    figures = final.seat_figures()
    assert [f.seat for f in figures] == [0, 1, 2]
    assert [f.name for f in figures] == ["bot 0", "bot 1", "bot 2"]
    for seat in figures:
        assert list(seat.figures) == FIGURES[variant]
        assert str(seat).startswith(f"seat {seat.seat} (bot {seat.seat}): ")
    if variant in ("classic", "legacy"):
        held = [f.figures["territories"] for f in figures]
        assert sum(held) == sum(1 for owner in view.owner if owner >= 0)
    if variant == "classic":
        assert sum(held) == 42  # every territory has an owner in classic
    if variant == "strike":
        coins = sum(f.figures["coins"] for f in figures)
        assert coins == sum(1 for holder in view.coins if holder >= 0)
    if variant == "deep_space":
        assert [f.figures["gems"] for f in figures] == list(view.gems)

    events = await finished_events(client, final)
    assert [e.seq for e in events] == list(range(1, final.last_seq + 1))
    assert events[-1].kind == "game_ended" and events[-1].variant == variant
    assert {e.variant for e in events} == {variant, "lifecycle"}
    assert "seat_joined" in {e.kind for e in events if e.variant == "lifecycle"}
