"""Players (issue 34 items 1 and 2, docs/players.md): JWTs from a real JWKS (a file, and an https
URL under a test CA) with keys made here, every refusal with its reason on the gRPC and HTTP
ports, seats bound to player ids, and the service's own player tokens where no identity
provider is configured. Real service processes on a real redis-server.

The tests of the service's own player tokens share one service (`shared`), each with players
and games of its own; those with an identity provider start their own."""

from __future__ import annotations

import asyncio
import http.server
import json
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
import trustme
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

from risk_client import RiskClient
from risk_proto.risk.v1 import players_pb2, service_pb2, service_pb2_grpc, tournament_pb2
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import bearer, classic_options, create_request, error_info, rpc_error
from tests.service.test_http import info_of, post_json
from tests.serving import module_service

ISSUER = "https://id.example.test/"
AUDIENCE = "risk-tests"
Stub = service_pb2_grpc.RiskServiceStub
shared = module_service("service-players-identity")


@dataclass
class SigningKey:
    kid: str
    alg: str
    private: Any
    jwk: dict[str, Any]


def signing_key(alg: str, kid: str) -> SigningKey:
    """A fresh key pair of `alg`'s kind and its public JWK."""
    if alg == "RS256":
        private: Any = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        jwk = RSAAlgorithm.to_jwk(private.public_key(), as_dict=True)
    elif alg == "ES256":
        private = ec.generate_private_key(ec.SECP256R1())
        jwk = ECAlgorithm.to_jwk(private.public_key(), as_dict=True)
    else:
        private = Ed25519PrivateKey.generate()
        jwk = OKPAlgorithm.to_jwk(private.public_key(), as_dict=True)
    return SigningKey(kid, alg, private, {**jwk, "kid": kid, "use": "sig", "alg": alg})


def token(key: SigningKey, sub: str = "alice", *, iss: str = ISSUER, aud: str = AUDIENCE,
          expires_in: int = 600, kid: str | None = None) -> str:
    now = int(time.time())
    return jwt.encode({"sub": sub, "iss": iss, "aud": aud, "iat": now, "exp": now + expires_in},
                      key.private, algorithm=key.alg, headers={"kid": kid or key.kid})


def jwks(*keys: SigningKey) -> dict[str, Any]:
    return {"keys": [k.jwk for k in keys]}


def provider_env(location: str, **more: str) -> dict[str, str]:
    return {"RISK_JWT_JWKS": location, "RISK_JWT_ISSUER": ISSUER,
            "RISK_JWT_AUDIENCE": AUDIENCE, **more}


class JwksServer:
    """An https server of one JWKS document (swappable), under a CA made for the test."""

    def __init__(self, tmp_path: Path) -> None:
        ca = trustme.CA()
        self.ca_file = tmp_path / "jwks-ca.pem"
        ca.cert_pem.write_to_path(str(self.ca_file))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("127.0.0.1").configure_cert(context)
        self.document: dict[str, Any] = {"keys": []}
        self.fetches = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.fetches += 1
                body = json.dumps(server.document).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.httpd.server_address[1]}/jwks.json"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


@pytest.fixture
def service(shared: ServiceProcess) -> ServiceProcess:
    """tests/service/conftest.py's `service` (and so its `stub`): this module's shared one."""
    return shared


@pytest.fixture
def jwks_server(tmp_path: Path) -> Iterator[JwksServer]:
    server = JwksServer(tmp_path)
    yield server
    server.close()


async def _game(stub: Stub, players: int = 3, **fields: Any) -> str:
    created = await stub.CreateGame(create_request(seed=3, players=players), **fields)
    return str(created.game.game_id)


async def _viewer_seat(stub: Stub, game_id: str, credential: str) -> int:
    reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                               metadata=bearer(credential))
    return int(reply.viewer_seat)


async def _move(stub: Stub, game_id: str, credential: str) -> int:
    """One legal action with `credential`; the version it made."""
    auth = bearer(credential)
    legal = await stub.ListLegalActions(service_pb2.ListLegalActionsRequest(game_id=game_id),
                                        metadata=auth)
    assert legal.actions, "the credential's seat has no decision now"
    done = await stub.SubmitAction(service_pb2.SubmitActionRequest(
        game_id=game_id, action=legal.actions[0].action, expected_version=legal.version),
        metadata=auth)
    return int(done.version)


async def _decision_seat(stub: Stub, game_id: str) -> int:
    game = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
    return int(game.decision.seats[0]) if game.decision.seats else -1


