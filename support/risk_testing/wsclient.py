"""A WebSocket client over a plain asyncio connection, as a test or benchmark needs one: it
speaks RFC 6455 itself (masked frames out, unmasked in), so a test sees exactly what goes over
the socket and can also send what a well-behaved library never would."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import ssl
import struct
from dataclasses import dataclass

BINARY, TEXT, CLOSE, PING, PONG = 0x2, 0x1, 0x8, 0x9, 0xA


@dataclass
class Message:
    opcode: int
    data: bytes

    @property
    def close_code(self) -> int:
        return int(struct.unpack_from("!H", self.data)[0]) if len(self.data) >= 2 else 1005

    @property
    def close_reason(self) -> str:
        return self.data[2:].decode()


class Refused(Exception):
    """The server answered the upgrade with an HTTP status instead of 101."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body[:200]!r}")
        self.status = status
        self.headers = headers
        self.body = body


def unmask(payload: bytes, key: bytes) -> bytes:
    """A payload XORed with a masking key (masking and unmasking are one XOR), four bytes
    at a time as one integer."""
    size = len(payload)
    if not size:
        return b""
    mask = int.from_bytes((key * (size // 4 + 1))[:size], "big")
    return (int.from_bytes(payload, "big") ^ mask).to_bytes(size, "big")


def client_frame(opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True,
                 rsv: int = 0) -> bytes:
    size = len(payload)
    first = (0x80 if fin else 0) | rsv | opcode
    mask_bit = 0x80 if masked else 0
    if size < 126:
        head = bytes((first, mask_bit | size))
    elif size < 1 << 16:
        head = struct.pack("!BBH", first, mask_bit | 126, size)
    else:
        head = struct.pack("!BBQ", first, mask_bit | 127, size)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + unmask(payload, key)  # masking and unmasking are one XOR


def upgrade_request(host: str, port: int, path: str, *, token: str | None = None,
                    subprotocols: tuple[str, ...] = (), origin: str | None = None,
                    extra: tuple[tuple[str, str], ...] = (), version: str = "13") -> bytes:
    """The HTTP/1.1 request that asks for the upgrade to a WebSocket on `path`."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Version: {version}",
             f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    if subprotocols:
        lines.append(f"Sec-WebSocket-Protocol: {', '.join(subprotocols)}")
    if origin is not None:
        lines.append(f"Origin: {origin}")
    lines += [f"{name}: {value}" for name, value in extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def server_frame_at(buffer: bytes, at: int) -> tuple[int, bytes, int] | None:
    """The whole (unmasked) frame that starts at `at` in `buffer`: its opcode, its payload
    and where the next begins; None while it has not all arrived."""
    if len(buffer) - at < 2:
        return None
    size, head = buffer[at + 1] & 0x7F, 2
    if size == 126:
        if len(buffer) - at < 4:
            return None
        size, head = struct.unpack_from("!H", buffer, at + 2)[0], 4
    elif size == 127:
        if len(buffer) - at < 10:
            return None
        size, head = struct.unpack_from("!Q", buffer, at + 2)[0], 10
    end = at + head + size
    if len(buffer) < end:
        return None
    return buffer[at] & 0x0F, buffer[at + head:end], end


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 headers: dict[str, str]) -> None:
        self.reader = reader
        self.writer = writer
        self.headers = headers  # the 101 answer's, lower-cased names

    @classmethod
    async def connect(cls, host: str, port: int, path: str, *, token: str | None = None,
                      subprotocols: tuple[str, ...] = (), origin: str | None = None,
                      extra: tuple[tuple[str, str], ...] = (), version: str = "13",
                      tls: ssl.SSLContext | None = None, receive_buffer: int = 0,
                      source: str | None = None) -> WebSocket:
        """`tls`: wss (the HTTP port with RISK_TLS_CERT_FILE), trusting what it trusts.
        `receive_buffer`: the socket's SO_RCVBUF, set before it connects (a small TCP window).
        `source`: the local address to connect from (another 127.x.y.z: one address has
        about 28,000 ephemeral ports to one server port)."""
        if receive_buffer:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (host, port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 22, ssl=tls,
                                                           server_hostname=host if tls else None)
        else:
            reader, writer = await asyncio.open_connection(
                host, port, limit=1 << 22, ssl=tls,
                local_addr=(source, 0) if source is not None else None)
        writer.write(upgrade_request(host, port, path, token=token, subprotocols=subprotocols,
                                     origin=origin, extra=extra, version=version))
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status_line, *header_lines = head.strip().split("\r\n")
        status = int(status_line.split(" ")[1])
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if status != 101:
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            writer.close()
            raise Refused(status, headers, body)
        return cls(reader, writer, headers)

    def send(self, data: bytes, opcode: int = BINARY) -> None:
        self.writer.write(client_frame(opcode, data))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def receive(self, *, pongs: bool = False) -> Message:
        """The next data or close message (pings are answered, pongs skipped unless
        `pongs`)."""
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            assert not second & 0x80, "a server's frames are never masked"
            payload = await self.reader.readexactly(size)
            opcode = first & 0x0F
            if opcode == PING:
                self.writer.write(client_frame(PONG, payload))
                continue
            if opcode == PONG and not pongs:
                continue
            return Message(opcode, payload)

    async def close(self, code: int = 1000) -> None:
        """Close as a polite client does: send the close, wait (briefly) for the answer."""
        try:
            self.writer.write(client_frame(CLOSE, struct.pack("!H", code)))
            async with asyncio.timeout(2):
                while (await self.receive()).opcode != CLOSE:
                    pass
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            pass
        finally:
            self.writer.close()
