from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClassicSetupMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLASSIC_SETUP_MODE_UNSPECIFIED: _ClassVar[ClassicSetupMode]
    CLASSIC_SETUP_MODE_CLAIM: _ClassVar[ClassicSetupMode]
    CLASSIC_SETUP_MODE_RANDOM_DEAL: _ClassVar[ClassicSetupMode]

class ClassicTradeSchedule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLASSIC_TRADE_SCHEDULE_UNSPECIFIED: _ClassVar[ClassicTradeSchedule]
    CLASSIC_TRADE_SCHEDULE_SEED: _ClassVar[ClassicTradeSchedule]
    CLASSIC_TRADE_SCHEDULE_HASBRO_1993: _ClassVar[ClassicTradeSchedule]
    CLASSIC_TRADE_SCHEDULE_FIXED: _ClassVar[ClassicTradeSchedule]

class ClassicFortifyMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLASSIC_FORTIFY_MODE_UNSPECIFIED: _ClassVar[ClassicFortifyMode]
    CLASSIC_FORTIFY_MODE_CONNECTED: _ClassVar[ClassicFortifyMode]
    CLASSIC_FORTIFY_MODE_ADJACENT: _ClassVar[ClassicFortifyMode]

class ClassicPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLASSIC_PHASE_UNSPECIFIED: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_CLAIM: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_SETUP_PLACE: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_SETUP_NEUTRAL: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_REINFORCE: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_ATTACK: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_DEFEND: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_MOVE_IN: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_FORTIFY: _ClassVar[ClassicPhase]
    CLASSIC_PHASE_FINISHED: _ClassVar[ClassicPhase]
CLASSIC_SETUP_MODE_UNSPECIFIED: ClassicSetupMode
CLASSIC_SETUP_MODE_CLAIM: ClassicSetupMode
CLASSIC_SETUP_MODE_RANDOM_DEAL: ClassicSetupMode
CLASSIC_TRADE_SCHEDULE_UNSPECIFIED: ClassicTradeSchedule
CLASSIC_TRADE_SCHEDULE_SEED: ClassicTradeSchedule
CLASSIC_TRADE_SCHEDULE_HASBRO_1993: ClassicTradeSchedule
CLASSIC_TRADE_SCHEDULE_FIXED: ClassicTradeSchedule
CLASSIC_FORTIFY_MODE_UNSPECIFIED: ClassicFortifyMode
CLASSIC_FORTIFY_MODE_CONNECTED: ClassicFortifyMode
CLASSIC_FORTIFY_MODE_ADJACENT: ClassicFortifyMode
CLASSIC_PHASE_UNSPECIFIED: ClassicPhase
CLASSIC_PHASE_CLAIM: ClassicPhase
CLASSIC_PHASE_SETUP_PLACE: ClassicPhase
CLASSIC_PHASE_SETUP_NEUTRAL: ClassicPhase
CLASSIC_PHASE_REINFORCE: ClassicPhase
CLASSIC_PHASE_ATTACK: ClassicPhase
CLASSIC_PHASE_DEFEND: ClassicPhase
CLASSIC_PHASE_MOVE_IN: ClassicPhase
CLASSIC_PHASE_FORTIFY: ClassicPhase
CLASSIC_PHASE_FINISHED: ClassicPhase

class ClassicOptions(_message.Message):
    __slots__ = ("players", "setup", "auto_place", "trade_schedule", "fortify", "auto_defend_max_dice", "cards", "max_turns", "duplicate_draws")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    AUTO_PLACE_FIELD_NUMBER: _ClassVar[int]
    TRADE_SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    FORTIFY_FIELD_NUMBER: _ClassVar[int]
    AUTO_DEFEND_MAX_DICE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_DRAWS_FIELD_NUMBER: _ClassVar[int]
    players: int
    setup: ClassicSetupMode
    auto_place: bool
    trade_schedule: ClassicTradeSchedule
    fortify: ClassicFortifyMode
    auto_defend_max_dice: bool
    cards: bool
    max_turns: int
    duplicate_draws: bool
    def __init__(self, players: _Optional[int] = ..., setup: _Optional[_Union[ClassicSetupMode, str]] = ..., auto_place: _Optional[bool] = ..., trade_schedule: _Optional[_Union[ClassicTradeSchedule, str]] = ..., fortify: _Optional[_Union[ClassicFortifyMode, str]] = ..., auto_defend_max_dice: _Optional[bool] = ..., cards: _Optional[bool] = ..., max_turns: _Optional[int] = ..., duplicate_draws: _Optional[bool] = ...) -> None: ...

