"""Readable, typed results: what the SDK's replies mean, as frozen dataclasses.

The service answers in protobuf, which is exact but says little at a glance (enum numbers,
oneof envelopes, a variant's board inside a `BoardView`). These types read the replies a
program most often looks at: a game of any variant (`GameSnapshot`, with its board decoded into
the engine's own view dataclass: `ClassicView`, `DeepSpaceView`, `StrikeView`, `LegacyView`),
its events (`GameEvent`), and a Risk Legacy campaign (`Campaign` and the replies of the
campaign calls). Every result keeps the message it was read from (`.message`), so nothing the
contract says is out of reach.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from risk_proto.risk.v1 import common_pb2, game_pb2, legacy_pb2, service_pb2
from risk_rules import wire
from risk_rules.engine import Event, get_ruleset

if TYPE_CHECKING:  # a game's engine is imported when a game of it is read (`board_view`)
    from risk_rules.engine.classic.model import ClassicView
    from risk_rules.engine.deep_space.model import DeepSpaceView
    from risk_rules.engine.legacy.model import LegacyView
    from risk_rules.engine.strike.model import StrikeView

V = TypeVar("V")

_STATUS = {
    service_pb2.GAME_STATUS_WAITING: "waiting",
    service_pb2.GAME_STATUS_ACTIVE: "active",
    service_pb2.GAME_STATUS_FINISHED: "finished",
    service_pb2.GAME_STATUS_ABANDONED: "abandoned",
    service_pb2.GAME_STATUS_CANCELLED: "cancelled",
}
_CAMPAIGN_PHASE = {
    legacy_pb2.LEGACY_CAMPAIGN_PHASE_READY: "ready",
    legacy_pb2.LEGACY_CAMPAIGN_PHASE_REWARDS: "rewards",
    legacy_pb2.LEGACY_CAMPAIGN_PHASE_COMPLETE: "complete",
}
_REWARD_KIND = {
    legacy_pb2.LEGACY_REWARD_KIND_WINNER: "winner",
    legacy_pb2.LEGACY_REWARD_KIND_SURVIVOR: "survivor",
}


# ---- games of every variant ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` (-1: none, a ranked draw), every seat best first, and why."""

    winner: int
    ranking: tuple[int, ...]
    reason: str

    @classmethod
    def of(cls, message: common_pb2.Outcome) -> Outcome:
        return cls(message.winner, tuple(message.ranking), message.reason)


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """One `GetGame` reply, read: the game's place in its life and its decoded board.

    `variant` is the contract's name ("classic", "deep_space", "strike", "legacy"); `view` is
    the variant's engine view (what `view_as` checks the type of), None when the reply carried
    no board (a spectator of a delayed game). `decision_seats` are the seats that must act now.
    """

    game_id: str
    variant: str
    status: str
    version: int
    last_seq: int
    seat_names: tuple[str, ...]
    viewer_seat: int
    decision_seats: tuple[int, ...]
    decision_kind: str
    outcome: Outcome | None
    view: Any
    message: service_pb2.GetGameResponse

    @property
    def is_over(self) -> bool:
        return self.status in ("finished", "abandoned", "cancelled") or self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.viewer_seat >= 0 and self.viewer_seat in self.decision_seats

    def view_as(self, view_type: type[V]) -> V:
        """The board as `view_type` (e.g. `ClassicView`); TypeError for another variant's game."""
        if not isinstance(self.view, view_type):
            raise TypeError(f"game {self.game_id} is {self.variant}, its board is "
                            f"{type(self.view).__name__}, not {view_type.__name__}")
        return self.view


    def seat_figures(self) -> tuple[SeatFigures, ...]:
        """Each seat's standing in its variant's terms (empty without a board, or for a
        variant outside the contract)."""
        figures = _SEAT_FIGURES.get(self.variant)
        if figures is None or self.view is None:
            return ()
        return tuple(SeatFigures(seat, name, figures(self.view, seat))
                     for seat, name in enumerate(self.seat_names))


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """A seat's standing: what its variant counts ("territories", "coins", ...), by name."""

    seat: int
    name: str
    figures: dict[str, int]

    def __str__(self) -> str:
        label = f"seat {self.seat} ({self.name})" if self.name else f"seat {self.seat}"
        return label + ": " + ", ".join(f"{value} {key}" for key, value in self.figures.items())


