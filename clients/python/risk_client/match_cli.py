"""`risk play`: ask the matchmaker for a game as the logged-in player and wait until a table is
formed (docs/ratings.md, "Matchmaking"; docs/cli.md).

It polls the ticket once a second (GetMatchTicket) rather than holding the player's stream: a
ticket is one small read, and the stream would also carry every other game's events. Ctrl-C
while the ticket still waits cancels it, so nobody is seated at a table they left.
"""

from __future__ import annotations

import argparse
import asyncio

from risk_client.client import RiskClient
from risk_client.errors import RiskError
from risk_client.player_cli import _needs_login, when
from risk_client.render import VARIANT_NAMES
from risk_proto.risk.v1 import matchmaking_pb2
from risk_rules import variants

POLL_S = 1.0
_OPEN = (matchmaking_pb2.MATCH_STATUS_WAITING, matchmaking_pb2.MATCH_STATUS_MATCHING)


def _out(text: str = "") -> None:
    print(text, flush=True)


async def cmd_play(client: RiskClient, args: argparse.Namespace) -> int:
    _needs_login(args, "risk play")
    ticket = await client.request_match(
        variants.numbers()[args.variant], args.sizes, rated=args.rated,
        allow_bots_after_seconds=args.bots_after, display_name=args.name,
        expires_in_seconds=args.wait)
    sizes = " or ".join(map(str, ticket.sizes))
    bots = f", bots after {args.bots_after} s" if args.bots_after else ""
    _out(f"waiting for a table of {sizes} ({VARIANT_NAMES.get(ticket.variant, args.variant)}, "
         f"{'rated' if ticket.rated else 'unrated'}{bots}) until "
         f"{when(ticket.expires_at_ms)}; request {ticket.ticket_id} (Ctrl-C cancels it)")
    try:
        while ticket.status in _OPEN:
            await asyncio.sleep(POLL_S)
            ticket = await client.get_match_ticket(ticket.ticket_id)
    except asyncio.CancelledError:
        if ticket.status == matchmaking_pb2.MATCH_STATUS_WAITING:
            await asyncio.shield(_cancel(client, ticket.ticket_id))
        raise
    if ticket.status != matchmaking_pb2.MATCH_STATUS_MATCHED:
        what = ("expired: no table formed in time"
                if ticket.status == matchmaking_pb2.MATCH_STATUS_EXPIRED else "was cancelled")
        _out(f"request {ticket.ticket_id} {what}")
        return 1
    game = (await client.get_game(ticket.game_id)).game
    _out(f"game {ticket.game_id}: {ticket.table_size} seats"
         + (f", {ticket.bots} of them bots" if ticket.bots else "")
         + f"; you are seat {ticket.seat}")
    for seat in game.seats:
        who = seat.display_name or seat.player_id or "(unnamed)"
        bot = seat.seat < len(game.bot_seats) and game.bot_seats[seat.seat]
        mark = " (you)" if seat.seat == ticket.seat else " (bot)" if bot else ""
        _out(f"  seat {seat.seat}: {who}{mark}")
    _out(f"play: risk legal {ticket.game_id}   follow: risk watch {ticket.game_id}")
    return 0


async def _cancel(client: RiskClient, ticket_id: str) -> None:
    try:
        ticket = await client.cancel_match(ticket_id)
    except RiskError as error:
        if error.reason != "MATCH_ALREADY_FORMED":
            raise
        ticket = await client.get_match_ticket(ticket_id)
        _out(f"too late to cancel: the table formed, game {ticket.game_id} (seat "
             f"{ticket.seat})")
        return
    if ticket.status == matchmaking_pb2.MATCH_STATUS_CANCELLED:
        _out(f"request {ticket_id} cancelled")
