"""StreamEvents: a game's events from any sequence number on, the stored backlog first and
then the live feed, each as its subscriber may see it, held back for spectators of a game with
a spectator delay.

Every subscriber with the same view of an event shares one serialised message (the stream
message cache): with a thousand spectators an event is redacted and serialised once. A caller
without a seat in a game of a duplicate round still in play is its own audience
(`views.DRAWS_WITHHELD`: the events without their dice and cards), and a delayed spectator is
never told of a seq past what its delay has released, not even by a refusal.

A subscriber that asks for batches (`max_batch` > 1) gets the events it is behind on (a
backlog page, the burst its buffer gathered while it was being sent the last one) in one
message. A batch is never re-encoded: `StreamEventsResponse.events` is a repeated field, whose
encoding is each element's tag, length and bytes one after the other, so the batch is the
concatenation of the cached one-event batches of its events. Subscribers of one audience at
the same point also share the assembled batch.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from risk_proto.risk.v1 import lifecycle_pb2, service_pb2
from risk_rules import wire
from risk_rules.lifecycle import SeatTokenReissued
from risk_service.errors import Code, ServiceError, ServiceReason
from risk_service.feed import FeedHub, FeedRolledBack, Subscriber
from risk_service.operations import identity, records
from risk_service.operations.identity import Caller
from risk_service.operations.limits import Limits
from risk_service.operations.player_feed import Presence
from risk_service.operations.seed_reveal import draws_secret
from risk_service.operations.views import events_for, viewer_of
from risk_service.store.game_store import GameRecord, GameStore
from risk_service.store.tournament_store import TournamentStore

STREAM_CACHE = 8192  # encoded stream messages kept (a few recent events x audiences x games)
# a stream that starts behind reads its backlog this many events at a time: a spectator joining
# a long game from seq 0 neither holds the whole game decoded nor decodes it in one go of the
# event loop, and each page is one short XRANGE
BACKLOG_PAGE = 128
# the most events one batched message carries, whatever the client asked: a batch stays a
# few tens of KB, well under a client's default 4 MiB receive limit
MAX_BATCH = 64
BATCH_CACHE = 1024  # assembled batches kept (subscribers of one audience at the same point)


@dataclass(slots=True)
class Handoff:
    """A spectator's stream that has caught up, handed by `Streams.items` to a listener of
    its subscriber (`Subscriber.listen`) instead of a task waiting on it: what the listener
    needs to go on alone. `sent` is the last seq it was sent; `limit` the most events one
    message carries (0 or 1: one event per message, in `event`); `viewer` the audience its
    events are encoded for (None, or views.DRAWS_WITHHELD)."""

    sub: Subscriber
    sent: int
    streams: Streams  # whose message caches encode the events, as for a task's stream
    game_id: str
    limit: int
    viewer: int | None = None
    # with batches: the events taken and not yet sent, the seq of the first, the last
    pieces: list[bytes] = field(default_factory=list)
    first: int = 0
    last: wire.DecodedEvent | None = None

    def take(self, item: wire.DecodedEvent) -> tuple[bytes, int]:
        """`item` taken: (b"", 0) while it waits for the batch's end (`message`), else
        the message to send and the seq of its first event (b"" when the spectator does
        not see it)."""
        self.sent = item.seq
        if self.limit <= 1:
            return self.streams.message(self.game_id, item, self.viewer), item.seq
        data = self.streams.element(self.game_id, item, self.viewer)
        if data:
            self.pieces.append(data)
        self.first = self.first or item.seq
        self.last = item
        return self.message() if len(self.pieces) == self.limit else (b"", 0)

    def fits(self, items: Sequence[wire.DecodedEvent]) -> bool:
        """`items` go out as one message (`whole`): a batch takes them all, none is waiting
        for the batch's end, and none was sent already."""
        return (not self.pieces and self.limit > 1
                and len(items) <= self.limit and items[0].seq > self.sent)

    def whole(self, items: Sequence[wire.DecodedEvent]) -> tuple[bytes, int]:
        """`items` (they `fit`) as the message `take` and `message` would make of them, and
        the seq of the first; this handoff's state is left as it was."""
        pieces = [data for item in items
                  if (data := self.streams.element(self.game_id, item, self.viewer))]
        if not pieces:
            return b"", 0
        return self.streams.batch(self.game_id, self.viewer, items[0].seq, items[-1],
                                  pieces), items[0].seq

    def message(self) -> tuple[bytes, int]:
        """The events taken since the last message, as one (assembled as `Streams.batch`
        does for a task's stream), and the seq of its first (b"": none to send)."""
        pieces, first, last = self.pieces, self.first, self.last
        self.pieces, self.first, self.last = [], 0, None
        if not pieces or last is None:
            return b"", 0
        return self.streams.batch(self.game_id, self.viewer, first, last, pieces), first


