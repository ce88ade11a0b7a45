from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Rating(_message.Message):
    __slots__ = ("player_id", "variant", "season", "mu", "sigma", "rating", "provisional", "games", "rank", "updated_ms")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    UPDATED_MS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    variant: _common_pb2.Variant
    season: str
    mu: float
    sigma: float
    rating: float
    provisional: bool
    games: int
    rank: int
    updated_ms: int
    def __init__(self, player_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., season: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., rating: _Optional[float] = ..., provisional: _Optional[bool] = ..., games: _Optional[int] = ..., rank: _Optional[int] = ..., updated_ms: _Optional[int] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("game_id", "rank", "seats", "seat", "mu_before", "sigma_before", "mu_after", "sigma_after", "rating_before", "rating_after", "at_ms")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MU_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SIGMA_BEFORE_FIELD_NUMBER: _ClassVar[int]
    MU_AFTER_FIELD_NUMBER: _ClassVar[int]
    SIGMA_AFTER_FIELD_NUMBER: _ClassVar[int]
    RATING_BEFORE_FIELD_NUMBER: _ClassVar[int]
    RATING_AFTER_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    rank: int
    seats: int
    seat: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    rating_before: float
    rating_after: float
    at_ms: int
    def __init__(self, game_id: _Optional[str] = ..., rank: _Optional[int] = ..., seats: _Optional[int] = ..., seat: _Optional[int] = ..., mu_before: _Optional[float] = ..., sigma_before: _Optional[float] = ..., mu_after: _Optional[float] = ..., sigma_after: _Optional[float] = ..., rating_before: _Optional[float] = ..., rating_after: _Optional[float] = ..., at_ms: _Optional[int] = ...) -> None: ...

class GetRatingRequest(_message.Message):
    __slots__ = ("player_id", "variant", "season", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    variant: _common_pb2.Variant
    season: str
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., season: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetRatingResponse(_message.Message):
    __slots__ = ("rating", "history", "next_page_token")
    RATING_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rating: Rating
    history: _containers.RepeatedCompositeFieldContainer[RatingChange]
    next_page_token: str
    def __init__(self, rating: _Optional[_Union[Rating, _Mapping]] = ..., history: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("variant", "season", "page_size", "page_token", "around_player", "bots")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    AROUND_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    variant: _common_pb2.Variant
    season: str
    page_size: int
    page_token: str
    around_player: str
    bots: bool
    def __init__(self, variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., season: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., around_player: _Optional[str] = ..., bots: _Optional[bool] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("rank", "rating")
    RANK_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    rank: int
    rating: Rating
    def __init__(self, rank: _Optional[int] = ..., rating: _Optional[_Union[Rating, _Mapping]] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("season", "entries", "total", "next_page_token")
    SEASON_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    season: str
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    total: int
    next_page_token: str
    def __init__(self, season: _Optional[str] = ..., entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., total: _Optional[int] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RatedGame(_message.Message):
    __slots__ = ("game_id", "variant", "season", "ended_ms", "seats")
    class Seat(_message.Message):
        __slots__ = ("player_id", "seat", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after")
        PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
        SEAT_FIELD_NUMBER: _ClassVar[int]
        RANK_FIELD_NUMBER: _ClassVar[int]
        MU_BEFORE_FIELD_NUMBER: _ClassVar[int]
        SIGMA_BEFORE_FIELD_NUMBER: _ClassVar[int]
        MU_AFTER_FIELD_NUMBER: _ClassVar[int]
        SIGMA_AFTER_FIELD_NUMBER: _ClassVar[int]
        player_id: str
        seat: int
        rank: int
        mu_before: float
        sigma_before: float
        mu_after: float
        sigma_after: float
        def __init__(self, player_id: _Optional[str] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., mu_before: _Optional[float] = ..., sigma_before: _Optional[float] = ..., mu_after: _Optional[float] = ..., sigma_after: _Optional[float] = ...) -> None: ...
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEASON_FIELD_NUMBER: _ClassVar[int]
    ENDED_MS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    variant: str
    season: str
    ended_ms: int
    seats: _containers.RepeatedCompositeFieldContainer[RatedGame.Seat]
    def __init__(self, game_id: _Optional[str] = ..., variant: _Optional[str] = ..., season: _Optional[str] = ..., ended_ms: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[RatedGame.Seat, _Mapping]]] = ...) -> None: ...
