from risk_proto.risk.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameIds(_message.Message):
    __slots__ = ("game_ids",)
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class StreamGamesRequest(_message.Message):
    __slots__ = ("tournament", "games", "player_id", "round", "resume_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    RESUME_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    games: GameIds
    player_id: str
    round: int
    resume_token: str
    def __init__(self, tournament: _Optional[str] = ..., games: _Optional[_Union[GameIds, _Mapping]] = ..., player_id: _Optional[str] = ..., round: _Optional[int] = ..., resume_token: _Optional[str] = ...) -> None: ...

class GameEventItem(_message.Message):
    __slots__ = ("game_id", "event")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    event: _game_pb2.Event
    def __init__(self, game_id: _Optional[str] = ..., event: _Optional[_Union[_game_pb2.Event, _Mapping]] = ...) -> None: ...

class GameAdded(_message.Message):
    __slots__ = ("game_id", "round")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    round: int
    def __init__(self, game_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class GameRemoved(_message.Message):
    __slots__ = ("game_id", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class FeaturedGame(_message.Message):
    __slots__ = ("game_id", "score", "why")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    score: int
    why: str
    def __init__(self, game_id: _Optional[str] = ..., score: _Optional[int] = ..., why: _Optional[str] = ...) -> None: ...

class StreamGamesResponse(_message.Message):
    __slots__ = ("event", "added", "removed", "featured", "resume_token")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    FEATURED_FIELD_NUMBER: _ClassVar[int]
    RESUME_TOKEN_FIELD_NUMBER: _ClassVar[int]
    event: GameEventItem
    added: GameAdded
    removed: GameRemoved
    featured: FeaturedGame
    resume_token: str
    def __init__(self, event: _Optional[_Union[GameEventItem, _Mapping]] = ..., added: _Optional[_Union[GameAdded, _Mapping]] = ..., removed: _Optional[_Union[GameRemoved, _Mapping]] = ..., featured: _Optional[_Union[FeaturedGame, _Mapping]] = ..., resume_token: _Optional[str] = ...) -> None: ...

class StreamGamesPosition(_message.Message):
    __slots__ = ("after_seq",)
    class AfterSeqEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    after_seq: _containers.ScalarMap[str, int]
    def __init__(self, after_seq: _Optional[_Mapping[str, int]] = ...) -> None: ...
