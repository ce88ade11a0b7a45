"""What sits at a table the director seats: a player, by the event's id for them, or a bot at a
level (`random`, `greedy`, `planner`: the engine's names, operations/bot_levels.py)."""

from __future__ import annotations

from dataclasses import dataclass

BOT_LEVELS = ("random", "greedy", "planner")


@dataclass(frozen=True)
class Bot:
    """A seat the service's bot plays at `level`."""

    level: str

    def __post_init__(self) -> None:
        if self.level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {self.level!r}; one of {', '.join(BOT_LEVELS)}")


Seat = str | Bot
