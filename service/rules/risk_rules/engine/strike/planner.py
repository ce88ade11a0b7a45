"""The Strike planner bot: races for two coins, choosing the continents nearest domination and
taking their cards from whoever holds them, with its Troops spent where they decide a battle.

Two coins win; a coin goes to whoever holds a continent's domination number of its cards. Each
decision re-plans from the seat's view: a continent's worth is how close the seat is to its
number (and whether taking it also takes a coin from its holder, or keeps another seat from one),
the continents it attacks from are those it needs least (a lost pair costs a card of the
attacking continent when no Troops absorb it), and an attack is declared only when its dice,
with the Troops in hand deployed, beat the defender's as far as the seat can tell (the
defender's hand is hidden: its Troops are estimated from its hand size and the share of Troops
in the deck). It draws continent cards (measured: better than mixing in tactics), plays Expand
for continent cards, deploys enough Troops to roll the most dice and absorb a loss, rolls again
while its dice are at least as many, and stays out of other players' battles. In its own
battle it plays the Bombard or Rally that turns the most pairs its way, it cancels the cards
that hurt it, and it plays Artillery and Sabotage as the greedy bot does.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_rules.engine.core.bots import uniform_choice
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, LegalAction
from risk_rules.engine.strike import bot
from risk_rules.engine.strike.cards import DOMINATION, of_continent, of_tactic
from risk_rules.engine.strike.model import (
    Attack,
    Deploy,
    DrawCards,
    Pass,
    PassTurn,
    Phase,
    PlayBombard,
    PlayCancelOrder,
    PlayExpand,
    PlayRally,
    RollAgain,
    Side,
    StopAttack,
    StrikeView,
    Tactic,
    WindowKind,
)
from risk_rules.engine.strike.play import BOMBARD_VALUE

ATTACK_DICE, DEFENCE_DICE = 3, 2
RALLY_BONUS = 2  # Rally: +2 on each die of the player's side
DENY = 1.0  # a card taken from a seat one card away from a coin
CANCEL_AT = 6  # greedy's weight for cancelling a card that hurts this seat
TROOPS_SHARE = 18 / 40  # Troops among the tactics cards: the guess for a hidden hand
COINS_TO_WIN = 2


def _held(view: StrikeView, seat: int, continent: int) -> int:
    return len(of_continent(view.continents[seat], continent))


def _targets(view: StrikeView, seat: int) -> list[int]:
    """The continents the seat goes for: the nearest to their number among those whose coin it
    lacks, as many as it still needs coins (ties: the smaller continent)."""
    lacking = [c for c in range(len(DOMINATION)) if view.coins[c] != seat]
    lacking.sort(key=lambda c: (DOMINATION[c] - _held(view, seat, c), DOMINATION[c], c))
    return lacking[:max(1, COINS_TO_WIN - view.coins.count(seat))]


def _worth(view: StrikeView, seat: int, continent: int) -> float:
    """What one more card of `continent` is worth to `seat`: much for a target continent, the
    more the nearer its number; a little for others; nothing once its coin is the seat's."""
    if view.coins[continent] == seat:
        return 0.0
    gap = DOMINATION[continent] - _held(view, seat, continent)
    if continent in _targets(view, seat):
        return 2.0 / max(1, gap)
    return 0.2 / max(1, gap)


def _troops(view: StrikeView) -> int:
    return len(of_tactic(view.hand, Tactic.TROOPS))


def _attack_score(view: StrikeView, action: Attack) -> float:
    me = view.viewer
    mine = min(ATTACK_DICE, _held(view, me, action.from_continent) + _troops(view))
    guess = TROOPS_SHARE * view.hand_counts[action.defender]
    theirs = min(DEFENCE_DICE, _held(view, action.defender, action.to_continent) + guess)
    edge = mine - theirs
    if edge <= 0:  # any edge: measured better than waiting for half a die or a whole one
        return 0.0
    gain = _worth(view, me, action.to_continent)
    if view.coins[action.to_continent] == action.defender:
        gain += 0.5  # their coin is at stake too
    elif DOMINATION[action.to_continent] - _held(view, action.defender, action.to_continent) <= 1:
        # one card from a coin: take it away, the more so from a seat one coin from winning
        gain += DENY * (1 + view.coins.count(action.defender))
    risk = 0.5 * _worth(view, me, action.from_continent) if _troops(view) < 2 else 0.0
    return edge * gain - risk


