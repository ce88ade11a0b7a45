"""Readers for the deploy files: Dockerfile, .dockerignore, compose and Kubernetes YAML.

Small, strict parsers: they understand exactly the syntax the files use and fail loudly on
anything else, so a manifest the tests cannot read is a failing test rather than a skipped check.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from risk_service.settings import Settings

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"
COMPOSE = DEPLOY / "compose.yaml"
CLUSTER_COMPOSE = DEPLOY / "compose.cluster.yaml"
CLUSTER_CONF = DEPLOY / "redis" / "cluster.conf"
HAPROXY_CFG = DEPLOY / "haproxy.cfg"
MAKE_SECRETS = DEPLOY / "make-secrets.sh"
K8S = DEPLOY / "k8s"

GRPC_PORT = 50051

Doc = dict[str, Any]


# ---- settings ------------------------------------------------------------------------------


def setting_env_names() -> frozenset[str]:
    """Every environment variable `Settings.from_env` reads."""
    names = {f"RISK_{f.name.upper()}" for f in fields(Settings)}
    return frozenset(names | {"REDIS_URL"})


def settings_from(env: Mapping[str, str]) -> Settings:
    """Parse `env` as the service would (raises on a malformed value)."""
    return Settings.from_env(dict(env))


def listen_port(listen: str) -> int:
    return int(listen.rsplit(":", 1)[1])


# ---- Dockerfile ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, COPY, ...
    args: str  # the rest of the logical line, continuations joined
    line: int

    def exec_form(self) -> list[str] | None:
        """The JSON array form (`["a", "b"]`), or None for the shell form."""
        text = self.args.strip()
        if not text.startswith("["):
            return None
        value = json.loads(text)
        assert isinstance(value, list), f"line {self.line}: not a JSON array"
        assert all(isinstance(v, str) for v in value), f"line {self.line}: not all strings"
        return value


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]


def parse_dockerfile(text: str) -> list[Instruction]:
    """Logical instructions: comments dropped, backslash continuations joined."""
    out: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#") or (not line and not pending):
            continue  # comments (and parser directives) also vanish inside continuations
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1].strip())
            continue
        pending.append(line)
        logical = " ".join(p for p in pending if p)
        pending = []
        keyword, _, args = logical.partition(" ")
        out.append(Instruction(keyword.upper(), args.strip(), start))
    assert not pending, "Dockerfile ends inside a line continuation"
    return out


def dockerfile_stages(instructions: Iterable[Instruction]) -> list[Stage]:
    stages: list[Stage] = []
    for inst in instructions:
        if inst.keyword == "FROM":
            words = [w for w in inst.args.split() if not w.startswith("--")]
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            assert len(words) in (1, 3), f"line {inst.line}: unexpected FROM {inst.args!r}"
            stages.append(Stage(image=words[0], name=name))
        elif inst.keyword == "ARG" and not stages:
            continue
        else:
            assert stages, f"line {inst.line}: {inst.keyword} before the first FROM"
            stages[-1].instructions.append(inst)
    return stages


def load_dockerfile() -> list[Stage]:
    return dockerfile_stages(parse_dockerfile(DOCKERFILE.read_text()))


@dataclass(frozen=True)
class Copy:
    sources: list[str]
    dest: str
    flags: dict[str, str]
    line: int


def parse_copy(inst: Instruction) -> Copy:
    """COPY/ADD: `--flag=value ... src... dest`, shell or JSON form."""
    rest = inst.args.strip()
    flags: dict[str, str] = {}
    while rest.startswith("--"):
        word, _, rest = rest.partition(" ")
        key, _, value = word[2:].partition("=")
        flags[key] = value
        rest = rest.strip()
    array = Instruction(inst.keyword, rest, inst.line).exec_form()
    paths = array if array is not None else shlex.split(rest)
    assert len(paths) >= 2, f"line {inst.line}: {inst.keyword} needs a source and a destination"
    return Copy(sources=paths[:-1], dest=paths[-1], flags=flags, line=inst.line)


def parse_env(inst: Instruction) -> dict[str, str]:
    """ENV in `K=V K2="v 2"` form (or the legacy `K V`)."""
    words = shlex.split(inst.args)
    if words and "=" not in words[0]:
        return {words[0]: " ".join(words[1:])}
    env: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        assert sep, f"line {inst.line}: ENV word {word!r} is not KEY=VALUE"
        env[key] = value
    return env


def stage_env(stage: Stage) -> dict[str, str]:
    env: dict[str, str] = {}
    for inst in stage.all("ENV"):
        env.update(parse_env(inst))
    return env


def healthcheck_command(stage: Stage) -> list[str]:
    """The exec-form command of the stage's HEALTHCHECK."""
    (inst,) = stage.all("HEALTHCHECK")
    words = inst.args.split(" ")
    while words and words[0].startswith("--"):
        words.pop(0)
    assert words and words[0].upper() == "CMD", f"line {inst.line}: HEALTHCHECK without CMD"
    command = Instruction("CMD", " ".join(words[1:]), inst.line).exec_form()
    assert command is not None, f"line {inst.line}: HEALTHCHECK CMD should use the exec form"
    return command


