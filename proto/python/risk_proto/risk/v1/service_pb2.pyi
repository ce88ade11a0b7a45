from risk_proto.risk.v1 import broadcast_pb2 as _broadcast_pb2
from risk_proto.risk.v1 import common_pb2 as _common_pb2
from risk_proto.risk.v1 import events_pb2 as _events_pb2
from risk_proto.risk.v1 import game_pb2 as _game_pb2
from risk_proto.risk.v1 import legacy_pb2 as _legacy_pb2
from risk_proto.risk.v1 import lifecycle_pb2 as _lifecycle_pb2
from risk_proto.risk.v1 import matchmaking_pb2 as _matchmaking_pb2
from risk_proto.risk.v1 import players_pb2 as _players_pb2
from risk_proto.risk.v1 import ratings_pb2 as _ratings_pb2
from risk_proto.risk.v1 import player_games_pb2 as _player_games_pb2
from risk_proto.risk.v1 import session_pb2 as _session_pb2
from risk_proto.risk.v1 import variant_pb2 as _variant_pb2
from risk_proto.risk.v1 import tournament_pb2 as _tournament_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATUS_UNSPECIFIED: _ClassVar[GameStatus]
    GAME_STATUS_WAITING: _ClassVar[GameStatus]
    GAME_STATUS_ACTIVE: _ClassVar[GameStatus]
    GAME_STATUS_FINISHED: _ClassVar[GameStatus]
    GAME_STATUS_ABANDONED: _ClassVar[GameStatus]
    GAME_STATUS_CANCELLED: _ClassVar[GameStatus]
GAME_STATUS_UNSPECIFIED: GameStatus
GAME_STATUS_WAITING: GameStatus
GAME_STATUS_ACTIVE: GameStatus
GAME_STATUS_FINISHED: GameStatus
GAME_STATUS_ABANDONED: GameStatus
GAME_STATUS_CANCELLED: GameStatus

class StartVacationRequest(_message.Message):
    __slots__ = ("game_id", "days", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    days: int
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., days: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class StartVacationResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class EndVacationRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class EndVacationResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class CreateCampaignRequest(_message.Message):
    __slots__ = ("players", "factions", "seat_names", "seat_players")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FACTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    SEAT_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: int
    factions: _containers.RepeatedCompositeFieldContainer[_legacy_pb2.FactionChoice]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    seat_players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, players: _Optional[int] = ..., factions: _Optional[_Iterable[_Union[_legacy_pb2.FactionChoice, _Mapping]]] = ..., seat_names: _Optional[_Iterable[str]] = ..., seat_players: _Optional[_Iterable[str]] = ...) -> None: ...

class CampaignSummary(_message.Message):
    __slots__ = ("campaign_id", "version", "state", "decision", "game_ids", "seat_names", "created_at_ms", "seat_players")
    CAMPAIGN_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_IDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    SEAT_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    campaign_id: str
    version: int
    state: _legacy_pb2.CampaignState
    decision: _common_pb2.Decision
    game_ids: _containers.RepeatedScalarFieldContainer[str]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    created_at_ms: int
    seat_players: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, campaign_id: _Optional[str] = ..., version: _Optional[int] = ..., state: _Optional[_Union[_legacy_pb2.CampaignState, _Mapping]] = ..., decision: _Optional[_Union[_common_pb2.Decision, _Mapping]] = ..., game_ids: _Optional[_Iterable[str]] = ..., seat_names: _Optional[_Iterable[str]] = ..., created_at_ms: _Optional[int] = ..., seat_players: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateCampaignResponse(_message.Message):
    __slots__ = ("campaign", "host_token", "seat_tokens")
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    campaign: CampaignSummary
    host_token: str
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, campaign: _Optional[_Union[CampaignSummary, _Mapping]] = ..., host_token: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[str]] = ...) -> None: ...

class GetCampaignRequest(_message.Message):
    __slots__ = ("campaign_id",)
    CAMPAIGN_ID_FIELD_NUMBER: _ClassVar[int]
    campaign_id: str
    def __init__(self, campaign_id: _Optional[str] = ...) -> None: ...

