"""Leaks, for every variant in the engine's REGISTRY: canaries only where the viewer is entitled.

One whole bot game per variant, watched by a spectator, the host and every seat (see
`canaries.py`). A variant registered later is picked up here by itself; one without a
`LeakDriver` fails the first test (and its own leak test) instead of being skipped.
"""

from __future__ import annotations

import time

import grpc
import pytest
import redis.asyncio

from risk_proto.risk.v1 import service_pb2_grpc
from risk_rules.engine import REGISTRY
from risk_testing.harness import ServiceProcess
from tests.reliability.canaries import (
    DRIVERS,
    EVENT_SECRETS,
    Capture,
    check_capture,
    redacted_events,
    watch_game,
)

VARIANTS = sorted(REGISTRY)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_has_a_leak_driver(variant: str) -> None:
    """A registered variant without a LeakDriver in canaries.DRIVERS is a failure, not a skip."""
    assert variant in DRIVERS, (
        f"variant {variant!r} is in the engine's REGISTRY but tests/reliability/canaries.py "
        f"has no LeakDriver for it: add one (fast options and a seed), so that its leak test runs")
    assert variant in EVENT_SECRETS, (
        f"canaries.EVENT_SECRETS does not say which {variant!r} event fields are secret "
        "(an empty dict if none): write it from the rules digest's who-sees-what table")


@pytest.mark.parametrize("variant", VARIANTS)
async def test_no_canary_reaches_a_viewer_not_entitled_to_it(
    variant: str, service: ServiceProcess, redis_client: redis.asyncio.Redis
) -> None:
    """Seed, generator, deck order and tokens reach nobody; views and events are the viewer's."""
    if variant not in DRIVERS:
        pytest.fail(f"no LeakDriver for {variant!r}: nothing was checked")
    driver = DRIVERS[variant]
    capture = Capture()
    started = time.monotonic()
    async with grpc.aio.insecure_channel(service.target) as channel:
        game = await watch_game(service_pb2_grpc.RiskServiceStub(channel), redis_client,
                                variant, driver, capture)
    service.stop()  # every log line, the streams' last ones too, is in the file now
    log = service.logs().encode()
    assert log.count(game.game_id.encode()) > 4 * capture.actions, "the log is not what it seems"
    found = await check_capture(redis_client, game, capture, log, driver)
    redacted = await redacted_events(redis_client, game)
    streamed = sum(len(events) for events in capture.streams.values())
    print(f"\nleaks/{variant}: {capture.actions} actions, {len(game.viewers)} viewers, "
          f"{len(capture.replies)} replies and stream messages ({streamed} events streamed, "
          f"{capture.views} views) searched for "
          f"{len(capture.needles) + len(capture.numbers)} canaries + "
          f"{len(game.viewers) - 1} tokens, and the log ({len(log)} bytes); {capture.probes} "
          f"(secret, viewer) pairs probed by changing the stored secret; events redacted "
          f"for some viewers: {redacted}; found where not entitled: {len(found)} "
          f"({time.monotonic() - started:.1f} s)")
    assert not found, found[:20]
    assert capture.actions > 20 and len(capture.needles) > 8 and capture.probes > 100
    assert redacted > 0 or not driver.redacts, "the game never redacted an event"
    searched = {label for label, _viewer, _data in capture.replies}
    due = {"CreateGame", "GetGame", "ListLegalActions", "ListLegalActions error", "SubmitAction",
           "StreamEvents", "ListGames", "ExportGame error", "GetGame at_version",
           "GetGame at_version error"}
    due |= {"Resign"} if driver.resign_at is not None else set()
    assert due <= searched, f"never searched: {sorted(due - searched)}"
