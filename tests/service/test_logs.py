"""The service's JSON log lines (risk_service.logs), written to a file as stdout would be, and
the running service's whole output, its libraries' records included."""

from __future__ import annotations

import datetime
import json
import logging
import socket
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import structlog

from risk_proto.risk.v1 import service_pb2
from risk_service.logs import _UtcStamp, configure_logging
from risk_service.operations import Caller
from risk_service.redis_server import free_port
from risk_service.server.calls import Chain
from risk_service.server.interceptor import RouteHandlers
from risk_service.server.routes import Kind, Route
from risk_testing.harness import ServiceFactory, ServiceProcess
from tests.conftest import RedisServerFactory


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "out.log"
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with path.open("wb") as out:
        configure_logging("info", out)
        yield path
    structlog.reset_defaults()
    root.handlers[:] = handlers  # the root handler configure_logging installed writes to `out`
    root.setLevel(level)
    logging.captureWarnings(False)


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_json_object_per_line_with_level_and_utc_timestamp(log_file: Path) -> None:
    log = structlog.get_logger("rpc")
    before = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    log.info("rpc", method="/risk.v1.RiskService/Ping", code="OK", duration_ms=0.25)
    log.debug("quiet", x=1)  # below the level: not written
    log.warning("odd", game_id="g1")
    after = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    lines = _lines(log_file)  # written and flushed line by line: readable at once
    assert [line["event"] for line in lines] == ["rpc", "odd"]
    assert lines[0] == {"method": "/risk.v1.RiskService/Ping", "code": "OK", "duration_ms": 0.25,
                        "event": "rpc", "level": "info", "logger": "rpc",
                        "timestamp": lines[0]["timestamp"]}
    assert lines[1]["level"] == "warning" and lines[1]["game_id"] == "g1"
    for line in lines:
        stamp = datetime.datetime.strptime(str(line["timestamp"]), "%Y-%m-%dT%H:%M:%S.%fZ")
        assert before - datetime.timedelta(microseconds=1) <= stamp <= after


def test_values_json_cannot_take_from_orjson_still_make_a_line(log_file: Path) -> None:
    log = structlog.get_logger("x")
    log.info("seeded", seed=1 << 70, by_seat={1: "a"}, obj=Path("/x"))
    try:
        raise ValueError("broken")
    except ValueError:
        log.exception("failed", game_id="g2")
    seeded, failed = _lines(log_file)
    assert seeded["seed"] == 1 << 70 and seeded["by_seat"] == {"1": "a"}
    assert seeded["obj"] == "PosixPath('/x')"  # as structlog renders any other object
    assert failed["level"] == "error" and "ValueError: broken" in str(failed["exception"])


def test_timestamp_tracks_the_clock_across_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = _UtcStamp()
    clock = iter([1_764_474_622_999_999_999, 1_764_474_623_000_000_000, 1_764_474_623_000_001_000,
                  1_764_547_200_000_000_000])
    monkeypatch.setattr("risk_service.logs.time.time_ns", lambda: next(clock))
    assert [stamp.now() for _ in range(4)] == [
        "2025-11-30T03:50:22.999999Z", "2025-11-30T03:50:23.000000Z",
        "2025-11-30T03:50:23.000001Z", "2025-12-01T00:00:00.000000Z",
    ]


def test_library_records_share_the_line_shape_and_bound_context(log_file: Path) -> None:
    """uvicorn, grpc, asyncio and redis-py records and warnings are the same JSON lines."""
    structlog.contextvars.bind_contextvars(game_id="g3")
    try:
        logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
        logging.getLogger("grpc._cython.cygrpc").error("Unexpected [%s] raised", "KeyError")
        logging.getLogger("redis.asyncio.connection").info("fallback to %s", "RESP2")
        logging.getLogger("grpc").debug("below the level: not written")
        try:
            raise RuntimeError("lost")
        except RuntimeError:
            logging.getLogger("asyncio").exception("Task exception was never retrieved")
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.warn("coroutine 'x' was never awaited", RuntimeWarning, stacklevel=1)
    finally:
        structlog.contextvars.clear_contextvars()
    uvicorn, grpc_, redis_, asyncio_, warned = _lines(log_file)
    assert uvicorn == {"event": "Invalid HTTP request received.", "game_id": "g3",
                       "level": "warning", "logger": "uvicorn.error",
                       "timestamp": uvicorn["timestamp"]}
    assert (grpc_["logger"], grpc_["level"], grpc_["event"]) == (
        "grpc._cython.cygrpc", "error", "Unexpected [KeyError] raised")
    assert (redis_["logger"], redis_["event"]) == ("redis.asyncio.connection",
                                                   "fallback to RESP2")
    assert asyncio_["level"] == "error" and "RuntimeError: lost" in str(asyncio_["exception"])
    assert warned["logger"] == "py.warnings" and "never awaited" in str(warned["event"])


