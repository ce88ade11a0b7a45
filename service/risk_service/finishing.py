"""Work that runs to its end once begun, whatever becomes of the call that began it.

grpc.aio cancels a call's task when its client goes or its deadline passes, and the HTTP port
does the same (connectrpc's disconnect watch, the WebSocket's close). A cancel lands at the
call's next await. For a read that is right. A change made of several writes is different: a
cancel between them leaves the change half made. Examples are a campaign game stored but
never started, or a move committed whose clock deadline and bot turn were never scheduled.
And the store's connection sends a command even when the task awaiting it is cancelled, so a
cancel during a write usually lets the write land, and skips only what follows it.

`to_the_end(work)` runs such work as a task of its own and awaits it shielded. A cancelled
caller stops waiting, but the work goes on. A failure nobody waits for any more is logged.
That costs a task and a loop turn or two (about 17 us, bench/RESULTS.md), paid by rare calls
only; a commit, on every move, instead catches its cancel and hands the rest of its change to
`start` (operations/commit.py). `drain` lets a stopping process wait for what is still running
before it closes Redis.

asyncio.shield is the standard library's tool for this. What it leaves to its user is kept
here once: a strong reference to each task (the loop holds only weak ones), the log line of
an orphaned failure, and the drain at stop.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine
from typing import Any, TypeVar

import structlog

log = structlog.get_logger()
T = TypeVar("T")

_running: set[asyncio.Future[Any]] = set()


async def to_the_end(work: Coroutine[Any, Any, T], what: str) -> T:
    """Await `work`, run as its own task that cancelling this call does not cancel. `what`
    names it in the log line of a failure that happens after its caller went."""
    task = _run(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.done():
            task.add_done_callback(functools.partial(_orphan_ended, what))
        raise


def start(work: Coroutine[Any, Any, Any], what: str) -> None:
    """Run `work` to its end with nobody waiting for it (the rest of a change whose call was
    cancelled); a failure is logged, naming `what`."""
    _run(work).add_done_callback(functools.partial(_orphan_ended, what))


def _run(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    task = asyncio.ensure_future(work)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def _orphan_ended(what: str, task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("finished_without_caller_failed", work=what, error=repr(error))


async def drain(timeout: float) -> int:
    """Wait up to `timeout` s for the work still running, and for what it starts meanwhile;
    returns how many did not end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(timeout, 0.0)
    while pending := {task for task in _running if not task.done()}:
        left = deadline - loop.time()
        if left <= 0:
            log.warning("stopped_with_work_running", tasks=len(pending))
            return len(pending)
        await asyncio.wait(pending, timeout=left)
    return 0
