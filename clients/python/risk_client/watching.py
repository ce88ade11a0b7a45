"""`risk watch`: follow a game until it ends, through outages, with one line of status.

The live view redraws the board (as the variant's renderer draws it) and the latest events;
`plain` prints one line per event instead. Neither gives up while the service is away: the
watcher is passive, so it keeps trying (a growing pause, at most `RETRY_MAX_SECONDS`) until the
game ends or the user presses Ctrl-C. What is happening is said in ONE status line, not one
line per attempt: the live view draws it under the board ("service unavailable at HOST: ...;
retrying in 4 s, attempt 3") and clears it when the service answers again; plain output writes
it to stderr, in place on a terminal, else once when an outage starts and once when it ends.
A stream the service closes before the game ended (a clean shutdown or a restart) counts as an
outage too, so a watcher never sits on a stale board without saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

from risk_client.client import RiskClient
from risk_client.errors import RiskError, Unavailable
from risk_client.render import Seats, event_line, game_text, is_game_end
from risk_proto.risk.v1 import game_pb2, service_pb2

CLEAR_SCREEN = "\x1b[H\x1b[2J"
LOG_LINES_MIN = 5
FRAME_SECONDS = 0.05
IDLE_REDRAW_SECONDS = 5.0
RETRY_MAX_SECONDS = 5.0
_RETRY_FIRST_SECONDS = 0.5
_PASSING_CODES = frozenset({"UNAVAILABLE", "DEADLINE_EXCEEDED", "CANCELLED", "UNKNOWN"})
_OVER = frozenset({service_pb2.GAME_STATUS_FINISHED, service_pb2.GAME_STATUS_ABANDONED,
                   service_pb2.GAME_STATUS_CANCELLED})


def is_passing(error: RiskError) -> bool:
    """An error a watcher waits out: the service is away, restarting, or cut the stream."""
    return isinstance(error, Unavailable) or error.code in _PASSING_CODES or \
        error.reason == "SUBSCRIBER_TOO_SLOW"


class Outage:
    """The watcher's one status line: what is wrong and when it tries again."""

    def __init__(self, target: str, report: Callable[[str | None], None]) -> None:
        self.target = target
        self.report = report  # a status line, or None when the service answers again
        self.attempt = 0
        self.since = 0.0

    def failed(self, what: str) -> float:
        """Say that `what` went wrong; return how long to wait before the next try."""
        if not self.attempt:
            self.since = time.monotonic()
        self.attempt += 1
        delay = min(RETRY_MAX_SECONDS, _RETRY_FIRST_SECONDS * 2.0 ** (self.attempt - 1))
        away = time.monotonic() - self.since
        self.report(f"{what}; retrying in {delay:.0f} s (attempt {self.attempt}, "
                    f"{away:.0f} s so far; Ctrl-C stops watching)")
        return delay

    def error(self, error: RiskError) -> float:
        detail: str = error.message.splitlines()[0] if error.message else error.code
        return self.failed(f"service unavailable at {self.target}: {detail}")

    def recovered(self) -> None:
        if self.attempt:
            self.attempt = 0
            self.report(None)


async def read(client: RiskClient, game_id: str, outage: Outage) -> service_pb2.GetGameResponse:
    """GetGame, trying again (and saying so) while the service is away."""
    while True:
        try:
            game = await client.get_game(game_id)
        except RiskError as exc:
            if not is_passing(exc):
                raise
            await asyncio.sleep(outage.error(exc))
        else:
            outage.recovered()
            return game


async def events(client: RiskClient, game_id: str, after: int, outage: Outage
                 ) -> AsyncIterator[game_pb2.Event]:
    """Every event after `after` until the game's last, resumed after each outage with no
    event skipped or repeated."""
    last = after
    while True:
        try:
            async for event in client.stream_events(game_id, after_seq=last, resume=False):
                outage.recovered()
                if event.seq <= last:
                    continue
                last = event.seq
                yield event
                if is_game_end(event):
                    return
            wait = outage.failed("the service closed the event stream (shutting down or "
                                 "restarting)")
        except RiskError as exc:
            if not is_passing(exc):
                raise
            wait = outage.error(exc)
        await asyncio.sleep(wait)
        game = await read(client, game_id, outage)  # back: is there anything left to see?
        if game.game.status in _OVER and last >= game.game.last_seq:
            return


