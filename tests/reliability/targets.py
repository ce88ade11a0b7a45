"""Real games for the fuzzer to aim at, built through a running service, and their fingerprints.

A `Target` is one game with every credential it has (host token, seat tokens) and its state as
Redis holds it. Targets are either *attacked* (the fuzzer sends them only requests that must not
change them, so afterwards their stored snapshot and stream must be exactly as before) or
*sandbox* (the fuzzer may also play them legitimately). `build_targets` makes games of every
registered variant in several situations (fresh, mid-game, finished, waiting for a manual start)
plus classic ones in each interesting phase (claim, two-player neutral placement, defence,
a hand to trade), and, through `PHASES`, one game of every variant in each of its main phases
(the decision kinds a bot game meets: classic's claim to fortify, Legacy's HQ placement to the
end-of-turn draw, Strike's draw to a battle's windows, Deep Space's turn start, mining and
main actions). `action_pool` collects, per variant, real actions of every kind from offline
bot playouts: legal somewhere, usually illegal where the fuzzer sends them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis

from risk_proto.risk.v1 import game_pb2, service_pb2, service_pb2_grpc
from risk_rules import variants, wire
from risk_rules.engine import REGISTRY, Action, get_ruleset
from risk_service.store.keys import Keys
from risk_testing.rpc import bearer
from tests.stored_state import record_now, state_now, state_of

ACTIVE = service_pb2.GAME_STATUS_ACTIVE
WAITING = service_pb2.GAME_STATUS_WAITING
FINAL = (service_pb2.GAME_STATUS_FINISHED, service_pb2.GAME_STATUS_ABANDONED,
         service_pb2.GAME_STATUS_CANCELLED)
KEYS = Keys()


@dataclass
class Target:
    name: str
    variant: str
    game_id: str
    host: str
    tokens: list[str]
    attacked: bool  # only attacked (never legitimately played) during the fuzz run
    state: Any = None
    version: int = 0
    status: int = 0

    @property
    def rules(self) -> Any:
        return get_ruleset(self.variant)

    @property
    def decider(self) -> int | None:
        if self.status != ACTIVE:
            return None
        seats = self.rules.decision(self.state).seats
        return seats[0] if seats else None

    def refresh(self, client: redis.Redis) -> None:
        record = record_now(client, self.game_id)
        self.state = state_of(record)[0]
        self.version, self.status = record.version, record.status

    def legal(self, seat: int) -> list[Action]:
        return [a for entry in self.rules.legal_actions(self.state, seat)
                for a in entry.instances()]


def fingerprint(client: redis.Redis, game_id: str) -> tuple[str, int, int, int]:
    """What an attack must not change: SHA-256 of the state (the snapshot and the log after
    it), the stream's length, and the lengths of the request records and the action log."""
    snap = state_now(client, game_id)[1]
    return (hashlib.sha256(snap).hexdigest(), int(client.xlen(KEYS.events(game_id))),
            int(client.hlen(KEYS.requests(game_id))), int(client.llen(KEYS.log(game_id))))


def options_for(variant: str, players: int, **fields: Any) -> game_pb2.GameOptions:
    """GameOptions for `variant`: its engine defaults for `players`, overridden by `fields`."""
    defaults = get_ruleset(variant).default_options(players)
    return wire.options_to_proto(variant, dataclasses.replace(defaults, **fields))


@dataclass
class Builder:
    stub: service_pb2_grpc.RiskServiceStub
    client: redis.Redis
    targets: list[Target] = field(default_factory=list)
    unplayable: dict[str, str] = field(default_factory=dict)  # variant -> why

    def create(self, name: str, variant: str, options: game_pb2.GameOptions, seed: int, *,
               attacked: bool = True, manual_start: bool = False) -> Target:
        created = self.stub.CreateGame(service_pb2.CreateGameRequest(
            options=options, seed=seed, issue_seat_tokens=True, manual_start=manual_start))
        target = Target(name, variant, created.game.game_id, created.host_token,
                        list(created.seat_tokens), attacked)
        target.refresh(self.client)
        self.targets.append(target)
        return target

    def advance(self, target: Target, until: Callable[[Target], bool], limit: int = 2000) -> None:
        """Let the bots play `target` through the service until `until` holds."""
        moves = 0
        while not until(target):
            seat = target.decider
            assert seat is not None and moves < limit, f"{target.name}: never got there"
            action = target.rules.bot_action(target.state, seat, moves * 7919 + 1)
            self.stub.SubmitAction(
                service_pb2.SubmitActionRequest(
                    game_id=target.game_id, action=wire.action_to_proto(target.variant, action),
                    expected_version=target.version, request_id=f"setup-{moves}"),
                metadata=bearer(target.tokens[seat]))
            target.refresh(self.client)
            moves += 1

    def finish_by_resigning(self, target: Target) -> None:
        for seat in range(len(target.tokens) - 1):
            self.stub.Resign(service_pb2.ResignRequest(game_id=target.game_id),
                             metadata=bearer(target.tokens[seat]))
        target.refresh(self.client)
        assert target.status in FINAL


