"""Static checks of deploy/: the Dockerfile, .dockerignore, compose file and Kubernetes manifests.

There is no container engine or cluster here, so the files are parsed and checked against each
other and against the code they deploy (the settings the service reads, the packages pip needs).
test_runtime.py runs what they describe with real processes.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from risk_service.settings import Settings
from tests.deploy.manifests import (
    COMPOSE,
    DEPLOY,
    GRPC_PORT,
    REPO,
    DockerIgnore,
    K8sDoc,
    Stage,
    compose_env,
    container_ports,
    containers,
    healthcheck_command,
    listen_port,
    load_compose,
    load_dockerfile,
    load_k8s,
    of_kind,
    one,
    parse_copy,
    parse_duration,
    parse_redis_args,
    parse_redis_conf,
    parse_redis_url,
    pod_labels,
    pod_spec,
    redis_server_argv,
    resolve_port,
    selects,
    setting_env_names,
    settings_from,
    stage_env,
    walk,
    workloads,
)

REPLICAS = ("risk-a", "risk-b")
DNS_1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
KNOWN_KINDS = {
    ("v1", "ConfigMap"),
    ("v1", "Service"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
    ("policy/v1", "PodDisruptionBudget"),
    ("networking.k8s.io/v1", "NetworkPolicy"),
    ("networking.k8s.io/v1", "Ingress"),
}
PROBES = ("startupProbe", "readinessProbe", "livenessProbe")
PROBE_HANDLERS = {"grpc", "httpGet", "tcpSocket", "exec"}


@pytest.fixture(scope="module")
def stages() -> list[Stage]:
    return load_dockerfile()


@pytest.fixture(scope="module")
def final(stages: list[Stage]) -> Stage:
    return stages[-1]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load_compose()


@pytest.fixture(scope="module")
def docs() -> list[K8sDoc]:
    return load_k8s()


@pytest.fixture(scope="module")
def deployment(docs: list[K8sDoc]) -> K8sDoc:
    return one(docs, "Deployment", "risk-service")


@pytest.fixture(scope="module")
def container(deployment: K8sDoc) -> dict[str, Any]:
    (only,) = containers(deployment)
    return only


@pytest.fixture(scope="module")
def config(docs: list[K8sDoc], container: dict[str, Any]) -> dict[str, str]:
    """The data of the ConfigMap the service container takes its environment from."""
    names = [s["configMapRef"]["name"] for s in container["envFrom"] if "configMapRef" in s]
    assert len(names) == 1, f"expected one configMapRef in envFrom, found {names}"
    data: dict[str, str] = one(docs, "ConfigMap", names[0]).doc["data"]
    return data


def user_of(stage: Stage) -> str:
    users = stage.all("USER")
    assert users, "the final stage sets no USER: the container would run as root"
    return users[-1].args.strip()


# ---- settings ------------------------------------------------------------------------------


# settings whose values are checked when they are read
SAMPLES = {"organiser_token_sha256": "ab" * 32, "creator_token_sha256": "cd" * 32,
           "event_loop": "asyncio"}
SAMPLES["durability"] = "replica"  # a value the service accepts, unlike "sample-local"
SAMPLES["webhook_url"] = "https://hooks.example.test/risk"
SAMPLES["jwt_jwks"] = "/sample/jwks.json"
SAMPLES["match_bot_level"] = "planner"  # a level, unlike "sample-greedy"
# settings that are refused alone: what each needs beside it
COMPANIONS = {"webhook_url": {
                  "RISK_WEBHOOK_SECRET": "whsec_c2FtcGxlLXNlY3JldC1zYW1wbGUtc2VjcmV0LTMyYiE="},
              "jwt_jwks": {"RISK_JWT_ISSUER": "https://id.example.test",
                           "RISK_JWT_AUDIENCE": "risk"}}


def sample_value(default: object) -> str:
    """A string the service parses into a value different from `default`."""
    if isinstance(default, bool):
        return "false" if default else "true"
    if isinstance(default, int | float):
        return str(default + 7)
    if isinstance(default, Path):
        return f"/sample{default}"
    return f"sample-{default}"


def test_setting_names_follow_settings_fields() -> None:
    """Each name the deploy checks accept is read by `Settings.from_env` into its field."""
    defaults = Settings()
    names = setting_env_names()
    for f in fields(Settings):
        name = "REDIS_URL" if f.name == "redis_url" else f"RISK_{f.name.upper()}"
        assert name in names
        raw = SAMPLES.get(f.name) or sample_value(getattr(defaults, f.name))
        value = getattr(settings_from({name: raw, **COMPANIONS.get(f.name, {})}), f.name)
        assert value != getattr(defaults, f.name), f"{name} did not set {f.name}"
    assert len(names) == len(fields(Settings)) + 1


# ---- Dockerfile ----------------------------------------------------------------------------


def test_dockerfile_is_multi_stage_on_python_311(stages: list[Stage]) -> None:
    """Every stage builds on a python:3.11 image; the runtime stage is python:3.11-slim."""
    assert len(stages) >= 2, "the Dockerfile should build in one stage and run in another"
    names = {s.name for s in stages if s.name}
    for stage in stages:
        if stage.image in names:
            continue
        assert stage.image.startswith("python:3.11"), f"FROM {stage.image}"
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", stages[-1].image), stages[-1].image


def test_dockerfile_runs_as_non_root(final: Stage) -> None:
    """The runtime stage switches to a user that is not root."""
    user, _, group = user_of(final).partition(":")
    assert user not in ("", "root", "0"), f"USER {user_of(final)}"
    assert group not in ("root", "0"), f"USER {user_of(final)}"


def test_dockerfile_exposes_grpc_port_and_listens_on_it(final: Stage) -> None:
    """EXPOSE 50051, and RISK_LISTEN binds all interfaces on that port."""
    exposed = {int(p.split("/")[0]) for inst in final.all("EXPOSE") for p in inst.args.split()}
    assert exposed == {GRPC_PORT}
    env = stage_env(final)
    assert env.get("RISK_LISTEN") == f"0.0.0.0:{GRPC_PORT}"


def test_dockerfile_env_uses_real_settings(final: Stage) -> None:
    """Every RISK_* variable the image sets is a setting, and the service parses its value."""
    env = stage_env(final)
    risk = {k: v for k, v in env.items() if k.startswith("RISK_") or k == "REDIS_URL"}
    assert risk, "the image sets no RISK_* variable"
    assert set(risk) <= setting_env_names(), sorted(set(risk) - setting_env_names())
    settings_from(risk)


def test_dockerfile_entrypoint_runs_the_service(final: Stage) -> None:
    """ENTRYPOINT is exec-form `python -m risk_service`, with no CMD appending arguments."""
    (entrypoint,) = final.all("ENTRYPOINT")
    assert entrypoint.exec_form() == ["python", "-m", "risk_service"]
    assert not final.all("CMD"), "the service takes no arguments"
    assert importlib.util.find_spec("risk_service.__main__") is not None


def test_dockerfile_copy_sources_exist(stages: list[Stage]) -> None:
    """Every COPY source is in the build context (the repo root) or names an earlier stage."""
    earlier: set[str] = set()
    copies = 0
    for stage in stages:
        assert not stage.all("ADD"), "use COPY: ADD fetches URLs and unpacks archives"
        for inst in stage.all("COPY"):
            copy = parse_copy(inst)
            copies += 1
            if "from" in copy.flags:
                assert copy.flags["from"] in earlier, f"line {copy.line}: unknown stage"
                continue
            for source in copy.sources:
                assert (REPO / source).exists(), f"line {copy.line}: COPY {source}: not in repo"
        if stage.name:
            earlier.add(stage.name)
    assert copies


DISTRIBUTIONS = (".", "proto/python", "service/rules", "clients/python")


def pip_install_paths(stages: list[Stage]) -> tuple[Stage, list[str]]:
    """The build stage and the local paths its one `pip install` names."""
    found = [(stage, inst) for stage in stages for inst in stage.all("RUN")
             if "pip install" in inst.args]
    assert len(found) == 1, f"expected one pip install, found {len(found)}"
    stage, inst = found[0]
    command = inst.args.split("&&")[0].split()
    assert command[:2] == ["pip", "install"], command
    paths = [w.rstrip("/") for w in command[2:] if not w.startswith("-")]
    return stage, [p.removeprefix("./") or "." for p in paths]


@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
def test_dockerfile_installs_each_distribution_from_its_folder(
    stages: list[Stage], distribution: str
) -> None:
    """The image installs all four distributions (the service, risk-proto, risk-rules,
    risk-client) by path, and the build stage copies what each one's pip install reads: its
    pyproject, its readme and its package roots."""
    builder, installed = pip_install_paths(stages)
    assert distribution in installed, f"pip install does not name {distribution}: {installed}"
    root = REPO / distribution
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    project = pyproject["project"]
    find = pyproject.get("tool", {}).get("setuptools", {}).get("packages", {}).get("find", {})
    prefix = "" if distribution == "." else f"{distribution}/"
    needed = {f"{prefix}pyproject.toml", *(f"{prefix}{w}" for w in find.get("where", ["."]))}
    if isinstance(project.get("readme"), str):
        needed.add(f"{prefix}{project['readme']}")
    needed = {n.removesuffix("/.") for n in needed}
    copied = {
        source.rstrip("/").removeprefix("./")
        for inst in builder.all("COPY")
        for source in parse_copy(inst).sources
    }
    missing = {n for n in needed if not any(n == c or n.startswith(c + "/") for c in copied)}
    assert not missing, f"pip install {distribution} needs {sorted(missing)}, not copied"


def test_dockerfile_installs_the_siblings_each_distribution_needs(stages: list[Stage]) -> None:
    """Every `risk-*` requirement of an installed distribution is installed from the tree in
    the same command, so pip never looks for the project's own packages on an index."""
    _, installed = pip_install_paths(stages)
    names = {tomllib.loads((REPO / p / "pyproject.toml").read_text())["project"]["name"]: p
             for p in installed}
    for path in installed:
        project = tomllib.loads((REPO / path / "pyproject.toml").read_text())["project"]
        for requirement in project.get("dependencies", []):
            name = re.split(r"[<>=!~; \[]", requirement, maxsplit=1)[0]
            if name.startswith("risk-"):
                assert name in names, f"{path} needs {name}, which the image does not install"


