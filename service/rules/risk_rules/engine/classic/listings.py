"""Classic Risk's legal actions: whose decision it is and what that seat may do.

The two long listings, attacks and fortifications, are shared by the rules (which list them)
and the bot (which recognises them and weighs them a block at a time instead of an entry at a
time). Listed actions are frozen values, so the ones a board can produce are built once and
shared by every listing instead of being rebuilt on each call.

Four decisions in five are attack steps, and each lists some forty attacks. The listing is made
of blocks: for each own territory with at least 2 armies (in territory order), for each enemy
neighbour (in link order), its attacks with 1, 1-2 or 1-3 dice. Which blocks exist (the
seat's "frontier") depends on the owners alone, which change only at a conquest: the frontier
is kept, and after a conquest only the entries around the territory taken are redone. A fortify
step, once a turn, lists some two hundred moves: for each own territory with at least 2 armies,
every other territory that a chain of own territories links it to.

The last listing of each kind is kept with the (owner, armies, seat) it was made for, so the
bot, called with the view of the state just listed, finds the same list again and compares it
with its `legal` by identity of the entries. Each memo holds one entry. They are keyed by the
identity of the state's tuples (a value never changes, and the memo keeps its key alive), with
an equality check as a fallback for owners, since rebuilt states often carry an equal copy.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import repeat
from typing import Generic, TypeVar

from risk_rules.engine.classic.battle import defence_decider
from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.cards import bonus_choices, sets_in
from risk_rules.engine.classic.model import (
    Attack,
    ClaimTerritory,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    FortifyMode,
    MoveIn,
    Phase,
    PlaceArmies,
    PlaceNeutral,
    TradeCards,
)
from risk_rules.engine.classic.play import MUST_TRADE_AT
from risk_rules.engine.core.ruleset import Action, Decision, LegalAction

END_ATTACK = LegalAction(EndAttack())
END_TURN = LegalAction(EndTurn())

# The listed actions are frozen values, built once and shared by every listing:
# _BLOCKS[src][dst] = (attacks with 1 die, with 1 or 2, with 1 to 3), for each neighbour dst.
_BLOCKS: tuple[dict[int, tuple[tuple[LegalAction, ...], ...]], ...] = tuple(
    {
        dst: tuple(
            tuple(LegalAction(Attack(src, dst, dice)) for dice in range(1, top + 1))
            for top in (1, 2, 3)
        )
        for dst in CLASSIC_BOARD.links[src]
    }
    for src in range(TERRITORIES)
)

# One frontier source: (src, its enemy neighbours in link order, the listing of their attacks
# by the most dice: [0] 1 die each, [1] up to 2, [2] up to 3).
Entries = tuple[LegalAction, ...]
Source = tuple[int, tuple[int, ...], tuple[Entries, Entries, Entries]]

T = TypeVar("T")


class _Memo(Generic[T]):
    """One remembered entry, read and replaced whole (a single reference: safe across threads,
    where a stale or foreign entry is just a miss)."""

    __slots__ = ("last",)

    def __init__(self, empty: T) -> None:
        self.last = empty


# (owner, seat, each territory's frontier entry or None, the frontier)
_FRONTIER: _Memo[tuple[tuple[int, ...], int, list[Source | None], tuple[Source, ...]]] = _Memo(
    ((), -1, [], ())
)
# (owner, armies, seat, the attack listing)
_ATTACKS: _Memo[tuple[tuple[int, ...], tuple[int, ...], int, list[LegalAction]]] = _Memo(
    ((), (), -1, [])
)


def _source(src: int, targets: tuple[int, ...]) -> Source:
    """The frontier entry of territory `src` with the enemy neighbours `targets`."""
    blocks = _BLOCKS[src]
    one, two, three = (
        tuple(entry for dst in targets for entry in blocks[dst][level]) for level in (0, 1, 2)
    )
    return src, targets, (one, two, three)


# A frontier is rebuilt after every conquest, so each territory's possible entries are kept:
# _BY_TARGETS[src]: enemy neighbours -> `_source(src, them)`, at most 2**6 per territory (a
# plain dict: an lru_cache wrapper would cost more than the lookup).
_BY_TARGETS: tuple[dict[tuple[int, ...], Source], ...] = tuple({} for _ in range(TERRITORIES))


def _source_at(owner: tuple[int, ...], seat: int, src: int) -> Source | None:
    """The frontier entry of `src`, which `seat` holds: None unless it has an enemy neighbour."""
    targets = tuple([dst for dst in CLASSIC_BOARD.links[src] if owner[dst] != seat])
    if not targets:
        return None
    known = _BY_TARGETS[src]
    source = known.get(targets)
    if source is None:
        source = known[targets] = _source(src, targets)
    return source


# _AROUND[t]: t and its neighbours, whose frontier entries change when t changes hands
_AROUND = tuple((t, *links) for t, links in enumerate(CLASSIC_BOARD.links))


def frontier(owner: tuple[int, ...], seat: int) -> tuple[Source, ...]:
    """The own territories of `seat` with an enemy neighbour, whatever their armies (`owner`
    is a state's tuple, as for `attack_listing`)."""
    last_owner, last_seat, by_src, sources = _FRONTIER.last
    if last_seat == seat and (last_owner is owner or last_owner == owner):
        return sources
    changed = None
    if last_seat == seat:  # most often a conquest since the last call: one territory changed
        changed = [t for t in range(TERRITORIES) if owner[t] != last_owner[t]]
    if changed is not None and len(changed) <= 2:
        by_src = by_src.copy()
        for t in changed:  # the entries of t and its neighbours may change
            for src in _AROUND[t]:
                by_src[src] = _source_at(owner, seat, src) if owner[src] == seat else None
    else:
        by_src = [None] * TERRITORIES
        for src in range(TERRITORIES):
            if owner[src] == seat:
                by_src[src] = _source_at(owner, seat, src)
    sources = tuple(filter(None, by_src))
    _FRONTIER.last = (owner, seat, by_src, sources)
    return sources


def attack_listing(
    owner: tuple[int, ...], armies: tuple[int, ...], seat: int
) -> list[LegalAction]:
    """Every attack `seat` may declare, then EndAttack: the ATTACK phase's legal actions.

    The list is the memo's own: callers that hand it on must copy it."""
    last_owner, last_armies, last_seat, listing = _ATTACKS.last
    if last_armies is armies and last_owner is owner and last_seat == seat:
        return listing
    listing = []
    for src, _, by_dice in frontier(owner, seat):
        have = armies[src]
        if have >= 2:
            listing += by_dice[have - 2 if have < 4 else 2]  # min(3, have - 1) dice at most
    listing.append(END_ATTACK)
    _ATTACKS.last = (owner, armies, seat, listing)
    return listing


# ---- fortify -------------------------------------------------------------------------------

# A fortify source: (src, where it may move armies to, in listing order).
Moves = tuple[int, list[int]]

# (owner, armies, seat, mode, the fortify listing, its moves)
_FORTIFY: _Memo[tuple[tuple[int, ...], tuple[int, ...], int, FortifyMode | None,
                      list[LegalAction], list[Moves]]] = _Memo(((), (), -1, None, [], []))

# LegalAction's slot descriptors, which set a field as its dataclass __init__ does
_SET_ACTION = LegalAction.__dict__["action"].__set__
_SET_MAX_COUNT = LegalAction.__dict__["max_count"].__set__


def _entries(actions: list[Action], most: int) -> list[LegalAction]:
    """[LegalAction(action, most) for action in actions], the same values made in C loops
    (object.__new__, then each slot set through its descriptor, as the dataclass __init__ sets
    it): a fortify listing makes some two hundred entries, and a Python __init__ call for each
    was a third of its cost."""
    entries = list(map(object.__new__, repeat(LegalAction, len(actions))))
    deque(map(_SET_ACTION, entries, actions), maxlen=0)  # run the map to its end
    deque(map(_SET_MAX_COUNT, entries, repeat(most)), maxlen=0)
    return entries


# Fortify(src, dst, 1) for every pair (a listing wraps them with the count range of the day)
_FORTIFY_ACTIONS = tuple(
    tuple(Fortify(src, dst, 1) for dst in range(TERRITORIES)) for src in range(TERRITORIES)
)


def fortify_moves(
    owner: tuple[int, ...], armies: tuple[int, ...], seat: int, mode: FortifyMode
) -> list[Moves]:
    """Each own territory with armies to spare, with where they may go, in listing order."""
    sources = [t for t in range(TERRITORIES) if owner[t] == seat and armies[t] >= 2]
    links = CLASSIC_BOARD.links
    if mode is FortifyMode.ADJACENT:
        return [(src, [dst for dst in links[src] if owner[dst] == seat]) for src in sources]
    passable = [o == seat for o in owner]
    component: dict[int, list[int]] = {}  # territory -> its group, sorted
    for src in sources:
        if src not in component:
            group = sorted(CLASSIC_BOARD.reachable(src, passable))
            for member in group:
                component[member] = group
    moves: list[Moves] = []
    for src in sources:
        group = component[src]
        at = group.index(src)
        moves.append((src, group[:at] + group[at + 1:]))  # the group but src
    return moves


def fortify_listing(
    owner: tuple[int, ...], armies: tuple[int, ...], seat: int, mode: FortifyMode
) -> tuple[list[LegalAction], list[Moves]]:
    """Every fortification `seat` may make, then EndTurn: the FORTIFY phase's legal actions,
    with the `fortify_moves` they list. Both are the memo's own: callers must not change them,
    and must copy the listing to hand it on."""
    last_owner, last_armies, last_seat, last_mode, listing, moves = _FORTIFY.last
    if last_armies is armies and last_owner is owner and last_seat == seat and last_mode is mode:
        return listing, moves
    moves = fortify_moves(owner, armies, seat, mode)
    listing = []
    for src, targets in moves:
        actions = _FORTIFY_ACTIONS[src]
        listing += _entries([actions[dst] for dst in targets], armies[src] - 1)
    listing.append(END_TURN)
    _FORTIFY.last = (owner, armies, seat, mode, listing, moves)
    return listing, moves


# ---- whose decision, and every legal action ------------------------------------------------


def deciding_seat(state: ClassicState) -> int:
    """The one seat `decision(state)` names, or -1 once the game is over."""
    phase = state.phase
    if phase is Phase.DEFEND:
        decider = defence_decider(
            state.owner, state.attack_to, state.current, state.options.players
        )
        assert decider is not None, "a neutral without a decider never waits in DEFEND"
        return decider
    return -1 if phase is Phase.FINISHED else state.current


# Every Decision a game can be in (seat up to 6), built once: the one for `seat` deciding in
# `phase` is _DECISIONS[phase][seat].
_FINISHED = Decision((), "finished")
_DECISIONS = {
    phase: tuple(Decision((seat,), phase.name.lower()) for seat in range(7)) for phase in Phase
}
_CLAIM_ENTRIES = tuple(LegalAction(ClaimTerritory(t)) for t in range(TERRITORIES))
_NEUTRAL_ENTRIES = tuple(LegalAction(PlaceNeutral(t)) for t in range(TERRITORIES))
_DEFEND_ENTRIES = (LegalAction(Defend(1)), LegalAction(Defend(2)))


@lru_cache(maxsize=4096)
def _trade_entry(cards: tuple[int, int, int], bonus_territory: int) -> LegalAction:
    return LegalAction(TradeCards(cards, bonus_territory))


@lru_cache(maxsize=1024)
def _move_in_entry(dice: int, most: int) -> LegalAction:
    return LegalAction(MoveIn(dice), most)


@lru_cache(maxsize=4096)
def _place_entry(territory: int, most: int) -> LegalAction:
    return LegalAction(PlaceArmies(territory, 1), most)


def decision(state: ClassicState) -> Decision:
    if state.phase is Phase.ATTACK:  # `deciding_seat`, for most decisions of a game
        return _DECISIONS[Phase.ATTACK][state.current]
    seat = deciding_seat(state)
    if seat < 0:
        return _FINISHED
    return _DECISIONS[state.phase][seat]


def legal_actions(state: ClassicState, seat: int) -> list[LegalAction]:
    phase = state.phase
    owner = state.owner
    armies = state.armies
    if phase is Phase.ATTACK:  # most decisions of a game: keep it first and lean
        if seat != state.current:  # `deciding_seat` in ATTACK
            return []
        return attack_listing(owner, armies, seat).copy()  # a copy: the memo keeps its own
    if seat != deciding_seat(state):
        return []
    legal: list[LegalAction]
    if phase is Phase.MOVE_IN:
        return [_move_in_entry(state.attack_dice, armies[state.attack_from] - 1)]
    if phase is Phase.FORTIFY:
        listing, _ = fortify_listing(owner, armies, seat, state.options.fortify)
        return listing.copy()  # a copy: the memo keeps its own
    if phase is Phase.DEFEND:
        top = min(2, armies[state.attack_to])
        return list(_DEFEND_ENTRIES[:top])
    own = [t for t in range(TERRITORIES) if owner[t] == seat]
    if phase is Phase.CLAIM:
        return [_CLAIM_ENTRIES[t] for t in range(TERRITORIES) if owner[t] < 0]
    if phase is Phase.SETUP_PLACE:
        most = 1 if state.options.players > 2 else min(state.pending, state.to_place[seat])
        return [_place_entry(t, most) for t in own]
    if phase is Phase.SETUP_NEUTRAL:
        neutral = state.options.players
        return [_NEUTRAL_ENTRIES[t] for t in range(TERRITORIES) if owner[t] == neutral]
    if phase is Phase.REINFORCE:
        hand = state.hands[seat]
        legal = []
        may_trade = state.options.cards and (
            len(hand) >= MUST_TRADE_AT if state.resume_attack else len(hand) >= 3
        )
        if may_trade:
            for combo in sets_in(hand):
                for bonus in bonus_choices(owner, state.bonus_used, seat, combo):
                    legal.append(_trade_entry(combo, bonus))
        if len(hand) < MUST_TRADE_AT and state.pending > 0:
            pending = state.pending
            legal.extend([_place_entry(t, pending) for t in own])
        return legal
    return []
