"""The pause of a background loop (the matchmaker, the event director) between its passes."""

from __future__ import annotations

import asyncio
import contextlib

IDLE_PAUSE_MAX_S = 5.0  # the longest pause of a loop that found nothing to do


async def pause(interval_s: float, idle: int, wake: asyncio.Event) -> None:
    """`interval_s` after a pass that had work; after `idle` passes in a row without any, a
    pause doubling each time up to IDLE_PAUSE_MAX_S (or the interval when longer), cut short
    when `wake` is set (work that arrived on this process)."""
    if not idle:
        await asyncio.sleep(interval_s)
        return
    longest = max(interval_s, IDLE_PAUSE_MAX_S)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), min(interval_s * 2 ** min(idle, 16), longest))
    wake.clear()