def test_dockerfile_leaves_the_support_package_out(stages: list[Stage]) -> None:
    """The image ships the four distributions only: the tests' and benchmarks' support package
    (support/, risk-testing: service processes, Redis fault injection, raw clients) is neither
    copied into the build context's stages nor installed."""
    _, installed = pip_install_paths(stages)
    assert "support" not in installed, f"the image installs the support package: {installed}"
    copies = [parse_copy(inst) for stage in stages for inst in stage.all("COPY")]
    copied = [source.rstrip("/").removeprefix("./") or "."
              for copy in copies if "from" not in copy.flags for source in copy.sources]
    assert not [c for c in copied if c in (".", "support") or c.startswith("support/")], \
        f"a COPY brings support/ into the image: {copied}"
    for inst in (i for stage in stages for i in stage.all("RUN")):
        assert "risk-testing" not in inst.args and "risk_testing" not in inst.args, inst.args


def test_every_requirement_is_pinned_inside_its_range(stages: list[Stage]) -> None:
    """constraints.txt pins each third-party requirement of the four distributions, dev tools
    included, to a release inside its pyproject range, and the image's pip install and set-up
    install under it. A dependency added without `scripts/lock`, or a range moved past its
    pin, fails here rather than in a clean clone after an upstream release (redis-py 8.2
    annotating PubSub.aclose() turned a `type: ignore` into a mypy error that way)."""
    pins = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not name==version"
            pins[canonicalize_name(name)] = Version(version)
    for path in DISTRIBUTIONS:
        project = tomllib.loads((REPO / path / "pyproject.toml").read_text())["project"]
        wanted = [*project.get("dependencies", []),
                  *(r for group in project.get("optional-dependencies", {}).values()
                    for r in group)]
        for text in wanted:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            if name.startswith("risk-"):
                continue  # installed from the tree
            assert name in pins, f"{path}: {requirement.name} has no pin (run scripts/lock)"
            assert requirement.specifier.contains(pins[name], prereleases=True), \
                f"{path}: {name}=={pins[name]} is outside {requirement.specifier}"
    builder, _ = pip_install_paths(stages)
    install = next(i.args for i in builder.all("RUN") if "pip install" in i.args)
    assert "--constraint=constraints.txt" in install.split("&&")[0].split()
    assert any("constraints.txt" in parse_copy(i).sources for i in builder.all("COPY"))
    assert "--constraint constraints.txt" in (REPO / "scripts" / "setup").read_text()


