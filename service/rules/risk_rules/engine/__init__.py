"""The pure rules engine: every variant behind one interface, standard library only.

Nothing in this package performs I/O, reads a clock, or uses global randomness: a game is a
value, and ``apply`` maps a value and an action to a new value plus the events it produced.
"""

from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.ruleset import (
    Action,
    Decision,
    Event,
    LegalAction,
    Outcome,
    Ruleset,
    is_legal,
)
from risk_rules.engine.registry import REGISTRY, get_ruleset

__all__ = [
    "REGISTRY",
    "Action",
    "Decision",
    "Event",
    "IllegalAction",
    "LegalAction",
    "Outcome",
    "Reason",
    "Ruleset",
    "get_ruleset",
    "is_legal",
]
