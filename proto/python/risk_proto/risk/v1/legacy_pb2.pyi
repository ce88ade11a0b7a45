from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LegacyFaction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_FACTION_UNSPECIFIED: _ClassVar[LegacyFaction]
    LEGACY_FACTION_DIE_MECHANIKER: _ClassVar[LegacyFaction]
    LEGACY_FACTION_ENCLAVE_OF_THE_BEAR: _ClassVar[LegacyFaction]
    LEGACY_FACTION_IMPERIAL_BALKANIA: _ClassVar[LegacyFaction]
    LEGACY_FACTION_KHAN_INDUSTRIES: _ClassVar[LegacyFaction]
    LEGACY_FACTION_SAHARAN_REPUBLIC: _ClassVar[LegacyFaction]

class LegacyPower(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_POWER_UNSPECIFIED: _ClassVar[LegacyPower]
    LEGACY_POWER_FORTIFIED_HQ: _ClassVar[LegacyPower]
    LEGACY_POWER_STEADFAST_SIXES: _ClassVar[LegacyPower]
    LEGACY_POWER_FEROCITY: _ClassVar[LegacyPower]
    LEGACY_POWER_NATURAL_TRIPLE: _ClassVar[LegacyPower]
    LEGACY_POWER_ROUND_UP: _ClassVar[LegacyPower]
    LEGACY_POWER_EXPANSION_CARD: _ClassVar[LegacyPower]
    LEGACY_POWER_HQ_TROOPS: _ClassVar[LegacyPower]
    LEGACY_POWER_CARD_TROOP: _ClassVar[LegacyPower]
    LEGACY_POWER_MANEUVER_ANY_TIME: _ClassVar[LegacyPower]
    LEGACY_POWER_MANEUVER_ANYWHERE: _ClassVar[LegacyPower]

class LegacyScar(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_SCAR_UNSPECIFIED: _ClassVar[LegacyScar]
    LEGACY_SCAR_BUNKER: _ClassVar[LegacyScar]
    LEGACY_SCAR_AMMO_SHORTAGE: _ClassVar[LegacyScar]

class LegacyCitySize(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_CITY_SIZE_UNSPECIFIED: _ClassVar[LegacyCitySize]
    LEGACY_CITY_SIZE_MINOR: _ClassVar[LegacyCitySize]
    LEGACY_CITY_SIZE_MAJOR: _ClassVar[LegacyCitySize]
    LEGACY_CITY_SIZE_WORLD_CAPITAL: _ClassVar[LegacyCitySize]

class LegacyPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_PHASE_UNSPECIFIED: _ClassVar[LegacyPhase]
    LEGACY_PHASE_SETUP_HQ: _ClassVar[LegacyPhase]
    LEGACY_PHASE_START: _ClassVar[LegacyPhase]
    LEGACY_PHASE_RECRUIT: _ClassVar[LegacyPhase]
    LEGACY_PHASE_ATTACK: _ClassVar[LegacyPhase]
    LEGACY_PHASE_DEFEND: _ClassVar[LegacyPhase]
    LEGACY_PHASE_BATTLE: _ClassVar[LegacyPhase]
    LEGACY_PHASE_MOVE_IN: _ClassVar[LegacyPhase]
    LEGACY_PHASE_MANEUVER: _ClassVar[LegacyPhase]
    LEGACY_PHASE_DRAW: _ClassVar[LegacyPhase]
    LEGACY_PHASE_FINISHED: _ClassVar[LegacyPhase]

class LegacyWindowKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_WINDOW_KIND_UNSPECIFIED: _ClassVar[LegacyWindowKind]
    LEGACY_WINDOW_KIND_SCAR: _ClassVar[LegacyWindowKind]
    LEGACY_WINDOW_KIND_MISSILE: _ClassVar[LegacyWindowKind]

class LegacySide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_SIDE_UNSPECIFIED: _ClassVar[LegacySide]
    LEGACY_SIDE_ATTACKER: _ClassVar[LegacySide]
    LEGACY_SIDE_DEFENDER: _ClassVar[LegacySide]

class LegacyCampaignPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_CAMPAIGN_PHASE_UNSPECIFIED: _ClassVar[LegacyCampaignPhase]
    LEGACY_CAMPAIGN_PHASE_READY: _ClassVar[LegacyCampaignPhase]
    LEGACY_CAMPAIGN_PHASE_REWARDS: _ClassVar[LegacyCampaignPhase]
    LEGACY_CAMPAIGN_PHASE_COMPLETE: _ClassVar[LegacyCampaignPhase]

class LegacyRewardKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEGACY_REWARD_KIND_UNSPECIFIED: _ClassVar[LegacyRewardKind]
    LEGACY_REWARD_KIND_WINNER: _ClassVar[LegacyRewardKind]
    LEGACY_REWARD_KIND_SURVIVOR: _ClassVar[LegacyRewardKind]
LEGACY_FACTION_UNSPECIFIED: LegacyFaction
LEGACY_FACTION_DIE_MECHANIKER: LegacyFaction
LEGACY_FACTION_ENCLAVE_OF_THE_BEAR: LegacyFaction
LEGACY_FACTION_IMPERIAL_BALKANIA: LegacyFaction
LEGACY_FACTION_KHAN_INDUSTRIES: LegacyFaction
LEGACY_FACTION_SAHARAN_REPUBLIC: LegacyFaction
LEGACY_POWER_UNSPECIFIED: LegacyPower
LEGACY_POWER_FORTIFIED_HQ: LegacyPower
LEGACY_POWER_STEADFAST_SIXES: LegacyPower
LEGACY_POWER_FEROCITY: LegacyPower
LEGACY_POWER_NATURAL_TRIPLE: LegacyPower
LEGACY_POWER_ROUND_UP: LegacyPower
LEGACY_POWER_EXPANSION_CARD: LegacyPower
LEGACY_POWER_HQ_TROOPS: LegacyPower
LEGACY_POWER_CARD_TROOP: LegacyPower
LEGACY_POWER_MANEUVER_ANY_TIME: LegacyPower
LEGACY_POWER_MANEUVER_ANYWHERE: LegacyPower
LEGACY_SCAR_UNSPECIFIED: LegacyScar
LEGACY_SCAR_BUNKER: LegacyScar
LEGACY_SCAR_AMMO_SHORTAGE: LegacyScar
LEGACY_CITY_SIZE_UNSPECIFIED: LegacyCitySize
LEGACY_CITY_SIZE_MINOR: LegacyCitySize
LEGACY_CITY_SIZE_MAJOR: LegacyCitySize
LEGACY_CITY_SIZE_WORLD_CAPITAL: LegacyCitySize
LEGACY_PHASE_UNSPECIFIED: LegacyPhase
LEGACY_PHASE_SETUP_HQ: LegacyPhase
LEGACY_PHASE_START: LegacyPhase
LEGACY_PHASE_RECRUIT: LegacyPhase
LEGACY_PHASE_ATTACK: LegacyPhase
LEGACY_PHASE_DEFEND: LegacyPhase
LEGACY_PHASE_BATTLE: LegacyPhase
LEGACY_PHASE_MOVE_IN: LegacyPhase
LEGACY_PHASE_MANEUVER: LegacyPhase
LEGACY_PHASE_DRAW: LegacyPhase
LEGACY_PHASE_FINISHED: LegacyPhase
LEGACY_WINDOW_KIND_UNSPECIFIED: LegacyWindowKind
LEGACY_WINDOW_KIND_SCAR: LegacyWindowKind
LEGACY_WINDOW_KIND_MISSILE: LegacyWindowKind
LEGACY_SIDE_UNSPECIFIED: LegacySide
LEGACY_SIDE_ATTACKER: LegacySide
LEGACY_SIDE_DEFENDER: LegacySide
LEGACY_CAMPAIGN_PHASE_UNSPECIFIED: LegacyCampaignPhase
LEGACY_CAMPAIGN_PHASE_READY: LegacyCampaignPhase
LEGACY_CAMPAIGN_PHASE_REWARDS: LegacyCampaignPhase
LEGACY_CAMPAIGN_PHASE_COMPLETE: LegacyCampaignPhase
LEGACY_REWARD_KIND_UNSPECIFIED: LegacyRewardKind
LEGACY_REWARD_KIND_WINNER: LegacyRewardKind
LEGACY_REWARD_KIND_SURVIVOR: LegacyRewardKind

class FactionChoice(_message.Message):
    __slots__ = ("faction", "power")
    FACTION_FIELD_NUMBER: _ClassVar[int]
    POWER_FIELD_NUMBER: _ClassVar[int]
    faction: LegacyFaction
    power: LegacyPower
    def __init__(self, faction: _Optional[_Union[LegacyFaction, str]] = ..., power: _Optional[_Union[LegacyPower, str]] = ...) -> None: ...

class ScarMark(_message.Message):
    __slots__ = ("territory", "scar")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    SCAR_FIELD_NUMBER: _ClassVar[int]
    territory: int
    scar: LegacyScar
    def __init__(self, territory: _Optional[int] = ..., scar: _Optional[_Union[LegacyScar, str]] = ...) -> None: ...

class City(_message.Message):
    __slots__ = ("territory", "size", "name", "founder")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    FOUNDER_FIELD_NUMBER: _ClassVar[int]
    territory: int
    size: LegacyCitySize
    name: str
    founder: int
    def __init__(self, territory: _Optional[int] = ..., size: _Optional[_Union[LegacyCitySize, str]] = ..., name: _Optional[str] = ..., founder: _Optional[int] = ...) -> None: ...

class Fortification(_message.Message):
    __slots__ = ("territory", "marks")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    MARKS_FIELD_NUMBER: _ClassVar[int]
    territory: int
    marks: int
    def __init__(self, territory: _Optional[int] = ..., marks: _Optional[int] = ...) -> None: ...

class ContinentName(_message.Message):
    __slots__ = ("continent", "name", "namer")
    CONTINENT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    NAMER_FIELD_NUMBER: _ClassVar[int]
    continent: int
    name: str
    namer: int
    def __init__(self, continent: _Optional[int] = ..., name: _Optional[str] = ..., namer: _Optional[int] = ...) -> None: ...

class World(_message.Message):
    __slots__ = ("factions", "scars", "cities", "fortifications", "continent_names", "bonus_marks", "card_values", "destroyed_cards", "signatures", "eliminations", "scar_cards_used", "unlocked")
    FACTIONS_FIELD_NUMBER: _ClassVar[int]
    SCARS_FIELD_NUMBER: _ClassVar[int]
    CITIES_FIELD_NUMBER: _ClassVar[int]
    FORTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_NAMES_FIELD_NUMBER: _ClassVar[int]
    BONUS_MARKS_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    DESTROYED_CARDS_FIELD_NUMBER: _ClassVar[int]
    SIGNATURES_FIELD_NUMBER: _ClassVar[int]
    ELIMINATIONS_FIELD_NUMBER: _ClassVar[int]
    SCAR_CARDS_USED_FIELD_NUMBER: _ClassVar[int]
    UNLOCKED_FIELD_NUMBER: _ClassVar[int]
    factions: _containers.RepeatedCompositeFieldContainer[FactionChoice]
    scars: _containers.RepeatedCompositeFieldContainer[ScarMark]
    cities: _containers.RepeatedCompositeFieldContainer[City]
    fortifications: _containers.RepeatedCompositeFieldContainer[Fortification]
    continent_names: _containers.RepeatedCompositeFieldContainer[ContinentName]
    bonus_marks: _containers.RepeatedScalarFieldContainer[int]
    card_values: _containers.RepeatedScalarFieldContainer[int]
    destroyed_cards: _containers.RepeatedScalarFieldContainer[int]
    signatures: _containers.RepeatedScalarFieldContainer[int]
    eliminations: _containers.RepeatedScalarFieldContainer[int]
    scar_cards_used: _containers.RepeatedScalarFieldContainer[int]
    unlocked: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, factions: _Optional[_Iterable[_Union[FactionChoice, _Mapping]]] = ..., scars: _Optional[_Iterable[_Union[ScarMark, _Mapping]]] = ..., cities: _Optional[_Iterable[_Union[City, _Mapping]]] = ..., fortifications: _Optional[_Iterable[_Union[Fortification, _Mapping]]] = ..., continent_names: _Optional[_Iterable[_Union[ContinentName, _Mapping]]] = ..., bonus_marks: _Optional[_Iterable[int]] = ..., card_values: _Optional[_Iterable[int]] = ..., destroyed_cards: _Optional[_Iterable[int]] = ..., signatures: _Optional[_Iterable[int]] = ..., eliminations: _Optional[_Iterable[int]] = ..., scar_cards_used: _Optional[_Iterable[int]] = ..., unlocked: _Optional[_Iterable[str]] = ...) -> None: ...

class LegacyOptions(_message.Message):
    __slots__ = ("players", "max_turns", "campaign_id", "auto_defend_max_dice", "world")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    CAMPAIGN_ID_FIELD_NUMBER: _ClassVar[int]
    AUTO_DEFEND_MAX_DICE_FIELD_NUMBER: _ClassVar[int]
    WORLD_FIELD_NUMBER: _ClassVar[int]
    players: int
    max_turns: int
    campaign_id: str
    auto_defend_max_dice: bool
    world: World
    def __init__(self, players: _Optional[int] = ..., max_turns: _Optional[int] = ..., campaign_id: _Optional[str] = ..., auto_defend_max_dice: _Optional[bool] = ..., world: _Optional[_Union[World, _Mapping]] = ...) -> None: ...

class LegacyState(_message.Message):
    __slots__ = ("options", "seed", "rng_state", "rng_inc", "phase", "current", "turn", "first_seat", "owner", "troops", "hqs", "stars", "missiles", "scar_cards", "hands", "deck", "discard", "coin_pile", "sideboard", "scars", "fortifications", "pending", "traded", "conquered", "expansions", "maneuvered", "ferocity_target", "protected", "draws_left", "attack_from", "attack_to", "attack_count", "defence_count", "attack_dice", "defence_dice", "attack_missiles", "defence_missiles", "windows", "eliminated", "out", "out_order", "winner", "ranking", "end_reason")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RNG_STATE_FIELD_NUMBER: _ClassVar[int]
    RNG_INC_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TROOPS_FIELD_NUMBER: _ClassVar[int]
    HQS_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    MISSILES_FIELD_NUMBER: _ClassVar[int]
    SCAR_CARDS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    COIN_PILE_FIELD_NUMBER: _ClassVar[int]
    SIDEBOARD_FIELD_NUMBER: _ClassVar[int]
    SCARS_FIELD_NUMBER: _ClassVar[int]
    FORTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    TRADED_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_FIELD_NUMBER: _ClassVar[int]
    EXPANSIONS_FIELD_NUMBER: _ClassVar[int]
    MANEUVERED_FIELD_NUMBER: _ClassVar[int]
    FEROCITY_TARGET_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_FIELD_NUMBER: _ClassVar[int]
    DRAWS_LEFT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FROM_FIELD_NUMBER: _ClassVar[int]
    ATTACK_TO_FIELD_NUMBER: _ClassVar[int]
    ATTACK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_COUNT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
    ATTACK_MISSILES_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_MISSILES_FIELD_NUMBER: _ClassVar[int]
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    options: LegacyOptions
    seed: int
    rng_state: int
    rng_inc: int
    phase: LegacyPhase
    current: int
    turn: int
    first_seat: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    troops: _containers.RepeatedScalarFieldContainer[int]
    hqs: _containers.RepeatedScalarFieldContainer[int]
    stars: _containers.RepeatedScalarFieldContainer[int]
    missiles: _containers.RepeatedScalarFieldContainer[int]
    scar_cards: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntList]
    deck: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    coin_pile: _containers.RepeatedScalarFieldContainer[int]
    sideboard: _containers.RepeatedScalarFieldContainer[int]
    scars: _containers.RepeatedScalarFieldContainer[int]
    fortifications: _containers.RepeatedScalarFieldContainer[int]
    pending: int
    traded: bool
    conquered: bool
    expansions: int
    maneuvered: bool
    ferocity_target: int
    protected: _containers.RepeatedScalarFieldContainer[int]
    draws_left: int
    attack_from: int
    attack_to: int
    attack_count: int
    defence_count: int
    attack_dice: _containers.RepeatedScalarFieldContainer[int]
    defence_dice: _containers.RepeatedScalarFieldContainer[int]
    attack_missiles: _containers.RepeatedScalarFieldContainer[bool]
    defence_missiles: _containers.RepeatedScalarFieldContainer[bool]
    windows: _containers.RepeatedCompositeFieldContainer[_common_pb2.ResponseWindow]
    eliminated: _containers.RepeatedScalarFieldContainer[bool]
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, options: _Optional[_Union[LegacyOptions, _Mapping]] = ..., seed: _Optional[int] = ..., rng_state: _Optional[int] = ..., rng_inc: _Optional[int] = ..., phase: _Optional[_Union[LegacyPhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., first_seat: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., troops: _Optional[_Iterable[int]] = ..., hqs: _Optional[_Iterable[int]] = ..., stars: _Optional[_Iterable[int]] = ..., missiles: _Optional[_Iterable[int]] = ..., scar_cards: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.IntList, _Mapping]]] = ..., deck: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., coin_pile: _Optional[_Iterable[int]] = ..., sideboard: _Optional[_Iterable[int]] = ..., scars: _Optional[_Iterable[int]] = ..., fortifications: _Optional[_Iterable[int]] = ..., pending: _Optional[int] = ..., traded: _Optional[bool] = ..., conquered: _Optional[bool] = ..., expansions: _Optional[int] = ..., maneuvered: _Optional[bool] = ..., ferocity_target: _Optional[int] = ..., protected: _Optional[_Iterable[int]] = ..., draws_left: _Optional[int] = ..., attack_from: _Optional[int] = ..., attack_to: _Optional[int] = ..., attack_count: _Optional[int] = ..., defence_count: _Optional[int] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., attack_missiles: _Optional[_Iterable[bool]] = ..., defence_missiles: _Optional[_Iterable[bool]] = ..., windows: _Optional[_Iterable[_Union[_common_pb2.ResponseWindow, _Mapping]]] = ..., eliminated: _Optional[_Iterable[bool]] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class LegacyView(_message.Message):
    __slots__ = ("viewer", "options", "phase", "current", "turn", "owner", "troops", "hqs", "stars", "red_stars", "missiles", "scar_card", "has_scar_card", "hand", "hand_counts", "deck_count", "discard", "coin_count", "sideboard", "scars", "fortifications", "population", "card_values", "pending", "traded", "conquered", "expansions", "maneuvered", "ferocity_target", "protected", "draws_left", "attack_from", "attack_to", "attack_count", "defence_count", "attack_dice", "defence_dice", "attack_missiles", "defence_missiles", "windows", "eliminated", "out", "out_order", "winner", "ranking", "end_reason")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TROOPS_FIELD_NUMBER: _ClassVar[int]
    HQS_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    RED_STARS_FIELD_NUMBER: _ClassVar[int]
    MISSILES_FIELD_NUMBER: _ClassVar[int]
    SCAR_CARD_FIELD_NUMBER: _ClassVar[int]
    HAS_SCAR_CARD_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    COIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    SIDEBOARD_FIELD_NUMBER: _ClassVar[int]
    SCARS_FIELD_NUMBER: _ClassVar[int]
    FORTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    POPULATION_FIELD_NUMBER: _ClassVar[int]
    CARD_VALUES_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    TRADED_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_FIELD_NUMBER: _ClassVar[int]
    EXPANSIONS_FIELD_NUMBER: _ClassVar[int]
    MANEUVERED_FIELD_NUMBER: _ClassVar[int]
    FEROCITY_TARGET_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_FIELD_NUMBER: _ClassVar[int]
    DRAWS_LEFT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FROM_FIELD_NUMBER: _ClassVar[int]
    ATTACK_TO_FIELD_NUMBER: _ClassVar[int]
    ATTACK_COUNT_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_COUNT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
    ATTACK_MISSILES_FIELD_NUMBER: _ClassVar[int]
    DEFENCE_MISSILES_FIELD_NUMBER: _ClassVar[int]
    WINDOWS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    OUT_ORDER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    options: LegacyOptions
    phase: LegacyPhase
    current: int
    turn: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    troops: _containers.RepeatedScalarFieldContainer[int]
    hqs: _containers.RepeatedScalarFieldContainer[int]
    stars: _containers.RepeatedScalarFieldContainer[int]
    red_stars: _containers.RepeatedScalarFieldContainer[int]
    missiles: _containers.RepeatedScalarFieldContainer[int]
    scar_card: int
    has_scar_card: _containers.RepeatedScalarFieldContainer[bool]
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_counts: _containers.RepeatedScalarFieldContainer[int]
    deck_count: int
    discard: _containers.RepeatedScalarFieldContainer[int]
    coin_count: int
    sideboard: _containers.RepeatedScalarFieldContainer[int]
    scars: _containers.RepeatedScalarFieldContainer[int]
    fortifications: _containers.RepeatedScalarFieldContainer[int]
    population: _containers.RepeatedScalarFieldContainer[int]
    card_values: _containers.RepeatedScalarFieldContainer[int]
    pending: int
    traded: bool
    conquered: bool
    expansions: int
    maneuvered: bool
    ferocity_target: int
    protected: _containers.RepeatedScalarFieldContainer[int]
    draws_left: int
    attack_from: int
    attack_to: int
    attack_count: int
    defence_count: int
    attack_dice: _containers.RepeatedScalarFieldContainer[int]
    defence_dice: _containers.RepeatedScalarFieldContainer[int]
    attack_missiles: _containers.RepeatedScalarFieldContainer[bool]
    defence_missiles: _containers.RepeatedScalarFieldContainer[bool]
    windows: _containers.RepeatedCompositeFieldContainer[_common_pb2.ResponseWindow]
    eliminated: _containers.RepeatedScalarFieldContainer[bool]
    out: _containers.RepeatedScalarFieldContainer[bool]
    out_order: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    ranking: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    def __init__(self, viewer: _Optional[int] = ..., options: _Optional[_Union[LegacyOptions, _Mapping]] = ..., phase: _Optional[_Union[LegacyPhase, str]] = ..., current: _Optional[int] = ..., turn: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., troops: _Optional[_Iterable[int]] = ..., hqs: _Optional[_Iterable[int]] = ..., stars: _Optional[_Iterable[int]] = ..., red_stars: _Optional[_Iterable[int]] = ..., missiles: _Optional[_Iterable[int]] = ..., scar_card: _Optional[int] = ..., has_scar_card: _Optional[_Iterable[bool]] = ..., hand: _Optional[_Iterable[int]] = ..., hand_counts: _Optional[_Iterable[int]] = ..., deck_count: _Optional[int] = ..., discard: _Optional[_Iterable[int]] = ..., coin_count: _Optional[int] = ..., sideboard: _Optional[_Iterable[int]] = ..., scars: _Optional[_Iterable[int]] = ..., fortifications: _Optional[_Iterable[int]] = ..., population: _Optional[_Iterable[int]] = ..., card_values: _Optional[_Iterable[int]] = ..., pending: _Optional[int] = ..., traded: _Optional[bool] = ..., conquered: _Optional[bool] = ..., expansions: _Optional[int] = ..., maneuvered: _Optional[bool] = ..., ferocity_target: _Optional[int] = ..., protected: _Optional[_Iterable[int]] = ..., draws_left: _Optional[int] = ..., attack_from: _Optional[int] = ..., attack_to: _Optional[int] = ..., attack_count: _Optional[int] = ..., defence_count: _Optional[int] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., attack_missiles: _Optional[_Iterable[bool]] = ..., defence_missiles: _Optional[_Iterable[bool]] = ..., windows: _Optional[_Iterable[_Union[_common_pb2.ResponseWindow, _Mapping]]] = ..., eliminated: _Optional[_Iterable[bool]] = ..., out: _Optional[_Iterable[bool]] = ..., out_order: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class LegacyAction(_message.Message):
    __slots__ = ("place_hq", "play_scar", "buy_red_star", "join_war", "trade_resources", "place_troops", "expand", "attack", "defend", "fire_missile", "move_in", "end_attack", "maneuver", "end_turn", "take_card")
    class PlaceHq(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class PlayScar(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class Pass(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class BuyRedStar(_message.Message):
        __slots__ = ("values",)
        VALUES_FIELD_NUMBER: _ClassVar[int]
        values: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...
    class JoinWar(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class TradeResources(_message.Message):
        __slots__ = ("values",)
        VALUES_FIELD_NUMBER: _ClassVar[int]
        values: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...
    class PlaceTroops(_message.Message):
        __slots__ = ("territory", "count")
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        territory: int
        count: int
        def __init__(self, territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class Expand(_message.Message):
        __slots__ = ("from_territory", "to_territory", "count")
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        from_territory: int
        to_territory: int
        count: int
        def __init__(self, from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
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
    class FireMissile(_message.Message):
        __slots__ = ("side", "die")
        SIDE_FIELD_NUMBER: _ClassVar[int]
        DIE_FIELD_NUMBER: _ClassVar[int]
        side: LegacySide
        die: int
        def __init__(self, side: _Optional[_Union[LegacySide, str]] = ..., die: _Optional[int] = ...) -> None: ...
    class MoveIn(_message.Message):
        __slots__ = ("count",)
        COUNT_FIELD_NUMBER: _ClassVar[int]
        count: int
        def __init__(self, count: _Optional[int] = ...) -> None: ...
    class EndAttack(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Maneuver(_message.Message):
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
    class TakeCard(_message.Message):
        __slots__ = ("slot",)
        SLOT_FIELD_NUMBER: _ClassVar[int]
        slot: int
        def __init__(self, slot: _Optional[int] = ...) -> None: ...
    PLACE_HQ_FIELD_NUMBER: _ClassVar[int]
    PLAY_SCAR_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    BUY_RED_STAR_FIELD_NUMBER: _ClassVar[int]
    JOIN_WAR_FIELD_NUMBER: _ClassVar[int]
    TRADE_RESOURCES_FIELD_NUMBER: _ClassVar[int]
    PLACE_TROOPS_FIELD_NUMBER: _ClassVar[int]
    EXPAND_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFEND_FIELD_NUMBER: _ClassVar[int]
    FIRE_MISSILE_FIELD_NUMBER: _ClassVar[int]
    MOVE_IN_FIELD_NUMBER: _ClassVar[int]
    END_ATTACK_FIELD_NUMBER: _ClassVar[int]
    MANEUVER_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    TAKE_CARD_FIELD_NUMBER: _ClassVar[int]
    place_hq: LegacyAction.PlaceHq
    play_scar: LegacyAction.PlayScar
    buy_red_star: LegacyAction.BuyRedStar
    join_war: LegacyAction.JoinWar
    trade_resources: LegacyAction.TradeResources
    place_troops: LegacyAction.PlaceTroops
    expand: LegacyAction.Expand
    attack: LegacyAction.Attack
    defend: LegacyAction.Defend
    fire_missile: LegacyAction.FireMissile
    move_in: LegacyAction.MoveIn
    end_attack: LegacyAction.EndAttack
    maneuver: LegacyAction.Maneuver
    end_turn: LegacyAction.EndTurn
    take_card: LegacyAction.TakeCard
    def __init__(self, place_hq: _Optional[_Union[LegacyAction.PlaceHq, _Mapping]] = ..., play_scar: _Optional[_Union[LegacyAction.PlayScar, _Mapping]] = ..., buy_red_star: _Optional[_Union[LegacyAction.BuyRedStar, _Mapping]] = ..., join_war: _Optional[_Union[LegacyAction.JoinWar, _Mapping]] = ..., trade_resources: _Optional[_Union[LegacyAction.TradeResources, _Mapping]] = ..., place_troops: _Optional[_Union[LegacyAction.PlaceTroops, _Mapping]] = ..., expand: _Optional[_Union[LegacyAction.Expand, _Mapping]] = ..., attack: _Optional[_Union[LegacyAction.Attack, _Mapping]] = ..., defend: _Optional[_Union[LegacyAction.Defend, _Mapping]] = ..., fire_missile: _Optional[_Union[LegacyAction.FireMissile, _Mapping]] = ..., move_in: _Optional[_Union[LegacyAction.MoveIn, _Mapping]] = ..., end_attack: _Optional[_Union[LegacyAction.EndAttack, _Mapping]] = ..., maneuver: _Optional[_Union[LegacyAction.Maneuver, _Mapping]] = ..., end_turn: _Optional[_Union[LegacyAction.EndTurn, _Mapping]] = ..., take_card: _Optional[_Union[LegacyAction.TakeCard, _Mapping]] = ..., **kwargs) -> None: ...

class LegacyEvent(_message.Message):
    __slots__ = ("order_rolled", "deck_shuffled", "sideboard_changed", "scar_card_dealt", "starting_tokens", "hq_placed", "turn_started", "passed", "scar_played", "red_star_bought", "joined_war", "player_eliminated", "troops_recruited", "resources_traded", "troops_placed", "expanded", "attack_declared", "dice_rolled", "missile_fired", "battle_resolved", "fortification_worn", "attacks_stopped", "territory_conquered", "troops_moved", "player_knocked_out", "attack_ended", "maneuvered", "card_taken", "turn_ended", "player_resigned", "game_ended", "card_choice_offered")
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
        __slots__ = ("cards",)
        CARDS_FIELD_NUMBER: _ClassVar[int]
        cards: int
        def __init__(self, cards: _Optional[int] = ...) -> None: ...
    class SideboardChanged(_message.Message):
        __slots__ = ("slots", "discarded")
        SLOTS_FIELD_NUMBER: _ClassVar[int]
        DISCARDED_FIELD_NUMBER: _ClassVar[int]
        slots: _containers.RepeatedScalarFieldContainer[int]
        discarded: int
        def __init__(self, slots: _Optional[_Iterable[int]] = ..., discarded: _Optional[int] = ...) -> None: ...
    class ScarCardDealt(_message.Message):
        __slots__ = ("seat", "scar")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SCAR_FIELD_NUMBER: _ClassVar[int]
        seat: int
        scar: int
        def __init__(self, seat: _Optional[int] = ..., scar: _Optional[int] = ...) -> None: ...
    class StartingTokens(_message.Message):
        __slots__ = ("seat", "stars", "missiles")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        STARS_FIELD_NUMBER: _ClassVar[int]
        MISSILES_FIELD_NUMBER: _ClassVar[int]
        seat: int
        stars: int
        missiles: int
        def __init__(self, seat: _Optional[int] = ..., stars: _Optional[int] = ..., missiles: _Optional[int] = ...) -> None: ...
    class HqPlaced(_message.Message):
        __slots__ = ("seat", "territory", "troops")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TROOPS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        troops: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., troops: _Optional[int] = ...) -> None: ...
    class TurnStarted(_message.Message):
        __slots__ = ("seat", "turn")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        turn: int
        def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...
    class Passed(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class ScarPlayed(_message.Message):
        __slots__ = ("seat", "scar", "territory")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SCAR_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        scar: LegacyScar
        territory: int
        def __init__(self, seat: _Optional[int] = ..., scar: _Optional[_Union[LegacyScar, str]] = ..., territory: _Optional[int] = ...) -> None: ...
    class RedStarBought(_message.Message):
        __slots__ = ("seat", "cards", "stars")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        STARS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        stars: int
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., stars: _Optional[int] = ...) -> None: ...
    class JoinedWar(_message.Message):
        __slots__ = ("seat", "territory", "troops")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TROOPS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        troops: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., troops: _Optional[int] = ...) -> None: ...
    class PlayerEliminated(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class TroopsRecruited(_message.Message):
        __slots__ = ("seat", "territories", "population", "base", "continent_bonus", "hq_troops")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORIES_FIELD_NUMBER: _ClassVar[int]
        POPULATION_FIELD_NUMBER: _ClassVar[int]
        BASE_FIELD_NUMBER: _ClassVar[int]
        CONTINENT_BONUS_FIELD_NUMBER: _ClassVar[int]
        HQ_TROOPS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territories: int
        population: int
        base: int
        continent_bonus: int
        hq_troops: int
        def __init__(self, seat: _Optional[int] = ..., territories: _Optional[int] = ..., population: _Optional[int] = ..., base: _Optional[int] = ..., continent_bonus: _Optional[int] = ..., hq_troops: _Optional[int] = ...) -> None: ...
    class ResourcesTraded(_message.Message):
        __slots__ = ("seat", "cards", "resources", "troops")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        RESOURCES_FIELD_NUMBER: _ClassVar[int]
        TROOPS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        cards: _containers.RepeatedScalarFieldContainer[int]
        resources: int
        troops: int
        def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., resources: _Optional[int] = ..., troops: _Optional[int] = ...) -> None: ...
    class TroopsPlaced(_message.Message):
        __slots__ = ("seat", "territory", "count")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        count: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...
    class Expanded(_message.Message):
        __slots__ = ("seat", "from_territory", "to_territory", "count", "cost")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        COUNT_FIELD_NUMBER: _ClassVar[int]
        COST_FIELD_NUMBER: _ClassVar[int]
        seat: int
        from_territory: int
        to_territory: int
        count: int
        cost: int
        def __init__(self, seat: _Optional[int] = ..., from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., count: _Optional[int] = ..., cost: _Optional[int] = ...) -> None: ...
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
    class DiceRolled(_message.Message):
        __slots__ = ("attack", "defence")
        ATTACK_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_FIELD_NUMBER: _ClassVar[int]
        attack: _containers.RepeatedScalarFieldContainer[int]
        defence: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, attack: _Optional[_Iterable[int]] = ..., defence: _Optional[_Iterable[int]] = ...) -> None: ...
    class MissileFired(_message.Message):
        __slots__ = ("seat", "side", "die", "missiles")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SIDE_FIELD_NUMBER: _ClassVar[int]
        DIE_FIELD_NUMBER: _ClassVar[int]
        MISSILES_FIELD_NUMBER: _ClassVar[int]
        seat: int
        side: LegacySide
        die: int
        missiles: int
        def __init__(self, seat: _Optional[int] = ..., side: _Optional[_Union[LegacySide, str]] = ..., die: _Optional[int] = ..., missiles: _Optional[int] = ...) -> None: ...
    class BattleResolved(_message.Message):
        __slots__ = ("attacker", "defender", "from_territory", "to_territory", "attack_dice", "defence_dice", "attack_final", "defence_final", "attacker_losses", "defender_losses", "natural_triple")
        ATTACKER_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_FIELD_NUMBER: _ClassVar[int]
        FROM_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        TO_TERRITORY_FIELD_NUMBER: _ClassVar[int]
        ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_DICE_FIELD_NUMBER: _ClassVar[int]
        ATTACK_FINAL_FIELD_NUMBER: _ClassVar[int]
        DEFENCE_FINAL_FIELD_NUMBER: _ClassVar[int]
        ATTACKER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        DEFENDER_LOSSES_FIELD_NUMBER: _ClassVar[int]
        NATURAL_TRIPLE_FIELD_NUMBER: _ClassVar[int]
        attacker: int
        defender: int
        from_territory: int
        to_territory: int
        attack_dice: _containers.RepeatedScalarFieldContainer[int]
        defence_dice: _containers.RepeatedScalarFieldContainer[int]
        attack_final: _containers.RepeatedScalarFieldContainer[int]
        defence_final: _containers.RepeatedScalarFieldContainer[int]
        attacker_losses: int
        defender_losses: int
        natural_triple: bool
        def __init__(self, attacker: _Optional[int] = ..., defender: _Optional[int] = ..., from_territory: _Optional[int] = ..., to_territory: _Optional[int] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defence_dice: _Optional[_Iterable[int]] = ..., attack_final: _Optional[_Iterable[int]] = ..., defence_final: _Optional[_Iterable[int]] = ..., attacker_losses: _Optional[int] = ..., defender_losses: _Optional[int] = ..., natural_triple: _Optional[bool] = ...) -> None: ...
    class FortificationWorn(_message.Message):
        __slots__ = ("territory", "marks")
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        MARKS_FIELD_NUMBER: _ClassVar[int]
        territory: int
        marks: int
        def __init__(self, territory: _Optional[int] = ..., marks: _Optional[int] = ...) -> None: ...
    class AttacksStopped(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class TerritoryConquered(_message.Message):
        __slots__ = ("seat", "territory", "previous_owner")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        PREVIOUS_OWNER_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        previous_owner: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., previous_owner: _Optional[int] = ...) -> None: ...
    class TroopsMoved(_message.Message):
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
    class PlayerKnockedOut(_message.Message):
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
    class Maneuvered(_message.Message):
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
    class CardTaken(_message.Message):
        __slots__ = ("seat", "card", "slot")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        SLOT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: int
        slot: int
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...
    class TurnEnded(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class CardChoiceOffered(_message.Message):
        __slots__ = ("seat", "slots")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        SLOTS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        slots: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, seat: _Optional[int] = ..., slots: _Optional[_Iterable[int]] = ...) -> None: ...
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
    SIDEBOARD_CHANGED_FIELD_NUMBER: _ClassVar[int]
    SCAR_CARD_DEALT_FIELD_NUMBER: _ClassVar[int]
    STARTING_TOKENS_FIELD_NUMBER: _ClassVar[int]
    HQ_PLACED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    SCAR_PLAYED_FIELD_NUMBER: _ClassVar[int]
    RED_STAR_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    JOINED_WAR_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_RECRUITED_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_TRADED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_PLACED_FIELD_NUMBER: _ClassVar[int]
    EXPANDED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DECLARED_FIELD_NUMBER: _ClassVar[int]
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    MISSILE_FIRED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    FORTIFICATION_WORN_FIELD_NUMBER: _ClassVar[int]
    ATTACKS_STOPPED_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_CONQUERED_FIELD_NUMBER: _ClassVar[int]
    TROOPS_MOVED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_KNOCKED_OUT_FIELD_NUMBER: _ClassVar[int]
    ATTACK_ENDED_FIELD_NUMBER: _ClassVar[int]
    MANEUVERED_FIELD_NUMBER: _ClassVar[int]
    CARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_RESIGNED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    CARD_CHOICE_OFFERED_FIELD_NUMBER: _ClassVar[int]
    order_rolled: LegacyEvent.OrderRolled
    deck_shuffled: LegacyEvent.DeckShuffled
    sideboard_changed: LegacyEvent.SideboardChanged
    scar_card_dealt: LegacyEvent.ScarCardDealt
    starting_tokens: LegacyEvent.StartingTokens
    hq_placed: LegacyEvent.HqPlaced
    turn_started: LegacyEvent.TurnStarted
    passed: LegacyEvent.Passed
    scar_played: LegacyEvent.ScarPlayed
    red_star_bought: LegacyEvent.RedStarBought
    joined_war: LegacyEvent.JoinedWar
    player_eliminated: LegacyEvent.PlayerEliminated
    troops_recruited: LegacyEvent.TroopsRecruited
    resources_traded: LegacyEvent.ResourcesTraded
    troops_placed: LegacyEvent.TroopsPlaced
    expanded: LegacyEvent.Expanded
    attack_declared: LegacyEvent.AttackDeclared
    dice_rolled: LegacyEvent.DiceRolled
    missile_fired: LegacyEvent.MissileFired
    battle_resolved: LegacyEvent.BattleResolved
    fortification_worn: LegacyEvent.FortificationWorn
    attacks_stopped: LegacyEvent.AttacksStopped
    territory_conquered: LegacyEvent.TerritoryConquered
    troops_moved: LegacyEvent.TroopsMoved
    player_knocked_out: LegacyEvent.PlayerKnockedOut
    attack_ended: LegacyEvent.AttackEnded
    maneuvered: LegacyEvent.Maneuvered
    card_taken: LegacyEvent.CardTaken
    turn_ended: LegacyEvent.TurnEnded
    player_resigned: LegacyEvent.PlayerResigned
    game_ended: LegacyEvent.GameEnded
    card_choice_offered: LegacyEvent.CardChoiceOffered
    def __init__(self, order_rolled: _Optional[_Union[LegacyEvent.OrderRolled, _Mapping]] = ..., deck_shuffled: _Optional[_Union[LegacyEvent.DeckShuffled, _Mapping]] = ..., sideboard_changed: _Optional[_Union[LegacyEvent.SideboardChanged, _Mapping]] = ..., scar_card_dealt: _Optional[_Union[LegacyEvent.ScarCardDealt, _Mapping]] = ..., starting_tokens: _Optional[_Union[LegacyEvent.StartingTokens, _Mapping]] = ..., hq_placed: _Optional[_Union[LegacyEvent.HqPlaced, _Mapping]] = ..., turn_started: _Optional[_Union[LegacyEvent.TurnStarted, _Mapping]] = ..., passed: _Optional[_Union[LegacyEvent.Passed, _Mapping]] = ..., scar_played: _Optional[_Union[LegacyEvent.ScarPlayed, _Mapping]] = ..., red_star_bought: _Optional[_Union[LegacyEvent.RedStarBought, _Mapping]] = ..., joined_war: _Optional[_Union[LegacyEvent.JoinedWar, _Mapping]] = ..., player_eliminated: _Optional[_Union[LegacyEvent.PlayerEliminated, _Mapping]] = ..., troops_recruited: _Optional[_Union[LegacyEvent.TroopsRecruited, _Mapping]] = ..., resources_traded: _Optional[_Union[LegacyEvent.ResourcesTraded, _Mapping]] = ..., troops_placed: _Optional[_Union[LegacyEvent.TroopsPlaced, _Mapping]] = ..., expanded: _Optional[_Union[LegacyEvent.Expanded, _Mapping]] = ..., attack_declared: _Optional[_Union[LegacyEvent.AttackDeclared, _Mapping]] = ..., dice_rolled: _Optional[_Union[LegacyEvent.DiceRolled, _Mapping]] = ..., missile_fired: _Optional[_Union[LegacyEvent.MissileFired, _Mapping]] = ..., battle_resolved: _Optional[_Union[LegacyEvent.BattleResolved, _Mapping]] = ..., fortification_worn: _Optional[_Union[LegacyEvent.FortificationWorn, _Mapping]] = ..., attacks_stopped: _Optional[_Union[LegacyEvent.AttacksStopped, _Mapping]] = ..., territory_conquered: _Optional[_Union[LegacyEvent.TerritoryConquered, _Mapping]] = ..., troops_moved: _Optional[_Union[LegacyEvent.TroopsMoved, _Mapping]] = ..., player_knocked_out: _Optional[_Union[LegacyEvent.PlayerKnockedOut, _Mapping]] = ..., attack_ended: _Optional[_Union[LegacyEvent.AttackEnded, _Mapping]] = ..., maneuvered: _Optional[_Union[LegacyEvent.Maneuvered, _Mapping]] = ..., card_taken: _Optional[_Union[LegacyEvent.CardTaken, _Mapping]] = ..., turn_ended: _Optional[_Union[LegacyEvent.TurnEnded, _Mapping]] = ..., player_resigned: _Optional[_Union[LegacyEvent.PlayerResigned, _Mapping]] = ..., game_ended: _Optional[_Union[LegacyEvent.GameEnded, _Mapping]] = ..., card_choice_offered: _Optional[_Union[LegacyEvent.CardChoiceOffered, _Mapping]] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("winner", "reason", "turns", "eliminated", "resigned", "hqs", "owner")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    HQS_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    winner: int
    reason: str
    turns: int
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    resigned: _containers.RepeatedScalarFieldContainer[int]
    hqs: _containers.RepeatedScalarFieldContainer[int]
    owner: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, winner: _Optional[int] = ..., reason: _Optional[str] = ..., turns: _Optional[int] = ..., eliminated: _Optional[_Iterable[int]] = ..., resigned: _Optional[_Iterable[int]] = ..., hqs: _Optional[_Iterable[int]] = ..., owner: _Optional[_Iterable[int]] = ...) -> None: ...

class PendingReward(_message.Message):
    __slots__ = ("seat", "kind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: LegacyRewardKind
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[LegacyRewardKind, str]] = ...) -> None: ...

class CampaignState(_message.Message):
    __slots__ = ("players", "world", "games_played", "phase", "pending", "history")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    WORLD_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[FactionChoice]
    world: World
    games_played: int
    phase: LegacyCampaignPhase
    pending: _containers.RepeatedCompositeFieldContainer[PendingReward]
    history: _containers.RepeatedCompositeFieldContainer[GameRecord]
    def __init__(self, players: _Optional[_Iterable[_Union[FactionChoice, _Mapping]]] = ..., world: _Optional[_Union[World, _Mapping]] = ..., games_played: _Optional[int] = ..., phase: _Optional[_Union[LegacyCampaignPhase, str]] = ..., pending: _Optional[_Iterable[_Union[PendingReward, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[GameRecord, _Mapping]]] = ...) -> None: ...

class LegacyReward(_message.Message):
    __slots__ = ("name_continent", "found_major_city", "cancel_scar", "change_continent_bonus", "fortify_city", "found_minor_city", "add_resource", "decline_reward")
    class NameContinent(_message.Message):
        __slots__ = ("continent", "name")
        CONTINENT_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        continent: int
        name: str
        def __init__(self, continent: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...
    class FoundMajorCity(_message.Message):
        __slots__ = ("territory", "name")
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        territory: int
        name: str
        def __init__(self, territory: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...
    class CancelScar(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class ChangeContinentBonus(_message.Message):
        __slots__ = ("continent", "delta")
        CONTINENT_FIELD_NUMBER: _ClassVar[int]
        DELTA_FIELD_NUMBER: _ClassVar[int]
        continent: int
        delta: int
        def __init__(self, continent: _Optional[int] = ..., delta: _Optional[int] = ...) -> None: ...
    class FortifyCity(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class FoundMinorCity(_message.Message):
        __slots__ = ("territory", "name")
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        territory: int
        name: str
        def __init__(self, territory: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...
    class AddResource(_message.Message):
        __slots__ = ("territory",)
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        territory: int
        def __init__(self, territory: _Optional[int] = ...) -> None: ...
    class DeclineReward(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    NAME_CONTINENT_FIELD_NUMBER: _ClassVar[int]
    FOUND_MAJOR_CITY_FIELD_NUMBER: _ClassVar[int]
    CANCEL_SCAR_FIELD_NUMBER: _ClassVar[int]
    CHANGE_CONTINENT_BONUS_FIELD_NUMBER: _ClassVar[int]
    FORTIFY_CITY_FIELD_NUMBER: _ClassVar[int]
    FOUND_MINOR_CITY_FIELD_NUMBER: _ClassVar[int]
    ADD_RESOURCE_FIELD_NUMBER: _ClassVar[int]
    DECLINE_REWARD_FIELD_NUMBER: _ClassVar[int]
    name_continent: LegacyReward.NameContinent
    found_major_city: LegacyReward.FoundMajorCity
    cancel_scar: LegacyReward.CancelScar
    change_continent_bonus: LegacyReward.ChangeContinentBonus
    fortify_city: LegacyReward.FortifyCity
    found_minor_city: LegacyReward.FoundMinorCity
    add_resource: LegacyReward.AddResource
    decline_reward: LegacyReward.DeclineReward
    def __init__(self, name_continent: _Optional[_Union[LegacyReward.NameContinent, _Mapping]] = ..., found_major_city: _Optional[_Union[LegacyReward.FoundMajorCity, _Mapping]] = ..., cancel_scar: _Optional[_Union[LegacyReward.CancelScar, _Mapping]] = ..., change_continent_bonus: _Optional[_Union[LegacyReward.ChangeContinentBonus, _Mapping]] = ..., fortify_city: _Optional[_Union[LegacyReward.FortifyCity, _Mapping]] = ..., found_minor_city: _Optional[_Union[LegacyReward.FoundMinorCity, _Mapping]] = ..., add_resource: _Optional[_Union[LegacyReward.AddResource, _Mapping]] = ..., decline_reward: _Optional[_Union[LegacyReward.DeclineReward, _Mapping]] = ...) -> None: ...

class LegacyCampaignEvent(_message.Message):
    __slots__ = ("continent_named", "city_founded", "scar_cancelled", "continent_bonus_changed", "city_fortified", "card_upgraded", "reward_declined", "rewards_done")
    class ContinentNamed(_message.Message):
        __slots__ = ("seat", "continent", "name")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CONTINENT_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        seat: int
        continent: int
        name: str
        def __init__(self, seat: _Optional[int] = ..., continent: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...
    class CityFounded(_message.Message):
        __slots__ = ("seat", "territory", "size", "name")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        SIZE_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        size: LegacyCitySize
        name: str
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., size: _Optional[_Union[LegacyCitySize, str]] = ..., name: _Optional[str] = ...) -> None: ...
    class ScarCancelled(_message.Message):
        __slots__ = ("seat", "territory", "scar")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        SCAR_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        scar: LegacyScar
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., scar: _Optional[_Union[LegacyScar, str]] = ...) -> None: ...
    class ContinentBonusChanged(_message.Message):
        __slots__ = ("seat", "continent", "delta", "bonus")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CONTINENT_FIELD_NUMBER: _ClassVar[int]
        DELTA_FIELD_NUMBER: _ClassVar[int]
        BONUS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        continent: int
        delta: int
        bonus: int
        def __init__(self, seat: _Optional[int] = ..., continent: _Optional[int] = ..., delta: _Optional[int] = ..., bonus: _Optional[int] = ...) -> None: ...
    class CityFortified(_message.Message):
        __slots__ = ("seat", "territory", "marks")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        MARKS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        marks: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., marks: _Optional[int] = ...) -> None: ...
    class CardUpgraded(_message.Message):
        __slots__ = ("seat", "territory", "value")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TERRITORY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        seat: int
        territory: int
        value: int
        def __init__(self, seat: _Optional[int] = ..., territory: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...
    class RewardDeclined(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class RewardsDone(_message.Message):
        __slots__ = ("games_played", "phase")
        GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
        PHASE_FIELD_NUMBER: _ClassVar[int]
        games_played: int
        phase: LegacyCampaignPhase
        def __init__(self, games_played: _Optional[int] = ..., phase: _Optional[_Union[LegacyCampaignPhase, str]] = ...) -> None: ...
    CONTINENT_NAMED_FIELD_NUMBER: _ClassVar[int]
    CITY_FOUNDED_FIELD_NUMBER: _ClassVar[int]
    SCAR_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_BONUS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    CITY_FORTIFIED_FIELD_NUMBER: _ClassVar[int]
    CARD_UPGRADED_FIELD_NUMBER: _ClassVar[int]
    REWARD_DECLINED_FIELD_NUMBER: _ClassVar[int]
    REWARDS_DONE_FIELD_NUMBER: _ClassVar[int]
    continent_named: LegacyCampaignEvent.ContinentNamed
    city_founded: LegacyCampaignEvent.CityFounded
    scar_cancelled: LegacyCampaignEvent.ScarCancelled
    continent_bonus_changed: LegacyCampaignEvent.ContinentBonusChanged
    city_fortified: LegacyCampaignEvent.CityFortified
    card_upgraded: LegacyCampaignEvent.CardUpgraded
    reward_declined: LegacyCampaignEvent.RewardDeclined
    rewards_done: LegacyCampaignEvent.RewardsDone
    def __init__(self, continent_named: _Optional[_Union[LegacyCampaignEvent.ContinentNamed, _Mapping]] = ..., city_founded: _Optional[_Union[LegacyCampaignEvent.CityFounded, _Mapping]] = ..., scar_cancelled: _Optional[_Union[LegacyCampaignEvent.ScarCancelled, _Mapping]] = ..., continent_bonus_changed: _Optional[_Union[LegacyCampaignEvent.ContinentBonusChanged, _Mapping]] = ..., city_fortified: _Optional[_Union[LegacyCampaignEvent.CityFortified, _Mapping]] = ..., card_upgraded: _Optional[_Union[LegacyCampaignEvent.CardUpgraded, _Mapping]] = ..., reward_declined: _Optional[_Union[LegacyCampaignEvent.RewardDeclined, _Mapping]] = ..., rewards_done: _Optional[_Union[LegacyCampaignEvent.RewardsDone, _Mapping]] = ...) -> None: ...
