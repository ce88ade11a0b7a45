"""One list of reasons: every reason the service can send is in errors.proto and docs/errors.md.

The source is read, not run: every `ServiceError(code, reason, ...)` in the service, with the
reason and the status it is sent with, followed through the helpers that pass a reason along
(a parameter is resolved at every call of its function), plus every member of the engine's
`Reason` enum, which the rules raise and the service passes on. A reason is a member of one of
the two enums (`ServiceReason.X`, `Reason.X`), never a string literal, so a typo fails mypy and
the import. A reason missing from the contract fails with the line to add and where, so a new
reason cannot ship undocumented.
"""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from risk_proto.risk.v1 import errors_pb2
from risk_rules.engine.core.errors import Reason
from risk_service.errors import ServiceReason

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service" / "risk_service"
RULES = ROOT / "service" / "rules" / "risk_rules"  # wire and the engine raise reasons too
PROTO = "proto/risk/v1/errors.proto"
DOC = ROOT / "docs" / "errors.md"
ENGINE_ENUM = "service/rules/risk_rules/engine/core/errors.py"
REGENERATE = "then run scripts/gen_protos.py (it rewrites the pb code and docs/errors.md)"
MAX_DEPTH = 4  # helpers calling helpers: deeper chains are unlikely and reported unresolved
REASON_ENUMS = {"ServiceReason", "Reason"}  # risk_service.errors, the engine's
ENUMS = {*REASON_ENUMS, "Code"}  # what the scan reads a name from: `Enum.X`, `module.Enum.X`


def _contract(enum: str) -> dict[str, list[str]]:
    """{reason: statuses} of one enum of errors.proto, as the generated code holds it."""
    if enum not in errors_pb2.DESCRIPTOR.enum_types_by_name:
        return {}  # reported as every one of its reasons missing
    values = errors_pb2.DESCRIPTOR.enum_types_by_name[enum].values
    status = getattr(errors_pb2, "status", None)  # the option, once errors.proto defines it
    return {v.name: list(v.GetOptions().Extensions[status]) if status else []
            for v in values if v.number != 0}


def _next_number(enum: str, taken: int = 0) -> int:
    values = getattr(errors_pb2.DESCRIPTOR.enum_types_by_name.get(enum), "values", ())
    return max((v.number for v in values), default=0) + 1 + taken


# ---- reading the source ----------------------------------------------------------------

@dataclass(frozen=True)
class Scope:
    """Where an expression is evaluated: its file and enclosing function (None: module level)."""

    path: Path
    function: ast.FunctionDef | ast.AsyncFunctionDef | None
    method: bool = False  # a function defined in a class, called with its first parameter bound

    def where(self, node: ast.AST) -> str:
        return f"{self.path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


@dataclass(frozen=True)
class Expr:
    node: ast.expr
    scope: Scope
    depth: int = 0


@dataclass(frozen=True)
class Passthrough:
    """`exc.reason` / `exc.reason.value`: an IllegalAction's engine reason, passed on."""


@dataclass(frozen=True)
class Unresolved:
    text: str


@dataclass(frozen=True)
class Bare:
    """A name written as a string literal rather than as its enum's member."""

    text: str


@dataclass
class Source:
    calls: list[tuple[ast.Call, Scope]] = field(default_factory=list)  # ServiceError(...)
    callers: dict[str, list[tuple[ast.Call, Scope]]] = field(default_factory=dict)


def _read_source() -> Source:
    source = Source()
    for path in sorted([*SERVICE.rglob("*.py"), *RULES.rglob("*.py")]):
        _visit(ast.parse(path.read_text(), str(path)), Scope(path, None), source)
    return source


def _visit(node: ast.AST, scope: Scope, source: Source) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            static = any(isinstance(d, ast.Name) and d.id == "staticmethod"
                         for d in child.decorator_list)
            _visit(child, Scope(scope.path, child, isinstance(node, ast.ClassDef) and not static),
                   source)
            continue
        if isinstance(child, ast.Call):
            name = _called_name(child.func)
            if name == "ServiceError":
                source.calls.append((child, scope))
            elif name is not None:
                source.callers.setdefault(name, []).append((child, scope))
        _visit(child, scope, source)


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _argument(call: ast.Call, index: int, name: str) -> ast.expr | None:
    if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:index]):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _parameter(expr: Expr) -> tuple[int, str, ast.expr | None] | None:
    """(position at a call, name, default) when `expr` is a parameter of its function."""
    function = expr.scope.function
    if not isinstance(expr.node, ast.Name) or function is None:
        return None
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += args.defaults
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        if arg.arg == expr.node.id:
            return i - (1 if expr.scope.method else 0), arg.arg, default
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if arg.arg == expr.node.id:
            return 1 << 30, arg.arg, kw_default
    return None


