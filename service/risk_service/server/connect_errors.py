"""A refusal in the HTTP port's forms, written once for its Connect calls (server.http_port)
and its WebSockets (server.websocket): the `ConnectError` connectrpc answers a call with
(`connect_error`), and Connect's error JSON (`error_body`) with the call's
`google.rpc.ErrorInfo` both as Connect's base64 `value` and, readable, as its `debug`
(`error_debug`). connectrpc writes `debug` only for detail types it has descriptors for, and
the google.rpc ones, in the other protobuf runtime, are not: so a unary Connect error's JSON
is this module's body too (http_port's `Cors` writes it in place of connectrpc's), and so is
the error of a Connect stream's end-of-stream message (`end_of_stream`): a JSON client reads
the reason without decoding base64 protobuf on any path.
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
from typing import Any

from connectrpc.code import Code as ConnectCode
from connectrpc.errors import ConnectError, ErrorDetail
from google.rpc import error_details_pb2
from protobuf.wkt import Any as AnyMessage

from risk_service.errors import ServiceError
from risk_service.server import calls

ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo"


def connect_error(error: ServiceError) -> ConnectError:
    """A refusal in Connect's form: its code, its message, the same ErrorInfo as over gRPC."""
    info = calls.error_info(error).SerializeToString()
    return ConnectError(ConnectCode(error.code.value.lower()), error.message,
                        [ErrorDetail(AnyMessage(type_url=ERROR_INFO_TYPE, value=info))])


def error_debug(info: error_details_pb2.ErrorInfo) -> dict[str, Any]:
    """An ErrorInfo as Connect's `debug` of its detail: the JSON a client reads it from."""
    return {"reason": info.reason, "domain": info.domain, "metadata": dict(info.metadata)}


def error_body(error: ServiceError | None) -> bytes:
    """A refusal in Connect's error JSON, with the ErrorInfo both as Connect's `value` and,
    readable, as its `debug`. None: the service's own fault, told as `internal` and nothing
    more."""
    if error is None:
        return json.dumps({"code": "internal", "message": "internal error"}).encode()
    info = calls.error_info(error)
    detail = {"type": ERROR_INFO_TYPE.rpartition("/")[2],
              "value": base64.b64encode(info.SerializeToString()).decode().rstrip("="),
              "debug": error_debug(info)}
    return json.dumps({"code": error.code.value.lower(), "message": error.message,
                       "details": [detail]}, ensure_ascii=False).encode()


_END_STREAM = 0x02  # a Connect stream envelope's flags: the end-of-stream message
_COMPRESSED = 0x01  # its data compressed (gzip: the only encoding the port accepts)


def end_of_stream(envelope: bytes, error: ServiceError) -> bytes:
    """A Connect stream's end-of-stream message (`envelope`, as connectrpc wrote it) with
    `error` in `error_body`'s form: connectrpc's own has the detail without its `debug`.
    Its metadata (trailers) is kept; anything but an end-of-stream message is returned as
    it came."""
    if len(envelope) < 5 or not envelope[0] & _END_STREAM:
        return envelope
    flags, size = struct.unpack(">BI", envelope[:5])
    data = envelope[5:5 + size]
    compressed = bool(flags & _COMPRESSED)
    end = json.loads(gzip.decompress(data) if compressed else data)
    end["error"] = json.loads(error_body(error))
    data = json.dumps(end, ensure_ascii=False).encode()
    if compressed:
        data = gzip.compress(data)
    return struct.pack(">BI", flags, len(data)) + data + envelope[5 + size:]
