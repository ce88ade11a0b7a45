from risk_proto.risk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InvitationState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INVITATION_STATE_UNSPECIFIED: _ClassVar[InvitationState]
    INVITATION_STATE_PENDING: _ClassVar[InvitationState]
    INVITATION_STATE_ACCEPTED: _ClassVar[InvitationState]
    INVITATION_STATE_DECLINED: _ClassVar[InvitationState]
    INVITATION_STATE_REVOKED: _ClassVar[InvitationState]
    INVITATION_STATE_EXPIRED: _ClassVar[InvitationState]
INVITATION_STATE_UNSPECIFIED: InvitationState
INVITATION_STATE_PENDING: InvitationState
INVITATION_STATE_ACCEPTED: InvitationState
INVITATION_STATE_DECLINED: InvitationState
INVITATION_STATE_REVOKED: InvitationState
INVITATION_STATE_EXPIRED: InvitationState

class Invitation(_message.Message):
    __slots__ = ("invitation_id", "game_id", "seat", "invitee", "host_player", "created_at_ms", "expires_at_ms", "variant", "state", "accepted_by", "code")
    INVITATION_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INVITEE_FIELD_NUMBER: _ClassVar[int]
    HOST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_BY_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    invitation_id: str
    game_id: str
    seat: int
    invitee: str
    host_player: str
    created_at_ms: int
    expires_at_ms: int
    variant: _common_pb2.Variant
    state: InvitationState
    accepted_by: str
    code: str
    def __init__(self, invitation_id: _Optional[str] = ..., game_id: _Optional[str] = ..., seat: _Optional[int] = ..., invitee: _Optional[str] = ..., host_player: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., state: _Optional[_Union[InvitationState, str]] = ..., accepted_by: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class PlayerEvent(_message.Message):
    __slots__ = ("seq", "player_id", "game_id", "game_version", "at_ms", "seat", "variant", "seat_name", "turn", "started", "finished", "invitation", "match_found")
    class Turn(_message.Message):
        __slots__ = ("deadline_ms",)
        DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
        deadline_ms: int
        def __init__(self, deadline_ms: _Optional[int] = ...) -> None: ...
    class Started(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class MatchFound(_message.Message):
        __slots__ = ("ticket_id", "table_size", "bots", "rated")
        TICKET_ID_FIELD_NUMBER: _ClassVar[int]
        TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
        BOTS_FIELD_NUMBER: _ClassVar[int]
        RATED_FIELD_NUMBER: _ClassVar[int]
        ticket_id: str
        table_size: int
        bots: int
        rated: bool
        def __init__(self, ticket_id: _Optional[str] = ..., table_size: _Optional[int] = ..., bots: _Optional[int] = ..., rated: _Optional[bool] = ...) -> None: ...
    class Finished(_message.Message):
        __slots__ = ("status", "winner", "ranking")
        STATUS_FIELD_NUMBER: _ClassVar[int]
        WINNER_FIELD_NUMBER: _ClassVar[int]
        RANKING_FIELD_NUMBER: _ClassVar[int]
        status: int
        winner: int
        ranking: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, status: _Optional[int] = ..., winner: _Optional[int] = ..., ranking: _Optional[_Iterable[int]] = ...) -> None: ...
    SEQ_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_VERSION_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    INVITATION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FOUND_FIELD_NUMBER: _ClassVar[int]
    seq: int
    player_id: str
    game_id: str
    game_version: int
    at_ms: int
    seat: int
    variant: _common_pb2.Variant
    seat_name: str
    turn: PlayerEvent.Turn
    started: PlayerEvent.Started
    finished: PlayerEvent.Finished
    invitation: Invitation
    match_found: PlayerEvent.MatchFound
    def __init__(self, seq: _Optional[int] = ..., player_id: _Optional[str] = ..., game_id: _Optional[str] = ..., game_version: _Optional[int] = ..., at_ms: _Optional[int] = ..., seat: _Optional[int] = ..., variant: _Optional[_Union[_common_pb2.Variant, str]] = ..., seat_name: _Optional[str] = ..., turn: _Optional[_Union[PlayerEvent.Turn, _Mapping]] = ..., started: _Optional[_Union[PlayerEvent.Started, _Mapping]] = ..., finished: _Optional[_Union[PlayerEvent.Finished, _Mapping]] = ..., invitation: _Optional[_Union[Invitation, _Mapping]] = ..., match_found: _Optional[_Union[PlayerEvent.MatchFound, _Mapping]] = ...) -> None: ...

class PlayerEventBatch(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[PlayerEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[PlayerEvent, _Mapping]]] = ...) -> None: ...

class StreamPlayerEventsRequest(_message.Message):
    __slots__ = ("after_seq",)
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    after_seq: int
    def __init__(self, after_seq: _Optional[int] = ...) -> None: ...

class StreamPlayerEventsResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: PlayerEvent
    def __init__(self, event: _Optional[_Union[PlayerEvent, _Mapping]] = ...) -> None: ...

class CreateInvitationRequest(_message.Message):
    __slots__ = ("game_id", "seat", "invitee", "link", "expires_in_seconds")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INVITEE_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    invitee: str
    link: bool
    expires_in_seconds: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., invitee: _Optional[str] = ..., link: _Optional[bool] = ..., expires_in_seconds: _Optional[int] = ...) -> None: ...

class InvitationRequest(_message.Message):
    __slots__ = ("game_id", "invitation_id", "code")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    invitation_id: str
    code: str
    def __init__(self, game_id: _Optional[str] = ..., invitation_id: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class AcceptInvitationRequest(_message.Message):
    __slots__ = ("game_id", "invitation_id", "code", "display_name")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    invitation_id: str
    code: str
    display_name: str
    def __init__(self, game_id: _Optional[str] = ..., invitation_id: _Optional[str] = ..., code: _Optional[str] = ..., display_name: _Optional[str] = ...) -> None: ...

class AcceptInvitationResponse(_message.Message):
    __slots__ = ("game_id", "seat", "seat_token", "player_id")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    seat_token: str
    player_id: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class ListInvitationsRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class ListInvitationsResponse(_message.Message):
    __slots__ = ("invitations",)
    INVITATIONS_FIELD_NUMBER: _ClassVar[int]
    invitations: _containers.RepeatedCompositeFieldContainer[Invitation]
    def __init__(self, invitations: _Optional[_Iterable[_Union[Invitation, _Mapping]]] = ...) -> None: ...