def test_dockerfile_does_not_ship_the_build_stage(stages: list[Stage], final: Stage) -> None:
    """The runtime stage takes only the virtualenv from the build stage, not the sources."""
    for inst in final.all("COPY"):
        copy = parse_copy(inst)
        assert "from" in copy.flags, f"line {copy.line}: the runtime stage copies sources"
        assert copy.sources == ["/opt/venv"], copy.sources
    assert "/opt/venv/bin" in stage_env(final).get("PATH", "")


def test_dockerfile_healthcheck_asks_grpc_health(final: Stage) -> None:
    """HEALTHCHECK runs a python one-liner against grpc.health for the RiskService."""
    command = healthcheck_command(final)
    assert command[:2] == ["python", "-c"]
    assert "grpc_health" in command[2]
    assert "risk.v1.RiskService" in command[2]
    assert "RISK_LISTEN" in command[2], "the check should follow the configured port"


# ---- .dockerignore -------------------------------------------------------------------------


def test_dockerignore_keeps_every_build_input(stages: list[Stage]) -> None:
    """No file under a COPY source is excluded from the context (caches aside)."""
    ignore = DockerIgnore.load()
    checked = 0
    for stage in stages:
        for inst in stage.all("COPY"):
            copy = parse_copy(inst)
            if "from" in copy.flags:
                continue
            for source in copy.sources:
                root = REPO / source
                files = [root] if root.is_file() else sorted(root.rglob("*"))
                for path in files:
                    rel = path.relative_to(REPO).as_posix()
                    if path.is_dir() or "__pycache__" in rel.split("/") or ".egg-info" in rel:
                        continue
                    checked += 1
                    assert not ignore.excluded(rel), f".dockerignore drops {rel}, COPY needs it"
    assert checked > 50


