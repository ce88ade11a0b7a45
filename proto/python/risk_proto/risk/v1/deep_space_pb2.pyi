from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeepSpacePhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEEP_SPACE_PHASE_UNSPECIFIED: _ClassVar[DeepSpacePhase]
    DEEP_SPACE_PHASE_START: _ClassVar[DeepSpacePhase]
    DEEP_SPACE_PHASE_MINING: _ClassVar[DeepSpacePhase]
    DEEP_SPACE_PHASE_MAIN: _ClassVar[DeepSpacePhase]
    DEEP_SPACE_PHASE_DOG: _ClassVar[DeepSpacePhase]
    DEEP_SPACE_PHASE_FINISHED: _ClassVar[DeepSpacePhase]

class DeepSpaceResource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEEP_SPACE_RESOURCE_UNSPECIFIED: _ClassVar[DeepSpaceResource]
    DEEP_SPACE_RESOURCE_GEM: _ClassVar[DeepSpaceResource]
    DEEP_SPACE_RESOURCE_ORE: _ClassVar[DeepSpaceResource]

class DeepSpaceCardKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEEP_SPACE_CARD_KIND_UNSPECIFIED: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_SPACE_DOG: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_FORCE_FIELD: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_METEOR_STRIKE: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_HYPERJUMP: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_REINFORCEMENTS: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_GEM_RUSH: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_ORE_HAUL: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_BATTLE_CRY: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_PROSPECTOR: _ClassVar[DeepSpaceCardKind]
    DEEP_SPACE_CARD_KIND_SABOTAGE: _ClassVar[DeepSpaceCardKind]
DEEP_SPACE_PHASE_UNSPECIFIED: DeepSpacePhase
DEEP_SPACE_PHASE_START: DeepSpacePhase
DEEP_SPACE_PHASE_MINING: DeepSpacePhase
DEEP_SPACE_PHASE_MAIN: DeepSpacePhase
DEEP_SPACE_PHASE_DOG: DeepSpacePhase
DEEP_SPACE_PHASE_FINISHED: DeepSpacePhase
DEEP_SPACE_RESOURCE_UNSPECIFIED: DeepSpaceResource
DEEP_SPACE_RESOURCE_GEM: DeepSpaceResource
DEEP_SPACE_RESOURCE_ORE: DeepSpaceResource
DEEP_SPACE_CARD_KIND_UNSPECIFIED: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_SPACE_DOG: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_FORCE_FIELD: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_METEOR_STRIKE: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_HYPERJUMP: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_REINFORCEMENTS: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_GEM_RUSH: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_ORE_HAUL: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_BATTLE_CRY: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_PROSPECTOR: DeepSpaceCardKind
DEEP_SPACE_CARD_KIND_SABOTAGE: DeepSpaceCardKind

class DeepSpaceOptions(_message.Message):
    __slots__ = ("players", "max_turns", "duplicate_draws")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_DRAWS_FIELD_NUMBER: _ClassVar[int]
    players: int
    max_turns: int
    duplicate_draws: bool
    def __init__(self, players: _Optional[int] = ..., max_turns: _Optional[int] = ..., duplicate_draws: _Optional[bool] = ...) -> None: ...