# per variant, the decision kinds (`Ruleset.decision(...).kind`) a game is driven to before it
# is fuzzed: every one must be reached by the bots from PHASE_SEED, or the build fails
# (each descriptor's `defaults.phases`)
PHASES: dict[str, tuple[str, ...]] = {
    name: described.defaults.phases for name, described in variants.DESCRIPTORS.items()}
PHASE_SEED = 102


def build_phase_targets(b: Builder, variants: list[str] | None = None) -> list[Target]:
    """One attacked 3-seat game of each variant in each of its PHASES, driven there by the
    bots through the service. A registered variant missing from PHASES fails here."""
    made = []
    for variant in variants or sorted(REGISTRY):
        assert variant in PHASES, f"tests/reliability/targets.py names no PHASES for {variant}"
        for kind in PHASES[variant]:
            made.append(_reach(b, variant, kind))
    return made


def _reach(b: Builder, variant: str, kind: str, tries: int = 20) -> Target:
    """A game in phase `kind`: the first of a few seeds whose bot game gets there before it
    ends (some phases come only with a hand that bots seldom keep, e.g. Legacy's Red Star
    purchases at the start of a turn)."""
    for seed in range(PHASE_SEED, PHASE_SEED + tries):
        t = b.create(f"{variant}/{kind}", variant, options_for(variant, 3), seed)
        try:
            b.advance(t, _in_phase(kind))
        except AssertionError:
            b.targets.remove(t)
            continue
        return t
    raise AssertionError(f"{variant}/{kind}: no bot game of {tries} seeds got there")


def _kind(target: Target) -> str:
    return target.rules.decision(target.state).kind if target.status == ACTIVE else ""


def _in_phase(kind: str) -> Callable[[Target], bool]:
    return lambda target: _kind(target) == kind


def build_targets(stub: service_pb2_grpc.RiskServiceStub, client: redis.Redis) -> Builder:
    """The games the fuzzer aims at (see the module docstring), in `.targets`; variants the
    service cannot play a 3-seat game of yet are in `.unplayable`, with the reason."""
    b = Builder(stub, client)
    for variant in sorted(REGISTRY):
        try:
            b.create(f"{variant}/fresh", variant, options_for(variant, 3), seed=101)
            mid = b.create(f"{variant}/mid", variant, options_for(variant, 3), seed=102)
            b.advance(mid, lambda t: t.version >= 40 or t.decider is None)
            done = b.create(f"{variant}/finished", variant, options_for(variant, 3), seed=103)
            b.finish_by_resigning(done)
            b.create(f"{variant}/waiting", variant, options_for(variant, 3), seed=104,
                     manual_start=True)
        except (grpc.RpcError, AssertionError, TypeError, ValueError) as exc:
            # a variant the service cannot yet play a 3-seat game of: said, not hidden
            b.unplayable[variant] = f"{type(exc).__name__}: {exc}"[:200]
            b.targets = [t for t in b.targets if t.variant != variant]
    build_phase_targets(b, [v for v in sorted(REGISTRY) if v not in b.unplayable])
    classic = "classic"
    if classic in REGISTRY:
        b.create("classic/claim", classic, options_for(classic, 3), seed=105)
        two = b.create("classic/two-player", classic, options_for(classic, 2), seed=106)
        b.advance(two, lambda t: _kind(t) == "setup_neutral")
        deal = {"setup": 2, "auto_place": True}
        defend = b.create("classic/defend", classic, options_for(classic, 3, **deal), seed=107)
        b.advance(defend, lambda t: _kind(t) == "defend")
        trade = b.create("classic/trade", classic,
                         options_for(classic, 3, auto_defend_max_dice=True, **deal), seed=108)
        b.advance(trade, lambda t: _kind(t) == "reinforce"
                  and len(t.state.hands[t.state.current]) >= 3)
        for n in range(2):
            b.create(f"classic/sandbox-{n}", classic, options_for(
                classic, 3, auto_defend_max_dice=True, max_turns=30, **deal), seed=110 + n,
                attacked=False)
    return b


def action_pool(seed: int = 5, per_kind: int = 40) -> dict[str, list[Action]]:
    """Per variant, real actions of every kind the bots met in offline playouts."""
    pool: dict[str, list[Action]] = {}
    for variant, rules in REGISTRY.items():
        seen: dict[type[Action], list[Action]] = {}
        for players in (2, 3):
            try:
                state, _events = rules.create(rules.default_options(players), seed + players)
            except Exception:
                continue
            for move in range(1500):
                decision = rules.decision(state)
                if not decision.seats:
                    break
                seat = decision.seats[0]
                for entry in rules.legal_actions(state, seat):
                    kept = seen.setdefault(type(entry.action), [])
                    if len(kept) < per_kind:
                        kept.extend(entry.instances()[:2])
                state, _events = rules.apply(state, seat,
                                             rules.bot_action(state, seat, move + players))
        pool[variant] = [a for actions in seen.values() for a in actions]
        assert pool[variant], f"the {variant} bots met no action at all"
    return pool


def channel(target: str) -> grpc.Channel:
    return grpc.insecure_channel(target, options=[("grpc.max_send_message_length", -1)])