class Streams:
    def __init__(self, store: GameStore, hub: FeedHub, *, clock_ms: Callable[[], int],
                 limits: Limits) -> None:
        self.store = store
        self.hub = hub
        self.clock_ms = clock_ms
        self.limits = limits
        self.tournaments = TournamentStore(store.redis, store.keys)  # duplicate rounds' games
        # serialised stream messages by (game, seq, commit time, viewer): shared by subscribers
        # alike. The commit time is there for a store that lost writes (a rollback): the game
        # goes on with other events at the lost seqs, committed later, which must not be
        # served from the cache as the lost ones
        self.messages: OrderedDict[tuple[str, int, int, int | None], bytes] = OrderedDict()
        # the same as one-event batches (`events` rather than `event`), the pieces of a batch
        self.elements: OrderedDict[tuple[str, int, int, int | None], bytes] = OrderedDict()
        # assembled batches by (game, viewer, first seq, last seq, last commit time) of the
        # events they cover
        self.batches: OrderedDict[tuple[str, int | None, int, int, int], bytes] = OrderedDict()
        # which players stream their own seat's game (player_feed.Presence): "your turn"
        # is not pushed to them meanwhile; set by GameService
        self.presence: Presence | None = None

    def message(self, game_id: str, item: wire.DecodedEvent, viewer: int | None) -> bytes:
        """One event as a serialised StreamEventsResponse for `viewer` (b"" when hidden)."""
        key = (game_id, item.seq, item.at_ms, viewer)
        data = self.messages.get(key)
        if data is None:
            triple = (item.seq, item.version, item.event, item.at_ms)
            shown = events_for(item.variant, [triple], viewer)
            data = service_pb2.StreamEventsResponse(event=shown[0]).SerializeToString(
                deterministic=True) if shown else b""
            self.messages[key] = data
            while len(self.messages) > STREAM_CACHE:
                self.messages.popitem(last=False)
        return data

    def element(self, game_id: str, item: wire.DecodedEvent, viewer: int | None) -> bytes:
        """One event as a serialised StreamEventsResponse{events: [it]} for `viewer` (b"" when
        hidden): a batch of one, and the piece batches are concatenated from."""
        key = (game_id, item.seq, item.at_ms, viewer)
        data = self.elements.get(key)
        if data is None:
            triple = (item.seq, item.version, item.event, item.at_ms)
            shown = events_for(item.variant, [triple], viewer)
            data = service_pb2.StreamEventsResponse(events=shown).SerializeToString(
                deterministic=True) if shown else b""
            self.elements[key] = data
            while len(self.elements) > STREAM_CACHE:
                self.elements.popitem(last=False)
        return data

    def batch(self, game_id: str, viewer: int | None, first: int, last: wire.DecodedEvent,
              pieces: list[bytes]) -> bytes:
        """The events from seq `first` to `last` as one serialised
        StreamEventsResponse{events} for `viewer`, given `pieces`, their non-empty
        `element`s: the encoding of the same events assembled for another subscriber, else
        their concatenation."""
        if len(pieces) == 1:
            return pieces[0]
        # (after a rollback the branch the game goes on with commits its last event later)
        key = (game_id, viewer, first, last.seq, last.at_ms)
        data = self.batches.get(key)
        if data is None:
            data = b"".join(pieces)
            self.batches[key] = data
            while len(self.batches) > BATCH_CACHE:
                self.batches.popitem(last=False)
        return data

    async def stream(
        self, request: service_pb2.StreamEventsRequest, caller: Caller,
        max_batch: int | None = None, handoff: Callable[[Handoff], bool] | None = None,
    ) -> AsyncIterator[bytes]:
        """Serialised StreamEventsResponse messages for `request`. `max_batch` (default: the
        request's) is the most events one message carries; 0 or 1: one event per message,
        in `event`; above 1 (capped at MAX_BATCH): 1 to max_batch events in `events`.
        `handoff`: see `items`."""
        # closed with this generator, so its subscription ends when the client goes
        async with contextlib.aclosing(self.items(request, caller, max_batch,
                                                  handoff=handoff)) as items:
            async for _seq, data in items:
                if data:
                    yield data

    async def items(
        self, request: service_pb2.StreamEventsRequest, caller: Caller,
        max_batch: int | None = None, record: GameRecord | None = None,
        handoff: Callable[[Handoff], bool] | None = None,
    ) -> AsyncGenerator[tuple[int, bytes], None]:
        """(seq, message) for `stream`: each message with the seq of its last event, and b""
        for events the caller may not see: a session (operations.sessions) orders its
        acknowledgements by seq, so it must hear of every seq, shown or not. `record`: the
        game as the caller has just read it (a session has, to refuse a bad opening before
        any action), so it is not read twice; the subscription starts at its last seq, and
        the backlog read covers whatever was committed since. `handoff`: once a stream
        without a seat or a spectator delay has caught up, it is offered to `handoff`; if
        taken (True), the generator ends and the subscription is the taker's (it
        unsubscribes it): a spectator then costs no task and no generator while idle."""
        limit = min(request.max_batch if max_batch is None else max_batch, MAX_BATCH)
        if record is None:
            record = await records.load(self.store, request.game_id)
        role = identity.identify(record, caller, self.limits)
        meta = records.decode_meta(record)
        delay = SpectatorDelay(meta) if role.seat is None and (
            meta.spectator_delay_events or meta.spectator_delay_seconds) else None
        if delay is not None and request.after_seq and record.status not in records.FINAL:
            # asked for more than the delay has released: refused as if past the last seq,
            # naming the last seq released, so neither the answer nor whether there is one
            # tells the live position (GetGame withholds it too)
            shown = await self._released(record, delay, request.after_seq)
            if shown is not None:
                raise rolled_back(shown, request.after_seq, delayed=True)
        elif request.after_seq > record.last_seq:
            raise rolled_back(record.last_seq, request.after_seq, delayed=delay is not None)
        # the caller's audience: its seat's, a spectator's, or without the draws
        viewer = viewer_of(role.seat, role.seat is None
                           and await draws_secret(self.tournaments, record, meta))
        sub = await self.hub.subscribe(record.game_id, self.limits.subscriber_buffer,
                                       record.last_seq, spectator=role.seat is None)
        game_id = sub.feed.name  # the feed's copy of the id, one for all its streams
        # an idle stream keeps this frame for as long as it is open: nothing in it holds
        # more than it needs (the game's snapshot, a backlog page, a released batch)
        del record, meta
        sent = read = request.after_seq  # sent to the client; read from the store's backlog
        caught_up = False  # the backlog is read to its end: the subscription takes over
        pending: list[wire.DecodedEvent] = []
        handed = False
        present = (caller.player if caller.player is not None and role.seat is not None
                   and self.presence is not None else None)
        try:
            if present is not None and self.presence is not None:
                await self.presence.enter(present, game_id)
            while True:
                if not caught_up:
                    # registered before this read, so backlog + live covers every event
                    page, read, caught_up = await self._backlog(game_id, read)
                    pending.extend(page)
                    del page
                if delay is not None:
                    release, wait = delay.split(pending, self.clock_ms())
                else:
                    release, wait = pending, None
                first = 0  # the seq of the next batch's first event
                pieces: list[bytes] = []  # ... and the encodings of those the caller sees
                for index, item in enumerate(release):
                    if item.seq <= sent:
                        continue
                    reissued = (role.seat is not None
                                and isinstance(item.event, SeatTokenReissued)
                                and item.event.seat == role.seat)
                    if limit <= 1:
                        yield item.seq, self.message(game_id, item, viewer)
                        sent = item.seq
                    else:
                        first = first or item.seq
                        piece = self.element(game_id, item, viewer)
                        if piece:
                            pieces.append(piece)
                        # a batch ends when full, at the end of what is due (seqs only grow,
                        # so the last event due is never one skipped above), and at a reissue
                        # of this seat's token (checked before anything later is sent)
                        if len(pieces) == limit or reissued or index == len(release) - 1:
                            yield item.seq, self.batch(game_id, viewer, first,
                                                       item, pieces) if pieces else b""
                            sent = item.seq
                            first, pieces = 0, []
                    if reissued and role.seat is not None and caller.player is None:
                        # nothing after the reissue reaches a holder of the replaced token
                        # (a player holds the seat by their id, which a reissue leaves)
                        await self._still_seated(game_id, role.seat, caller.token)
                pending = pending[len(release):]
                del release
                if not caught_up:
                    continue
                if handoff is not None and delay is None and role.seat is None \
                        and not pending \
                        and handoff(Handoff(sub, sent, self, game_id, limit, viewer)):
                    handed = True
                    return
                try:
                    if wait is None:
                        batch = await sub.next_batch()
                    else:
                        batch = []
                        with contextlib.suppress(TimeoutError):
                            batch = await asyncio.wait_for(sub.next_batch(), wait)
                except OverflowError:
                    raise ServiceError(
                        Code.RESOURCE_EXHAUSTED, ServiceReason.SUBSCRIBER_TOO_SLOW,
                        f"the stream fell {sub.limit} events behind; resume after seq {sent}",
                        {"last_seq": str(sent)},
                    ) from None
                except FeedRolledBack as exc:
                    raise rolled_back(exc.last_seq, sent, delayed=delay is not None) from None
                floor = pending[-1].seq if pending else sent
                pending.extend(item for item in batch if item.seq > floor)
        finally:
            if not handed:
                await self.hub.unsubscribe(sub)
            if present is not None and self.presence is not None:
                await self.presence.leave(present, game_id)

    async def _released(self, record: GameRecord, delay: SpectatorDelay, after_seq: int
                        ) -> int | None:
        """None when the event at `after_seq` is one `delay` has released by now; else the
        last seq it has released (0: none). An event is released once `delay.events` later
        ones exist and `delay.ms` have passed since its commit; commit times grow with seqs,
        so the last one released is found by bisection over one-event reads (for a refusal
        only: a resume that is allowed costs one read, or none without a delay in seconds)."""
        newest = record.last_seq
        cutoff = self.clock_ms() - delay.ms

        async def due(seq: int) -> bool:
            if seq + delay.events > newest:
                return False
            if not delay.ms:
                return True
            page = await self.store.read_events(record.game_id, seq - 1, 1)
            return bool(page) and wire.decode_event(page[0][1]).at_ms <= cutoff

        if await due(after_seq):
            return None
        low, high = 0, min(after_seq - 1, newest - delay.events)
        while low < high:
            middle = (low + high + 1) // 2
            if await due(middle):
                low = middle
            else:
                high = middle - 1
        return low

    async def _backlog(self, game_id: str, read: int
                       ) -> tuple[list[wire.DecodedEvent], int, bool]:
        """The next page of the stored events after seq `read`: (the events, the last seq
        read, whether that was the end)."""
        page = await self.store.read_events(game_id, read, BACKLOG_PAGE)
        return ([wire.decode_event(data) for _seq, data in page],
                page[-1][0] if page else read, len(page) < BACKLOG_PAGE)

    async def _still_seated(self, game_id: str, seat: int, token: str | None) -> None:
        """Raise CREDENTIALS_REVOKED unless `token` is still `seat`'s token."""
        record = await self.store.load(game_id)
        held = record.seat_digests[seat] if record is not None else b""
        if not identity.holds(held, token):
            raise ServiceError(
                Code.UNAUTHENTICATED, ServiceReason.CREDENTIALS_REVOKED,
                f"the host reissued seat {seat}'s token: this stream's token no longer works",
            )


