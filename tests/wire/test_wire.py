"""The wire codec: engine dataclasses and risk.v1 messages agree, round-trip, and refuse bad input.

The codec maps dataclasses onto messages by field name, so these tests pin the mapping down for
every registered variant: each options, state, view, action and event class matches its message
field for field (name, and repeated or singular), engine IntEnums match the proto enums by name
and number, values from real bot playouts survive a trip through bytes, malformed input raises
`WireError`, and the checked-in generated code is fresh.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor

from risk_proto.risk.v1 import (
    classic_pb2,
    common_pb2,
    deep_space_pb2,
    game_pb2,
    legacy_pb2,
)
from risk_rules import variants, wire
from risk_rules.engine import REGISTRY, Action, Event, Ruleset, get_ruleset
from risk_rules.engine.classic.model import (
    Attack,
    ClassicOptions,
    FortifyMode,
    Phase,
    SetupMode,
    TradeCards,
    TradeSchedule,
)
from risk_rules.engine.deep_space.model import DeepSpaceOptions, PlayCard, Resource
from risk_rules.engine.legacy.model import LegacyOptions
from risk_rules.engine.legacy.world import City, CitySize, FactionChoice, Fortification, World
from risk_rules.engine.strike.model import StrikeOptions

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(REGISTRY)



def _legacy_crowded_world() -> World:
    """A veteran-looking world for 5: a city on every territory (so a seat knocked off the board
    is eliminated), some fortified, upgraded cards, signatures (missiles), second powers."""
    return World(
        factions=tuple(FactionChoice(f, p) for f, p in zip(range(1, 6), (2, 4, 6, 8, 9),
                                                            strict=True)),
        cities=tuple(City(t, CitySize.MINOR, f"c{t}", t % 5) for t in range(42)),
        fortifications=tuple(Fortification(t, 10) for t in range(0, 42, 4)),
        card_values=tuple(1 + t % 6 for t in range(42)), signatures=(1, 1, 1, 1, 1),
    )


# Bot playouts per variant, chosen so that together they produce every action and event type.
PLAYOUTS: dict[str, list[tuple[Any, int]]] = {
    "classic": [
        (ClassicOptions(players=2), 3),  # dealt setup, neutral placements
        (ClassicOptions(players=4), 16),  # claim setup, explicit defence dice, a full game
        (ClassicOptions(players=3, setup=SetupMode.RANDOM_DEAL, auto_place=True,
                        trade_schedule=TradeSchedule.FIXED, auto_defend_max_dice=True), 5),
        (ClassicOptions(players=5, setup=SetupMode.RANDOM_DEAL, max_turns=30,
                        fortify=FortifyMode.ADJACENT), 8),
    ],
    "deep_space": [
        (DeepSpaceOptions(players=4), 167),  # most kinds, a dog decision, a space dog's save
        (DeepSpaceOptions(players=2), 40),  # covered planets, a dog returned to the bank
        (DeepSpaceOptions(players=3), 12),  # a base win with three players
        (DeepSpaceOptions(players=3, max_turns=10), 5),  # the turn cap
    ],
    "strike": [
        (StrikeOptions(players=2), 1),  # the second player's extra continent card
        (StrikeOptions(players=4), 2),  # supporters, Cancel Order chains, every tactics card
        (StrikeOptions(players=5, auto_pass=True), 3),  # automatic passes
        (StrikeOptions(players=3, max_turns=12), 4),  # the turn cap
    ],
    "legacy": [
        (LegacyOptions(players=4), 15),  # a join after a knock-out, trades, a card choice
        # missiles, fortifications worn, attacks stopped, eliminations (failed joins)
        (LegacyOptions(players=5, world=_legacy_crowded_world()), 3),
        (LegacyOptions(players=3, auto_defend_max_dice=True, max_turns=12), 4),  # the turn cap
    ],
}


# ---- which message belongs to which class --------------------------------------------------


def _case(variant: str) -> str:
    case = variants.descriptor(variant).case
    assert case is not None, f"{variant} is not on the contract's oneofs"
    return case


def _envelope_case(envelope: type[Any], variant: str) -> Descriptor:
    """The variant's message inside a top-level envelope (GameOptions, GameState, ...)."""
    message: Descriptor = envelope.DESCRIPTOR.fields_by_name[_case(variant)].message_type
    return message


