from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StrikeTactic(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRIKE_TACTIC_UNSPECIFIED: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_TROOPS: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_ARTILLERY: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_SABOTAGE: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_SPY: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_RALLY: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_EXPAND: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_BOMBARD: _ClassVar[StrikeTactic]
    STRIKE_TACTIC_CANCEL_ORDER: _ClassVar[StrikeTactic]

class StrikeSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRIKE_SIDE_UNSPECIFIED: _ClassVar[StrikeSide]
    STRIKE_SIDE_ATTACKER: _ClassVar[StrikeSide]
    STRIKE_SIDE_DEFENDER: _ClassVar[StrikeSide]

class StrikePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRIKE_PHASE_UNSPECIFIED: _ClassVar[StrikePhase]
    STRIKE_PHASE_DRAW: _ClassVar[StrikePhase]
    STRIKE_PHASE_MAIN: _ClassVar[StrikePhase]
    STRIKE_PHASE_DEPLOY: _ClassVar[StrikePhase]
    STRIKE_PHASE_AFTER_DEPLOY: _ClassVar[StrikePhase]
    STRIKE_PHASE_AFTER_ROLL: _ClassVar[StrikePhase]
    STRIKE_PHASE_CONTINUE: _ClassVar[StrikePhase]
    STRIKE_PHASE_FINISHED: _ClassVar[StrikePhase]

class StrikeWindowKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRIKE_WINDOW_KIND_UNSPECIFIED: _ClassVar[StrikeWindowKind]
    STRIKE_WINDOW_KIND_DEPLOY: _ClassVar[StrikeWindowKind]
    STRIKE_WINDOW_KIND_AFTER_DEPLOY: _ClassVar[StrikeWindowKind]
    STRIKE_WINDOW_KIND_AFTER_ROLL: _ClassVar[StrikeWindowKind]
    STRIKE_WINDOW_KIND_CANCEL: _ClassVar[StrikeWindowKind]

class StrikeDeck(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STRIKE_DECK_UNSPECIFIED: _ClassVar[StrikeDeck]
    STRIKE_DECK_CONTINENT: _ClassVar[StrikeDeck]
    STRIKE_DECK_TACTICS: _ClassVar[StrikeDeck]
STRIKE_TACTIC_UNSPECIFIED: StrikeTactic
STRIKE_TACTIC_TROOPS: StrikeTactic
STRIKE_TACTIC_ARTILLERY: StrikeTactic
STRIKE_TACTIC_SABOTAGE: StrikeTactic
STRIKE_TACTIC_SPY: StrikeTactic
STRIKE_TACTIC_RALLY: StrikeTactic
STRIKE_TACTIC_EXPAND: StrikeTactic
STRIKE_TACTIC_BOMBARD: StrikeTactic
STRIKE_TACTIC_CANCEL_ORDER: StrikeTactic
STRIKE_SIDE_UNSPECIFIED: StrikeSide
STRIKE_SIDE_ATTACKER: StrikeSide
STRIKE_SIDE_DEFENDER: StrikeSide
STRIKE_PHASE_UNSPECIFIED: StrikePhase
STRIKE_PHASE_DRAW: StrikePhase
STRIKE_PHASE_MAIN: StrikePhase
STRIKE_PHASE_DEPLOY: StrikePhase
STRIKE_PHASE_AFTER_DEPLOY: StrikePhase
STRIKE_PHASE_AFTER_ROLL: StrikePhase
STRIKE_PHASE_CONTINUE: StrikePhase
STRIKE_PHASE_FINISHED: StrikePhase
STRIKE_WINDOW_KIND_UNSPECIFIED: StrikeWindowKind
STRIKE_WINDOW_KIND_DEPLOY: StrikeWindowKind
STRIKE_WINDOW_KIND_AFTER_DEPLOY: StrikeWindowKind
STRIKE_WINDOW_KIND_AFTER_ROLL: StrikeWindowKind
STRIKE_WINDOW_KIND_CANCEL: StrikeWindowKind
STRIKE_DECK_UNSPECIFIED: StrikeDeck
STRIKE_DECK_CONTINENT: StrikeDeck
STRIKE_DECK_TACTICS: StrikeDeck

class StrikeOptions(_message.Message):
    __slots__ = ("players", "max_turns", "auto_pass", "duplicate_draws")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    AUTO_PASS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_DRAWS_FIELD_NUMBER: _ClassVar[int]
    players: int
    max_turns: int
    auto_pass: bool
    duplicate_draws: bool
    def __init__(self, players: _Optional[int] = ..., max_turns: _Optional[int] = ..., auto_pass: _Optional[bool] = ..., duplicate_draws: _Optional[bool] = ...) -> None: ...

class TacticPlay(_message.Message):
    __slots__ = ("seat", "card", "card_id", "target", "side", "die", "continent_cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CARD_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: StrikeTactic
    card_id: int
    target: int
    side: int
    die: int
    continent_cards: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[StrikeTactic, str]] = ..., card_id: _Optional[int] = ..., target: _Optional[int] = ..., side: _Optional[int] = ..., die: _Optional[int] = ..., continent_cards: _Optional[bool] = ...) -> None: ...

class StrikeState(_message.Message):
    __slots__ = ("options", "seed", "rng_state", "rng_inc", "phase", "current", "turn", "first_seat", "continents", "hands", "continent_deck", "tactics_deck", "surrender", "tactics_discard", "coins", "out", "out_order", "defender", "from_continent", "to_continent", "troops", "sides", "attack_dice", "defence_dice", "rolls", "windows", "plays", "winner", "ranking", "end_reason", "draw_streams")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RNG_STATE_FIELD_NUMBER: _ClassVar[int]
    RNG_INC_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTINENTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_DECK_FIELD_NUMBER: _ClassVar[int]
    TACTICS_DECK_FIELD_NUMBER: _ClassVar[int]
    SURRENDER_FIELD_NUMBER: _ClassVar[int]
    TACTICS_DISCARD_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    FROM_CONTINENT_FIELD_NUMBER: _ClassVar[int]
    TO_CONTINENT_FIELD_NUMBER: _ClassVar[int]
    TROOPS_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    DRAW_STREAMS_FIELD_NUMBER: _ClassVar[int]
    options: StrikeOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: StrikePhase
    current: int
    turn: int
    first_seat: int
    continents: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    continent_deck: _containers.RepeatedScalarFieldContainer[int]
    tactics_deck: _containers.RepeatedScalarFieldContainer[int]
    surrender: _containers.RepeatedScalarFieldContainer[int]
    tactics_discard: _containers.RepeatedScalarFieldContainer[int]
    coins: _containers.RepeatedScalarFieldContainer[int]
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    defender: int
    from_continent: int
    to_continent: int
    troops: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    sides: _containers.RepeatedScalarFieldContainer[int]
    attack_dice: _containers.RepeatedScalarFieldContainer[int]
    defence_dice: _containers.RepeatedScalarFieldContainer[int]
    rolls: int
    windows: _containers.RepeatedCompositeFieldContainer[_common_pb2.ResponseWindow]
    plays: _containers.RepeatedCompositeFieldContainer[TacticPlay]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    draw_streams: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, options: _Optional[_Union[StrikeOptions, _Mapping]] = ..., seed: _Optional[int] = ..., rng_state: _Optional[int] = ..., rng_inc: _Optional[int] = ..., phase: _Optional[_Union[StrikePhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., first_seat: _Optional[int] = ..., continents: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., continent_deck: _Optional[_Iterable[int]] = ..., tactics_deck: _Optional[_Iterable[int]] = ..., surrender: _Optional[_Iterable[int]] = ..., tactics_discard: _Optional[_Iterable[int]] = ..., coins: _Optional[_Iterable[int]] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., defender: _Optional[int] = ..., from_continent: _Optional[int] = ..., to_continent: _Optional[int] = ..., troops: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., sides: _Optional[_Iterable[int]] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., rolls: _Optional[int] = ..., windows: _Optional[_Iterable[_Union[_common_pb2.ResponseWindow, _Mapping]]] = ..., plays: _Optional[_Iterable[_Union[TacticPlay, _Mapping]]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., draw_streams: _Optional[_Iterable[int]] = ...) -> None: ...

class StrikeView(_message.Message):
    __slots__ = ("viewer", "options", "phase", "current", "turn", "continents", "hand", "hand_counts", "continent_deck_count", "tactics_deck_count", "surrender", "tactics_discard", "coins", "out", "out_order", "defender", "from_continent", "to_continent", "troops", "sides", "attack_dice", "defence_dice", "rolls", "windows", "plays", "winner", "ranking", "end_reason")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    CONTINENTS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNTS_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    TACTICS_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    SURRENDER_FIELD_NUMBER: _ClassVar[int]
    TACTICS_DISCARD_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    FROM_CONTINENT_FIELD_NUMBER: _ClassVar[int]
    TO_CONTINENT_FIELD_NUMBER: _ClassVar[int]
    TROOPS_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
    ROLLS_FIELD_NUMBER: _ClassVar[int]
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    options: StrikeOptions
    phase: StrikePhase
    current: int
    turn: int
    continents: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_counts: _containers.RepeatedScalarFieldContainer[int]
    continent_deck_count: int
    tactics_deck_count: int
    surrender: _containers.RepeatedScalarFieldContainer[int]
    tactics_discard: _containers.RepeatedScalarFieldContainer[int]
    coins: _containers.RepeatedScalarFieldContainer[int]
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    defender: int
    from_continent: int
    to_continent: int
    troops: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    sides: _containers.RepeatedScalarFieldContainer[int]
    attack_dice: _containers.RepeatedScalarFieldContainer[int]
    defence_dice: _containers.RepeatedScalarFieldContainer[int]
    rolls: int
    windows: _containers.RepeatedCompositeFieldContainer[_common_pb2.ResponseWindow]
    plays: _containers.RepeatedCompositeFieldContainer[TacticPlay]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, viewer: _Optional[int] = ..., options: _Optional[_Union[StrikeOptions, _Mapping]] = ..., phase: _Optional[_Union[StrikePhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., continents: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., hand: _Optional[_Iterable[int]] = ..., hand_counts: _Optional[_Iterable[int]] = ..., continent_deck_count: _Optional[int] = ..., tactics_deck_count: _Optional[int] = ..., surrender: _Optional[_Iterable[int]] = ..., tactics_discard: _Optional[_Iterable[int]] = ..., coins: _Optional[_Iterable[int]] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., defender: _Optional[int] = ..., from_continent: _Optional[int] = ..., to_continent: _Optional[int] = ..., troops: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., sides: _Optional[_Iterable[int]] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., rolls: _Optional[int] = ..., windows: _Optional[_Iterable[_Union[_common_pb2.ResponseWindow, _Mapping]]] = ..., plays: _Optional[_Iterable[_Union[TacticPlay, _Mapping]]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class StrikeAction(_message.Message):
    __slots__ = ("draw_cards", "attack", "pass_turn", "deploy", "play_spy", "play_expand", "play_artillery", "play_sabotage", "play_rally", "play_bombard", "play_cancel_order", "roll_again", "stop_attack")
    class DrawCards(_message.Message):
        __slots__ = ("continent_cards",)
        CONTINENT_CARDS_FIELD_NUMBER: _ClassVar[int]
        continent_cards: int
        def __init__(self, continent_cards: _Optional[int] = ...) -> None: ...
    class Attack(_message.Message):
        __slots__ = ("defender", "from_continent", "to_continent")
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        FROM_CONTINENT_FIELD_NUMBER: _ClassVar[int]
        TO_CONTINENT_FIELD_NUMBER: _ClassVar[int]
        defender: int
        from_continent: int
        to_continent: int
        def __init__(self, defender: _Optional[int] = ..., from_continent: _Optional[int] = ..., to_continent: _Optional[int] = ...) -> None: ...
    class PassTurn(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Deploy(_message.Message):
        __slots__ = ("side", "count")
        SIDE_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        side: StrikeSide
        count: int
        def __init__(self, side: _Optional[_Union[StrikeSide, str]] = ..., count: _Optional[int] = ...) -> None: ...
    class Pass(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class PlaySpy(_message.Message):
        __slots__ = ("target",)
        TARGET_FIELD_NUMBER: _ClassVar[int]
        target: int
        def __init__(self, target: _Optional[int] = ...) -> None: ...
    class PlayExpand(_message.Message):
        __slots__ = ("continent_cards",)
        CONTINENT_CARDS_FIELD_NUMBER: _ClassVar[int]
        continent_cards: bool
        def __init__(self, continent_cards: _Optional[bool] = ...) -> None: ...
    class PlayArtillery(_message.Message):
        __slots__ = ("target",)
        TARGET_FIELD_NUMBER: _ClassVar[int]
        target: int
        def __init__(self, target: _Optional[int] = ...) -> None: ...
    class PlaySabotage(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class PlayRally(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class PlayBombard(_message.Message):
        __slots__ = ("side", "die")
        SIDE_FIELD_NUMBER: _ClassVar[int]
        DIE_FIELD_NUMBER: _ClassVar[int]
        side: StrikeSide
        die: int
        def __init__(self, side: _Optional[_Union[StrikeSide, str]] = ..., die: _Optional[int] = ...) -> None: ...
    class PlayCancelOrder(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class RollAgain(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class StopAttack(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    DRAW_CARDS_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    PASS_TURN_FIELD_NUMBER: _ClassVar[int]
    DEPLOY_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    PLAY_SPY_FIELD_NUMBER: _ClassVar[int]
    PLAY_EXPAND_FIELD_NUMBER: _ClassVar[int]
    PLAY_ARTILLERY_FIELD_NUMBER: _ClassVar[int]
    PLAY_SABOTAGE_FIELD_NUMBER: _ClassVar[int]
    PLAY_RALLY_FIELD_NUMBER: _ClassVar[int]
    PLAY_BOMBARD_FIELD_NUMBER: _ClassVar[int]
    PLAY_CANCEL_ORDER_FIELD_NUMBER: _ClassVar[int]
    ROLL_AGAIN_FIELD_NUMBER: _ClassVar[int]
    STOP_ATTACK_FIELD_NUMBER: _ClassVar[int]
    draw_cards: StrikeAction.DrawCards
    attack: StrikeAction.Attack
    pass_turn: StrikeAction.PassTurn
    deploy: StrikeAction.Deploy
    play_spy: StrikeAction.PlaySpy
    play_expand: StrikeAction.PlayExpand
    play_artillery: StrikeAction.PlayArtillery
    play_sabotage: StrikeAction.PlaySabotage
    play_rally: StrikeAction.PlayRally
    play_bombard: StrikeAction.PlayBombard
    play_cancel_order: StrikeAction.PlayCancelOrder
    roll_again: StrikeAction.RollAgain
    stop_attack: StrikeAction.StopAttack
    def __init__(self, draw_cards: _Optional[_Union[StrikeAction.DrawCards, _Mapping]] = ..., attack: _Optional[_Union[StrikeAction.Attack, _Mapping]] = ..., pass_turn: _Optional[_Union[StrikeAction.PassTurn, _Mapping]] = ..., deploy: _Optional[_Union[StrikeAction.Deploy, _Mapping]] = ..., play_spy: _Optional[_Union[StrikeAction.PlaySpy, _Mapping]] = ..., play_expand: _Optional[_Union[StrikeAction.PlayExpand, _Mapping]] = ..., play_artillery: _Optional[_Union[StrikeAction.PlayArtillery, _Mapping]] = ..., play_sabotage: _Optional[_Union[StrikeAction.PlaySabotage, _Mapping]] = ..., play_rally: _Optional[_Union[StrikeAction.PlayRally, _Mapping]] = ..., play_bombard: _Optional[_Union[StrikeAction.PlayBombard, _Mapping]] = ..., play_cancel_order: _Optional[_Union[StrikeAction.PlayCancelOrder, _Mapping]] = ..., roll_again: _Optional[_Union[StrikeAction.RollAgain, _Mapping]] = ..., stop_attack: _Optional[_Union[StrikeAction.StopAttack, _Mapping]] = ..., **kwargs) -> None: ...

class StrikeEvent(_message.Message):
    __slots__ = ("order_rolled", "deck_shuffled", "continent_cards_drawn", "tactics_drawn", "turn_started", "turn_passed", "attack_declared", "troops_deployed", "passed", "tactic_played", "tactic_resolved", "hand_revealed", "dice_rolled", "dice_changed", "battle_resolved", "troops_discarded", "troops_returned", "continent_card_lost", "coin_taken", "battle_ended", "turn_ended", "player_resigned", "game_ended")
    class OrderRolled(_message.Message):
        __slots__ = ("seats", "rolls", "winner")
        SEATS_FIELD_NUMBER: _ClassVar[int]
        ROLLS_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        seats: _containers.RepeatedScalarFieldContainer[int]
        rolls: _containers.RepeatedScalarFieldContainer[int]
        winner: int
        def __init__(self, seats: _Optional[_Iterable[int]] = ..., rolls: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...
    class DeckShuffled(_message.Message):
        __slots__ = ("deck", "cards")
        DECK_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        deck: StrikeDeck
        cards: int
        def __init__(self, deck: _Optional[_Union[StrikeDeck, str]] = ..., cards: _Optional[int] = ...) -> None: ...
    class ContinentCardsDrawn(_message.Message):
        __slots__ = ("seat", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class TacticsDrawn(_message.Message):
        __slots__ = ("seat", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class TurnStarted(_message.Message):
        __slots__ = ("seat", "turn")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        turn: int
        def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...
    class TurnPassed(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class AttackDeclared(_message.Message):
        __slots__ = ("seat", "defender", "from_continent", "to_continent")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        FROM_CONTINENT_FIELD_NUMBER: _ClassVar[int]
        TO_CONTINENT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        defender: int
        from_continent: int
        to_continent: int
        def __init__(self, seat: _Optional[int] = ..., defender: _Optional[int] = ..., from_continent: _Optional[int] = ..., to_continent: _Optional[int] = ...) -> None: ...
    class TroopsDeployed(_message.Message):
        __slots__ = ("seat", "side", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SIDE_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        side: StrikeSide
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., side: _Optional[_Union[StrikeSide, str]] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class Passed(_message.Message):
        __slots__ = ("seat", "auto")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        AUTO_FIELD_NUMBER: _ClassVar[int]
        seat: int
        auto: bool
        def __init__(self, seat: _Optional[int] = ..., auto: _Optional[bool] = ...) -> None: ...
    class TacticPlayed(_message.Message):
        __slots__ = ("play",)
        PLAY_FIELD_NUMBER: _ClassVar[int]
        play: TacticPlay
        def __init__(self, play: _Optional[_Union[TacticPlay, _Mapping]] = ...) -> None: ...
    class TacticResolved(_message.Message):
        __slots__ = ("seat", "card", "effective")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        EFFECTIVE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: StrikeTactic
        effective: bool
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[StrikeTactic, str]] = ..., effective: _Optional[bool] = ...) -> None: ...
    class HandRevealed(_message.Message):
        __slots__ = ("seat", "target", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TARGET_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        target: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class DiceRolled(_message.Message):
        __slots__ = ("attack", "defence")
        ATTACK_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_FIELD_NUMBER: _ClassVar[int]
        attack: _containers.RepeatedScalarFieldContainer[int]
        defence: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, attack: _Optional[_Iterable[int]] = ..., defence: _Optional[_Iterable[int]] = ...) -> None: ...
    class DiceChanged(_message.Message):
        __slots__ = ("seat", "card", "attack", "defence")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        ATTACK_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: StrikeTactic
        attack: _containers.RepeatedScalarFieldContainer[int]
        defence: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[StrikeTactic, str]] = ..., attack: _Optional[_Iterable[int]] = ..., defence: _Optional[_Iterable[int]] = ...) -> None: ...
    class BattleResolved(_message.Message):
        __slots__ = ("attack", "defence", "attacker_losses", "defender_losses")
        ATTACK_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        attack: _containers.RepeatedScalarFieldContainer[int]
        defence: _containers.RepeatedScalarFieldContainer[int]
        attacker_losses: int
        defender_losses: int
        def __init__(self, attack: _Optional[_Iterable[int]] = ..., defence: _Optional[_Iterable[int]] = ..., attacker_losses: _Optional[int] = ..., defender_losses: _Optional[int] = ...) -> None: ...
    class TroopsDiscarded(_message.Message):
        __slots__ = ("seat", "cards", "reason")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        reason: str
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...
    class TroopsReturned(_message.Message):
        __slots__ = ("seat", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class ContinentCardLost(_message.Message):
        __slots__ = ("seat", "card", "to_seat")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        TO_SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        to_seat: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ..., to_seat: _Optional[int] = ...) -> None: ...
    class CoinTaken(_message.Message):
        __slots__ = ("seat", "continent", "from_seat")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CONTINENT_FIELD_NUMBER: _ClassVar[int]
        FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        continent: int
        from_seat: int
        def __init__(self, seat: _Optional[int] = ..., continent: _Optional[int] = ..., from_seat: _Optional[int] = ...) -> None: ...
    class BattleEnded(_message.Message):
        __slots__ = ("seat", "reason")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        seat: int
        reason: str
        def __init__(self, seat: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...
    class TurnEnded(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class PlayerResigned(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class GameEnded(_message.Message):
        __slots__ = ("winner", "ranking", "reason")
        WINNER_FIELD_NUMBER: _ClassVar[int]
        RANKING_FIELD_NUMBER: _ClassVar[int]
        REASON_FIELD_NUMBER: _ClassVar[int]
        winner: int
        ranking: _containers.RepeatedScalarFieldContainer[int]
        reason: str
        def __init__(self, winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...
    ORDER_ROLLED_FIELD_NUMBER: _ClassVar[int]
    DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_CARDS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    TACTICS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_PASSED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DECLARED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_DEPLOYED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    TACTIC_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TACTIC_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    HAND_REVEALED_FIELD_NUMBER: _ClassVar[int]
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    DICE_CHANGED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_CARD_LOST_FIELD_NUMBER: _ClassVar[int]
    COIN_TAKEN_FIELD_NUMBER: _ClassVar[int]
    BATTLE_ENDED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_RESIGNED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    order_rolled: StrikeEvent.OrderRolled
    deck_shuffled: StrikeEvent.DeckShuffled
    continent_cards_drawn: StrikeEvent.ContinentCardsDrawn
    tactics_drawn: StrikeEvent.TacticsDrawn
    turn_started: StrikeEvent.TurnStarted
    turn_passed: StrikeEvent.TurnPassed
    attack_declared: StrikeEvent.AttackDeclared
    troops_deployed: StrikeEvent.TroopsDeployed
    passed: StrikeEvent.Passed
    tactic_played: StrikeEvent.TacticPlayed
    tactic_resolved: StrikeEvent.TacticResolved
    hand_revealed: StrikeEvent.HandRevealed
    dice_rolled: StrikeEvent.DiceRolled
    dice_changed: StrikeEvent.DiceChanged
    battle_resolved: StrikeEvent.BattleResolved
    troops_discarded: StrikeEvent.TroopsDiscarded
    troops_returned: StrikeEvent.TroopsReturned
    continent_card_lost: StrikeEvent.ContinentCardLost
    coin_taken: StrikeEvent.CoinTaken
    battle_ended: StrikeEvent.BattleEnded
    turn_ended: StrikeEvent.TurnEnded
    player_resigned: StrikeEvent.PlayerResigned
    game_ended: StrikeEvent.GameEnded
    def __init__(self, order_rolled: _Optional[_Union[StrikeEvent.OrderRolled, _Mapping]] = ..., deck_shuffled: _Optional[_Union[StrikeEvent.DeckShuffled, _Mapping]] = ..., continent_cards_drawn: _Optional[_Union[StrikeEvent.ContinentCardsDrawn, _Mapping]] = ..., tactics_drawn: _Optional[_Union[StrikeEvent.TacticsDrawn, _Mapping]] = ..., turn_started: _Optional[_Union[StrikeEvent.TurnStarted, _Mapping]] = ..., turn_passed: _Optional[_Union[StrikeEvent.TurnPassed, _Mapping]] = ..., attack_declared: _Optional[_Union[StrikeEvent.AttackDeclared, _Mapping]] = ..., troops_deployed: _Optional[_Union[StrikeEvent.TroopsDeployed, _Mapping]] = ..., passed: _Optional[_Union[StrikeEvent.Passed, _Mapping]] = ..., tactic_played: _Optional[_Union[StrikeEvent.TacticPlayed, _Mapping]] = ..., tactic_resolved: _Optional[_Union[StrikeEvent.TacticResolved, _Mapping]] = ..., hand_revealed: _Optional[_Union[StrikeEvent.HandRevealed, _Mapping]] = ..., dice_rolled: _Optional[_Union[StrikeEvent.DiceRolled, _Mapping]] = ..., dice_changed: _Optional[_Union[StrikeEvent.DiceChanged, _Mapping]] = ..., battle_resolved: _Optional[_Union[StrikeEvent.BattleResolved, _Mapping]] = ..., troops_discarded: _Optional[_Union[StrikeEvent.TroopsDiscarded, _Mapping]] = ..., troops_returned: _Optional[_Union[StrikeEvent.TroopsReturned, _Mapping]] = ..., continent_card_lost: _Optional[_Union[StrikeEvent.ContinentCardLost, _Mapping]] = ..., coin_taken: _Optional[_Union[StrikeEvent.CoinTaken, _Mapping]] = ..., battle_ended: _Optional[_Union[StrikeEvent.BattleEnded, _Mapping]] = ..., turn_ended: _Optional[_Union[StrikeEvent.TurnEnded, _Mapping]] = ..., player_resigned: _Optional[_Union[StrikeEvent.PlayerResigned, _Mapping]] = ..., game_ended: _Optional[_Union[StrikeEvent.GameEnded, _Mapping]] = ...) -> None: ...
