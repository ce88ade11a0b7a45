"""The featured table of a StreamGames stream (issue 37 item 2; docs/broadcasts.md, "The
featured table"): of the games the stream follows, the one worth watching now, by a rule a
client can measure from the very events the stream sent it.

The rule, per game, over what the stream has sent of it (so a game's spectator delay holds:
nothing the spectators have not seen counts):

    score = 2 x battles + 5 x conquests among its last WINDOW events committed within the
            last RECENT_MS, + 20 x players eliminated so far; 0 once the game is over
            (the stream has sent its `removed`)

A battle is a variant's `battle_resolved` or `battle_rolled` event, a conquest
`territory_conquered`, an elimination `player_eliminated` (the event's case name in its
variant's oneof, so every variant that has them counts them alike). The featured game is the
highest-scoring one (ties: the one followed first) once it scores above 0; another game takes
its place only when it scores at least `max(5, a fifth of the featured game's score)` more
(no flapping between two close games), or at once when the featured game ends. Every change
is announced in the stream (`featured`: the game, its score, the rule's terms in words;
"" when no game scores).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from risk_proto.risk.v1 import broadcast_pb2, game_pb2

WINDOW = 20  # a game's most recent events the battles and conquests are counted over
RECENT_MS = 5 * 60 * 1000  # ... of those, the ones committed this recently
BATTLE = frozenset({"battle_resolved", "battle_rolled"})
CONQUEST = "territory_conquered"
ELIMINATION = "player_eliminated"


def kind_of(event: game_pb2.Event) -> str:
    """The event's case in its variant's oneof ("battle_resolved"), "" for none."""
    variant = event.WhichOneof("variant")
    if variant is None or variant == "extension":
        return ""
    return getattr(event, variant).WhichOneof("kind") or ""


@dataclass(slots=True)
class _Game:
    order: int  # followed first: lower
    recent: deque[tuple[str, int]] = field(default_factory=lambda: deque(maxlen=WINDOW))
    eliminated: int = 0
    over: bool = False


class Featured:
    """One stream's featured table."""

    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self.clock_ms = clock_ms
        self.games: dict[str, _Game] = {}
        self.current = ""

    def take(self, game_id: str, kind: str, at_ms: int) -> None:
        """An event of `game_id` the stream has just sent."""
        game = self.games.setdefault(game_id, _Game(len(self.games)))
        game.recent.append((kind, at_ms))
        if kind == ELIMINATION:
            game.eliminated += 1

    def ended(self, game_id: str) -> None:
        """The stream has retired `game_id` (`removed`: it is over)."""
        if game_id in self.games:
            self.games[game_id].over = True

    def terms(self, game_id: str) -> tuple[int, int, int]:
        """(battles, conquests, eliminations) the rule counts for `game_id` now."""
        game = self.games.get(game_id)
        if game is None or game.over:
            return 0, 0, 0
        since = self.clock_ms() - RECENT_MS
        kinds = [kind for kind, at_ms in game.recent if at_ms >= since]
        return (sum(kind in BATTLE for kind in kinds), kinds.count(CONQUEST),
                game.eliminated)

    def score(self, game_id: str) -> int:
        battles, conquests, eliminated = self.terms(game_id)
        return 2 * battles + 5 * conquests + 20 * eliminated

    def choose(self) -> broadcast_pb2.FeaturedGame | None:
        """The announcement of a change of featured game, None when it stays."""
        scores = {game_id: self.score(game_id) for game_id in self.games}
        best = min((g for g in scores if scores[g] > 0),
                   key=lambda g: (-scores[g], self.games[g].order), default="")
        current = self.current
        held = scores.get(current, 0)
        if best == current or (current and held > 0 and best
                               and scores[best] < held + max(5, held // 5)):
            return None
        self.current = best
        if not best:
            return broadcast_pb2.FeaturedGame(why="no game in play scores")
        battles, conquests, eliminated = self.terms(best)
        return broadcast_pb2.FeaturedGame(
            game_id=best, score=scores[best],
            why=f"{battles} battles and {conquests} conquests in its last {WINDOW} events, "
                f"{eliminated} players eliminated")
