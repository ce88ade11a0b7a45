"""The `risk` command's stored login: one player token, kept in a file of the user's.

`risk login` writes it, every later command reads it when neither `--token` nor RISK_TOKEN is
given, `risk logout` removes it. The file is `$XDG_CONFIG_HOME/risk/credentials` (without
XDG_CONFIG_HOME: `~/.config/risk/credentials`; RISK_CREDENTIALS names another), JSON, written
whole to a temporary file created with mode 0600 and renamed over the old one, so it is never
readable by others, not even for a moment, and a crash never leaves half a file. It holds the
service's address beside the token: a token is only good at the service that issued it (or that
trusts its identity provider), so it is sent only there.

This module is imported for every command line (cli.py), so it uses the standard library only.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Login:
    """A stored player login: the player, their token, where it is good and until when."""

    player_id: str
    token: str
    target: str
    expires_at_ms: int = 0


class CredentialsMistake(Exception):
    """A credentials file that cannot be read or written, or a token that is not a JWT."""


def credentials_path(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    if env.get("RISK_CREDENTIALS"):
        return env["RISK_CREDENTIALS"]
    config = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "risk", "credentials")


def load(environ: Mapping[str, str] | None = None) -> Login | None:
    """The stored login, or None when there is none (a file that is not ours is a mistake)."""
    path = credentials_path(environ)
    try:
        with open(path, encoding="utf-8") as source:
            import json  # noqa: PLC0415 - only when there is a stored login

            data = json.load(source)
        return Login(str(data["player_id"]), str(data["token"]), str(data["target"]),
                     int(data.get("expires_at_ms", 0)))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CredentialsMistake(f"cannot read {path}: {(exc.strerror or exc)}".lower()) from None
    except (ValueError, KeyError, TypeError):
        raise CredentialsMistake(f"{path} is not a risk login (remove it with `risk logout`)"
                                 ) from None


def save(login: Login, environ: Mapping[str, str] | None = None) -> str:
    """Store `login` (replacing any), readable by the user alone; returns the file's path."""
    import json  # noqa: PLC0415 - only `risk login` writes the file
    import tempfile  # noqa: PLC0415

    path = credentials_path(environ)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        # mkstemp creates the file with mode 0600 before anything is written to it
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".credentials-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(asdict(login), out, indent=1)
                out.write("\n")
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise CredentialsMistake(f"cannot write {path}: {(exc.strerror or exc)}".lower()
                                 ) from None
    return path


def remove(environ: Mapping[str, str] | None = None) -> str | None:
    """Forget the stored login; returns the file's path, or None when there was none."""
    path = credentials_path(environ)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CredentialsMistake(f"cannot remove {path}: {(exc.strerror or exc)}".lower()
                                 ) from None
    return path


def claims(token: str) -> dict[str, object]:
    """A JWT's claims as it states them, NOT verified: the service verifies every token it
    is sent; the command line only wants to say whose token it stores and until when."""
    import json  # noqa: PLC0415

    parts = token.split(".")
    if len(parts) != 3:
        raise CredentialsMistake("the token is not a JSON Web Token (three parts joined by dots)")
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        decoded = json.loads(payload)
    except (binascii.Error, ValueError):
        raise CredentialsMistake("the token's claims are not base64url JSON") from None
    if not isinstance(decoded, dict) or not isinstance(decoded.get("sub"), str):
        raise CredentialsMistake("the token names no player (no `sub` claim)")
    return decoded