SUBMIT = "/risk.v1.RiskService/SubmitAction"


async def test_a_library_record_during_a_call_carries_the_calls_fields(log_file: Path) -> None:
    """A library's record logged during a gRPC call carries the call's method and ids."""
    async def operation(request: service_pb2.SubmitActionRequest, caller: Caller
                        ) -> service_pb2.SubmitActionResponse:
        # what redis-py logs when the connection it opens for the call falls back
        logging.getLogger("redis.asyncio.connection").info("fallback to %s", "RESP2")
        return service_pb2.SubmitActionResponse(version=1)

    route = Route(name="SubmitAction", path=SUBMIT, request=service_pb2.SubmitActionRequest,
                  response=service_pb2.SubmitActionResponse, kind=Kind.UNARY, call=operation,
                  credentials=False, creation=False, encoded=False, cacheable=False,
                  side_effects=True)
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((RouteHandlers({SUBMIT: route}, Chain()),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            submit = channel.unary_unary(
                SUBMIT, request_serializer=service_pb2.SubmitActionRequest.SerializeToString,
                response_deserializer=service_pb2.SubmitActionResponse.FromString)
            reply = await submit(service_pb2.SubmitActionRequest(game_id="g7", request_id="r1"),
                                 timeout=10)
    finally:
        await server.stop(None)
    assert reply.version == 1
    logging.getLogger("redis.asyncio.connection").info("after the call")
    during, rpc, after = [line for line in _lines(log_file)
                          if line["logger"] in {"redis.asyncio.connection", "rpc"}]
    assert (during["event"], during["method"], during["game_id"], during["request_id"]) == (
        "fallback to RESP2", SUBMIT, "g7", "r1")
    assert (rpc["event"], rpc["code"], rpc["method"], rpc["game_id"], rpc["request_id"]) == (
        "rpc", "OK", SUBMIT, "g7", "r1")
    assert after["event"] == "after the call" and "method" not in after


def _shaped(line: str) -> dict[str, object]:
    """`line` as the JSON object it must be, with the fields every line has."""
    record = json.loads(line)
    assert isinstance(record, dict), line
    assert {"event", "level", "logger", "timestamp"} <= record.keys(), line
    return record


def test_running_service_writes_its_libraries_records_as_json_lines(
    make_service: ServiceFactory, make_redis_server: RedisServerFactory,
) -> None:
    """uvicorn's, asyncio's and redis-py's records in the service are JSON lines, none plain."""
    # a Redis without HELLO: redis-py warns as it falls back to RESP2 (logger redis.*)
    redis = make_redis_server(appendonly=False, extra_args=["--rename-command", "HELLO", ""])
    service: ServiceProcess = make_service(
        redis.url, http=True, RISK_METRICS_PORT=str(free_port()),
        # asyncio's debug mode logs each server it starts (the ops port's) at INFO
        RISK_EVENT_LOOP="asyncio", PYTHONASYNCIODEBUG="1")
    with socket.create_connection(("127.0.0.1", service.http_port), timeout=10) as conn:
        conn.sendall(b"NOT HTTP AT ALL\r\n\r\n")  # uvicorn warns "Invalid HTTP request"
        assert conn.recv(1024).startswith(b"HTTP/1.1 400")
    wanted = {"uvicorn.error": "Invalid HTTP request received.", "asyncio": " is serving",
              "redis.asyncio.connection": "does not support HELLO"}
    deadline = time.monotonic() + 20
    while True:
        text = service.logs()
        lines = [line for line in text.splitlines() if line.strip()]
        found = {name: any(f'"logger":"{name}"' in line and part in line for line in lines)
                 for name, part in wanted.items()}
        if all(found.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert all(found.values()), (found, text)
    records = [_shaped(line) for line in lines]  # every line, the libraries' included
    for name, part in wanted.items():
        (record, *_) = [r for r in records if r["logger"] == name and part in str(r["event"])]
        assert record["level"] in ("info", "warning")
        datetime.datetime.strptime(str(record["timestamp"]), "%Y-%m-%dT%H:%M:%S.%fZ")
