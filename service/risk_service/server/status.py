"""The one place where errors become gRPC statuses with a google.rpc.ErrorInfo detail."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from redis.exceptions import RedisError

from risk_rules.engine import IllegalAction
from risk_rules.wire import VariantNotServed, WireError
from risk_service.errors import Code, ServiceError, ServiceReason

DOMAIN = "risk.v1"
DETAILS_KEY = "grpc-status-details-bin"


def classify(exc: BaseException) -> ServiceError | None:
    """The client-facing error for `exc`, or None when it is the service's own fault."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, IllegalAction):
        return ServiceError(Code.FAILED_PRECONDITION, exc.reason, exc.message)
    if isinstance(exc, VariantNotServed):
        return ServiceError(Code.UNIMPLEMENTED, ServiceReason.VARIANT_NOT_AVAILABLE, str(exc))
    if isinstance(exc, WireError):
        return ServiceError(Code.INVALID_ARGUMENT, ServiceReason.MALFORMED_REQUEST, str(exc))
    if isinstance(exc, RedisError):
        return ServiceError(Code.UNAVAILABLE, ServiceReason.STORE_UNAVAILABLE,
                            "the game store is unreachable or busy; retry")
    if isinstance(exc, NotImplementedError):
        # a method of the contract whose servicer is still the generated default
        return ServiceError(Code.UNIMPLEMENTED, ServiceReason.METHOD_NOT_AVAILABLE,
                            "this build does not serve this method yet")
    return None


def status_of(error: ServiceError) -> tuple[grpc.StatusCode, str, tuple[tuple[str, bytes], ...]]:
    """(code, message, trailing metadata carrying the rich status)."""
    code: grpc.StatusCode = getattr(grpc.StatusCode, error.code.value)
    info = error_details_pb2.ErrorInfo(
        reason=error.reason, domain=DOMAIN, metadata={"message": error.message, **error.metadata}
    )
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(code=code.value[0], message=error.message, details=[detail])
    return code, error.message, ((DETAILS_KEY, status.SerializeToString()),)
