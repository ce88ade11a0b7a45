"""What the player commands do (their parsers: player_parser.py): log in and out, a player's
games with whose turn it is and until when, their stream of events (`risk feed`),
invitations (made, accepted, declined, revoked), vacation; and the correspondence
clock `risk create` sends.

Everything printed is words a person reads (issue 38's rule): seats by number and name, times
as UTC dates with how far off they are, no enum names, no -1, no braces.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime

from risk_client import credentials
from risk_client.client import RiskClient
from risk_client.errors import RiskError
from risk_client.render import STATUS_NAMES, VARIANT_NAMES, Seats, outcome_text
from risk_proto.risk.v1 import lifecycle_pb2, player_games_pb2, service_pb2

HOUR_S = 3600
DAY_S = 24 * HOUR_S
_MISSED = {"remove": lifecycle_pb2.MISSED_TURN_POLICY_REMOVE,
           "bot": lifecycle_pb2.MISSED_TURN_POLICY_BOT}
_INVITATION_STATES = {
    player_games_pb2.INVITATION_STATE_PENDING: "open",
    player_games_pb2.INVITATION_STATE_ACCEPTED: "accepted",
    player_games_pb2.INVITATION_STATE_DECLINED: "declined",
    player_games_pb2.INVITATION_STATE_REVOKED: "revoked",
    player_games_pb2.INVITATION_STATE_EXPIRED: "expired",
}


def _out(text: str = "") -> None:
    print(text, flush=True)


def span(seconds: float) -> str:
    """A duration in the largest whole units that say it: "2 days 3 h", "45 min"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, DAY_S)
    hours, rest = divmod(rest, HOUR_S)
    minutes = rest // 60
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"{minutes} min" if minutes else "under a minute"