@pytest.mark.parametrize(
    "path",
    [
        ".git/HEAD", ".venv/bin/python", "data/redis/appendonly.aof", ".mypy_cache/x",
        ".pytest_cache/v", ".ruff_cache/x", ".hypothesis/x", "tests/conftest.py",
        "service/risk_service/__pycache__/a.pyc", "risk_service.egg-info/PKG-INFO", ".env",
    ],
)
def test_dockerignore_excludes_local_state(path: str) -> None:
    """Local environments, data, caches, VCS and tests stay out of the build context."""
    assert DockerIgnore.load().excluded(path)


def test_dockerignore_matcher_follows_docker_rules(tmp_path: Path) -> None:
    """The checker's matcher: directory patterns cover their contents, `**`, last match wins."""
    rules = tmp_path / ".dockerignore"
    rules.write_text("data\n**/*.pyc\ndocs\n!docs/keep.md\n")
    ignore = DockerIgnore.load(rules)
    assert ignore.excluded("data/a/b")
    assert ignore.excluded("x/y/z.pyc")
    assert ignore.excluded("docs/other.md")
    assert not ignore.excluded("docs/keep.md")
    assert not ignore.excluded("database/x")


# ---- compose -------------------------------------------------------------------------------


def test_compose_has_redis_and_two_replicas(compose: dict[str, Any]) -> None:
    """Services: redis, risk-a and risk-b."""
    assert set(compose["services"]) == {"redis", *REPLICAS}


def test_compose_redis_is_durable(compose: dict[str, Any]) -> None:
    """Redis 7 with appendonly yes and appendfsync always, on a named volume, health-checked."""
    redis = compose["services"]["redis"]
    assert str(redis["image"]).startswith("redis:7")
    command = redis["command"]
    assert isinstance(command, list) and command[0] == "redis-server"
    conf = parse_redis_args([str(a) for a in command[1:]])
    assert conf.get("appendonly") == ["yes"]
    assert conf.get("appendfsync") == ["always"]
    assert conf.get("maxmemory-policy", ["noeviction"]) == ["noeviction"]
    data_dir = conf.get("dir", ["/data"])[0]
    mounts = {v.split(":")[1]: v.split(":")[0] for v in redis["volumes"]}
    assert data_dir in mounts, f"nothing is mounted at Redis' dir {data_dir}"
    assert mounts[data_dir] in (compose.get("volumes") or {}), "use a named, declared volume"
    assert "redis-cli" in redis["healthcheck"]["test"]
    assert "ping" in redis["healthcheck"]["test"]


@pytest.mark.parametrize("name", REPLICAS)
def test_compose_replica_builds_the_image(compose: dict[str, Any], name: str) -> None:
    """The replica is built from deploy/Dockerfile with the repository root as context."""
    build = compose["services"][name]["build"]
    context = (COMPOSE.parent / build["context"]).resolve()
    assert context == REPO
    assert (context / build["dockerfile"]).resolve() == (DEPLOY / "Dockerfile").resolve()