# ---- .dockerignore -------------------------------------------------------------------------


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """Docker's pattern syntax: Go filepath.Match plus `**` for any number of directories."""
    out = ""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
            continue
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
            continue
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "[":
            end = pattern.index("]", i)
            out += "[" + pattern[i + 1 : end].replace("^", "\\^", 1) + "]"
            i = end
        else:
            out += re.escape(c)
        i += 1
    return re.compile(out)


@dataclass(frozen=True)
class DockerIgnore:
    rules: tuple[tuple[bool, re.Pattern[str]], ...]  # (negated, pattern)

    @classmethod
    def load(cls, path: Path = DOCKERIGNORE) -> DockerIgnore:
        rules = []
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            pattern = line[1:].strip() if negated else line
            pattern = pattern.strip("/").removeprefix("./")
            rules.append((negated, _pattern_regex(pattern)))
        return cls(tuple(rules))

    def excluded(self, path: str) -> bool:
        """Whether `path` (relative to the context, `/`-separated) stays out of the context.

        As in Docker, a pattern also matches everything under a matching directory, and the
        last matching pattern wins.
        """
        parts = path.strip("/").split("/")
        candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
        result = False
        for negated, regex in self.rules:
            if any(regex.fullmatch(c) for c in candidates):
                result = not negated
        return result


# ---- YAML ----------------------------------------------------------------------------------


def load_compose() -> Doc:
    doc = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


def compose_env(service: Doc) -> dict[str, str]:
    """A compose service's `environment`, in map or list form, as strings."""
    raw = service.get("environment") or {}
    if isinstance(raw, list):
        pairs = [item.partition("=") for item in raw]
        return {k: v for k, _, v in pairs}
    return {str(k): "" if v is None else str(v) for k, v in raw.items()}


def parse_duration(text: str | int | float) -> float:
    """Compose durations: `1m30s`, `15s`, `500ms`; a bare number is seconds."""
    if isinstance(text, int | float):
        return float(text)
    units = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    parts = re.findall(r"(\d+(?:\.\d+)?)(us|ms|s|m|h)", text)
    assert parts and "".join(n + u for n, u in parts) == text, f"bad duration {text!r}"
    return sum(float(n) * units[u] for n, u in parts)


@dataclass(frozen=True)
class K8sDoc:
    path: Path
    doc: Doc

    @property
    def kind(self) -> str:
        return str(self.doc.get("kind"))

    @property
    def name(self) -> str:
        return str(self.doc.get("metadata", {}).get("name"))

    def __str__(self) -> str:
        return f"{self.path.name}: {self.kind}/{self.name}"


def k8s_files() -> list[Path]:
    return sorted(p for p in K8S.iterdir() if p.suffix in (".yaml", ".yml"))


def load_k8s() -> list[K8sDoc]:
    out = []
    for path in k8s_files():
        for doc in yaml.safe_load_all(path.read_text()):
            if doc is not None:
                assert isinstance(doc, dict), f"{path.name}: a document is not a mapping"
                out.append(K8sDoc(path, doc))
    return out


def of_kind(docs: Iterable[K8sDoc], kind: str) -> list[K8sDoc]:
    return [d for d in docs if d.kind == kind]


def one(docs: Iterable[K8sDoc], kind: str, name: str | None = None) -> K8sDoc:
    found = [d for d in of_kind(docs, kind) if name is None or d.name == name]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {[str(d) for d in found]}"
    return found[0]


def pod_spec(workload: K8sDoc) -> Doc:
    spec: Doc = workload.doc["spec"]["template"]["spec"]
    return spec


def pod_labels(workload: K8sDoc) -> dict[str, str]:
    labels: dict[str, str] = workload.doc["spec"]["template"]["metadata"]["labels"]
    return labels