async def test_jwks_file_tokens_of_every_algorithm_and_every_refusal_on_both_ports(
    make_service: ServiceFactory, tmp_path: Path,
) -> None:
    """RS256, ES256 and EdDSA tokens from a JWKS file take and act for their seats; an
    expired token, a wrong issuer or audience, an unknown key id and a forged signature are
    refused UNAUTHENTICATED with their reasons over gRPC and the HTTP port alike."""
    keys = [signing_key("RS256", "rs-1"), signing_key("ES256", "es-1"),
            signing_key("EdDSA", "ed-1")]
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(jwks(*keys)))
    service = make_service(http=True, RISK_KEY_PREFIX="service-players-identity-file",
                           **provider_env(str(path)))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game_id = await _game(stub)
        for seat, key in enumerate(keys):
            credential = token(key, sub=f"player-{key.alg}")
            joined = await stub.JoinGame(service_pb2.JoinGameRequest(
                game_id=game_id, seat=seat, display_name=key.alg), metadata=bearer(credential))
            assert joined.player_id == f"player-{key.alg}"
            assert await _viewer_seat(stub, game_id, credential) == seat
        forger = signing_key("RS256", "rs-1")  # another key under a trusted key's id
        refused = {
            "TOKEN_EXPIRED": token(keys[0], expires_in=-3600),
            "BAD_ISSUER": token(keys[1], iss="https://someone-else.test/"),
            "BAD_AUDIENCE": token(keys[2], aud="another-service"),
            "UNKNOWN_KEY": token(keys[0], kid="never-published"),
            "BAD_SIGNATURE": token(forger),
        }
        for reason, credential in refused.items():
            error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                                 metadata=bearer(credential)))
            assert error.code() == grpc.StatusCode.UNAUTHENTICATED, reason
            assert error_info(error).reason == reason
            status, body = await asyncio.to_thread(post_json, service, "GetGame",
                                                   {"gameId": game_id}, credential)
            assert (status, body["code"], info_of(body).reason) == (
                401, "unauthenticated", reason)
        # the service issues no tokens of its own beside an identity provider
        error = await rpc_error(stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest()))
        assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_info(error).reason == "PLAYERS_FROM_PROVIDER"


async def test_jwks_url_over_https_follows_a_rotation_and_bounds_refetches(
    make_service: ServiceFactory, jwks_server: JwksServer,
) -> None:
    """Keys from an https JWKS under a test CA: after a rotation the new key is accepted once
    the set is fetched again and the removed key is refused UNKNOWN_KEY; a burst of made-up
    key ids fetches the set at most once per RISK_JWT_JWKS_MIN_REFETCH_S."""
    old, new = signing_key("ES256", "2026-01"), signing_key("EdDSA", "2026-02")
    jwks_server.document = jwks(old)
    service = make_service(RISK_KEY_PREFIX="service-players-identity-url", **provider_env(
        jwks_server.url, RISK_JWT_JWKS_CA_FILE=str(jwks_server.ca_file),
        RISK_JWT_JWKS_MIN_REFETCH_S="1"))
    async with grpc.aio.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        game_id = await _game(stub)
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=1),
                            metadata=bearer(token(old, sub="bob")))
        assert await _viewer_seat(stub, game_id, token(old, sub="bob")) == 1
        jwks_server.document = jwks(new)  # the provider rotates: the old key is gone
        deadline = time.monotonic() + 15
        while True:
            try:
                seat = await _viewer_seat(stub, game_id, token(new, sub="bob"))
                break
            except grpc.aio.AioRpcError as error:
                assert error_info(error).reason == "UNKNOWN_KEY"
                assert time.monotonic() < deadline, "the rotated key was never fetched"
                await asyncio.sleep(0.1)
        assert seat == 1  # the same player, signed with the new key
        error = await rpc_error(stub.GetGame(service_pb2.GetGameRequest(game_id=game_id),
                                             metadata=bearer(token(old, sub="bob"))))
        assert (error.code(), error_info(error).reason) == (
            grpc.StatusCode.UNAUTHENTICATED, "UNKNOWN_KEY")
        before, started = jwks_server.fetches, time.monotonic()
        for n in range(30):
            error = await rpc_error(stub.GetGame(
                service_pb2.GetGameRequest(game_id=game_id),
                metadata=bearer(token(new, kid=f"made-up-{n}"))))
            assert error_info(error).reason == "UNKNOWN_KEY"
        elapsed = time.monotonic() - started
        assert jwks_server.fetches - before <= 1 + int(elapsed / 1.0)


async def test_a_player_joins_two_games_with_one_token_and_moves_in_both(
    service: ServiceProcess, stub: Stub,
) -> None:
    """Through the Python SDK: a player token the service issued takes seat 0 of two games and
    acts for it in both (ListLegalActions and SubmitAction), beside seat tokens of the other
    seats; renewing the token keeps the player."""
    async with RiskClient(service.target) as anyone:
        issued = await anyone.issue_player_token()
        assert issued.player_id and issued.expires_at_ms > time.time() * 1000
        player = anyone.with_token(issued.token)
        renewed = await player.issue_player_token()
        assert renewed.player_id == issued.player_id
        games, others = [], {}
        for _ in range(2):
            game, _host = await anyone.create_game(classic_options(players=2), seed=5)
            await player.join_game(game.game_id, 0, "ada")
            others[game.game_id] = await anyone.join_game(game.game_id, 1, "bea")
            games.append(game.game_id)
        moved = {game_id: 0 for game_id in games}
        for game_id in games:
            for _ in range(50):
                seat = await _decision_seat(stub, game_id)
                if seat == 0:
                    legal = await player.legal_actions(game_id)
                    done = await player.submit_action(game_id, legal.actions[0].action,
                                                      legal.version)
                    assert done.version == legal.version + 1
                    moved[game_id] += 1
                    if moved[game_id] == 2:
                        break
                else:
                    await _move(stub, game_id, others[game_id])
        assert moved == {game_id: 2 for game_id in games}
        assert (await player.get_game(games[1])).viewer_seat == 0


