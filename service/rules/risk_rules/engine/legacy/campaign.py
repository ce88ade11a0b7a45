"""A Risk Legacy campaign as pure values: the world it keeps, its games, its reward decisions.

A campaign is a `CampaignState`. `new_campaign` starts one (the players' factions and powers
are fixed for its life); `options_for_next_game` gives the options of its next game, which carry
the `World`; `record_game` takes that game's final state and keeps what the game changed (scars
played, fortification marks used, eliminations, the winner's signature); the campaign then waits
for its reward decisions, one seat at a time (`campaign_decision`, `legal_rewards`,
`apply_reward`): the winner's first, then every seat that held on, clockwise from the winner.
After the last one the next game may start, until 15 have been played.

Reward decisions belong to the campaign, not to the finished game (which has no legal actions).
Names are free text: a listed reward carries the name "" (any name, or "" for a default one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from risk_rules.engine.classic.board import CLASSIC_BOARD, TERRITORIES
from risk_rules.engine.core.errors import IllegalAction, Reason
from risk_rules.engine.core.rng import Pcg32
from risk_rules.engine.core.ruleset import Action, Decision, Event, LegalAction
from risk_rules.engine.legacy.content import (
    CONTINENTS,
    FACTION_NAMES,
    FACTION_POWERS,
    board_of,
)
from risk_rules.engine.legacy.model import DEFAULT_MAX_TURNS, LegacyOptions, LegacyState, Phase
from risk_rules.engine.legacy.world import (
    City,
    CitySize,
    ContinentName,
    Faction,
    FactionChoice,
    Fortification,
    Power,
    Scar,
    ScarMark,
    World,
    dense,
    expand,
    per_seat,
)

__all__ = [
    "CAMPAIGN_EVENT_TYPES", "REWARD_TYPES", "SURVIVOR_REWARDS", "WINNER_REWARDS",
    "AddResource", "CampaignPhase", "CampaignState", "CancelScar", "CardUpgraded",
    "ChangeContinentBonus", "CityFortified", "CityFounded", "ContinentBonusChanged",
    "ContinentNamed", "DeclineReward", "FortifyCity", "FoundMajorCity", "FoundMinorCity",
    "GameRecord", "NameContinent", "PendingReward", "RewardDeclined", "RewardKind",
    "RewardsDone", "ScarCancelled", "World", "apply_reward", "campaign_bot_reward",
    "campaign_decision", "legal_rewards", "new_campaign", "options_for_next_game",
    "record_game",
]

MAX_NAME = 40
MIN_PLAYERS, MAX_PLAYERS = 3, 5


class CampaignPhase(IntEnum):
    READY = 1  # the next game may start
    REWARDS = 2  # the last game's reward decisions are pending
    COMPLETE = 3  # 15 games played and rewarded


class RewardKind(IntEnum):
    WINNER = 1  # the winner's reward (it has signed the board)
    SURVIVOR = 2  # a seat that held on (was not eliminated)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of the campaign, as the campaign remembers it."""

    winner: int  # -1: a draw at the turn cap
    reason: str
    turns: int
    eliminated: tuple[int, ...]  # seats that failed to join the war
    resigned: tuple[int, ...]
    hqs: tuple[int, ...]  # per seat: where its HQ stood (-1 none)
    owner: tuple[int, ...]  # per territory: who held it at the end (rewards look at this)


@dataclass(frozen=True, slots=True)
class PendingReward:
    seat: int
    kind: RewardKind


@dataclass(frozen=True, slots=True)
class CampaignState:
    players: tuple[FactionChoice, ...]  # per seat, for the whole campaign
    world: World
    games_played: int
    phase: CampaignPhase
    pending: tuple[PendingReward, ...]  # reward decisions still to take, the next one first
    history: tuple[GameRecord, ...]


