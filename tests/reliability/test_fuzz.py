"""Hostile input: 10,000+ fuzzed requests never get UNKNOWN/INTERNAL and change no attacked game.

Two service processes on one Redis: the first with a small message limit
(`RISK_MAX_MESSAGE_BYTES`) and few streams per connection (`RISK_MAX_STREAMS_PER_CONNECTION`),
the second also with a per-caller rate limit (`RISK_RATE_LIMIT_PER_S` / `_BURST`). Each batch
holds a fixed number of shots of each kind (KIND_WEIGHTS, SEMANTIC_WEIGHTS), fired at once, whose
order and content Hypothesis draws:

- `semantic`: a well-formed request for a real game that is wrong in what it means: a listed
  action sent by the wrong seat, an action of another phase, a stale version, another game's
  token, a seat field that is not the token's, the host acting as a seat, a seat acting as the
  host, joining a taken seat, exporting a running game, a replayed or reused request id. Most
  reach the engine, which refuses them with its reason code.
- `schema`: a random message of the method's request type (every field, oneof and enum drawn from
  the schema; see `hostile.py`), often with a real game id and a real token.
- `out_of_range`: real actions whose numbers were replaced by extreme ones; extreme seats,
  versions, seqs and page sizes.
- `wrong_variant`: other variants' options and actions against classic games.
- `oversized`: requests larger than the message limit; `raw`: bytes that are no message at all;
  `unknown_method`; `flood`: more streams at once than one connection may hold; `rate_burst`:
  one caller's reads, twice its burst at once, to the rate-limited process (which also gets
  every fifth shot that is not semantic).
- `legit`: the deciding seat's bot move on one of two sandbox games, sometimes re-sent.

Every answer must be one of the documented codes (never UNKNOWN or INTERNAL), OK only for a
request that was legitimately valid, and a semantic shot must get the code its mistake calls
for. Afterwards both processes still run with the same pid and are healthy, every attacked game
has the same snapshot hash, stream length, request records and log as before, and each sandbox
game equals the engine's replay of its log. The counts per status code are printed.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
import redis
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import REGISTRY, Action, Reason, is_legal
from risk_service.store.keys import Keys
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import DETAILS_KEY, bearer
from tests.reliability.hostile import integers_for, message_of, raw_bytes
from tests.reliability.replay import check_export
from tests.reliability.targets import (
    ACTIVE,
    FINAL,
    WAITING,
    Target,
    action_pool,
    build_targets,
    channel,
    fingerprint,
)
from tests.stored_state import state_now

pytestmark = pytest.mark.slow

SHOTS = int(os.environ.get("RISK_FUZZ_SHOTS", "10000"))
MAX_MESSAGE_BYTES = 16 * 1024
STREAMS_PER_CONNECTION = 4
RATE, BURST = 10, 5
# a stream that neither sent an event nor ended after this long is open: OK where it may be
STREAM_HOLD_S = 1.5
FLOOD_HOLD_S = 0.5
CALL_TIMEOUT_S = 15.0
SEMANTIC_QUOTA = 0.30

OK = "OK"
ALLOWED = frozenset({
    OK, "INVALID_ARGUMENT", "FAILED_PRECONDITION", "ABORTED", "NOT_FOUND", "PERMISSION_DENIED",
    "UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNIMPLEMENTED",
})
# codes that only the service's own error mapping gives, so they must carry an ErrorInfo
WITH_INFO = frozenset({"INVALID_ARGUMENT", "FAILED_PRECONDITION", "ABORTED", "NOT_FOUND",
                       "PERMISSION_DENIED", "UNAUTHENTICATED"})
FP, AB, PD, UA, IA = ("FAILED_PRECONDITION", "ABORTED", "PERMISSION_DENIED", "UNAUTHENTICATED",
                      "INVALID_ARGUMENT")
INT32 = FieldDescriptor.TYPE_INT32
SERVICE = service_pb2.DESCRIPTOR.services_by_name["RiskService"]
METHODS = {m.name: m for m in SERVICE.methods}
# server streams: read as streams (a valid one may stay silent: StreamGames of a player
# without games), never as unary calls waiting for an end that does not come
STREAMS = frozenset(m.name for m in SERVICE.methods
                    if m.server_streaming and not m.client_streaming)
MUTATING = frozenset({"SubmitAction", "Resign", "ReissueSeatToken", "StartGame", "CancelGame",
                      "JoinGame"})
SERVICE_REASONS = frozenset({Reason.GAME_OVER, Reason.WRONG_VARIANT})
ENGINE_REASONS = frozenset(r.value for r in Reason) - SERVICE_REASONS
# how many shots of each kind one batch holds (a flood is several shots). Each batch sends
# exactly these, in an order Hypothesis draws: its choices are not uniform, so it does not
# choose the kinds themselves, or the shares would drift from run to run
KIND_WEIGHTS = {"semantic": 60, "schema": 16, "out_of_range": 9, "raw": 9, "wrong_variant": 5,
                "legit": 5, "oversized": 4, "unknown_method": 2, "flood": 1, "rate_burst": 1}
BATCH_KINDS = [kind for kind, weight in KIND_WEIGHTS.items() for _ in range(weight)]
RATE_BURST = 2 * BURST  # one caller's calls at once to the rate-limited process
# floods and rate bursts are several shots each
SHOTS_PER_BATCH = len(BATCH_KINDS) + STREAMS_PER_CONNECTION + 1 + RATE_BURST - 1
# the semantic mistakes of one batch; the first two get past credentials, version and status
# to the engine's rules
SEMANTIC_WEIGHTS = {
    "wrong_seat": 18, "illegal": 26, "stale": 2, "foreign": 2, "seat_field": 2, "host_acts": 1,
    "not_host": 1, "host_wrong_state": 1, "join_taken": 1, "export": 1, "reads": 1,
    "replayed_id": 2, "reused_id": 1, "resign_not_active": 1,
}
BATCH_SEMANTIC = [sub for sub, weight in SEMANTIC_WEIGHTS.items() for _ in range(weight)]
ROUTE_EVERY = 5  # every 5th shot that is not semantic goes to the rate-limited process


def path(method: str) -> str:
    return f"/{SERVICE.full_name}/{method}"


@dataclass
class Shot:
    kind: str
    method: str
    request: Message | bytes
    auth: str | None = None  # the authorization header, as sent
    target: Target | None = None
    server: int = 0  # 0: limits without a rate limit; 1: with one
    expect: frozenset[str] | None = None  # the codes this shot may get (None: any allowed one)
    replayed: bytes | None = None  # a replayed request id: the reply it must get again
    path: str = ""

    @property
    def streaming(self) -> bool:
        return self.method in STREAMS

    def payload(self) -> bytes:
        if isinstance(self.request, bytes):
            return self.request
        return self.request.SerializeToString()

    def describe(self) -> str:
        body = (self.request[:60].hex() if isinstance(self.request, bytes)
                else repr(self.request)[:300].replace("\n", " "))
        where = self.target.name if self.target is not None else "-"
        return f"{self.kind} {self.method} on {where} via {self.server} auth={self.auth!r}: {body}"


@dataclass(frozen=True)
class Answer:
    code: str
    reason: str = ""
    details: str = ""
    metadata: tuple[tuple[str, str], ...] = ()
    reply: bytes = b""
    silent: bool = False  # a stream that stayed open without sending anything


@dataclass
class World:
    targets: list[Target]
    pool: dict[str, list[Action]]
    setup_replies: dict[str, list[tuple[int, str, game_pb2.Action, bytes]]]
    by_id: dict[str, Target] = field(init=False)
    roles: dict[str, tuple[str, object]] = field(init=False)  # token -> (game id, seat|"host")
    legit_sent: list[tuple[Target, int, service_pb2.SubmitActionRequest]] = field(
        default_factory=list)

    def __post_init__(self) -> None:
        self.by_id = {t.game_id: t for t in self.targets}
        self.roles = {t.host: (t.game_id, "host") for t in self.targets}
        self.roles.update({tok: (t.game_id, s) for t in self.targets
                           for s, tok in enumerate(t.tokens)})

    @property
    def attacked(self) -> list[Target]:
        return [t for t in self.targets if t.attacked]

    @property
    def sandboxes(self) -> list[Target]:
        return [t for t in self.targets if not t.attacked]

    def role(self, token: str | None, target: Target | None) -> object:
        """`token`'s role in `target`: its seat, "host", or None."""
        if token is None or target is None:
            return None
        game_id, role = self.roles.get(token, ("", None))
        return role if game_id == target.game_id else None

    def foreign(self, target: Target) -> list[str]:
        return [tok for tok, (gid, _r) in self.roles.items() if gid != target.game_id]


