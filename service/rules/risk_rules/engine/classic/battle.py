"""A classic battle: an attack declared and checked, the dice (the defender's chosen or not),
the losses, a conquest with what an elimination brings, and the move-in after it.

Four actions in five are attacks, so an attack whose battle is rolled at once and ends without
anyone going out takes a short path (`quick_attack`) that builds the new state without the
work area; tests/engine/test_classic_quick.py holds it to the full rule (`attack`).
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.classic import checks
from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.classic.model import (
    ArmiesMoved,
    Attack,
    AttackDeclared,
    BattleResolved,
    ClassicState,
    Defend,
    MoveIn,
    Phase,
    PlayerEliminated,
    TerritoryConquered,
)
from risk_rules.engine.classic.play import ELIMINATION_TRADE_AT, NO_TERRITORY, ClassicGame
from risk_rules.engine.core.dice import battle_losses, sort_high
from risk_rules.engine.core.draws import DrawStreams
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Event
from risk_rules.engine.core.values import build, evolve

Battle = tuple[tuple[int, ...], tuple[int, ...], int, int]

LINKED = tuple(frozenset(linked) for linked in CLASSIC_BOARD.links)


def defence_decider(owner: Sequence[int], target: int, attacker: int, players: int) -> int | None:
    """Who chooses the defence dice: the defender; for the 2-player neutral the other
    player; for a resigned player's neutral territory nobody (it rolls the most)."""
    defender = owner[target]
    if defender == players:
        return 1 - attacker if players == 2 else None
    return defender


def roll_battle(rng: Pcg32, attack_dice: int, defence_dice: int) -> Battle:
    """(attack roll, defence roll, each sorted high to low, attacker losses, defender losses):
    the attacker's dice are drawn first, then the defender's."""
    if type(rng) is DrawStreams:  # duplicate play: a fixed throw, each side's first dice
        rolled = rng.battle(attack_dice, defence_dice)
    else:
        rolled = rng.dice(attack_dice + defence_dice)
    known = _BATTLES.get(attack_dice)
    if known is None or defence_dice > 2:  # never in a game: not remembered
        return _battle(rolled, attack_dice)
    battle = known.get(rolled)
    if battle is None:
        battle = known[rolled] = _battle(rolled, attack_dice)
    return battle


def _battle(rolled: tuple[int, ...], attack_dice: int) -> Battle:
    """`roll_battle`'s result for the dice `rolled`, the first `attack_dice` of them the
    attacker's."""
    attack_roll = sort_high(rolled[:attack_dice])
    defence_roll = sort_high(rolled[attack_dice:])
    lost_a, lost_d = battle_losses(attack_roll, defence_roll)
    return attack_roll, defence_roll, lost_a, lost_d


# Every battle's result by its attack dice and the dice rolled, as `_battle` works it out (the
# same values; sorting and pairing the dice cost more than the lookup): at most 10,836 entries
# of 3 to 5 dice (6**2 + 6**3 with 1 attack die, 6**3 + 6**4 with 2, 6**4 + 6**5 with 3).
_BATTLES: dict[int, dict[tuple[int, ...], Battle]] = {1: {}, 2: {}, 3: {}}


def check_attack(owner: Sequence[int], armies: Sequence[int], seat: int, action: Attack) -> None:
    """Every check of an attack, in order (the checks of `checks.owned` and
    `checks.territory` inlined)."""
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    if not 0 <= src < TERRITORIES or owner[src] != seat:
        checks.owned(owner, seat, src)
    if not 0 <= dst < TERRITORIES:
        checks.territory(dst)
    if owner[dst] == seat:
        raise IllegalAction(Reason.OWN_TERRITORY,
                            f"{CLASSIC_BOARD.names[dst]} is your own territory")
    if dst not in LINKED[src]:
        raise IllegalAction(
            Reason.NOT_ADJACENT,
            f"{CLASSIC_BOARD.names[src]} does not border {CLASSIC_BOARD.names[dst]}",
        )
    have = armies[src]
    if have < 2:
        raise IllegalAction(Reason.NOT_ENOUGH_ARMIES, "attacking needs at least 2 armies")
    if dice < 1:
        raise IllegalAction(Reason.TOO_FEW_DICE, "roll at least 1 die")
    top = min(3, have - 1)
    if dice > top:
        raise IllegalAction(Reason.TOO_MANY_DICE, f"at most {top} dice from {have} armies")