# ---- reward actions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameContinent(Action):
    """Winner: name a continent not yet named (+1 troop for the namer who holds it)."""

    continent: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class FoundMajorCity(Action):
    """Winner: a major city (population 2) on a territory it held at the end, without a city."""

    territory: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class CancelScar(Action):
    """Winner: remove a scar from the board."""

    territory: int


@dataclass(frozen=True, slots=True)
class ChangeContinentBonus(Action):
    """Winner: one more or one less troop for holding a continent (delta +1 or -1)."""

    continent: int
    delta: int


@dataclass(frozen=True, slots=True)
class FortifyCity(Action):
    """Winner: a fresh fortification (10 marks) on a city, replacing any worn one."""

    territory: int


@dataclass(frozen=True, slots=True)
class FoundMinorCity(Action):
    """Held on: a minor city (population 1) on a territory held at the end, without a city."""

    territory: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class AddResource(Action):
    """Held on: +1 resource on the card of a territory held at the end (at most 6)."""

    territory: int


@dataclass(frozen=True, slots=True)
class DeclineReward(Action):
    """Take nothing: listed only when no reward is possible."""


WINNER_REWARDS: tuple[type[Action], ...] = (
    NameContinent, FoundMajorCity, CancelScar, ChangeContinentBonus, FortifyCity, DeclineReward,
)
SURVIVOR_REWARDS: tuple[type[Action], ...] = (FoundMinorCity, AddResource, DeclineReward)
REWARD_TYPES: tuple[type[Action], ...] = (
    NameContinent, FoundMajorCity, CancelScar, ChangeContinentBonus, FortifyCity,
    FoundMinorCity, AddResource, DeclineReward,
)


# ---- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContinentNamed(Event):
    seat: int
    continent: int
    name: str


@dataclass(frozen=True, slots=True)
class CityFounded(Event):
    seat: int
    territory: int
    size: CitySize
    name: str


@dataclass(frozen=True, slots=True)
class ScarCancelled(Event):
    seat: int
    territory: int
    scar: Scar


@dataclass(frozen=True, slots=True)
class ContinentBonusChanged(Event):
    seat: int
    continent: int
    delta: int
    bonus: int  # the continent's bonus now


@dataclass(frozen=True, slots=True)
class CityFortified(Event):
    seat: int
    territory: int
    marks: int


@dataclass(frozen=True, slots=True)
class CardUpgraded(Event):
    seat: int
    territory: int
    value: int  # the card's resources now


