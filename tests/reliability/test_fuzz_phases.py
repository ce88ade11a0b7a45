"""Out-of-range moves in every phase of every variant: refused with a reason, never INTERNAL.

A phase's own checks (an attack's target, a move-in's count, a Strike window's card, a Legacy
missile's die) run only on a move of the kind that phase allows, from the seat that decides
it. So each variant is driven by its bots through the real service into each of its main
phases (`targets.PHASES`), and there the deciding seat sends its listed moves with one number
at a time replaced by an extreme or meaningless value: negative, one past a board, int32's
ends. Every answer must be FAILED_PRECONDITION or INVALID_ARGUMENT with an ErrorInfo, and the
game must be exactly as before. The answers per variant, phase and code are printed.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Iterator

import grpc
import redis
from google.rpc import error_details_pb2, status_pb2

from risk_proto.risk.v1 import service_pb2, service_pb2_grpc
from risk_rules import wire
from risk_rules.engine import Action, is_legal
from risk_testing.harness import ServiceFactory
from risk_testing.rpc import DETAILS_KEY, bearer
from tests.reliability.targets import (
    PHASES,
    Builder,
    Target,
    build_phase_targets,
    channel,
    fingerprint,
)

# one past every board (42 territories, Deep Space's planets, hands), int32's ends, negatives
EXTREMES = (-1, -2, 42, 43, 64, 99, 127, 128, 1000, 2**31 - 1, -(2**31))
PER_KIND = 3  # listed moves of each action type mutated per phase
REFUSED = frozenset({"FAILED_PRECONDITION", "INVALID_ARGUMENT"})


def _variants_of(action: Action) -> Iterator[Action]:
    """`action` with one integer field, or one element of a tuple field, set to each extreme;
    tuple fields also emptied and lengthened."""
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            for extreme in EXTREMES:
                yield dataclasses.replace(action, **{f.name: extreme})
        elif isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            yield dataclasses.replace(action, **{f.name: ()})
            yield dataclasses.replace(action, **{f.name: value * 9 + (0,)})
            for i in range(min(len(value), 2)):
                for extreme in EXTREMES:
                    yield dataclasses.replace(
                        action, **{f.name: (*value[:i], extreme, *value[i + 1:])})


def _listed(target: Target) -> dict[type[Action], list[Action]]:
    """Up to PER_KIND of the decider's listed moves of each action type."""
    seat = target.decider
    assert seat is not None, f"{target.name}: nobody decides"
    by_kind: dict[type[Action], list[Action]] = {}
    for entry in target.rules.legal_actions(target.state, seat):
        kept = by_kind.setdefault(type(entry.action), [])
        if len(kept) < PER_KIND:
            kept += entry.instances()[:PER_KIND - len(kept)]
    return by_kind


def _shots(target: Target, elsewhere: dict[type[Action], list[Action]]
           ) -> list[tuple[Action, service_pb2.SubmitActionRequest]]:
    """The decider's listed moves mutated, then those of the kinds it may not make now (moves
    listed in the variant's other phases: a window's seat sending a card or an attack)."""
    seat = target.decider
    assert seat is not None
    listed = target.rules.legal_actions(target.state, seat)
    mine = _listed(target)
    originals = [a for actions in mine.values() for a in actions]
    originals += [a for kind, actions in elsewhere.items() if kind not in mine for a in actions]
    shots: list[tuple[Action, service_pb2.SubmitActionRequest]] = []
    for original in originals:
        for action in _variants_of(original):
            if is_legal(listed, action):
                continue  # still a move the seat may make: it would change the game
            shots.append((action, service_pb2.SubmitActionRequest(
                game_id=target.game_id, action=wire.action_to_proto(target.variant, action),
                expected_version=target.version, request_id=f"ph-{len(shots)}")))
    return shots


def _answer(call: grpc.Future) -> tuple[str, str, str]:
    """(code, ErrorInfo reason, details) of a finished call."""
    try:
        call.result()
    except grpc.RpcError as error:
        reason = ""
        for key, value in error.trailing_metadata() or ():
            if key == DETAILS_KEY:
                for detail in status_pb2.Status.FromString(value).details:
                    info = error_details_pb2.ErrorInfo()
                    if detail.Unpack(info):
                        reason = info.reason
        return error.code().name, reason, error.details() or ""
    return "OK", "", ""


def test_out_of_range_moves_in_every_phase_are_refused_with_a_reason(
    make_service: ServiceFactory, redis_url: str
) -> None:
    """Each variant in each of its main phases: the decider's listed moves with extreme
    numbers get FAILED_PRECONDITION/INVALID_ARGUMENT with a reason and change nothing."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    service = make_service()
    started = time.monotonic()
    ch = channel(service.target)
    builder = Builder(service_pb2_grpc.RiskServiceStub(ch), client)
    targets = build_phase_targets(builder)
    built = time.monotonic() - started
    before = {t.game_id: fingerprint(client, t.game_id) for t in targets}
    submit = ch.unary_unary("/risk.v1.RiskService/SubmitAction",
                            request_serializer=service_pb2.SubmitActionRequest.SerializeToString,
                            response_deserializer=service_pb2.SubmitActionResponse.FromString)
    counts: Counter[tuple[str, str, str]] = Counter()
    problems: list[str] = []
    pools: dict[str, dict[type[Action], list[Action]]] = {}
    for t in targets:
        for kind, actions in _listed(t).items():
            pools.setdefault(t.variant, {}).setdefault(kind, actions)
    per_target: dict[str, int] = {}
    for t in targets:
        token = bearer(t.tokens[t.decider if t.decider is not None else 0])
        shots = _shots(t, pools[t.variant])
        calls = [(action, submit.future(request, metadata=token, timeout=30))
                 for action, request in shots]  # all at once
        for action, call in calls:
            code, reason, details = _answer(call)
            counts[t.variant, t.name.split("/")[1], code] += 1
            if code not in REFUSED or not reason:
                problems.append(f"{t.name}: {action} got {code}/{reason}: {details[:120]}")
        per_target[t.name] = len(shots)
    total = sum(per_target.values())
    after = {t.game_id: fingerprint(client, t.game_id) for t in targets}
    ch.close()
    fuzzed = time.monotonic() - started - built
    phases = Counter(t.variant for t in targets)
    print(f"\nphases: {len(targets)} games ({dict(phases)}) built in {built:.1f} s; "
          f"{total} out-of-range moves in {fuzzed:.1f} s")
    for variant in sorted(PHASES):
        row = ", ".join(f"{phase} {code} {n}" for (v, phase, code), n in sorted(counts.items())
                        if v == variant)
        print(f"phases/{variant}: {row}")
    assert not problems, f"{len(problems)} bad answers, e.g.:\n" + "\n".join(problems[:15])
    changed = [t.name for t in targets if before[t.game_id] != after[t.game_id]]
    assert not changed, f"games changed by refused moves: {changed}"
    assert min(per_target.values()) >= 10, f"phases with few moves to mutate: {per_target}"
    service.stop()
    assert '"code": "INTERNAL"' not in service.logs()