# ---- handlers ------------------------------------------------------------------------------


def attack(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, Attack)
    check_attack(game.owner, game.armies, seat, action)
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    game.attack_from, game.attack_to, game.attack_dice = src, dst, dice
    game.emit(AttackDeclared(seat, src, dst, dice, game.owner[dst]))
    if game.options.auto_defend_max_dice or \
            defence_decider(game.owner, dst, game.current, game.seats) is None:
        resolve_battle(game, min(2, game.armies[dst]))
    else:
        game.phase = Phase.DEFEND


def quick_attack(
    state: ClassicState, seat: int, action: Attack
) -> tuple[ClassicState, list[Event]] | None:
    """`apply` of an attack in the ATTACK phase, validated as `attack` validates, giving the
    same state and events (tests/engine/test_classic_quick.py compares them). When the battle
    is rolled at once and the target holds, or falls without anyone going out (nearly every
    attack), the new state is made without the work area; an elimination or the end of the
    game continues in one. None when the defender chooses its dice: the caller runs
    `attack`."""
    owner, armies = state.owner, state.armies
    src, dst, dice = action.from_territory, action.to_territory, action.dice
    # `check_attack`'s conditions, in its order, in one expression (no call when all hold);
    # when one fails, `check_attack` raises the error it names first
    if not (0 <= src < TERRITORIES and owner[src] == seat and 0 <= dst < TERRITORIES
            and owner[dst] != seat and dst in LINKED[src] and armies[src] >= 2
            and 1 <= dice <= 3 and dice < armies[src]):
        check_attack(owner, armies, seat, action)
    if not state.options.auto_defend_max_dice and \
            defence_decider(owner, dst, state.current, state.options.players) is not None:
        return None  # the defender chooses its dice: the DEFEND phase, through `attack`
    # duplicate play's battle draws dice only: its other streams' states (`draw_streams`)
    # stay as they are in the state made here
    rng = DrawStreams(state.rng_state, state.rng_inc, state.draw_streams) \
        if state.draw_streams else Pcg32(state.rng_state, state.rng_inc)
    held = armies[dst]
    rolls = roll_battle(rng, dice, held if held < 2 else 2)  # min(2, held)
    attack_roll, defence_roll, lost_a, lost_d = rolls
    attacker, defender = state.current, owner[dst]
    declared = build(AttackDeclared, {  # AttackDeclared(seat, src, dst, dice, defender)
        "seat": seat, "from_territory": src, "to_territory": dst, "dice": dice,
        "defender": defender,
    })
    conquest = held - lost_d <= 0
    if conquest and not (
        (defender >= state.options.players or owner.count(defender) > 1)
        and state.eliminated.count(False) > 1
    ):  # an elimination (or the end): as `attack` goes on after its roll, in the work area
        game = ClassicGame(state)
        game.rng = rng
        game.attack_from, game.attack_to, game.attack_dice = src, dst, dice
        game.emit(declared)
        settle_battle(game, *rolls)
        return game.freeze(), game.events
    after = list(armies)
    after[src] -= lost_a
    after[dst] -= lost_d
    events: list[Event] = [
        declared,
        build(BattleResolved, {
            "attacker": attacker, "defender": defender, "from_territory": src,
            "to_territory": dst, "attack_dice": attack_roll, "defence_dice": defence_roll,
            "attacker_losses": lost_a, "defender_losses": lost_d,
        }),
    ]
    if not conquest:  # the target holds: back to ATTACK (`evolve`, spelt out)
        fields = state.__dict__.copy()
        fields["rng_state"] = rng.state
        fields["rng_inc"] = rng.inc
        fields["armies"] = tuple(after)
        fields["phase"] = Phase.ATTACK
        fields["attack_from"] = NO_TERRITORY
        fields["attack_to"] = NO_TERRITORY
        fields["attack_dice"] = dice
        return build(ClassicState, fields), events
    # taken, and the defender is still in: as `conquer`, then the move-in
    taken = list(owner)
    taken[dst] = attacker
    events.append(TerritoryConquered(attacker, dst, defender))
    return evolve(state, {
        "rng_state": rng.state,
        "rng_inc": rng.inc,
        "armies": tuple(after),
        "owner": tuple(taken),
        "conquered": True,
        "phase": Phase.MOVE_IN,
        "attack_from": src,
        "attack_to": dst,
        "attack_dice": dice,
    }), events


