"""How the service reaches an external Redis: its ACL user and password, and TLS.

REDIS_URL says where Redis is; the credentials and certificates have settings of their own, so
that the URL can sit in a ConfigMap while the password comes from a Secret and the certificate
files from a mounted one (deploy/README.md, "Redis security"). This module turns those settings
into what every Redis client of the process takes (redis-py's keyword arguments for the pool,
the feed readers and a cluster client; an `ssl.SSLContext` for the hot-path pipe), and checks
them once at start-up. A wrong password or a certificate that does not verify is a
configuration mistake that no retry mends, so the service then refuses to start and names the
setting to fix; an unreachable Redis is not: the service starts NOT_SERVING and waits for it.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import (
    AuthenticationError,
    NoPermissionError,
    RedisClusterException,
    RedisError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from risk_service.settings import Settings

_ALERT_WAIT_S = 1.0  # how long _tls_alert listens for a refusal after the handshake


@dataclass(frozen=True)
class RedisAccess:
    url: str
    username: str = ""
    password: str = ""
    # set for rediss:// URLs: what the pipe connects with; redis-py builds its own from the
    # same files (client_kwargs), so both verify alike
    tls: ssl.SSLContext | None = None
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    check_hostname: bool = True

    @classmethod
    def from_settings(cls, settings: Settings, url: str) -> RedisAccess:
        """The access `settings` describe to the Redis at `url`; raises RuntimeError naming
        the setting at fault (a TLS file with a plain URL, a password given twice, a CA or
        key file that cannot be loaded)."""
        parts = urlsplit(url)
        if settings.redis_username and parts.username:
            raise RuntimeError("the Redis user is given twice: in REDIS_URL and in "
                               "RISK_REDIS_USERNAME; keep one")
        password = _password(settings)
        if password and parts.password:
            raise RuntimeError("the Redis password is given twice: in REDIS_URL and in "
                               "RISK_REDIS_PASSWORD(_FILE); keep one")
        files = {"RISK_REDIS_TLS_CA_FILE": settings.redis_tls_ca_file,
                 "RISK_REDIS_TLS_CERT_FILE": settings.redis_tls_cert_file,
                 "RISK_REDIS_TLS_KEY_FILE": settings.redis_tls_key_file}
        given = [name for name, path in files.items() if path]
        if parts.scheme != "rediss":
            if given:
                raise RuntimeError(f"{', '.join(given)} need a TLS URL: REDIS_URL is "
                                   f"{parts.scheme}://, use rediss://")
            return cls(url, settings.redis_username, password)
        if bool(settings.redis_tls_cert_file) != bool(settings.redis_tls_key_file):
            raise RuntimeError("RISK_REDIS_TLS_CERT_FILE and RISK_REDIS_TLS_KEY_FILE go together")
        return cls(
            url, settings.redis_username, password,
            tls=_tls_context(settings), ca_file=settings.redis_tls_ca_file,
            cert_file=settings.redis_tls_cert_file, key_file=settings.redis_tls_key_file,
            check_hostname=settings.redis_tls_check_hostname,
        )

    def client_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for redis-py's `from_url` (Redis, pools, RedisCluster)."""
        kwargs: dict[str, Any] = {}
        if self.username:
            kwargs["username"] = self.username
        if self.password:
            kwargs["password"] = self.password
        if self.tls is not None:
            kwargs["ssl_check_hostname"] = self.check_hostname
            if self.ca_file:
                kwargs["ssl_ca_certs"] = self.ca_file
            if self.cert_file:
                kwargs["ssl_certfile"] = self.cert_file
                kwargs["ssl_keyfile"] = self.key_file
        return kwargs

    def describe(self) -> str:
        """`rediss://host:port as user risk`: where and who, never the password."""
        parts = urlsplit(self.url)
        user = self.username or parts.username
        where = f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}"
        return f"{where} as user {user}" if user else where


def _password(settings: Settings) -> str:
    if not settings.redis_password_file:
        return settings.redis_password
    if settings.redis_password:
        raise RuntimeError("RISK_REDIS_PASSWORD and RISK_REDIS_PASSWORD_FILE are both set; "
                           "keep one")
    path = settings.redis_password_file
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise RuntimeError(f"RISK_REDIS_PASSWORD_FILE={path}: {_reason(exc)}") from None
    # a file written by `echo` or an editor ends with a newline that is not the password's
    password = text.rstrip("\r\n")
    if not password:
        raise RuntimeError(f"RISK_REDIS_PASSWORD_FILE={path} is empty")
    return password


def _tls_context(settings: Settings) -> ssl.SSLContext:
    ca, cert, key = (settings.redis_tls_ca_file, settings.redis_tls_cert_file,
                     settings.redis_tls_key_file)
    try:
        context = ssl.create_default_context(cafile=ca or None)
    except (OSError, ssl.SSLError) as exc:
        raise RuntimeError(f"RISK_REDIS_TLS_CA_FILE={ca}: cannot load it as a PEM CA bundle "
                           f"({_reason(exc)})") from None
    context.check_hostname = settings.redis_tls_check_hostname
    if cert:
        try:
            context.load_cert_chain(cert, key)
        except (OSError, ssl.SSLError) as exc:
            raise RuntimeError(f"RISK_REDIS_TLS_CERT_FILE={cert} with RISK_REDIS_TLS_KEY_FILE="
                               f"{key}: cannot load them as a PEM certificate and its key "
                               f"({_reason(exc)})") from None
    return context


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"certificate verify failed: {exc.verify_message}"
    if isinstance(exc, ssl.SSLError) and exc.reason:
        return str(exc.reason)
    return getattr(exc, "strerror", None) or str(exc)


