"""What one variant is, said once: its rules, its messages, its defaults and its hooks.

A descriptor is everything outside the engine that has to know a variant by name: the wire
(which envelope case or `Any` carries it, its `Variant` number), the golden file, the fuzzer and
leak probes, the benchmarks, the command line, and the service's campaign bookkeeping. Those
places iterate over `risk_rules.variants.DESCRIPTORS` instead of naming variants, so a new
variant is one package of rules plus one module holding its `DESCRIPTOR`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

from risk_rules.engine import Ruleset

# Variant numbers from here up are for variants outside the contract's enum (proto3 enums are
# open: an unnamed number travels and is stored like a named one).
FIRST_EXTENSION_NUMBER = 1000


@dataclass(frozen=True)
class Messages:
    """The variant's own protobuf messages, one per envelope."""

    options: type[Message]
    action: type[Message]
    event: type[Message]
    state: type[Message]
    view: type[Message]

    @classmethod
    def named(cls, module: ModuleType, prefix: str) -> Messages:
        """`<prefix>Options`, `<prefix>Action`, ... of the generated module `module`."""
        return cls(*(getattr(module, prefix + kind)
                     for kind in ("Options", "Action", "Event", "State", "View")))


@dataclass(frozen=True)
class Golden:
    """The recorded playthrough (tests/golden): every option spelled out, so a change of
    defaults cannot silently change the recorded game."""

    options: Any
    seed: int
    win_reason: str  # the outcome reason of a game won outright in this variant


@dataclass(frozen=True)
class LeakProbe:
    """What the leak canaries must never see leave the service, written from the variant's
    rules digest ("who sees what") and not from its redaction code, so that a mistake there
    cannot agree with itself. Every state field named `*deck`, the seed and the generator are
    secret in every variant and need no entry."""

    seed: int
    players: int = 3
    # the option overrides of the probed game (applied to `default_options(players)`)
    options: Mapping[str, Any] = field(default_factory=dict)
    # the state field holding the draw pile that hands are swapped with ("": hands are public)
    hidden_hands: str = ""
    # state fields of a per-seat secret card only its seat may see (0: none; a held card is
    # 1 or 2, and the probe swaps it for the other)
    seat_secrets: tuple[str, ...] = ()
    # event class -> (fields naming the seats entitled, the field every other viewer gets
    # hidden)
    event_secrets: Mapping[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    # some events are shown in full to one seat and redacted for another (the probe insists
    # the game had one)
    redacts: bool = True
    # after this many actions the last seat resigns (None: nobody does)
    resign_at: int | None = None


@dataclass(frozen=True)
class Defaults:
    """What tests and benchmarks play when they play this variant."""

    # the decision kinds (`Ruleset.decision(...).kind`) the fuzzer drives a game to: the bots
    # must reach every one from the fuzzer's seed
    phases: tuple[str, ...]
    # the benchmark game's option overrides (applied to `default_options(players)`)
    bench_options: Mapping[str, Any] = field(default_factory=dict)
    golden: Golden | None = None
    leaks: LeakProbe | None = None


@dataclass(frozen=True)
class CampaignHooks:
    """A variant whose games belong to a campaign: what a finished game records in it.

    The service keeps the campaign's record in a Redis hash on the game's hash slot and calls
    these inside the game's final commit, so the result is recorded atomically with the end.
    """

    # the campaign the game in this state belongs to ("" for a stand-alone game)
    campaign_of: Callable[[Any], str]
    # the campaign-hash writes that record the finished game, from the hash as read
    record_game: Callable[[Mapping[bytes, bytes], Any], list[tuple[str, bytes]]]


@dataclass(frozen=True)
class VariantDescriptor:
    rules: Ruleset[Any, Any, Any]
    messages: Messages
    # the `Variant` enum value (FIRST_EXTENSION_NUMBER and up outside the contract)
    number: int
    # the envelopes' oneof case; None: the variant travels in their `extension` (Any) case
    case: str | None
    defaults: Defaults
    # "module:function" drawing the board for the command line from the variant's view
    # message (`(view, names, colour) -> str`); named, not imported, so the service never
    # imports the client. "": the command line prints the view field by field.
    renderer: str = ""
    campaign: CampaignHooks | None = None
    # "module:function" telling what DescribeVariant says beyond what the rules and messages
    # show (`() -> risk_rules.descriptions.notes.Described`: a title, the map with coordinates
    # to draw it, the decks, the options' ranges and meanings); named, not imported, so the
    # descriptions depend on the variants and never the other way. "": the generic
    # description alone
    describe: str = ""
    # where its events show what a draw gave, withheld from callers without a seat in a game
    # of a duplicate round still in play (the round's games share their draws, so one game's
    # rolls and cards are the others' future ones): event class name -> its fields, a dotted
    # name for a field of a field; the service hides each (an int, or every item of a tuple)
    # as -1 and leaves the rest of the event (who fought, the losses) as it was
    draws: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the rules' name, read on every move: kept as a field, not a property that calls
    name: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.rules.name)  # frozen: set once, here
