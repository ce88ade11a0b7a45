"""A campaign call whose reply is lost after the service applied it: the SDK resends it and
reports what landed, once, instead of an error or a second change.

Between the client and a real service process sits a TCP relay that, when told to, passes
the next call to the service but drops the service's answer; once the test has seen the change
committed (through a direct client), the relay cuts the connection, as a network failure right
after the commit does. The client sees UNAVAILABLE, reconnects through the relay (passing
everything again) and resends.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from risk_client import RiskClient
from risk_client.campaigns import default_factions
from risk_service.redis_server import free_port
from risk_testing.harness import ServiceProcess
from tests.client.serving import module_service

service = module_service("campaign-lost-reply")
COMMIT_WAIT_S = 30.0


class CuttingRelay:
    """Relays loopback TCP to `target`. After `drop_answers()` the service's answers to the
    next request on are dropped, until `cut()` closes that connection."""

    def __init__(self, target: str) -> None:
        self.host, port = target.rsplit(":", 1)
        self.target_port = int(port)
        self.port = free_port()
        self.armed = False
        self.cuts = 0
        self._cut = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, self.port)

    def drop_answers(self) -> None:
        self._cut.clear()
        self.armed = True

    def cut(self) -> None:
        self._cut.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # the connection's own task too: `close` ends it, and it returns rather than ending
        # cancelled (asyncio's streams log a connection task that ends cancelled as an error)
        accepting = asyncio.current_task()
        assert accepting is not None
        self._tasks.add(accepting)
        try:
            with contextlib.suppress(asyncio.CancelledError):
                await self._relay(reader, writer)
        finally:
            self._tasks.discard(accepting)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(
            self.host, self.target_port)
        answer_lost = asyncio.Event()

        async def to_service() -> None:
            while data := await reader.read(65536):
                if self.armed and not answer_lost.is_set():
                    # the request's frames go on; from now on the answer goes nowhere
                    self.armed = False
                    answer_lost.set()
                upstream_writer.write(data)
                await upstream_writer.drain()

        async def to_client() -> None:
            while data := await upstream_reader.read(65536):
                if not answer_lost.is_set():
                    writer.write(data)
                    await writer.drain()

        pumps = [asyncio.create_task(to_service()), asyncio.create_task(to_client())]
        waiter = asyncio.create_task(self._cut_after(answer_lost))
        self._tasks.update([*pumps, waiter])
        try:
            await asyncio.wait([*pumps, waiter], return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiter.done() and not waiter.cancelled():
                self.cuts += 1
            for task in (*pumps, waiter):
                task.cancel()
                self._tasks.discard(task)
            for closing in (writer, upstream_writer):
                closing.close()
                with contextlib.suppress(Exception):
                    await closing.wait_closed()


    async def _cut_after(self, answer_lost: asyncio.Event) -> None:
        await answer_lost.wait()
        await self._cut.wait()


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    """Wait for the service to show a change (the commit the lost answer was about)."""
    async with asyncio.timeout(COMMIT_WAIT_S):
        while not await condition():
            await asyncio.sleep(0.05)


@pytest.fixture
async def relay(service: ServiceProcess) -> AsyncIterator[CuttingRelay]:
    relayed = CuttingRelay(service.target)
    await relayed.start()
    yield relayed
    await relayed.close()


async def test_lost_start_and_decision_replies_are_recovered(
    service: ServiceProcess, relay: CuttingRelay
) -> None:
    """A game start and a reward decision whose replies are lost each land once; the SDK's
    resend returns the started game and the decided campaign (`recovered`)."""
    async with RiskClient(service.target) as direct, \
            RiskClient(f"127.0.0.1:{relay.port}") as relayed:
        created = await direct.create_campaign(default_factions(3))
        campaign_id = created.campaign.campaign_id
        host = relayed.with_token(created.host_token)
        await host.get_campaign(campaign_id)  # the relayed channel is connected

        async def game_started() -> bool:
            return bool((await direct.get_campaign(campaign_id)).campaign.game_ids)

        relay.drop_answers()
        starting = asyncio.create_task(host.start_campaign_game(campaign_id, seed=3))
        await until(game_started)
        relay.cut()
        started = await starting
        assert relay.cuts == 1, "the start's answer was lost on the way"
        assert started.game.game_id == f"{campaign_id}.1"
        after_start = (await direct.get_campaign(campaign_id)).campaign
        assert after_start.game_ids == (started.game.game_id,), "one game, not two"

        for seat in (0, 1):
            await direct.with_token(created.seat_tokens[seat]).resign(started.game.game_id)
        winner = relayed.with_token(created.seat_tokens[2])
        mine = await winner.get_campaign(campaign_id)
        version = mine.campaign.version

        async def decided() -> bool:
            return (await direct.get_campaign(campaign_id)).campaign.version > version

        relay.drop_answers()
        deciding = asyncio.create_task(
            winner.submit_campaign_decision(campaign_id, mine.legal_rewards[0], version))
        await until(decided)
        relay.cut()
        taken = await deciding
        assert relay.cuts == 2, "the decision's answer was lost on the way"
        assert taken.recovered and taken.events == ()
        assert taken.campaign.version == version + 1
        world = (await direct.get_campaign(campaign_id)).campaign.message.state.world
        assert len(world.continent_names) == 1, "the decision landed once"
