"""`RiskClient`: the async, typed SDK over the risk.v1 gRPC service.

One client owns one channel; `with_token` gives a view of the same channel acting with another
credential, so a program that plays several seats opens one connection. Every failed call
raises a `RiskError` subclass (see errors.py), never a raw `grpc.aio.AioRpcError`. A call is
resent on its own only where a resend cannot act twice (docs/sdk.md, "Retry policy"): a join
(its request id), the campaign reads and decisions (their expected version), a campaign game
start (the service refuses a second running game); and the event stream reconnects after the
transient failures a long-lived stream meets (the service restarting, a dropped connection,
falling behind) and resumes after the last event it yielded, so its consumer sees every event
once and in order. Moves are resent by the caller, with the request id they were sent with.
Given `websocket=` (the HTTP port's URL), `session` and `stream_events` travel over that
port's WebSocket instead (risk_client.websocket), with the same messages and errors.
The campaign calls answer the typed results of results.py.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import grpc
from google.protobuf.message import Message

from risk_client import address
from risk_client.errors import RiskError, StaleVersion, from_rpc_error
from risk_proto.risk.v1 import (
    broadcast_pb2,
    classic_pb2,
    common_pb2,
    events_pb2,
    game_pb2,
    legacy_pb2,
    lifecycle_pb2,
    matchmaking_pb2,
    player_games_pb2,
    players_pb2,
    ratings_pb2,
    service_pb2,
    service_pb2_grpc,
    tournament_pb2,
    variant_pb2,
)

if TYPE_CHECKING:
    # imported where used: a `risk` command that reads no campaign and opens no session or
    # WebSocket pays for neither (results.py decodes with the rules' wire; websocket.py
    # imports the websockets package)
    from risk_client.results import (
        Campaign,
        CampaignDecisionTaken,
        CampaignGameStarted,
        CampaignPage,
        CampaignSeatView,
        CreatedCampaign,
    )
    from risk_client.session import GameSession

DEFAULT_TARGET = address.DEFAULT_TARGET
DEFAULT_TIMEOUT = 30.0

R = TypeVar("R", bound=Message)


@dataclass(frozen=True, slots=True)
class Backoff:
    """How `stream_events` reconnects: exponential delays, capped, jittered in their upper half.

    `attempts` bounds the consecutive reconnects that deliver no event; then the last error is
    raised. Any delivered event resets the count, and so does a stream that stayed open for
    `healthy_after` seconds (a quiet game behind a proxy that drops idle streams is not failing).
    """

    initial: float = 0.05
    maximum: float = 2.0
    multiplier: float = 2.0
    attempts: int = 30
    healthy_after: float = 10.0

    def delay(self, attempt: int) -> float:
        """The pause before reconnect number `attempt` (1-based)."""
        import random  # noqa: PLC0415 - only a call that is retried waits

        ceiling = min(self.maximum, self.initial * self.multiplier ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)  # jitter, not a secret


# How a client that lost a version race (ABORTED / STALE_VERSION) waits before it tries again:
# a few milliseconds at first, doubling while it keeps losing. Clients that all retry at once
# on every loss turn one game's contention into a retry storm, where the service spends its
# time answering losers; with a jittered pause the latest winner (who learns the new version
# from its own reply) keeps the game moving. `attempts` is not used here.
CONFLICT_BACKOFF = Backoff(initial=0.002, maximum=0.25)


# How often a join is resent after its reply was lost (the request id makes that safe), and
# how often the calls that are safe to repeat (reads, and writes the service refuses to apply
# twice) are resent after UNAVAILABLE or DEADLINE_EXCEEDED.
JOIN_RETRY = Backoff(initial=0.05, maximum=1.0, attempts=8)
_LOST_REPLY = ("UNAVAILABLE", "DEADLINE_EXCEEDED")


# the most events stream_events asks for in one message (the service caps it at its own limit)
STREAM_BATCH = 64


def _fresh_id() -> str:
    """A request id: a fresh uuid4's hex (uuid is imported by the calls that send one)."""
    import uuid  # noqa: PLC0415

    return uuid.uuid4().hex


def _events_of(reply: service_pb2.StreamEventsResponse) -> Iterable[game_pb2.Event]:
    """The events of one StreamEvents message: a batch, or one event from a service (or a
    request) without batching."""
    return reply.events if reply.events else (reply.event,)


def _resumable(error: RiskError) -> bool:
    """Failures after which a stream is worth reopening."""
    if error.code in ("UNAVAILABLE", "CANCELLED", "INTERNAL", "UNKNOWN"):
        # UNAVAILABLE: the service or its store is down or restarting; CANCELLED, INTERNAL,
        # UNKNOWN: how gRPC reports a connection reset or a server shutting down mid-stream.
        return True
    return error.code == "RESOURCE_EXHAUSTED" and error.reason == "SUBSCRIBER_TOO_SLOW"


class _Connection:
    """The channel and stub shared by a client and its `with_token` views, made on first use.

    Creating them lazily binds the channel to the running event loop, so a client may be
    constructed outside one.
    """

    def __init__(
        self,
        target: str,
        credentials: grpc.ChannelCredentials | None,
        options: Sequence[tuple[str, Any]],
        websocket: str | None = None,
        websocket_ssl: ssl.SSLContext | None = None,
    ) -> None:
        self.target = target
        self.websocket = websocket
        self.websocket_ssl = websocket_ssl
        self.credentials = credentials
        self.options = list(options)
        self.channel: Any = None
        self.stub: Any = None

    def ready_stub(self) -> Any:
        if self.stub is None:
            if self.credentials is None:
                self.channel = grpc.aio.insecure_channel(self.target, options=self.options)
            else:
                self.channel = grpc.aio.secure_channel(
                    self.target, self.credentials, options=self.options
                )
            # the generated stub is unannotated; every call through it is typed below
            self.stub = service_pb2_grpc.RiskServiceStub(self.channel)  # type: ignore[no-untyped-call]
        return self.stub

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close()
        self.channel = None
        self.stub = None