def _cause(exc: BaseException, found: Callable[[BaseException], bool]) -> BaseException | None:
    """The first error in `exc`'s chain of causes (itself included) that `found` accepts:
    redis-py wraps the socket's error in its own."""
    seen: BaseException | None = exc
    while seen is not None:
        if found(seen):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _tls_failure(exc: BaseException) -> ssl.SSLError | None:
    """The TLS error behind a redis-py connection error, if that is what it was."""
    failure = _cause(exc, lambda e: isinstance(e, ssl.SSLError))
    return failure if isinstance(failure, ssl.SSLError) else None


def _dropped(exc: BaseException) -> bool:
    """Whether a connection was accepted and then dropped (not refused, not timed out)."""
    return _cause(exc, lambda e: isinstance(e, ConnectionResetError)
                  or "closed by server" in str(e)) is not None


async def check_access(client: aioredis.Redis | RedisCluster, access: RedisAccess,
                       timeout_s: float = 5.0) -> bool:
    """PING Redis once through `client`. Raises RuntimeError for refused credentials or a
    failed TLS handshake; answers False when Redis is only unreachable (not fatal)."""
    try:
        async with asyncio.timeout(timeout_s):
            await client.ping()
    except (RedisClusterException, RedisError, OSError, TimeoutError) as exc:
        # a cluster client that reached no node wraps the last node's error in its own (a
        # RedisClusterException is no RedisError)
        error = (exc.__cause__ or exc) if isinstance(exc, RedisClusterException) else exc
        _refuse_misconfigured(error, access)
        if access.tls is not None and isinstance(error, RedisConnectionError) and \
                (alert := await _tls_alert(access, timeout_s)) is not None:
            _refuse_tls(alert, access)
        return False
    return True


async def _tls_alert(access: RedisAccess, timeout_s: float) -> ssl.SSLError | None:
    """The TLS alert with which Redis refuses this client, if it does: one more connection
    with the same context, listened to for `_ALERT_WAIT_S` without a word sent.

    Under TLS 1.3 the client's handshake is over before the server has judged its
    certificate, and a refusal (none given, or one it does not trust) comes as an alert
    after it. redis-py reads that alert when it waits for a reply; when the alert has
    closed the connection before redis-py's first write, all it says is "Connection closed
    by the server before write" (a start in six, here), which is also what an outage looks
    like. Nor may the probe write: Redis closes with the write unread, its kernel answers
    with a reset, and the reset discards the alert before it is read. Sent nothing, a
    refused client reads the alert; an accepted one reads nothing until the wait ends."""
    parts = urlsplit(access.url)
    try:
        async with asyncio.timeout(timeout_s):
            reader, writer = await asyncio.open_connection(
                parts.hostname, parts.port or 6379, ssl=access.tls)
            try:
                await asyncio.wait_for(reader.read(1), _ALERT_WAIT_S)
            finally:
                writer.close()
    except ssl.SSLError as exc:
        return exc
    except (OSError, TimeoutError):  # accepted, or unreachable after all: nothing to fix
        return None
    return None


def _refuse_misconfigured(exc: BaseException, access: RedisAccess) -> None:
    """Raise RuntimeError naming the setting to fix when `exc` (a failed PING) comes from a
    mistake no retry mends: refused credentials or rights, a TLS failure, plaintext to TLS."""
    if isinstance(exc, AuthenticationError):
        raise RuntimeError(
            f"Redis at {access.describe()} refused the credentials ({exc}); check "
            "RISK_REDIS_USERNAME and RISK_REDIS_PASSWORD (or the user and password in REDIS_URL)"
        ) from None
    if isinstance(exc, NoPermissionError):
        raise RuntimeError(
            f"Redis at {access.describe()} accepted the credentials but the user may not run "
            f"the service's commands ({exc}); see the ACL in deploy/README.md"
        ) from None
    if not isinstance(exc, RedisConnectionError):
        return
    failure = _tls_failure(exc)
    if failure is None:
        if access.tls is None and _dropped(exc):
            # a TLS port answers a plaintext PING by dropping the connection, and keeps
            # doing so through every retry: that is a setting to fix, not an outage
            raise RuntimeError(
                f"Redis at {access.describe()} dropped the connection at once ({exc}); if "
                "it serves TLS on that port, use a rediss:// URL") from None
        return
    _refuse_tls(failure, access)


def _refuse_tls(failure: ssl.SSLError, access: RedisAccess) -> None:
    setting = ("RISK_REDIS_TLS_CERT_FILE and RISK_REDIS_TLS_KEY_FILE"
               if "certificate required" in str(failure).lower()
               or "unknown ca" in str(failure).lower()
               else "RISK_REDIS_TLS_CA_FILE and RISK_REDIS_TLS_CHECK_HOSTNAME")
    raise RuntimeError(
        f"TLS with Redis at {access.describe()} failed ({_reason(failure)}); check "
        f"{setting}") from None