def _deploy(view: StrikeView, legal: Sequence[LegalAction]) -> Action:
    """Enough Troops for the most dice plus one to absorb a lost pair, as the attacker or the
    defender; a supporter keeps its Troops."""
    me = view.viewer
    for entry in legal:
        action = entry.action
        if not isinstance(action, Deploy):
            continue
        if me == view.current and action.side == Side.ATTACKER:
            have = _held(view, me, view.from_continent)
            want = max(0, ATTACK_DICE - have) + 1
        elif me == view.defender and action.side == Side.DEFENDER:
            have = _held(view, me, view.to_continent)
            want = max(0, DEFENCE_DICE - have) + 1
            if view.to_continent in _targets(view, me):
                want += 1  # a second loss absorbed where the cards matter most
        else:
            continue
        most = entry.max_count or action.count
        return entry.instance(min(most, want) - action.count)
    return Pass()


def _continue(view: StrikeView) -> Action:
    """Again while the attacking side rolls at least as many dice as the defending side
    (measured: better than stopping at a tie of dice)."""
    attackers = _held(view, view.current, view.from_continent)
    defenders = _held(view, view.defender, view.to_continent)
    for seat, active in enumerate(view.troops):
        side = view.sides[seat]
        if side == Side.ATTACKER:
            attackers += len(active)
        elif side == Side.DEFENDER:
            defenders += len(active)
    if min(ATTACK_DICE, attackers) >= min(DEFENCE_DICE, defenders) and attackers >= 2:
        return RollAgain()
    return StopAttack()


def _pairs(attack: Sequence[int], defence: Sequence[int]) -> int:
    """Pairs the attacker wins minus pairs it loses, the dice paired high to low."""
    score = 0
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        score += 1 if a > d else -1
    return score


def _after_roll(view: StrikeView, actions: Sequence[Action]) -> Action | None:
    """The card that turns the most pairs this seat's way (Bombard: a die to 6; Rally: +2 on
    each die of its side), if any turns one."""
    side = view.sides[view.viewer]
    sign = 1 if side == Side.ATTACKER else -1
    attack, defence = list(view.attack_dice), list(view.defence_dice)
    now = sign * _pairs(attack, defence)
    best, pick = now, None
    for action in actions:
        if isinstance(action, PlayBombard):
            a, d = attack.copy(), defence.copy()
            (a if action.side == Side.ATTACKER else d)[action.die] = BOMBARD_VALUE
            after = sign * _pairs(a, d)
        elif isinstance(action, PlayRally):
            a = [v + RALLY_BONUS for v in attack] if side == Side.ATTACKER else attack
            d = [v + RALLY_BONUS for v in defence] if side == Side.DEFENDER else defence
            after = sign * _pairs(a, d)
        else:
            continue
        if after > best:
            best, pick = after, action
    return pick


def _window(view: StrikeView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """Cancel what hurts, turn lost pairs of its own battle, otherwise pass; the rest (Artillery,
    Sabotage) as greedy plays them."""
    actions = [entry.action for entry in legal]
    kind = view.windows[-1].kind
    side = view.sides[view.viewer]
    if kind == WindowKind.CANCEL:
        if PlayCancelOrder() in actions and bot.cancel_weight(view) >= CANCEL_AT:
            return PlayCancelOrder()
        return Pass()
    if kind == WindowKind.AFTER_ROLL and side in (Side.ATTACKER, Side.DEFENDER):
        card = _after_roll(view, actions)
        if card is not None:
            return card
    return bot.choose(view, legal, rng)


def choose(view: StrikeView, legal: Sequence[LegalAction], rng: Pcg32) -> Action:
    """One action from `legal` for the seat whose view `view` is."""
    if not legal:
        raise ValueError(f"seat {view.viewer} has no decision to make")
    actions = [entry.action for entry in legal]
    if view.windows and view.phase is not Phase.DEPLOY:
        return _window(view, legal, rng)
    if PlayExpand(True) in actions:
        return PlayExpand(True)  # a tactics card for two continent cards
    if view.phase is Phase.DRAW:
        draws = [a for a in actions if isinstance(a, DrawCards)]
        # continent cards: each is progress towards a coin (Troops come with every pass)
        return next((a for a in draws if a.continent_cards == 2), draws[0] if draws else
                    uniform_choice(legal, rng))
    if view.phase is Phase.MAIN:
        scored = [(_attack_score(view, a), i) for i, a in enumerate(actions)
                  if isinstance(a, Attack)]
        best = max(scored, default=(0.0, -1))
        if best[0] > 0:
            return actions[best[1]]
        if PassTurn() in actions:
            return PassTurn()
    if view.phase is Phase.DEPLOY:
        return _deploy(view, legal)
    if view.phase is Phase.CONTINUE and RollAgain() in actions:
        return _continue(view)
    if Pass() in actions:
        return Pass()
    return uniform_choice(legal, rng)