def _bind(expr: Expr, call: ast.Call, caller: Scope) -> Expr | None:
    """`expr` (a parameter) as the call `call` in `caller` passes it."""
    parameter = _parameter(expr)
    if parameter is None:
        return expr
    index, name, default = parameter
    given = _argument(call, index, name)
    if given is not None:
        return Expr(given, caller, expr.depth + 1)
    if default is not None:
        outer = Scope(expr.scope.path, None)
        return Expr(default, outer, expr.depth + 1)
    return None


def _cases(code: Expr, reason: Expr, source: Source) -> Iterator[tuple[Expr, Expr]]:
    """The (status, reason) pairs one ServiceError can be built with, before resolving names:
    `a if c else b` on both sides pairs up, and a parameter becomes each caller's argument."""
    if (isinstance(code.node, ast.IfExp) and isinstance(reason.node, ast.IfExp)
            and ast.dump(code.node.test) == ast.dump(reason.node.test)):
        yield from _cases(Expr(code.node.body, code.scope, code.depth),
                          Expr(reason.node.body, reason.scope, reason.depth), source)
        yield from _cases(Expr(code.node.orelse, code.scope, code.depth),
                          Expr(reason.node.orelse, reason.scope, reason.depth), source)
        return
    for side in (reason, code):
        if _parameter(side) is None or side.depth >= MAX_DEPTH:
            continue
        function = side.scope.function
        assert function is not None
        calls = source.callers.get(function.name, [])
        if not calls:
            break  # a helper nobody calls: its parameter stays unresolved
        for call, caller in calls:
            bound = [_bind(e, call, caller) if e.scope == side.scope else e
                     for e in (code, reason)]
            if bound[0] is not None and bound[1] is not None:
                yield from _cases(bound[0], bound[1], source)
        return
    yield code, reason


def _enum_of(node: ast.Attribute) -> str | None:
    """`ServiceReason` for `ServiceReason.X` and `errors.ServiceReason.X`."""
    if isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node.value, ast.Attribute):
        return node.value.attr
    return None


def _values(expr: Expr) -> list[str | Passthrough | Unresolved | Bare]:
    """What one expression can evaluate to: a reason or status name (an enum member's), or a
    string literal (`Bare`)."""
    node = expr.node
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [Bare(node.value)]
    if isinstance(node, ast.IfExp):
        return [*_values(Expr(node.body, expr.scope)), *_values(Expr(node.orelse, expr.scope))]
    if isinstance(node, ast.Attribute):
        if node.attr == "reason" or (node.attr == "value" and isinstance(node.value, ast.Attribute)
                                     and node.value.attr == "reason"):
            return [Passthrough()]
        if _enum_of(node) in ENUMS:  # Code.X, Reason.X, ServiceReason.X, errors.ServiceReason.X
            return [node.attr]
    if isinstance(node, ast.Name) and expr.scope.function is not None:
        assigned = [a.value for a in ast.walk(expr.scope.function) if isinstance(a, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)]
        if assigned:
            return [v for a in assigned for v in _values(Expr(a, expr.scope))]
    return [Unresolved(ast.unparse(node))]


@dataclass(frozen=True)
class Sent:
    where: str
    reason: str | Passthrough | Unresolved | Bare
    status: str | None  # None: not readable from the source


def _sent(source: Source | None = None) -> list[Sent]:
    """Every (reason, status) a ServiceError in the service's source can carry."""
    source = source or _read_source()
    out = []
    for call, scope in source.calls:
        code = _argument(call, 0, "code")
        reason = _argument(call, 1, "reason")
        if code is None or reason is None:
            out.append(Sent(scope.where(call), Unresolved(ast.unparse(call)), None))
            continue
        for code_expr, reason_expr in _cases(Expr(code, scope), Expr(reason, scope), source):
            where = reason_expr.scope.where(reason_expr.node)
            if reason_expr.scope != scope:  # a helper's caller chose the reason
                where += f" (through the ServiceError at {scope.where(call)})"
            for status, value in itertools.product(_values(code_expr), _values(reason_expr)):
                out.append(Sent(where, value, status if isinstance(status, str) else None))
    return out


# ---- the tests -------------------------------------------------------------------------