def _kind_message(envelope: type[Any], variant: str, cls: type[Any]) -> Descriptor:
    """The nested message for an action or event class: the oneof case snake(ClassName)."""
    holder = _envelope_case(envelope, variant)
    field = holder.fields_by_name.get(wire.snake(cls.__name__))
    assert field is not None, f"{holder.name} has no case {wire.snake(cls.__name__)!r}"
    assert field.containing_oneof is not None and field.containing_oneof.name == "kind"
    message = field.message_type
    assert message is not None
    return message


def _pairs() -> Iterator[tuple[str, str, type[Any], Descriptor]]:
    """(variant, label, dataclass, message) for every class the codec maps."""
    for variant in VARIANTS:
        rules = REGISTRY[variant]
        yield variant, "options", rules.options_type, _envelope_case(game_pb2.GameOptions, variant)
        yield variant, "state", rules.state_type, _envelope_case(game_pb2.GameState, variant)
        yield variant, "view", rules.view_type, _envelope_case(game_pb2.BoardView, variant)
        for action in rules.action_types:
            yield variant, "action", action, _kind_message(game_pb2.Action, variant, action)
        for event in rules.event_types:
            yield variant, "event", event, _kind_message(game_pb2.Event, variant, event)


PAIRS = list(_pairs())
PAIR_IDS = [f"{variant}-{label}-{cls.__name__}" for variant, label, cls, _ in PAIRS]

_INT_TYPES = {
    FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
}


def _field_mismatch(name: str, hint: Any, fd: FieldDescriptor) -> str | None:
    """Why the dataclass field `name: hint` and the proto field `fd` disagree, or None."""
    repeated = typing.get_origin(hint) is tuple
    if repeated != fd.is_repeated:
        shape = {True: "repeated", False: "singular"}
        return f"{name}: engine {shape[repeated]}, proto {shape[fd.is_repeated]}"
    item = typing.get_args(hint)[0] if repeated else hint
    if type(None) in typing.get_args(item):  # `X | None` needs a field with presence
        if not fd.has_presence:
            return f"{name}: engine {hint!r} may be unset, proto field has no presence"
        (item,) = [arg for arg in typing.get_args(item) if arg is not type(None)]
    if typing.get_origin(item) is tuple:  # a list of lists travels as repeated IntList
        ok = fd.message_type is not None and fd.message_type.full_name == "risk.v1.IntList"
    elif isinstance(item, type) and issubclass(item, enum.IntEnum):
        ok = fd.type == FieldDescriptor.TYPE_ENUM
    elif isinstance(item, type) and dataclasses.is_dataclass(item):
        ok = fd.message_type is not None and fd.message_type.name == item.__name__
    elif item is bool:
        ok = fd.type == FieldDescriptor.TYPE_BOOL
    elif item is int:
        ok = fd.type in _INT_TYPES
    elif item is str:
        ok = fd.type == FieldDescriptor.TYPE_STRING
    else:
        return f"{name}: engine type {item!r} has no mapping"
    return None if ok else f"{name}: engine {hint!r} vs proto type {fd.type}"


def _enum_pairs() -> Iterator[tuple[type[enum.IntEnum], EnumDescriptor]]:
    """Every (engine IntEnum, proto enum) pair met in a field of any mapped class."""
    seen: set[type[enum.IntEnum]] = set()
    for _variant, _label, cls, message in PAIRS:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            item = typing.get_args(hint)[0] if typing.get_origin(hint) is tuple else hint
            if isinstance(item, type) and issubclass(item, enum.IntEnum) and item not in seen:
                seen.add(item)
                proto_enum = message.fields_by_name[f.name].enum_type
                assert proto_enum is not None, f"{cls.__name__}.{f.name} is not a proto enum"
                yield item, proto_enum


