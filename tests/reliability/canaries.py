"""Canary leak search for any registered variant: a whole bot game watched by every viewer.

`watch_game` plays one game of a variant through the service as a remote client would (the
deciding seat's view and legal actions -> the engine's bot -> SubmitAction) while the host, a
spectator and every seat read it after each action and follow its stream. Every reply and
stream message is kept as raw bytes with the viewer it went to. The true state comes from the
snapshot in Redis, so the canaries are the real secrets: the seed, the generator's state and
increment, the order of every deck (each state field named `*deck`), and the tokens.

`check_capture` then proves, for every viewer:

- no secret's bytes (varint, decimal, hex) are in any reply, stream message or the log; a token
  only in the CreateGame reply that issued it;
- every board a viewer got is exactly the engine's view of the true state for that viewer, and a
  seat's legal actions are exactly the engine's for that seat (so the host and spectators get a
  seatless view, never a seat's);
- every event a viewer got, by stream or in a SubmitAction reply, is exactly the stored event as
  the engine redacts it for that viewer (`Event.for_viewer`), with no gap or duplicate.

The two checks above trust the engine's own view and redaction, so a view that shows a secret
would agree with itself. Two more checks do not:

- every 10 actions `probe_secrets` takes each secret of the stored state (`secrets_of`: the
  seed, the generator, every deck's order, each hidden hand, each Legacy scar card), writes a
  copy of the game whose snapshot differs in that secret alone, and reads the copy through the
  service as every viewer not entitled to it: GetGame and ListLegalActions must be byte for
  byte what the real game gives, or the secret reached that viewer;
- every event received (streams, SubmitAction and Resign replies) is checked against the
  stored full event and `EVENT_SECRETS`, a list written from the rules digest: a card or scar
  of another seat arrives hidden.

ListGames, ExportGame and a replay (GetGame at_version) before the end (refused) are searched
too, and a Resign reply in the variants whose driver names `resign_at`. Once the game is over,
its replay at every version the spectator read live is searched as a spectator's reply and must
be the board the spectator was shown then (`_read_replay`).

What differs between variants is small and lives in a `LeakDriver`: fast options, a seed, and
an optional check that the game exercised the variant's redaction rules. A variant added to
the engine's REGISTRY without a driver fails `test_every_variant_has_a_leak_driver`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis.asyncio
from google.protobuf.message import Message

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import variants, wire
from risk_rules.engine import get_ruleset
from risk_rules.engine.core.ruleset import LegalAction
from risk_rules.variants import LeakProbe
from risk_service.store.keys import Keys
from risk_testing.rpc import bearer, without_seed_reveal
from tests.reliability.targets import options_for
from tests.service.test_leaks import _check_redaction, _error_bytes, number_forms, varint
from tests.stored_state import arecord_now, state_of

Stub = service_pb2_grpc.RiskServiceStub
Viewer = int | str | None  # a seat, "host", or None for a spectator
KEYS = Keys()
SECRET_EVERY = 10  # actions between two samples of the generator state and the decks
MAX_ACTIONS = 5000
HIDDEN_VALUE = -1  # what a viewer gets in place of a card or scar it may not see
REPLAY_AS_SEAT_EVERY = 5  # versions between two replay reads with a seat's token


@dataclass(frozen=True)
class LeakDriver:
    options: Callable[[], game_pb2.GameOptions]
    seed: int
    # the variant hides parts of some events from some viewers: the game must have had such
    # an event, shown in full to one seat and redacted for another, or the checks prove little
    redacts: bool = True
    # a variant's own check over every (viewer seat, event) received, for its redaction rules
    exercised: Callable[[list[tuple[int | None, game_pb2.Event]]], None] | None = None
    # after this many actions the last seat resigns (None: nobody does), so that a Resign
    # reply's events are checked too
    resign_at: int | None = None


def _driver(variant: str, probe: LeakProbe) -> LeakDriver:
    return LeakDriver(functools.partial(options_for, variant, probe.players, **probe.options),
                      probe.seed, redacts=probe.redacts, exercised=_EXERCISED.get(variant),
                      resign_at=probe.resign_at)


# a variant's own check over every (viewer seat, event) received, beyond the generic ones
_EXERCISED = {"classic": _check_redaction}
# Who may see what, per variant: each descriptor's `LeakProbe`, written from the rules digest's
# "who sees what" table and NOT from the engine's own redaction (`Event.for_viewer`,
# `Ruleset.view`), so that a mistake there cannot agree with itself. Secrets in stored state:
# every field named `*deck` (order, nobody), the seed and the generator (nobody), the hidden
# hands (their seat; each swapped with the draw pile named) and per-seat secret cards (their
# seat).
_PROBES = {name: described.defaults.leaks for name, described in variants.DESCRIPTORS.items()
           if described.defaults.leaks is not None}
DRIVERS: dict[str, LeakDriver] = {name: _driver(name, probe) for name, probe in _PROBES.items()}
HIDDEN_HANDS = {name: probe.hidden_hands for name, probe in _PROBES.items() if probe.hidden_hands}
SEAT_SECRETS = {name: probe.seat_secrets for name, probe in _PROBES.items()}
# secret fields of stored events: event class -> (fields naming the seats entitled, the field
# every other viewer must get hidden)
EVENT_SECRETS: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    name: dict(probe.event_secrets) for name, probe in _PROBES.items()}


@dataclass
class Capture:
    replies: list[tuple[str, Viewer, bytes]] = field(default_factory=list)
    streams: dict[str, list[game_pb2.Event]] = field(default_factory=dict)  # by viewer label
    submitted: list[tuple[int, game_pb2.Event]] = field(default_factory=list)  # (seat, event)
    needles: dict[bytes, str] = field(default_factory=dict)
    # short decimal secrets: searched as whole numbers only (not inside longer digit runs,
    # timestamps or durations, where a 5-digit run turns up by chance)
    numbers: dict[str, str] = field(default_factory=dict)
    controls: list[bytes] = field(default_factory=list)  # needles seen in the snapshot
    views: int = 0
    actions: int = 0
    probes: int = 0  # (secret, viewer) pairs checked by changing the stored secret
    probe_failures: list[str] = field(default_factory=list)

    def add(self, label: str, viewer: Viewer, reply: Message) -> None:
        self.replies.append((label, viewer, without_seed_reveal(reply).SerializeToString()))


def label_of(viewer: Viewer) -> str:
    return "spectator" if viewer is None else str(viewer)


def seat_of(viewer: Viewer) -> int | None:
    return viewer if isinstance(viewer, int) else None


@dataclass
class Game:
    variant: str
    game_id: str
    host: str
    tokens: list[str]
    seed: int

    @property
    def viewers(self) -> list[tuple[Viewer, str | None]]:
        return [(None, None), ("host", self.host), *enumerate(self.tokens)]


async def true_state(client: redis.asyncio.Redis, game_id: str) -> tuple[Any, int, bytes]:
    record = await arecord_now(client, game_id)
    state, snap = state_of(record)
    return state, record.version, snap


def sample_secrets(variant: str, state: Any, snap: bytes, capture: Capture, move: int) -> None:
    """Add the generator state and every deck's top to the canaries; each must be in `snap`
    (a positive control: the needle is what the secret looks like in bytes)."""
    state_message = variants.descriptor(variant).messages.state.DESCRIPTOR
    controls = []
    if hasattr(state, "rng_state"):
        for form in number_forms(state.rng_state):
            capture.needles[form] = f"rng_state after move {move}"
        controls.append(varint(state.rng_state))
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name.endswith("deck") and isinstance(value, tuple) and len(value) >= 8:
            needle = b"".join(varint(card) for card in value[:8])  # packed repeated int32
            capture.needles[needle] = f"{f.name} top 8 after move {move}"
            controls.append(needle)
    if move == 0:
        for form in number_forms(state.seed):
            capture.needles[form] = "seed"
        controls.append(varint(state.seed))
        if hasattr(state, "rng_inc"):  # a small constant: searched with its field tag
            number = state_message.fields_by_name["rng_inc"].number
            tagged = varint(number << 3) + varint(state.rng_inc)
            capture.needles[tagged] = "rng_inc field"
            capture.numbers[str(state.rng_inc)] = "rng_inc decimal"
            controls.append(tagged)
    missing = [c.hex() for c in controls if c not in snap]
    assert not missing, f"canaries not in the snapshot they were taken from: {missing}"
    capture.controls += controls


@dataclass(frozen=True)
class Secret:
    owner: int | None  # the one seat entitled to it; None: nobody while the game runs
    what: str
    changed: Any  # the stored state with this secret, and nothing public, changed


def secrets_of(variant: str, state: Any) -> list[Secret]:
    """Every secret of the stored `state` (see HIDDEN_HANDS), each with a state that differs
    from `state` in that secret alone: what no viewer but its owner may tell apart."""
    out = [Secret(None, "seed", dataclasses.replace(state, seed=state.seed ^ 0x5EED5EED))]
    if hasattr(state, "rng_state"):
        out.append(Secret(None, "generator state", dataclasses.replace(
            state, rng_state=state.rng_state ^ 0x0123_4567_89AB_CDEF)))
    for f in dataclasses.fields(state):
        deck = getattr(state, f.name)
        if f.name.endswith("deck") and isinstance(deck, tuple) and deck != deck[::-1]:
            out.append(Secret(None, f"{f.name} order",
                              dataclasses.replace(state, **{f.name: deck[::-1]})))
    pile = HIDDEN_HANDS.get(variant)
    if pile is not None:
        for seat, hand in enumerate(state.hands):
            deck = getattr(state, pile)
            others = [card for card in deck if card not in hand]
            if not hand or not others:
                continue
            # one card of the hand for one of the pile (counts stay, which cards change)
            swapped = (*hand[1:], others[-1])
            swapped = tuple(sorted(swapped)) if list(hand) == sorted(hand) else swapped
            at = deck.index(others[-1])
            hands = tuple(swapped if s == seat else h for s, h in enumerate(state.hands))
            out.append(Secret(seat, f"seat {seat}'s hand", dataclasses.replace(
                state, hands=hands, **{pile: (*deck[:at], hand[0], *deck[at + 1:])})))
    for scars in SEAT_SECRETS.get(variant, ()):
        for seat, scar in enumerate(getattr(state, scars)):
            if scar:  # Bunker <-> Ammo Shortage: that it holds one stays public
                held = tuple(3 - c if s == seat else c
                             for s, c in enumerate(getattr(state, scars)))
                out.append(Secret(seat, f"seat {seat}'s scar card",
                                  dataclasses.replace(state, **{scars: held})))
    return out


async def _as_seen(stub: Stub, game_id: str, viewer: Viewer, token: str | None) -> list[bytes]:
    """GetGame (and for a seat ListLegalActions) as `viewer`, game id and spectator count left
    out: the count is of the streams watching that game id now (the test's own followers watch
    the real game, none its copies), not something the stored state decides."""
    metadata = bearer(token) if token else None
    got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id), metadata=metadata)
    got.game.game_id = ""
    got.game.spectators = 0
    out = [got.SerializeToString(deterministic=True)]
    if seat_of(viewer) is not None:
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=metadata)
        out.append(listed.SerializeToString(deterministic=True))
    return out


async def probe_secrets(stub: Stub, client: redis.asyncio.Redis, game: Game, state: Any, *,
                        move: int, capture: Capture) -> None:
    """Change each secret in a copy of the stored game (a new game id, every other stored
    field the same, credentials too) and read the copy as every viewer not entitled to it:
    each must get exactly what it gets from the real game, or the secret reached it."""
    stored = await client.hgetall(KEYS.game(game.game_id))
    seen = {label_of(v): await _as_seen(stub, game.game_id, v, t) for v, t in game.viewers}
    for n, secret in enumerate(secrets_of(game.variant, state)):
        copy_id = f"{game.game_id}{move:04x}{n:02x}"
        await client.hset(KEYS.game(copy_id), mapping={
            **stored, b"snap": wire.encode_state(game.variant, secret.changed),
            # the copy has no log: its snapshot is its state
            b"sver": stored[b"version"]})
        try:
            for viewer, token in game.viewers:
                if secret.owner is not None and seat_of(viewer) == secret.owner:
                    continue
                capture.probes += 1
                if await _as_seen(stub, copy_id, viewer, token) != seen[label_of(viewer)]:
                    capture.probe_failures.append(
                        f"{secret.what} (after move {move}) changes what "
                        f"{label_of(viewer)} gets from GetGame/ListLegalActions")
        finally:
            await client.delete(KEYS.game(copy_id))


def event_secret_leaks(variant: str, stored: dict[int, Any],
                       received: list[tuple[int | None, game_pb2.Event]]
                       ) -> tuple[list[str], int, int]:
    """(what leaked, events hidden as due, events shown to their entitled seat): every event a
    viewer received, checked against EVENT_SECRETS and the stored (full) event."""
    found, hidden, shown = [], 0, 0
    for viewer, message in received:
        if message.WhichOneof("variant") == "lifecycle":
            continue
        spec = EVENT_SECRETS[variant].get(type(stored[message.seq]).__name__)
        if spec is None:
            continue
        owners, secret = spec
        full = stored[message.seq]
        got = getattr(wire.event_from_proto(message)[1], secret)
        if viewer in {getattr(full, o) for o in owners}:
            shown += got == getattr(full, secret)
            continue
        due = (HIDDEN_VALUE,) * len(got) if isinstance(got, tuple) else HIDDEN_VALUE
        if got != due:
            found.append(f"{type(full).__name__}.{secret} of event {message.seq} reached "
                         f"{label_of(viewer)}: {got!r}")
        else:
            hidden += 1
    return found, hidden, shown


async def read_as_everyone(stub: Stub, game: Game, state: Any, version: int,
                           capture: Capture) -> None:
    """GetGame as every viewer and ListLegalActions as every seat: each must be exactly the
    engine's view / legal actions for that viewer."""
    rules = get_ruleset(game.variant)
    request = service_pb2.GetGameRequest(game_id=game.game_id)
    replies = await asyncio.gather(*(
        stub.GetGame(request, metadata=bearer(token) if token else None)
        for _viewer, token in game.viewers))
    for (viewer, _token), reply in zip(game.viewers, replies, strict=True):
        capture.add("GetGame", viewer, reply)
        capture.views += 1
        seat = seat_of(viewer)
        assert reply.game.version == version
        assert reply.viewer_seat == (-1 if seat is None else seat)
        expected = wire.view_to_proto(game.variant, rules.view(state, seat))
        assert reply.board.SerializeToString(deterministic=True) == expected.SerializeToString(
            deterministic=True), f"{label_of(viewer)} got a view that is not its own"
        view = wire.view_from_proto(reply.board)[1]
        if hasattr(state, "hands") and "hand" in view.DESCRIPTOR.fields_by_name:
            own = tuple(state.hands[seat]) if seat is not None else ()
            assert tuple(view.hand) == own, f"{label_of(viewer)} sees a hand not its own"
    legal_request = service_pb2.ListLegalActionsRequest(game_id=game.game_id)
    listed = await asyncio.gather(*(stub.ListLegalActions(legal_request, metadata=bearer(t))
                                    for t in game.tokens))
    for seat, reply in enumerate(listed):
        capture.add("ListLegalActions", seat, reply)
        expected_legal = [wire.legal_to_proto(game.variant, a).SerializeToString(
            deterministic=True) for a in rules.legal_actions(state, seat)]
        assert [a.SerializeToString(deterministic=True) for a in reply.actions] == \
            expected_legal, f"seat {seat} got legal actions that are not its own"
    try:
        await stub.ListLegalActions(legal_request)
    except grpc.aio.AioRpcError as error:
        capture.replies.append(("ListLegalActions error", None, _error_bytes(error)))
    else:
        raise AssertionError("a spectator got legal actions")


