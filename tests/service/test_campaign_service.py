"""Risk Legacy campaigns through the public RPCs: a bot-played campaign of two games with a
live subscriber, the reward decisions between them, and the campaign's errors.

The tests share one service (`service`, which conftest's `stub` connects to): each makes
campaigns of its own and none needs a fresh process."""

from __future__ import annotations

import asyncio

import grpc

from risk_proto.risk.v1 import game_pb2, legacy_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import LegalAction, get_ruleset
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.legacy.model import LegacyView
from risk_testing.rpc import bearer, error_info, rpc_error
from tests.service.streamcheck import assert_every_version_streamed
from tests.serving import module_service

service = module_service("service-campaigns")
Stub = service_pb2_grpc.RiskServiceStub
CHOICES = [(1, 1), (2, 3), (4, 7)]  # (faction, power): Mechaniker, Bear, Khan


async def _create(stub: Stub) -> service_pb2.CreateCampaignResponse:
    return await stub.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, seat_names=["ann", "bob", "cy"],
        factions=[legacy_pb2.FactionChoice(faction=f, power=p) for f, p in CHOICES]))  # type: ignore[arg-type]


async def _play(stub: Stub, game_id: str, tokens: list[str], entropy: int) -> int:
    """Bots play the game through the service until it ends; returns the actions taken."""
    rules = get_ruleset("legacy")
    steps = 0
    while True:
        game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
        if game.HasField("outcome"):
            return steps
        seat = game.decision.seats[0]
        auth = bearer(tokens[seat])
        board = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                    metadata=auth)).board
        legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(
            game_id=game_id), metadata=auth)
        view = wire.from_message(board.legacy, LegacyView)
        choices = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                   for e in legal.actions]
        action = rules.bot_choose(view, choices, entropy + steps)
        await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game_id, action=wire.action_to_proto("legacy", action),
            expected_version=legal.version), metadata=auth)
        steps += 1
        assert steps < 5000, "the bots did not finish the game"


async def _take_rewards(stub: Stub, campaign_id: str, tokens: list[str]) -> int:
    """Every pending reward decision, each seat taking its first offered reward."""
    taken = 0
    while True:
        summary = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=campaign_id))).campaign
        if not summary.decision.seats:
            return taken
        seat = summary.decision.seats[0]
        mine = await stub.GetCampaign(service_pb2.GetCampaignRequest(campaign_id=campaign_id),
                                      metadata=bearer(tokens[seat]))
        assert mine.viewer_seat == seat and mine.legal_rewards
        await stub.SubmitCampaignDecision(service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, reward=mine.legal_rewards[0],
            expected_version=mine.campaign.version), metadata=bearer(tokens[seat]))
        taken += 1


async def test_bot_campaign_of_two_games_with_a_live_subscriber(stub: Stub) -> None:
    """Two campaign games played by bots; rewards between them change the world the second
    game starts from; a spectator streams the second game live to its end."""
    created = await _create(stub)
    campaign_id, host = created.campaign.campaign_id, created.host_token
    tokens = list(created.seat_tokens)
    first = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=11, max_turns=40), metadata=bearer(host))
    assert first.game.game_id == f"{campaign_id}.1"
    assert first.game.status == service_pb2.GAME_STATUS_ACTIVE
    busy = await rpc_error(stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id), metadata=bearer(host)))
    assert error_info(busy).reason == "GAME_IN_PROGRESS"
    await _play(stub, first.game.game_id, tokens, 1)
    after_one = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign
    assert after_one.state.games_played == 1 and len(after_one.state.history) == 1
    world_before = after_one.state.world.SerializeToString(deterministic=True)
    rewards = await _take_rewards(stub, campaign_id, tokens)

    second = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=12, max_turns=40), metadata=bearer(host))
    game_id = second.game.game_id
    assert game_id == f"{campaign_id}.2"
    if rewards:
        state = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=campaign_id))).campaign.state
        assert state.world.SerializeToString(deterministic=True) != world_before
    spectator = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    seen: list[int] = []
    streamed: list[game_pb2.Event] = []
    ended = asyncio.Event()

    async def watch() -> None:
        async for message in spectator:
            seen.append(message.event.seq)
            streamed.append(message.event)
            if message.event.legacy.WhichOneof("kind") == "game_ended":
                ended.set()

    watcher = asyncio.create_task(watch())
    await _play(stub, game_id, tokens, 2)
    await asyncio.wait_for(ended.wait(), 10)
    watcher.cancel()
    final_game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    assert seen == list(range(1, final_game.last_seq + 1)), \
        "the subscriber saw every event once, in order"
    assert_every_version_streamed(streamed, final_game.version)
    await _take_rewards(stub, campaign_id, tokens)
    final = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id=campaign_id))).campaign
    assert final.state.games_played == 2 and list(final.game_ids) == [
        f"{campaign_id}.1", f"{campaign_id}.2"]
    listed = await stub.ListCampaigns(service_pb2.ListCampaignsRequest())
    assert campaign_id in [c.campaign_id for c in listed.campaigns]