class SpectatorDelay:
    """Holds a spectator's events back: each is released once `events` later ones exist and
    `seconds` have passed since it was committed. The end of the game releases everything."""

    def __init__(self, meta: lifecycle_pb2.GameMeta) -> None:
        self.events = meta.spectator_delay_events
        self.ms = meta.spectator_delay_seconds * 1000
        self.over = False

    def split(self, pending: list[wire.DecodedEvent], now_ms: int
              ) -> tuple[list[wire.DecodedEvent], float | None]:
        """(events to send now, seconds until the next one is due or None to wait for more)."""
        if any(item.event.terminal for item in pending):
            self.over = True
        if self.over:
            return pending, None
        newest = pending[-1].seq if pending else 0
        count = 0
        for item in pending:
            if item.seq + self.events > newest or item.at_ms + self.ms > now_ms:
                break
            count += 1
        release = pending[:count]
        if count < len(pending) and self.ms and pending[count].seq + self.events <= newest:
            return release, max(0.0, (pending[count].at_ms + self.ms - now_ms) / 1000)
        return release, None


def rolled_back(last_seq: int, seen: int, *, delayed: bool = False) -> ServiceError:
    """The store lost events up to `seen` (a restore, a lagging replica taking over).
    `delayed`: told to a spectator under a spectator delay, for whom `last_seq` is the last
    seq its delay has released (or, after a loss, whichever is lower of what survived and
    what it was sent): no figure beyond that is named."""
    resume = min(last_seq, seen)
    if delayed:
        message = (f"no event after seq {resume} is shown to this caller: the game is shown "
                   f"with a spectator delay, and later events may not exist yet or may have "
                   f"been lost by the store; drop what you have after seq {resume} and "
                   f"resume after it")
    else:
        message = (f"the game's events after seq {last_seq} were lost by the store (or never "
                   f"existed); drop what you have after seq {resume} and resume after it")
    return ServiceError(Code.ABORTED, ServiceReason.GAME_ROLLED_BACK, message,
                        {"last_seq": str(resume)})
