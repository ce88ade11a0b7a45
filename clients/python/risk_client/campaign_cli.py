"""`risk campaign ...`: Risk Legacy campaigns from the command line.

`create` prints the campaign's id and its tokens (shown once: the host's starts games, seat
i's plays seat i in every game and takes its rewards); `show` prints the campaign's world in
words, its games and standings, and, with the token of the seat whose reward decision is
pending, that seat's numbered choices; `decide CAMPAIGN N` takes choice N; `next` (host) starts
the next game, which is then played like any game (`risk legal/submit/watch GAME`); `list`
lists campaigns; `demo` has bots play a whole campaign. Their parsers are in
campaign_parser.py (cli.py builds them for every command line); `run_campaign` runs one, from
cli_commands.py's table.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from risk_client.campaign_parser import MAX_GAMES
from risk_client.campaigns import (
    CampaignProgress,
    default_factions,
    parse_faction,
    play_campaign,
    reward_words,
    with_name,
)
from risk_client.client import RiskClient
from risk_client.results import Campaign, CampaignDecisionTaken, CampaignSeatView
from risk_proto.risk.v1 import legacy_pb2, service_pb2

Command = Callable[[RiskClient, argparse.Namespace], Coroutine[Any, Any, int]]


def _out(text: str = "") -> None:
    print(text, flush=True)


def _seat_label(campaign: Campaign, seat: int) -> str:
    if seat < 0:
        return "nobody (a draw)"
    name = campaign.seats[seat].name if seat < len(campaign.seats) else ""
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def campaign_text(view: CampaignSeatView) -> str:
    """A campaign in words: state, seats and standings, games, pending rewards, choices."""
    campaign = view.campaign
    world = campaign.message.state.world
    created = datetime.fromtimestamp(campaign.created_at_ms / 1000, UTC)
    lines = [
        f"campaign {campaign.campaign_id} (version {campaign.version}, created "
        f"{created:%Y-%m-%d %H:%M} UTC)",
        f"{campaign.games_played} of {MAX_GAMES} games played; {_phase_words(campaign)}",
        "",
        "standings:",
    ]
    for rank, seat in enumerate(campaign.standings(), start=1):
        lines.append(
            f"  {rank}. {_seat_label(campaign, seat.seat):<22} {seat.faction:<20} "
            f"{seat.power:<18} {seat.wins} {'win' if seat.wins == 1 else 'wins'}, "
            f"{seat.eliminations} failed {'join' if seat.eliminations == 1 else 'joins'}"
        )
    if campaign.history:
        lines += ["", "games:"]
        for game in campaign.history:
            result = ("a draw at the turn cap" if game.winner < 0
                      else f"won by {_seat_label(campaign, game.winner)}")
            lines.append(f"  {game.number}. {game.game_id}: {result} ({game.reason}, "
                         f"{game.turns} turns)")
    if campaign.running_game:
        lines += ["", f"being played: {campaign.running_game}"]
    lines += ["", "world: " + _world_words(world)]
    if campaign.pending:
        lines += ["", "reward decisions pending (next first): " + ", ".join(
            f"{_seat_label(campaign, p.seat)} {p.kind}" for p in campaign.pending)]
    if view.legal_rewards:
        lines += ["", f"your choices ({_seat_label(campaign, view.viewer_seat)}; "
                      f"`risk campaign decide {campaign.campaign_id} N [--name NAME]`):"]
        width = len(str(len(view.legal_rewards)))
        for number, reward in enumerate(view.legal_rewards, start=1):
            lines.append(f"  {number:>{width}}. {reward_words(reward)}")
    return "\n".join(lines)


def _phase_words(campaign: Campaign) -> str:
    if campaign.phase == "complete":
        return "complete"
    if campaign.phase == "rewards":
        return "waiting for reward decisions"
    if campaign.running_game:
        return "a game is being played"
    return "ready for the next game (`risk campaign next`, host)"


def _world_words(world: legacy_pb2.World) -> str:
    parts = [
        f"{len(world.scars)} {'scar' if len(world.scars) == 1 else 'scars'}",
        f"{len(world.cities)} {'city' if len(world.cities) == 1 else 'cities'}",
        f"{len(world.continent_names)} named "
        f"{'continent' if len(world.continent_names) == 1 else 'continents'}",
        f"{len(world.fortifications)} "
        f"{'fortification' if len(world.fortifications) == 1 else 'fortifications'}",
    ]
    names = [f"{city.name}" for city in world.cities] + [n.name for n in world.continent_names]
    return ", ".join(parts) + (f" ({'; '.join(names)})" if names else "")


# ---- commands --------------------------------------------------------------------------------


async def cmd_create(client: RiskClient, args: argparse.Namespace) -> int:
    if args.factions:
        factions = [parse_faction(text) for text in args.factions]
        if len(factions) != args.players:
            raise ValueError(f"--faction given {len(factions)} times for {args.players} players")
    else:
        factions = default_factions(args.players)
    created = await client.create_campaign(factions, args.names, args.seat_players)
    _out(f"campaign {created.campaign.campaign_id}")
    _out(f"host-token {created.host_token}")
    for seat, token in enumerate(created.seat_tokens):
        _out(f"seat-token {seat} {token}")
    for seat, player in enumerate(args.seat_players):
        if player:
            _out(f"seat {seat} belongs to player {player}: they play it in every game with "
                 "their login")
    return 0


async def cmd_show(client: RiskClient, args: argparse.Namespace) -> int:
    _out(campaign_text(await client.get_campaign(args.campaign)))
    return 0


async def cmd_list(client: RiskClient, args: argparse.Namespace) -> int:
    count = 0
    async for campaign in client.iter_campaigns(args.page_size):
        if not count:
            _out(f"{'CAMPAIGN':<24} {'PHASE':<9} {'GAMES':>5} {'SEATS':>5} {'VERSION':>8}  "
                 "CREATED")
        created = datetime.fromtimestamp(campaign.created_at_ms / 1000, UTC)
        _out(f"{campaign.campaign_id:<24} {campaign.phase:<9} {campaign.games_played:>5} "
             f"{len(campaign.seats):>5} {campaign.version:>8}  {created:%Y-%m-%d %H:%M:%S}")
        count += 1
    _out(f"({count} {'campaign' if count == 1 else 'campaigns'})")
    return 0


async def cmd_next(client: RiskClient, args: argparse.Namespace) -> int:
    started = await client.start_campaign_game(
        args.campaign, seed=args.seed, max_turns=args.max_turns)
    _out(f"game {started.game.game_id} started (game {started.campaign.games_played + 1} "
         f"of the campaign); play it with each seat's campaign token, or a seat's player "
         "with their login")
    return 0


async def cmd_decide(client: RiskClient, args: argparse.Namespace) -> int:
    view = await client.get_campaign(args.campaign)
    if not view.legal_rewards:
        turn = view.campaign.next_decision
        whose = (f"it is {_seat_label(view.campaign, turn.seat)}'s decision" if turn
                 else "no reward decision is pending")
        if client.token is None:
            seat = "decide with that seat's token (--token or RISK_TOKEN)"
        elif view.viewer_seat < 0:
            seat = "this token holds no seat"
        else:
            seat = f"you are {_seat_label(view.campaign, view.viewer_seat)}"
        raise ValueError(f"nothing to decide: {whose}; {seat}")
    if not 1 <= args.choice <= len(view.legal_rewards):
        raise ValueError(f"choice {args.choice} is not listed: 1 to {len(view.legal_rewards)} "
                         f"(`risk campaign show {args.campaign}` with your token lists them)")
    reward = view.legal_rewards[args.choice - 1]
    if args.name is not None:
        reward = with_name(reward, args.name)
    version = view.campaign.version if args.expected_version is None else args.expected_version
    taken = await client.submit_campaign_decision(args.campaign, reward, version)
    _out(f"ok: {reward_words(reward)}; campaign at version {taken.campaign.version}")
    for event in taken.events:
        _out("  " + _campaign_event_words(event))
    _out(_phase_words(taken.campaign))
    return 0


def _campaign_event_words(event: legacy_pb2.LegacyCampaignEvent) -> str:
    kind = event.WhichOneof("kind") or "unknown"
    body = getattr(event, kind, None)
    fields = ", ".join(f"{f.name} {v}" for f, v in body.ListFields()) if body else ""
    return f"{kind.replace('_', ' ')}" + (f": {fields}" if fields else "")


async def cmd_demo(client: RiskClient, args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MAX_GAMES:
        raise ValueError(f"--games {args.games}: a campaign has 1 to {MAX_GAMES} games")
    created = await client.create_campaign(
        default_factions(args.players), [f"bot {seat}" for seat in range(args.players)])
    campaign = created.campaign
    _out(f"campaign {campaign.campaign_id}: {args.players} bots, {args.games} "
         f"{'game' if args.games == 1 else 'games'}")
    _out(f"host-token {created.host_token}")
    for seat, token in enumerate(created.seat_tokens):
        _out(f"seat-token {seat} {token}")

    async def started(game: service_pb2.GameSummary) -> None:
        _out(f"game {game.game_id}: started")

    async def over(game: service_pb2.GetGameResponse) -> None:
        outcome = game.game.outcome
        result = ("a draw" if outcome.winner < 0
                  else f"won by {_seat_label(campaign, outcome.winner)}")
        _out(f"game {game.game.game_id}: {result} ({outcome.reason}, "
             f"{game.game.version} changes)")

    async def decided(seat: int, reward: legacy_pb2.LegacyReward,
                      taken: CampaignDecisionTaken) -> None:
        del taken
        _out(f"  reward: {_seat_label(campaign, seat)} chose to {reward_words(reward)}")

    final = await play_campaign(
        client, created, args.games, seed=args.seed, max_turns=args.max_turns,
        entropy=args.seed or 0,
        progress=CampaignProgress(on_game_started=started, on_game_over=over,
                                  on_decision=decided),
    )
    _out("")
    _out(campaign_text(CampaignSeatView(final, -1, ())))
    return 0


_COMMANDS: dict[str, Command] = {
    "create": cmd_create,
    "show": cmd_show,
    "list": cmd_list,
    "next": cmd_next,
    "decide": cmd_decide,
    "demo": cmd_demo,
}


async def run_campaign(client: RiskClient, args: argparse.Namespace) -> int:
    return await _COMMANDS[args.campaign_command](client, args)
