"""No hidden value leaves the service: canary search over every reply byte and the log file.

A bot game with a known seed is played through the service while a spectator, the host and
every seat read it after each action (GetGame, ListLegalActions) and stream its events. The raw
bytes of every reply and stream message, and the service's log, are then searched for what no
client may learn: the seed, the generator's state, the deck's order and other callers' tokens.
The true values come straight from the snapshot in Redis. Structural checks cover what a byte
search cannot: hands in views, and cards in CardDrawn and PlayerEliminated events.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis.asyncio
from google.protobuf.message import Message

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine.classic.model import ClassicState, ClassicView
from risk_testing.harness import ServiceProcess
from risk_testing.rpc import bearer, rpc_error, varint, without_seed_reveal
from tests.service.botplay import FAST_OPTIONS, BotGame, create_game, play, replay
from tests.stored_state import astate_now

Stub = service_pb2_grpc.RiskServiceStub

# 3 players, ~370 actions; seat 0 falls holding 4 cards while seat 1 still plays, then seat 1
SEED = 0xC0FFEE87ED000029
SECRET_EVERY = 20  # actions between two samples of the generator state and the deck
HIDDEN = -1
TIMEOUT_S = 40


def number_forms(value: int) -> list[bytes]:
    """A 64-bit secret as it could leak: protobuf varint, decimal and hex text."""
    return [varint(value), str(value).encode(), f"{value:x}".encode(), f"{value:X}".encode()]


@dataclass
class Capture:
    """Every reply as (label, viewer, raw bytes); viewer is a seat, "host" or None."""

    replies: list[tuple[str, object, bytes]] = field(default_factory=list)
    # (viewer, event) for every event any viewer received, by stream or in a SubmitAction reply
    events: list[tuple[int | None, game_pb2.Event]] = field(default_factory=list)
    streamed: int = 0  # engine (classic) events received by stream, every viewer together
    views: int = 0

    def add(self, label: str, viewer: object, reply: Message) -> None:
        self.replies.append((label, viewer, without_seed_reveal(reply).SerializeToString()))


@dataclass
class Secrets:
    needles: dict[bytes, str] = field(default_factory=dict)  # bytes -> what they are
    states: int = 0
    decks: int = 0

    def sample(self, state: ClassicState, move: int) -> None:
        self.states += 1
        for form in number_forms(state.rng_state):
            self.needles[form] = f"rng_state after move {move}"
        if len(state.deck) >= 8:
            self.decks += 1
            # ids < 128 are one varint byte each: this is the packed repeated int32 payload
            self.needles[bytes(state.deck[:8])] = f"deck top 8 after move {move}"


async def _true_state(client: redis.asyncio.Redis, game_id: str) -> ClassicState:
    state = (await astate_now(client, game_id))[0]
    assert isinstance(state, ClassicState)
    return state


async def _read_as_everyone(
    stub: Stub, game: BotGame, state: ClassicState, capture: Capture
) -> None:
    """GetGame and ListLegalActions as spectator, host and every seat; check each view's hand."""
    request = service_pb2.GetGameRequest(game_id=game.game_id)
    callers: list[tuple[Any, str | None]] = [(None, None), ("host", game.host_token)]
    callers += [(seat, token) for seat, token in enumerate(game.seat_tokens)]
    views = await asyncio.gather(*(
        stub.GetGame(request, metadata=bearer(token) if token else None)
        for _viewer, token in callers
    ))
    for (viewer, _token), reply in zip(callers, views, strict=True):
        capture.add("GetGame", viewer, reply)
        capture.views += 1
        assert reply.game.version == game.version
        view = wire.from_message(reply.board.classic, ClassicView)
        if isinstance(viewer, int):
            assert (reply.viewer_seat, view.viewer) == (viewer, viewer)
            assert view.hand == state.hands[viewer], f"seat {viewer} sees a hand not its own"
        else:
            assert (reply.viewer_seat, view.viewer, view.hand) == (-1, -1, ()), viewer
    spectator, host = views[0], views[1]
    assert host.board.SerializeToString() == spectator.board.SerializeToString()

    legal_request = service_pb2.ListLegalActionsRequest(game_id=game.game_id)
    listed = await asyncio.gather(*(
        stub.ListLegalActions(legal_request, metadata=bearer(token))
        for token in game.seat_tokens
    ))
    for seat, reply in enumerate(listed):
        capture.add("ListLegalActions", seat, reply)
    refused = await rpc_error(stub.ListLegalActions(legal_request))
    capture.replies.append(("ListLegalActions error", None, _error_bytes(refused)))


def _error_bytes(error: grpc.aio.AioRpcError) -> bytes:
    trailing = b"".join(
        value if isinstance(value, bytes) else f"{key}={value}".encode()
        for key, value in error.trailing_metadata() or ()
    )
    return (error.details() or "").encode() + trailing


async def _stream(
    stub: Stub, game_id: str, viewer: object, token: str | None, capture: Capture
) -> None:
    """Collect one viewer's stream until the game's last event."""
    call = stub.StreamEvents(
        service_pb2.StreamEventsRequest(game_id=game_id),
        metadata=bearer(token) if token else None,
    )
    seat = viewer if isinstance(viewer, int) else None
    try:
        async for reply in call:
            capture.add("StreamEvents", viewer, reply)
            capture.events.append((seat, reply.event))
            capture.streamed += reply.event.WhichOneof("variant") == "classic"
            if reply.event.classic.WhichOneof("kind") == "game_ended":
                return
    finally:
        call.cancel()


