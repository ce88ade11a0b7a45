"""Server reflection as tools meet it: grpc.reflection.v1 and v1alpha, over a real server.

The v1 client is built from the published v1 protocol (the proto text below, compiled here),
not from the server's code, so it checks what a v1-only tool (grpcurl, Postman, grpc-java's
reflection client) gets.

The tests share one service (`service`): reflection only reads what the process serves.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_reflection.v1alpha import reflection_pb2

from risk_proto.risk.v1 import errors_pb2
from risk_testing.harness import ServiceProcess
from tests.serving import module_service

service = module_service("service-reflection")

V1_PROTO = """
syntax = "proto3";
package grpc.reflection.v1;
service ServerReflection {
  rpc ServerReflectionInfo(stream ServerReflectionRequest)
      returns (stream ServerReflectionResponse);
}
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    string list_services = 7;
  }
}
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
"""

Reflect = Callable[[Any], Any]  # one request in, its one response out


@pytest.fixture(scope="module")
def v1_messages(tmp_path_factory: pytest.TempPathFactory) -> tuple[type[Any], type[Any]]:
    """(ServerReflectionRequest, ServerReflectionResponse) of grpc.reflection.v1."""
    tmp = tmp_path_factory.mktemp("v1")
    (tmp / "reflection.proto").write_text(V1_PROTO)
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{tmp}",
                    f"--descriptor_set_out={tmp / 'set.pb'}", "reflection.proto"], check=True)
    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_pb2.FileDescriptorSet.FromString((tmp / "set.pb").read_bytes()).file:
        pool.Add(file)
    return tuple(  # type: ignore[return-value]  # a pair, as the names say
        message_factory.GetMessageClass(pool.FindMessageTypeByName(f"grpc.reflection.v1.{n}"))
        for n in ("ServerReflectionRequest", "ServerReflectionResponse"))


@pytest.fixture(params=["v1", "v1alpha"])
def reflect(request: pytest.FixtureRequest, service: ServiceProcess,
            v1_messages: tuple[type[Any], type[Any]]) -> Iterator[tuple[type[Any], Reflect]]:
    """(request class, call) of one reflection version on a running service."""
    version = request.param
    req, resp = (v1_messages if version == "v1" else
                 (reflection_pb2.ServerReflectionRequest, reflection_pb2.ServerReflectionResponse))
    with grpc.insecure_channel(service.target) as channel:
        info = channel.stream_stream(
            f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
            request_serializer=req.SerializeToString, response_deserializer=resp.FromString)

        def call(message: Any) -> Any:
            (reply,) = list(info(iter([message]), timeout=10))
            return reply

        yield req, call


FileProto = descriptor_pb2.FileDescriptorProto


def _files(req: type[Any], call: Reflect, symbol: str) -> dict[str, FileProto]:
    """The file that declares `symbol` and every file it depends on, by name."""
    files: dict[str, FileProto] = {}
    wanted: list[Any] = [req(file_containing_symbol=symbol)]
    while wanted:
        reply = call(wanted.pop())
        assert reply.WhichOneof("message_response") == "file_descriptor_response", reply
        for raw in reply.file_descriptor_response.file_descriptor_proto:
            file = FileProto.FromString(raw)
            files[file.name] = file
        wanted = [req(file_by_filename=d) for f in files.values() for d in f.dependency
                  if d not in files]
    return files


def _pool(files: dict[str, FileProto]) -> descriptor_pool.DescriptorPool:
    """A fresh pool holding `files`, each added after its dependencies."""
    pool = descriptor_pool.DescriptorPool()
    added: set[str] = set()

    def add(name: str) -> None:
        if name not in added:
            added.add(name)
            for dependency in files[name].dependency:
                add(dependency)
            pool.Add(files[name])

    for name in files:
        add(name)
    return pool


def test_reflection_lists_the_services_under_both_versions(
        reflect: tuple[type[Any], Reflect]) -> None:
    """v1 and v1alpha clients both list the game service, health and both reflection names."""
    req, call = reflect
    reply = call(req(list_services=""))
    names = {s.name for s in reply.list_services_response.service}
    assert {"risk.v1.RiskService", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names


def test_reflection_resolves_the_game_service(reflect: tuple[type[Any], Reflect]) -> None:
    """A client resolves risk.v1.RiskService with every file it needs, enough to build a call."""
    req, call = reflect
    pool = _pool(_files(req, call, "risk.v1.RiskService"))
    submit = pool.FindServiceByName("risk.v1.RiskService").methods_by_name["SubmitAction"]
    assert submit.input_type.full_name == "risk.v1.SubmitActionRequest"
    assert "expected_version" in submit.input_type.fields_by_name


def test_reflection_serves_the_error_reasons(reflect: tuple[type[Any], Reflect]) -> None:
    """errors.proto is served: a client looks up risk.v1.ServiceReason and RuleReason and gets
    every reason, each with its (risk.v1.status) option."""
    req, call = reflect
    files = _files(req, call, "risk.v1.ServiceReason")
    errors = files["risk/v1/errors.proto"]
    served = {e.name: {v.name for v in e.value} for e in errors.enum_type}
    assert "TOO_MANY_STREAMS" in served["ServiceReason"]
    assert "NOT_YOUR_TURN" in served["RuleReason"]
    contract = descriptor_pb2.FileDescriptorProto()
    errors_pb2.DESCRIPTOR.CopyToProto(contract)
    assert errors == contract, "served as generated: every value with its (status) option"
    assert [x.name for x in errors.extension] == ["status"]
    assert "risk/v1/errors.proto" in _files(req, call, "risk.v1.RuleReason")


def test_reflection_v1_describes_itself_under_v1(
        v1_messages: tuple[type[Any], type[Any]], service: ServiceProcess) -> None:
    """A v1 tool that describes the reflection service gets grpc.reflection.v1's own file."""
    req, resp = v1_messages
    with grpc.insecure_channel(service.target) as channel:
        info = channel.stream_stream(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            request_serializer=req.SerializeToString, response_deserializer=resp.FromString)
        (reply,) = list(info(iter([req(
            file_containing_symbol="grpc.reflection.v1.ServerReflection")]), timeout=10))
    (raw,) = reply.file_descriptor_response.file_descriptor_proto
    file = descriptor_pb2.FileDescriptorProto.FromString(raw)
    assert file.package == "grpc.reflection.v1"
    (method,) = file.service[0].method
    assert method.input_type == ".grpc.reflection.v1.ServerReflectionRequest"
    assert method.client_streaming and method.server_streaming
    pool = _pool({file.name: file})
    assert pool.FindMessageTypeByName("grpc.reflection.v1.ServerReflectionResponse")

