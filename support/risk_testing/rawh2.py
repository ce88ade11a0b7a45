"""HTTP/2 written by hand, for clients that misbehave below gRPC: calls that are opened and
never finished. Used by tests/service/test_abuse.py and bench/abuse.py."""

from __future__ import annotations

import struct


def _frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(
        ">I", stream) + payload


def _literal(name: str, value: str) -> bytes:
    """An HPACK 'literal header field without indexing, new name' (lengths < 127)."""
    return b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()


def half_sent_calls(authority: str, calls: int) -> bytes:
    """Client preface, SETTINGS, the acknowledgement of the server's SETTINGS (which the
    server sends first), then `calls` HEADERS of a Ping without END_STREAM and no DATA: calls
    that are never finished, on a connection that never answers a ping."""
    block = b"".join(_literal(k, v) for k, v in (
        (":method", "POST"), (":scheme", "http"), (":path", "/risk.v1.RiskService/Ping"),
        (":authority", authority), ("content-type", "application/grpc"), ("te", "trailers")))
    out = [b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", _frame(4, 0, 0, b""), _frame(4, 1, 0, b"")]
    out += [_frame(1, 0x4, 1 + 2 * i, block) for i in range(calls)]  # END_HEADERS only
    return b"".join(out)