def _check_redaction(events: list[tuple[int | None, game_pb2.Event]]) -> None:
    """Drawn cards and taken cards show only to the players entitled to them."""
    hidden_draws = own_draws = hidden_takes = own_takes = 0
    for viewer, event in events:
        kind = event.classic.WhichOneof("kind")
        if kind == "card_drawn":
            drawn = event.classic.card_drawn
            if viewer == drawn.seat:
                assert drawn.card >= 0
                own_draws += 1
            else:
                assert drawn.card == HIDDEN, f"viewer {viewer} saw seat {drawn.seat}'s card"
                hidden_draws += 1
        elif kind == "player_eliminated":
            fallen = event.classic.player_eliminated
            taken = list(fallen.cards_taken)
            if viewer in (fallen.seat, fallen.by):
                assert all(card >= 0 for card in taken)
                own_takes += len(taken)
            else:
                assert taken == [HIDDEN] * len(taken), f"viewer {viewer} saw the cards taken"
                hidden_takes += len(taken)
    # the game must have exercised both sides of each rule, or the checks above prove nothing
    assert min(hidden_draws, own_draws, hidden_takes, own_takes) > 0, (
        hidden_draws, own_draws, hidden_takes, own_takes)


async def test_no_secret_in_any_reply_or_log(
    stub: Stub, service: ServiceProcess, redis_client: redis.asyncio.Redis
) -> None:
    """Seed, generator state, deck order and tokens appear in no reply (but their own) nor log."""
    capture = Capture()
    secrets = Secrets()
    game = await create_game(stub, SEED, observe=capture.add, **FAST_OPTIONS)

    async def after_action(g: BotGame) -> None:
        state = await _true_state(redis_client, g.game_id)
        if g.moves % SECRET_EVERY == 0 or g.outcome is not None:
            secrets.sample(state, g.moves)
        await _read_as_everyone(stub, g, state, capture)

    def observe(label: str, seat: int | None, reply: Message) -> None:
        capture.add(label, seat, reply)
        if isinstance(reply, service_pb2.SubmitActionResponse):
            capture.events.extend((seat, event) for event in reply.events)

    async with asyncio.timeout(TIMEOUT_S):
        viewers: list[tuple[object, str | None]] = [(None, None), ("host", game.host_token)]
        viewers += list(enumerate(game.seat_tokens))
        streams = asyncio.gather(*(
            _stream(stub, game.game_id, viewer, token, capture) for viewer, token in viewers
        ))
        await after_action(game)  # before the first action
        await play(stub, game, observe=observe, after_action=after_action)
        await streams
    assert game.outcome is not None and game.outcome.reason == "conquest"
    service.stop()  # every line (the streams' CANCELLED ones too) is in the log file
    log = service.logs().encode()
    assert log.count(game.game_id.encode()) > 4 * game.moves, "the log is not what it seems"

    snap = (await astate_now(redis_client, game.game_id))[1]
    state = await _true_state(redis_client, game.game_id)
    assert state.seed == SEED
    secrets.needles.update({form: "seed" for form in number_forms(SEED)})
    # rng_inc is the engine's fixed stream constant: its bare 3-byte varint and 4-digit hex
    # would match by chance, so it is searched as ClassicState's field 4 and as decimal text
    secrets.needles[b"\x20" + varint(state.rng_inc)] = "rng_inc field"
    secrets.needles[str(state.rng_inc).encode()] = "rng_inc decimal"
    assert secrets.states > 10 and secrets.decks > 5
    # positive control: the binary needles do match where the secrets are, in the snapshot
    controls = [varint(SEED), varint(state.rng_state), b"\x20" + varint(state.rng_inc)]
    controls += [bytes(state.deck[:8])] if len(state.deck) >= 8 else []
    assert all(needle in snap for needle in controls)

    tokens = {game.host_token.encode(): "host token"}
    tokens.update({t.encode(): f"seat {s} token" for s, t in enumerate(game.seat_tokens)})
    own_reply = {("CreateGame", None): game.host_token.encode()}
    own_reply.update({("JoinGame", s): t.encode() for s, t in enumerate(game.seat_tokens)})

    found = [
        f"{what} in {label} for {viewer!r}"
        for label, viewer, data in capture.replies
        for needle, what in secrets.needles.items()
        if needle in data
    ]
    found += [
        f"{what} in {label} for {viewer!r}"
        for label, viewer, data in capture.replies
        for needle, what in tokens.items()
        if needle in data and own_reply.get((label, viewer)) != needle
    ]
    found += [f"{what} in the log" for needle, what in {**secrets.needles, **tokens}.items()
              if _occurs(needle, log)]
    assert not found, found[:20]
    assert all(own_reply[key] in data for label, viewer, data in capture.replies
               if (key := (label, viewer)) in own_reply), "a token is missing from its own reply"

    assert capture.views == 5 * (game.moves + 1)
    assert capture.streamed == len(viewers) * len(replay(game)[1])
    _check_redaction(capture.events)


def _occurs(needle: bytes, text: bytes) -> bool:
    """A decimal needle counts only as a whole number (not inside a timestamp or duration)."""
    if needle.isdigit():
        return re.search(rb"(?<![0-9])" + re.escape(needle) + rb"(?![0-9])", text) is not None
    return needle in text
