"""Classic actions as protobuf messages, territory names, and the command-line action grammar.

The constructors return ready `game_pb2.Action` envelopes, so SDK users never assemble the
oneofs by hand. Territories are ids in the map's order (0 = Alaska ... 41 = Eastern Australia);
`territory()` accepts a name in any case and with any spacing or punctuation ("western united
states", "Western-United-States"), or an id. `parse_action` reads the words of
`risk submit GAME ...` (`attack Alaska Kamchatka 3`, `trade 1 5 42`, `end-turn`); multi-word
names may be given unquoted, the longest matching run of words wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk_client.places import Places, did_you_mean, name_key
from risk_client.wording import dice_words, plural
from risk_proto.risk.v1 import classic_pb2, game_pb2
from risk_rules.engine.classic.board import (
    CLASSIC_BOARD,
    DECK_SIZE,
    SYMBOL_NAMES,
    card_symbol,
    card_territory,
)
from risk_rules.engine.classic.model import HIDDEN

NO_BONUS = -1
_A = classic_pb2.ClassicAction
TERRITORIES = Places("territory", CLASSIC_BOARD.names)


# ---- territories -----------------------------------------------------------------------------


def territory_name(territory: int) -> str:
    """The territory's name, or a placeholder for an id outside the map."""
    return TERRITORIES.name(territory)


def territory(name_or_id: str | int) -> int:
    """A territory id from its name (case, spaces and punctuation ignored) or its id; a
    misspelt name is refused with the closest names (`Alsaka` -> Alaska)."""
    return TERRITORIES.find(name_or_id)


def card(name_or_id: str | int) -> int:
    """A card id: 0..43 (card i < 42 shows territory i; 42 and 43 are wild) or a territory name."""
    if isinstance(name_or_id, int) or name_or_id.strip().isdigit():
        value = int(name_or_id)
        if 0 <= value < DECK_SIZE:
            return value
        raise ValueError(f"card id must be 0..{DECK_SIZE - 1}, got {value}")
    return territory(name_or_id)


# ---- constructors ----------------------------------------------------------------------------


def _classic(action: classic_pb2.ClassicAction) -> game_pb2.Action:
    return game_pb2.Action(classic=action)


def claim(t: int | str) -> game_pb2.Action:
    """Claim an unclaimed territory (claim setup)."""
    return _classic(_A(claim_territory=_A.ClaimTerritory(territory=territory(t))))


def place(t: int | str, count: int = 1) -> game_pb2.Action:
    """Place `count` armies on an own territory (setup or reinforcement)."""
    return _classic(_A(place_armies=_A.PlaceArmies(territory=territory(t), count=count)))


def place_neutral(t: int | str) -> game_pb2.Action:
    """Place one neutral army (two-player setup)."""
    return _classic(_A(place_neutral=_A.PlaceNeutral(territory=territory(t))))


def trade(cards: Sequence[int | str], bonus: int | str = NO_BONUS) -> game_pb2.Action:
    """Trade a set of three cards; `bonus` is the traded territory that gets +2, or -1."""
    ids = sorted(card(c) for c in cards)
    if len(ids) != 3:
        raise ValueError(f"a trade takes exactly three cards, got {len(ids)}")
    message = _A.TradeCards(cards=ids)
    if bonus != NO_BONUS:  # unset means no bonus is due
        message.bonus_territory = territory(bonus)
    return _classic(_A(trade_cards=message))


def trade_bonus(message: classic_pb2.ClassicAction.TradeCards) -> int:
    """The bonus territory of a trade, or -1: unset and -1 both mean none is due."""
    return message.bonus_territory if message.HasField("bonus_territory") else NO_BONUS


def attack(src: int | str, dst: int | str, dice: int) -> game_pb2.Action:
    """Attack `dst` from `src` rolling `dice` (1 to 3) dice."""
    return _classic(_A(attack=_A.Attack(
        from_territory=territory(src), to_territory=territory(dst), dice=dice
    )))


def defend(dice: int) -> game_pb2.Action:
    """Defend the pending attack with `dice` (1 or 2) dice."""
    return _classic(_A(defend=_A.Defend(dice=dice)))