class GetCampaignResponse(_message.Message):
    __slots__ = ("campaign", "viewer_seat", "legal_rewards")
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_REWARDS_FIELD_NUMBER: _ClassVar[int]
    campaign: CampaignSummary
    viewer_seat: int
    legal_rewards: _containers.RepeatedCompositeFieldContainer[_legacy_pb2.LegacyReward]
    def __init__(self, campaign: _Optional[_Union[CampaignSummary, _Mapping]] = ..., viewer_seat: _Optional[int] = ..., legal_rewards: _Optional[_Iterable[_Union[_legacy_pb2.LegacyReward, _Mapping]]] = ...) -> None: ...

class ListCampaignsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListCampaignsResponse(_message.Message):
    __slots__ = ("campaigns", "next_page_token")
    CAMPAIGNS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    campaigns: _containers.RepeatedCompositeFieldContainer[CampaignSummary]
    next_page_token: str
    def __init__(self, campaigns: _Optional[_Iterable[_Union[CampaignSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class StartCampaignGameRequest(_message.Message):
    __slots__ = ("campaign_id", "seed", "max_turns", "clock")
    CAMPAIGN_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    campaign_id: str
    seed: int
    max_turns: int
    clock: _lifecycle_pb2.ClockOptions
    def __init__(self, campaign_id: _Optional[str] = ..., seed: _Optional[int] = ..., max_turns: _Optional[int] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ...) -> None: ...

class StartCampaignGameResponse(_message.Message):
    __slots__ = ("campaign", "game")
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    campaign: CampaignSummary
    game: GameSummary
    def __init__(self, campaign: _Optional[_Union[CampaignSummary, _Mapping]] = ..., game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class SubmitCampaignDecisionRequest(_message.Message):
    __slots__ = ("campaign_id", "reward", "expected_version")
    CAMPAIGN_ID_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    campaign_id: str
    reward: _legacy_pb2.LegacyReward
    expected_version: int
    def __init__(self, campaign_id: _Optional[str] = ..., reward: _Optional[_Union[_legacy_pb2.LegacyReward, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SubmitCampaignDecisionResponse(_message.Message):
    __slots__ = ("campaign", "events")
    CAMPAIGN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    campaign: CampaignSummary
    events: _containers.RepeatedCompositeFieldContainer[_legacy_pb2.LegacyCampaignEvent]
    def __init__(self, campaign: _Optional[_Union[CampaignSummary, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_legacy_pb2.LegacyCampaignEvent, _Mapping]]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("seat", "display_name", "taken", "player_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    display_name: str
    taken: bool
    player_id: str
    def __init__(self, seat: _Optional[int] = ..., display_name: _Optional[str] = ..., taken: _Optional[bool] = ..., player_id: _Optional[str] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "variant", "status", "version", "last_seq", "rules_version", "seats", "decision", "outcome", "created_at_ms", "updated_at_ms", "clock", "deadline_ms", "bank_ms", "bot_seats", "spectator_delay_events", "spectator_delay_seconds", "tournament", "round", "bot_levels", "seed_commitment", "seed_reveal", "vacation_left_ms", "vacation_until_ms", "missed_turns", "spectators", "rated")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_EVENTS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVELS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_REVEAL_FIELD_NUMBER: _ClassVar[int]
    VACATION_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    VACATION_UNTIL_MS_FIELD_NUMBER: _ClassVar[int]
    MISSED_TURNS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    variant: _common_pb2.Variant
    status: GameStatus
    version: int
    last_seq: int
    rules_version: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    decision: _common_pb2.Decision
    outcome: _common_pb2.Outcome
    created_at_ms: int
    updated_at_ms: int
    clock: _lifecycle_pb2.ClockOptions
    deadline_ms: int
    bank_ms: _containers.RepeatedScalarFieldContainer[int]
    bot_seats: _containers.RepeatedScalarFieldContainer[bool]
    spectator_delay_events: int
    spectator_delay_seconds: int
    tournament: str
    round: int
    bot_levels: _containers.RepeatedScalarFieldContainer[_tournament_pb2.BotLevel]
    seed_commitment: bytes
    seed_reveal: _tournament_pb2.SeedReveal
    vacation_left_ms: _containers.RepeatedScalarFieldContainer[int]
    vacation_until_ms: _containers.RepeatedScalarFieldContainer[int]
    missed_turns: _containers.RepeatedScalarFieldContainer[int]
    spectators: int
    rated: bool
    def __init__(self, game_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., status: _Optional[_Union[GameStatus, str]] = ..., version: _Optional[int] = ..., last_seq: _Optional[int] = ..., rules_version: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., decision: _Optional[_Union[_common_pb2.Decision, _Mapping]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., created_at_ms: _Optional[int] = ..., updated_at_ms: _Optional[int] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., deadline_ms: _Optional[int] = ..., bank_ms: _Optional[_Iterable[int]] = ..., bot_seats: _Optional[_Iterable[bool]] = ..., spectator_delay_events: _Optional[int] = ..., spectator_delay_seconds: _Optional[int] = ..., tournament: _Optional[str] = ..., round: _Optional[int] = ..., bot_levels: _Optional[_Iterable[_Union[_tournament_pb2.BotLevel, str]]] = ..., seed_commitment: _Optional[bytes] = ..., seed_reveal: _Optional[_Union[_tournament_pb2.SeedReveal, _Mapping]] = ..., vacation_left_ms: _Optional[_Iterable[int]] = ..., vacation_until_ms: _Optional[_Iterable[int]] = ..., missed_turns: _Optional[_Iterable[int]] = ..., spectators: _Optional[int] = ..., rated: _Optional[bool] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("options", "seed", "seat_names", "clock", "manual_start", "spectator_delay_events", "spectator_delay_seconds", "issue_seat_tokens", "seat_players", "rated")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    MANUAL_START_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_EVENTS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ISSUE_SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SEAT_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    options: _game_pb2.GameOptions
    seed: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    clock: _lifecycle_pb2.ClockOptions
    manual_start: bool
    spectator_delay_events: int
    spectator_delay_seconds: int
    issue_seat_tokens: bool
    seat_players: _containers.RepeatedScalarFieldContainer[str]
    rated: bool
    def __init__(self, options: _Optional[_Union[_game_pb2.GameOptions, _Mapping]] = ..., seed: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ..., clock: _Optional[_Union[_lifecycle_pb2.ClockOptions, _Mapping]] = ..., manual_start: _Optional[bool] = ..., spectator_delay_events: _Optional[int] = ..., spectator_delay_seconds: _Optional[int] = ..., issue_seat_tokens: _Optional[bool] = ..., seat_players: _Optional[_Iterable[str]] = ..., rated: _Optional[bool] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game", "host_token", "seat_tokens")
    GAME_FIELD_NUMBER: _ClassVar[int]
    HOST_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    host_token: str
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ..., host_token: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[str]] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class StartGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class CancelGameRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class CancelGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class ReissueSeatTokenRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ReissueSeatTokenResponse(_message.Message):
    __slots__ = ("seat", "seat_token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("game_id", "seat", "request_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    request_id: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class ResignResponse(_message.Message):
    __slots__ = ("version", "events", "game")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    version: int
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    game: GameSummary
    def __init__(self, version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., game: _Optional[_Union[GameSummary, _Mapping]] = ...) -> None: ...

class ExportGameRequest(_message.Message):
    __slots__ = ("game_id", "page_token")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    page_token: str
    def __init__(self, game_id: _Optional[str] = ..., page_token: _Optional[str] = ...) -> None: ...

class GameExport(_message.Message):
    __slots__ = ("game_id", "variant", "rules_version", "options", "seed", "status", "outcome", "log", "events", "chain", "seat_names", "next_page_token", "version", "seed_commitment", "seed_nonce", "format", "log_chain", "header_digest", "fingerprint", "signature")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CHAIN_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_NONCE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    LOG_CHAIN_FIELD_NUMBER: _ClassVar[int]
    HEADER_DIGEST_FIELD_NUMBER: _ClassVar[int]
    FINGERPRINT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    variant: _common_pb2.Variant
    rules_version: int
    options: _game_pb2.GameOptions
    seed: int
    status: GameStatus
    outcome: _common_pb2.Outcome
    log: _containers.RepeatedCompositeFieldContainer[_game_pb2.LogEntry]
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    chain: _containers.RepeatedScalarFieldContainer[bytes]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    next_page_token: str
    version: int
    seed_commitment: bytes
    seed_nonce: bytes
    format: int
    log_chain: _containers.RepeatedScalarFieldContainer[bytes]
    header_digest: bytes
    fingerprint: bytes
    signature: ExportSignature
    def __init__(self, game_id: _Optional[str] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., rules_version: _Optional[int] = ..., options: _Optional[_Union[_game_pb2.GameOptions, _Mapping]] = ..., seed: _Optional[int] = ..., status: _Optional[_Union[GameStatus, str]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., log: _Optional[_Iterable[_Union[_game_pb2.LogEntry, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., chain: _Optional[_Iterable[bytes]] = ..., seat_names: _Optional[_Iterable[str]] = ..., next_page_token: _Optional[str] = ..., version: _Optional[int] = ..., seed_commitment: _Optional[bytes] = ..., seed_nonce: _Optional[bytes] = ..., format: _Optional[int] = ..., log_chain: _Optional[_Iterable[bytes]] = ..., header_digest: _Optional[bytes] = ..., fingerprint: _Optional[bytes] = ..., signature: _Optional[_Union[ExportSignature, _Mapping]] = ...) -> None: ...

class ExportSignature(_message.Message):
    __slots__ = ("key_id", "algorithm", "signature")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    algorithm: str
    signature: bytes
    def __init__(self, key_id: _Optional[str] = ..., algorithm: _Optional[str] = ..., signature: _Optional[bytes] = ...) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("game_id", "seat", "display_name", "request_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    display_name: str
    request_id: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., display_name: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "player_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    player_id: str
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("game_id", "at_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    at_version: int
    def __init__(self, game_id: _Optional[str] = ..., at_version: _Optional[int] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("game", "board", "viewer_seat")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    board: _game_pb2.BoardView
    viewer_seat: int
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ..., board: _Optional[_Union[_game_pb2.BoardView, _Mapping]] = ..., viewer_seat: _Optional[int] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("variant", "status", "page_size", "page_token", "tournament", "round")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    variant: _common_pb2.Variant
    status: GameStatus
    page_size: int
    page_token: str
    tournament: str
    round: int
    def __init__(self, variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., status: _Optional[_Union[GameStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., tournament: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("game_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("version", "seat", "decision", "actions")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    decision: _common_pb2.Decision
    actions: _containers.RepeatedCompositeFieldContainer[_game_pb2.LegalAction]
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., decision: _Optional[_Union[_common_pb2.Decision, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_game_pb2.LegalAction, _Mapping]]] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("game_id", "action", "expected_version", "request_id", "seat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    action: _game_pb2.Action
    expected_version: int
    request_id: str
    seat: int
    def __init__(self, game_id: _Optional[str] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("version", "events", "decision", "outcome")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    version: int
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    decision: _common_pb2.Decision
    outcome: _common_pb2.Outcome
    def __init__(self, version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., decision: _Optional[_Union[_common_pb2.Decision, _Mapping]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ...) -> None: ...

class StreamEventsRequest(_message.Message):
    __slots__ = ("game_id", "after_seq", "max_batch")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    after_seq: int
    max_batch: int
    def __init__(self, game_id: _Optional[str] = ..., after_seq: _Optional[int] = ..., max_batch: _Optional[int] = ...) -> None: ...

class StreamEventsResponse(_message.Message):
    __slots__ = ("event", "events")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    event: _game_pb2.Event
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, event: _Optional[_Union[_game_pb2.Event, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class PingRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMyGamesRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: GameStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[GameStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class MyGame(_message.Message):
    __slots__ = ("game", "seat", "your_turn", "last_activity_ms")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    YOUR_TURN_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTIVITY_MS_FIELD_NUMBER: _ClassVar[int]
    game: GameSummary
    seat: int
    your_turn: bool
    last_activity_ms: int
    def __init__(self, game: _Optional[_Union[GameSummary, _Mapping]] = ..., seat: _Optional[int] = ..., your_turn: _Optional[bool] = ..., last_activity_ms: _Optional[int] = ...) -> None: ...

class ListMyGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[MyGame]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[MyGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