@pytest.mark.parametrize("name", REPLICAS)
def test_compose_replica_uses_the_redis_service(compose: dict[str, Any], name: str) -> None:
    """REDIS_URL names the redis service on its port, and the replica waits for it healthy."""
    service = compose["services"][name]
    url = parse_redis_url(compose_env(service)["REDIS_URL"])
    redis = compose["services"]["redis"]
    redis_port = int(parse_redis_args([str(a) for a in redis["command"][1:]])
                     .get("port", ["6379"])[0])
    assert (url.scheme, url.host, url.port) == ("redis", "redis", redis_port)
    assert service["depends_on"]["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", REPLICAS)
def test_compose_env_uses_real_settings(compose: dict[str, Any], name: str) -> None:
    """Every variable the replica sets is a Settings field (or REDIS_URL) and parses."""
    env = compose_env(compose["services"][name])
    unknown = set(env) - setting_env_names()
    assert not unknown, f"{name} sets variables the service does not read: {sorted(unknown)}"
    settings = settings_from(env)
    assert settings.redis_url, "the image has no redis-server: REDIS_URL is required"
    assert settings.log_level.upper() in logging.getLevelNamesMapping()


def test_compose_ports_are_unique_and_reach_the_service(
    compose: dict[str, Any], final: Stage
) -> None:
    """Host ports are unique (50051, 50052) and each maps to the port the service listens on."""
    host_ports: list[int] = []
    for name, service in compose["services"].items():
        for mapping in service.get("ports", []):
            host, _, target = str(mapping).rpartition(":")
            host_ports.append(int(host.rpartition(":")[2]))
            if name in REPLICAS:
                listen = compose_env(service).get("RISK_LISTEN") or stage_env(final)["RISK_LISTEN"]
                assert int(target) == listen_port(listen), f"{name}: {mapping}"
    assert len(host_ports) == len(set(host_ports)), f"duplicate host ports: {host_ports}"
    assert sorted(host_ports) == [50051, 50052]


@pytest.mark.parametrize("name", REPLICAS)
def test_compose_stop_grace_exceeds_shutdown_grace(compose: dict[str, Any], name: str) -> None:
    """Compose waits longer than RISK_SHUTDOWN_GRACE_S after SIGTERM before SIGKILL."""
    service = compose["services"][name]
    grace = settings_from(compose_env(service)).shutdown_grace_s
    assert parse_duration(service.get("stop_grace_period", "10s")) > grace


# ---- Kubernetes: every document ------------------------------------------------------------


def test_k8s_documents_are_well_formed(docs: list[K8sDoc]) -> None:
    """Each document has apiVersion, kind and a DNS-1123 metadata.name, and no namespace."""
    assert docs
    seen: set[tuple[str, str]] = set()
    for doc in docs:
        key = (str(doc.doc.get("apiVersion")), doc.kind)
        assert key in KNOWN_KINDS, f"{doc}: unexpected apiVersion/kind {key}"
        assert DNS_1123.fullmatch(doc.name) and len(doc.name) <= 63, f"{doc}: bad name"
        assert "namespace" not in doc.doc["metadata"], f"{doc}: manifests are namespace-less"
        assert (doc.kind, doc.name) not in seen, f"{doc}: duplicate"
        seen.add((doc.kind, doc.name))


def test_k8s_has_the_expected_objects(docs: list[K8sDoc]) -> None:
    """The service (Deployment, Services, ConfigMap, PDB, Ingress), the Redis Cluster
    (StatefulSet, its init Job, PDB) and the NetworkPolicies."""
    kinds = {d.kind for d in docs}
    assert {"Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "StatefulSet", "Job",
            "NetworkPolicy", "Ingress"} <= kinds
    assert [d.name for d in of_kind(docs, "StatefulSet")] == ["redis-cluster"]
    assert one(docs, "StatefulSet").path.name == "redis-cluster.yaml"
    assert one(docs, "Job").path.name == "redis-cluster-init.yaml"


def test_k8s_label_values_are_strings(docs: list[K8sDoc]) -> None:
    """Labels, selectors and ConfigMap data are strings (YAML reads `5` or `yes` otherwise)."""
    for doc in docs:
        for key, value in walk(doc.doc):
            if key not in ("labels", "matchLabels", "selector", "data"):
                continue
            if not isinstance(value, dict) or (key == "selector" and "matchLabels" in value):
                continue
            bad = {k: v for k, v in value.items() if not isinstance(v, str)}
            assert not bad, f"{doc}: {key} has non-string values {bad}"


