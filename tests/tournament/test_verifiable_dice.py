"""Verifiable randomness and duplicate play through the real service: commitments published
at creation, seeds revealed only when the round's games are over, exports that verify, and a
verify that fails when the seed or one roll is altered."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from risk_proto.risk.v1 import service_pb2, tournament_pb2
from risk_rules import audit, wire
from risk_rules.engine.classic.model import BattleResolved, CardDrawn, DeckShuffled
from risk_rules.engine.core.dice import sort_high
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.seed_commitment import seed_commitment
from risk_service.operations.records import FINAL
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.tournament.conftest import ServiceFactory
from tests.tournament.players import Stub, bot, play_seat, player, quick_options

RANDOM, PLANNER = tournament_pb2.BOT_LEVEL_RANDOM, tournament_pb2.BOT_LEVEL_PLANNER


async def until_over(stub: Stub, game_id: str) -> service_pb2.GameSummary:
    for _ in range(1200):
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if game.status in FINAL:
            return game
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} did not end")


async def export(stub: Stub, game_id: str, token: str) -> service_pb2.GameExport:
    """The whole export, its pages merged as the SDK merges them."""
    whole = service_pb2.GameExport()
    request = service_pb2.ExportGameRequest(game_id=game_id)
    while True:
        page = await stub.ExportGame(request, metadata=bearer(token))
        request.page_token = page.next_page_token
        page.ClearField("next_page_token")
        whole.MergeFrom(page)
        if not request.page_token:
            return whole


def rules_events(game: service_pb2.GameExport) -> list[tuple[int, object]]:
    out = []
    for message in game.events:
        case, event = wire.event_from_proto(message)
        if case != wire.LIFECYCLE:
            out.append((message.version, event))
    return out


async def test_duplicate_round_shares_its_draws_and_reveals_the_seed_when_all_are_over(
        start_service: ServiceFactory) -> None:
    """Three games of a duplicate round, seats rotated: while one is still played no game
    shows its seed (GetGame) or exports; then every game reveals the same seed with its own
    nonce, each hashing to the commitment published at creation; they were dealt the same,
    drew the same cards in the same order and every battle k used battle k's dice."""
    service = start_service(RISK_SWEEP_INTERVAL_MS="100")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        line_up = [player("ann"), bot(RANDOM), bot(PLANNER)]
        request = tournament_pb2.CreateRoundRequest(
            request_id="dup", tournament="duplicate-cup", round=2, duplicate=True,
            options=quick_options(max_turns=12),
            games=[tournament_pb2.RoundTable(seats=line_up[-k:] + line_up[:-k])
                   for k in range(3)])
        created = await stub.CreateRound(request)
        ann = [(g.game_id, k, g.seat_tokens[k]) for k, g in enumerate(created.games)]
        # ann plays her first two games out; her third waits
        for game_id, seat, token in ann[:2]:
            await asyncio.wait_for(play_seat(channel, game_id, seat, token, entropy=seat),
                                   timeout=120)
        first = await stub.GetGame(service_pb2.GetGameRequest(game_id=ann[0][0]))
        assert first.game.status in FINAL and not first.game.HasField("seed_reveal")
        refused = await rpc_error(stub.ExportGame(
            service_pb2.ExportGameRequest(game_id=ann[0][0]),
            metadata=bearer(created.host_token)))
        assert refused.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_info(refused).reason == "GAME_NOT_OVER"
        game_id, seat, token = ann[2]
        await asyncio.wait_for(play_seat(channel, game_id, seat, token, entropy=99), timeout=120)

        reveals = []
        exports = []
        for game in created.games:
            shown = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id))).game
            reveal = shown.seed_reveal
            assert seed_commitment(reveal.seed, reveal.nonce) == game.seed_commitment
            reveals.append(reveal)
            whole = await export(stub, game.game_id, created.host_token)
            assert audit.verify(whole).committed
            exports.append(whole)
    assert len({r.seed for r in reveals}) == 1 and len({r.nonce for r in reveals}) == 3
    histories = [rules_events(e) for e in exports]
    creations = [[ev for version, ev in h if version == 0] for h in histories]
    assert creations[0] == creations[1] == creations[2]
    played = [[ev for version, ev in h if version > 0] for h in histories]
    assert played[0] != played[1] != played[2]
    drawn = []
    for events in played:
        cards = []
        for event in events:
            if isinstance(event, DeckShuffled):
                break
            if isinstance(event, CardDrawn):
                cards.append(event.card)
        drawn.append(cards)
    common = min(len(c) for c in drawn)
    assert drawn[0][:common] == drawn[1][:common] == drawn[2][:common]
    throws = DrawStreams.seeded(reveals[0].seed)
    throws.dice(sum(len(e.rolls) for e in creations[0] if hasattr(e, "rolls")))
    battles = [[e for e in events if isinstance(e, BattleResolved)] for events in played]
    assert min(len(b) for b in battles) > 0
    expected = [throws.dice(5) for _ in range(max(len(b) for b in battles))]
    for game_battles in battles:
        for k, battle in enumerate(game_battles):
            assert battle.attack_dice == sort_high(expected[k][:len(battle.attack_dice)])
            assert battle.defence_dice == sort_high(
                expected[k][3:3 + len(battle.defence_dice)])


async def test_verify_fails_when_the_seed_or_one_roll_is_altered(
        start_service: ServiceFactory) -> None:
    """A finished bot game's export verifies, its seed matching its commitment; with another
    seed, or one die of one battle changed (hash chain recomputed, so only the replay can
    tell), verify rejects it."""
    service = start_service(RISK_SWEEP_INTERVAL_MS="100")
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = Stub(channel)
        created = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
            request_id="v", tournament="verify-cup", options=quick_options(),
            games=[tournament_pb2.RoundTable(seats=[bot(RANDOM), bot(PLANNER), bot(RANDOM)])]))
        game_id = created.games[0].game_id
        await until_over(stub, game_id)
        whole = await export(stub, game_id, created.host_token)
    assert whole.seed_commitment == created.games[0].seed_commitment
    assert audit.verify(whole).committed

    other_seed = service_pb2.GameExport()
    other_seed.CopyFrom(whole)
    other_seed.seed ^= 1
    with pytest.raises(audit.VerificationError, match="commitment"):
        audit.verify(other_seed)

    one_roll = service_pb2.GameExport()
    one_roll.CopyFrom(whole)
    index = next(i for i, m in enumerate(one_roll.events)
                 if m.classic.WhichOneof("kind") == "battle_resolved")
    dice = one_roll.events[index].classic.battle_resolved.attack_dice
    dice[0] = 1 if dice[0] != 1 else 2
    with pytest.raises(audit.VerificationError, match="hash chain"):
        audit.verify(one_roll)
    del one_roll.chain[:]
    one_roll.chain.extend(audit.hash_chain(one_roll.game_id, one_roll.events))
    with pytest.raises(audit.VerificationError, match="differs"):
        audit.verify(one_roll)
