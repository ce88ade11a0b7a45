"""A bot game played through the real service with raw stubs, as any remote client would.

`create_game` creates a classic game with a fixed seed and joins every seat; `play` then loops
GetGame (as the deciding seat) -> ListLegalActions -> the engine's bot on that view and list ->
SubmitAction, until the service reports an outcome. The bot's entropy depends only on the seed
and the move number, so a seed always gives the same game. The result keeps what a test needs to
rebuild the game offline: the seed, the options, the (seat, action) log and each action's version.
Hooks let a test watch every reply (`observe`) or act between two actions (`after_action`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message

from risk_proto.risk.v1 import common_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import Action, LegalAction, get_ruleset
from risk_rules.engine.classic.model import ClassicView
from risk_testing.rpc import bearer, classic_options

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


def bot_entropy(seed: int, move: int) -> int:
    """The bot's entropy for the game's `move`-th action (from 0): a function of seed and move."""
    return (seed * 0x9E3779B97F4A7C15 + move) & _MASK64


@dataclass
class BotGame:
    game_id: str
    seed: int
    options: game_pb2.GameOptions
    host_token: str
    seat_tokens: list[str]
    created: service_pb2.CreateGameResponse
    version: int  # the service's version of the game, as last seen
    last_seq: int  # the last event's seq, as last seen
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (seat, action), in order
    versions: list[int] = field(default_factory=list)  # the version each action committed
    outcome: common_pb2.Outcome | None = None

    @property
    def moves(self) -> int:
        """Actions played so far."""
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
    # joining may have moved the game on (a start), so its state is read afresh
    summary = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    return BotGame(
        game_id=game_id, seed=seed, options=options_pb, host_token=created.host_token,
        seat_tokens=tokens, created=created, version=summary.version,
        last_seq=summary.last_seq,
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
    request = service_pb2.GetGameRequest(game_id=game.game_id)
    seat = (await stub.GetGame(request)).game.decision.seats[0]
    while game.outcome is None:
        if game.moves >= max_actions:
            raise AssertionError(f"no outcome after {max_actions} actions")
        token = bearer(game.seat_tokens[seat])
        got = await stub.GetGame(request, metadata=token)
        observe("GetGame", seat, got)
        assert (got.viewer_seat, list(got.game.decision.seats)) == (seat, [seat])
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
        action = RULES.bot_choose(view, legal, bot_entropy(game.seed, game.moves))
        reply = await stub.SubmitAction(
            service_pb2.SubmitActionRequest(
                game_id=game.game_id,
                action=wire.action_to_proto("classic", action),
                expected_version=game.version,
                request_id=f"bot-{game.moves}",
            ),
            metadata=token,
        )
        observe("SubmitAction", seat, reply)
        assert reply.version > game.version
        game.actions.append((seat, action))
        game.versions.append(reply.version)
        game.version = reply.version
        if reply.events:
            game.last_seq = reply.events[-1].seq
        if reply.HasField("outcome"):
            game.outcome = reply.outcome
        else:
            seat = reply.decision.seats[0]
        if after_action is not None:
            await after_action(game)
    final = await stub.GetGame(request)
    observe("GetGame", None, final)
    assert final.game.outcome == game.outcome
    game.version, game.last_seq = final.game.version, final.game.last_seq
    return game


async def play_game(stub: Stub, seed: int, **options: Any) -> BotGame:
    """Create, join and play a game to its end."""
    return await play(stub, await create_game(stub, seed, **options))


def engine_options(game: BotGame) -> Any:
    return wire.options_from_proto(game.options)[1]


def replay(game: BotGame) -> tuple[Any, list[tuple[int, int, Any]]]:
    """The final state and every engine (seq, version, event), rebuilt offline from the seed
    and the action log: seqs count from 1 over the creation events (version 0) and then each
    action's events (the version that action committed)."""
    state, created = RULES.create(engine_options(game), game.seed)
    items = [(seq, 0, event) for seq, event in enumerate(created, start=1)]
    for (seat, action), version in zip(game.actions, game.versions, strict=True):
        state, events = RULES.apply(state, seat, action)
        last = len(items)
        items.extend((last + i, version, e) for i, e in enumerate(events, start=1))
    return state, items


def expected_events(game: BotGame, viewer: int | None) -> list[game_pb2.Event]:
    """The engine events `viewer` (a seat, or None) must receive, redacted and encoded."""
    _state, items = replay(game)
    out = []
    for seq, version, event in items:
        seen = event.for_viewer(viewer)
        if seen is not None:
            out.append(wire.event_to_proto("classic", seen, seq, version))
    return out