def move_in(count: int) -> game_pb2.Action:
    """Move `count` armies into the territory just conquered."""
    return _classic(_A(move_in=_A.MoveIn(count=count)))


def end_attack() -> game_pb2.Action:
    return _classic(_A(end_attack=_A.EndAttack()))


def fortify(src: int | str, dst: int | str, count: int) -> game_pb2.Action:
    """Move `count` armies from `src` to `dst` (the turn's one fortification)."""
    return _classic(_A(fortify=_A.Fortify(
        from_territory=territory(src), to_territory=territory(dst), count=count
    )))


def end_turn() -> game_pb2.Action:
    return _classic(_A(end_turn=_A.EndTurn()))


# ---- the command-line grammar ----------------------------------------------------------------

USAGE = """\
claim TERRITORY                     claim an unclaimed territory
place TERRITORY [COUNT]             place armies (default 1)
place-neutral TERRITORY             place a neutral army (two-player setup)
trade CARD CARD CARD [TERRITORY]    trade three cards (ids 0..43 or territory names),
                                    optionally naming the traded territory for the +2 bonus
attack FROM TO DICE                 attack TO from FROM with 1..3 dice
defend DICE                         defend with 1 or 2 dice
move-in COUNT                       move armies into the conquered territory
end-attack                          stop attacking
fortify FROM TO COUNT               move armies between your territories
end-turn                            end the turn"""


