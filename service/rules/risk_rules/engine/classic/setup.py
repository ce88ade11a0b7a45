"""Setting up a classic game: the options checked, the roll-offs, the deal or the claims, and
the starting armies placed (with the 2-player neutral), up to the first turn."""

from __future__ import annotations

from dataclasses import replace

from risk_rules.engine.classic import checks
from risk_rules.engine.classic.board import CLASSIC_BOARD, DECK_SIZE, TERRITORIES
from risk_rules.engine.classic.model import (
    ClaimTerritory,
    ClassicOptions,
    ClassicState,
    DeckShuffled,
    FortifyMode,
    OrderRolled,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    SetupMode,
    TerritoriesDealt,
    TerritoryClaimed,
    TradeSchedule,
)
from risk_rules.engine.classic.play import NO_TERRITORY, UNCLAIMED, ClassicGame
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_max_turns, check_seed
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Event

STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
TWO_PLAYER_ARMIES = 40
TWO_PLAYER_PILE = 14


def settle_options(options: ClassicOptions, *, timed: bool) -> ClassicOptions:
    """The rules digest: auto-defend is on for timed games, so that a game on the clock
    does not wait for a defender's answer on every roll (and for bots: a seat is handed
    to the bot only by a clock's timeout, and the bot defends with the most dice anyway)."""
    if options.auto_defend_max_dice is None:
        return replace(options, auto_defend_max_dice=timed)
    return options


def create(options: ClassicOptions, seed: int) -> tuple[ClassicState, list[Event]]:
    options = settle_options(options, timed=False)  # no clock said otherwise
    try:  # accept plain ints for the enum options, as a client would send them
        options = replace(
            options,
            setup=SetupMode(options.setup),
            trade_schedule=TradeSchedule(options.trade_schedule),
            fortify=FortifyMode(options.fortify),
        )
    except ValueError as exc:
        raise IllegalAction(Reason.INVALID_OPTIONS, str(exc)) from None
    if not 2 <= options.players <= 6:
        raise IllegalAction(Reason.INVALID_OPTIONS, "classic Risk takes 2 to 6 players")
    check_max_turns(options.max_turns)
    check_seed(seed)
    owners = options.players + 1 if options.players == 2 else options.players
    rng = DrawStreams.seeded(seed) if options.duplicate_draws else Pcg32.from_seed(seed)
    blank = ClassicState(
        options=options,
        seed=seed,
        rng_state=rng.state,
        rng_inc=rng.inc,
        phase=Phase.CLAIM,
        current=0,
        turn=0,
        first_seat=-1,
        owner=(UNCLAIMED,) * TERRITORIES,
        armies=(0,) * TERRITORIES,
        to_place=(0,) * owners,
        hands=((),) * options.players,
        deck=(),
        discard=(),
        trades_done=0,
        pending=0,
        bonus_used=False,
        conquered=False,
        resume_attack=False,
        eliminated=(False,) * options.players,
        out_order=(),
        attack_from=NO_TERRITORY,
        attack_to=NO_TERRITORY,
        attack_dice=0,
        winner=-1,
        ranking=(),
        end_reason="",
        draw_streams=rng.streams() if isinstance(rng, DrawStreams) else (),
    )
    game = ClassicGame(blank)
    if options.players == 2:
        _deal_two(game)
    else:
        _deal_many(game)
    return game.freeze(), game.events


def _roll_off(game: ClassicGame, purpose: str, contenders: list[int]) -> int:
    return game.roll_off(contenders, lambda done: OrderRolled(purpose, *done))


def _deal_many(game: ClassicGame) -> None:
    n = game.seats
    start = _roll_off(game, "setup", list(range(n)))
    game.to_place = [STARTING_ARMIES[n]] * n
    game.current = start
    if game.options.setup is SetupMode.RANDOM_DEAL:
        order = game.rng.shuffled(range(TERRITORIES))
        for k, territory in enumerate(order):
            seat = (start + k) % n
            game.owner[territory] = seat
            game.armies[territory] = 1
            game.to_place[seat] -= 1
        game.emit(TerritoriesDealt(tuple(game.owner)))
    if game.options.cards:
        game.deck = game.rng.shuffled(range(DECK_SIZE))
        game.emit(DeckShuffled(DECK_SIZE))
    if game.options.setup is SetupMode.CLAIM:
        game.phase = Phase.CLAIM
    elif game.options.auto_place:
        for seat in range(n):
            game.spread_at_random(seat)
        finish_setup(game)
    else:
        game.phase = Phase.SETUP_PLACE


