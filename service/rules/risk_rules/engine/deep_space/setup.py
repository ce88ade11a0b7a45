"""A new Deep Space game: the board's layout for the player count, the opening recruits and
gems, the shuffled deck and the opening hands, the roll-off for the first seat, the first turn.
"""

from __future__ import annotations

from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_max_turns, check_seed
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from risk_rules.engine.deep_space.board import NODES
from risk_rules.engine.deep_space.cards import DECK_SIZE
from risk_rules.engine.deep_space.model import (
    GEM_TOKENS,
    HAND_SIZE,
    NONE,
    ORE_TOKENS,
    RECRUITS_PER_COLOUR,
    START_GEMS,
    START_RECRUITS,
    DeckShuffled,
    DeepSpaceOptions,
    DeepSpaceState,
    OrderRolled,
    Phase,
    PlayerSetUp,
)
from risk_rules.engine.deep_space.play import DeepSpaceGame


def create(options: DeepSpaceOptions, seed: int) -> tuple[DeepSpaceState, list[Event]]:
    if options.players not in BOARD.layouts:
        raise IllegalAction(
            Reason.INVALID_OPTIONS,
            f"Deep Space takes {min(BOARD.layouts)} to {max(BOARD.layouts)} players",
        )
    check_max_turns(options.max_turns)
    check_seed(seed)
    n = options.players
    rng = DrawStreams.seeded(seed) if options.duplicate_draws else Pcg32.from_seed(seed)
    blank = DeepSpaceState(
        options=options,
        seed=seed,
        rng_state=rng.state,
        rng_inc=rng.inc,
        phase=Phase.START,
        current=0,
        turn=0,
        first_seat=NONE,
        stations=BOARD.layouts[n].stations,
        recruits=((0,) * NODES,) * n,
        supply=(RECRUITS_PER_COLOUR,) * n,
        bases=((),) * n,
        gems=(0,) * n,
        ore=(0,) * n,
        bank_gems=GEM_TOKENS,
        bank_ore=ORE_TOKENS,
        dogs=((0,) * NODES,) * n,
        force_fields=(NONE,) * NODES,
        hands=((),) * n,
        deck=(),
        discard=(),
        moves_left=0,
        mined=(),
        battle_cry=False,
        dog_planet=NONE,
        dog_seat=NONE,
        out=(False,) * n,
        out_order=(),
        winner=NONE,
        ranking=(),
        end_reason="",
        draw_streams=rng.streams() if isinstance(rng, DrawStreams) else (),
    )
    game = DeepSpaceGame(blank)
    set_up(game)
    return game.freeze(), game.events


def set_up(game: DeepSpaceGame) -> None:
    for seat in range(game.seats):
        game.add_home(seat, START_RECRUITS)
        game.take_gems(seat, START_GEMS)
        game.emit(PlayerSetUp(seat, game.stations[seat], START_RECRUITS, START_GEMS))
    game.deck = game.rng.shuffled(range(DECK_SIZE))
    game.emit(DeckShuffled(DECK_SIZE))
    for _ in range(HAND_SIZE):
        for seat in range(game.seats):
            game.draw(seat)
    game.first_seat = game.roll_off(range(game.seats), lambda done: OrderRolled(*done))
    game.start_turn(game.first_seat)