async def test_seats_of_players_bots_and_anonymous_seat_tokens_share_a_round(
    service: ServiceProcess, stub: Stub,
) -> None:
    """A round's game seats a player by id, a bot and an anonymous player: the player acts
    with their own token and with the seat's token, the anonymous seat with its token, and
    the bot plays its seat."""
    issued = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    seats = [tournament_pb2.RoundSeat(player="ada", player_id=issued.player_id),
             tournament_pb2.RoundSeat(bot=tournament_pb2.BOT_LEVEL_RANDOM),
             tournament_pb2.RoundSeat(player="cy")]
    round_ = await stub.CreateRound(tournament_pb2.CreateRoundRequest(
        request_id="r1", tournament="players", options=classic_options(players=3),
        games=[tournament_pb2.RoundTable(seats=seats)]))
    (game,) = round_.games
    game_id, seat_tokens = game.game_id, list(game.seat_tokens)
    assert await _viewer_seat(stub, game_id, issued.token) == 0
    credentials = {0: [issued.token, seat_tokens[0]], 2: [seat_tokens[2]]}
    used: dict[int, set[int]] = {0: set(), 2: set()}
    bot_moved = False
    deadline = time.monotonic() + 60
    while not (bot_moved and len(used[0]) == 2 and used[2]):
        assert time.monotonic() < deadline, (used, bot_moved)
        seat = await _decision_seat(stub, game_id)
        if seat in credentials:
            which = len(used[seat]) % len(credentials[seat])
            try:
                await _move(stub, game_id, credentials[seat][which])
            except grpc.aio.AioRpcError as error:  # the bot or a timer moved meanwhile
                assert error.code() in (grpc.StatusCode.ABORTED,
                                        grpc.StatusCode.FAILED_PRECONDITION), error
                continue
            used[seat].add(which)
        elif seat == 1:
            version = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            while await _decision_seat(stub, game_id) == 1:
                assert time.monotonic() < deadline, "the bot never moved"
                await asyncio.sleep(0.05)
            latest = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).game
            bot_moved = bot_moved or latest.version > version.version
        else:
            break  # the game is over
    assert bot_moved and used == {0: {0, 1}, 2: {0}}


async def test_player_seats_refusals_and_the_player_as_host(
    service: ServiceProcess, stub: Stub,
) -> None:
    """A player takes one seat per game (PLAYER_ALREADY_SEATED), is named once per game at
    creation (MALFORMED_REQUEST), acts only where they hold a seat (WRONG_SEAT), and a game a
    player created is theirs to start as host with their token."""
    ada = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    bea = await stub.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest())
    created = await stub.CreateGame(create_request(seed=4, players=3), metadata=bearer(ada.token))
    game_id = created.game.game_id
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=0),
                        metadata=bearer(ada.token))
    error = await rpc_error(stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, seat=1),
                                          metadata=bearer(ada.token)))
    assert (error.code(), error_info(error).reason) == (
        grpc.StatusCode.FAILED_PRECONDITION, "PLAYER_ALREADY_SEATED")
    twice = create_request(players=3)
    twice.seat_players.extend([bea.player_id, "", bea.player_id])
    error = await rpc_error(stub.CreateGame(twice))
    assert (error.code(), error_info(error).reason) == (
        grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    named = create_request(players=3)
    named.seat_players.extend(["", bea.player_id])
    named.manual_start = True
    other = (await stub.CreateGame(named, metadata=bearer(ada.token))).game.game_id
    assert [s.taken for s in (await stub.GetGame(service_pb2.GetGameRequest(
        game_id=other))).game.seats] == [False, True, False]
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=other, seat=0))
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=other, seat=2))
    started = await stub.StartGame(service_pb2.StartGameRequest(game_id=other),
                                   metadata=bearer(ada.token))
    assert started.game.status == service_pb2.GAME_STATUS_ACTIVE
    error = await rpc_error(stub.StartGame(service_pb2.StartGameRequest(game_id=other),
                                           metadata=bearer(bea.token)))
    assert (error.code(), error_info(error).reason) == (
        grpc.StatusCode.PERMISSION_DENIED, "NOT_HOST")
    assert await _viewer_seat(stub, other, bea.token) == 1
    assert await _viewer_seat(stub, game_id, bea.token) == -1  # a spectator there
    error = await rpc_error(stub.ListLegalActions(
        service_pb2.ListLegalActionsRequest(game_id=game_id), metadata=bearer(bea.token)))
    assert (error.code(), error_info(error).reason) == (
        grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")