def _held(owner: tuple[int, ...], seat: int) -> list[int]:
    return [territory for territory, holder in enumerate(owner) if holder == seat]


def _classic_figures(view: ClassicView, seat: int) -> dict[str, int]:
    held = _held(view.owner, seat)
    return {"territories": len(held), "armies": sum(view.armies[t] for t in held),
            "cards": view.hand_counts[seat]}


def _deep_space_figures(view: DeepSpaceView, seat: int) -> dict[str, int]:
    return {"recruits on the board": sum(view.recruits[seat]), "bases": len(view.bases[seat]),
            "gems": view.gems[seat], "ore": view.ore[seat], "cards": len(view.hands[seat])}


def _strike_figures(view: StrikeView, seat: int) -> dict[str, int]:
    return {"continent cards": len(view.continents[seat]), "coins": view.coins.count(seat),
            "tactics cards": view.hand_counts[seat]}


def _legacy_figures(view: LegacyView, seat: int) -> dict[str, int]:
    held = _held(view.owner, seat)
    return {"territories": len(held), "troops": sum(view.troops[t] for t in held),
            "red stars": view.red_stars[seat], "missiles": view.missiles[seat]}


# what a seat's standing is in each variant's view, by the variant's name
_SEAT_FIGURES: dict[str, Callable[[Any, int], dict[str, int]]] = {
    "classic": _classic_figures,
    "deep_space": _deep_space_figures,
    "strike": _strike_figures,
    "legacy": _legacy_figures,
}


def board_view(board: game_pb2.BoardView) -> Any:
    """A `BoardView` (any variant this client's rules know) as the engine's view dataclass."""
    variant, message = wire.view_from_proto(board)
    return wire.from_message(message, get_ruleset(variant).view_type)


def snapshot(reply: service_pb2.GetGameResponse) -> GameSnapshot:
    """A `GetGame` reply as a `GameSnapshot`."""
    game = reply.game
    return GameSnapshot(
        game_id=game.game_id,
        variant=wire.variant_name(game.variant),
        status=_STATUS.get(game.status, "unspecified"),
        version=game.version,
        last_seq=game.last_seq,
        seat_names=tuple(seat.display_name for seat in game.seats),
        viewer_seat=reply.viewer_seat,
        decision_seats=tuple(game.decision.seats),
        decision_kind=game.decision.kind,
        outcome=Outcome.of(game.outcome) if game.HasField("outcome") else None,
        view=board_view(reply.board) if reply.board.WhichOneof("variant") else None,
        message=reply,
    )


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One event, decoded: `kind` is its snake-case name ("dice_rolled", "seat_joined", ...),
    `event` the engine's (or the service's lifecycle) dataclass; `variant` is "lifecycle" for
    the service's own events (joins, starts, clocks)."""

    seq: int
    version: int
    at_ms: int
    variant: str
    kind: str
    event: Event
    message: game_pb2.Event


def game_event(message: game_pb2.Event) -> GameEvent:
    variant, event = wire.event_from_proto(message)
    return GameEvent(message.seq, message.version, message.at_ms, variant,
                     wire.snake(type(event).__name__), event, message)


def game_events(messages: Iterable[game_pb2.Event]) -> list[GameEvent]:
    """Events (from `stream_events`, a submit's reply, or an export) decoded, in order."""
    return [game_event(message) for message in messages]


# ---- Risk Legacy campaigns -------------------------------------------------------------------


def faction_name(value: int) -> str:
    from risk_rules.engine.legacy.content import FACTION_NAMES  # noqa: PLC0415 - Legacy only
    from risk_rules.engine.legacy.world import Faction  # noqa: PLC0415

    try:
        return FACTION_NAMES[Faction(value)]
    except ValueError:
        return f"faction {value}"


def power_name(value: int) -> str:
    from risk_rules.engine.legacy.world import Power  # noqa: PLC0415 - Legacy only

    try:
        return Power(value).name.lower().replace("_", " ")
    except ValueError:
        return f"power {value}"


@dataclass(frozen=True, slots=True)
class CampaignSeat:
    """A seat of a campaign: its faction and power for the whole campaign, and its record."""

    seat: int
    name: str
    faction: str
    power: str
    wins: int  # games won (the signatures on the board)
    eliminations: int  # failed joins recorded on its faction
    player_id: str = ""  # the player the seat belongs to ("" for none: its token's)