@dataclass(frozen=True, slots=True)
class RewardDeclined(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RewardsDone(Event):
    """The last reward of a game was chosen: the campaign is ready (or complete)."""

    games_played: int
    phase: CampaignPhase


CAMPAIGN_EVENT_TYPES: tuple[type[Event], ...] = (
    ContinentNamed, CityFounded, ScarCancelled, ContinentBonusChanged, CityFortified,
    CardUpgraded, RewardDeclined, RewardsDone,
)


def _fail(reason: Reason, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


# ---- the campaign API ------------------------------------------------------------------------


def new_campaign(
    players: int, factions: tuple[int, ...], powers: tuple[int, ...]
) -> CampaignState:
    """A fresh campaign: seat i plays `factions[i]` with `powers[i]` (one of its two powers)
    for every game. Raises IllegalAction(INVALID_OPTIONS) for bad input."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _fail(Reason.INVALID_OPTIONS, "a Risk Legacy campaign takes 3 to 5 players")
    if len(factions) != players or len(powers) != players:
        raise _fail(Reason.INVALID_OPTIONS, "one faction and one power per player")
    try:
        chosen = tuple(
            FactionChoice(Faction(f), Power(p)) for f, p in zip(factions, powers, strict=True)
        )
    except ValueError as exc:
        raise _fail(Reason.INVALID_OPTIONS, str(exc)) from None
    if len({c.faction for c in chosen}) != players:
        raise _fail(Reason.INVALID_OPTIONS, "each player takes a different faction")
    for choice in chosen:
        if choice.power not in FACTION_POWERS[choice.faction]:
            raise _fail(
                Reason.INVALID_OPTIONS,
                f"{choice.power.name} is not a power of {choice.faction.name}",
            )
    return CampaignState(
        players=chosen, world=World(factions=chosen), games_played=0,
        phase=CampaignPhase.READY, pending=(), history=(),
    )


def _ready(campaign: CampaignState) -> None:
    if campaign.phase is CampaignPhase.COMPLETE:
        raise _fail(Reason.CAMPAIGN_COMPLETE, "the campaign has played all its games")
    if campaign.phase is not CampaignPhase.READY:
        raise _fail(Reason.CAMPAIGN_NOT_READY, "reward decisions are still pending")


def options_for_next_game(
    campaign: CampaignState, max_turns: int | None = None
) -> LegacyOptions:
    """The options of the campaign's next game: its players, its world (and in it the
    factions and powers). Raises CAMPAIGN_NOT_READY or CAMPAIGN_COMPLETE."""
    _ready(campaign)
    return LegacyOptions(
        players=len(campaign.players),
        max_turns=DEFAULT_MAX_TURNS if max_turns is None else max_turns,
        world=campaign.world,
    )


def record_game(campaign: CampaignState, final_state: LegacyState) -> CampaignState:
    """Keep what the finished game changed and open its reward decisions (phase REWARDS,
    or READY / COMPLETE at once when nobody has one to take)."""
    _ready(campaign)
    if final_state.phase is not Phase.FINISHED:
        raise _fail(Reason.GAME_NOT_FINISHED, "only a finished game can be recorded")
    if final_state.options.world != campaign.world or \
            final_state.options.players != len(campaign.players):
        raise _fail(Reason.WRONG_CAMPAIGN, "the game was not played with this campaign's world")
    n = len(campaign.players)
    world = campaign.world
    before = board_of(world)
    used = per_seat(world.scar_cards_used, len(Scar))
    for t in range(TERRITORIES):
        if final_state.scars[t] and not before.scars[t]:
            used[final_state.scars[t] - 1] += 1
    eliminations = per_seat(world.eliminations, n)
    eliminated = tuple(s for s in range(n) if final_state.eliminated[s])
    for seat in eliminated:
        eliminations[seat] += 1
    signatures = per_seat(world.signatures, n)
    winner = final_state.winner
    if winner >= 0:
        signatures[winner] += 1
    world = replace(
        world,
        scars=tuple(
            ScarMark(t, Scar(final_state.scars[t]))
            for t in range(TERRITORIES) if final_state.scars[t]
        ),
        fortifications=tuple(
            Fortification(t, final_state.fortifications[t])
            for t in range(TERRITORIES) if final_state.fortifications[t]
        ),
        scar_cards_used=dense(used, 0),
        eliminations=dense(eliminations, 0),
        signatures=dense(signatures, 0),
    )
    resigned = tuple(
        s for s in final_state.out_order if final_state.out[s] and not final_state.eliminated[s]
    )
    record = GameRecord(
        winner=winner, reason=final_state.end_reason, turns=final_state.turn,
        eliminated=eliminated, resigned=resigned, hqs=final_state.hqs, owner=final_state.owner,
    )
    held_on = [s for s in range(n) if not final_state.out[s]]
    pending: list[PendingReward] = []
    if winner >= 0:
        pending.append(PendingReward(winner, RewardKind.WINNER))
        start = winner
    else:  # a draw at the cap: no signature, no winner's reward
        start = final_state.ranking[0]
    for step in range(n):
        seat = (start + step) % n
        if seat != winner and seat in held_on:
            pending.append(PendingReward(seat, RewardKind.SURVIVOR))
    games = campaign.games_played + 1
    recorded = CampaignState(
        players=campaign.players, world=world, games_played=games,
        phase=CampaignPhase.REWARDS, pending=tuple(pending),
        history=(*campaign.history, record),
    )
    if not pending:
        recorded = replace(recorded, phase=_after_rewards(recorded))
    return recorded


def campaign_decision(campaign: CampaignState) -> Decision:
    """Whose reward decision it is ("winner_reward" / "survivor_reward"); no seats when the
    campaign is "ready" for its next game or "complete"."""
    if campaign.phase is CampaignPhase.REWARDS:
        nxt = campaign.pending[0]
        return Decision((nxt.seat,), f"{nxt.kind.name.lower()}_reward")
    return Decision((), campaign.phase.name.lower())


def legal_rewards(campaign: CampaignState, seat: int) -> list[LegalAction]:
    """Every reward `seat` may choose now (empty when it is not that seat's decision)."""
    if campaign.phase is not CampaignPhase.REWARDS or campaign.pending[0].seat != seat:
        return []
    found = _offers(campaign, campaign.pending[0])
    return [LegalAction(a) for a in found] or [LegalAction(DeclineReward())]


def apply_reward(
    campaign: CampaignState, seat: int, reward: Action
) -> tuple[CampaignState, list[Event]]:
    """The campaign after `seat` chose `reward`, and what happened; IllegalAction otherwise."""
    if not isinstance(reward, REWARD_TYPES):
        raise _fail(Reason.WRONG_VARIANT, f"{type(reward).__name__} is not a campaign reward")
    if campaign.phase is CampaignPhase.COMPLETE:
        raise _fail(Reason.CAMPAIGN_COMPLETE, "the campaign has played all its games")
    if campaign.phase is not CampaignPhase.REWARDS:
        raise _fail(Reason.NO_REWARD_PENDING, "no reward decision is pending")
    if not 0 <= seat < len(campaign.players):
        raise _fail(Reason.NOT_A_SEAT, f"seat {seat} is not in this campaign")
    turn = campaign.pending[0]
    if seat != turn.seat:
        raise _fail(Reason.NOT_YOUR_TURN, f"it is seat {turn.seat}'s reward to choose")
    allowed = WINNER_REWARDS if turn.kind is RewardKind.WINNER else SURVIVOR_REWARDS
    if not isinstance(reward, allowed):
        raise _fail(
            Reason.REWARD_NOT_OFFERED,
            f"{type(reward).__name__} is not a {turn.kind.name.lower()}'s reward",
        )
    world, event = _grant(campaign, turn, reward)
    events: list[Event] = [event]
    rest = campaign.pending[1:]
    updated = replace(campaign, world=world, pending=rest)
    if not rest:
        updated = replace(updated, phase=_after_rewards(updated))
        events.append(RewardsDone(updated.games_played, updated.phase))
    return updated, events


def campaign_bot_reward(campaign: CampaignState, seat: int, entropy: int) -> Action:
    """A weighted-random reward for `seat`: cities where it held ground (on its HQ above all),
    a continent name, a fortification for its own city, more bonus on a continent it holds
    (less on one it does not), a scar off its own ground; listed names are left "" (the
    default name)."""
    legal = legal_rewards(campaign, seat)
    if not legal:
        raise _fail(Reason.NOT_YOUR_TURN, f"seat {seat} has no reward to choose")
    record = campaign.history[-1]
    held = {t for t in range(TERRITORIES) if record.owner[t] == seat}
    hq = record.hqs[seat]
    continents = set(CLASSIC_BOARD.regions_held(record.owner, seat))

    def weight(action: Action) -> int:
        if isinstance(action, FoundMajorCity | FoundMinorCity):
            return 6 if action.territory == hq else 3
        if isinstance(action, NameContinent):
            return 8 if action.continent in continents else 2
        if isinstance(action, FortifyCity):
            return 4 if action.territory in held else 0
        if isinstance(action, ChangeContinentBonus):
            mine = action.continent in continents
            return 2 if (action.delta > 0) == mine else 0
        if isinstance(action, CancelScar):
            return 3 if action.territory in held else 1
        if isinstance(action, AddResource):
            return 2
        return 1

    actions = [entry.action for entry in legal]
    weights = [weight(a) for a in actions]
    if sum(weights) == 0:
        weights = [1] * len(actions)
    rng = Pcg32.from_seed(entropy, stream=seat + 1)
    return actions[rng.weighted(weights)]


# ---- reward rules ----------------------------------------------------------------------------


def _after_rewards(campaign: CampaignState) -> CampaignPhase:
    if campaign.games_played >= board_of(campaign.world).content.games:
        return CampaignPhase.COMPLETE
    return CampaignPhase.READY


def _supply_left(world: World, size: CitySize) -> int:
    content = board_of(world).content
    return content.city_count(size) - sum(1 for c in world.cities if c.size is size)


def _marks(world: World) -> list[int]:
    return expand(world.bonus_marks, CONTINENTS, 0)


def _bonus_ok(world: World, continent: int, delta: int) -> bool:
    content = board_of(world).content
    marks = _marks(world)[continent] + delta
    base = CLASSIC_BOARD.regions[continent].bonus
    return abs(marks) <= content.bonus_mark_limit and base + marks >= 0


def _offers(campaign: CampaignState, turn: PendingReward) -> list[Action]:
    """Every reward `turn` may take (names left ""), without DeclineReward."""
    world = campaign.world
    board = board_of(world)
    record = campaign.history[-1]
    held = [t for t in range(TERRITORIES) if record.owner[t] == turn.seat]
    free = [t for t in held if not board.city_size[t]]
    if turn.kind is RewardKind.SURVIVOR:
        offers: list[Action] = []
        if _supply_left(world, CitySize.MINOR) > 0:
            offers.extend(FoundMinorCity(t) for t in free)
        offers.extend(
            AddResource(t) for t in held
            if board.card_value[t] < board.content.max_card_value and t not in board.destroyed
        )
        return offers
    named = {n.continent for n in world.continent_names}
    offers = [NameContinent(c) for c in range(CONTINENTS) if c not in named]
    if _supply_left(world, CitySize.MAJOR) > 0:
        offers.extend(FoundMajorCity(t) for t in free)
    offers.extend(CancelScar(t) for t in range(TERRITORIES) if board.scars[t])
    offers.extend(
        ChangeContinentBonus(c, d) for c in range(CONTINENTS) for d in (1, -1)
        if _bonus_ok(world, c, d)
    )
    offers.extend(FortifyCity(t) for t in range(TERRITORIES) if board.city_size[t])
    return offers


def _checked_name(name: str, default: str) -> str:
    if name == "":
        return default
    if len(name) > MAX_NAME or not name.isprintable() or name != name.strip():
        raise _fail(
            Reason.INVALID_NAME,
            f"a name is 1 to {MAX_NAME} printable characters without outer spaces",
        )
    return name


def _territory(t: int) -> int:
    if not 0 <= t < TERRITORIES:
        raise _fail(Reason.NO_SUCH_TERRITORY, f"territory {t} does not exist")
    return t


def _continent(c: int) -> int:
    if not 0 <= c < CONTINENTS:
        raise _fail(Reason.NO_SUCH_CONTINENT, f"continent {c} does not exist")
    return c


def _held_at_end(campaign: CampaignState, seat: int, t: int) -> None:
    if campaign.history[-1].owner[t] != seat:
        raise _fail(
            Reason.NOT_OWNER, f"seat {seat} did not hold {CLASSIC_BOARD.names[t]} at the end"
        )


def _found(
    campaign: CampaignState, seat: int, t: int, size: CitySize, name: str
) -> tuple[World, Event]:
    world = campaign.world
    _territory(t)
    _held_at_end(campaign, seat, t)
    if any(c.territory == t for c in world.cities):
        raise _fail(Reason.CITY_EXISTS, f"{CLASSIC_BOARD.names[t]} already has a city")
    if _supply_left(world, size) < 1:
        raise _fail(Reason.SUPPLY_EMPTY, f"no {size.name.lower()} city marks are left")
    name = _checked_name(name, f"{CLASSIC_BOARD.names[t]} City")
    cities = sorted((*world.cities, City(t, size, name, seat)), key=lambda c: c.territory)
    return replace(world, cities=tuple(cities)), CityFounded(seat, t, size, name)


def _grant(
    campaign: CampaignState, turn: PendingReward, reward: Action
) -> tuple[World, Event]:
    """The world after a reward, and its event; raises for a reward the rules refuse."""
    world = campaign.world
    board = board_of(world)
    seat = turn.seat
    if isinstance(reward, DeclineReward):
        if _offers(campaign, turn):
            raise _fail(Reason.REWARD_AVAILABLE, "a reward is available: choose one")
        return world, RewardDeclined(seat)
    if isinstance(reward, NameContinent):
        c = _continent(reward.continent)
        if any(n.continent == c for n in world.continent_names):
            raise _fail(Reason.CONTINENT_NAMED, f"{CLASSIC_BOARD.regions[c].name} has a name")
        faction = FACTION_NAMES[campaign.players[seat].faction]
        name = _checked_name(reward.name, f"{CLASSIC_BOARD.regions[c].name} of {faction}")
        names = sorted(
            (*world.continent_names, ContinentName(c, name, seat)), key=lambda n: n.continent
        )
        return replace(world, continent_names=tuple(names)), ContinentNamed(seat, c, name)
    if isinstance(reward, FoundMajorCity):
        return _found(campaign, seat, reward.territory, CitySize.MAJOR, reward.name)
    if isinstance(reward, FoundMinorCity):
        return _found(campaign, seat, reward.territory, CitySize.MINOR, reward.name)
    if isinstance(reward, CancelScar):
        t = _territory(reward.territory)
        if not board.scars[t]:
            raise _fail(Reason.NO_SCAR, f"{CLASSIC_BOARD.names[t]} has no scar")
        scars = tuple(m for m in world.scars if m.territory != t)
        return replace(world, scars=scars), ScarCancelled(seat, t, Scar(board.scars[t]))
    if isinstance(reward, ChangeContinentBonus):
        c = _continent(reward.continent)
        if reward.delta not in (1, -1) or not _bonus_ok(world, c, reward.delta):
            raise _fail(
                Reason.BONUS_LIMIT,
                f"a bonus changes by +1 or -1, stays at least 0 and within "
                f"{board.content.bonus_mark_limit} marks",
            )
        marks = _marks(world)
        marks[c] += reward.delta
        changed = replace(world, bonus_marks=dense(marks, 0))
        bonus = board_of(changed).continent_bonus[c]
        return changed, ContinentBonusChanged(seat, c, reward.delta, bonus)
    if isinstance(reward, FortifyCity):
        t = _territory(reward.territory)
        if not board.city_size[t]:
            raise _fail(Reason.NO_CITY, f"{CLASSIC_BOARD.names[t]} has no city to fortify")
        fresh = board.content.fortification_marks
        forts = sorted(
            (*(f for f in world.fortifications if f.territory != t), Fortification(t, fresh)),
            key=lambda f: f.territory,
        )
        return replace(world, fortifications=tuple(forts)), CityFortified(seat, t, fresh)
    assert isinstance(reward, AddResource)
    t = _territory(reward.territory)
    _held_at_end(campaign, seat, t)
    values = expand(world.card_values, TERRITORIES, board.content.base_card_value)
    if values[t] >= board.content.max_card_value or t in board.destroyed:
        raise _fail(Reason.CARD_MAXED, f"the {CLASSIC_BOARD.names[t]} card cannot take more")
    values[t] += 1
    changed = replace(world, card_values=dense(values, board.content.base_card_value))
    return changed, CardUpgraded(seat, t, values[t])