def token_of(auth: str | None) -> str | None:
    if auth is None or not auth.lower().startswith("bearer "):
        return None
    return auth[7:].strip() or None


# ---- what must not happen to an attacked game ----------------------------------------------


def is_risky(world: World, method: str, request: Message, auth: str | None) -> bool:
    """Whether `request` could legitimately change an attacked game (or rotate a sandbox's
    token, which would lose the fuzzer its credentials)."""
    target = world.by_id.get(getattr(request, "game_id", ""))
    if target is None:
        return False
    role = world.role(token_of(auth), target)
    if method == "ReissueSeatToken":
        assert isinstance(request, service_pb2.ReissueSeatTokenRequest)
        return role == "host" and 0 <= request.seat < len(target.tokens)
    if not target.attacked:
        return method == "Resign" and isinstance(role, int)
    if method == "SubmitAction":
        assert isinstance(request, service_pb2.SubmitActionRequest)
        if not isinstance(role, int) or target.status != ACTIVE:
            return False
        if request.HasField("seat") and request.seat != role:
            return False
        try:
            variant, action = wire.action_from_proto(request.action)
        except wire.WireError:
            return False
        return (variant == target.variant and request.expected_version == target.version
                and is_legal(target.rules.legal_actions(target.state, role), action))
    if method == "Resign":
        assert isinstance(request, service_pb2.ResignRequest)
        return (isinstance(role, int) and target.status == ACTIVE
                and (not request.HasField("seat") or request.seat == role))
    if method in ("StartGame", "CancelGame"):
        return role == "host" and target.status == WAITING
    if method == "JoinGame":
        return target.status == WAITING and not all(target.tokens)
    return False


def defang(world: World, shot: Shot) -> Shot:
    """Swap the credential of a shot that could legitimately change an attacked game."""
    request = shot.request
    if isinstance(request, bytes):
        try:
            request = METHODS[shot.method].input_type._concrete_class.FromString(request)
        except DecodeError:
            return shot
    if is_risky(world, shot.method, request, shot.auth):
        return dataclasses.replace(shot, auth="Bearer defanged-" + "x" * 12, expect=None)
    return shot


# ---- shot strategies -----------------------------------------------------------------------