def when(at_ms: int, now_s: float | None = None) -> str:
    """A moment as a UTC date and how far it is from now: "2025-06-01 14:00 UTC (in 23 h)"."""
    now = time.time() if now_s is None else now_s
    date = datetime.fromtimestamp(at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    delta = at_ms / 1000 - now
    return f"{date} ({'in ' + span(delta) if delta >= 0 else span(-delta) + ' ago'})"


# ---- risk create: the correspondence clock ---------------------------------------------------


def clock_from_args(args: argparse.Namespace) -> lifecycle_pb2.ClockOptions | None:
    """The ClockOptions `risk create`'s options ask for, or None for an untimed game."""
    turn_s = 0
    if getattr(args, "turn_hours", None) is not None:
        turn_s = round(args.turn_hours * HOUR_S)
    elif getattr(args, "turn_days", None) is not None:
        turn_s = round(args.turn_days * DAY_S)
    vacation = getattr(args, "vacation_days", None)
    missed = getattr(args, "missed_turns", None)
    on_missed = getattr(args, "on_missed", None)
    if on_missed and missed is None:
        raise ValueError("--on-missed needs --missed-turns K (after how many missed turns)")
    if not turn_s and (vacation is not None or missed is not None):
        raise ValueError("--vacation-days and --missed-turns are for correspondence games: "
                         "give --turn-hours or --turn-days too")
    if not turn_s:
        return None
    return lifecycle_pb2.ClockOptions(
        turn_seconds=turn_s, vacation_days=vacation or 0, missed_turns_limit=missed or 0,
        on_missed_turns=_MISSED[on_missed or "remove"])


def clock_words(clock: lifecycle_pb2.ClockOptions) -> str:
    """A correspondence clock in words, for `risk create`'s reply."""
    parts = [f"a turn within {span(clock.turn_seconds)}"]
    if clock.vacation_days:
        parts.append(f"{clock.vacation_days} vacation days per seat")
    if clock.missed_turns_limit:
        botted = clock.on_missed_turns == lifecycle_pb2.MISSED_TURN_POLICY_BOT
        then = "a bot plays the seat" if botted else "the seat is removed"
        turns = "turn" if clock.missed_turns_limit == 1 else f"{clock.missed_turns_limit} turns"
        parts.append(f"after {turns} missed in a row {then}")
    return "clock: " + "; ".join(parts)


# ---- login -------------------------------------------------------------------------------------


async def cmd_login(client: RiskClient, args: argparse.Namespace) -> int:
    given = args.token if args.token and not args.logged_in else None
    if given:
        claims = credentials.claims(given)
        await client.ping()  # the service reads the token: a refused one fails here, unstored
        login = credentials.Login(str(claims["sub"]), given, args.target,
                                  int(claims.get("exp", 0) or 0) * 1000)  # type: ignore[call-overload]  # a JSON number
    else:
        renewing = args.logged_in and not args.new
        issuer = client if renewing else client.with_token(None)
        issued = await issuer.issue_player_token()
        login = credentials.Login(issued.player_id, issued.token, args.target,
                                  issued.expires_at_ms)
    path = credentials.save(login)
    until = f"; the token is good until {when(login.expires_at_ms)}" if login.expires_at_ms \
        else ""
    _out(f"logged in as player {login.player_id} at {login.target}{until}")
    _out(f"stored in {path}; `risk` commands act as this player unless given --token")
    return 0


async def cmd_whoami(client: RiskClient, args: argparse.Namespace) -> int:
    del client
    login: credentials.Login | None = args.login
    if login is None:
        _out("not logged in: `risk login` makes you a player")
        return 1
    until = f"; token good until {when(login.expires_at_ms)}" if login.expires_at_ms else ""
    _out(f"player {login.player_id} at {login.target}{until}")
    if login.target != args.target:
        _out(f"(not at {args.target}: commands there act without this login)")
    elif not args.logged_in:
        _out("(--token or RISK_TOKEN is given: commands act with that token instead)")
    return 0


async def cmd_logout(client: RiskClient, args: argparse.Namespace) -> int:
    del client, args
    removed = credentials.remove()
    _out(f"logged out: removed {removed}" if removed else "not logged in")
    return 0


# ---- my games ------------------------------------------------------------------------------


def _needs_login(args: argparse.Namespace, what: str) -> None:
    if not args.token:
        raise ValueError(f"{what} needs a player: `risk login` first (or --token PLAYER_TOKEN)")


def my_game_line(mine: service_pb2.MyGame, now_s: float | None = None) -> str:
    """One of the player's games: its id, variant, status and what it waits for."""
    game = mine.game
    seats = Seats.of(game)
    status = STATUS_NAMES.get(game.status, "unknown")
    variant = VARIANT_NAMES.get(game.variant, "unknown")
    you = f"you are {seats.label(mine.seat)}" if mine.seat >= 0 else "you host it"
    if game.status == service_pb2.GAME_STATUS_WAITING:
        taken = sum(1 for seat in game.seats if seat.taken)
        detail = f"{taken} of {len(game.seats)} seats taken; {you}"
    elif game.status == service_pb2.GAME_STATUS_ACTIVE:
        deciding = list(game.decision.seats)
        if mine.your_turn:
            detail = "YOUR TURN"
        elif deciding:
            detail = "waiting for " + ", ".join(seats.label(seat) for seat in deciding)
        else:
            detail = "no decision pending"
        if game.deadline_ms:
            detail += f", deadline {when(game.deadline_ms, now_s)}"
        detail += f"; {you}"
    elif game.HasField("outcome"):
        detail = f"{outcome_text(game.outcome, seats)}; {you}"
    else:
        detail = you
    return f"{game.game_id:<28} {variant:<10} {status:<9} {detail}"


async def cmd_games(client: RiskClient, args: argparse.Namespace) -> int:
    from risk_client.cli import STATUSES  # noqa: PLC0415 - the parser's table of names

    status = STATUSES[args.status] if args.status else 0
    if not args.mine:
        from risk_client.cli_commands import cmd_list  # noqa: PLC0415 - no import cycle at load

        args.variant, args.page_size, args.page_token = None, 0, ""
        return await cmd_list(client, args)
    _needs_login(args, "risk games --mine")
    count = 0
    turns = 0
    async for mine in client.iter_my_games(status):
        if not count:
            who = f" (player {args.login.player_id})" if args.logged_in else ""
            _out(f"your games{who}, latest first:")
        _out(my_game_line(mine))
        count += 1
        turns += mine.your_turn
    if not count:
        _out("no games yet: `risk join GAME SEAT` or `risk accept CODE` takes a seat as you")
    else:
        _out(f"({count} game{'s' if count != 1 else ''}, your turn in {turns})")
    return 0


# ---- invitations ---------------------------------------------------------------------------


def _invitation_ref(text: str) -> dict[str, str]:
    """`GAME/INVITATION` (as `risk invitations` prints it) or an open-seat link's code."""
    if "/" in text:
        game_id, _, invitation_id = text.partition("/")
        return {"game_id": game_id, "invitation_id": invitation_id}
    return {"code": text}


def invitation_line(invitation: player_games_pb2.Invitation) -> str:
    state = _INVITATION_STATES.get(invitation.state, "unknown")
    ref = f"{invitation.game_id}/{invitation.invitation_id}"
    variant = VARIANT_NAMES.get(invitation.variant, "")
    whom = f"for {invitation.invitee}" if invitation.invitee else "open link"
    by = f" from {invitation.host_player}" if invitation.host_player else ""
    line = f"{ref}  {variant} seat {invitation.seat}, {whom}{by}: {state}"
    if invitation.state == player_games_pb2.INVITATION_STATE_PENDING and \
            invitation.expires_at_ms:
        line += f" until {when(invitation.expires_at_ms)}"
    if invitation.accepted_by:
        line += f" by {invitation.accepted_by}"
    return line


async def cmd_invite(client: RiskClient, args: argparse.Namespace) -> int:
    if bool(args.player) == bool(args.link):
        raise ValueError("name the PLAYER invited, or give --link for an open-seat link")
    made = await client.create_invitation(args.game, args.seat, args.player, link=args.link,
                                          expires_in_seconds=round(args.hours * HOUR_S))
    until = f"open until {when(made.expires_at_ms)}"
    if args.link:
        _out(f"link to seat {made.seat} of game {made.game_id} ({until}):")
        _out(made.code)
        _out(f"whoever has it takes the seat: `risk accept {made.code}` (shown once: keep it)")
    else:
        _out(f"invited {made.invitee} to seat {made.seat} of game {made.game_id} ({until})")
        _out(f"they accept with `risk accept {made.game_id}/{made.invitation_id}`")
    return 0


async def cmd_accept(client: RiskClient, args: argparse.Namespace) -> int:
    _needs_login(args, "risk accept")
    taken = await client.accept_invitation(display_name=args.name,
                                           **_invitation_ref(args.invitation))
    _out(f"seat {taken.seat} of game {taken.game_id} is yours (player {taken.player_id}); "
         f"your login plays it: `risk legal {taken.game_id}`")
    if taken.seat_token:
        _out(f"seat-token {taken.seat_token}")
    return 0


async def cmd_decline(client: RiskClient, args: argparse.Namespace) -> int:
    _needs_login(args, "risk decline")
    declined = await client.decline_invitation(**_invitation_ref(args.invitation))
    _out(f"declined: {invitation_line(declined)}")
    return 0


async def cmd_revoke(client: RiskClient, args: argparse.Namespace) -> int:
    revoked = await client.revoke_invitation(**_invitation_ref(args.invitation))
    _out(f"revoked: {invitation_line(revoked)}")
    return 0


async def cmd_invitations(client: RiskClient, args: argparse.Namespace) -> int:
    listed = await client.list_invitations(args.game)
    for invitation in listed:
        _out(invitation_line(invitation))
    whose = f"game {args.game}" if args.game else "you"
    _out(f"({len(listed)} invitation{'s' if len(listed) != 1 else ''} for {whose})")
    return 0


# ---- the player's stream ------------------------------------------------------------------


def player_event_line(event: player_games_pb2.PlayerEvent, now_s: float | None = None) -> str:
    """One event of the player's stream in words, headed by its #seq (what `--after` takes)."""
    at = datetime.fromtimestamp(event.at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC") \
        if event.at_ms else "-"
    variant = VARIANT_NAMES.get(event.variant, "")
    game = f"game {event.game_id}" + (f" ({variant})" if variant else "")
    you = ""
    if event.seat >= 0:
        you = f"seat {event.seat}" + (f" ({event.seat_name})" if event.seat_name else "")
    kind = event.WhichOneof("kind")
    if kind == "turn":
        deadline = f", deadline {when(event.turn.deadline_ms, now_s)}" \
            if event.turn.deadline_ms else ", no deadline"
        text = f"YOUR TURN in {game} as {you or 'your seat'}{deadline}"
    elif kind == "started":
        text = f"{game} started; you are {you or 'seated'}"
    elif kind == "finished":
        finished = event.finished
        named = {int(number): name for number, name in STATUS_NAMES.items()}
        status = named.get(finished.status, "over")
        if finished.winner >= 0:
            who = "you win" if finished.winner == event.seat else f"seat {finished.winner} wins"
            text = f"{game} {status}: {who}"
        else:
            text = f"{game} {status} with no winner"
        if finished.ranking:
            text += "; ranking: " + ", ".join(f"seat {seat}" for seat in finished.ranking)
    elif kind == "invitation":
        text = f"invitation: {invitation_line(event.invitation)}"
    elif kind == "match_found":
        found = event.match_found
        bots = f", {found.bots} of them bots" if found.bots else ""
        text = (f"MATCH FOUND: {game}, {'rated' if found.rated else 'unrated'}, "
                f"{found.table_size} seats{bots}; you are {you or 'seated'}")
    else:
        text = f"an event of {game} this client cannot read"
    return f"#{event.seq} {at}  {text}"


async def cmd_feed(client: RiskClient, args: argparse.Namespace) -> int:
    # the reconnecting loop of `risk watch` (watching.py), over the player's stream: the SDK's
    # own resume is off so that each outage is said on stderr and waited out without end
    from risk_client.watching import Outage, is_passing  # noqa: PLC0415 - only feed needs it

    _needs_login(args, "risk feed")
    if args.after < 0 or args.count < 0:
        raise ValueError("--after and --count are 0 or more")

    def report(line: str | None) -> None:
        sys.stderr.write("(the service answers again; following)\n" if line is None
                         else f"({line})\n")
        sys.stderr.flush()

    outage = Outage(args.target, report)
    last, shown = args.after, 0
    who = f"player {args.login.player_id}" if args.logged_in else "this player"
    _out(f"following {who}'s events" + (f" after #{last}" if last else "") + " (Ctrl-C stops)")
    while True:
        try:
            async for event in client.stream_player_events(after_seq=last, resume=False):
                outage.recovered()
                if event.seq <= last:
                    continue
                last = event.seq
                _out(player_event_line(event))
                shown += 1
                if args.count and shown >= args.count:
                    return 0
            wait = outage.failed("the service closed the stream (shutting down or restarting)")
        except RiskError as exc:
            if not is_passing(exc):
                raise
            wait = outage.error(exc)
        await asyncio.sleep(wait)


# ---- vacation ------------------------------------------------------------------------------


async def cmd_vacation(client: RiskClient, args: argparse.Namespace) -> int:
    if args.vacation_command == "start":
        if args.days < 1:
            raise ValueError("a vacation is at least 1 day")
        summary = await client.start_vacation(args.game, args.days)
    else:
        summary = await client.end_vacation(args.game)
    seat = (await client.get_game(args.game)).viewer_seat
    left_ms = summary.vacation_left_ms[seat] if 0 <= seat < len(summary.vacation_left_ms) else 0
    until_ms = summary.vacation_until_ms[seat] if 0 <= seat < len(summary.vacation_until_ms) \
        else 0
    left = f"{span(left_ms / 1000)} of vacation left in this game"
    if args.vacation_command == "start":
        _out(f"on vacation in game {args.game} until {when(until_ms)}: your clocks are "
             f"stopped; {left}")
    else:
        deadline = f"; your deadline: {when(summary.deadline_ms)}" \
            if summary.deadline_ms and seat in summary.decision.seats else ""
        _out(f"back from vacation in game {args.game}; {left}{deadline}")
    return 0


COMMANDS = {
    "login": cmd_login,
    "whoami": cmd_whoami,
    "logout": cmd_logout,
    "games": cmd_games,
    "invite": cmd_invite,
    "accept": cmd_accept,
    "decline": cmd_decline,
    "invitations": cmd_invitations,
    "revoke": cmd_revoke,
    "feed": cmd_feed,
    "vacation": cmd_vacation,
}


async def run_player(client: RiskClient, args: argparse.Namespace) -> int:
    try:
        return await COMMANDS[args.command](client, args)
    except RiskError as error:
        if error.reason == "NOT_A_PLAYER":
            raise ValueError(f"{error.message}: `risk login` as a player first") from None
        raise