class _Words:
    """A cursor over the words of one action, with territory names spanning several words."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = list(words)
        self.at = 0

    def more(self) -> bool:
        return self.at < len(self.words)

    def territory(self, what: str) -> int:
        if not self.more():
            raise ValueError(f"missing {what}")
        found, span = TERRITORIES.read(self.words, self.at)
        self.at += span
        return found

    def card(self) -> int:
        if not self.more():
            raise ValueError("a trade takes three cards")
        word = self.words[self.at]
        if word.strip().isdigit():
            self.at += 1
            return card(word)
        return self.territory("card")

    def number(self, what: str, default: int | None = None) -> int:
        if not self.more():
            if default is None:
                raise ValueError(f"missing {what}")
            return default
        word = self.words[self.at]
        try:
            value = int(word)
        except ValueError:
            raise ValueError(f"{what} must be a number, got {word!r}") from None
        self.at += 1
        return value

    def done(self) -> None:
        if self.more():
            raise ValueError(f"unexpected words: {' '.join(self.words[self.at:])!r}")


def parse_action(words: Sequence[str]) -> game_pb2.Action:
    """The action for command-line words such as ["attack", "Alaska", "Kamchatka", "3"]."""
    if not words:
        raise ValueError("no action given; one of:\n" + USAGE)
    verb = name_key(words[0])
    rest = _Words(words[1:])
    action: game_pb2.Action
    if verb == "claim":
        action = claim(rest.territory("territory"))
    elif verb == "place":
        t = rest.territory("territory")
        action = place(t, rest.number("count", default=1))
    elif verb == "placeneutral":
        action = place_neutral(rest.territory("territory"))
    elif verb == "trade":
        cards = [rest.card(), rest.card(), rest.card()]
        bonus = rest.territory("bonus territory") if rest.more() else NO_BONUS
        action = trade(cards, bonus)
    elif verb == "attack":
        src = rest.territory("attacking territory")
        dst = rest.territory("attacked territory")
        action = attack(src, dst, rest.number("dice"))
    elif verb == "defend":
        action = defend(rest.number("dice"))
    elif verb == "movein":
        action = move_in(rest.number("count"))
    elif verb == "endattack":
        action = end_attack()
    elif verb == "fortify":
        src = rest.territory("source territory")
        dst = rest.territory("destination territory")
        action = fortify(src, dst, rest.number("count"))
    elif verb == "endturn":
        action = end_turn()
    else:
        hint = did_you_mean(words[0], _VERBS)
        raise ValueError(f"unknown action {words[0]!r}{hint}; one of:\n{USAGE}")
    rest.done()
    return action


_VERBS = [line.split()[0] for line in USAGE.splitlines() if not line.startswith(" ")]


def action_command(action: game_pb2.Action, max_count: int = 0) -> str:
    """The words `parse_action` reads back for `action`; a family of counts is written at its
    largest (place them all, move them all in), which `describe_action` shows as a range."""
    if action.WhichOneof("variant") != "classic":
        return "<not a classic action>"
    c = action.classic
    kind = c.WhichOneof("kind")

    def name(t: int) -> str:
        return TERRITORIES.word(t)

    def count(low: int) -> str:
        return str(max(low, max_count))

    if kind == "claim_territory":
        return f"claim {name(c.claim_territory.territory)}"
    if kind == "place_armies":
        return f"place {name(c.place_armies.territory)} {count(c.place_armies.count)}"
    if kind == "place_neutral":
        return f"place-neutral {name(c.place_neutral.territory)}"
    if kind == "trade_cards":
        words = " ".join(str(x) for x in c.trade_cards.cards)
        bonus = trade_bonus(c.trade_cards)
        return f"trade {words}" + (f" {name(bonus)}" if bonus != NO_BONUS else "")
    if kind == "attack":
        a = c.attack
        return f"attack {name(a.from_territory)} {name(a.to_territory)} {a.dice}"
    if kind == "defend":
        return f"defend {c.defend.dice}"
    if kind == "move_in":
        return f"move-in {count(c.move_in.count)}"
    if kind == "end_attack":
        return "end-attack"
    if kind == "fortify":
        f = c.fortify
        return f"fortify {name(f.from_territory)} {name(f.to_territory)} {count(f.count)}"
    if kind == "end_turn":
        return "end-turn"
    return f"<unknown classic action {kind}>"


# ---- actions in words ------------------------------------------------------------------------


def card_label(card: int) -> str:
    """"Alaska (infantry)", "wild", or "a hidden card" for a card the viewer may not see."""
    if card == HIDDEN:
        return "a hidden card"
    t = card_territory(card)
    symbol = SYMBOL_NAMES[card_symbol(card)]
    return symbol if t is None else f"{territory_name(t)} ({symbol})"


def cards_label(cards: Sequence[int]) -> str:
    return ", ".join(card_label(c) for c in cards)


def _count_words(low: int, high: int, word: str, many: str) -> str:
    if high and high != low:
        return f"{low} to {high} {many}"
    return plural(low, word, many)


def describe_action(action: game_pb2.Action, max_count: int = 0) -> str:
    """A classic action (or a legal family of them, up to `max_count`) in words."""
    if action.WhichOneof("variant") != "classic":
        return "(an action this client cannot read)"
    c = action.classic
    kind = c.WhichOneof("kind")
    if kind == "claim_territory":
        return f"claim {territory_name(c.claim_territory.territory)}"
    if kind == "place_armies":
        p = c.place_armies
        armies = _count_words(p.count, max_count, "army", "armies")
        return f"place {armies} on {territory_name(p.territory)}"
    if kind == "place_neutral":
        return f"place a neutral army on {territory_name(c.place_neutral.territory)}"
    if kind == "trade_cards":
        t = c.trade_cards
        bonus_territory = trade_bonus(t)
        bonus = (
            f" (+2 armies on {territory_name(bonus_territory)})" if bonus_territory >= 0 else ""
        )
        return f"trade {cards_label(t.cards)}{bonus}"
    if kind == "attack":
        a = c.attack
        return f"attack {territory_name(a.to_territory)} from " \
            f"{territory_name(a.from_territory)} with {dice_words(a.dice)}"
    if kind == "defend":
        return f"defend with {dice_words(c.defend.dice)}"
    if kind == "move_in":
        armies = _count_words(c.move_in.count, max_count, "army", "armies")
        return f"move {armies} into the conquered territory"
    if kind == "end_attack":
        return "stop attacking"
    if kind == "fortify":
        f = c.fortify
        armies = _count_words(f.count, max_count, "army", "armies")
        return f"fortify: move {armies} from {territory_name(f.from_territory)} to " \
            f"{territory_name(f.to_territory)}"
    if kind == "end_turn":
        return "end the turn"
    return f"({kind})"
