"""A bot game played through the real service with raw stubs, as any remote client would.

`create_game` creates a classic game with a fixed seed and joins every seat; `play` then loops
GetGame (as the deciding seat) -> ListLegalActions -> the engine's bot on that view and list ->
SubmitAction, until the service reports an outcome. The bot's entropy depends only on the seed
and the version, so a seed always gives the same game. The result keeps what a test needs to
rebuild the game offline: the seed, the options and the (seat, action) log in version order.
Hooks let a test watch every reply (`observe`) or act between two actions (`after_action`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message

from risk_service import wire
from risk_service.engine import Action, LegalAction, get_ruleset
from risk_service.engine.classic.model import ClassicView
from risk_service.pb.risk.v1 import common_pb2, game_pb2, service_pb2, service_pb2_grpc
from tests.service.rpc import bearer, classic_options

Stub = service_pb2_grpc.RiskServiceStub
# (method name, the viewer's seat or None for no seat, the reply message)
Observer = Callable[[str, int | None, Message], None]
AfterAction = Callable[["BotGame"], Awaitable[None]]

RULES = get_ruleset("classic")
_MASK64 = (1 << 64) - 1

# Three players, random deal with automatic placement (no setup actions) and a turn cap: the
# cheapest classic game that still reaches an outcome (conquest or a turn-cap draw) quickly.
FAST_OPTIONS: dict[str, Any] = {
    "players": 3, "setup": 2, "auto_place": True, "auto_defend_max_dice": True, "max_turns": 60,
}


def bot_entropy(seed: int, version: int) -> int:
    """The bot's entropy for the action taken at `version`: a pure function of seed and version."""
    return (seed * 0x9E3779B97F4A7C15 + version) & _MASK64


@dataclass
class BotGame:
    game_id: str
    seed: int
    options: game_pb2.GameOptions
    host_token: str
    seat_tokens: list[str]
    created: service_pb2.CreateGameResponse
    actions: list[tuple[int, Action]] = field(default_factory=list)  # index k-1 = version k
    outcome: common_pb2.Outcome | None = None
    last_seq: int = 0

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def players(self) -> int:
        return len(self.seat_tokens)


def _ignore(_method: str, _seat: int | None, _reply: Message) -> None:
    return None


async def create_game(
    stub: Stub, seed: int, *, observe: Observer = _ignore, **options: Any
) -> BotGame:
    """Create a classic game with `seed` and `options` and take every seat."""
    options_pb = classic_options(**options)
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(options=options_pb, seed=seed)
    )
    observe("CreateGame", None, created)
    game_id = created.game.game_id
    tokens = []
    for seat in range(len(created.game.seats)):
        joined = await stub.JoinGame(
            service_pb2.JoinGameRequest(game_id=game_id, seat=seat, display_name=f"bot{seat}")
        )
        observe("JoinGame", seat, joined)
        tokens.append(joined.seat_token)
    return BotGame(
        game_id=game_id, seed=seed, options=options_pb, host_token=created.host_token,
        seat_tokens=tokens, created=created, last_seq=created.game.last_seq,
    )


async def play(
    stub: Stub,
    game: BotGame,
    *,
    observe: Observer = _ignore,
    after_action: AfterAction | None = None,
    max_actions: int = 20_000,
) -> BotGame:
    """Let the bots play `game` to its end through the service; returns the same `game`."""
    seat = game.created.game.decision.seats[0]
    while game.outcome is None:
        if game.version >= max_actions:
            raise AssertionError(f"no outcome after {max_actions} actions")
        token = bearer(game.seat_tokens[seat])
        got = await stub.GetGame(service_pb2.GetGameRequest(game_id=game.game_id), metadata=token)
        observe("GetGame", seat, got)
        assert got.viewer_seat == seat
        assert list(got.game.decision.seats) == [seat]
        assert got.game.version == game.version
        view = wire.from_message(got.board.classic, ClassicView)
        listed = await stub.ListLegalActions(
            service_pb2.ListLegalActionsRequest(game_id=game.game_id), metadata=token
        )
        observe("ListLegalActions", seat, listed)
        assert (listed.version, listed.seat) == (game.version, seat)
        legal = [
            LegalAction(action=wire.action_from_proto(entry.action)[1], max_count=entry.max_count)
            for entry in listed.actions
        ]
        action = RULES.bot_choose(view, legal, bot_entropy(game.seed, game.version))
        reply = await stub.SubmitAction(
            service_pb2.SubmitActionRequest(
                game_id=game.game_id,
                action=wire.action_to_proto("classic", action),
                expected_version=game.version,
                request_id=f"bot-{game.version}",
            ),
            metadata=token,
        )
        observe("SubmitAction", seat, reply)
        game.actions.append((seat, action))
        assert reply.version == game.version
        if reply.events:
            game.last_seq = reply.events[-1].seq
        if reply.HasField("outcome"):
            game.outcome = reply.outcome
        else:
            seat = reply.decision.seats[0]
        if after_action is not None:
            await after_action(game)
    return game


async def play_game(stub: Stub, seed: int, **options: Any) -> BotGame:
    """Create, join and play a game to its end."""
    return await play(stub, await create_game(stub, seed, **options))


def engine_options(game: BotGame) -> Any:
    return wire.options_from_proto(game.options)[1]


def replay(game: BotGame) -> tuple[Any, list[tuple[int, int, Any]]]:
    """The final state and every (seq, version, event), rebuilt offline from seed and log."""
    state, created = RULES.create(engine_options(game), game.seed)
    items = [(seq, 0, event) for seq, event in enumerate(created, start=1)]
    for version, (seat, action) in enumerate(game.actions, start=1):
        state, events = RULES.apply(state, seat, action)
        last = len(items)
        items.extend((last + i, version, e) for i, e in enumerate(events, start=1))
    return state, items


def expected_events(game: BotGame, viewer: int | None, after_seq: int = 0) -> list[bytes]:
    """The serialised events `viewer` (a seat, or None) must receive after `after_seq`."""
    _state, items = replay(game)
    out = []
    for seq, version, event in items:
        seen = event.for_viewer(viewer)
        if seq > after_seq and seen is not None:
            message = wire.event_to_proto("classic", seen, seq, version)
            out.append(message.SerializeToString(deterministic=True))
    return out