def _deal_two(game: ClassicGame) -> None:
    piles = game.rng.shuffled(range(TERRITORIES))
    for k, territory in enumerate(piles):
        game.owner[territory] = min(k // TWO_PLAYER_PILE, 2)  # seat 0, seat 1, neutral (2)
        game.armies[territory] = 1
    game.emit(TerritoriesDealt(tuple(game.owner)))
    game.to_place = [TWO_PLAYER_ARMIES - TWO_PLAYER_PILE] * 3
    if game.options.cards:  # the wilds join the deck after the deal
        game.deck = game.rng.shuffled(range(DECK_SIZE))
        game.emit(DeckShuffled(DECK_SIZE))
    start = _roll_off(game, "setup", [0, 1])
    game.current = start
    if game.options.auto_place:
        for seat in (0, 1, game.neutral):
            game.spread_at_random(seat)
        finish_setup(game)
    else:
        game.phase = Phase.SETUP_PLACE
        game.pending = min(2, game.to_place[start])


def advance_setup_many(game: ClassicGame) -> None:
    """After a claim or a setup placement: the next seat clockwise with armies left."""
    if game.phase is Phase.CLAIM and UNCLAIMED in game.owner:
        game.current = game.next_live_seat(game.current)
        return
    game.phase = Phase.SETUP_PLACE
    for step in range(1, game.seats + 1):
        seat = (game.current + step) % game.seats
        if game.to_place[seat] > 0 and not game.out[seat]:
            game.current = seat
            return
    finish_setup(game)


def _advance_setup_two(game: ClassicGame) -> None:
    """2-player: two own armies, then one neutral army, then the other player."""
    seat = game.current
    if game.phase is Phase.SETUP_PLACE:
        if game.pending and game.to_place[seat]:
            return  # the seat may place its second army
        if game.to_place[game.neutral] > 0:
            game.phase = Phase.SETUP_NEUTRAL
            return
    if not any(game.to_place):
        finish_setup(game)
        return
    game.current = 1 - seat
    game.pending = min(2, game.to_place[game.current])
    game.phase = Phase.SETUP_PLACE if game.pending else Phase.SETUP_NEUTRAL


def finish_setup(game: ClassicGame) -> None:
    game.pending = 0
    game.first_seat = _roll_off(game, "first_turn", game.live_seats())
    game.start_turn(game.first_seat)


# ---- handlers of the setup phases ----------------------------------------------------------


def claim(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, ClaimTerritory)
    t = checks.territory(action.territory)
    if game.owner[t] != UNCLAIMED:
        raise IllegalAction(Reason.TERRITORY_CLAIMED,
                            f"{CLASSIC_BOARD.names[t]} is already claimed")
    game.owner[t] = seat
    game.armies[t] = 1
    game.to_place[seat] -= 1
    game.emit(TerritoryClaimed(seat, t))
    advance_setup_many(game)


def setup_place(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceArmies)
    t = checks.owned(game.owner, seat, action.territory)
    if game.seats == 2:
        checks.army_count(action.count, 1, min(game.pending, game.to_place[seat]),
                          "setup placement")
        game.pending -= action.count
    else:
        checks.army_count(action.count, 1, 1, "setup placement")
    game.to_place[seat] -= action.count
    game.place(seat, t, action.count)
    if game.seats == 2:
        _advance_setup_two(game)
    else:
        advance_setup_many(game)


def place_neutral(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, PlaceNeutral)
    t = checks.territory(action.territory)
    if game.owner[t] != game.neutral:
        raise IllegalAction(Reason.NOT_NEUTRAL, f"{CLASSIC_BOARD.names[t]} is not neutral")
    game.to_place[game.neutral] -= 1
    game.place(game.neutral, t, 1)
    _advance_setup_two(game)
