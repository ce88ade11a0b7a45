"""Text boards, one module per variant, each its descriptor's renderer hook: view in, text out.

A renderer is `board_text(view, *, names, colour, width, viewer, deciding) -> str` (see
`VariantDescriptor.renderer`); `as_view` gives it the engine's view dataclass whether it was
handed the protobuf message (from the service) or the dataclass (from the engine, in tests).
"""

from __future__ import annotations

from typing import TypeVar

from google.protobuf.message import Message

from risk_rules import wire

V = TypeVar("V")


def as_view(message: Message | V, view_type: type[V]) -> V:
    """The view dataclass: decoded from its message with the wire codec, or as given."""
    if isinstance(message, Message):
        view: V = wire.from_message(message, view_type)
        return view
    return message
