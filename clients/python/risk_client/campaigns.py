"""Risk Legacy campaigns through the SDK: factions, rewards in words, and a campaign bot.

A campaign is played as its seats play it: the host starts each game (`start_campaign_game`),
the seat tokens play it (the same `play_seat` bots as a single game), and then every pending
reward decision is taken with the deciding seat's token, on the version it read, choosing with
the engine's campaign bot policy from the campaign state anyone may read. `play_campaign` runs
that loop for a number of games and reports each step through callbacks, so the command line
(`risk campaign demo`) and a program print progress the same way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from risk_client.bots import play_seat
from risk_client.client import CONFLICT_BACKOFF, RiskClient
from risk_client.errors import StaleVersion
from risk_client.results import Campaign, CampaignDecisionTaken, CreatedCampaign
from risk_proto.risk.v1 import legacy_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.legacy import campaign as campaign_rules
from risk_rules.engine.legacy.content import FACTION_POWERS
from risk_rules.engine.legacy.world import Faction
from risk_rules.variants.legacy import reward_to_proto

MAX_STALE_DECISIONS = 20
_MASK64 = (1 << 64) - 1  # bot entropy is a 64-bit seed

# the short names the command line takes for the factions (FACTION_NAMES has the full ones)
_KEYS = {
    Faction.DIE_MECHANIKER: "mechaniker",
    Faction.ENCLAVE_OF_THE_BEAR: "bear",
    Faction.IMPERIAL_BALKANIA: "balkania",
    Faction.KHAN_INDUSTRIES: "khan",
    Faction.SAHARAN_REPUBLIC: "saharan",
}
# faction key ("khan") -> (faction number, its two power numbers): the box's pairing
FACTIONS: dict[str, tuple[int, tuple[int, int]]] = {
    _KEYS[faction]: (int(faction), (int(a), int(b))) for faction, (a, b) in FACTION_POWERS.items()
}
# power key ("hq_troops") -> power number
POWERS: dict[str, int] = {
    power.name.lower(): int(power) for pair in FACTION_POWERS.values() for power in pair
}


def default_factions(players: int) -> list[tuple[int, int]]:
    """Seat i plays the i-th faction of the box with its first power."""
    chosen = list(FACTIONS.values())[:players]
    return [(faction, powers[0]) for faction, powers in chosen]


def parse_faction(text: str) -> tuple[int, int]:
    """"khan" or "khan:card_troop" (any case, '-' or '_') -> (faction, power) numbers.

    A faction alone takes its first power. ValueError names the choices.
    """
    name, _, power = text.strip().lower().replace("-", "_").partition(":")
    if name not in FACTIONS:
        raise ValueError(f"unknown faction {name!r}; one of {', '.join(FACTIONS)}")
    faction, powers = FACTIONS[name]
    if not power:
        return faction, powers[0]
    if POWERS.get(power) not in powers:
        names = ", ".join(key for key, number in POWERS.items() if number in powers)
        raise ValueError(f"{name} has no power {power!r}; one of {names}")
    return faction, POWERS[power]


# ---- rewards ---------------------------------------------------------------------------------


def reward_words(reward: legacy_pb2.LegacyReward) -> str:
    """A reward as a player reads it: "found a minor city on Alaska", ..."""
    kind = reward.WhichOneof("kind")
    territories = CLASSIC_BOARD.names

    def continent(number: int) -> str:
        regions = CLASSIC_BOARD.regions
        return regions[number].name if 0 <= number < len(regions) else f"continent {number}"

    def place(number: int) -> str:
        return territories[number] if 0 <= number < len(territories) else f"territory {number}"

    def named(name: str) -> str:
        return f" named {name!r}" if name else ""

    if kind == "name_continent":
        name = reward.name_continent.name
        return f"name {continent(reward.name_continent.continent)}" + (
            f" {name!r}" if name else "")
    if kind == "found_major_city":
        return f"found a major city on {place(reward.found_major_city.territory)}" + named(
            reward.found_major_city.name)
    if kind == "found_minor_city":
        return f"found a minor city on {place(reward.found_minor_city.territory)}" + named(
            reward.found_minor_city.name)
    if kind == "cancel_scar":
        return f"remove the scar on {place(reward.cancel_scar.territory)}"
    if kind == "change_continent_bonus":
        change = reward.change_continent_bonus
        return f"{continent(change.continent)}'s bonus {change.delta:+d}"
    if kind == "fortify_city":
        return f"fortify the city on {place(reward.fortify_city.territory)}"
    if kind == "add_resource":
        return f"+1 resource on the {place(reward.add_resource.territory)} card"
    if kind == "decline_reward":
        return "decline (no reward is possible)"
    return "(a reward this client cannot read)"


def with_name(reward: legacy_pb2.LegacyReward, name: str) -> legacy_pb2.LegacyReward:
    """A copy of a listed reward with `name` for the city or continent it creates."""
    named = legacy_pb2.LegacyReward()
    named.CopyFrom(reward)
    kind = named.WhichOneof("kind") or ""
    body = getattr(named, kind, None)
    if body is None or "name" not in body.DESCRIPTOR.fields_by_name:
        raise ValueError(f"{reward_words(reward)}: this reward takes no name")
    body.name = name
    return named


def bot_reward(campaign: Campaign, seat: int, entropy: int) -> legacy_pb2.LegacyReward:
    """The engine's campaign bot's choice for `seat`, from the public campaign state."""
    state = wire.from_message(campaign.message.state, campaign_rules.CampaignState)
    return reward_to_proto(campaign_rules.campaign_bot_reward(state, seat, entropy))


async def take_rewards(
    client: RiskClient,
    campaign_id: str,
    seat_tokens: Sequence[str],
    entropy: int = 0,
    *,
    on_decision: Callable[[int, legacy_pb2.LegacyReward, CampaignDecisionTaken],
                          Awaitable[None]] | None = None,
) -> Campaign:
    """Take every pending reward decision with bots; return the campaign afterwards.

    Each decision is read with the deciding seat's token and submitted on the version read;
    losing a race (StaleVersion) re-reads, a bounded number of times in a row.
    """
    stale = 0
    while True:
        campaign = (await client.get_campaign(campaign_id)).campaign
        turn = campaign.next_decision
        if turn is None:
            return campaign
        seat_client = client.with_token(seat_tokens[turn.seat])
        mine = await seat_client.get_campaign(campaign_id)
        reward = bot_reward(mine.campaign, turn.seat, (entropy + mine.campaign.version) & _MASK64)
        try:
            taken = await seat_client.submit_campaign_decision(
                campaign_id, reward, mine.campaign.version)
        except StaleVersion:
            stale += 1
            if stale > MAX_STALE_DECISIONS:
                raise
            await asyncio.sleep(CONFLICT_BACKOFF.delay(stale))
            continue
        stale = 0
        if on_decision is not None:
            await on_decision(turn.seat, reward, taken)


# ---- a whole campaign ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CampaignProgress:
    """What `play_campaign` reports to its callbacks."""

    on_game_started: Callable[[service_pb2.GameSummary], Awaitable[None]] | None = None
    on_game_over: Callable[[service_pb2.GetGameResponse], Awaitable[None]] | None = None
    on_decision: Callable[[int, legacy_pb2.LegacyReward, CampaignDecisionTaken],
                          Awaitable[None]] | None = None


async def play_campaign(
    client: RiskClient,
    created: CreatedCampaign,
    games: int,
    *,
    seed: int | None = None,
    max_turns: int | None = None,
    entropy: int = 0,
    progress: CampaignProgress | None = None,
) -> Campaign:
    """Bots play `games` more games of the campaign (fewer if it completes), each followed by
    its reward decisions; returns the campaign at the end. A campaign stopped part-way (a
    game being played, or rewards pending) is taken up where it stopped.

    `created` holds the tokens (`create_campaign`'s reply). Game n gets seed `seed + n` when a
    seed is given, so a seeded campaign replays; `max_turns` caps each game.
    """
    report = progress or CampaignProgress()
    campaign_id = created.campaign.campaign_id
    host = client.with_token(created.host_token)
    campaign = (await client.get_campaign(campaign_id)).campaign
    if campaign.phase == "rewards":  # a campaign stopped between a game and its rewards
        campaign = await take_rewards(client, campaign_id, created.seat_tokens, entropy,
                                      on_decision=report.on_decision)
    for _ in range(games):
        if campaign.phase == "complete":
            break
        number = campaign.games_played + 1
        game_id = campaign.running_game  # a game left half-played is finished first
        if game_id is None:
            started = await host.start_campaign_game(
                campaign_id, seed=None if seed is None else seed + number, max_turns=max_turns)
            game_id = started.game.game_id
            if report.on_game_started is not None:
                await report.on_game_started(started.game)
        try:
            async with asyncio.TaskGroup() as group:
                for seat, token in enumerate(created.seat_tokens):
                    group.create_task(play_seat(
                        client, game_id, token, (entropy + 7919 * number + seat) & _MASK64))
        except ExceptionGroup as failed:
            # one bot failing stops the others; its error says more than the group around it
            raise failed.exceptions[0] from failed
        if report.on_game_over is not None:
            await report.on_game_over(await host.get_game(game_id))
        campaign = await take_rewards(client, campaign_id, created.seat_tokens,
                                      entropy + number, on_decision=report.on_decision)
    return campaign
