"""A new Legacy game: the options checked (the seats' factions and powers filled in), the deck and
the sideboard, the coin cards, the scar cards dealt, the starting tokens, and the roll-off for
the first seat to place its HQ.
"""

from __future__ import annotations

from dataclasses import replace

from risk_rules.engine.classic.board import TERRITORIES
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.guards import check_max_turns, check_seed
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Event
from risk_rules.engine.legacy.cards import coin_ids
from risk_rules.engine.legacy.content import FACTION_POWERS, board_of, world_problems
from risk_rules.engine.legacy.model import (
    NO_TERRITORY,
    NOBODY,
    DeckShuffled,
    LegacyOptions,
    LegacyState,
    OrderRolled,
    Phase,
    ScarCardDealt,
    SideboardChanged,
    StartingTokens,
)
from risk_rules.engine.legacy.play import LegacyGame
from risk_rules.engine.legacy.world import (
    Faction,
    FactionChoice,
    Power,
    Scar,
    per_seat,
)


def default_factions(players: int) -> tuple[FactionChoice, ...]:
    """Outside a campaign: seat i plays the i-th faction with its first power."""
    return tuple(
        FactionChoice(Faction(i + 1), FACTION_POWERS[Faction(i + 1)][0]) for i in range(players)
    )


def create(options: LegacyOptions, seed: int) -> tuple[LegacyState, list[Event]]:
    options = checked_options(options)
    check_seed(seed)
    n = options.players
    board = board_of(options.world)
    rng = Pcg32.from_seed(seed)
    blank = LegacyState(
        options=options, seed=seed, rng_state=rng.state, rng_inc=rng.inc,
        phase=Phase.SETUP_HQ, current=0, turn=0, first_seat=NOBODY,
        owner=(NOBODY,) * TERRITORIES, troops=(0,) * TERRITORIES, hqs=(NO_TERRITORY,) * n,
        stars=(0,) * n, missiles=(0,) * n, scar_cards=(0,) * n, hands=((),) * n,
        deck=(), discard=(), coin_pile=(), sideboard=(), scars=board.scars,
        fortifications=board.fortification, pending=0, traded=False, conquered=False,
        expansions=0, maneuvered=False, ferocity_target=NO_TERRITORY, protected=(),
        draws_left=0, attack_from=NO_TERRITORY, attack_to=NO_TERRITORY, attack_count=0,
        defence_count=0, attack_dice=(), defence_dice=(), attack_missiles=(),
        defence_missiles=(), windows=(), eliminated=(False,) * n, out=(False,) * n,
        out_order=(), winner=NOBODY, ranking=(), end_reason="",
    )
    game = LegacyGame(blank)
    set_up(game)
    return game.freeze(), game.events


def checked_options(options: LegacyOptions) -> LegacyOptions:
    """The options with the seats' factions filled in, or INVALID_OPTIONS."""
    n = options.players
    if not 3 <= n <= 5:
        raise IllegalAction(Reason.INVALID_OPTIONS, "Risk Legacy takes 3 to 5 players")
    check_max_turns(options.max_turns)
    world = options.world
    problems = world_problems(world, n)
    if problems:
        raise IllegalAction(Reason.INVALID_OPTIONS, "; ".join(problems))
    factions = world.factions or default_factions(n)
    try:
        factions = tuple(
            FactionChoice(Faction(c.faction), Power(c.power)) for c in factions
        )
    except ValueError as exc:
        raise IllegalAction(Reason.INVALID_OPTIONS, str(exc)) from None
    if len(factions) != n:
        raise IllegalAction(Reason.INVALID_OPTIONS, "world.factions needs one entry per seat")
    if len({c.faction for c in factions}) != n:
        raise IllegalAction(Reason.INVALID_OPTIONS, "each seat plays a different faction")
    for choice in factions:
        if choice.power not in FACTION_POWERS[choice.faction]:
            raise IllegalAction(
                Reason.INVALID_OPTIONS,
                f"{choice.power.name} is not a power of {choice.faction.name}",
            )
    return replace(options, world=replace(world, factions=factions))


def set_up(game: LegacyGame) -> None:
    n = game.seats
    cards = [t for t in range(TERRITORIES) if t not in game.board.destroyed]
    game.deck = game.rng.shuffled(cards)
    game.emit(DeckShuffled(len(cards)))
    game.sideboard = [NO_TERRITORY] * game.content.sideboard_slots
    for slot in range(game.content.sideboard_slots):
        game.sideboard[slot] = game.draw_territory_card()
    game.emit(SideboardChanged(tuple(game.sideboard), NO_TERRITORY))
    game.coin_pile = list(coin_ids(game.content.coin_cards))
    used = per_seat(game.options.world.scar_cards_used, len(Scar))
    pool = [
        scar for scar in Scar
        for _ in range(game.content.scar_count(scar) - used[scar - 1])
    ]
    if len(pool) >= n:  # one each only if there are enough for everyone
        dealt = game.rng.shuffled(pool)
        for seat in range(n):
            game.scar_cards[seat] = int(dealt[seat])
            game.emit(ScarCardDealt(seat, int(dealt[seat])))
    signatures = per_seat(game.options.world.signatures, n)
    for seat in range(n):
        game.stars[seat] = 0 if signatures[seat] else 1
        game.missiles[seat] = signatures[seat]
        game.emit(StartingTokens(seat, game.stars[seat], game.missiles[seat]))
    first = game.roll_off(range(n), lambda done: OrderRolled(*done))
    game.first_seat = first
    game.current = first
    game.phase = Phase.SETUP_HQ