def containers(workload: K8sDoc) -> list[Doc]:
    found: list[Doc] = pod_spec(workload)["containers"]
    return found


def container_ports(container: Doc) -> dict[str, int]:
    """Container ports by name (unnamed ones under their number)."""
    return {
        str(p.get("name", p["containerPort"])): int(p["containerPort"])
        for p in container.get("ports", [])
    }


def resolve_port(container: Doc, port: int | str) -> int | None:
    """A port reference (number or name) as a declared container port number, or None."""
    ports = container_ports(container)
    if isinstance(port, str):
        return ports.get(port)
    return port if port in ports.values() else None


def selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def workloads(docs: Iterable[K8sDoc]) -> list[K8sDoc]:
    return [d for d in docs if d.kind in ("Deployment", "StatefulSet", "DaemonSet", "Job")]


def walk(value: object) -> Iterator[tuple[str, object]]:
    """Every (key, value) pair in a nested YAML document."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k), v
            yield from walk(v)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def parse_redis_conf(text: str) -> dict[str, list[str]]:
    """redis.conf directives (lower-cased names; later lines win), arguments unquoted."""
    conf: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, *args = shlex.split(line)
        conf[name.lower()] = args
    return conf


def parse_redis_args(args: list[str]) -> dict[str, list[str]]:
    """`redis-server --name value...` command-line options, as redis.conf directives."""
    conf: dict[str, list[str]] = {}
    current: str | None = None
    for arg in args:
        if arg.startswith("--"):
            current = arg[2:].lower()
            conf[current] = []
        else:
            assert current is not None, f"redis-server argument {arg!r} before any --option"
            conf[current].append(arg)
    return conf


@dataclass(frozen=True)
class RedisUrl:
    scheme: str
    host: str
    port: int
    db: int


def parse_redis_url(url: str) -> RedisUrl:
    parts = urlsplit(url)
    db = parts.path.strip("/")
    return RedisUrl(parts.scheme, parts.hostname or "", parts.port or 6379, int(db or 0))


# ---- images --------------------------------------------------------------------------------

# a release, not a moving tag: major.minor.patch (a suffix such as -slim-bookworm may follow)
_RELEASE_TAG = re.compile(r"\d+\.\d+\.\d+([-.][A-Za-z0-9.-]+)?")


def image_pinned(image: str) -> bool:
    """`name@sha256:...`, or `name:X.Y.Z[-variant]`; never `latest`, a bare major or no tag."""
    if re.search(r"@sha256:[0-9a-f]{64}$", image):
        return True
    name, _, tag = image.rpartition(":")
    return bool(name) and "/" not in tag and _RELEASE_TAG.fullmatch(tag) is not None


# ---- shell commands in manifests -----------------------------------------------------------


def redis_server_argv(command: list[str]) -> list[str]:
    """redis-server's argv from a container command: direct, or `sh -c "exec redis-server ..."`
    (words such as "$(cat FILE)" kept whole, as the shell would pass them)."""
    if command[:2] == ["sh", "-c"]:
        (script,) = command[2:]
        words = shlex.split(script.strip().replace("$$", "$"))
        assert words[0] == "exec", f"the script should exec redis-server: {script!r}"
        command = words[1:]
    assert command[0] == "redis-server", command
    return command


def cli_option(script: str, option: str) -> str:
    """The value after `option` in a shell script (e.g. `--cluster-replicas`)."""
    found = re.findall(rf"{re.escape(option)}\s+(\S+)", script)
    assert len(found) == 1, f"{option} appears {len(found)} times"
    return found[0]


# ---- Kubernetes references -----------------------------------------------------------------


@dataclass(frozen=True)
class SecretRef:
    name: str
    keys: frozenset[str]  # the keys read (empty: the whole Secret, e.g. envFrom or a volume)
    optional: bool
    where: str


def secret_refs(workload: K8sDoc) -> list[SecretRef]:
    """Every Secret a workload's pods read: volumes, envFrom, env valueFrom."""
    refs: list[SecretRef] = []
    spec = pod_spec(workload)
    for volume in spec.get("volumes", []):
        if "secret" in volume:
            secret = volume["secret"]
            keys = frozenset(i["key"] for i in secret.get("items", []))
            refs.append(SecretRef(secret["secretName"], keys, bool(secret.get("optional")),
                                  f"{workload}: volume {volume['name']}"))
    for container in [*spec.get("initContainers", []), *spec["containers"]]:
        for source in container.get("envFrom", []):
            if "secretRef" in source:
                ref = source["secretRef"]
                refs.append(SecretRef(ref["name"], frozenset(), bool(ref.get("optional")),
                                      f"{workload}: envFrom"))
        for env in container.get("env", []):
            ref = env.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                refs.append(SecretRef(ref["name"], frozenset({ref["key"]}),
                                      bool(ref.get("optional")), f"{workload}: env {env['name']}"))
    return refs


