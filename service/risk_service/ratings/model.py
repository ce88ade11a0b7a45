"""How a table of 2-6 seats is rated: OpenSkill's Bradley-Terry model with partial pairing (Weng
and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 2011: each seat measured
against the seats placed next to it), through the `openskill` library.

The model was chosen over OpenSkill's Plackett-Luce and Thurstone-Mosteller and over TrueSkill by
bench/ratings.py: the rank correlation between players' hidden strength and their rating after N
games, for simulated players and for the bot levels playing rated games through the service
(bench/RESULTS.md, "Ratings: which model"). Pure: no Redis, no clock.

A rating is a mean `mu` and an uncertainty `sigma` (a new player: 25 and 25/3); what players are
shown and ordered by is the conservative `display` = mu - 3 sigma (OpenSkill's ordinal: the
rating the player is at least, with 99.7% confidence), which starts at 0 and rises as games
shrink sigma. A rating is provisional while fewer than `provisional_games` rated games stand
behind it (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryPart

MODEL = BradleyTerryPart()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
PROVISIONAL_GAMES = 5  # the default of RISK_RATING_PROVISIONAL_GAMES


def display(mu: float, sigma: float) -> float:
    """The rating shown and ordered by: mu - 3 sigma (OpenSkill's ordinal)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one variant and season."""

    player_id: str
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    updated_ms: int = 0
    version: int = 0  # how many updates it has had (the leaderboard keeps the newest)

    @property
    def display(self) -> float:
        return display(self.mu, self.sigma)

    def provisional(self, games_needed: int = PROVISIONAL_GAMES) -> bool:
        return self.games < games_needed


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game, from each seat's (mu, sigma) before it and its
    rank (1 the winner; equal ranks tie)."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError("a rated table has two seats or more, each with a rank")
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]
