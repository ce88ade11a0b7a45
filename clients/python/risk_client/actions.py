"""Classic actions as protobuf messages, territory names, and the command-line action grammar.

The constructors return ready `game_pb2.Action` envelopes, so SDK users never assemble the
oneofs by hand. Territories are ids in the map's order (0 = Alaska ... 41 = Eastern Australia);
`territory()` accepts a name in any case and with any spacing or punctuation ("western united
states", "Western-United-States"), or an id. `parse_action` reads the words of
`risk submit GAME ...` (`attack Alaska Kamchatka 3`, `trade 1 5 42`, `end-turn`); multi-word
names may be given unquoted, the longest matching run of words wins.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from risk_proto.risk.v1 import classic_pb2, game_pb2
from risk_rules.engine.classic.board import CLASSIC_BOARD, DECK_SIZE, TERRITORIES

NO_BONUS = -1
_A = classic_pb2.ClassicAction
_LONGEST_NAME_WORDS = max(len(name.split()) for name in CLASSIC_BOARD.names)


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


_BY_KEY: dict[str, int] = {_key(name): i for i, name in enumerate(CLASSIC_BOARD.names)}


# ---- territories -----------------------------------------------------------------------------


def territory_name(territory: int) -> str:
    """The territory's name, or a placeholder for an id outside the map."""
    if 0 <= territory < TERRITORIES:
        return CLASSIC_BOARD.names[territory]
    return f"territory #{territory}"


def territory(name_or_id: str | int) -> int:
    """A territory id from its name (case, spaces and punctuation ignored) or its id."""
    if isinstance(name_or_id, int):
        if 0 <= name_or_id < TERRITORIES:
            return name_or_id
        raise ValueError(f"territory id must be 0..{TERRITORIES - 1}, got {name_or_id}")
    text = name_or_id.strip()
    if text.isdigit():
        return territory(int(text))
    found = _BY_KEY.get(_key(text))
    if found is None:
        close = [n for n in CLASSIC_BOARD.names if _key(text) in _key(n)]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"no territory named {name_or_id!r}{hint}")
    return found


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
        first = self.words[self.at]
        if first.strip().isdigit():
            self.at += 1
            return territory(first)
        longest = min(_LONGEST_NAME_WORDS, len(self.words) - self.at)
        for span in range(longest, 0, -1):
            found = _BY_KEY.get(_key(" ".join(self.words[self.at:self.at + span])))
            if found is not None:
                self.at += span
                return found
        return territory(first)  # raises with a suggestion

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
    verb = _key(words[0])
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
        raise ValueError(f"unknown action {words[0]!r}; one of:\n{USAGE}")
    rest.done()
    return action


def action_command(action: game_pb2.Action, max_count: int = 0) -> str:
    """The words `parse_action` reads back for `action` (a count range shows as LOW..HIGH)."""
    if action.WhichOneof("variant") != "classic":
        return "<not a classic action>"
    c = action.classic
    kind = c.WhichOneof("kind")

    def name(t: int) -> str:
        return shlex.quote(territory_name(t))

    def count(low: int) -> str:
        return f"{low}..{max_count}" if max_count and max_count != low else str(low)

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