class RiskClient:
    """An async client for one risk.v1 service.

    >>> async with RiskClient("127.0.0.1:50051") as client:
    ...     game, host_token = await client.create_game(classic_options(players=3))
    ...     seat_token = await client.join_game(game.game_id, 0, "ada")
    ...     ada = client.with_token(seat_token)
    ...     legal = await ada.legal_actions(game.game_id)

    `token` is sent as `authorization: Bearer <token>`; without one the client is a
    spectator. `timeout` bounds each unary call (streams are unbounded). `websocket`, the
    service's HTTP port (`ws://127.0.0.1:8080`, `wss://…`; `websocket_ssl` its TLS context
    where the system's trust store will not do), carries `session` and `stream_events` over
    WebSockets; the other calls stay on gRPC at `target`.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        token: str | None = None,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        credentials: grpc.ChannelCredentials | None = None,
        channel_options: Sequence[tuple[str, Any]] = (),
        backoff: Backoff | None = None,
        websocket: str | None = None,
        websocket_ssl: ssl.SSLContext | None = None,
    ) -> None:
        if websocket is not None:
            from risk_client.websocket import endpoint  # noqa: PLC0415 - the websockets package only when used

            endpoint(websocket, "Session")  # a bad URL fails here, not at first use
        self._connection = _Connection(target, credentials, channel_options, websocket,
                                       websocket_ssl)
        self._owner = True
        self.token = token or None
        self.timeout = timeout
        self.backoff = backoff or Backoff()

    @property
    def target(self) -> str:
        return self._connection.target

    @property
    def websocket(self) -> str | None:
        """The HTTP port's URL that sessions and event streams use, or None (gRPC)."""
        return self._connection.websocket

    def with_token(self, token: str | None) -> RiskClient:
        """The same connection acting with `token` (None: as a spectator)."""
        view = RiskClient.__new__(RiskClient)
        view._connection = self._connection
        view._owner = False
        view.token = token or None
        view.timeout = self.timeout
        view.backoff = self.backoff
        return view

    async def close(self) -> None:
        """Close the channel (a `with_token` view leaves it to the client it came from)."""
        if self._owner:
            await self._connection.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ---- plumbing ----------------------------------------------------------------------

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        if self.token is None:
            return ()
        return (("authorization", f"Bearer {self.token}"),)

    async def _unary(self, method: str, request: Message, response_type: type[R]) -> R:
        call = getattr(self._connection.ready_stub(), method)
        try:
            response = await call(request, metadata=self._metadata(), timeout=self.timeout)
        except grpc.aio.AioRpcError as exc:
            raise from_rpc_error(exc) from None
        if not isinstance(response, response_type):
            raise TypeError(f"{method} answered {type(response).__name__}")
        return response

    # ---- the service -------------------------------------------------------------------

    async def create_game(
        self,
        options: game_pb2.GameOptions | None = None,
        *,
        seed: int | None = None,
        seat_names: Sequence[str] = (),
        clock: lifecycle_pb2.ClockOptions | None = None,
        manual_start: bool = False,
        spectator_delay_events: int = 0,
        spectator_delay_seconds: int = 0,
        seat_players: Sequence[str] = (),
        rated: bool = False,
    ) -> tuple[service_pb2.GameSummary, str]:
        """A new game (classic with default options when `options` is None), and the host token.

        A fixed `seed` makes the game reproducible; `seat_names` are display names by seat.
        The game waits for its seats and starts on the last JoinGame (or on the host's
        `start_game` with `manual_start`). `clock` sets decision deadlines or time banks; the
        spectator delays hold spectators' streams behind the game. `seat_players` binds seats
        to player ids (by seat; "" for none): those players act for them with their own player
        token (docs/players.md). A `rated` game's end updates its players' ratings; its seats
        are taken with player tokens only (docs/ratings.md).
        """
        if options is None:
            options = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions())
        request = service_pb2.CreateGameRequest(
            options=options,
            seat_names=list(seat_names),
            manual_start=manual_start,
            spectator_delay_events=spectator_delay_events,
            spectator_delay_seconds=spectator_delay_seconds,
            seat_players=list(seat_players),
            rated=rated,
        )
        if seed is not None:
            request.seed = seed
        if clock is not None:
            request.clock.CopyFrom(clock)
        response = await self._unary("CreateGame", request, service_pb2.CreateGameResponse)
        return response.game, response.host_token

    async def issue_player_token(self) -> players_pb2.IssuePlayerTokenResponse:
        """A player token from a service that issues its own (no identity provider, see
        docs/players.md): a new player, or with this client's player token a fresh one for the
        same player. A player token is used as any token: `with_token(reply.token)`; seats the
        player joins with it (`join_game`) belong to the player in every game."""
        return await self._unary("IssuePlayerToken", players_pb2.IssuePlayerTokenRequest(),
                                 players_pb2.IssuePlayerTokenResponse)

    async def join_game(
        self, game_id: str, seat: int, display_name: str = "", *, request_id: str | None = None
    ) -> str:
        """Take `seat` and return its token.

        The join carries a request id (a fresh uuid4 when None) and is resent with it after
        UNAVAILABLE or DEADLINE_EXCEEDED (`JOIN_RETRY`): a join whose reply was lost gets the
        same token again, never a second seat or a seat nobody holds the token of.
        """
        request = service_pb2.JoinGameRequest(
            game_id=game_id, seat=seat, display_name=display_name,
            request_id=request_id or _fresh_id(),
        )
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                response = await self._unary("JoinGame", request, service_pb2.JoinGameResponse)
            except RiskError as error:
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
                await asyncio.sleep(JOIN_RETRY.delay(attempt))
                continue
            return response.seat_token
        raise AssertionError("unreachable")

    async def get_game(self, game_id: str) -> service_pb2.GetGameResponse:
        """The game as this client's token may see it (a seat sees its own hand)."""
        request = service_pb2.GetGameRequest(game_id=game_id)
        return await self._unary("GetGame", request, service_pb2.GetGameResponse)

    async def get_game_at(self, game_id: str, version: int) -> service_pb2.GetGameResponse:
        """A game that is over as a spectator saw it just after `version` (0: as created):
        the board rebuilt by the service from the game's log, for replaying it step by step.
        GAME_NOT_OVER while it is played, VERSION_OUT_OF_RANGE past its last version."""
        request = service_pb2.GetGameRequest(game_id=game_id, at_version=version)
        return await self._unary("GetGame", request, service_pb2.GetGameResponse)

    async def list_games(
        self,
        variant: common_pb2.Variant | int = common_pb2.VARIANT_UNSPECIFIED,
        status: service_pb2.GameStatus | int = service_pb2.GAME_STATUS_UNSPECIFIED,
        page_size: int = 0,
        page_token: str = "",
        *,
        tournament: str = "",
        tournament_round: int | None = None,
    ) -> service_pb2.ListGamesResponse:
        """One page of games, newest first (unspecified variant or status: all of them);
        with `tournament`, only that tournament's games (of `tournament_round` if given)."""
        request = service_pb2.ListGamesRequest(
            variant=variant,  # type: ignore[arg-type]  # an int is a valid enum value on the wire
            status=status,  # type: ignore[arg-type]  # same
            page_size=page_size,
            page_token=page_token,
            tournament=tournament,
        )
        if tournament_round is not None:
            request.round = tournament_round
        return await self._unary("ListGames", request, service_pb2.ListGamesResponse)

    async def iter_games(
        self,
        variant: common_pb2.Variant | int = common_pb2.VARIANT_UNSPECIFIED,
        status: service_pb2.GameStatus | int = service_pb2.GAME_STATUS_UNSPECIFIED,
        page_size: int = 0,
        *,
        tournament: str = "",
        tournament_round: int | None = None,
    ) -> AsyncGenerator[service_pb2.GameSummary, None]:
        """Every game matching the filter, following the pages."""
        token = ""
        while True:
            page = await self.list_games(variant, status, page_size, token,
                                         tournament=tournament,
                                         tournament_round=tournament_round)
            for game in page.games:
                yield game
            token = page.next_page_token
            if not token:
                return

    async def legal_actions(
        self, game_id: str, *, seat: int | None = None
    ) -> service_pb2.ListLegalActionsResponse:
        """This seat's legal actions now (empty when the decision is not its), and the version.

        `seat` only confirms the token's seat (another one is PERMISSION_DENIED).
        """
        request = service_pb2.ListLegalActionsRequest(game_id=game_id)
        if seat is not None:
            request.seat = seat
        return await self._unary("ListLegalActions", request, service_pb2.ListLegalActionsResponse)

    async def submit_action(
        self,
        game_id: str,
        action: game_pb2.Action,
        expected_version: int,
        request_id: str | None = None,
        *,
        seat: int | None = None,
    ) -> service_pb2.SubmitActionResponse:
        """Apply `action` for this seat if the game is still at `expected_version`.

        `request_id` is the idempotency key: resubmitting with the same id gets the first reply
        instead of a second move, so retry a failed call with the id it was sent with. A fresh
        uuid4 is used when it is None. `seat` only confirms the token's seat.
        """
        request = service_pb2.SubmitActionRequest(
            game_id=game_id,
            action=action,
            expected_version=expected_version,
            request_id=request_id or _fresh_id(),
        )
        if seat is not None:
            request.seat = seat
        return await self._unary("SubmitAction", request, service_pb2.SubmitActionResponse)

    async def start_game(self, game_id: str) -> service_pb2.GameSummary:
        """Host: start a waiting game whose seats are all taken."""
        request = service_pb2.StartGameRequest(game_id=game_id)
        return (await self._unary("StartGame", request, service_pb2.StartGameResponse)).game

    async def cancel_game(self, game_id: str) -> service_pb2.GameSummary:
        """Host: cancel a game that has not started."""
        request = service_pb2.CancelGameRequest(game_id=game_id)
        return (await self._unary("CancelGame", request, service_pb2.CancelGameResponse)).game

    async def reissue_seat_token(self, game_id: str, seat: int) -> str:
        """Host: a new token for `seat`; its old token stops working."""
        request = service_pb2.ReissueSeatTokenRequest(game_id=game_id, seat=seat)
        response = await self._unary(
            "ReissueSeatToken", request, service_pb2.ReissueSeatTokenResponse
        )
        return response.seat_token

    async def resign(
        self, game_id: str, *, seat: int | None = None, request_id: str | None = None
    ) -> service_pb2.ResignResponse:
        """This seat leaves the game at once (`request_id` makes a retry safe, as in submit)."""
        request = service_pb2.ResignRequest(
            game_id=game_id, request_id=request_id or _fresh_id()
        )
        if seat is not None:
            request.seat = seat
        return await self._unary("Resign", request, service_pb2.ResignResponse)

    async def export_game(self, game_id: str) -> service_pb2.GameExport:
        """A finished game's options, seed, action log and hash-chained events, for audit.

        A long game's export comes in pages (each inside the default receive limit); they are
        fetched in turn and merged into the one export returned.
        """
        export = service_pb2.GameExport()
        request = service_pb2.ExportGameRequest(game_id=game_id)
        while True:
            page = await self._unary("ExportGame", request, service_pb2.GameExport)
            request.page_token = page.next_page_token
            page.ClearField("next_page_token")
            export.MergeFrom(page)
            if not request.page_token:
                return export

    async def describe_variant(self, variant: common_pb2.Variant | int | str
                               ) -> variant_pb2.VariantDescription:
        """The board as data: a variant (by its `Variant` number or its name) with its map,
        decks, options with defaults and ranges, seat counts and rules version (docs/api.md,
        "The board as data"). Public and unchanged for a rules version: keep it."""
        request = (variant_pb2.DescribeVariantRequest(name=variant) if isinstance(variant, str)
                   else variant_pb2.DescribeVariantRequest(
                       variant=variant))  # type: ignore[arg-type]  # an int travels as well
        reply = await self._unary("DescribeVariant", request,
                                  variant_pb2.DescribeVariantResponse)
        return reply.variant

    async def list_variants(self) -> list[variant_pb2.VariantDescription]:
        """Every variant the service serves, each as `describe_variant` describes it."""
        reply = await self._unary("ListVariants", variant_pb2.ListVariantsRequest(),
                                  variant_pb2.ListVariantsResponse)
        return list(reply.variants)

    async def start_vacation(self, game_id: str, days: int, *, seat: int | None = None
                             ) -> service_pb2.GameSummary:
        """This seat (its seat or player token) stops its clocks for `days` whole days in a
        correspondence game (docs/lifecycle.md, "Correspondence clocks"); the game's summary
        says until when (`vacation_until_ms`) and what is left (`vacation_left_ms`).

        Resent after a lost reply: a start that landed makes the resend ALREADY_ON_VACATION,
        and the game is then read and returned as the landed start left it.
        """
        request = service_pb2.StartVacationRequest(game_id=game_id, days=days)
        if seat is not None:
            request.seat = seat
        return await self._vacation("StartVacation", request, service_pb2.StartVacationResponse,
                                    landed="ALREADY_ON_VACATION")

    async def end_vacation(self, game_id: str, *, seat: int | None = None
                           ) -> service_pb2.GameSummary:
        """This seat comes back early: the days not taken are returned and its clock runs on.
        Resent after a lost reply as `start_vacation` is (NOT_ON_VACATION then means the lost
        end landed)."""
        request = service_pb2.EndVacationRequest(game_id=game_id)
        if seat is not None:
            request.seat = seat
        return await self._vacation("EndVacation", request, service_pb2.EndVacationResponse,
                                    landed="NOT_ON_VACATION")

    async def _vacation(self, method: str, request: Message,
                        response_type: type[service_pb2.StartVacationResponse]
                        | type[service_pb2.EndVacationResponse],
                        *, landed: str) -> service_pb2.GameSummary:
        lost = False
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                reply = await self._unary(method, request, response_type)
            except RiskError as error:
                if lost and error.reason == landed:
                    game_id = getattr(request, "game_id")  # noqa: B009 - both requests have it
                    return (await self._resent(
                        "GetGame", service_pb2.GetGameRequest(game_id=game_id),
                        service_pb2.GetGameResponse)).game
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
                lost = True
                await asyncio.sleep(JOIN_RETRY.delay(attempt))
                continue
            return reply.game
        raise AssertionError("unreachable")

    # ---- a player's games (docs/players.md), with a player token -------------------------

    async def list_my_games(
        self,
        status: service_pb2.GameStatus | int = service_pb2.GAME_STATUS_UNSPECIFIED,
        page_size: int = 0,
        page_token: str = "",
    ) -> service_pb2.ListMyGamesResponse:
        """One page of this player's games, latest activity first: each `MyGame` holds the
        summary (whose turn: `game.decision.seats`, until when: `game.deadline_ms`), the
        player's seat and `your_turn`. A read, resent after a lost reply; a token that is not
        a player's is PermissionDenied / NOT_A_PLAYER."""
        request = service_pb2.ListMyGamesRequest(
            status=status,  # type: ignore[arg-type]  # an int is a valid enum value on the wire
            page_size=page_size, page_token=page_token)
        return await self._resent("ListMyGames", request, service_pb2.ListMyGamesResponse)

    async def iter_my_games(
        self,
        status: service_pb2.GameStatus | int = service_pb2.GAME_STATUS_UNSPECIFIED,
        page_size: int = 0,
    ) -> AsyncGenerator[service_pb2.MyGame, None]:
        """Every game of this player's in `status` (unspecified: all), following the pages."""
        token = ""
        while True:
            page = await self.list_my_games(status, page_size, token)
            for game in page.games:
                yield game
            token = page.next_page_token
            if not token:
                return

    async def stream_player_events(
        self,
        after_seq: int = 0,
        resume: bool = True,
        *,
        on_reconnect: Callable[[RiskError, int], None] | None = None,
    ) -> AsyncGenerator[player_games_pb2.PlayerEvent, None]:
        """Everything that concerns this player across their games after `after_seq` (their
        turns, invitations, games starting and ending), then live ones; reopened after the
        last event yielded as `stream_events` is, so none is skipped or repeated. Keep the
        last `seq` to resume from it later."""
        async for event in self._resuming(
                "StreamPlayerEvents",
                lambda last: player_games_pb2.StreamPlayerEventsRequest(after_seq=last),
                lambda reply: (reply.event,), after_seq, resume=resume,
                on_reconnect=on_reconnect):
            yield event

    async def create_invitation(
        self, game_id: str, seat: int, invitee: str = "", *, link: bool = False,
        expires_in_seconds: int = 0,
    ) -> player_games_pb2.Invitation:
        """Host (host token, or the hosting player's): invite player `invitee` to a free seat,
        or with `link` make an open-seat link whose `code` (in this reply only) lets whoever
        holds it take the seat. Sent once: a resend could make a second invitation."""
        request = player_games_pb2.CreateInvitationRequest(
            game_id=game_id, seat=seat, invitee=invitee, link=link,
            expires_in_seconds=expires_in_seconds)
        return await self._unary("CreateInvitation", request, player_games_pb2.Invitation)

    async def accept_invitation(
        self, *, game_id: str = "", invitation_id: str = "", code: str = "",
        display_name: str = "",
    ) -> player_games_pb2.AcceptInvitationResponse:
        """Take the invitation's seat for this player (by game and invitation id, or by a
        link's `code` alone); the seat belongs to the player. Resent after a lost reply; if the
        lost accept had landed, the resend meets INVITATION_CLOSED and the seat the player now
        holds is returned (without a seat token: the player's own token acts for it)."""
        request = player_games_pb2.AcceptInvitationRequest(
            game_id=game_id, invitation_id=invitation_id, code=code, display_name=display_name)
        lost = False
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                return await self._unary("AcceptInvitation", request,
                                         player_games_pb2.AcceptInvitationResponse)
            except RiskError as error:
                if lost and error.reason == "INVITATION_CLOSED":
                    held = await self._seat_held(game_id or code.split("-", 1)[0])
                    if held is not None:
                        return held
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
                lost = True
                await asyncio.sleep(JOIN_RETRY.delay(attempt))
        raise AssertionError("unreachable")

    async def _seat_held(self, game_id: str) -> player_games_pb2.AcceptInvitationResponse | None:
        game = await self._resent("GetGame", service_pb2.GetGameRequest(game_id=game_id),
                                  service_pb2.GetGameResponse)
        seats = {seat.seat: seat for seat in game.game.seats}
        if game.viewer_seat < 0 or game.viewer_seat not in seats:
            return None
        return player_games_pb2.AcceptInvitationResponse(
            game_id=game_id, seat=game.viewer_seat,
            player_id=seats[game.viewer_seat].player_id)

    async def decline_invitation(self, *, game_id: str = "", invitation_id: str = "",
                                 code: str = "") -> player_games_pb2.Invitation:
        """The invitee turns the invitation down. Resent after a lost reply (a decline that
        had landed makes the resend INVITATION_CLOSED)."""
        request = player_games_pb2.InvitationRequest(
            game_id=game_id, invitation_id=invitation_id, code=code)
        return await self._resent("DeclineInvitation", request, player_games_pb2.Invitation)

    async def revoke_invitation(self, *, game_id: str = "", invitation_id: str = "",
                                code: str = "") -> player_games_pb2.Invitation:
        """Host: withdraw an invitation or link still open (resent as `decline_invitation`)."""
        request = player_games_pb2.InvitationRequest(
            game_id=game_id, invitation_id=invitation_id, code=code)
        return await self._resent("RevokeInvitation", request, player_games_pb2.Invitation)

    async def list_invitations(self, game_id: str = "") -> list[player_games_pb2.Invitation]:
        """This player's pending invitations; with `game_id`, that game's (its host). A read,
        resent after a lost reply."""
        request = player_games_pb2.ListInvitationsRequest(game_id=game_id)
        reply = await self._resent("ListInvitations", request,
                                   player_games_pb2.ListInvitationsResponse)
        return list(reply.invitations)

    # ---- ratings and leaderboards (docs/ratings.md), public reads -----------------------

    async def get_rating(
        self, player_id: str, variant: common_pb2.Variant | int = common_pb2.VARIANT_CLASSIC,
        *, season: str = "", page_size: int = 0, page_token: str = "",
    ) -> ratings_pb2.GetRatingResponse:
        """A player's rating in `variant` and `season` ("" the current one): `rating.mu`,
        `sigma`, `rating` (mu - 3 sigma, what boards order by), `provisional`, `games`, `rank`,
        and a page of its history (newest first; `next_page_token` for more). A player never
        rated reads as the default. A read, resent after a lost reply."""
        request = ratings_pb2.GetRatingRequest(
            player_id=player_id,
            variant=variant,  # type: ignore[arg-type]  # an int is a valid enum value
            season=season, page_size=page_size, page_token=page_token)
        return await self._resent("GetRating", request, ratings_pb2.GetRatingResponse)

    async def get_leaderboard(
        self, variant: common_pb2.Variant | int = common_pb2.VARIANT_CLASSIC, *,
        season: str = "", page_size: int = 0, page_token: str = "", around_player: str = "",
        bots: bool = False,
    ) -> ratings_pb2.GetLeaderboardResponse:
        """One page of `variant`'s leaderboard, best first (the top `page_size`, default 50;
        `next_page_token` for the next), or the page around `around_player`; `bots`: the bot
        levels' board. A read, resent after a lost reply."""
        request = ratings_pb2.GetLeaderboardRequest(
            variant=variant,  # type: ignore[arg-type]  # an int is a valid enum value
            season=season, page_size=page_size, page_token=page_token,
            around_player=around_player, bots=bots)
        return await self._resent("GetLeaderboard", request,
                                  ratings_pb2.GetLeaderboardResponse)

    # ---- matchmaking (docs/ratings.md, "Matchmaking"), with a player token -------------

    async def request_match(
        self, variant: common_pb2.Variant | int = common_pb2.VARIANT_CLASSIC,
        sizes: Sequence[int] = (), *, clock: lifecycle_pb2.ClockOptions | None = None,
        rated: bool = False, allow_bots_after_seconds: int = 0, display_name: str = "",
        expires_in_seconds: int = 0, request_id: str | None = None,
    ) -> matchmaking_pb2.MatchTicket:
        """Ask to play: a ticket that waits in its pool (variant, clock, rated) until the
        service seats it at a table of one of `sizes` (empty: the variant's default). One open
        request per player (another is ALREADY_QUEUED). Carries a request id (a fresh uuid4
        when None) and is resent with it after a lost reply: the same ticket comes back."""
        request = matchmaking_pb2.RequestMatchRequest(
            variant=variant,  # type: ignore[arg-type]  # an int is a valid enum value
            sizes=list(sizes), clock=clock, rated=rated,
            allow_bots_after_seconds=allow_bots_after_seconds, display_name=display_name,
            expires_in_seconds=expires_in_seconds, request_id=request_id or _fresh_id())
        return await self._resent("RequestMatch", request, matchmaking_pb2.MatchTicket)

    async def get_match_ticket(self, ticket_id: str) -> matchmaking_pb2.MatchTicket:
        """The ticket now: WAITING, MATCHING, MATCHED (`game_id`, `seat`), CANCELLED or
        EXPIRED. A read, resent after a lost reply."""
        return await self._resent("GetMatchTicket",
                                  matchmaking_pb2.MatchTicketRequest(ticket_id=ticket_id),
                                  matchmaking_pb2.MatchTicket)

    async def cancel_match(self, ticket_id: str) -> matchmaking_pb2.MatchTicket:
        """Take a waiting ticket out of its queue (a cancelled or expired one comes back as it
        is; one seated already is MATCH_ALREADY_FORMED). Resent after a lost reply."""
        return await self._resent("CancelMatch",
                                  matchmaking_pb2.MatchTicketRequest(ticket_id=ticket_id),
                                  matchmaking_pb2.MatchTicket)

    async def wait_for_match(self, ticket_id: str, *, poll_s: float = 1.0,
                             timeout_s: float | None = None) -> matchmaking_pb2.MatchTicket:
        """The ticket once it is MATCHED, CANCELLED or EXPIRED (polled every `poll_s`; the
        player's stream also says `match_found` as soon as the game exists). TimeoutError
        after `timeout_s`, leaving the ticket as it is."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            ticket = await self.get_match_ticket(ticket_id)
            if ticket.status not in (matchmaking_pb2.MATCH_STATUS_WAITING,
                                     matchmaking_pb2.MATCH_STATUS_MATCHING):
                return ticket
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"match request {ticket_id} still waiting")
            await asyncio.sleep(poll_s)

    async def ping(self) -> None:
        """One empty round trip through the service's interceptors."""
        await self._unary("Ping", service_pb2.PingRequest(), service_pb2.PingResponse)

    async def _resent(self, method: str, request: Message, response_type: type[R]) -> R:
        """A call that is safe to repeat, resent after a lost reply (`JOIN_RETRY`)."""
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                return await self._unary(method, request, response_type)
            except RiskError as error:
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
            await asyncio.sleep(JOIN_RETRY.delay(attempt))
        raise AssertionError("unreachable")

    # ---- Risk Legacy campaigns ---------------------------------------------------------
    # The campaign RPCs carry no request id. Reads are resent after a lost reply; a reward
    # decision carries the campaign version it was taken on, so a resend can never apply it
    # twice (see `submit_campaign_decision`); `create_campaign` is sent once (a resend could
    # make a second campaign), and `start_campaign_game` is resent only because the service
    # refuses a second game while one is being played (see there).

    async def create_campaign(
        self,
        factions: Sequence[tuple[int, int]],
        seat_names: Sequence[str] = (),
        seat_players: Sequence[str] = (),
    ) -> CreatedCampaign:
        """A new campaign for `len(factions)` players (3 to 5), and its tokens.

        `factions` gives each seat's (faction, power) as `risk.v1.LegacyFaction` /
        `LegacyPower` numbers (each faction once; a power of that faction: see
        `risk_client.campaigns.FACTIONS`). The reply's tokens are shown once: the host's
        starts games, each seat's plays that seat in every game and takes its rewards.
        `seat_players` binds seats to player ids (by seat; "" for none), as `create_game`'s
        does: each of those players plays their seat in every game of the campaign and takes
        its rewards with their own player token (the seat's token acts too); created with a
        player token, the campaign's host is that player as well (docs/players.md).
        """
        from risk_client.results import Campaign, CreatedCampaign  # noqa: PLC0415 - campaigns only

        request = service_pb2.CreateCampaignRequest(
            players=len(factions),
            factions=[
                legacy_pb2.FactionChoice(faction=faction, power=power)  # type: ignore[arg-type]  # enum numbers
                for faction, power in factions
            ],
            seat_names=list(seat_names),
            seat_players=list(seat_players),
        )
        reply = await self._unary("CreateCampaign", request, service_pb2.CreateCampaignResponse)
        return CreatedCampaign(
            Campaign.of(reply.campaign), reply.host_token, tuple(reply.seat_tokens)
        )

    async def get_campaign(self, campaign_id: str) -> CampaignSeatView:
        """The campaign; with a seat token also that seat's choices when the reward decision
        is its own (NotFound / CAMPAIGN_NOT_FOUND for an unknown id)."""
        from risk_client.results import Campaign, CampaignSeatView  # noqa: PLC0415 - campaigns only

        request = service_pb2.GetCampaignRequest(campaign_id=campaign_id)
        reply = await self._resent("GetCampaign", request, service_pb2.GetCampaignResponse)
        return CampaignSeatView(
            Campaign.of(reply.campaign), reply.viewer_seat, tuple(reply.legal_rewards)
        )

    async def list_campaigns(self, page_size: int = 0, page_token: str = "") -> CampaignPage:
        """One page of campaigns (0: the service's default size)."""
        from risk_client.results import Campaign, CampaignPage  # noqa: PLC0415 - campaigns only

        request = service_pb2.ListCampaignsRequest(page_size=page_size, page_token=page_token)
        reply = await self._resent("ListCampaigns", request, service_pb2.ListCampaignsResponse)
        return CampaignPage(
            tuple(Campaign.of(c) for c in reply.campaigns), reply.next_page_token
        )

    async def iter_campaigns(self, page_size: int = 0) -> AsyncGenerator[Campaign, None]:
        """Every campaign, following the pages."""
        token = ""
        while True:
            page = await self.list_campaigns(page_size, token)
            for campaign in page.campaigns:
                yield campaign
            token = page.next_page_token
            if not token:
                return

    async def start_campaign_game(
        self,
        campaign_id: str,
        *,
        seed: int | None = None,
        max_turns: int | None = None,
        clock: lifecycle_pb2.ClockOptions | None = None,
    ) -> CampaignGameStarted:
        """Host: start the campaign's next game (active at once; the seat tokens play it).

        Refused (IllegalMove) while rewards are pending (CAMPAIGN_NOT_READY), while the last
        game is still being played (GAME_IN_PROGRESS) or once all 15 games are played
        (CAMPAIGN_COMPLETE); a seat's token is PermissionDenied / NOT_HOST. The start is
        resent after a lost reply; if the lost start had in fact begun the game, the resend
        meets GAME_IN_PROGRESS and the game it began is returned instead.
        """
        from risk_client.results import Campaign, CampaignGameStarted  # noqa: PLC0415 - campaigns only

        request = service_pb2.StartCampaignGameRequest(campaign_id=campaign_id)
        if seed is not None:
            request.seed = seed
        if max_turns is not None:
            request.max_turns = max_turns
        if clock is not None:
            request.clock.CopyFrom(clock)
        lost = False
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                reply = await self._unary(
                    "StartCampaignGame", request, service_pb2.StartCampaignGameResponse
                )
            except RiskError as error:
                if lost and error.reason == "GAME_IN_PROGRESS":
                    return await self._started_meanwhile(campaign_id)
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
                lost = True
                await asyncio.sleep(JOIN_RETRY.delay(attempt))
                continue
            return CampaignGameStarted(Campaign.of(reply.campaign), reply.game)
        raise AssertionError("unreachable")

    async def _started_meanwhile(self, campaign_id: str) -> CampaignGameStarted:
        from risk_client.results import CampaignGameStarted  # noqa: PLC0415 - campaigns only

        campaign = (await self.get_campaign(campaign_id)).campaign
        game = await self._resent(
            "GetGame", service_pb2.GetGameRequest(game_id=campaign.game_ids[-1]),
            service_pb2.GetGameResponse,
        )
        return CampaignGameStarted(campaign, game.game)

    async def submit_campaign_decision(
        self,
        campaign_id: str,
        reward: legacy_pb2.LegacyReward,
        expected_version: int,
    ) -> CampaignDecisionTaken:
        """This seat takes its reward decision on the campaign as it was at `expected_version`
        (one of `get_campaign(...).legal_rewards`, whose `campaign.version` is the version).

        Another version is StaleVersion (re-read and decide again). A lost reply is resent
        with the same version, so the decision lands at most once. If the resend is refused
        as stale and the campaign is exactly one version on, that one change is this
        decision (at `expected_version` the decision was this seat's, and while rewards are
        pending nothing else changes a campaign), and it is returned as `recovered`.
        """
        from risk_client.results import Campaign, CampaignDecisionTaken  # noqa: PLC0415 - campaigns only

        request = service_pb2.SubmitCampaignDecisionRequest(
            campaign_id=campaign_id, reward=reward, expected_version=expected_version
        )
        lost = False
        for attempt in range(1, JOIN_RETRY.attempts + 1):
            try:
                reply = await self._unary(
                    "SubmitCampaignDecision", request, service_pb2.SubmitCampaignDecisionResponse
                )
            except StaleVersion:
                if lost:
                    landed = await self._decision_landed(campaign_id, expected_version)
                    if landed is not None:
                        return landed
                raise
            except RiskError as error:
                if error.code not in _LOST_REPLY or attempt == JOIN_RETRY.attempts:
                    raise
                lost = True
                await asyncio.sleep(JOIN_RETRY.delay(attempt))
                continue
            return CampaignDecisionTaken(Campaign.of(reply.campaign), tuple(reply.events))
        raise AssertionError("unreachable")

    async def _decision_landed(
        self, campaign_id: str, expected_version: int
    ) -> CampaignDecisionTaken | None:
        """After a lost reply: the campaign if this seat's decision is the one change since
        `expected_version` (only the seat whose decision it was can make that change)."""
        from risk_client.results import CampaignDecisionTaken  # noqa: PLC0415 - campaigns only

        view = await self.get_campaign(campaign_id)
        if view.campaign.version != expected_version + 1 or view.viewer_seat < 0:
            return None
        return CampaignDecisionTaken(view.campaign, (), recovered=True)

    async def stream_events(
        self,
        game_id: str,
        after_seq: int = 0,
        resume: bool = True,
        *,
        on_reconnect: Callable[[RiskError, int], None] | None = None,
    ) -> AsyncGenerator[game_pb2.Event, None]:
        """Every event after `after_seq`, in order, then the live ones, as this token may see them.

        With `resume`, a stream that fails with UNAVAILABLE, a dropped connection or
        RESOURCE_EXHAUSTED/SUBSCRIBER_TOO_SLOW is reopened after the last event yielded (after
        a jittered pause, `self.backoff`), so no event is skipped or repeated. Other errors, and
        `backoff.attempts` reconnects in a row without an event, raise. `on_reconnect(error,
        attempt)` hears of each reconnect before its pause. The stream ends only when the
        service ends it or the consumer stops iterating.

        The call asks for batches (`STREAM_BATCH` events a message at most), so a stream that
        is behind (a long backlog, a burst) takes fewer messages; events are still yielded
        one at a time. A service older than batching sends one event a message, which reads
        the same. With `websocket` set, the stream is a WebSocket on the HTTP port.
        """
        async for event in self._resuming(
                "StreamEvents",
                lambda last: service_pb2.StreamEventsRequest(
                    game_id=game_id, after_seq=last, max_batch=STREAM_BATCH),
                _events_of, after_seq, resume=resume, on_reconnect=on_reconnect):
            yield event

    def session(
        self,
        game_id: str,
        after_seq: int = 0,
        resume: bool = True,
        *,
        on_reconnect: Callable[[RiskError, int], None] | None = None,
        events: bool = True,
    ) -> GameSession:
        """A long-lived session on `game_id` for this token's seat (risk_client.session):
        `submit` and `resign` on an open stream, and its events by iterating it. Use it as
        `async with client.session(game_id) as session:`; with `resume` it reopens after the
        last seq seen after the transient failures `stream_events` resumes after. With
        `events=False` the service sends only the answers (iterating yields nothing). With
        `websocket` set, the session is a WebSocket on the HTTP port."""
        from risk_client.session import GameSession  # noqa: PLC0415 - sessions only

        connection = self._connection
        opener: Callable[[], Any]
        if connection.websocket is not None:
            from risk_client.websocket import session_call  # noqa: PLC0415 - the websockets package only when used

            url, token, context = connection.websocket, self.token, connection.websocket_ssl
            opener = lambda: session_call(url, token, context)  # noqa: E731
        else:
            stub, metadata = connection.ready_stub(), self._metadata()
            opener = lambda: stub.Session(metadata=metadata)  # noqa: E731
        return GameSession(opener, game_id, after_seq,
                           backoff=self.backoff, resume=resume, resumable=_resumable,
                           on_reconnect=on_reconnect, events=events)

    async def create_round(self, request: tournament_pb2.CreateRoundRequest
                           ) -> tournament_pb2.CreateRoundResponse:
        """A tournament round's games in one call (docs/tournaments.md); retry it with the
        same `request_id` after a failure: the same round comes back, nothing is created
        twice."""
        return await self._unary("CreateRound", request, tournament_pb2.CreateRoundResponse)

    # ---- tournament events (docs/tournaments.md, "Events") -------------------------------

    async def create_event(self, request: events_pb2.CreateEventRequest
                           ) -> events_pb2.TournamentEvent:
        """Organiser: an event the service's director runs. The same request again returns
        the event (resent after a lost reply); another one under the label is
        REQUEST_ID_REUSED."""
        return await self._resent("CreateEvent", request, events_pb2.TournamentEvent)

    async def register_event(self, event: str, name: str = "") -> events_pb2.TournamentEvent:
        """With a player token: register for the event (again: the same, or a new name)."""
        return await self._resent("RegisterEvent",
                                  events_pb2.RegisterEventRequest(event=event, name=name),
                                  events_pb2.TournamentEvent)

    async def withdraw_event(self, event: str) -> events_pb2.TournamentEvent:
        """With a player token: leave the event (before the start: the entry goes; after it:
        seated in no later round, results kept)."""
        return await self._resent("WithdrawEvent", events_pb2.WithdrawEventRequest(event=event),
                                  events_pb2.TournamentEvent)

    async def start_event(self, event: str) -> events_pb2.TournamentEvent:
        """Organiser: close registration and let the director seat round 1."""
        return await self._unary("StartEvent", events_pb2.StartEventRequest(event=event),
                                 events_pb2.TournamentEvent)

    async def get_event(self, event: str) -> events_pb2.TournamentEvent:
        """The event: players, rounds with their tables and results, standings."""
        return await self._resent("GetEvent", events_pb2.GetEventRequest(event=event),
                                  events_pb2.TournamentEvent)

    async def stream_results(
        self,
        tournament: str,
        after_seq: int = 0,
        resume: bool = True,
        *,
        on_reconnect: Callable[[RiskError, int], None] | None = None,
    ) -> AsyncGenerator[tournament_pb2.TournamentFact, None]:
        """The tournament's results feed after `after_seq`: every fact of its games, in
        order, then new ones; resumed after the last fact yielded as `stream_events` is."""
        async for response in self._resuming(
                "StreamResults",
                lambda last: tournament_pb2.StreamResultsRequest(tournament=tournament,
                                                                 after_seq=last),
                lambda reply: (reply.fact,), after_seq, resume=resume,
                on_reconnect=on_reconnect):
            yield response

    async def stream_games(
        self,
        *,
        tournament: str = "",
        tournament_round: int | None = None,
        games: Sequence[str] = (),
        player_id: str = "",
        resume_token: str = "",
        resume: bool = True,
        on_reconnect: Callable[[RiskError, int], None] | None = None,
    ) -> AsyncGenerator[broadcast_pb2.StreamGamesResponse, None]:
        """Many games in one stream (StreamGames, docs/broadcasts.md): a `tournament` (and
        `tournament_round`), a list of `games` or a `player_id`'s games, each event tagged with its
        game, games added and removed live, the featured table's changes. After a lost
        connection it reopens with the last message's resume token, as `stream_events`
        resumes after its last seq: no game's event is missed or repeated (the games still
        followed are announced `added` again)."""
        request = broadcast_pb2.StreamGamesRequest()
        if tournament:
            request.tournament = tournament
            if tournament_round is not None:
                request.round = tournament_round
        elif games:
            request.games.game_ids.extend(games)
        else:
            request.player_id = player_id
        token = resume_token
        failures = 0
        while True:
            request.resume_token = token
            call = self._connection.ready_stub().StreamGames(request,
                                                             metadata=self._metadata())
            opened = time.monotonic()
            try:
                async for response in call:
                    token = response.resume_token or token
                    failures = 0
                    yield response
                return
            except grpc.aio.AioRpcError as exc:
                failures = self._reopening(from_rpc_error(exc), opened, failures, resume,
                                           on_reconnect)
            finally:
                call.cancel()
            await asyncio.sleep(self.backoff.delay(failures))

    def _reopening(self, error: RiskError, opened: float, failures: int, resume: bool,
                   on_reconnect: Callable[[RiskError, int], None] | None) -> int:
        """After `error` ended a stream opened at `opened` (monotonic): the failures in a row
        it makes (a stream that was healthy for a while starts the count again), told to
        `on_reconnect`; raises `error` where the stream is not to be reopened (not asked, not
        resumable, or too many failures in a row)."""
        if time.monotonic() - opened >= self.backoff.healthy_after:
            failures = 0
        failures += 1
        if not resume or not _resumable(error) or failures > self.backoff.attempts:
            raise error from None
        if on_reconnect is not None:
            on_reconnect(error, failures)
        return failures

    async def _resuming(
        self, method: str, request_after: Callable[[int], Message],
        items_of: Callable[[Any], Iterable[Any]], after_seq: int, *, resume: bool,
        on_reconnect: Callable[[RiskError, int], None] | None,
    ) -> AsyncGenerator[Any, None]:
        """The numbered items (`item.seq`) of a server stream, each reply carrying
        `items_of(reply)`, reopened after the last item yielded (see `stream_events`)."""
        last = after_seq
        failures = 0
        connection = self._connection
        over_socket = method == "StreamEvents" and connection.websocket is not None
        stub = None if over_socket else connection.ready_stub()
        while True:
            request = request_after(last)
            if over_socket:  # only StreamEvents and Session have a WebSocket
                assert connection.websocket is not None
                assert isinstance(request, service_pb2.StreamEventsRequest)
                from risk_client.websocket import stream_call  # noqa: PLC0415 - the websockets package only when used

                call: Any = stream_call(connection.websocket, self.token, request,
                                        connection.websocket_ssl)
            else:
                call = getattr(stub, method)(request, metadata=self._metadata())
            opened = time.monotonic()
            try:
                async for response in call:
                    for item in items_of(response):
                        if item.seq <= last:
                            continue  # a resumed stream never repeats an item already yielded
                        last = item.seq
                        failures = 0
                        yield item
                return
            except (grpc.aio.AioRpcError, RiskError) as exc:
                # a WebSocket's end comes already translated
                error = from_rpc_error(exc) if isinstance(exc, grpc.aio.AioRpcError) else exc
                failures = self._reopening(error, opened, failures, resume, on_reconnect)
            finally:
                call.cancel()
            await asyncio.sleep(self.backoff.delay(failures))
            stub = None if over_socket else connection.ready_stub()