class DeepSpaceState(_message.Message):
    __slots__ = ("options", "seed", "rng_state", "rng_inc", "phase", "current", "turn", "first_seat", "stations", "recruits", "supply", "bases", "gems", "ore", "bank_gems", "bank_ore", "dogs", "force_fields", "hands", "deck", "discard", "moves_left", "mined", "battle_cry", "dog_planet", "dog_seat", "out", "out_order", "winner", "ranking", "end_reason", "draw_streams")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RNG_STATE_FIELD_NUMBER: _ClassVar[int]
    RNG_INC_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    STATIONS_FIELD_NUMBER: _ClassVar[int]
    RECRUITS_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    BASES_FIELD_NUMBER: _ClassVar[int]
    GEMS_FIELD_NUMBER: _ClassVar[int]
    ORE_FIELD_NUMBER: _ClassVar[int]
    BANK_GEMS_FIELD_NUMBER: _ClassVar[int]
    BANK_ORE_FIELD_NUMBER: _ClassVar[int]
    DOGS_FIELD_NUMBER: _ClassVar[int]
    FORCE_FIELDS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    MOVES_LEFT_FIELD_NUMBER: _ClassVar[int]
    MINED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_CRY_FIELD_NUMBER: _ClassVar[int]
    DOG_PLANET_FIELD_NUMBER: _ClassVar[int]
    DOG_SEAT_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    DRAW_STREAMS_FIELD_NUMBER: _ClassVar[int]
    options: DeepSpaceOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: DeepSpacePhase
    current: int
    turn: int
    first_seat: int
    stations: _containers.RepeatedScalarFieldContainer[int]
    recruits: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    supply: _containers.RepeatedScalarFieldContainer[int]
    bases: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    gems: _containers.RepeatedScalarFieldContainer[int]
    ore: _containers.RepeatedScalarFieldContainer[int]
    bank_gems: int
    bank_ore: int
    dogs: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    force_fields: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    deck: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    moves_left: int
    mined: _containers.RepeatedScalarFieldContainer[int]
    battle_cry: bool
    dog_planet: int
    dog_seat: int
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    draw_streams: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, options: _Optional[_Union[DeepSpaceOptions, _Mapping]] = ..., seed: _Optional[int] = ..., rng_state: _Optional[int] = ..., rng_inc: _Optional[int] = ..., phase: _Optional[_Union[DeepSpacePhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., first_seat: _Optional[int] = ..., stations: _Optional[_Iterable[int]] = ..., recruits: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., supply: _Optional[_Iterable[int]] = ..., bases: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., gems: _Optional[_Iterable[int]] = ..., ore: _Optional[_Iterable[int]] = ..., bank_gems: _Optional[int] = ..., bank_ore: _Optional[int] = ..., dogs: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., force_fields: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., deck: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., moves_left: _Optional[int] = ..., mined: _Optional[_Iterable[int]] = ..., battle_cry: _Optional[bool] = ..., dog_planet: _Optional[int] = ..., dog_seat: _Optional[int] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., draw_streams: _Optional[_Iterable[int]] = ...) -> None: ...

class DeepSpaceView(_message.Message):
    __slots__ = ("viewer", "options", "phase", "current", "turn", "stations", "recruits", "supply", "bases", "gems", "ore", "bank_gems", "bank_ore", "dogs", "force_fields", "hands", "deck_count", "discard", "moves_left", "mined", "battle_cry", "dog_planet", "dog_seat", "out", "out_order", "winner", "ranking", "end_reason")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STATIONS_FIELD_NUMBER: _ClassVar[int]
    RECRUITS_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    BASES_FIELD_NUMBER: _ClassVar[int]
    GEMS_FIELD_NUMBER: _ClassVar[int]
    ORE_FIELD_NUMBER: _ClassVar[int]
    BANK_GEMS_FIELD_NUMBER: _ClassVar[int]
    BANK_ORE_FIELD_NUMBER: _ClassVar[int]
    DOGS_FIELD_NUMBER: _ClassVar[int]
    FORCE_FIELDS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    MOVES_LEFT_FIELD_NUMBER: _ClassVar[int]
    MINED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_CRY_FIELD_NUMBER: _ClassVar[int]
    DOG_PLANET_FIELD_NUMBER: _ClassVar[int]
    DOG_SEAT_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    options: DeepSpaceOptions
    phase: DeepSpacePhase
    current: int
    turn: int
    stations: _containers.RepeatedScalarFieldContainer[int]
    recruits: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    supply: _containers.RepeatedScalarFieldContainer[int]
    bases: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    gems: _containers.RepeatedScalarFieldContainer[int]
    ore: _containers.RepeatedScalarFieldContainer[int]
    bank_gems: int
    bank_ore: int
    dogs: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    force_fields: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    deck_count: int
    discard: _containers.RepeatedScalarFieldContainer[int]
    moves_left: int
    mined: _containers.RepeatedScalarFieldContainer[int]
    battle_cry: bool
    dog_planet: int
    dog_seat: int
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, viewer: _Optional[int] = ..., options: _Optional[_Union[DeepSpaceOptions, _Mapping]] = ..., phase: _Optional[_Union[DeepSpacePhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., stations: _Optional[_Iterable[int]] = ..., recruits: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., supply: _Optional[_Iterable[int]] = ..., bases: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., gems: _Optional[_Iterable[int]] = ..., ore: _Optional[_Iterable[int]] = ..., bank_gems: _Optional[int] = ..., bank_ore: _Optional[int] = ..., dogs: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., force_fields: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., deck_count: _Optional[int] = ..., discard: _Optional[_Iterable[int]] = ..., moves_left: _Optional[int] = ..., mined: _Optional[_Iterable[int]] = ..., battle_cry: _Optional[bool] = ..., dog_planet: _Optional[int] = ..., dog_seat: _Optional[int] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class DeepSpaceAction(_message.Message):
    __slots__ = ("trade_cards", "mine", "recruit", "move", "warp", "build_base", "play_card", "relocate_dog", "return_dog", "end_turn")
    class TradeCards(_message.Message):
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...
    class Mine(_message.Message):
        __slots__ = ("planet", "resource")
        PLANET_FIELD_NUMBER: _ClassVar[int]
        RESOURCE_FIELD_NUMBER: _ClassVar[int]
        planet: int
        resource: DeepSpaceResource
        def __init__(self, planet: _Optional[int] = ..., resource: _Optional[_Union[DeepSpaceResource, str]] = ...) -> None: ...
    class Recruit(_message.Message):
        __slots__ = ("count",)
        COUNT_FIELD_NUMBER: _ClassVar[int]
        count: int
        def __init__(self, count: _Optional[int] = ...) -> None: ...
    class Move(_message.Message):
        __slots__ = ("origin", "destination", "count", "with_dog")
        ORIGIN_FIELD_NUMBER: _ClassVar[int]
        DESTINATION_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        WITH_DOG_FIELD_NUMBER: _ClassVar[int]
        origin: int
        destination: int
        count: int
        with_dog: bool
        def __init__(self, origin: _Optional[int] = ..., destination: _Optional[int] = ..., count: _Optional[int] = ..., with_dog: _Optional[bool] = ...) -> None: ...
    class Warp(_message.Message):
        __slots__ = ("origin", "destination", "count", "with_dog")
        ORIGIN_FIELD_NUMBER: _ClassVar[int]
        DESTINATION_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        WITH_DOG_FIELD_NUMBER: _ClassVar[int]
        origin: int
        destination: int
        count: int
        with_dog: bool
        def __init__(self, origin: _Optional[int] = ..., destination: _Optional[int] = ..., count: _Optional[int] = ..., with_dog: _Optional[bool] = ...) -> None: ...
    class BuildBase(_message.Message):
        __slots__ = ("planet",)
        PLANET_FIELD_NUMBER: _ClassVar[int]
        planet: int
        def __init__(self, planet: _Optional[int] = ...) -> None: ...
    class PlayCard(_message.Message):
        __slots__ = ("card", "planet", "target", "count", "resource", "pay_from")
        CARD_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        TARGET_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        RESOURCE_FIELD_NUMBER: _ClassVar[int]
        PAY_FROM_FIELD_NUMBER: _ClassVar[int]
        card: int
        planet: int
        target: int
        count: int
        resource: DeepSpaceResource
        pay_from: int
        def __init__(self, card: _Optional[int] = ..., planet: _Optional[int] = ..., target: _Optional[int] = ..., count: _Optional[int] = ..., resource: _Optional[_Union[DeepSpaceResource, str]] = ..., pay_from: _Optional[int] = ...) -> None: ...
    class RelocateDog(_message.Message):
        __slots__ = ("planet",)
        PLANET_FIELD_NUMBER: _ClassVar[int]
        planet: int
        def __init__(self, planet: _Optional[int] = ...) -> None: ...
    class ReturnDog(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class EndTurn(_message.Message):
        __slots__ = ("discard",)
        DISCARD_FIELD_NUMBER: _ClassVar[int]
        discard: int
        def __init__(self, discard: _Optional[int] = ...) -> None: ...
    TRADE_CARDS_FIELD_NUMBER: _ClassVar[int]
    MINE_FIELD_NUMBER: _ClassVar[int]
    RECRUIT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    WARP_FIELD_NUMBER: _ClassVar[int]
    BUILD_BASE_FIELD_NUMBER: _ClassVar[int]
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    RELOCATE_DOG_FIELD_NUMBER: _ClassVar[int]
    RETURN_DOG_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    trade_cards: DeepSpaceAction.TradeCards
    mine: DeepSpaceAction.Mine
    recruit: DeepSpaceAction.Recruit
    move: DeepSpaceAction.Move
    warp: DeepSpaceAction.Warp
    build_base: DeepSpaceAction.BuildBase
    play_card: DeepSpaceAction.PlayCard
    relocate_dog: DeepSpaceAction.RelocateDog
    return_dog: DeepSpaceAction.ReturnDog
    end_turn: DeepSpaceAction.EndTurn
    def __init__(self, trade_cards: _Optional[_Union[DeepSpaceAction.TradeCards, _Mapping]] = ..., mine: _Optional[_Union[DeepSpaceAction.Mine, _Mapping]] = ..., recruit: _Optional[_Union[DeepSpaceAction.Recruit, _Mapping]] = ..., move: _Optional[_Union[DeepSpaceAction.Move, _Mapping]] = ..., warp: _Optional[_Union[DeepSpaceAction.Warp, _Mapping]] = ..., build_base: _Optional[_Union[DeepSpaceAction.BuildBase, _Mapping]] = ..., play_card: _Optional[_Union[DeepSpaceAction.PlayCard, _Mapping]] = ..., relocate_dog: _Optional[_Union[DeepSpaceAction.RelocateDog, _Mapping]] = ..., return_dog: _Optional[_Union[DeepSpaceAction.ReturnDog, _Mapping]] = ..., end_turn: _Optional[_Union[DeepSpaceAction.EndTurn, _Mapping]] = ...) -> None: ...

class DeepSpaceEvent(_message.Message):
    __slots__ = ("order_rolled", "player_set_up", "deck_shuffled", "card_drawn", "turn_started", "force_field_expired", "cards_traded", "mined", "recruited", "moved", "battle_rolled", "battle_ended", "base_built", "card_played", "recruits_placed", "recruits_removed", "resources_taken", "ore_returned", "dog_placed", "dog_relocated", "dog_returned", "force_field_placed", "card_discarded", "replenished", "turn_ended", "player_resigned", "game_ended")
    class OrderRolled(_message.Message):
        __slots__ = ("seats", "rolls", "winner")
        SEATS_FIELD_NUMBER: _ClassVar[int]
        ROLLS_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        seats: _containers.RepeatedScalarFieldContainer[int]
        rolls: _containers.RepeatedScalarFieldContainer[int]
        winner: int
        def __init__(self, seats: _Optional[_Iterable[int]] = ..., rolls: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...
    class PlayerSetUp(_message.Message):
        __slots__ = ("seat", "station", "recruits", "gems")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        STATION_FIELD_NUMBER: _ClassVar[int]
        RECRUITS_FIELD_NUMBER: _ClassVar[int]
        GEMS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        station: int
        recruits: int
        gems: int
        def __init__(self, seat: _Optional[int] = ..., station: _Optional[int] = ..., recruits: _Optional[int] = ..., gems: _Optional[int] = ...) -> None: ...
    class DeckShuffled(_message.Message):
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: int
        def __init__(self, cards: _Optional[int] = ...) -> None: ...
    class CardDrawn(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...
    class TurnStarted(_message.Message):
        __slots__ = ("seat", "turn")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        turn: int
        def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...
    class ForceFieldExpired(_message.Message):
        __slots__ = ("seat", "planet")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ...) -> None: ...
    class CardsTraded(_message.Message):
        __slots__ = ("seat", "cards", "recruits")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        RECRUITS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        recruits: int
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., recruits: _Optional[int] = ...) -> None: ...
    class Mined(_message.Message):
        __slots__ = ("seat", "planet", "resource")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        RESOURCE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        resource: DeepSpaceResource
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ..., resource: _Optional[_Union[DeepSpaceResource, str]] = ...) -> None: ...
    class Recruited(_message.Message):
        __slots__ = ("seat", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class Moved(_message.Message):
        __slots__ = ("seat", "origin", "destination", "count", "dogs", "warp")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        ORIGIN_FIELD_NUMBER: _ClassVar[int]
        DESTINATION_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        DOGS_FIELD_NUMBER: _ClassVar[int]
        WARP_FIELD_NUMBER: _ClassVar[int]
        seat: int
        origin: int
        destination: int
        count: int
        dogs: int
        warp: bool
        def __init__(self, seat: _Optional[int] = ..., origin: _Optional[int] = ..., destination: _Optional[int] = ..., count: _Optional[int] = ..., dogs: _Optional[int] = ..., warp: _Optional[bool] = ...) -> None: ...
    class BattleRolled(_message.Message):
        __slots__ = ("planet", "attacker", "defender", "attacker_roll", "defender_roll", "loser", "dog")
        PLANET_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_ROLL_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_ROLL_FIELD_NUMBER: _ClassVar[int]
        LOSER_FIELD_NUMBER: _ClassVar[int]
        DOG_FIELD_NUMBER: _ClassVar[int]
        planet: int
        attacker: int
        defender: int
        attacker_roll: int
        defender_roll: int
        loser: int
        dog: bool
        def __init__(self, planet: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., attacker_roll: _Optional[int] = ..., defender_roll: _Optional[int] = ..., loser: _Optional[int] = ..., dog: _Optional[bool] = ...) -> None: ...
    class BattleEnded(_message.Message):
        __slots__ = ("planet", "attacker", "defender", "winner", "survivors")
        PLANET_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        SURVIVORS_FIELD_NUMBER: _ClassVar[int]
        planet: int
        attacker: int
        defender: int
        winner: int
        survivors: int
        def __init__(self, planet: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., winner: _Optional[int] = ..., survivors: _Optional[int] = ...) -> None: ...
    class BaseBuilt(_message.Message):
        __slots__ = ("seat", "planet", "bases")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        BASES_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        bases: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ..., bases: _Optional[int] = ...) -> None: ...
    class CardPlayed(_message.Message):
        __slots__ = ("seat", "card", "kind", "planet", "target", "count", "gems_paid", "recruit_from")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        KIND_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        TARGET_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        GEMS_PAID_FIELD_NUMBER: _ClassVar[int]
        RECRUIT_FROM_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        kind: DeepSpaceCardKind
        planet: int
        target: int
        count: int
        gems_paid: int
        recruit_from: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ..., kind: _Optional[_Union[DeepSpaceCardKind, str]] = ..., planet: _Optional[int] = ..., target: _Optional[int] = ..., count: _Optional[int] = ..., gems_paid: _Optional[int] = ..., recruit_from: _Optional[int] = ...) -> None: ...
    class RecruitsPlaced(_message.Message):
        __slots__ = ("seat", "station", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        STATION_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        station: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., station: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class RecruitsRemoved(_message.Message):
        __slots__ = ("seat", "planet", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class ResourcesTaken(_message.Message):
        __slots__ = ("seat", "resource", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        RESOURCE_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        resource: DeepSpaceResource
        count: int
        def __init__(self, seat: _Optional[int] = ..., resource: _Optional[_Union[DeepSpaceResource, str]] = ..., count: _Optional[int] = ...) -> None: ...
    class OreReturned(_message.Message):
        __slots__ = ("seat", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class DogPlaced(_message.Message):
        __slots__ = ("seat", "planet")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ...) -> None: ...
    class DogRelocated(_message.Message):
        __slots__ = ("seat", "from_planet", "to_planet", "dogs")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        FROM_PLANET_FIELD_NUMBER: _ClassVar[int]
        TO_PLANET_FIELD_NUMBER: _ClassVar[int]
        DOGS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        from_planet: int
        to_planet: int
        dogs: int
        def __init__(self, seat: _Optional[int] = ..., from_planet: _Optional[int] = ..., to_planet: _Optional[int] = ..., dogs: _Optional[int] = ...) -> None: ...
    class DogReturned(_message.Message):
        __slots__ = ("seat", "planet", "dogs")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        DOGS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        dogs: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ..., dogs: _Optional[int] = ...) -> None: ...
    class ForceFieldPlaced(_message.Message):
        __slots__ = ("seat", "planet")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        PLANET_FIELD_NUMBER: _ClassVar[int]
        seat: int
        planet: int
        def __init__(self, seat: _Optional[int] = ..., planet: _Optional[int] = ...) -> None: ...
    class CardDiscarded(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...
    class Replenished(_message.Message):
        __slots__ = ("seat", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
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
    PLAYER_SET_UP_FIELD_NUMBER: _ClassVar[int]
    DECK_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    FORCE_FIELD_EXPIRED_FIELD_NUMBER: _ClassVar[int]
    CARDS_TRADED_FIELD_NUMBER: _ClassVar[int]
    MINED_FIELD_NUMBER: _ClassVar[int]
    RECRUITED_FIELD_NUMBER: _ClassVar[int]
    MOVED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_ENDED_FIELD_NUMBER: _ClassVar[int]
    BASE_BUILT_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    RECRUITS_PLACED_FIELD_NUMBER: _ClassVar[int]
    RECRUITS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ORE_RETURNED_FIELD_NUMBER: _ClassVar[int]
    DOG_PLACED_FIELD_NUMBER: _ClassVar[int]
    DOG_RELOCATED_FIELD_NUMBER: _ClassVar[int]
    DOG_RETURNED_FIELD_NUMBER: _ClassVar[int]
    FORCE_FIELD_PLACED_FIELD_NUMBER: _ClassVar[int]
    CARD_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    REPLENISHED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_RESIGNED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    order_rolled: DeepSpaceEvent.OrderRolled
    player_set_up: DeepSpaceEvent.PlayerSetUp
    deck_shuffled: DeepSpaceEvent.DeckShuffled
    card_drawn: DeepSpaceEvent.CardDrawn
    turn_started: DeepSpaceEvent.TurnStarted
    force_field_expired: DeepSpaceEvent.ForceFieldExpired
    cards_traded: DeepSpaceEvent.CardsTraded
    mined: DeepSpaceEvent.Mined
    recruited: DeepSpaceEvent.Recruited
    moved: DeepSpaceEvent.Moved
    battle_rolled: DeepSpaceEvent.BattleRolled
    battle_ended: DeepSpaceEvent.BattleEnded
    base_built: DeepSpaceEvent.BaseBuilt
    card_played: DeepSpaceEvent.CardPlayed
    recruits_placed: DeepSpaceEvent.RecruitsPlaced
    recruits_removed: DeepSpaceEvent.RecruitsRemoved
    resources_taken: DeepSpaceEvent.ResourcesTaken
    ore_returned: DeepSpaceEvent.OreReturned
    dog_placed: DeepSpaceEvent.DogPlaced
    dog_relocated: DeepSpaceEvent.DogRelocated
    dog_returned: DeepSpaceEvent.DogReturned
    force_field_placed: DeepSpaceEvent.ForceFieldPlaced
    card_discarded: DeepSpaceEvent.CardDiscarded
    replenished: DeepSpaceEvent.Replenished
    turn_ended: DeepSpaceEvent.TurnEnded
    player_resigned: DeepSpaceEvent.PlayerResigned
    game_ended: DeepSpaceEvent.GameEnded
    def __init__(self, order_rolled: _Optional[_Union[DeepSpaceEvent.OrderRolled, _Mapping]] = ..., player_set_up: _Optional[_Union[DeepSpaceEvent.PlayerSetUp, _Mapping]] = ..., deck_shuffled: _Optional[_Union[DeepSpaceEvent.DeckShuffled, _Mapping]] = ..., card_drawn: _Optional[_Union[DeepSpaceEvent.CardDrawn, _Mapping]] = ..., turn_started: _Optional[_Union[DeepSpaceEvent.TurnStarted, _Mapping]] = ..., force_field_expired: _Optional[_Union[DeepSpaceEvent.ForceFieldExpired, _Mapping]] = ..., cards_traded: _Optional[_Union[DeepSpaceEvent.CardsTraded, _Mapping]] = ..., mined: _Optional[_Union[DeepSpaceEvent.Mined, _Mapping]] = ..., recruited: _Optional[_Union[DeepSpaceEvent.Recruited, _Mapping]] = ..., moved: _Optional[_Union[DeepSpaceEvent.Moved, _Mapping]] = ..., battle_rolled: _Optional[_Union[DeepSpaceEvent.BattleRolled, _Mapping]] = ..., battle_ended: _Optional[_Union[DeepSpaceEvent.BattleEnded, _Mapping]] = ..., base_built: _Optional[_Union[DeepSpaceEvent.BaseBuilt, _Mapping]] = ..., card_played: _Optional[_Union[DeepSpaceEvent.CardPlayed, _Mapping]] = ..., recruits_placed: _Optional[_Union[DeepSpaceEvent.RecruitsPlaced, _Mapping]] = ..., recruits_removed: _Optional[_Union[DeepSpaceEvent.RecruitsRemoved, _Mapping]] = ..., resources_taken: _Optional[_Union[DeepSpaceEvent.ResourcesTaken, _Mapping]] = ..., ore_returned: _Optional[_Union[DeepSpaceEvent.OreReturned, _Mapping]] = ..., dog_placed: _Optional[_Union[DeepSpaceEvent.DogPlaced, _Mapping]] = ..., dog_relocated: _Optional[_Union[DeepSpaceEvent.DogRelocated, _Mapping]] = ..., dog_returned: _Optional[_Union[DeepSpaceEvent.DogReturned, _Mapping]] = ..., force_field_placed: _Optional[_Union[DeepSpaceEvent.ForceFieldPlaced, _Mapping]] = ..., card_discarded: _Optional[_Union[DeepSpaceEvent.CardDiscarded, _Mapping]] = ..., replenished: _Optional[_Union[DeepSpaceEvent.Replenished, _Mapping]] = ..., turn_ended: _Optional[_Union[DeepSpaceEvent.TurnEnded, _Mapping]] = ..., player_resigned: _Optional[_Union[DeepSpaceEvent.PlayerResigned, _Mapping]] = ..., game_ended: _Optional[_Union[DeepSpaceEvent.GameEnded, _Mapping]] = ...) -> None: ...