def _prefix(proto_enum: EnumDescriptor) -> str:
    """ClassicPhase -> CLASSIC_PHASE_ (the proto style guide's value prefix)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", proto_enum.name).upper() + "_"


ENUM_PAIRS = list(_enum_pairs())


# ---- field-for-field agreement -------------------------------------------------------------


@pytest.mark.parametrize(("variant", "label", "cls", "message"), PAIRS, ids=PAIR_IDS)
def test_dataclass_matches_message(
    variant: str, label: str, cls: type[Any], message: Descriptor
) -> None:
    """A mapped dataclass and its message have the same field names, repeated exactly alike."""
    hints = typing.get_type_hints(cls)
    engine_fields = [f.name for f in dataclasses.fields(cls)]
    assert sorted(engine_fields) == sorted(message.fields_by_name), (
        f"{cls.__name__} vs {message.full_name}: "
        f"only in engine {sorted(set(engine_fields) - set(message.fields_by_name))}, "
        f"only in proto {sorted(set(message.fields_by_name) - set(engine_fields))}"
    )
    problems = [
        problem
        for name in engine_fields
        if (problem := _field_mismatch(name, hints[name], message.fields_by_name[name]))
    ]
    assert not problems, f"{cls.__name__} vs {message.full_name}: {problems}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_oneof_cases_are_exactly_the_engine_types(variant: str) -> None:
    """Every action and event case in the proto oneof has an engine class, and vice versa."""
    rules = REGISTRY[variant]
    for envelope, types in ((game_pb2.Action, rules.action_types),
                            (game_pb2.Event, rules.event_types)):
        holder = _envelope_case(envelope, variant)
        cases = {f.name for f in holder.oneofs_by_name["kind"].fields}
        assert cases == {wire.snake(cls.__name__) for cls in types}, holder.full_name


def test_every_registered_variant_is_on_the_wire() -> None:
    """Each variant in the engine registry has a wire case and a Variant enum value."""
    for variant in VARIANTS:
        described = variants.descriptor(variant)
        case, number = _case(variant), described.number
        assert common_pb2.Variant.Name(number) == f"VARIANT_{case.upper()}"
        assert wire.variant_name(number) == variant


def test_enum_pairs_found() -> None:
    """The enum check below sees the classic phase, setup, schedule and fortify enums."""
    assert {cls for cls, _ in ENUM_PAIRS} >= {Phase, SetupMode, TradeSchedule, FortifyMode}


@pytest.mark.parametrize(
    ("engine_enum", "proto_enum"), ENUM_PAIRS, ids=[cls.__name__ for cls, _ in ENUM_PAIRS]
)
def test_int_enums_match_proto_enums(
    engine_enum: type[enum.IntEnum], proto_enum: EnumDescriptor
) -> None:
    """Each engine member is PREFIX+NAME with the same number; the proto adds only UNSPECIFIED=0."""
    prefix = _prefix(proto_enum)
    proto_values = {v.name: v.number for v in proto_enum.values}
    expected = {prefix + member.name: int(member) for member in engine_enum}
    expected[prefix + "UNSPECIFIED"] = 0
    assert proto_values == expected


def test_phase_example_matches() -> None:
    """Phase.CLAIM travels as CLASSIC_PHASE_CLAIM (a spot check of the rule above)."""
    assert int(Phase.CLAIM) == classic_pb2.CLASSIC_PHASE_CLAIM
    assert int(Phase.FINISHED) == classic_pb2.ClassicPhase.Value("CLASSIC_PHASE_FINISHED")


# ---- round trips from bot playouts ---------------------------------------------------------


@dataclasses.dataclass
class Harvest:
    """Values met in the playouts of one variant."""

    options: list[Any] = dataclasses.field(default_factory=list)
    states: list[Any] = dataclasses.field(default_factory=list)
    actions: list[Action] = dataclasses.field(default_factory=list)
    events: list[Event] = dataclasses.field(default_factory=list)
    views: list[Any] = dataclasses.field(default_factory=list)


def _harvest(variant: str) -> Harvest:
    rules: Ruleset[Any, Any, Any] = get_ruleset(variant)
    harvest = Harvest()
    seen_actions: set[Action] = set()
    for options, seed in PLAYOUTS[variant]:
        harvest.options.append(options)
        state, events = rules.create(options, seed)
        harvest.events.extend(events)
        # resigning is a lifecycle call, not a listed action: harvest it from a side branch
        resigned, resign_events = rules.resign(state, rules.decision(state).seats[0])
        harvest.events.extend(resign_events)
        harvest.states.append(resigned)
        step = 0
        while rules.outcome(state) is None and step < 4000:
            (seat,) = rules.decision(state).seats
            for entry in rules.legal_actions(state, seat):  # listed, not only chosen, actions
                if entry.action not in seen_actions:
                    seen_actions.add(entry.action)
                    harvest.actions.extend(entry.instances()[:3])
            action = rules.bot_action(state, seat, seed + step)
            state, events = rules.apply(state, seat, action)
            harvest.events.extend(events)
            if step % 37 == 0:  # a spread of states and views, not all of them
                harvest.states.append(state)
                harvest.views.extend(
                    rules.view(state, viewer) for viewer in (None, *range(options.players))
                )
            step += 1
        harvest.states.append(state)
    return harvest


@pytest.fixture(scope="module", params=VARIANTS)
def harvest(request: pytest.FixtureRequest) -> tuple[str, Harvest]:
    variant: str = request.param
    return variant, _harvest(variant)


def test_every_variant_has_playouts() -> None:
    """A newly registered variant must add playouts here, or its round trips go untested."""
    assert set(PLAYOUTS) >= set(REGISTRY)


def test_playouts_cover_every_action_and_event_type(harvest: tuple[str, Harvest]) -> None:
    """The playouts meet every action and event type, so the round trips below cover them all."""
    variant, found = harvest
    rules = REGISTRY[variant]
    assert {type(a) for a in found.actions} == set(rules.action_types)
    assert {type(e) for e in found.events} == set(rules.event_types)


def test_actions_round_trip(harvest: tuple[str, Harvest]) -> None:
    """Every listed legal action survives action_to_proto, bytes, and action_from_proto."""
    variant, found = harvest
    for action in found.actions:
        data = wire.action_to_proto(variant, action).SerializeToString(deterministic=True)
        message = game_pb2.Action()
        message.ParseFromString(data)
        assert wire.action_from_proto(message) == (variant, action)


def test_legal_actions_round_trip_with_ranges() -> None:
    """A legal-action entry keeps its max_count on the wire."""
    state, _ = REGISTRY["classic"].create(ClassicOptions(players=2), 3)
    (seat,) = REGISTRY["classic"].decision(state).seats
    entry = REGISTRY["classic"].legal_actions(state, seat)[0]
    message = wire.legal_to_proto("classic", entry)
    assert message.max_count == entry.max_count
    assert wire.action_from_proto(message.action) == ("classic", entry.action)


def test_events_round_trip(harvest: tuple[str, Harvest]) -> None:
    """Every event, and each viewer's redacted form of it, survives encode_event/decode_event."""
    variant, found = harvest
    for seq, event in enumerate(found.events, start=1):
        for shown in {event.for_viewer(None), event.for_viewer(0), event}:
            assert shown is not None
            data = wire.encode_event(variant, shown, seq, seq // 3)
            assert wire.decode_event(data)[:4] == (variant, seq, seq // 3, shown)


def test_states_round_trip_bit_identical(harvest: tuple[str, Harvest]) -> None:
    """A state decodes to an equal state, and re-encoding it gives the very same bytes."""
    variant, found = harvest
    rules = REGISTRY[variant]
    for state in found.states:
        data = wire.encode_state(variant, state)
        assert wire.decode_state(data) == (variant, rules.rules_version, state)
        assert wire.encode_state(variant, wire.decode_state(data)[2]) == data


def test_views_round_trip(harvest: tuple[str, Harvest]) -> None:
    """Player and spectator views survive view_to_proto and back through from_message."""
    variant, found = harvest
    rules = REGISTRY[variant]
    for view in found.views:
        envelope = game_pb2.BoardView()
        envelope.ParseFromString(wire.view_to_proto(variant, view).SerializeToString())
        assert envelope.WhichOneof("variant") == _case(variant)
        assert wire.from_message(getattr(envelope, _case(variant)), rules.view_type) == view


def test_options_round_trip(harvest: tuple[str, Harvest]) -> None:
    """Options used by the playouts survive options_to_proto and options_from_proto."""
    variant, found = harvest
    for options in found.options:
        message = game_pb2.GameOptions()
        message.ParseFromString(wire.options_to_proto(variant, options).SerializeToString())
        assert wire.options_from_proto(message) == (variant, options)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_classic_option_value_round_trips(players: int) -> None:
    """Each value of each classic option enum, and every player count, crosses the wire intact."""
    for setup in SetupMode:
        for schedule in TradeSchedule:
            for fortify in FortifyMode:
                options = ClassicOptions(
                    players=players, setup=setup, trade_schedule=schedule, fortify=fortify,
                    auto_place=True, auto_defend_max_dice=True, cards=False, max_turns=7,
                )
                message = wire.options_to_proto("classic", options)
                assert wire.options_from_proto(message) == ("classic", options)


def test_empty_classic_options_give_dataclass_defaults() -> None:
    """An empty ClassicOptions message means every documented default."""
    message = game_pb2.GameOptions(classic=classic_pb2.ClassicOptions())
    assert wire.options_from_proto(message) == ("classic", ClassicOptions())


def test_partial_classic_options_fill_in_defaults() -> None:
    """Options a client leaves unset take their defaults; the ones it sets are kept."""
    message = game_pb2.GameOptions(
        classic=classic_pb2.ClassicOptions(players=3, cards=False, max_turns=0)
    )
    assert wire.options_from_proto(message) == (
        "classic", ClassicOptions(players=3, cards=False, max_turns=0)
    )


def test_explicit_false_option_is_not_the_default() -> None:
    """An option set to false (presence kept) differs from an unset one whose default is true."""
    unset = wire.options_from_proto(game_pb2.GameOptions(classic=classic_pb2.ClassicOptions()))
    off = wire.options_from_proto(
        game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(cards=False))
    )
    assert unset[1].cards is True
    assert off[1].cards is False


def test_empty_deep_space_options_give_dataclass_defaults() -> None:
    """An empty DeepSpaceOptions message means 4 players and the default turn cap."""
    message = game_pb2.GameOptions(deep_space=deep_space_pb2.DeepSpaceOptions())
    assert wire.options_from_proto(message) == ("deep_space", DeepSpaceOptions())
    partial = game_pb2.GameOptions(deep_space=deep_space_pb2.DeepSpaceOptions(players=2))
    assert wire.options_from_proto(partial) == ("deep_space", DeepSpaceOptions(players=2))


def test_deep_space_card_fields_left_unset_take_their_defaults() -> None:
    """A PlayCard with only the card set decodes with no planet, target, count or payment."""
    card_only = deep_space_pb2.DeepSpaceAction(
        play_card=deep_space_pb2.DeepSpaceAction.PlayCard(card=18)
    )
    assert wire.action_from_proto(game_pb2.Action(deep_space=card_only)) == (
        "deep_space", PlayCard(18, planet=-1, target=-1, count=0, resource=Resource.GEM,
                               pay_from=-1)
    )
    aimed = PlayCard(5, planet=12, count=2, pay_from=20)
    assert wire.action_from_proto(wire.action_to_proto("deep_space", aimed)) == (
        "deep_space", aimed
    )


def test_encode_state_is_deterministic() -> None:
    """Equal states give equal bytes, independent of how the state was reached."""
    rules = REGISTRY["classic"]
    a, _ = rules.create(ClassicOptions(players=4), 99)
    b, _ = rules.create(ClassicOptions(players=4), 99)
    assert wire.encode_state("classic", a) == wire.encode_state("classic", b)


def test_action_with_fields_keeps_them() -> None:
    """Field values of a concrete action arrive unchanged (a trade with its bonus territory)."""
    for action in (TradeCards((3, 17, 42), 17), TradeCards((1, 2, 3)), Attack(0, 1, 3)):
        assert wire.action_from_proto(wire.action_to_proto("classic", action)) == (
            "classic", action
        )


# ---- malformed input -----------------------------------------------------------------------


def _classic_snapshot() -> game_pb2.StoredGame:
    state, _ = REGISTRY["classic"].create(ClassicOptions(players=3), 1)
    stored = game_pb2.StoredGame()
    stored.ParseFromString(wire.encode_state("classic", state))
    return stored


def test_unknown_enum_value_in_options_is_rejected() -> None:
    """An enum number the engine does not know (open proto3 enums allow it) is a WireError."""
    message = game_pb2.GameOptions()
    # proto3 enums are open: an unknown number parses and is stored as is
    message.classic.setup = typing.cast(classic_pb2.ClassicSetupMode, 99)
    with pytest.raises(wire.WireError, match="setup"):
        wire.options_from_proto(message)


def test_unspecified_enum_in_state_is_rejected() -> None:
    """A stored state whose phase is UNSPECIFIED (0) or unknown is a WireError."""
    for phase in (0, 42):
        stored = _classic_snapshot()
        stored.state.classic.phase = typing.cast(classic_pb2.ClassicPhase, phase)
        with pytest.raises(wire.WireError, match="phase"):
            wire.decode_state(stored.SerializeToString())


@pytest.mark.parametrize(
    "message",
    [
        game_pb2.Action(),
        game_pb2.Action(classic=classic_pb2.ClassicAction()),
    ],
    ids=["no-variant", "no-kind"],
)
def test_action_without_oneof_is_rejected(message: game_pb2.Action) -> None:
    """An action with no variant, or a variant with no kind set, is a WireError."""
    with pytest.raises(wire.WireError):
        wire.action_from_proto(message)


def test_event_and_options_without_oneof_are_rejected() -> None:
    """An event or options message with nothing set is a WireError."""
    with pytest.raises(wire.WireError):
        wire.event_from_proto(game_pb2.Event(seq=1))
    with pytest.raises(wire.WireError):
        wire.event_from_proto(game_pb2.Event(classic=classic_pb2.ClassicEvent()))
    with pytest.raises(wire.WireError):
        wire.options_from_proto(game_pb2.GameOptions())


def test_unserved_variant_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant the contract names but the engine does not serve raises VariantNotServed.

    Every variant in the contract is served now, so the test takes Legacy out of the registry
    to stand for a build that does not serve it yet.
    """
    monkeypatch.delitem(wire.REGISTRY, "legacy")
    with pytest.raises(wire.VariantNotServed):
        wire.options_from_proto(game_pb2.GameOptions(legacy={}))
    end_attack = legacy_pb2.LegacyAction(end_attack=legacy_pb2.LegacyAction.EndAttack())
    with pytest.raises(wire.VariantNotServed):
        wire.action_from_proto(game_pb2.Action(legacy=end_attack))
    turn_ended = legacy_pb2.LegacyEvent(turn_ended=legacy_pb2.LegacyEvent.TurnEnded(seat=1))
    event = game_pb2.Event(legacy=turn_ended)
    with pytest.raises(wire.VariantNotServed):
        wire.decode_event(event.SerializeToString())
    stored = game_pb2.StoredGame(
        schema_version=wire.SCHEMA_VERSION, variant=common_pb2.VARIANT_LEGACY,
        rules_version=1, state=game_pb2.GameState(legacy={}),
    )
    with pytest.raises(wire.VariantNotServed):
        wire.decode_state(stored.SerializeToString())
    assert issubclass(wire.VariantNotServed, wire.WireError)


@pytest.mark.parametrize(
    "data",
    [b"\xff\xff\xff", b"\x0a\x05abc", b"", b"\x08\x01\x10\x09\x18\x01", b"\x08\x01"],
    ids=["garbage", "truncated-field", "empty", "unknown-variant", "no-variant"],
)
def test_corrupt_snapshot_bytes_are_rejected(data: bytes) -> None:
    """Bytes that are not a snapshot this build can read raise WireError, never another error."""
    with pytest.raises(wire.WireError):
        wire.decode_state(data)


def test_every_truncated_snapshot_is_rejected() -> None:
    """Every proper prefix of a real snapshot raises WireError: a cut breaks or drops the state."""
    data = wire.encode_state("classic", REGISTRY["classic"].create(ClassicOptions(), 4)[0])
    for cut in range(len(data)):
        with pytest.raises(wire.WireError):
            wire.decode_state(data[:cut])


def test_snapshot_with_wrong_state_case_is_rejected() -> None:
    """A snapshot that says classic but holds no classic state is a WireError."""
    stored = _classic_snapshot()
    stored.state.ClearField("classic")
    with pytest.raises(wire.WireError):
        wire.decode_state(stored.SerializeToString())


def test_snapshot_from_a_newer_schema_is_rejected() -> None:
    """A snapshot written by a newer build (higher schema_version) is a WireError."""
    stored = _classic_snapshot()
    stored.schema_version = wire.SCHEMA_VERSION + 1
    with pytest.raises(wire.WireError, match="newer"):
        wire.decode_state(stored.SerializeToString())


def test_corrupt_event_bytes_are_rejected() -> None:
    """Event bytes that do not parse, or carry no variant, raise WireError."""
    for data in (b"\xff\xff", b""):
        with pytest.raises(wire.WireError):
            wire.decode_event(data)


# ---- generated code ------------------------------------------------------------------------


def test_generated_code_is_fresh() -> None:
    """scripts/gen_protos.py --check passes: the checked-in pb package matches the .proto files."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"],
        check=False, capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("variant", VARIANTS)
def test_unset_options_name_the_variant_and_set_nothing(variant: str) -> None:
    """`wire.unset_options` (what a client sends to take every default) selects the variant's
    case and leaves every field of it unset."""
    envelope = wire.unset_options(variant)
    case = envelope.WhichOneof("variant")
    assert case is not None
    assert variants.by_case(case).name == variant
    assert getattr(envelope, case).ListFields() == []
