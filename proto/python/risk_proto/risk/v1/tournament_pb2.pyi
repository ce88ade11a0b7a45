from risk_proto.risk.v1 import common_pb2 as _common_pb2
from risk_proto.risk.v1 import game_pb2 as _game_pb2
from risk_proto.risk.v1 import lifecycle_pb2 as _lifecycle_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_LEVEL_UNSPECIFIED: _ClassVar[BotLevel]
    BOT_LEVEL_RANDOM: _ClassVar[BotLevel]
    BOT_LEVEL_GREEDY: _ClassVar[BotLevel]
    BOT_LEVEL_PLANNER: _ClassVar[BotLevel]
BOT_LEVEL_UNSPECIFIED: BotLevel
BOT_LEVEL_RANDOM: BotLevel
BOT_LEVEL_GREEDY: BotLevel
BOT_LEVEL_PLANNER: BotLevel

class RoundSeat(_message.Message):
    __slots__ = ("player", "bot", "player_id")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player: str
    bot: BotLevel
    player_id: str
    def __init__(self, player: _Optional[str] = ..., bot: _Optional[_Union[BotLevel, str]] = ..., player_id: _Optional[str] = ...) -> None: ...

class RoundTable(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[RoundSeat]
    def __init__(self, seats: _Optional[_Iterable[_Union[RoundSeat, _Mapping]]] = ...) -> None: ...

class CreateRoundRequest(_message.Message):
    __slots__ = ("request_id", "tournament", "round", "options", "clock", "games", "duplicate")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    tournament: str
    round: int
    options: _game_pb2.GameOptions
    clock: _lifecycle_pb2.ClockOptions
    games: _containers.RepeatedCompositeFieldContainer[RoundTable]
    duplicate: bool
    def __init__(self, request_id: _Optional[str] = ..., tournament: _Optional[str] = ..., round: _Optional[int] = ..., options: _Optional[_Union[_game_pb2.GameOptions, _Mapping]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., games: _Optional[_Iterable[_Union[RoundTable, _Mapping]]] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class RoundGame(_message.Message):
    __slots__ = ("game_id", "seat_tokens", "seed_commitment")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    seed_commitment: bytes
    def __init__(self, game_id: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[str]] = ..., seed_commitment: _Optional[bytes] = ...) -> None: ...

class CreateRoundResponse(_message.Message):
    __slots__ = ("tournament", "round", "host_token", "games")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    round: int
    host_token: str
    games: _containers.RepeatedCompositeFieldContainer[RoundGame]
    def __init__(self, tournament: _Optional[str] = ..., round: _Optional[int] = ..., host_token: _Optional[str] = ..., games: _Optional[_Iterable[_Union[RoundGame, _Mapping]]] = ...) -> None: ...

class SeedReveal(_message.Message):
    __slots__ = ("seed", "nonce")
    SEED_FIELD_NUMBER: _ClassVar[int]
    NONCE_FIELD_NUMBER: _ClassVar[int]
    seed: int
    nonce: bytes
    def __init__(self, seed: _Optional[int] = ..., nonce: _Optional[bytes] = ...) -> None: ...

class StreamResultsRequest(_message.Message):
    __slots__ = ("tournament", "after_seq")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    after_seq: int
    def __init__(self, tournament: _Optional[str] = ..., after_seq: _Optional[int] = ...) -> None: ...

class TournamentFact(_message.Message):
    __slots__ = ("seq", "game_id", "round", "game_version", "at_ms", "created", "started", "seat_timed_out", "seat_resigned", "finished", "abandoned", "cancelled", "round_seated", "standings")
    class Created(_message.Message):
        __slots__ = ("players", "bots", "seed_commitment", "duplicate")
        PLAYERS_FIELD_NUMBER: _ClassVar[int]
        BOTS_FIELD_NUMBER: _ClassVar[int]
        SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
        DUPLICATE_FIELD_NUMBER: _ClassVar[int]
        players: _containers.RepeatedScalarFieldContainer[str]
        bots: _containers.RepeatedScalarFieldContainer[BotLevel]
        seed_commitment: bytes
        duplicate: bool
        def __init__(self, players: _Optional[_Iterable[str]] = ..., bots: _Optional[_Iterable[_Union[BotLevel, str]]] = ..., seed_commitment: _Optional[bytes] = ..., duplicate: _Optional[bool] = ...) -> None: ...
    class Started(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class SeatTimedOut(_message.Message):
        __slots__ = ("seat", "policy")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        POLICY_FIELD_NUMBER: _ClassVar[int]
        seat: int
        policy: _lifecycle_pb2.TimeoutPolicy
        def __init__(self, seat: _Optional[int] = ..., policy: _Optional[_Union[_lifecycle_pb2.TimeoutPolicy, str]] = ...) -> None: ...
    class SeatResigned(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class Finished(_message.Message):
        __slots__ = ("outcome",)
        OUTCOME_FIELD_NUMBER: _ClassVar[int]
        outcome: _common_pb2.Outcome
        def __init__(self, outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ...) -> None: ...
    class Abandoned(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Cancelled(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class RoundSeated(_message.Message):
        __slots__ = ("tables", "final")
        class Table(_message.Message):
            __slots__ = ("game_id", "players", "names", "bots")
            GAME_ID_FIELD_NUMBER: _ClassVar[int]
            PLAYERS_FIELD_NUMBER: _ClassVar[int]
            NAMES_FIELD_NUMBER: _ClassVar[int]
            BOTS_FIELD_NUMBER: _ClassVar[int]
            game_id: str
            players: _containers.RepeatedScalarFieldContainer[str]
            names: _containers.RepeatedScalarFieldContainer[str]
            bots: _containers.RepeatedScalarFieldContainer[BotLevel]
            def __init__(self, game_id: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., names: _Optional[_Iterable[str]] = ..., bots: _Optional[_Iterable[_Union[BotLevel, str]]] = ...) -> None: ...
        TABLES_FIELD_NUMBER: _ClassVar[int]
        FINAL_FIELD_NUMBER: _ClassVar[int]
        tables: _containers.RepeatedCompositeFieldContainer[TournamentFact.RoundSeated.Table]
        final: bool
        def __init__(self, tables: _Optional[_Iterable[_Union[TournamentFact.RoundSeated.Table, _Mapping]]] = ..., final: _Optional[bool] = ...) -> None: ...
    class Standings(_message.Message):
        __slots__ = ("lines", "final")
        class Line(_message.Message):
            __slots__ = ("place", "player_id", "name", "points", "points_value", "wins", "played")
            PLACE_FIELD_NUMBER: _ClassVar[int]
            PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
            NAME_FIELD_NUMBER: _ClassVar[int]
            POINTS_FIELD_NUMBER: _ClassVar[int]
            POINTS_VALUE_FIELD_NUMBER: _ClassVar[int]
            WINS_FIELD_NUMBER: _ClassVar[int]
            PLAYED_FIELD_NUMBER: _ClassVar[int]
            place: int
            player_id: str
            name: str
            points: str
            points_value: float
            wins: int
            played: int
            def __init__(self, place: _Optional[int] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., points: _Optional[str] = ..., points_value: _Optional[float] = ..., wins: _Optional[int] = ..., played: _Optional[int] = ...) -> None: ...
        LINES_FIELD_NUMBER: _ClassVar[int]
        FINAL_FIELD_NUMBER: _ClassVar[int]
        lines: _containers.RepeatedCompositeFieldContainer[TournamentFact.Standings.Line]
        final: bool
        def __init__(self, lines: _Optional[_Iterable[_Union[TournamentFact.Standings.Line, _Mapping]]] = ..., final: _Optional[bool] = ...) -> None: ...
    SEQ_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    GAME_VERSION_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    SEAT_RESIGNED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    ABANDONED_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    ROUND_SEATED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    game_id: str
    round: int
    game_version: int
    at_ms: int
    created: TournamentFact.Created
    started: TournamentFact.Started
    seat_timed_out: TournamentFact.SeatTimedOut
    seat_resigned: TournamentFact.SeatResigned
    finished: TournamentFact.Finished
    abandoned: TournamentFact.Abandoned
    cancelled: TournamentFact.Cancelled
    round_seated: TournamentFact.RoundSeated
    standings: TournamentFact.Standings
    def __init__(self, seq: _Optional[int] = ..., game_id: _Optional[str] = ..., round: _Optional[int] = ..., game_version: _Optional[int] = ..., at_ms: _Optional[int] = ..., created: _Optional[_Union[TournamentFact.Created, _Mapping]] = ..., started: _Optional[_Union[TournamentFact.Started, _Mapping]] = ..., seat_timed_out: _Optional[_Union[TournamentFact.SeatTimedOut, _Mapping]] = ..., seat_resigned: _Optional[_Union[TournamentFact.SeatResigned, _Mapping]] = ..., finished: _Optional[_Union[TournamentFact.Finished, _Mapping]] = ..., abandoned: _Optional[_Union[TournamentFact.Abandoned, _Mapping]] = ..., cancelled: _Optional[_Union[TournamentFact.Cancelled, _Mapping]] = ..., round_seated: _Optional[_Union[TournamentFact.RoundSeated, _Mapping]] = ..., standings: _Optional[_Union[TournamentFact.Standings, _Mapping]] = ...) -> None: ...

class StreamResultsResponse(_message.Message):
    __slots__ = ("fact",)
    FACT_FIELD_NUMBER: _ClassVar[int]
    fact: TournamentFact
    def __init__(self, fact: _Optional[_Union[TournamentFact, _Mapping]] = ...) -> None: ...
