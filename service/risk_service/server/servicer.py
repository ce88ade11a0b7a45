"""The RiskService servicer: read the caller's credentials, delegate to GameService, return."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator

import grpc

from risk_proto.risk.v1 import (
    service_pb2,
    service_pb2_grpc,
    session_pb2,
    tournament_pb2,
    variant_pb2,
)
from risk_service.campaigns import CampaignService
from risk_service.operations import CLIENT_CERT, GameService
from risk_service.server import calls
from risk_service.server.metrics import Metrics
from risk_service.server.status import rich_status


def authorization(context: grpc.aio.ServicerContext) -> str | None:
    """The call's `authorization` metadata value as sent, None without one."""
    return calls.single_authorization(context.invocation_metadata() or ())


def bearer_token(context: grpc.aio.ServicerContext) -> str | None:
    """The token from `authorization: Bearer <token>`, None when the call carries none."""
    return calls.bearer_token(authorization(context))


def has_client_cert(context: grpc.aio.ServicerContext) -> bool:
    """Whether the peer presented a client certificate that the TLS handshake verified.

    Only a listener that requires client certificates asks for one (see server.app), and a
    certificate reaches the auth context only once it has been verified against the CA."""
    auth = context.auth_context() or {}
    return bool(auth.get("x509_pem_cert") or auth.get("x509_common_name"))


def credentials(context: grpc.aio.ServicerContext) -> str | None:
    """The caller's bearer token; also records for GameService (CLIENT_CERT, this call only)
    whether the peer presented a client certificate, which organiser tokens may require."""
    CLIENT_CERT.set(functools.partial(has_client_cert, context))
    return bearer_token(context)


class RiskServicer(service_pb2_grpc.RiskServiceServicer):
    def __init__(self, games: GameService, campaigns: CampaignService, *,
                 admission: calls.Admission | None = None,
                 metrics: Metrics | None = None) -> None:
        self.games = games
        self.campaigns = campaigns
        # a session's actions spend the same rate buckets as the interceptor's calls
        self.admission = admission or calls.Admission()
        self.metrics = metrics

    async def CreateGame(  # noqa: N802 - gRPC method names
        self, request: service_pb2.CreateGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.CreateGameResponse:
        return await self.games.create(request, credentials(context))

    async def JoinGame(  # noqa: N802
        self, request: service_pb2.JoinGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.JoinGameResponse:
        return await self.games.join(request)

    async def GetGame(  # noqa: N802
        self, request: service_pb2.GetGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.GetGameResponse:
        return await self.games.get(request, credentials(context))

    async def ListGames(  # noqa: N802
        self, request: service_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.ListGamesResponse:
        return await self.games.list(request)

    async def ListLegalActions(  # noqa: N802
        self, request: service_pb2.ListLegalActionsRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.ListLegalActionsResponse:
        return await self.games.legal_actions(request, credentials(context))

    async def SubmitAction(  # noqa: N802
        self, request: service_pb2.SubmitActionRequest, context: grpc.aio.ServicerContext
    ) -> bytes:
        # a serialised SubmitActionResponse (the interceptor lets bytes through)
        return await self.games.submit(request, credentials(context))

    async def StreamEvents(  # noqa: N802
        self, request: service_pb2.StreamEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        # serialised StreamEventsResponse messages (shared encodings; see GameService.stream)
        async for reply in self.games.stream(request, credentials(context)):
            yield reply

    async def Session(  # noqa: N802
        self, requests: AsyncIterator[session_pb2.SessionRequest],
        context: grpc.aio.ServicerContext,
    ) -> AsyncIterator[bytes]:
        # serialised SessionResponse messages; each action is admitted and logged as its
        # unary call would be (calls.SessionCalls)
        actions = calls.SessionCalls(
            self.admission, self.metrics, rich_status, authorization=authorization(context),
            peer=context.peer(), prefix="/risk.v1.RiskService/Session")
        async for reply in self.games.session(requests, credentials(context), actions):
            yield reply

    async def CreateRound(  # noqa: N802
        self, request: tournament_pb2.CreateRoundRequest, context: grpc.aio.ServicerContext
    ) -> tournament_pb2.CreateRoundResponse:
        return await self.games.create_round(request, credentials(context))

    async def StreamResults(  # noqa: N802
        self, request: tournament_pb2.StreamResultsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        # serialised StreamResultsResponse messages
        async for reply in self.games.stream_results(request):
            yield reply

    async def StartGame(  # noqa: N802
        self, request: service_pb2.StartGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.StartGameResponse:
        return await self.games.start(request, credentials(context))

    async def CancelGame(  # noqa: N802
        self, request: service_pb2.CancelGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.CancelGameResponse:
        return await self.games.cancel(request, credentials(context))

    async def ReissueSeatToken(  # noqa: N802
        self, request: service_pb2.ReissueSeatTokenRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.ReissueSeatTokenResponse:
        return await self.games.reissue(request, credentials(context))

    async def Resign(  # noqa: N802
        self, request: service_pb2.ResignRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.ResignResponse:
        return await self.games.resign(request, credentials(context))

    async def ExportGame(  # noqa: N802
        self, request: service_pb2.ExportGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.GameExport:
        return await self.games.export(request, credentials(context))

    async def DescribeVariant(  # noqa: N802
        self, request: variant_pb2.DescribeVariantRequest, context: grpc.aio.ServicerContext
    ) -> variant_pb2.DescribeVariantResponse:
        return await self.games.describe_variant(request)

    async def ListVariants(  # noqa: N802
        self, request: variant_pb2.ListVariantsRequest, context: grpc.aio.ServicerContext
    ) -> variant_pb2.ListVariantsResponse:
        return await self.games.list_variants(request)

    async def CreateCampaign(  # noqa: N802
        self, request: service_pb2.CreateCampaignRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.CreateCampaignResponse:
        return await self.campaigns.create(request, credentials(context))

    async def GetCampaign(  # noqa: N802
        self, request: service_pb2.GetCampaignRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.GetCampaignResponse:
        return await self.campaigns.get(request, credentials(context))

    async def ListCampaigns(  # noqa: N802
        self, request: service_pb2.ListCampaignsRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.ListCampaignsResponse:
        return await self.campaigns.list(request)

    async def StartCampaignGame(  # noqa: N802
        self, request: service_pb2.StartCampaignGameRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.StartCampaignGameResponse:
        return await self.campaigns.start_game(request, credentials(context))

    async def SubmitCampaignDecision(  # noqa: N802
        self, request: service_pb2.SubmitCampaignDecisionRequest,
        context: grpc.aio.ServicerContext,
    ) -> service_pb2.SubmitCampaignDecisionResponse:
        return await self.campaigns.decide(request, credentials(context))

    async def Ping(  # noqa: N802
        self, request: service_pb2.PingRequest, context: grpc.aio.ServicerContext
    ) -> service_pb2.PingResponse:
        return service_pb2.PingResponse()
