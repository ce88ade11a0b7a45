"""Server reflection under both of its names, grpc.reflection.v1 and grpc.reflection.v1alpha.

grpcio-reflection (1.85) implements only v1alpha (grpc/grpc#38576), while newer clients ask for
v1 and some know nothing else. v1 is the same protocol under another package name, identical on
the wire, so the one v1alpha servicer answers both, and the descriptor pool learns v1's file (the
v1alpha file renamed) so that a v1 client describing the reflection service gets v1's own
definitions. When grpcio-reflection ships v1, its module replaces `_add_v1_file`.

Reflection answers from the process's descriptor pool, which holds the files of the modules
imported: errors.proto is imported by no served service, so it is imported here to be served.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

from risk_proto.risk.v1 import errors_pb2  # noqa: F401  # served: see the module doc

V1ALPHA = reflection_pb2.DESCRIPTOR.package
V1 = "grpc.reflection.v1"
V1_FILE = "grpc/reflection/v1/reflection.proto"
V1_SERVICE_NAME = f"{V1}.ServerReflection"


def _renamed(type_name: str) -> str:
    prefix = f".{V1ALPHA}."
    return f".{V1}.{type_name[len(prefix):]}" if type_name.startswith(prefix) else type_name


def _add_v1_file(pool: descriptor_pool.DescriptorPool) -> None:
    """Add grpc/reflection/v1/reflection.proto to `pool` (once per process)."""
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    file.name, file.package = V1_FILE, V1
    file.ClearField("options")  # v1alpha's language packages; v1's differ and serve nothing here
    for message in file.message_type:
        for field in message.field:
            if field.HasField("type_name"):  # setting it, even to "", would claim a message type
                field.type_name = _renamed(field.type_name)
    for service in file.service:
        for method in service.method:
            method.input_type = _renamed(method.input_type)
            method.output_type = _renamed(method.output_type)
    pool.Add(file)


def enable(server: grpc.aio.Server, service_names: Iterable[str]) -> None:
    """Serve reflection for `service_names` (and itself) under v1 and v1alpha."""
    pool = descriptor_pool.Default()
    _add_v1_file(pool)
    names = (*service_names, V1_SERVICE_NAME, reflection.SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer(names, pool=pool)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.method_handlers_generic_handler(V1_SERVICE_NAME, {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
        ),
    })
    server.add_generic_rpc_handlers((v1,))