async def test_campaign_game_options_name_the_campaign(stub: Stub) -> None:
    """A campaign game's options (in every view and in its export) carry the campaign's id."""
    created = await _create(stub)
    campaign_id, tokens = created.campaign.campaign_id, list(created.seat_tokens)
    started = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id, seed=3, max_turns=40), metadata=bearer(created.host_token))
    game_id = started.game.game_id
    for token in (None, tokens[0]):
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                 metadata=bearer(token) if token else None)
        assert got.board.legacy.options.campaign_id == campaign_id
    for seat in (0, 1):
        await stub.Resign(service_pb2.ResignRequest(game_id=game_id), metadata=bearer(tokens[seat]))
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(tokens[2]))
    assert export.options.legacy.campaign_id == campaign_id


async def test_campaign_errors(stub: Stub) -> None:
    """Bad factions, unknown campaigns, seats starting games and wrong versions are refused."""
    bad = await rpc_error(stub.CreateCampaign(service_pb2.CreateCampaignRequest(
        players=3, factions=[legacy_pb2.FactionChoice(faction=1, power=3)] * 3)))  # type: ignore[arg-type]
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT
    missing = await rpc_error(stub.GetCampaign(service_pb2.GetCampaignRequest(
        campaign_id="0" * 22)))
    assert missing.code() == grpc.StatusCode.NOT_FOUND
    created = await _create(stub)
    campaign_id = created.campaign.campaign_id
    seat_start = await rpc_error(stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
        campaign_id=campaign_id), metadata=bearer(created.seat_tokens[0])))
    assert seat_start.code() == grpc.StatusCode.PERMISSION_DENIED
    no_reward = await rpc_error(stub.SubmitCampaignDecision(
        service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, expected_version=0,
            reward=legacy_pb2.LegacyReward(decline_reward={})),
        metadata=bearer(created.seat_tokens[0])))
    assert no_reward.code() == grpc.StatusCode.FAILED_PRECONDITION


async def _rewards_by(stub: Stub, campaign_id: str, tokens: list[str],
                      prefer: dict[str, list[str]]) -> None:
    """Take every pending reward, each seat choosing by `prefer[kind]` (first available)."""
    while True:
        summary = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
            campaign_id=campaign_id))).campaign
        if not summary.decision.seats:
            return
        seat = summary.decision.seats[0]
        mine = await stub.GetCampaign(service_pb2.GetCampaignRequest(campaign_id=campaign_id),
                                      metadata=bearer(tokens[seat]))
        offered = list(mine.legal_rewards)
        order = prefer[summary.decision.kind]
        offered.sort(key=lambda reward, order=order: _rank(reward, order))
        await stub.SubmitCampaignDecision(service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, reward=offered[0],
            expected_version=mine.campaign.version), metadata=bearer(tokens[seat]))


def _rank(reward: legacy_pb2.LegacyReward, order: list[str]) -> tuple[int, int]:
    """Preferred kinds first; names go to the continents easiest to hold first."""
    small_first = [5, 1, 3, 2, 0, 4]  # Australia, South America, Africa, Europe, ...
    kind = reward.WhichOneof("kind") or ""
    continent = reward.name_continent.continent if kind == "name_continent" else 0
    return (order.index(kind) if kind in order else len(order), small_first.index(continent))


async def _recruitments(stub: Stub, game_id: str) -> list[legacy_pb2.LegacyEvent]:
    """The game's troops_recruited events, from its stream (which must show every version)."""
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id))
    events = [(await asyncio.wait_for(call.read(), 10)).event for _ in range(game.last_seq)]
    call.cancel()
    assert_every_version_streamed(events, game.version)
    return [e.legacy for e in events if e.legacy.WhichOneof("kind") == "troops_recruited"]


