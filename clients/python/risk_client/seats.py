"""How the client names and colours seats: "seat 2 (alice)", "neutral", s0..s5 on boards."""

from __future__ import annotations

from dataclasses import dataclass

from risk_proto.risk.v1 import service_pb2

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
_SEAT_COLOURS = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m", "\x1b[35m", "\x1b[36m")
_NEUTRAL_COLOUR = "\x1b[90m"


def paint(text: str, colour: str, use: bool) -> str:
    """`text` in an ANSI colour when `use`, else as it is."""
    return f"{colour}{text}{RESET}" if use else text


@dataclass(frozen=True, slots=True)
class Seats:
    """How to name seats: `players` tells the neutral apart (owner id `players`: the third
    party of a two-player game, and whoever resigned), `names` are display names by seat. The
    defaults name every seat by number."""

    players: int = 0
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, summary: service_pb2.GameSummary) -> Seats:
        return cls(len(summary.seats), tuple(s.display_name for s in summary.seats))

    def is_neutral(self, seat: int) -> bool:
        return self.players > 0 and seat == self.players

    def label(self, seat: int) -> str:
        if self.is_neutral(seat):
            return "neutral"
        if seat < 0:
            return "nobody"
        name = self.names[seat] if seat < len(self.names) else ""
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    def tag(self, seat: int) -> str:
        """A short owner mark for the board: s0..s5, N for the neutral, -- for unclaimed."""
        if self.is_neutral(seat):
            return "N"
        return f"s{seat}" if seat >= 0 else "--"

    def colour(self, seat: int) -> str:
        if self.is_neutral(seat):
            return _NEUTRAL_COLOUR
        return _SEAT_COLOURS[seat % len(_SEAT_COLOURS)] if seat >= 0 else DIM

