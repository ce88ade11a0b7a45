"""The Python SDK, bots and command line for the risk.v1 game service.

`RiskClient` is the async client; `errors` holds its one error hierarchy; `actions` and
`options` build the protobuf messages it sends; `bots` plays seats through the public API;
`render` puts games and events into words; `cli` is the `risk` command.
"""

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