def test_the_scan_reads_the_reasons_the_service_sends() -> None:
    """The scan sees reasons sent directly, through helpers and through both branches of an
    if-expression, with their statuses (so the other tests cannot pass by reading nothing)."""
    sent = {(s.reason, s.status) for s in _sent()}
    assert ("GAME_NOT_FOUND", "NOT_FOUND") in sent  # errors.not_found()
    assert ("TOO_MANY_STREAMS", "RESOURCE_EXHAUSTED") in sent  # server/limits.py
    assert ("STALE_VERSION", "ABORTED") in sent  # operations/moves.py, through stale()
    assert ("WRONG_VARIANT", "INVALID_ARGUMENT") in sent  # operations/moves.py, an engine Reason
    assert {("MISSING_CREDENTIALS", "UNAUTHENTICATED"),
            ("WRONG_SEAT", "PERMISSION_DENIED")} <= sent  # campaigns.py, `a if c else b`
    assert (Passthrough(), "FAILED_PRECONDITION") in sent  # server/status.py, IllegalAction
    assert len(sent) > 30


def test_the_scan_tells_enum_members_from_strings_and_strangers() -> None:
    """On a made-up module: an enum member (plain or through its module) is read as its name,
    a string literal as `Bare`, and a member of some other class as unresolved."""
    text = (
        "def f(token):\n"
        "    ServiceError(Code.ABORTED, ServiceReason.STALE_VERSION, 'm')\n"
        "    ServiceError(Code.ABORTED, errors.ServiceReason.GAME_ROLLED_BACK, 'm')\n"
        "    ServiceError(Code.FAILED_PRECONDITION, Reason.GAME_OVER, 'm')\n"
        "    ServiceError(Code.ABORTED, 'STALE_VERSION', 'm')\n"
        "    ServiceError(Code.ABORTED, Other.STALE_VERSION, 'm')\n"
    )
    source = Source()
    _visit(ast.parse(text), Scope(SERVICE / "made_up.py", None), source)
    assert [(s.reason, s.status) for s in _sent(source)] == [
        ("STALE_VERSION", "ABORTED"), ("GAME_ROLLED_BACK", "ABORTED"),
        ("GAME_OVER", "FAILED_PRECONDITION"), (Bare("STALE_VERSION"), "ABORTED"),
        (Unresolved("Other.STALE_VERSION"), "ABORTED")]


def test_every_reason_the_service_sends_is_in_the_contract() -> None:
    """Each reason a ServiceError can carry is a value of errors.proto, listed with the status
    it is sent with; a reason the scan cannot read fails too."""
    service, rules = _contract("ServiceReason"), _contract("RuleReason")
    problems: list[str] = []
    missing: dict[str, tuple[str, str | None]] = {}
    for sent in _sent():
        if isinstance(sent.reason, Unresolved):
            problems.append(
                f"{sent.where}: the scan cannot tell which reason `{sent.reason.text}` is; pass "
                "a ServiceReason member or an engine Reason member (or a parameter whose "
                "callers do)")
            continue
        if isinstance(sent.reason, Bare):
            enum = "Reason" if sent.reason.text in {r.name for r in Reason} else "ServiceReason"
            problems.append(
                f"{sent.where} sends the string {sent.reason.text!r}: pass "
                f"{enum}.{sent.reason.text} instead, so a misspelt reason fails mypy")
            continue
        if isinstance(sent.reason, Passthrough):
            wrong = sorted(r for r, statuses in rules.items() if sent.status not in statuses)
            if sent.status is not None and wrong:
                problems.append(
                    f"{sent.where} passes an engine reason on with {sent.status}, which "
                    f"RuleReason values {wrong[:5]}... in {PROTO} do not list")
            continue
        statuses = service.get(sent.reason, rules.get(sent.reason))
        if statuses is None:
            missing.setdefault(sent.reason, (sent.where, sent.status))
        elif sent.status is not None and sent.status not in statuses:
            problems.append(
                f"{sent.where} sends {sent.reason} with {sent.status}, but {PROTO} lists it "
                f"with {statuses}: add `(status) = \"{sent.status}\"` to its value and "
                f"{REGENERATE}, or send it with a listed status")
    engine = {r.name for r in Reason}
    for reason in sorted(set(missing) & engine):
        where, status = missing.pop(reason)
        problems.append(
            f"{where} sends the engine's {reason}, which is not in the contract: add it to enum "
            f"RuleReason in {PROTO} with `(status) = \"{status}\"` (see "
            "test_every_engine_reason_is_a_rule_reason)")
    for taken, (reason, (where, status)) in enumerate(sorted(missing.items())):
        option = f' [(status) = "{status}"]' if status else ' [(status) = "<gRPC status>"]'
        problems.append(
            f"{where} sends {reason}, which is not in the contract: add "
            f"`{reason} = {_next_number('ServiceReason', taken)}{option};` to enum ServiceReason "
            f"in {PROTO} under a comment saying when it is sent, add `{reason} = \"{reason}\"` to "
            f"ServiceReason in service/risk_service/errors.py, {REGENERATE}")
    assert not problems, "\n".join(problems)


