"""The one place where errors become gRPC statuses with a google.rpc.ErrorInfo detail.

Which error a client is told (`classify`) and the detail it carries (`error_info`) are the
transports' shared vocabulary (server.calls); this module only puts them in gRPC's form: a
google.rpc.Status, which grpcio-status (`grpc_status.rpc_status.to_status`) turns into the
code, message and `grpc-status-details-bin` trailer, the form its `from_call` reads back.
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import status_pb2
from grpc_status import rpc_status

from risk_service.errors import ServiceError
from risk_service.server.calls import DOMAIN, classify, error_info

__all__ = ["DOMAIN", "classify", "code_number", "rich_status", "status_of"]


def code_number(name: str) -> int:
    """The number of the gRPC status called `name` (`INVALID_ARGUMENT`: 3)."""
    code: grpc.StatusCode = getattr(grpc.StatusCode, name)
    number: int = code.value[0]
    return number


def _status(error: ServiceError) -> status_pb2.Status:
    """`error` as a google.rpc.Status: its code, message and ErrorInfo."""
    detail = any_pb2.Any()
    detail.Pack(error_info(error))
    return status_pb2.Status(code=code_number(error.code.value), message=error.message,
                             details=[detail])


def rich_status(error: ServiceError) -> bytes:
    """The serialised google.rpc.Status of `error`: what the trailer of a call it ends
    carries, and what a session's SessionError carries for a refused action."""
    data: bytes = _status(error).SerializeToString()
    return data


def status_of(error: ServiceError) -> tuple[grpc.StatusCode, str, tuple[tuple[str, bytes], ...]]:
    """(code, message, trailing metadata carrying the rich status)."""
    status: grpc.Status = rpc_status.to_status(_status(error))
    return status.code, status.details, status.trailing_metadata