def defend(game: ClassicGame, seat: int, action: Action) -> None:
    assert isinstance(action, Defend)
    top = min(2, game.armies[game.attack_to])
    if action.dice < 1:
        raise IllegalAction(Reason.TOO_FEW_DICE, "defend with at least 1 die")
    if action.dice > top:
        raise IllegalAction(Reason.TOO_MANY_DICE, f"at most {top} defence dice here")
    resolve_battle(game, action.dice)


def move_in(state: ClassicState, seat: int, action: Action) -> tuple[ClassicState, list[Event]]:
    # One action in seven: a rule on the state itself, with no work area.
    assert isinstance(action, MoveIn)
    src, dst, count = state.attack_from, state.attack_to, action.count
    checks.army_count(count, state.attack_dice, state.armies[src] - 1, "move-in")
    armies = list(state.armies)
    armies[src] -= count
    armies[dst] += count
    changes: dict[str, object] = {
        "armies": tuple(armies),
        "attack_from": NO_TERRITORY,
        "attack_to": NO_TERRITORY,
        "phase": Phase.ATTACK,
    }
    if state.resume_attack:
        changes["phase"] = Phase.REINFORCE
        changes["pending"] = 0
    return evolve(state, changes), [ArmiesMoved(seat, src, dst, count)]


# ---- the battle in the work area -----------------------------------------------------------


def resolve_battle(game: ClassicGame, defence: int) -> None:
    settle_battle(game, *roll_battle(game.rng, game.attack_dice, defence))


def settle_battle(
    game: ClassicGame, attack_roll: tuple[int, ...], defence_roll: tuple[int, ...],
    lost_a: int, lost_d: int,
) -> None:
    """The declared attack's battle, rolled: losses, then back to ATTACK or a conquest."""
    attacker = game.current
    src, dst = game.attack_from, game.attack_to
    defender = game.owner[dst]
    armies = game.armies
    armies[src] -= lost_a
    armies[dst] -= lost_d
    game.events.append(
        BattleResolved(attacker, defender, src, dst, attack_roll, defence_roll, lost_a, lost_d)
    )
    if armies[dst] > 0:
        game.phase = Phase.ATTACK
        game.attack_from = game.attack_to = NO_TERRITORY
        return
    _conquer(game, attacker, defender, src, dst)


def _conquer(game: ClassicGame, attacker: int, defender: int, src: int, dst: int) -> None:
    game.owner[dst] = attacker
    game.conquered = True
    game.emit(TerritoryConquered(attacker, dst, defender))
    if defender < game.seats and defender not in game.owner:
        game.go_out(defender)
        taken = game.hands[defender]
        game.hands[attacker] = tuple(sorted(game.hands[attacker] + taken))
        game.hands[defender] = ()
        game.emit(PlayerEliminated(defender, attacker, taken))
        if len(game.hands[attacker]) >= ELIMINATION_TRADE_AT:
            game.resume_attack = True
    if len(game.live_seats()) == 1:
        game.move(attacker, src, dst, game.attack_dice)
        game.finish(attacker, "conquest")
        return
    game.phase = Phase.MOVE_IN
