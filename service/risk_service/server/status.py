"""The one place where errors become gRPC statuses with a google.rpc.ErrorInfo detail.

Which error a client is told (`classify`) and the detail it carries (`error_info`) are the
transports' shared vocabulary (server.calls); this module only puts them in gRPC's form.
"""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import status_pb2

from risk_service.errors import ServiceError
from risk_service.server.calls import DOMAIN, classify, error_info

__all__ = ["DETAILS_KEY", "DOMAIN", "classify", "code_number", "rich_status", "status_of"]

DETAILS_KEY = "grpc-status-details-bin"


def code_number(name: str) -> int:
    """The number of the gRPC status called `name` (`INVALID_ARGUMENT`: 3)."""
    code: grpc.StatusCode = getattr(grpc.StatusCode, name)
    number: int = code.value[0]
    return number


def rich_status(error: ServiceError) -> bytes:
    """The serialised google.rpc.Status of `error`: what the trailer of a call it ends
    carries, and what a session's SessionError carries for a refused action."""
    detail = any_pb2.Any()
    detail.Pack(error_info(error))
    status = status_pb2.Status(code=code_number(error.code.value), message=error.message,
                               details=[detail])
    data: bytes = status.SerializeToString()
    return data


def status_of(error: ServiceError) -> tuple[grpc.StatusCode, str, tuple[tuple[str, bytes], ...]]:
    """(code, message, trailing metadata carrying the rich status)."""
    code: grpc.StatusCode = getattr(grpc.StatusCode, error.code.value)
    return code, error.message, ((DETAILS_KEY, rich_status(error)),)
