"""The contract's bot levels (`risk.v1.BotLevel`) as the engine names them
(`risk_rules.engine.core.bots.LEVELS`): the service passes a seat's level to
`Ruleset.bot_action`."""

from __future__ import annotations

from risk_proto.risk.v1 import tournament_pb2

LEVELS: dict[int, str] = {
    tournament_pb2.BOT_LEVEL_RANDOM: "random",
    tournament_pb2.BOT_LEVEL_GREEDY: "greedy",
    tournament_pb2.BOT_LEVEL_PLANNER: "planner",
}
# an unspecified level, and a seat handed to the bot by a BOT timeout, play greedy
DEFAULT_LEVEL = tournament_pb2.BOT_LEVEL_GREEDY


def level_name(level: int) -> str:
    """The engine's name of a BotLevel number (UNSPECIFIED: the default level's)."""
    return LEVELS.get(level, LEVELS[DEFAULT_LEVEL])
