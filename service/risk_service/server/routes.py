"""The route table: every call of risk.v1.RiskService, declared once, for every transport.

A `Route` is read off the service's descriptor (its path, request and response classes, its
streaming kind, whether Connect may answer it to a GET) plus one small declaration per
operation in `OPERATIONS`: which part of the operations answers it, whether it reads the
caller's credentials, whether it creates something stored for days (the creation limit),
whether its replies come serialised already, whether a GET of it may be cached. Every
operation is called `(request, caller)` (a session also takes its actions' chain: `(requests,
caller, actions)`) and returns its reply, or an async iterator of serialised messages for a
stream.

gRPC (server.interceptor: one generic handler built from the table), the HTTP port's Connect,
JSON and gRPC-Web (server.http_port) and its WebSockets (server.websocket) take their calls
from here and only translate the wire; what every call goes through on the way is
server.calls' `Chain`. A new RPC is its proto (and the generated code), its operation, one
line in `OPERATIONS` and its tests. A method of the contract without a line here is served
all the same, answering UNIMPLEMENTED / METHOD_NOT_AVAILABLE.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf import descriptor_pb2, message_factory
from google.protobuf.message import Message

from risk_proto.risk.v1 import service_pb2
from risk_service.campaigns import CampaignService
from risk_service.jwt_auth import looks_like_jwt
from risk_service.operations import Caller, GameService

SERVICE = service_pb2.DESCRIPTOR.services_by_name["RiskService"]

Operation = Callable[..., Any]


class Kind(enum.Enum):
    UNARY = "unary"
    SERVER_STREAM = "server_stream"
    BIDI = "bidi"


@dataclass(frozen=True, slots=True)
class Declared:
    """What the descriptor does not say about a call: its operation (looked up on the
    process's services) and how the chain treats it."""

    operation: Callable[[GameService, CampaignService], Operation]
    credentials: bool = True  # reads the bearer token (else a bad one is not its concern)
    creation: bool = False  # stored for days: the creation limit per address applies
    encoded: bool = False  # replies are serialised already (stored or shared encodings)
    cacheable: bool = False  # a GET of it may be cached (caller-independent, public)


@dataclass(frozen=True, slots=True)
class Route:
    """One call of the service as every transport serves it."""

    name: str  # "SubmitAction"
    path: str  # "/risk.v1.RiskService/SubmitAction"
    request: type[Message]
    response: type[Message]
    kind: Kind
    call: Operation
    credentials: bool
    creation: bool
    encoded: bool
    cacheable: bool
    side_effects: bool  # False: the proto says NO_SIDE_EFFECTS (Connect may GET it)
    limited: bool = True  # the rate limit applies (not to health checks and reflection)

    @property
    def stream(self) -> bool:
        """Counted as an open stream while it runs."""
        return self.kind is not Kind.UNARY


def foreign(path: str, kind: Kind) -> Route:
    """A method served beside the service's (health, reflection): logged and counted as a
    stream like every call, never rate-limited, its behaviour its library's."""
    return Route(name=path.rpartition("/")[2], path=path, request=Message, response=Message,
                 kind=kind, call=_unimplemented(path), credentials=False, creation=False,
                 encoded=False, cacheable=False, side_effects=True, limited=False)


def _without_caller(operation: Callable[[Any], Any]) -> Operation:
    """An operation whose answer is the same for every caller, called as every route is."""
    def call(request: Any, _caller: Caller) -> Any:
        return operation(request)
    return call


def _awaitable(operation: Callable[[Any], Any]) -> Operation:
    """A caller-independent operation that answers at once, as an awaitable call."""
    async def call(request: Any, _caller: Caller) -> Any:
        return operation(request)
    return call


async def _ping(_request: service_pb2.PingRequest, _caller: Caller) -> service_pb2.PingResponse:
    return service_pb2.PingResponse()


def _unimplemented(name: str) -> Operation:
    async def call(*_args: Any) -> Any:
        raise NotImplementedError(name)  # answered UNIMPLEMENTED (calls.classify)
    return call


OPERATIONS: Mapping[str, Declared] = {
    "CreateGame": Declared(lambda g, _c: g.commands.create, creation=True),
    "JoinGame": Declared(lambda g, _c: g.commands.join),
    "GetGame": Declared(lambda g, _c: g.spectators.counted(g.queries.get)),
    "ListGames": Declared(lambda g, _c: g.spectators.counted(_without_caller(g.queries.list)),
                          credentials=False),
    "ListLegalActions": Declared(lambda g, _c: g.queries.legal_actions),
    "SubmitAction": Declared(lambda g, _c: g.moves.submit, encoded=True),
    "StreamEvents": Declared(lambda g, _c: g.streams.stream, encoded=True),
    "Session": Declared(lambda g, _c: g.sessions.run, encoded=True),
    "Ping": Declared(lambda _g, _c: _ping, credentials=False),
    "StartGame": Declared(lambda g, _c: g.commands.start),
    "CancelGame": Declared(lambda g, _c: g.commands.cancel),
    "ReissueSeatToken": Declared(lambda g, _c: g.commands.reissue),
    "Resign": Declared(lambda g, _c: g.moves.resign),
    "ExportGame": Declared(lambda g, _c: g.export),
    "DescribeVariant": Declared(lambda g, _c: _awaitable(g.catalogue.describe),
                                credentials=False, cacheable=True),
    "ListVariants": Declared(lambda g, _c: _awaitable(g.catalogue.list),
                             credentials=False, cacheable=True),
    "CreateCampaign": Declared(lambda _g, c: c.create, creation=True),
    "GetCampaign": Declared(lambda _g, c: c.get),
    "ListCampaigns": Declared(lambda _g, c: _without_caller(c.list), credentials=False),
    "StartCampaignGame": Declared(lambda _g, c: c.start_game),
    "SubmitCampaignDecision": Declared(lambda _g, c: c.decide),
    "CreateRound": Declared(lambda g, _c: g.rounds.create, creation=True),
    "StreamResults": Declared(lambda g, _c: _without_caller(g.results.stream),
                              credentials=False, encoded=True),
    "StartVacation": Declared(lambda g, _c: g.timers.start_vacation),
    "EndVacation": Declared(lambda g, _c: g.timers.end_vacation),
    "IssuePlayerToken": Declared(lambda g, _c: g.players.issue, creation=True),
    "ListMyGames": Declared(lambda g, _c: g.my_games.list),
    "StreamPlayerEvents": Declared(lambda g, _c: g.player_feed.stream, encoded=True),
    "CreateInvitation": Declared(lambda g, _c: g.invitations.create),
    "AcceptInvitation": Declared(lambda g, _c: g.invitations.accept),
    "DeclineInvitation": Declared(lambda g, _c: g.invitations.decline),
    "RevokeInvitation": Declared(lambda g, _c: g.invitations.revoke),
    "ListInvitations": Declared(lambda g, _c: g.invitations.list),
    "StreamGames": Declared(lambda g, _c: g.broadcasts.stream, credentials=False,
                            encoded=True),
    "RequestMatch": Declared(lambda g, _c: g.matchmaking.request),
    "CancelMatch": Declared(lambda g, _c: g.matchmaking.cancel),
    "GetMatchTicket": Declared(lambda g, _c: g.matchmaking.get),
    "CreateEvent": Declared(lambda g, _c: g.events.create, creation=True),
    "RegisterEvent": Declared(lambda g, _c: g.events.register),
    "WithdrawEvent": Declared(lambda g, _c: g.events.withdraw),
    "StartEvent": Declared(lambda g, _c: g.events.start),
    "GetEvent": Declared(lambda g, _c: g.events.get),
    "GetRating": Declared(lambda g, _c: _without_caller(g.ratings.get_rating),
                          credentials=False),
    "GetLeaderboard": Declared(lambda g, _c: _without_caller(g.ratings.get_leaderboard),
                               credentials=False),
}

_NO_SIDE_EFFECTS = descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS


def _as_player(operation: Operation, kind: Kind,
               authenticate: Callable[[Caller], Awaitable[None]]) -> Operation:
    """`operation`, with a player token (a JWT) verified first: its `sub` becomes the
    caller's player (operations.players), for every transport alike. Any other token goes
    straight to the operation, as before; a session's token is verified once its opening
    message is in (a refusal before it would fail the client's first write, not tell why)."""
    if kind is Kind.UNARY:
        async def verified_unary(request: Any, caller: Caller) -> Any:
            await authenticate(caller)
            return await operation(request, caller)

        def unary(request: Any, caller: Caller) -> Any:
            if caller.token is None or not looks_like_jwt(caller.token):
                return operation(request, caller)
            return verified_unary(request, caller)
        return unary
    if kind is Kind.SERVER_STREAM:
        async def verified_stream(request: Any, caller: Caller, **options: Any
                                  ) -> AsyncIterator[Any]:
            await authenticate(caller)
            async with contextlib.aclosing(operation(request, caller, **options)) as replies:
                async for reply in replies:
                    yield reply

        # `options`: what a transport passes a stream beside the request (the WebSocket's
        # `handoff`, Streams.stream)
        def stream(request: Any, caller: Caller, **options: Any) -> Any:
            if caller.token is None or not looks_like_jwt(caller.token):
                return operation(request, caller, **options)
            return verified_stream(request, caller, **options)
        return stream

    async def verified_session(requests: AsyncIterator[Any], caller: Caller,
                               *rest: Any) -> AsyncIterator[Any]:
        incoming = aiter(requests)
        first = await anext(incoming, None)
        await authenticate(caller)

        async def replayed() -> AsyncIterator[Any]:
            if first is not None:
                yield first
            async for request in incoming:
                yield request

        async with contextlib.aclosing(operation(replayed(), caller, *rest)) as replies:
            async for reply in replies:
                yield reply

    def session(requests: AsyncIterator[Any], caller: Caller, *rest: Any) -> Any:
        if caller.token is None or not looks_like_jwt(caller.token):
            return operation(requests, caller, *rest)
        return verified_session(requests, caller, *rest)
    return session


def build(games: GameService, campaigns: CampaignService) -> dict[str, Route]:
    """The process's routes by path, one per method of the service's descriptor."""
    routes = {}
    for method in SERVICE.methods:
        declared = OPERATIONS.get(method.name)
        if method.client_streaming and not method.server_streaming:
            raise RuntimeError(f"{method.full_name}: client streaming has no transport here")
        kind = (Kind.BIDI if method.client_streaming
                else Kind.SERVER_STREAM if method.server_streaming else Kind.UNARY)
        path = f"/{SERVICE.full_name}/{method.name}"
        routes[path] = Route(
            name=method.name, path=path,
            request=message_factory.GetMessageClass(method.input_type),
            response=message_factory.GetMessageClass(method.output_type),
            kind=kind,
            call=(_unimplemented(method.name) if declared is None
                  else declared.operation(games, campaigns) if not declared.credentials
                  else _as_player(declared.operation(games, campaigns), kind,
                                  games.players.authenticate)),
            credentials=declared is not None and declared.credentials,
            creation=declared is not None and declared.creation,
            encoded=declared is not None and declared.encoded,
            cacheable=declared is not None and declared.cacheable,
            side_effects=method.GetOptions().idempotency_level != _NO_SIDE_EFFECTS,
        )
    return routes