def auths(world: World, target: Target | None) -> st.SearchStrategy[str | None]:
    real = sorted(world.roles)
    own = ([target.host, *target.tokens] if target is not None else [])
    return st.one_of(
        st.none(),
        st.sampled_from(real).map(lambda t: f"Bearer {t}"),
        st.sampled_from(own or real).map(lambda t: f"Bearer {t}"),
        st.sampled_from(["Bearer", "Bearer ", "Basic abc", "bearer x", "BEARER y", "Bearer  "]),
        st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=60)
        .map(lambda t: f"Bearer {t}"),
    )


def mutated(draw: st.DrawFn, action: Action) -> Action:
    """`action` with each integer field set to an extreme or meaningless value."""
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and draw(st.booleans()):
            changes[f.name] = draw(integers_for(INT32))
        elif isinstance(value, tuple) and draw(st.booleans()):
            size = draw(st.sampled_from((0, 1, 2, 4, 7, 3000)))
            changes[f.name] = tuple(draw(st.lists(integers_for(INT32), min_size=min(size, 5),
                                                  max_size=min(size, 5))) * (size // 5 or 1))
    return dataclasses.replace(action, **changes) if changes else action


def one_mutated(draw: st.DrawFn, action: Action) -> Action:
    """`action` with one of its integer fields set to an extreme or meaningless value."""
    names = [f.name for f in dataclasses.fields(action)
             if isinstance(getattr(action, f.name), int)
             and not isinstance(getattr(action, f.name), bool)]
    if not names:
        return mutated(draw, action)
    return dataclasses.replace(action, **{draw(st.sampled_from(names)): draw(
        integers_for(INT32))})


def _submit(target: Target, action: Action | game_pb2.Action, version: int, **fields: Any
            ) -> service_pb2.SubmitActionRequest:
    proto = action if isinstance(action, game_pb2.Action) else wire.action_to_proto(
        target.variant, action)
    return service_pb2.SubmitActionRequest(game_id=target.game_id, action=proto,
                                           expected_version=version, **fields)


@st.composite
def semantic(draw: st.DrawFn, world: World, sub: str | None = None) -> Shot:
    """A well-formed request for an attacked game with the mistake `sub` (drawn if None)."""
    sub = sub or draw(st.sampled_from(BATCH_SEMANTIC))
    # a move by the wrong seat or of the wrong phase is aimed at a running game, so that it
    # gets past the credentials, the version and the status to the engine's rules
    engine = sub in ("wrong_seat", "illegal")
    t = draw(st.sampled_from([t for t in world.attacked if t.status == ACTIVE] if engine
                             else world.attacked))
    seats = len(t.tokens)
    decider = t.decider
    some_seat = draw(st.integers(0, seats - 1))
    pool = world.pool[t.variant]
    listed = t.legal(decider) if decider is not None else []
    action = draw(st.sampled_from(listed or pool))
    rid = f"fz-{draw(st.integers(0, 10**9))}"

    def shot(method: str, request: Message, token: str | None, *codes: str) -> Shot:
        return Shot("semantic", method, request, None if token is None else f"Bearer {token}",
                    t, expect=frozenset(codes))

    if sub == "wrong_seat" and decider is not None and seats > 1:
        seat = draw(st.sampled_from([s for s in range(seats) if s != decider]))
        request = _submit(t, action, t.version, request_id=rid)
        if is_risky(world, "SubmitAction", request, f"Bearer {t.tokens[seat]}"):
            request.expected_version = t.version + 1  # the seat may answer out of turn here
            return shot("SubmitAction", request, t.tokens[seat], AB)
        return shot("SubmitAction", request, t.tokens[seat], FP)
    if sub in ("illegal", "wrong_seat"):
        seat = decider if decider is not None else some_seat
        action = draw(st.sampled_from(pool))
        request = _submit(t, action, t.version, request_id=rid)
        if is_risky(world, "SubmitAction", request, f"Bearer {t.tokens[seat]}"):
            request.expected_version = t.version + 1  # a legal move: send it stale instead
            return shot("SubmitAction", request, t.tokens[seat], AB)
        return shot("SubmitAction", request, t.tokens[seat], FP)
    if sub == "stale":
        version = draw(st.sampled_from([v for v in (t.version - 1, t.version + 1, t.version + 7,
                                                    0, 2**64 - 1) if v >= 0 and v != t.version]))
        return shot("SubmitAction", _submit(t, action, version, request_id=rid),
                    draw(st.sampled_from(t.tokens)), AB)
    if sub == "foreign":
        token = draw(st.sampled_from(world.foreign(t)))
        method = draw(st.sampled_from(("SubmitAction", "ListLegalActions", "GetGame", "Resign",
                                       "ReissueSeatToken", "StartGame", "CancelGame",
                                       "ExportGame", "StreamEvents")))
        request = (_submit(t, action, t.version, request_id=rid) if method == "SubmitAction"
                   else METHODS[method].input_type._concrete_class(game_id=t.game_id))
        return shot(method, request, token, UA)
    if sub == "seat_field" and seats > 1:
        other = (some_seat + draw(st.integers(1, seats - 1))) % seats
        method = draw(st.sampled_from(("SubmitAction", "ListLegalActions", "Resign")))
        if method == "SubmitAction":
            request: Message = _submit(t, action, t.version, request_id=rid, seat=other)
        else:
            request = METHODS[method].input_type._concrete_class(game_id=t.game_id, seat=other)
        return shot(method, request, t.tokens[some_seat], PD)
    if sub == "host_acts":
        method = draw(st.sampled_from(("SubmitAction", "ListLegalActions", "Resign")))
        request = (_submit(t, action, t.version, request_id=rid) if method == "SubmitAction"
                   else METHODS[method].input_type._concrete_class(game_id=t.game_id))
        return shot(method, request, t.host, PD)
    if sub == "not_host":
        method = draw(st.sampled_from(("StartGame", "CancelGame", "ReissueSeatToken")))
        request = METHODS[method].input_type._concrete_class(game_id=t.game_id)
        token = draw(st.sampled_from([None, *t.tokens]))
        return shot(method, request, token, UA if token is None else PD)
    if sub == "host_wrong_state" and t.status != WAITING:
        method = draw(st.sampled_from(("StartGame", "CancelGame", "ReissueSeatToken")))
        if method == "ReissueSeatToken":
            seat = draw(st.sampled_from((-1, seats, 2**31 - 1, -(2**31))
                                        if t.status not in FINAL else range(seats)))
            code = FP if t.status in FINAL and 0 <= seat < seats else IA
            return shot(method, service_pb2.ReissueSeatTokenRequest(
                game_id=t.game_id, seat=seat), t.host, code)
        return shot(method, METHODS[method].input_type._concrete_class(game_id=t.game_id),
                    t.host, FP)
    if sub == "join_taken":
        seat = draw(st.integers(-2, seats + 1))
        code = IA if not 0 <= seat < seats else FP
        return shot("JoinGame", service_pb2.JoinGameRequest(game_id=t.game_id, seat=seat,
                                                            display_name="intruder"), None, code)
    if sub == "export":
        token = draw(st.sampled_from([None, t.host, *t.tokens]))
        code = UA if token is None else (OK if t.status in FINAL else FP)
        return shot("ExportGame", service_pb2.ExportGameRequest(game_id=t.game_id), token, code)
    if sub == "replayed_id" and world.setup_replies.get(t.game_id):
        seat, request_id, proto, reply = draw(st.sampled_from(world.setup_replies[t.game_id]))
        version = draw(st.sampled_from((t.version, 0, t.version - 1)))
        result = shot("SubmitAction", _submit(t, proto, max(version, 0), request_id=request_id),
                      t.tokens[seat], OK)
        result.replayed = reply
        return result
    if sub == "reused_id" and world.setup_replies.get(t.game_id):
        seat, request_id, proto, _reply = draw(st.sampled_from(world.setup_replies[t.game_id]))
        other = draw(st.sampled_from([a for a in pool
                                      if wire.action_to_proto(t.variant, a) != proto] or pool))
        version = draw(st.sampled_from((t.version, t.version - 1)))
        return shot("SubmitAction", _submit(t, other, version, request_id=request_id),
                    t.tokens[seat], IA)
    if sub == "resign_not_active" and t.status != ACTIVE:
        return shot("Resign", service_pb2.ResignRequest(game_id=t.game_id),
                    draw(st.sampled_from(t.tokens)), FP)
    # reads: legitimate, answered OK (a stream stays open)
    method = draw(st.sampled_from(("GetGame", "ListLegalActions", "StreamEvents")))
    if method == "ListLegalActions":
        return shot(method, service_pb2.ListLegalActionsRequest(game_id=t.game_id),
                    t.tokens[some_seat], OK)
    token = draw(st.sampled_from([None, t.host, *t.tokens]))
    request = METHODS[method].input_type._concrete_class(game_id=t.game_id)
    if method == "StreamEvents":
        # a seq the game has (every game has its creation's first event); a resume past the
        # game's last seq is answered ABORTED / GAME_ROLLED_BACK, not served
        request.after_seq = draw(st.sampled_from((0, 1)))
    return shot(method, request, token, OK)


@st.composite
def schema(draw: st.DrawFn, world: World) -> Shot:
    method = draw(st.sampled_from(sorted(METHODS)))
    request = draw(message_of(METHODS[method].input_type))
    target = None
    if "game_id" in METHODS[method].input_type.fields_by_name and draw(st.booleans()):
        target = draw(st.sampled_from(world.targets))
        request.game_id = target.game_id
        if method == "SubmitAction" and draw(st.booleans()):
            near = target.version + draw(st.integers(-2, 2))
            request.expected_version = max(0, near)
    return Shot("schema", method, request, draw(auths(world, target)), target)


@st.composite
def out_of_range(draw: st.DrawFn, world: World) -> Shot:
    t = draw(st.sampled_from(world.attacked))
    seat = t.decider if t.decider is not None else 0
    which = draw(st.sampled_from(("action", "action", "action", "numbers")))
    if which == "action":
        # half of them one of the moves a running target's decider may make now with one
        # number made extreme (its phase's own checks run only on those), half any phase's
        # move with any of its numbers changed
        running = [r for r in world.attacked if r.decider is not None]
        if running and draw(st.booleans()):
            t = draw(st.sampled_from(running))
            seat = t.decider if t.decider is not None else 0
            action = one_mutated(draw, draw(st.sampled_from(t.legal(seat))))
        else:
            action = mutated(draw, draw(st.sampled_from(world.pool[t.variant])))
        request = _submit(t, action, t.version, request_id=f"fz-{draw(st.integers(0, 10**9))}")
        return Shot("out_of_range", "SubmitAction", request, f"Bearer {t.tokens[seat]}", t,
                    expect=frozenset({"FAILED_PRECONDITION", "INVALID_ARGUMENT", "ABORTED",
                                      "RESOURCE_EXHAUSTED"}))
    huge = draw(st.sampled_from((2**31 - 1, -(2**31), 2**32 - 1, 2**63 - 1, 2**64 - 1, -1)))
    method = draw(st.sampled_from(("StreamEvents", "ListGames", "JoinGame", "ReissueSeatToken",
                                   "ListLegalActions", "SubmitAction")))
    request_type = METHODS[method].input_type._concrete_class
    auth = f"Bearer {t.tokens[seat]}"
    if method == "StreamEvents":
        request = request_type(game_id=t.game_id, after_seq=huge % 2**64)
    elif method == "ListGames":
        request = request_type(page_size=huge % 2**31 * (-1 if huge < 0 else 1),
                               variant=huge % 2**31, status=huge % 2**31)
    elif method == "SubmitAction":
        action = draw(st.sampled_from(world.pool[t.variant]))
        request = _submit(t, action, huge % 2**64, seat=huge % 2**31)
    else:
        request = request_type(game_id=t.game_id, seat=max(-(2**31), min(huge, 2**31 - 1)))
        auth = f"Bearer {t.host}" if method == "ReissueSeatToken" else auth
    return Shot("out_of_range", method, request, auth, t)


@st.composite
def wrong_variant(draw: st.DrawFn, world: World) -> Shot:
    classic = [t for t in world.attacked if t.variant == "classic"]
    cases = [c for c in game_pb2.Action.DESCRIPTOR.oneofs_by_name["variant"].fields
             if c.name != "classic"]
    case = draw(st.sampled_from(cases))
    if draw(st.booleans()) or not classic:  # another variant's options, random or empty
        options = game_pb2.GameOptions()
        options_case = game_pb2.GameOptions.DESCRIPTOR.fields_by_name[case.name]
        getattr(options, case.name).CopyFrom(draw(message_of(options_case.message_type)))
        return Shot("wrong_variant", "CreateGame",
                    service_pb2.CreateGameRequest(options=options, seed=draw(st.integers(0, 9))))
    t = draw(st.sampled_from(classic))
    action = game_pb2.Action()
    getattr(action, case.name).CopyFrom(draw(message_of(case.message_type)))
    seat = t.decider if t.decider is not None else 0
    return Shot("wrong_variant", "SubmitAction", _submit(t, action, t.version),
                f"Bearer {t.tokens[seat]}", t,
                expect=frozenset({"INVALID_ARGUMENT", "UNIMPLEMENTED"}))


@st.composite
def oversized(draw: st.DrawFn, world: World) -> Shot:
    t = draw(st.sampled_from(world.targets))
    size = MAX_MESSAGE_BYTES + draw(st.sampled_from((1, 100, 50_000, 200_000)))
    method = draw(st.sampled_from(("CreateGame", "SubmitAction", "GetGame", "JoinGame")))
    if method == "CreateGame":
        request: Message = service_pb2.CreateGameRequest(seat_names=["n" * 50] * (size // 50 + 1))
    elif method == "SubmitAction":
        request = _submit(t, draw(st.sampled_from(world.pool[t.variant])), t.version,
                          request_id="r" * size)
    elif method == "GetGame":
        request = service_pb2.GetGameRequest(game_id="a" * size)
    else:
        request = service_pb2.JoinGameRequest(game_id=t.game_id, display_name="d" * size)
    return Shot("oversized", method, request, f"Bearer {t.host}", t,
                expect=frozenset({"RESOURCE_EXHAUSTED"}))


@st.composite
def raw(draw: st.DrawFn, world: World) -> Shot:
    method = draw(st.sampled_from(sorted(METHODS)))
    genuine = draw(semantic(world)) if draw(st.booleans()) else None
    base = genuine.payload() if genuine is not None and genuine.method == method else b""
    data = draw(raw_bytes(base))
    target = genuine.target if genuine is not None else None
    return Shot("raw", method, data, draw(auths(world, target)), target)


@st.composite
def legit(draw: st.DrawFn, world: World) -> Shot:
    # the sandbox games move on between batches: every draw is made whatever their state, so
    # that Hypothesis sees the same shape of choices each time (it checks that it does)
    t = draw(st.sampled_from(world.sandboxes))
    again, pick = draw(st.integers(0, 3)), draw(st.integers(0, 2**16))
    entropy, rid = draw(st.integers(0, 2**32)), draw(st.integers(0, 10**12))
    expect = frozenset({OK, "ABORTED", "FAILED_PRECONDITION"})
    if world.legit_sent and again == 0:  # the same request once more
        t, seat, request = world.legit_sent[pick % len(world.legit_sent)]
        return Shot("legit", "SubmitAction", request, f"Bearer {t.tokens[seat]}", t,
                    expect=expect)
    seat = t.decider
    if seat is None:
        return Shot("legit", "GetGame", service_pb2.GetGameRequest(game_id=t.game_id), None, t,
                    expect=frozenset({OK}))
    action = t.rules.bot_action(t.state, seat, entropy)
    # a counter keeps ids unique: Hypothesis likes to draw the same numbers again
    request = _submit(t, action, t.version, request_id=f"legit-{rid}-{len(world.legit_sent)}")
    world.legit_sent.append((t, seat, request))
    return Shot("legit", "SubmitAction", request, f"Bearer {t.tokens[seat]}", t, expect=expect)


def flood(world: World) -> st.SearchStrategy[list[Shot]]:
    """More streams at once than one connection may keep open (on the first process)."""
    def build(t: Target) -> list[Shot]:
        request = service_pb2.StreamEventsRequest(game_id=t.game_id)
        return [Shot("flood", "StreamEvents", request, None, t, server=0,
                     expect=frozenset({OK, "RESOURCE_EXHAUSTED"}))
                for _ in range(STREAMS_PER_CONNECTION + 2)]
    return st.sampled_from(world.targets).map(build)


def rate_burst(world: World) -> st.SearchStrategy[list[Shot]]:
    """One caller's burst of reads, more than the rate-limited process lets through at once."""
    def build(t: Target, token: str | None) -> list[Shot]:
        request = service_pb2.GetGameRequest(game_id=t.game_id)
        return [Shot("rate_burst", "GetGame", request, None if token is None else f"Bearer {token}",
                     t, server=1, expect=frozenset({OK})) for _ in range(RATE_BURST)]
    return st.sampled_from(world.targets).flatmap(
        lambda t: st.sampled_from([None, t.host, *t.tokens]).map(lambda tok: build(t, tok)))


def unknown_method() -> st.SearchStrategy[Shot]:
    paths = ("/risk.v1.RiskService/DropGame", "/risk.v2.RiskService/GetGame",
             "/risk.v1.Admin/Shutdown", "/risk.v1.RiskService/getgame")
    return st.builds(lambda p, data: Shot("unknown_method", "Ping", data, path=p,
                                          expect=frozenset({"UNIMPLEMENTED"})),
                     st.sampled_from(paths), st.binary(max_size=20))


def batches(world: World) -> st.SearchStrategy[list[Shot]]:
    """One batch: the kinds of BATCH_KINDS and the mistakes of BATCH_SEMANTIC, each in an
    order drawn by Hypothesis. Build it once: making composite strategies is slow
    (Hypothesis reads their source)."""
    kinds: dict[str, st.SearchStrategy[Any]] = {
        "schema": schema(world), "out_of_range": out_of_range(world),
        "wrong_variant": wrong_variant(world), "oversized": oversized(world), "raw": raw(world),
        "legit": legit(world), "unknown_method": unknown_method(), "flood": flood(world),
        "rate_burst": rate_burst(world),
    }
    mistakes = {sub: semantic(world, sub) for sub in SEMANTIC_WEIGHTS}

    @st.composite
    def batch(draw: st.DrawFn) -> list[Shot]:
        subs = iter(draw(st.permutations(BATCH_SEMANTIC)))
        shots: list[Shot] = []
        others = 0
        for kind in draw(st.permutations(BATCH_KINDS)):
            if kind in ("flood", "rate_burst"):
                shots += draw(kinds[kind])
                continue
            shot = defang(world, draw(mistakes[next(subs)] if kind == "semantic"
                                      else kinds[kind]))
            if kind != "semantic":
                others += 1
                shot.server = int(others % ROUTE_EVERY == 0)
            shots.append(shot)
        return shots

    return batch()


# ---- firing and judging --------------------------------------------------------------------


def _error_answer(error: grpc.RpcError) -> Answer:
    code = error.code().name
    reason, metadata = "", ()
    for key, value in error.trailing_metadata() or ():
        if key == DETAILS_KEY:
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    reason, metadata = info.reason, tuple(sorted(info.metadata.items()))
    return Answer(code, reason, error.details() or "", metadata)


def _stream_first(channel: grpc.Channel, shot: Shot) -> Answer:
    hold = FLOOD_HOLD_S if shot.kind == "flood" else STREAM_HOLD_S
    call = channel.unary_stream(path(shot.method))(shot.payload(), metadata=_metadata(shot),
                                                   timeout=hold)
    try:
        first = next(call)
    except StopIteration:
        return Answer(OK)
    except grpc.RpcError as error:
        answer = _error_answer(error)
        # still open when our own deadline ran out: the stream was accepted
        return Answer(OK, silent=True) if answer.code == "DEADLINE_EXCEEDED" else answer
    finally:
        call.cancel()
    return Answer(OK, reply=first)


def _metadata(shot: Shot) -> tuple[tuple[str, str], ...] | None:
    return None if shot.auth is None else (("authorization", shot.auth),)


def fire(channels: list[grpc.Channel], pool: concurrent.futures.Executor, shots: list[Shot]
         ) -> tuple[list[tuple[Shot, Answer]], list[tuple[Shot, Any]]]:
    """Send every shot at once: (the unary calls' answers, the streams still in flight).
    Streams run in worker threads and are judged when they are done, so that a stream held
    open does not hold up the next batch."""
    unary: list[tuple[Shot, Any]] = []
    streams: list[tuple[Shot, Any]] = []
    for shot in shots:
        ch = channels[shot.server]
        if shot.streaming and not shot.path:
            streams.append((shot, pool.submit(_stream_first, ch, shot)))
        else:
            call = ch.unary_unary(shot.path or path(shot.method))
            unary.append((shot, call.future(shot.payload(), metadata=_metadata(shot),
                                            timeout=CALL_TIMEOUT_S)))
    return [(shot, answer_of(future)) for shot, future in unary], streams


def answer_of(future: Any) -> Answer:
    try:
        result = future.result()
    except grpc.RpcError as error:
        return _error_answer(error)
    return result if isinstance(result, Answer) else Answer(OK, reply=result)


def _options_valid(request: service_pb2.CreateGameRequest) -> bool:
    try:
        variant, options = wire.options_from_proto(request.options)
        REGISTRY[variant].create(options, 0)
    except Exception:
        return False
    return True


def judge(world: World, shot: Shot, answer: Answer) -> list[str]:
    """What is wrong with `answer` to `shot` (nothing, usually)."""
    problems = []
    code = answer.code
    if code not in ALLOWED:
        problems.append(f"forbidden code {code}")
    expect = shot.expect
    request = shot.request
    size = len(request) if isinstance(request, bytes) else request.ByteSize()
    if expect is not None and size > MAX_MESSAGE_BYTES:
        # a drawn message can grow past the limit (huge repeated fields): gRPC refuses it
        # before the service sees it, whatever kind of shot it was meant to be
        expect = frozenset({"RESOURCE_EXHAUSTED"})
    if expect is not None:
        if shot.server == 1 or shot.streaming:
            expect = expect | {"RESOURCE_EXHAUSTED"}
        if code not in expect:
            problems.append(f"{code}/{answer.reason} where {sorted(expect)} was due")
    if code in WITH_INFO and not answer.reason:
        problems.append(f"{code} without an ErrorInfo")
    if answer.reason == "RATE_LIMITED":
        if shot.server != 1:
            problems.append("rate limited by the process without a rate limit")
        if "requests a second" not in answer.details or "retry_after_ms" not in dict(
                answer.metadata):
            problems.append(f"RATE_LIMITED without a clear message: {answer.details!r}")
    if code == OK:
        problems += _judge_ok(world, shot, answer)
    return problems


def _judge_ok(world: World, shot: Shot, answer: Answer) -> list[str]:
    """OK only for a request that was legitimately valid."""
    method, request, target = shot.method, shot.request, None
    if isinstance(request, bytes):
        try:
            request = METHODS[method].input_type._concrete_class.FromString(request)
        except DecodeError:
            return ["OK for bytes that are no request"]
    game_id = getattr(request, "game_id", "")
    target = world.by_id.get(game_id)
    role = world.role(token_of(shot.auth), target)
    foreign = token_of(shot.auth) in world.roles and role is None
    if method == "CreateGame":
        assert isinstance(request, service_pb2.CreateGameRequest)
        return [] if _options_valid(request) else ["OK for options the engine refuses"]
    if "game_id" not in METHODS[method].input_type.fields_by_name:
        return []  # Ping, ListGames, campaign calls: nothing game-scoped to be entitled to
    if target is None:
        silent = " (a stream that stayed silent)" if answer.silent else ""
        return [f"OK for game {game_id[:40]!r} that the fuzzer never saw{silent}"]
    if foreign:
        return ["OK with another game's token" + (" (silent stream)" if answer.silent else "")]
    if method in MUTATING:
        if target.attacked and shot.replayed is None:
            return ["OK for a change to an attacked game"]
        if shot.replayed is not None and answer.reply != shot.replayed:
            return ["a replayed request id got another reply"]
        if not isinstance(role, int):
            return ["OK for a change without a seat token"]
    if method == "ListLegalActions" and not isinstance(role, int):
        return ["legal actions listed without a seat token"]
    if method == "ExportGame" and (role is None or target.status not in FINAL):
        return ["exported without a credential or before the end"]
    return []


# ---- the test ------------------------------------------------------------------------------


def _ready(service: ServiceProcess) -> bool:
    return service._serving()


def test_fuzzed_requests_get_documented_codes_and_change_no_attacked_game(
    make_service: ServiceFactory, redis_url: str
) -> None:
    """10,000+ hostile requests (semantic, schema, raw, oversized, rate-limited): see module."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    limits = {"RISK_MAX_MESSAGE_BYTES": str(MAX_MESSAGE_BYTES),
              "RISK_MAX_STREAMS_PER_CONNECTION": str(STREAMS_PER_CONNECTION)}
    services = [make_service(**limits),
                make_service(**limits, RISK_RATE_LIMIT_PER_S=str(RATE),
                             RISK_RATE_LIMIT_BURST=str(BURST))]
    pids = [s.proc.pid for s in services if s.proc is not None]
    channels = [channel(s.target) for s in services]
    started = time.monotonic()
    stub = service_pb2_grpc.RiskServiceStub(channels[0])
    built_targets = build_targets(stub, client)
    targets = built_targets.targets
    setup_replies = _setup_replies(client, targets)
    world = World(targets, action_pool(), setup_replies)
    before = {t.game_id: fingerprint(client, t.game_id) for t in world.attacked}
    built = time.monotonic() - started

    counts: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str]] = Counter()
    reasons: Counter[str] = Counter()
    problems: list[str] = []
    sent = [0]
    inflight: list[tuple[Shot, Any]] = []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=64)

    strategy = batches(world)

    @settings(max_examples=-(-SHOTS // SHOTS_PER_BATCH), deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def batch(data: st.DataObject) -> None:
        for t in world.sandboxes:
            t.refresh(client)
        shots = data.draw(strategy)
        answered, streams = fire(channels, pool, shots)
        inflight.extend(streams)
        for shot, answer in answered:
            record(shot, answer)
        harvest(wait=False)

    def record(shot: Shot, answer: Answer) -> None:
        sent[0] += 1
        counts[answer.code] += 1
        by_kind[shot.kind, answer.code] += 1
        if answer.reason:
            reasons[answer.reason] += 1
        elif answer.code != OK:
            reasons[f"{answer.code} from gRPC"] += 1  # refused before the service: no ErrorInfo
        problems.extend(f"{p}: {shot.describe()}" for p in judge(world, shot, answer))

    def harvest(*, wait: bool) -> None:
        still = []
        for shot, future in inflight:
            if wait or future.done():
                record(shot, answer_of(future))
            else:
                still.append((shot, future))
        inflight[:] = still

    fuzz_started = time.monotonic()
    while sent[0] + len(inflight) < SHOTS:
        batch()
    harvest(wait=True)
    fuzzed = time.monotonic() - fuzz_started
    pool.shutdown(wait=True)

    alive = [s.proc is not None and s.proc.poll() is None and s.proc.pid == pid
             for s, pid in zip(services, pids, strict=True)]
    healthy = [_ready(s) for s in services]
    after = {t.game_id: fingerprint(client, t.game_id) for t in world.attacked}
    changed = [t.name for t in world.attacked if before[t.game_id] != after[t.game_id]]
    replayed = _end_and_check_sandboxes(stub, client, world)
    for ch in channels:
        ch.close()

    total = sum(counts.values())
    kinds = Counter(kind for kind, _code in by_kind.elements())
    engine = sum(n for reason, n in reasons.items() if reason in ENGINE_REASONS)
    print(f"\nfuzz: {total} requests in {fuzzed:.1f} s ({total / fuzzed:.0f}/s) against 2 "
          f"processes, {len(world.attacked)} attacked games + {len(world.sandboxes)} sandbox "
          f"games of {sorted({t.variant for t in targets})} (built in {built:.1f} s)"
          + "".join(f"; NOT FUZZED: {v} ({why})" for v, why in built_targets.unplayable.items()))
    print(f"fuzz: settings RISK_MAX_MESSAGE_BYTES={MAX_MESSAGE_BYTES} "
          f"RISK_MAX_STREAMS_PER_CONNECTION={STREAMS_PER_CONNECTION}; second process "
          f"RISK_RATE_LIMIT_PER_S={RATE} RISK_RATE_LIMIT_BURST={BURST}")
    print("fuzz: per status code: " + ", ".join(f"{c} {n}" for c, n in counts.most_common()))
    print("fuzz: per kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    print(f"fuzz: semantic (well-formed, real games, wrong meaning) {kinds['semantic']} "
          f"({kinds['semantic'] / total:.0%}); answered by the engine's rules {engine}; "
          f"top reasons: " + ", ".join(f"{r} {n}" for r, n in reasons.most_common(12)))
    print(f"fuzz: limits: RATE_LIMITED {reasons['RATE_LIMITED']}, TOO_MANY_STREAMS "
          f"{reasons['TOO_MANY_STREAMS']}, over the message size (gRPC) "
          f"{reasons['RESOURCE_EXHAUSTED from gRPC']} ({by_kind['oversized', 'RESOURCE_EXHAUSTED']}"
          f" of them oversized shots); sandbox games replayed: {replayed} "
          f"actions; attacked games changed: {len(changed)}")

    assert not problems, f"{len(problems)} bad answers, e.g.:\n" + "\n".join(problems[:15])
    assert total >= SHOTS
    assert kinds["semantic"] >= SEMANTIC_QUOTA * total
    assert engine >= SEMANTIC_QUOTA * total, "too few requests reached the engine's rules"
    assert reasons["RATE_LIMITED"] >= kinds["rate_burst"] / RATE_BURST
    assert reasons["TOO_MANY_STREAMS"]
    assert by_kind["oversized", "RESOURCE_EXHAUSTED"] == kinds["oversized"]
    assert all(alive) and all(healthy), (alive, healthy)
    assert not changed, f"attacked games changed: {changed}"
    for service in services:
        service.stop()
        log = service.logs()
        assert '"code": "INTERNAL"' not in log and '"level": "error"' not in log, log[-3000:]


def _setup_replies(client: redis.Redis, targets: list[Target]
                   ) -> dict[str, list[tuple[int, str, game_pb2.Action, bytes]]]:
    """The request records of every setup move: (seat, request id, action, stored reply)."""
    out: dict[str, list[tuple[int, str, game_pb2.Action, bytes]]] = {}
    for t in targets:
        if not t.attacked:
            continue
        keys = Keys()
        records = client.hgetall(keys.requests(t.game_id))
        entries = [game_pb2.LogEntry.FromString(e)
                   for e in client.lrange(keys.log(t.game_id), 0, -1)]
        by_version = {e.version: e for e in entries if e.WhichOneof("entry") == "action"}
        for field_name, value in records.items():
            seat_text, request_id = field_name.decode().split(":", 1)
            reply = service_pb2.SubmitActionResponse.FromString(value[32:])
            entry = by_version.get(reply.version)
            if entry is not None:
                out.setdefault(t.game_id, []).append(
                    (int(seat_text), request_id, entry.action, value[32:]))
    return out


def _end_and_check_sandboxes(stub: service_pb2_grpc.RiskServiceStub, client: redis.Redis,
                             world: World) -> int:
    """Resign the sandbox games to their end, then check each against its engine replay."""
    actions = 0
    for t in world.sandboxes:
        t.refresh(client)
        for seat in range(len(t.tokens) - 1):
            if t.status == ACTIVE:
                stub.Resign(service_pb2.ResignRequest(game_id=t.game_id),
                            metadata=bearer(t.tokens[seat]))
                t.refresh(client)
        export = stub.ExportGame(service_pb2.ExportGameRequest(game_id=t.game_id),
                                 metadata=bearer(t.host))
        actions += check_export(export, state_now(client, t.game_id)[1])
    return actions
