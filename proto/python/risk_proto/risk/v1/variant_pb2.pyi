from risk_proto.risk.v1 import common_pb2 as _common_pb2
from risk_proto.risk.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OptionType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPTION_TYPE_UNSPECIFIED: _ClassVar[OptionType]
    OPTION_TYPE_BOOL: _ClassVar[OptionType]
    OPTION_TYPE_INT: _ClassVar[OptionType]
    OPTION_TYPE_ENUM: _ClassVar[OptionType]
    OPTION_TYPE_STRING: _ClassVar[OptionType]
    OPTION_TYPE_MESSAGE: _ClassVar[OptionType]
OPTION_TYPE_UNSPECIFIED: OptionType
OPTION_TYPE_BOOL: OptionType
OPTION_TYPE_INT: OptionType
OPTION_TYPE_ENUM: OptionType
OPTION_TYPE_STRING: OptionType
OPTION_TYPE_MESSAGE: OptionType

class DescribeVariantRequest(_message.Message):
    __slots__ = ("variant", "name")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    variant: _common_pb2.Variant
    name: str
    def __init__(self, variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., name: _Optional[str] = ...) -> None: ...

class DescribeVariantResponse(_message.Message):
    __slots__ = ("variant",)
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    variant: VariantDescription
    def __init__(self, variant: _Optional[_Union[VariantDescription, _Mapping]] = ...) -> None: ...

class ListVariantsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListVariantsResponse(_message.Message):
    __slots__ = ("variants",)
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    variants: _containers.RepeatedCompositeFieldContainer[VariantDescription]
    def __init__(self, variants: _Optional[_Iterable[_Union[VariantDescription, _Mapping]]] = ...) -> None: ...

class VariantDescription(_message.Message):
    __slots__ = ("variant", "name", "title", "rules_version", "seat_counts", "default_players", "map", "decks", "options", "default_options", "clock_options")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    variant: _common_pb2.Variant
    name: str
    title: str
    rules_version: int
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    default_players: int
    map: GameMap
    decks: _containers.RepeatedCompositeFieldContainer[Deck]
    options: _containers.RepeatedCompositeFieldContainer[OptionDescription]
    default_options: _game_pb2.GameOptions
    clock_options: _containers.RepeatedCompositeFieldContainer[OptionDescription]
    def __init__(self, variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., name: _Optional[str] = ..., title: _Optional[str] = ..., rules_version: _Optional[int] = ..., seat_counts: _Optional[_Iterable[int]] = ..., default_players: _Optional[int] = ..., map: _Optional[_Union[GameMap, _Mapping]] = ..., decks: _Optional[_Iterable[_Union[Deck, _Mapping]]] = ..., options: _Optional[_Iterable[_Union[OptionDescription, _Mapping]]] = ..., default_options: _Optional[_Union[_game_pb2.GameOptions, _Mapping]] = ..., clock_options: _Optional[_Iterable[_Union[OptionDescription, _Mapping]]] = ...) -> None: ...

class GameMap(_message.Message):
    __slots__ = ("region_noun", "group_noun", "view_box", "regions", "groups", "links", "hubs", "layouts")
    REGION_NOUN_FIELD_NUMBER: _ClassVar[int]
    GROUP_NOUN_FIELD_NUMBER: _ClassVar[int]
    VIEW_BOX_FIELD_NUMBER: _ClassVar[int]
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    LINKS_FIELD_NUMBER: _ClassVar[int]
    HUBS_FIELD_NUMBER: _ClassVar[int]
    LAYOUTS_FIELD_NUMBER: _ClassVar[int]
    region_noun: str
    group_noun: str
    view_box: ViewBox
    regions: _containers.RepeatedCompositeFieldContainer[MapRegion]
    groups: _containers.RepeatedCompositeFieldContainer[MapGroup]
    links: _containers.RepeatedCompositeFieldContainer[MapLink]
    hubs: _containers.RepeatedCompositeFieldContainer[MapHub]
    layouts: _containers.RepeatedCompositeFieldContainer[MapLayout]
    def __init__(self, region_noun: _Optional[str] = ..., group_noun: _Optional[str] = ..., view_box: _Optional[_Union[ViewBox, _Mapping]] = ..., regions: _Optional[_Iterable[_Union[MapRegion, _Mapping]]] = ..., groups: _Optional[_Iterable[_Union[MapGroup, _Mapping]]] = ..., links: _Optional[_Iterable[_Union[MapLink, _Mapping]]] = ..., hubs: _Optional[_Iterable[_Union[MapHub, _Mapping]]] = ..., layouts: _Optional[_Iterable[_Union[MapLayout, _Mapping]]] = ...) -> None: ...