@pytest.mark.parametrize("kind", ["Deployment", "StatefulSet"])
def test_workload_selector_matches_its_pod_labels(docs: list[K8sDoc], kind: str) -> None:
    """A workload's selector matches the labels of the pods it creates."""
    for workload in of_kind(docs, kind):
        selector = workload.doc["spec"]["selector"]
        assert set(selector) == {"matchLabels"}, f"{workload}: only matchLabels is checked"
        assert selects(selector["matchLabels"], pod_labels(workload)), str(workload)


def test_services_select_pods_and_target_declared_ports(docs: list[K8sDoc]) -> None:
    """Each Service selects one workload's pods and targets a port its container declares."""
    for service in of_kind(docs, "Service"):
        matches = [w for w in workloads(docs) if selects(service.doc["spec"]["selector"],
                                                         pod_labels(w))]
        assert len(matches) == 1, f"{service} selects {[str(m) for m in matches]}"
        for port in service.doc["spec"]["ports"]:
            target = port.get("targetPort", port["port"])
            declared = [resolve_port(c, target) for c in containers(matches[0])]
            assert any(declared), f"{service}: targetPort {target} is no container port"


def test_grpc_service_is_cluster_ip_on_named_port(docs: list[K8sDoc], deployment: K8sDoc) -> None:
    """Service risk-service: ClusterIP, port 50051 named grpc, selecting the Deployment's pods."""
    spec = one(docs, "Service", "risk-service").doc["spec"]
    assert spec.get("type", "ClusterIP") == "ClusterIP"
    assert spec.get("clusterIP") != "None"
    assert [(p["name"], p["port"]) for p in spec["ports"]] == [("grpc", GRPC_PORT)]
    assert selects(spec["selector"], pod_labels(deployment))


# ---- Kubernetes: the service Deployment ----------------------------------------------------


def test_deployment_runs_three_replicas_of_the_image(
    deployment: K8sDoc, container: dict[str, Any], config: dict[str, str]
) -> None:
    """Three replicas; the container declares port 50051 named grpc and the metrics port."""
    assert deployment.doc["spec"]["replicas"] == 3
    metrics = settings_from(config).metrics_port
    assert container_ports(container) == {"grpc": GRPC_PORT, "metrics": metrics}
    assert "image" in container
    assert "command" not in container and "args" not in container, "use the image ENTRYPOINT"


@pytest.mark.parametrize("probe", ["readinessProbe", "livenessProbe"])
def test_deployment_probes_are_grpc_on_50051(container: dict[str, Any], probe: str) -> None:
    """Readiness and liveness are native gRPC health probes on port 50051."""
    spec = container[probe]
    assert set(spec) & PROBE_HANDLERS == {"grpc"}, f"{probe} must use the grpc handler"
    assert spec["grpc"]["port"] == GRPC_PORT
    assert resolve_port(container, spec["grpc"]["port"]) == GRPC_PORT
    assert spec["grpc"].get("service", "") in ("", "risk.v1.RiskService")


def test_deployment_other_probes_are_grpc_too(container: dict[str, Any]) -> None:
    """Any further probe (startup) also uses gRPC health on a declared port."""
    for probe in PROBES:
        if probe in container:
            assert set(container[probe]) & PROBE_HANDLERS == {"grpc"}, probe
            assert resolve_port(container, container[probe]["grpc"]["port"]) == GRPC_PORT


def test_deployment_liveness_outlasts_readiness(container: dict[str, Any]) -> None:
    """Liveness gives up later than readiness: a Redis blip must not restart every pod."""
    def budget(spec: dict[str, Any]) -> int:
        return int(spec.get("periodSeconds", 10)) * int(spec.get("failureThreshold", 3))

    assert budget(container["livenessProbe"]) >= 4 * budget(container["readinessProbe"])


def test_deployment_is_non_root_with_read_only_root(
    deployment: K8sDoc, container: dict[str, Any], final: Stage
) -> None:
    """Pod runs as non-root (the image's uid), the root filesystem is read-only, no escalation."""
    pod = pod_spec(deployment).get("securityContext", {})
    box = container["securityContext"]
    assert pod.get("runAsNonRoot") is True or box.get("runAsNonRoot") is True
    uid = box.get("runAsUser", pod.get("runAsUser"))
    assert uid is not None and uid != 0
    image_user = user_of(final).partition(":")[0]
    assert str(uid) == image_user, f"runAsUser {uid} differs from the image's USER {image_user}"
    assert box["readOnlyRootFilesystem"] is True
    assert box["allowPrivilegeEscalation"] is False
    assert box.get("capabilities", {}).get("drop") == ["ALL"]