def _plain_reporter() -> Callable[[str | None], None]:
    """Status on stderr: rewritten in place on a terminal, else once per outage."""
    shown: list[str] = []
    in_place = sys.stderr.isatty()

    def report(line: str | None) -> None:
        if line is None:
            if shown:
                sys.stderr.write(("\r\x1b[K" if in_place else "") + "(the service answers "
                                 "again; watching)\n")
                shown.clear()
        elif in_place:
            sys.stderr.write(f"\r\x1b[K({line})")
            shown[:] = [line]
        elif not shown:
            sys.stderr.write(f"({line})\n")
            shown.append(line)
        sys.stderr.flush()

    return report


async def watch(
    client: RiskClient, game_id: str, *, after: int = 0, plain: bool = False,
    colour: bool = False, target: str = "",
) -> service_pb2.GetGameResponse:
    """Follow a game until it ends: the live board, or one line per event; returns the end."""
    if plain:
        outage = Outage(target, _plain_reporter())
        game = await read(client, game_id, outage)
        seats = Seats.of(game.game)
        if game.game.status in _OVER and after >= game.game.last_seq:
            return game
        async for event in events(client, game_id, after, outage):
            print(event_line(event, seats), flush=True)
        return await read(client, game_id, outage)
    return await _watch_live(client, game_id, after, colour, target)


async def _watch_live(client: RiskClient, game_id: str, after: int, colour: bool, target: str
                      ) -> service_pb2.GetGameResponse:
    queue: asyncio.Queue[game_pb2.Event | Exception | str | None] = asyncio.Queue()
    status: list[str] = []

    def report(line: str | None) -> None:
        status[:] = [line] if line else []
        queue.put_nowait("redraw")

    outage = Outage(target, report)
    log: deque[str] = deque(maxlen=200)
    game = await _first_read(client, game_id, outage, log=log, status=status, colour=colour)
    seats = Seats.of(game.game)
    if game.game.status in _OVER and after >= game.game.last_seq:
        return game

    async def pump() -> None:
        try:
            async for event in events(client, game_id, after, outage):
                queue.put_nowait(event)
        except Exception as exc:  # handed to the drawing loop, which re-raises it
            queue.put_nowait(exc)
        finally:
            queue.put_nowait(None)

    pump_task = asyncio.create_task(pump())
    try:
        done = False
        while not done:
            try:
                batch = [await asyncio.wait_for(queue.get(), IDLE_REDRAW_SECONDS)]
            except TimeoutError:
                batch = []  # a quiet game: refresh the board anyway
            while not queue.empty():
                batch.append(queue.get_nowait())
            for item in batch:
                if item is None:
                    done = True
                elif isinstance(item, Exception):
                    raise item
                elif isinstance(item, game_pb2.Event):
                    log.append(event_line(item, seats))
            if not status:
                # the view is re-read once per batch, so a burst of events costs one read;
                # frames are spaced so a fast game batches more instead of redrawing each event
                game = await _reread(client, game_id, game)
            draw(game, log, colour, status)
            if not done:
                await asyncio.sleep(FRAME_SECONDS)
    finally:
        pump_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump_task
    return game


async def _reread(client: RiskClient, game_id: str, game: service_pb2.GetGameResponse
                  ) -> service_pb2.GetGameResponse:
    """The game now, or `game` while the service is away: the event pump notices the outage
    and sets the status line, and the drawing loop must not block on it meanwhile."""
    try:
        return await client.get_game(game_id)
    except RiskError as exc:
        if not is_passing(exc):
            raise
        return game


async def _first_read(client: RiskClient, game_id: str, outage: Outage, *, log: deque[str],
                      status: list[str], colour: bool) -> service_pb2.GetGameResponse:
    """The first GetGame; while the service is away, a screen saying so instead of a board."""
    reading = asyncio.create_task(read(client, game_id, outage))
    drawn = ""
    while not reading.done():
        await asyncio.wait([reading], timeout=0.2)
        if status and status[0] != drawn and not reading.done():
            drawn = status[0]  # a new frame only when the status line changes
            size = shutil.get_terminal_size((100, 40))
            sys.stdout.write(CLEAR_SCREEN + f"game {game_id}\n\nstatus: {status[0]}\n"[
                :size.columns * 4])
            sys.stdout.flush()
    game = reading.result()
    draw(game, log, colour, status)
    return game


def draw(game: service_pb2.GetGameResponse, log: deque[str], colour: bool, status: list[str]
         ) -> None:
    size = shutil.get_terminal_size((100, 40))
    board = game_text(game, colour=colour, width=size.columns).splitlines()
    footer = [f"status: {status[0]}"] if status else []
    room = max(LOG_LINES_MIN, size.lines - len(board) - 3 - len(footer))
    lines = [*board, "", "latest events:", *list(log)[-room:], *footer]
    sys.stdout.write(CLEAR_SCREEN + "\n".join(lines) + "\n")
    sys.stdout.flush()