async def test_world_made_in_game_one_changes_recruitment_in_game_three(stub: Stub) -> None:
    """Two campaigns play the same first game (with scar cards played); one founds cities and
    names a continent, the control cancels a scar and upgrades cards instead. In game 3 of the
    first: a city adds population, the name adds its namer's +1, a game-1 scar changes dice."""
    founding = {"winner_reward": ["name_continent", "found_major_city"],
                "survivor_reward": ["found_minor_city"]}
    control = {"winner_reward": ["cancel_scar", "change_continent_bonus", "fortify_city"],
               "survivor_reward": ["add_resource"]}
    worlds = {}
    recruited = {}
    for label, prefer in (("founding", founding), ("control", control)):
        created = await _create(stub)
        campaign_id, tokens = created.campaign.campaign_id, list(created.seat_tokens)
        for number, seed in enumerate((100, 101, 102), start=1):
            started = await stub.StartCampaignGame(service_pb2.StartCampaignGameRequest(
                campaign_id=campaign_id, seed=seed, max_turns=60),
                metadata=bearer(created.host_token))
            await _play(stub, started.game.game_id, tokens, 100 * number)
            played = await _recruitments(stub, started.game.game_id)  # checks every version
            if number == 1:
                await _rewards_by(stub, campaign_id, tokens, prefer)
                worlds[label] = (await stub.GetCampaign(service_pb2.GetCampaignRequest(
                    campaign_id=campaign_id))).campaign.state.world
            elif number == 2:
                await _rewards_by(stub, campaign_id, tokens, prefer)
            else:
                recruited[label] = played
                if label == "founding":
                    facts = await _game_three_facts(stub, started.game.game_id, tokens[0],
                                                    worlds["founding"])
    assert worlds["founding"].cities and worlds["founding"].continent_names
    assert not worlds["control"].cities and not worlds["control"].continent_names
    assert any(r.troops_recruited.population > 0 for r in recruited["founding"]), \
        "a city founded in game 1 adds population to a recruitment in game 3"
    assert all(r.troops_recruited.population == 0 for r in recruited["control"])
    checked, took, scar_battles = facts
    print(f"game 3: {checked} recruitments match the world's bonuses; {took} took a name's +1;"
          f" {scar_battles} battles on game-1 scars had their defence dice changed")
    assert checked > 0 and took > 0, "the continent named after game 1 adds +1 in game 3"
    assert scar_battles > 0, "a scar played in game 1 changes combat in game 3"
    assert len(worlds["control"].scars) < len(worlds["founding"].scars), \
        "the control campaign's winner cancelled one of game 1's scars"


async def _game_three_facts(stub: Stub, game_id: str, token: str,
                            world_after_one: legacy_pb2.World) -> tuple[int, int, int]:
    """Replay the finished game's export; check every recruitment's continent bonus (the
    continents held, with their marks, plus 1 for each held continent the recruiting seat
    named) and find battles on territories scarred in game 1 whose defence dice the scar
    changed. Returns (recruitments checked, those that took a name's +1, such battles)."""
    export = await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id),
                                   metadata=bearer(token))
    rules = get_ruleset("legacy")
    _variant, options = wire.options_from_proto(export.options)
    world = options.world
    named = {n.continent: n.namer for n in world.continent_names}
    scarred = {mark.territory for mark in world_after_one.scars}
    state, _ = rules.create(options, export.seed)
    took = checked = scar_battles = 0
    for entry in export.log:
        which = entry.WhichOneof("entry")
        before = state
        if which == "action":
            state, events = rules.apply(state, entry.seat,
                                        wire.action_from_proto(entry.action)[1])
        elif which == "resign":
            state, events = rules.resign(state, entry.seat)
        else:
            continue
        for event in events:
            if type(event).__name__ == "BattleResolved" and event.to_territory in scarred \
                    and before.scars[event.to_territory] \
                    and event.defence_final != event.defence_dice:
                scar_battles += 1
            if type(event).__name__ != "TroopsRecruited":
                continue
            held = CLASSIC_BOARD.regions_held(state.owner, event.seat)
            marks = list(world.bonus_marks) or [0] * len(CLASSIC_BOARD.regions)
            base = sum(max(0, CLASSIC_BOARD.regions[r].bonus + marks[r]) for r in held)
            extra = sum(1 for r in held if named.get(r) == event.seat)
            assert event.continent_bonus == base + extra, (event, held, named)
            took += extra > 0
            checked += 1
    return checked, took, scar_battles