def test_deployment_has_resources(container: dict[str, Any]) -> None:
    """CPU and memory requests and a memory limit are set."""
    resources = container["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"])
    assert "memory" in resources["limits"]


def test_deployment_env_comes_from_the_configmap(
    docs: list[K8sDoc], container: dict[str, Any]
) -> None:
    """envFrom names an existing ConfigMap; any Secret is optional; explicit env are settings."""
    for source in container["envFrom"]:
        if "configMapRef" in source:
            one(docs, "ConfigMap", source["configMapRef"]["name"])
        else:
            assert source["secretRef"].get("optional") is True, "no Secret ships with deploy/"
    names = {e["name"] for e in container.get("env", [])}
    assert names <= setting_env_names(), sorted(names - setting_env_names())


def test_metrics_are_exposed_where_prometheus_looks(
    deployment: K8sDoc, config: dict[str, str]
) -> None:
    """The ConfigMap serves metrics on all interfaces, on the port the pod annotations name."""
    settings = settings_from(config)
    assert settings.metrics_port and settings.metrics_host == "0.0.0.0"
    annotations = deployment.doc["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(settings.metrics_port)
    assert annotations["prometheus.io/path"] == "/metrics"


def test_configmap_keys_are_real_settings(config: dict[str, str]) -> None:
    """Every ConfigMap key is a variable the service reads, and the service parses them all."""
    unknown = set(config) - setting_env_names()
    assert not unknown, f"ConfigMap keys the service does not read: {sorted(unknown)}"
    settings = settings_from(config)
    assert settings.redis_url, "the image has no redis-server: REDIS_URL is required"
    assert settings.listen == f"0.0.0.0:{GRPC_PORT}"
    assert settings.log_level.upper() in logging.getLevelNamesMapping()
    assert "RISK_SHUTDOWN_GRACE_S" in config, "the grace period is compared with the pod's"


def test_termination_grace_exceeds_shutdown_grace(
    deployment: K8sDoc, container: dict[str, Any], config: dict[str, str]
) -> None:
    """terminationGracePeriodSeconds covers the preStop pause plus RISK_SHUTDOWN_GRACE_S."""
    grace = settings_from(config).shutdown_grace_s
    pause = 0.0
    pre_stop = container.get("lifecycle", {}).get("preStop", {})
    if "exec" in pre_stop:
        command = pre_stop["exec"]["command"]
        assert command[0] == "sleep" and len(command) == 2, f"unrecognised preStop {command}"
        pause = float(command[1])
    elif "sleep" in pre_stop:
        pause = float(pre_stop["sleep"]["seconds"])
    period = pod_spec(deployment)["terminationGracePeriodSeconds"]
    assert period > pause + grace, f"{period}s <= preStop {pause}s + shutdown grace {grace}s"


def test_pdb_covers_the_deployment(docs: list[K8sDoc], deployment: K8sDoc) -> None:
    """The PodDisruptionBudget selects the Deployment's pods and still allows a disruption."""
    pdb = one(docs, "PodDisruptionBudget", "risk-service").doc["spec"]
    assert selects(pdb["selector"]["matchLabels"], pod_labels(deployment))
    replicas = deployment.doc["spec"]["replicas"]
    if "minAvailable" in pdb:
        assert 1 <= int(pdb["minAvailable"]) < replicas
    else:
        assert 1 <= int(pdb["maxUnavailable"]) < replicas


# ---- Kubernetes: Redis Cluster -------------------------------------------------------------


def redis_conf_of(docs: list[K8sDoc]) -> tuple[dict[str, list[str]], dict[str, Any], K8sDoc]:
    """The redis.conf the StatefulSet's container starts with (plus its command-line options),
    the container and the set."""
    statefulset = one(docs, "StatefulSet", "redis-cluster")
    (redis,) = containers(statefulset)
    command = redis_server_argv([*redis.get("command", []), *redis.get("args", [])])
    conf_path = command[1]
    volumes = {v["name"]: v for v in pod_spec(statefulset).get("volumes", [])}
    for mount in redis["volumeMounts"]:
        volume = volumes.get(mount["name"], {})
        if "configMap" not in volume:
            continue
        if mount["mountPath"] == conf_path and "subPath" in mount:
            key = mount["subPath"]
        elif conf_path.startswith(mount["mountPath"].rstrip("/") + "/"):
            key = conf_path.removeprefix(mount["mountPath"].rstrip("/") + "/")
        else:
            continue
        cm = one(docs, "ConfigMap", volume["configMap"]["name"])
        conf = parse_redis_conf(cm.doc["data"][key])
        conf.update(parse_redis_args(command[2:]))
        return conf, redis, statefulset
    raise AssertionError(f"{conf_path} is not mounted from a ConfigMap")


def test_redis_statefulset_enables_appendonly(docs: list[K8sDoc]) -> None:
    """The nodes' config turns on the AOF, fsyncs always and never evicts."""
    conf, _, _ = redis_conf_of(docs)
    assert conf["appendonly"] == ["yes"]
    assert conf["appendfsync"] == ["always"]
    assert conf.get("maxmemory-policy", ["noeviction"]) == ["noeviction"]


def test_redis_data_dir_is_a_persistent_volume(docs: list[K8sDoc]) -> None:
    """Six nodes; Redis' dir (AOF and nodes.conf) is on a volumeClaimTemplate per pod."""
    conf, redis, statefulset = redis_conf_of(docs)
    assert statefulset.doc["spec"]["replicas"] == 6
    claims = {c["metadata"]["name"] for c in statefulset.doc["spec"]["volumeClaimTemplates"]}
    mounts = {m["mountPath"].rstrip("/"): m["name"] for m in redis["volumeMounts"]}
    data_dir = conf["dir"][0].rstrip("/")
    assert mounts.get(data_dir) in claims, f"{data_dir} is not on a PersistentVolumeClaim"
    assert conf["cluster-config-file"][0].startswith(data_dir + "/"), "nodes.conf must persist"


def test_redis_statefulset_has_a_governing_service(docs: list[K8sDoc]) -> None:
    """serviceName names a headless Service that selects the Redis pods and publishes them
    before they are ready (the nodes must find each other to become ready)."""
    statefulset = one(docs, "StatefulSet", "redis-cluster")
    service = one(docs, "Service", statefulset.doc["spec"]["serviceName"])
    assert selects(service.doc["spec"]["selector"], pod_labels(statefulset))
    assert service.doc["spec"]["clusterIP"] == "None"
    assert service.doc["spec"]["publishNotReadyAddresses"] is True


def test_configmap_redis_url_reaches_redis(docs: list[K8sDoc], config: dict[str, str]) -> None:
    """REDIS_URL is rediss:// to a pod of the StatefulSet through its governing Service
    (`<set>-<ordinal>.<service>`), on the port Redis serves TLS on."""
    url = parse_redis_url(config["REDIS_URL"])
    assert url.scheme == "rediss", "the nodes serve TLS only"
    conf, redis, statefulset = redis_conf_of(docs)
    pod, service_name = url.host.split(".")[:2]
    set_name, _, ordinal = pod.rpartition("-")
    assert set_name == statefulset.name
    assert 0 <= int(ordinal) < statefulset.doc["spec"]["replicas"]
    assert service_name == statefulset.doc["spec"]["serviceName"]
    service = one(docs, "Service", service_name)
    (port,) = [p for p in service.doc["spec"]["ports"] if p["port"] == url.port]
    assert resolve_port(redis, port.get("targetPort", port["port"])) == int(conf["tls-port"][0])
    assert conf.get("port") == ["0"], "a plaintext port is open beside TLS"


def test_redis_pod_is_non_root_with_read_only_root(docs: list[K8sDoc]) -> None:
    """Redis runs as non-root with a read-only root filesystem (it writes only its volume)."""
    _, redis, statefulset = redis_conf_of(docs)
    pod = pod_spec(statefulset).get("securityContext", {})
    assert pod.get("runAsNonRoot") is True
    assert redis["securityContext"]["readOnlyRootFilesystem"] is True
    assert "resources" in redis


def test_deploy_readme_mentions_every_k8s_file() -> None:
    """deploy/README.md lists every manifest, so the documentation keeps up with the files."""
    readme = (DEPLOY / "README.md").read_text()
    for path in sorted((DEPLOY / "k8s").iterdir()):
        assert f"k8s/{path.name}" in readme, f"deploy/README.md does not mention k8s/{path.name}"
    assert os.path.basename(COMPOSE) in readme