class ClassicState(_message.Message):
    __slots__ = ("options", "seed", "rng_state", "rng_inc", "phase", "current", "turn", "first_seat", "owner", "armies", "to_place", "hands", "deck", "discard", "trades_done", "pending", "bonus_used", "conquered", "resume_attack", "eliminated", "attack_from", "attack_to", "attack_dice", "winner", "ranking", "end_reason", "out_order", "draw_streams")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RNG_STATE_FIELD_NUMBER: _ClassVar[int]
    RNG_INC_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    TO_PLACE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TRADES_DONE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    BONUS_USED_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_FIELD_NUMBER: _ClassVar[int]
    RESUME_ATTACK_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FROM_FIELD_NUMBER: _ClassVar[int]
    ATTACK_TO_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    DRAW_STREAMS_FIELD_NUMBER: _ClassVar[int]
    options: ClassicOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: ClassicPhase
    current: int
    turn: int
    first_seat: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    armies: _containers.RepeatedScalarFieldContainer[int]
    to_place: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    deck: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    trades_done: int
    pending: int
    bonus_used: bool
    conquered: bool
    resume_attack: bool
    eliminated: _containers.RepeatedScalarFieldContainer[bool]
    attack_from: int
    attack_to: int
    attack_dice: int
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    out_order: _containers.RepeatedScalarFieldContainer[int]
    draw_streams: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, options: _Optional[_Union[ClassicOptions, _Mapping]] = ..., seed: _Optional[int] = ..., rng_state: _Optional[int] = ..., rng_inc: _Optional[int] = ..., phase: _Optional[_Union[ClassicPhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., first_seat: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., armies: _Optional[_Iterable[int]] = ..., to_place: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., deck: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., trades_done: _Optional[int] = ..., pending: _Optional[int] = ..., bonus_used: _Optional[bool] = ..., conquered: _Optional[bool] = ..., resume_attack: _Optional[bool] = ..., eliminated: _Optional[_Iterable[bool]] = ..., attack_from: _Optional[int] = ..., attack_to: _Optional[int] = ..., attack_dice: _Optional[int] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., out_order: _Optional[_Iterable[int]] = ..., draw_streams: _Optional[_Iterable[int]] = ...) -> None: ...

class ClassicView(_message.Message):
    __slots__ = ("viewer", "options", "phase", "current", "turn", "owner", "armies", "to_place", "hand", "hand_counts", "deck_count", "discard", "trades_done", "next_trade_value", "pending", "bonus_used", "conquered", "eliminated", "attack_from", "attack_to", "attack_dice", "winner", "ranking", "end_reason", "out_order")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    TO_PLACE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TRADES_DONE_FIELD_NUMBER: _ClassVar[int]
    NEXT_TRADE_VALUE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    BONUS_USED_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FROM_FIELD_NUMBER: _ClassVar[int]
    ATTACK_TO_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    options: ClassicOptions
    phase: ClassicPhase
    current: int
    turn: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    armies: _containers.RepeatedScalarFieldContainer[int]
    to_place: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_counts: _containers.RepeatedScalarFieldContainer[int]
    deck_count: int
    discard: _containers.RepeatedScalarFieldContainer[int]
    trades_done: int
    next_trade_value: int
    pending: int
    bonus_used: bool
    conquered: bool
    eliminated: _containers.RepeatedScalarFieldContainer[bool]
    attack_from: int
    attack_to: int
    attack_dice: int
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    out_order: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, viewer: _Optional[int] = ..., options: _Optional[_Union[ClassicOptions, _Mapping]] = ..., phase: _Optional[_Union[ClassicPhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., armies: _Optional[_Iterable[int]] = ..., to_place: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[int]] = ..., hand_counts: _Optional[_Iterable[int]] = ..., deck_count: _Optional[int] = ..., discard: _Optional[_Iterable[int]] = ..., trades_done: _Optional[int] = ..., next_trade_value: _Optional[int] = ..., pending: _Optional[int] = ..., bonus_used: _Optional[bool] = ..., conquered: _Optional[bool] = ..., eliminated: _Optional[_Iterable[bool]] = ..., attack_from: _Optional[int] = ..., attack_to: _Optional[int] = ..., attack_dice: _Optional[int] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., out_order: _Optional[_Iterable[int]] = ...) -> None: ...

class ClassicAction(_message.Message):
    __slots__ = ("claim_territory", "place_armies", "place_neutral", "trade_cards", "attack", "defend", "move_in", "end_attack", "fortify", "end_turn")
    class ClaimTerritory(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class PlaceArmies(_message.Message):
        __slots__ = ("territory", "count")
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        territory: int
        count: int
        def __init__(self, territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class PlaceNeutral(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class TradeCards(_message.Message):
        __slots__ = ("cards", "bonus_territory")
        CARDS_FIELD_NUMBER: _ClassVar[int]
        BONUS_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        cards: _containers.RepeatedScalarFieldContainer[int]
        bonus_territory: int
        def __init__(self, cards: _Optional[_Iterable[int]] = ..., bonus_territory: _Optional[int] = ...) -> None: ...
    class Attack(_message.Message):
        __slots__ = ("from_territory", "to_territory", "dice")
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        DICE_FIELD_NUMBER: _ClassVar[int]
        from_territory: int
        to_territory: int
        dice: int
        def __init__(self, from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., dice: _Optional[int] = ...) -> None: ...
    class Defend(_message.Message):
        __slots__ = ("dice",)
        DICE_FIELD_NUMBER: _ClassVar[int]
        dice: int
        def __init__(self, dice: _Optional[int] = ...) -> None: ...
    class MoveIn(_message.Message):
        __slots__ = ("count",)
        COUNT_FIELD_NUMBER: _ClassVar[int]
        count: int
        def __init__(self, count: _Optional[int] = ...) -> None: ...
    class EndAttack(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Fortify(_message.Message):
        __slots__ = ("from_territory", "to_territory", "count")
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        from_territory: int
        to_territory: int
        count: int
        def __init__(self, from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class EndTurn(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    CLAIM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
    PLACE_ARMIES_FIELD_NUMBER: _ClassVar[int]
    PLACE_NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    TRADE_CARDS_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFEND_FIELD_NUMBER: _ClassVar[int]
    MOVE_IN_FIELD_NUMBER: _ClassVar[int]
    END_ATTACK_FIELD_NUMBER: _ClassVar[int]
    FORTIFY_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    claim_territory: ClassicAction.ClaimTerritory
    place_armies: ClassicAction.PlaceArmies
    place_neutral: ClassicAction.PlaceNeutral
    trade_cards: ClassicAction.TradeCards
    attack: ClassicAction.Attack
    defend: ClassicAction.Defend
    move_in: ClassicAction.MoveIn
    end_attack: ClassicAction.EndAttack
    fortify: ClassicAction.Fortify
    end_turn: ClassicAction.EndTurn
    def __init__(self, claim_territory: _Optional[_Union[ClassicAction.ClaimTerritory, _Mapping]] = ..., place_armies: _Optional[_Union[ClassicAction.PlaceArmies, _Mapping]] = ..., place_neutral: _Optional[_Union[ClassicAction.PlaceNeutral, _Mapping]] = ..., trade_cards: _Optional[_Union[ClassicAction.TradeCards, _Mapping]] = ..., attack: _Optional[_Union[ClassicAction.Attack, _Mapping]] = ..., defend: _Optional[_Union[ClassicAction.Defend, _Mapping]] = ..., move_in: _Optional[_Union[ClassicAction.MoveIn, _Mapping]] = ..., end_attack: _Optional[_Union[ClassicAction.EndAttack, _Mapping]] = ..., fortify: _Optional[_Union[ClassicAction.Fortify, _Mapping]] = ..., end_turn: _Optional[_Union[ClassicAction.EndTurn, _Mapping]] = ...) -> None: ...

class ClassicEvent(_message.Message):
    __slots__ = ("order_rolled", "deck_shuffled", "territories_dealt", "territory_claimed", "armies_placed", "turn_started", "cards_traded", "attack_declared", "battle_resolved", "territory_conquered", "armies_moved", "player_eliminated", "attack_ended", "card_drawn", "turn_ended", "game_ended", "player_resigned")
    class OrderRolled(_message.Message):
        __slots__ = ("purpose", "seats", "rolls", "winner")
        PURPOSE_FIELD_NUMBER: _ClassVar[int]
        SEATS_FIELD_NUMBER: _ClassVar[int]
        ROLLS_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        purpose: str
        seats: _containers.RepeatedScalarFieldContainer[int]
        rolls: _containers.RepeatedScalarFieldContainer[int]
        winner: int
        def __init__(self, purpose: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., rolls: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...
    class DeckShuffled(_message.Message):
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: int
        def __init__(self, cards: _Optional[int] = ...) -> None: ...
    class TerritoriesDealt(_message.Message):
        __slots__ = ("owner",)
        OWNER_FIELD_NUMBER: _ClassVar[int]
        owner: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, owner: _Optional[_Iterable[int]] = ...) -> None: ...
    class TerritoryClaimed(_message.Message):
        __slots__ = ("seat", "territory")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ...) -> None: ...
    class ArmiesPlaced(_message.Message):
        __slots__ = ("seat", "territory", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class TurnStarted(_message.Message):
        __slots__ = ("seat", "turn", "reinforcements", "continent_bonus")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        REINFORCEMENTS_FIELD_NUMBER: _ClassVar[int]
        CONTINENT_BONUS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        turn: int
        reinforcements: int
        continent_bonus: int
        def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ..., reinforcements: _Optional[int] = ..., continent_bonus: _Optional[int] = ...) -> None: ...
    class CardsTraded(_message.Message):
        __slots__ = ("seat", "cards", "armies", "bonus_territory", "trade_number")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        ARMIES_FIELD_NUMBER: _ClassVar[int]
        BONUS_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TRADE_NUMBER_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        armies: int
        bonus_territory: int
        trade_number: int
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., armies: _Optional[int] = ..., bonus_territory: _Optional[int] = ..., trade_number: _Optional[int] = ...) -> None: ...
    class AttackDeclared(_message.Message):
        __slots__ = ("seat", "from_territory", "to_territory", "dice", "defender")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        DICE_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        seat: int
        from_territory: int
        to_territory: int
        dice: int
        defender: int
        def __init__(self, seat: _Optional[int] = ..., from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., dice: _Optional[int] = ..., defender: _Optional[int] = ...) -> None: ...
    class BattleResolved(_message.Message):
        __slots__ = ("attacker", "defender", "from_territory", "to_territory", "attack_dice", "defence_dice", "attacker_losses", "defender_losses")
        ATTACKER_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        attacker: int
        defender: int
        from_territory: int
        to_territory: int
        attack_dice: _containers.RepeatedScalarFieldContainer[int]
        defence_dice: _containers.RepeatedScalarFieldContainer[int]
        attacker_losses: int
        defender_losses: int
        def __init__(self, attacker: _Optional[int] = ..., defender: _Optional[int] = ..., from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., attacker_losses: _Optional[int] = ..., defender_losses: _Optional[int] = ...) -> None: ...
    class TerritoryConquered(_message.Message):
        __slots__ = ("seat", "territory", "previous_owner")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_OWNER_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        previous_owner: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., previous_owner: _Optional[int] = ...) -> None: ...
    class ArmiesMoved(_message.Message):
        __slots__ = ("seat", "from_territory", "to_territory", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        from_territory: int
        to_territory: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class PlayerEliminated(_message.Message):
        __slots__ = ("seat", "by", "cards_taken")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        BY_FIELD_NUMBER: _ClassVar[int]
        CARDS_TAKEN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        by: int
        cards_taken: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., by: _Optional[int] = ..., cards_taken: _Optional[_Iterable[int]] = ...) -> None: ...
    class AttackEnded(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class CardDrawn(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...
    class TurnEnded(_message.Message):
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
    class PlayerResigned(_message.Message):
        __slots__ = ("seat", "neutral")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        NEUTRAL_FIELD_NUMBER: _ClassVar[int]
        seat: int
        neutral: int
        def __init__(self, seat: _Optional[int] = ..., neutral: _Optional[int] = ...) -> None: ...
    ORDER_ROLLED_FIELD_NUMBER: _ClassVar[int]
    DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_DEALT_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_CLAIMED_FIELD_NUMBER: _ClassVar[int]
    ARMIES_PLACED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_TRADED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DECLARED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_CONQUERED_FIELD_NUMBER: _ClassVar[int]
    ARMIES_MOVED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_ENDED_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_RESIGNED_FIELD_NUMBER: _ClassVar[int]
    order_rolled: ClassicEvent.OrderRolled
    deck_shuffled: ClassicEvent.DeckShuffled
    territories_dealt: ClassicEvent.TerritoriesDealt
    territory_claimed: ClassicEvent.TerritoryClaimed
    armies_placed: ClassicEvent.ArmiesPlaced
    turn_started: ClassicEvent.TurnStarted
    cards_traded: ClassicEvent.CardsTraded
    attack_declared: ClassicEvent.AttackDeclared
    battle_resolved: ClassicEvent.BattleResolved
    territory_conquered: ClassicEvent.TerritoryConquered
    armies_moved: ClassicEvent.ArmiesMoved
    player_eliminated: ClassicEvent.PlayerEliminated
    attack_ended: ClassicEvent.AttackEnded
    card_drawn: ClassicEvent.CardDrawn
    turn_ended: ClassicEvent.TurnEnded
    game_ended: ClassicEvent.GameEnded
    player_resigned: ClassicEvent.PlayerResigned
    def __init__(self, order_rolled: _Optional[_Union[ClassicEvent.OrderRolled, _Mapping]] = ..., deck_shuffled: _Optional[_Union[ClassicEvent.DeckShuffled, _Mapping]] = ..., territories_dealt: _Optional[_Union[ClassicEvent.TerritoriesDealt, _Mapping]] = ..., territory_claimed: _Optional[_Union[ClassicEvent.TerritoryClaimed, _Mapping]] = ..., armies_placed: _Optional[_Union[ClassicEvent.ArmiesPlaced, _Mapping]] = ..., turn_started: _Optional[_Union[ClassicEvent.TurnStarted, _Mapping]] = ..., cards_traded: _Optional[_Union[ClassicEvent.CardsTraded, _Mapping]] = ..., attack_declared: _Optional[_Union[ClassicEvent.AttackDeclared, _Mapping]] = ..., battle_resolved: _Optional[_Union[ClassicEvent.BattleResolved, _Mapping]] = ..., territory_conquered: _Optional[_Union[ClassicEvent.TerritoryConquered, _Mapping]] = ..., armies_moved: _Optional[_Union[ClassicEvent.ArmiesMoved, _Mapping]] = ..., player_eliminated: _Optional[_Union[ClassicEvent.PlayerEliminated, _Mapping]] = ..., attack_ended: _Optional[_Union[ClassicEvent.AttackEnded, _Mapping]] = ..., card_drawn: _Optional[_Union[ClassicEvent.CardDrawn, _Mapping]] = ..., turn_ended: _Optional[_Union[ClassicEvent.TurnEnded, _Mapping]] = ..., game_ended: _Optional[_Union[ClassicEvent.GameEnded, _Mapping]] = ..., player_resigned: _Optional[_Union[ClassicEvent.PlayerResigned, _Mapping]] = ...) -> None: ...