def secret_mount_paths(workload: K8sDoc) -> dict[str, tuple[str, frozenset[str] | None]]:
    """Mount path -> (Secret name, keys it projects; None: all) for a workload's containers."""
    volumes = {v["name"]: v["secret"] for v in pod_spec(workload).get("volumes", [])
               if "secret" in v}
    out: dict[str, tuple[str, frozenset[str] | None]] = {}
    for container in containers(workload):
        for mount in container.get("volumeMounts", []):
            secret = volumes.get(mount["name"])
            if secret is not None:
                items = secret.get("items")
                keys = frozenset(i["path"] for i in items) if items else None
                out[mount["mountPath"].rstrip("/")] = (secret["secretName"], keys)
    return out


# ---- NetworkPolicy -------------------------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    """A pod as a NetworkPolicy sees it: its labels and its namespace's labels."""

    labels: Mapping[str, str]
    namespace: Mapping[str, str] = field(default_factory=dict)  # empty: the policy's own

    @property
    def same_namespace(self) -> bool:
        return not self.namespace


def _label_selector_matches(selector: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist); {} matches all."""
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr["key"], expr["operator"], expr.get("values", [])
        present = key in labels
        if (op == "In" and labels.get(key) not in values) or \
           (op == "NotIn" and present and labels[key] in values) or \
           (op == "Exists" and not present) or (op == "DoesNotExist" and present):
            return False
    return True


def _peer_matches(rule_peer: Mapping[str, Any], peer: Peer) -> bool:
    assert "ipBlock" not in rule_peer, "ipBlock peers are not evaluated here"
    pods = rule_peer.get("podSelector")
    namespaces = rule_peer.get("namespaceSelector")
    if namespaces is None:  # podSelector alone: pods of the policy's namespace
        return peer.same_namespace and _label_selector_matches(pods or {}, peer.labels)
    if peer.same_namespace:
        return False  # the manifests' namespace is not known; it carries no labels we rely on
    return (_label_selector_matches(namespaces, peer.namespace)
            and _label_selector_matches(pods or {}, peer.labels))


def _port_matches(rule_ports: list[Mapping[str, Any]] | None, port: int,
                  named: Mapping[str, int]) -> bool:
    if not rule_ports:
        return True  # no ports: every port
    for entry in rule_ports:
        wanted = entry.get("port")
        if wanted is None or (isinstance(wanted, str) and named.get(wanted) == port) or \
           wanted == port:
            return True
    return False


def ingress_allowed(policies: Iterable[K8sDoc], target: K8sDoc, source: Peer,
                    port: int) -> bool:
    """Whether `source` may open a connection to `target`'s pods on `port` (ingress side):
    allowed when no policy isolates those pods for ingress, or some rule of one that does
    lets the source in on that port (named ports resolve against the target's containers)."""
    labels = pod_labels(target)
    named = {name: number for c in containers(target) for name, number
             in container_ports(c).items()}
    isolating = [p.doc["spec"] for p in policies
                 if _label_selector_matches(p.doc["spec"]["podSelector"], labels)
                 and "Ingress" in p.doc["spec"].get("policyTypes", ["Ingress"])]
    if not isolating:
        return True
    return any(
        (not rule.get("from") or any(_peer_matches(f, source) for f in rule["from"]))
        and _port_matches(rule.get("ports"), port, named)
        for spec in isolating for rule in spec.get("ingress") or []
    )


def egress_allowed(policies: Iterable[K8sDoc], source: K8sDoc, target: Peer,
                   port: int) -> bool:
    """Whether `source`'s pods may connect out to `target` on `port` (egress side)."""
    labels = pod_labels(source)
    isolating = [p.doc["spec"] for p in policies
                 if _label_selector_matches(p.doc["spec"]["podSelector"], labels)
                 and "Egress" in p.doc["spec"].get("policyTypes", [])]
    if not isolating:
        return True
    return any(
        (not rule.get("to") or any(_peer_matches(t, target) for t in rule["to"]))
        and _port_matches(rule.get("ports"), port, {})
        for spec in isolating for rule in spec.get("egress") or []
    )
