"""A new Strike game: the two decks shuffled, the opening hands, the roll-off for the first seat,
the later seats' extra cards, and the first turn.
"""

from __future__ import annotations

from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_max_turns, check_seed
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.strike.cards import ALL_CARDS, CONTINENT_CARDS, CONTINENTS
from risk_rules.engine.strike.model import (
    NO_CONTINENT,
    NOBODY,
    Deck,
    DeckShuffled,
    OrderRolled,
    Phase,
    StrikeOptions,
    StrikeState,
)
from risk_rules.engine.strike.play import NO_SIDE, StrikeGame

START_CONTINENT = 3  # continent cards dealt to each player
START_TACTICS = 3


def create(options: StrikeOptions, seed: int) -> tuple[StrikeState, list[Event]]:
    if not 2 <= options.players <= 5:
        raise IllegalAction(Reason.INVALID_OPTIONS, "Risk Strike takes 2 to 5 players")
    check_max_turns(options.max_turns)
    check_seed(seed)
    n = options.players
    rng = DrawStreams.seeded(seed) if options.duplicate_draws else Pcg32.from_seed(seed)
    blank = StrikeState(
        options=options, seed=seed, rng_state=rng.state, rng_inc=rng.inc,
        phase=Phase.DRAW, current=0, turn=0, first_seat=NOBODY,
        continents=((),) * n, hands=((),) * n, continent_deck=(), tactics_deck=(),
        surrender=(), tactics_discard=(), coins=(NOBODY,) * CONTINENTS,
        out=(False,) * n, out_order=(), defender=NOBODY, from_continent=NO_CONTINENT,
        to_continent=NO_CONTINENT, troops=((),) * n, sides=(NO_SIDE,) * n,
        attack_dice=(), defence_dice=(), rolls=0, windows=(), plays=(),
        winner=NOBODY, ranking=(), end_reason="",
        draw_streams=rng.streams() if isinstance(rng, DrawStreams) else (),
    )
    game = StrikeGame(blank)
    game.continent_deck = game.rng.shuffled(range(CONTINENT_CARDS))
    game.emit(DeckShuffled(Deck.CONTINENT, CONTINENT_CARDS))
    game.tactics_deck = game.rng.shuffled(range(CONTINENT_CARDS, ALL_CARDS))
    game.emit(DeckShuffled(Deck.TACTICS, ALL_CARDS - CONTINENT_CARDS))
    for seat in range(n):
        game.draw_continent(seat, START_CONTINENT)
    for seat in range(n):
        game.draw_tactics(seat, START_TACTICS)
    first = game.roll_off(range(n), lambda done: OrderRolled(*done))
    game.first_seat = first
    for step in range(1, n):
        game.draw_tactics((first + step) % n, 1)
    if n == 2:
        game.draw_continent(1 - first, 1)
    if not game.finished:
        game.start_turn(first)
    return game.freeze(), game.events