class ViewBox(_message.Message):
    __slots__ = ("x", "y", "width", "height")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    width: float
    height: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., width: _Optional[float] = ..., height: _Optional[float] = ...) -> None: ...

class Point(_message.Message):
    __slots__ = ("x", "y")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class MapRegion(_message.Message):
    __slots__ = ("id", "name", "group", "adjacent", "x", "y", "radius", "outline", "kind", "tags", "colour")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    ADJACENT_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    RADIUS_FIELD_NUMBER: _ClassVar[int]
    OUTLINE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    group: int
    adjacent: _containers.RepeatedScalarFieldContainer[int]
    x: float
    y: float
    radius: float
    outline: _containers.RepeatedCompositeFieldContainer[Point]
    kind: str
    tags: _containers.RepeatedScalarFieldContainer[str]
    colour: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., group: _Optional[int] = ..., adjacent: _Optional[_Iterable[int]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., radius: _Optional[float] = ..., outline: _Optional[_Iterable[_Union[Point, _Mapping]]] = ..., kind: _Optional[str] = ..., tags: _Optional[_Iterable[str]] = ..., colour: _Optional[str] = ...) -> None: ...

class MapGroup(_message.Message):
    __slots__ = ("id", "name", "bonus", "members", "colour", "description")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    bonus: int
    members: _containers.RepeatedScalarFieldContainer[int]
    colour: str
    description: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., bonus: _Optional[int] = ..., members: _Optional[_Iterable[int]] = ..., colour: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class MapLink(_message.Message):
    __slots__ = ("a", "b", "wraps")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    WRAPS_FIELD_NUMBER: _ClassVar[int]
    a: int
    b: int
    wraps: bool
    def __init__(self, a: _Optional[int] = ..., b: _Optional[int] = ..., wraps: _Optional[bool] = ...) -> None: ...

class MapHub(_message.Message):
    __slots__ = ("name", "members", "x", "y", "radius", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    RADIUS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    members: _containers.RepeatedScalarFieldContainer[int]
    x: float
    y: float
    radius: float
    description: str
    def __init__(self, name: _Optional[str] = ..., members: _Optional[_Iterable[int]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., radius: _Optional[float] = ..., description: _Optional[str] = ...) -> None: ...

class MapLayout(_message.Message):
    __slots__ = ("players", "homes", "out_of_play")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HOMES_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_PLAY_FIELD_NUMBER: _ClassVar[int]
    players: int
    homes: _containers.RepeatedScalarFieldContainer[int]
    out_of_play: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, players: _Optional[int] = ..., homes: _Optional[_Iterable[int]] = ..., out_of_play: _Optional[_Iterable[int]] = ...) -> None: ...

class Deck(_message.Message):
    __slots__ = ("name", "description", "cards")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("id", "name", "kind", "region", "group", "value", "cost", "text")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    kind: str
    region: int
    group: int
    value: int
    cost: str
    text: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., kind: _Optional[str] = ..., region: _Optional[int] = ..., group: _Optional[int] = ..., value: _Optional[int] = ..., cost: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class OptionDescription(_message.Message):
    __slots__ = ("name", "type", "default_value", "min", "max", "choices", "description", "settable")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    SETTABLE_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: OptionType
    default_value: OptionValue
    min: int
    max: int
    choices: _containers.RepeatedCompositeFieldContainer[OptionChoice]
    description: str
    settable: bool
    def __init__(self, name: _Optional[str] = ..., type: _Optional[_Union[OptionType, str]] = ..., default_value: _Optional[_Union[OptionValue, _Mapping]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., choices: _Optional[_Iterable[_Union[OptionChoice, _Mapping]]] = ..., description: _Optional[str] = ..., settable: _Optional[bool] = ...) -> None: ...

class OptionValue(_message.Message):
    __slots__ = ("bool_value", "int_value", "enum_value", "string_value")
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    INT_VALUE_FIELD_NUMBER: _ClassVar[int]
    ENUM_VALUE_FIELD_NUMBER: _ClassVar[int]
    STRING_VALUE_FIELD_NUMBER: _ClassVar[int]
    bool_value: bool
    int_value: int
    enum_value: int
    string_value: str
    def __init__(self, bool_value: _Optional[bool] = ..., int_value: _Optional[int] = ..., enum_value: _Optional[int] = ..., string_value: _Optional[str] = ...) -> None: ...

class OptionChoice(_message.Message):
    __slots__ = ("name", "number", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    number: int
    description: str
    def __init__(self, name: _Optional[str] = ..., number: _Optional[int] = ..., description: _Optional[str] = ...) -> None: ...