@dataclass(frozen=True, slots=True)
class CampaignGame:
    """One played game of a campaign: `winner` is -1 for a draw at the turn cap."""

    number: int  # 1-based
    game_id: str
    winner: int
    reason: str
    turns: int
    eliminated: tuple[int, ...]
    resigned: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PendingReward:
    seat: int
    kind: str  # "winner" or "survivor"


@dataclass(frozen=True, slots=True)
class Campaign:
    """A `CampaignSummary`, read.

    `phase` is "ready" (the host may start the next game, or one is being played), "rewards"
    (the last game's reward decisions are pending: `pending`, the next one first) or
    "complete". `running_game` is the latest game while it has no record yet.
    """

    campaign_id: str
    version: int
    phase: str
    games_played: int
    game_ids: tuple[str, ...]
    seats: tuple[CampaignSeat, ...]
    history: tuple[CampaignGame, ...]
    pending: tuple[PendingReward, ...]
    created_at_ms: int
    message: service_pb2.CampaignSummary

    @property
    def running_game(self) -> str | None:
        return self.game_ids[-1] if len(self.game_ids) > self.games_played else None

    @property
    def next_decision(self) -> PendingReward | None:
        return self.pending[0] if self.pending else None

    def standings(self) -> list[CampaignSeat]:
        """Seats by games won, then by fewer eliminations, then seat order."""
        return sorted(self.seats, key=lambda s: (-s.wins, s.eliminations, s.seat))

    @classmethod
    def of(cls, message: service_pb2.CampaignSummary) -> Campaign:
        state = message.state
        world = state.world

        def per_seat(values: Iterable[int], seat: int) -> int:
            listed = list(values)
            return listed[seat] if seat < len(listed) else 0

        seats = tuple(
            CampaignSeat(
                seat=seat,
                name=message.seat_names[seat] if seat < len(message.seat_names) else "",
                faction=faction_name(choice.faction),
                power=power_name(choice.power),
                wins=per_seat(world.signatures, seat),
                eliminations=per_seat(world.eliminations, seat),
                player_id=(message.seat_players[seat]
                           if seat < len(message.seat_players) else ""),
            )
            for seat, choice in enumerate(state.players)
        )
        history = tuple(
            CampaignGame(
                number=number,
                game_id=message.game_ids[number - 1] if number <= len(message.game_ids) else "",
                winner=record.winner, reason=record.reason, turns=record.turns,
                eliminated=tuple(record.eliminated), resigned=tuple(record.resigned),
            )
            for number, record in enumerate(state.history, start=1)
        )
        return cls(
            campaign_id=message.campaign_id,
            version=message.version,
            phase=_CAMPAIGN_PHASE.get(state.phase, "unspecified"),
            games_played=state.games_played,
            game_ids=tuple(message.game_ids),
            seats=seats,
            history=history,
            pending=tuple(PendingReward(p.seat, _REWARD_KIND.get(p.kind, "unspecified"))
                          for p in state.pending),
            created_at_ms=message.created_at_ms,
            message=message,
        )


@dataclass(frozen=True, slots=True)
class CreatedCampaign:
    """`create_campaign`'s reply: the host token starts games; seat i's token plays seat i in
    every game of the campaign and takes its reward decisions. They are shown once."""

    campaign: Campaign
    host_token: str
    seat_tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CampaignSeatView:
    """`get_campaign`'s reply: the campaign, the caller's seat (-1: none) and, when the
    pending reward decision is that seat's, the rewards it may choose."""

    campaign: Campaign
    viewer_seat: int
    legal_rewards: tuple[legacy_pb2.LegacyReward, ...]


@dataclass(frozen=True, slots=True)
class CampaignGameStarted:
    """`start_campaign_game`'s reply: the campaign and its new game (already active)."""

    campaign: Campaign
    game: service_pb2.GameSummary


@dataclass(frozen=True, slots=True)
class CampaignDecisionTaken:
    """`submit_campaign_decision`'s reply: the campaign after the decision and what it did
    to the world (`LegacyCampaignEvent`s: a city founded, a continent named, ...).

    `recovered` is True when the reply was lost and the SDK found, on re-reading, that the
    decision had landed: `events` is then empty (the service keeps no copy of them)."""

    campaign: Campaign
    events: tuple[legacy_pb2.LegacyCampaignEvent, ...]
    recovered: bool = False


@dataclass(frozen=True, slots=True)
class CampaignPage:
    campaigns: tuple[Campaign, ...]
    next_page_token: str