def test_every_engine_reason_is_a_rule_reason() -> None:
    """The engine's Reason enum and errors.proto's RuleReason hold the same names, each
    answered FAILED_PRECONDITION as server/status.py sends an IllegalAction."""
    rules = _contract("RuleReason")
    problems = [
        f"engine Reason.{r.name} ({ENGINE_ENUM}) is not in the contract: add `{r.name} = "
        f"{_next_number('RuleReason', taken)} [(status) = \"FAILED_PRECONDITION\"];` to enum "
        f"RuleReason in {PROTO} under a comment saying what the rules refuse, {REGENERATE}"
        for taken, r in enumerate(r for r in Reason if r.name not in rules)]
    problems += [f"RuleReason {name} in {PROTO} is no engine Reason: add it to {ENGINE_ENUM}"
                 for name in sorted(set(rules) - {r.name for r in Reason})]
    problems += [f"RuleReason {name} in {PROTO} lacks (status) = \"FAILED_PRECONDITION\""
                 for name, statuses in rules.items() if "FAILED_PRECONDITION" not in statuses]
    assert not problems, "\n".join(problems)


def test_python_service_reasons_are_the_contracts() -> None:
    """risk_service.errors.ServiceReason names exactly the values of risk.v1.ServiceReason, and
    no name is in both of the contract's enums."""
    contract, python = set(_contract("ServiceReason")), {r.value for r in ServiceReason}
    assert all(r.name == r.value for r in ServiceReason)
    problems = [f"{name} is in ServiceReason of {PROTO} but not of service/risk_service/errors.py: "
                f"add `{name} = \"{name}\"` there" for name in sorted(contract - python)]
    problems += [f"{name} is in ServiceReason of service/risk_service/errors.py but not of {PROTO}"
                 f": add it there with its (status) and a comment, {REGENERATE}"
                 for name in sorted(python - contract)]
    assert not problems, "\n".join(problems)
    assert not contract & set(_contract("RuleReason"))


def test_docs_errors_md_lists_every_reason_with_its_status() -> None:
    """docs/errors.md is generated from errors.proto and current: a row for every reason with
    its statuses, and docs/api.md points to it."""
    assert DOC.exists(), f"docs/errors.md is missing: {REGENERATE}"
    text = DOC.read_text()
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]*) \|", text, re.MULTILINE))
    problems = []
    for name, statuses in {**_contract("ServiceReason"), **_contract("RuleReason")}.items():
        listed = rows.get(name)
        if listed is None or sorted(re.findall(r"[A-Z_]+", listed)) != sorted(statuses):
            problems.append(f"docs/errors.md does not list {name} with {statuses}: {REGENERATE}")
    assert not problems, "\n".join(problems)
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_api_md_errors_table_agrees_with_the_contract() -> None:
    """docs/api.md's table of statuses names every service reason the code sends, each under a
    status errors.proto lists for it, and points to docs/errors.md for the rest."""
    text = (ROOT / "docs" / "api.md").read_text()
    errors = text[text.index("## Errors"):]
    errors = errors[:errors.index("\n## ", 1)]
    assert "docs/errors.md" in errors
    table = {reason: status for status, reasons in
             re.findall(r"^\| `([A-Z_]+)` \|[^|]*\| ([^|]*) \|$", errors, re.MULTILINE)
             for reason in re.findall(r"`([A-Z_]+)`", reasons)}
    contract = {**_contract("ServiceReason"), **_contract("RuleReason")}
    service = set(_contract("ServiceReason"))
    problems = [f"docs/api.md lists {reason} under {status}, but {PROTO} gives it "
                f"{contract.get(reason, 'no value')}"
                for reason, status in table.items() if status not in contract.get(reason, [])]
    sent = {s.reason for s in _sent() if isinstance(s.reason, str) and s.reason in service}
    problems += [f"docs/api.md's Errors table lacks {reason}: add it to the row of "
                 f"{_contract('ServiceReason')[reason][0]}" for reason in sorted(sent - set(table))]
    assert not problems, "\n".join(problems)