async def follow(stub: Stub, game_id: str, viewer: Viewer, token: str | None,
                 capture: Capture) -> None:
    """One viewer's stream, until cancelled."""
    call = stub.StreamEvents(service_pb2.StreamEventsRequest(game_id=game_id),
                             metadata=bearer(token) if token else None)
    events = capture.streams.setdefault(label_of(viewer), [])
    try:
        async for reply in call:
            capture.add("StreamEvents", viewer, reply)
            events.append(reply.event)
    finally:
        call.cancel()


async def _streams_reach(capture: Capture, game: Game, last: int, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not all((events := capture.streams.get(label_of(viewer))) and
                      events[-1].seq >= last for viewer, _token in game.viewers):
            await asyncio.sleep(0.02)


async def watch_game(stub: Stub, client: redis.asyncio.Redis, variant: str,
                     driver: LeakDriver, capture: Capture) -> Game:
    """Create, play to the end and read as everyone (see the module docstring)."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=driver.options(), seed=driver.seed, issue_seat_tokens=True))
    capture.add("CreateGame", "host", created)
    game = Game(variant, created.game.game_id, created.host_token, list(created.seat_tokens),
                driver.seed)
    streams = [asyncio.create_task(follow(stub, game.game_id, viewer, token, capture))
               for viewer, token in game.viewers]
    try:
        await _play(stub, client, game, driver, capture)
        last = (await stub.GetGame(service_pb2.GetGameRequest(
            game_id=game.game_id))).game.last_seq
        await _streams_reach(capture, game, last)
        await _read_replay(stub, game, capture)
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return game


async def _play(stub: Stub, client: redis.asyncio.Redis, game: Game, driver: LeakDriver,
                capture: Capture) -> None:
    variant = game.variant
    rules = get_ruleset(variant)
    move = 0
    while True:
        state, version, snap = await true_state(client, game.game_id)
        running = rules.outcome(state) is None
        if move % SECRET_EVERY == 0 or not running:
            sample_secrets(variant, state, snap, capture, move)
        if move % SECRET_EVERY == 0 and running:
            await probe_secrets(stub, client, game, state, move=move, capture=capture)
            await _read_the_rest(stub, game, capture)
        await read_as_everyone(stub, game, state, version, capture)
        seats = rules.decision(state).seats
        if not seats:
            break
        assert move < MAX_ACTIONS, f"{variant}: no outcome after {MAX_ACTIONS} actions"
        if move == driver.resign_at:
            last = len(game.tokens) - 1
            resigned = await stub.Resign(service_pb2.ResignRequest(
                game_id=game.game_id, request_id="leak-resign"),
                metadata=bearer(game.tokens[last]))
            capture.add("Resign", last, resigned)
            capture.submitted += [(last, e) for e in resigned.events]
            move += 1
            continue
        seat = seats[0]
        token = bearer(game.tokens[seat])
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id),
                                 metadata=token)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game.game_id), metadata=token)
        legal = [LegalAction(wire.action_from_proto(e.action)[1], e.max_count)
                 for e in listed.actions]
        view = wire.from_message(wire.view_from_proto(got.board)[1], rules.view_type)
        action = rules.bot_choose(view, legal, (driver.seed * 0x9E3779B97F4A7C15 + move)
                                  & (2**64 - 1))
        reply = await stub.SubmitAction(service_pb2.SubmitActionRequest(
            game_id=game.game_id, action=wire.action_to_proto(variant, action),
            expected_version=version, request_id=f"leak-{move}"), metadata=token)
        capture.add("SubmitAction", seat, reply)
        capture.submitted += [(seat, e) for e in reply.events]
        move += 1
    capture.actions = move


async def _read_the_rest(stub: Stub, game: Game, capture: Capture) -> None:
    """ListGames as anyone, and ExportGame and a replay (GetGame at_version) before the end
    (refused) as the host and a seat."""
    listed = await stub.ListGames(service_pb2.ListGamesRequest(page_size=50))
    capture.add("ListGames", None, listed)
    for viewer, token in ((None, None), (0, game.tokens[0])):
        try:
            replayed = await stub.GetGame(service_pb2.GetGameRequest(
                game_id=game.game_id, at_version=0),
                metadata=bearer(token) if token else None)
        except grpc.aio.AioRpcError as error:
            capture.replies.append(("GetGame at_version error", viewer, _error_bytes(error)))
        else:
            capture.add("GetGame at_version", viewer, replayed)
            raise AssertionError(f"{label_of(viewer)} replayed a game still being played")
    for viewer, token in (("host", game.host), (0, game.tokens[0])):
        try:
            exported = await stub.ExportGame(service_pb2.ExportGameRequest(
                game_id=game.game_id), metadata=bearer(token))
        except grpc.aio.AioRpcError as error:
            capture.replies.append(("ExportGame error", viewer, _error_bytes(error)))
        else:
            capture.add("ExportGame", viewer, exported)
            raise AssertionError(f"{label_of(viewer)} exported a game still being played")


async def _read_replay(stub: Stub, game: Game, capture: Capture) -> None:
    """Once the game is over, its replay (GetGame at_version) at every version a spectator read
    live, as a spectator and, every REPLAY_AS_SEAT_EVERY versions, with seat 0's token: each
    reply is searched like every other, as a spectator's (the replay shows anyone the
    spectator's board), and its board must be the one the spectator was shown live then."""
    live: dict[int, game_pb2.BoardView] = {}
    for label, viewer, data in capture.replies:
        if label == "GetGame" and viewer is None:
            reply = service_pb2.GetGameResponse.FromString(data)
            if reply.HasField("board"):
                live[reply.game.version] = reply.board
    assert live, "the spectator was never shown a board to compare the replay with"
    for version, board in sorted(live.items()):
        readers = [None, game.tokens[0]] if version % REPLAY_AS_SEAT_EVERY == 0 else [None]
        for token in readers:
            replayed = await stub.GetGame(service_pb2.GetGameRequest(
                game_id=game.game_id, at_version=version),
                metadata=bearer(token) if token else None)
            capture.add("GetGame at_version", None, replayed)
            if replayed.board != board:
                capture.probe_failures.append(
                    f"the replay at version {version} ({'seat 0' if token else 'spectator'}) "
                    "is not the board the spectator was shown then")


async def expected_events(client: redis.asyncio.Redis, game: Game, viewer: Viewer
                          ) -> list[bytes]:
    """The stored events (full, as Redis holds them) as the engine redacts them for `viewer`."""
    out = []
    for _id, fields in await client.xrange(KEYS.events(game.game_id)):
        item = wire.decode_event(fields[b"e"])
        seen = item.event.for_viewer(seat_of(viewer))
        if seen is not None:
            message = wire.event_to_proto(game.variant, seen, item.seq, item.version, item.at_ms)
            out.append(message.SerializeToString(deterministic=True))
    return out


async def check_capture(client: redis.asyncio.Redis, game: Game, capture: Capture,
                        log: bytes, driver: LeakDriver) -> list[str]:
    """Everything found where it must not be (empty when nothing leaked)."""
    found = []
    for viewer, _token in game.viewers:
        got = [e.SerializeToString(deterministic=True)
               for e in capture.streams.get(label_of(viewer), [])]
        expected = await expected_events(client, game, viewer)
        if got != expected:
            found.append(f"the stream of {label_of(viewer)} is not its redacted event log "
                         f"({len(got)} events, {len(expected)} due)")
    for seat in range(len(game.tokens)):
        due = {game_pb2.Event.FromString(e).seq: e
               for e in await expected_events(client, game, seat)}
        for acting, event in capture.submitted:
            if acting == seat and due.get(event.seq) != event.SerializeToString(
                    deterministic=True):
                found.append(f"seat {seat}'s SubmitAction reply holds event {event.seq} "
                             "not as the seat may see it")
    tokens = {game.host.encode(): "host token"}
    tokens.update({t.encode(): f"seat {s} token" for s, t in enumerate(game.tokens)})
    for label, viewer, data in capture.replies:
        for needle, what in capture.needles.items():
            if needle in data:
                found.append(f"{what} in {label} for {label_of(viewer)}")
        for needle, what in tokens.items():
            if needle in data and label != "CreateGame":
                found.append(f"{what} in {label} for {label_of(viewer)}")
    found += [f"{what} in the log" for needle, what in {**capture.needles, **tokens}.items()
              if needle in log]
    for number, what in capture.numbers.items():
        pattern = re.compile(rb"(?<![0-9.])" + number.encode() + rb"(?![0-9])")
        found += [f"{what} in {label} for {label_of(viewer)}"
                  for label, viewer, data in capture.replies if pattern.search(data)]
        found += [f"{what} in the log"] if pattern.search(log) else []
    items = [wire.decode_event(fields[b"e"])
             for _id, fields in await client.xrange(KEYS.events(game.game_id))]
    stored = {item.seq: item.event for item in items}
    received = [(seat_of(v), e) for (label, v, data) in capture.replies
                if label == "StreamEvents"
                for e in [service_pb2.StreamEventsResponse.FromString(data).event]]
    leaks, hidden, shown = event_secret_leaks(game.variant, stored,
                                              received + capture.submitted)
    found += leaks + capture.probe_failures
    if EVENT_SECRETS[game.variant] and not leaks:
        assert hidden and shown, (
            f"no secret event was both hidden from a viewer and shown to its seat "
            f"(hidden {hidden}, shown {shown}): the game proves nothing about them")
    if driver.exercised is not None:
        driver.exercised(received + capture.submitted)
    return found


async def redacted_events(client: redis.asyncio.Redis, game: Game) -> int:
    """Stored events that some seat sees in full and some other viewer does not."""
    count = 0
    for _id, fields in await client.xrange(KEYS.events(game.game_id)):
        event = wire.decode_event(fields[b"e"]).event
        seen = [event.for_viewer(seat_of(v)) for v, _token in game.viewers]
        if event in seen and any(other != event for other in seen):
            count += 1
    return count
