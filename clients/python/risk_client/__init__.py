"""The Python SDK, bots and command line for the risk.v1 game service.

`RiskClient` is the async client; `errors` holds its one error hierarchy; `actions` and
`options` build the protobuf messages it sends; `bots` plays seats through the public API;
`render` puts games and events into words; `cli` is the `risk` command.

The names below are imported on first use (PEP 562), so that importing one module of the
package (`risk_client.cli` for every `risk` command) does not import the SDK, gRPC and every
engine with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from risk_client import actions
    from risk_client.bots import play_game, play_seat
    from risk_client.client import CONFLICT_BACKOFF, Backoff, RiskClient
    from risk_client.errors import (
        IllegalMove,
        InvalidArgument,
        NotFound,
        PermissionDenied,
        ResourceExhausted,
        RiskError,
        StaleVersion,
        Unauthenticated,
        Unavailable,
        Unimplemented,
    )
    from risk_client.options import classic_options

__all__ = [
    "CONFLICT_BACKOFF",
    "Backoff",
    "IllegalMove",
    "InvalidArgument",
    "NotFound",
    "PermissionDenied",
    "ResourceExhausted",
    "RiskClient",
    "RiskError",
    "StaleVersion",
    "Unauthenticated",
    "Unavailable",
    "Unimplemented",
    "actions",
    "classic_options",
    "play_game",
    "play_seat",
]

# name -> the module it comes from (`actions` is a module itself)
_FROM = {
    "actions": "risk_client.actions",
    "play_game": "risk_client.bots",
    "play_seat": "risk_client.bots",
    "CONFLICT_BACKOFF": "risk_client.client",
    "Backoff": "risk_client.client",
    "RiskClient": "risk_client.client",
    "classic_options": "risk_client.options",
    **{name: "risk_client.errors" for name in (
        "IllegalMove", "InvalidArgument", "NotFound", "PermissionDenied", "ResourceExhausted",
        "RiskError", "StaleVersion", "Unauthenticated", "Unavailable", "Unimplemented")},
}


def __getattr__(name: str) -> Any:
    module = _FROM.get(name)
    if module is None:
        raise AttributeError(f"module 'risk_client' has no attribute {name!r}")
    imported = importlib.import_module(module)
    value = imported if name == "actions" else getattr(imported, name)
    globals()[name] = value  # later lookups skip this function
    return value
