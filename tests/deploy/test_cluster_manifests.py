"""Static checks of the cluster deployment: compose.cluster.yaml, haproxy.cfg, the Redis node
config, make-secrets.sh and the Kubernetes manifests, against each other, the settings the
service reads and the Kubernetes API schema (kubernetes-validate ships it; no cluster needed).

The same files run with real processes in test_cluster_topology.py.
"""

from __future__ import annotations

import copy
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from tests.deploy.cluster_harness import node_services, shell_script
from tests.deploy.manifests import (
    CLUSTER_COMPOSE,
    CLUSTER_CONF,
    COMPOSE,
    DEPLOY,
    GRPC_PORT,
    HAPROXY_CFG,
    MAKE_SECRETS,
    K8sDoc,
    Peer,
    cli_option,
    compose_env,
    container_ports,
    containers,
    egress_allowed,
    image_pinned,
    ingress_allowed,
    listen_port,
    load_dockerfile,
    load_k8s,
    of_kind,
    one,
    parse_redis_conf,
    parse_redis_url,
    pod_labels,
    pod_spec,
    redis_server_argv,
    secret_mount_paths,
    secret_refs,
    setting_env_names,
    settings_from,
    workloads,
)

K8S_VERSION = "1.33"  # the oldest Kubernetes release these manifests are written for
INGRESS = Peer({"app.kubernetes.io/name": "ingress-nginx"},
               {"kubernetes.io/metadata.name": "ingress-nginx"})
PROMETHEUS = Peer({"app.kubernetes.io/name": "prometheus"},
                  {"kubernetes.io/metadata.name": "monitoring"})
STRANGER = Peer({"app.kubernetes.io/name": "something-else"})  # any other pod of the namespace
OUTSIDE = Peer({"app": "web"}, {"kubernetes.io/metadata.name": "default"})
# Secrets the manifests use that the operator provides (deploy/README.md says how)
PROVIDED_ELSEWHERE = {"risk-service-ingress-tls"}


@pytest.fixture(scope="module")
def cluster_compose() -> dict[str, Any]:
    doc = yaml.safe_load(CLUSTER_COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


@pytest.fixture(scope="module")
def docs() -> list[K8sDoc]:
    return load_k8s()


@pytest.fixture(scope="module")
def made_secrets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """deploy/make-secrets.sh, run for real into a temporary folder."""
    out = tmp_path_factory.mktemp("secrets") / "secrets"
    done = subprocess.run(["bash", str(MAKE_SECRETS), str(out), "risk"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    yield out


# ---- Kubernetes schema ---------------------------------------------------------------------


def test_k8s_documents_validate_against_the_api_schema(docs: list[K8sDoc]) -> None:
    """Every document is valid for its kind in Kubernetes' own OpenAPI schema, strictly (no
    unknown fields)."""
    for doc in docs:
        try:
            kubernetes_validate.validate(doc.doc, K8S_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            raise AssertionError(f"{doc}: {exc.message} at {list(exc.path)}") from None


def test_schema_check_catches_a_misspelt_field(docs: list[K8sDoc]) -> None:
    """The schema check is not vacuous: a misspelt field or a wrong type is refused."""
    deployment = copy.deepcopy(one(docs, "Deployment", "risk-service").doc)
    deployment["spec"]["replica"] = 3
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)
    deployment = copy.deepcopy(one(docs, "Deployment", "risk-service").doc)
    deployment["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)


# ---- images --------------------------------------------------------------------------------


def test_image_pin_rule() -> None:
    """What counts as pinned: a release tag or a digest; not latest, a major or no tag."""
    assert image_pinned("redis:7.4.2")
    assert image_pinned("python:3.11.11-slim-bookworm")
    assert image_pinned("haproxy@sha256:" + "a" * 64)
    for loose in ("redis", "redis:7", "redis:latest", "python:3.11-slim", "haproxy:3.0"):
        assert not image_pinned(loose), loose


def test_every_image_is_pinned(docs: list[K8sDoc], cluster_compose: dict[str, Any]) -> None:
    """Kubernetes containers, both compose files and the Dockerfile's bases name a release
    or a digest, never `latest` or a moving tag."""
    images = [(str(w), c["image"]) for w in workloads(docs) for c in
              [*pod_spec(w).get("initContainers", []), *containers(w)]]
    for path in (COMPOSE, CLUSTER_COMPOSE):
        compose = yaml.safe_load(path.read_text())
        images += [(f"{path.name}: {n}", s["image"]) for n, s in compose["services"].items()
                   if "image" in s and "build" not in s]
    images += [(f"Dockerfile FROM {s.image}", s.image) for s in load_dockerfile()
               if s.image not in {t.name for t in load_dockerfile()}]
    loose = [(where, image) for where, image in images if not image_pinned(image)]
    assert not loose, loose
    assert len(images) >= 8


# ---- settings ------------------------------------------------------------------------------


def test_cluster_compose_env_names_are_settings(cluster_compose: dict[str, Any]) -> None:
    """The replicas' variables are settings the service reads, and the service parses them."""
    env = compose_env(cluster_compose["services"]["risk"])
    unknown = set(env) - setting_env_names()
    assert not unknown, sorted(unknown)
    settings = settings_from(env)
    assert settings.redis_username == "risk"
    assert settings.redis_tls_check_hostname, "hostnames are verified"


def test_both_deployments_run_the_cluster_support_alike(
    cluster_compose: dict[str, Any], docs: list[K8sDoc]
) -> None:
    """compose and the Kubernetes ConfigMap give the replicas the same cluster settings: a
    Redis Cluster, acknowledged only once a replica has the write (WAIT), one process per
    replica (the orchestrator scales), over TLS as `risk`, and the service accepts that
    combination at start-up."""
    (container,) = containers(one(docs, "Deployment", "risk-service"))
    (name,) = [s["configMapRef"]["name"] for s in container["envFrom"] if "configMapRef" in s]
    for env in (one(docs, "ConfigMap", name).doc["data"],
                compose_env(cluster_compose["services"]["risk"])):
        settings = settings_from(env)
        assert settings.redis_cluster and settings.durability == "replica", env
        assert settings.workers == 1, env
        assert settings.redis_url.startswith("rediss://") and settings.redis_username == "risk"
        settings.check_redis()


def test_service_settings_name_files_that_are_mounted(
    cluster_compose: dict[str, Any], docs: list[K8sDoc]
) -> None:
    """Each RISK_*_FILE of the replicas is a file their secrets put there: in compose a
    secret's target, in Kubernetes a key of the Secret mounted at that folder."""
    service = cluster_compose["services"]["risk"]
    targets = {s["target"] for s in service["secrets"]}
    files = {k: v for k, v in compose_env(service).items() if k.endswith("_FILE")}
    assert len(files) == 4 and set(files.values()) <= targets, (files, targets)
    deployment = one(docs, "Deployment", "risk-service")
    (container,) = containers(deployment)
    (name,) = [s["configMapRef"]["name"] for s in container["envFrom"] if "configMapRef" in s]
    config = one(docs, "ConfigMap", name).doc["data"]
    mounts = secret_mount_paths(deployment)
    for key, path in ((k, v) for k, v in config.items() if k.endswith("_FILE")):
        folder, _, file = path.rpartition("/")
        assert folder in mounts, f"{key}={path}: nothing is mounted at {folder}"
        secret, keys = mounts[folder]
        assert keys is None or file in keys, f"{key}: {secret} does not project {file}"


# ---- compose: the cluster ------------------------------------------------------------------


def test_compose_cluster_is_three_masters_and_three_replicas(
    cluster_compose: dict[str, Any]
) -> None:
    """Six nodes on one config; the init job creates the cluster over all six with one
    replica per master (6 / (1 + 1) = 3 masters), after every node is healthy, and the
    replicas start once it has finished."""
    nodes = node_services(cluster_compose)
    assert len(nodes) == 6
    init = cluster_compose["services"]["redis-cluster-init"]
    script = shell_script(init)
    replicas = int(cli_option(script, "--cluster-replicas"))
    assert replicas == 1 and len(nodes) // (replicas + 1) == 3
    hosts = re.findall(r"for host in ([^;]+);", script)
    assert hosts and hosts[0].split() == sorted(nodes), hosts
    assert {n: c["condition"] for n, c in init["depends_on"].items()} == dict.fromkeys(
        nodes, "service_healthy")
    assert cluster_compose["services"]["risk"]["depends_on"]["redis-cluster-init"][
        "condition"] == "service_completed_successfully"
    for name, node in nodes.items():
        argv = redis_server_argv([*node["entrypoint"], *node["command"]])
        conf = compose_env(node).get(argv[1][1:], argv[1])
        assert conf == "/etc/redis/redis.conf"
        assert [c["target"] for c in node["configs"]] == [conf]
        assert argv[argv.index("--cluster-announce-hostname") + 1] == node["hostname"] == name
        assert "redis-healthcheck" not in node, "the health check comes from the anchor"
        assert node["volumes"] == [f"{name}:/data"], "each node keeps its own AOF and nodes.conf"


def test_compose_and_k8s_run_the_same_node_config(docs: list[K8sDoc]) -> None:
    """The ConfigMap's redis.conf is deploy/redis/cluster.conf, byte for byte."""
    config = one(docs, "ConfigMap", "redis-cluster-config").doc["data"]["redis.conf"]
    assert config == CLUSTER_CONF.read_text()


def test_node_config_is_tls_only_with_users(docs: list[K8sDoc]) -> None:
    """No plaintext port, TLS on the client, replication and bus links with client
    certificates required, an ACL file, cluster mode with hostnames announced, AOF always."""
    conf = parse_redis_conf(CLUSTER_CONF.read_text())
    assert conf["port"] == ["0"] and conf["tls-port"] == ["6379"]
    for key in ("tls-auth-clients", "tls-replication", "tls-cluster", "cluster-enabled",
                "appendonly"):
        assert conf[key] == ["yes"], key
    assert conf["cluster-preferred-endpoint-type"] == ["hostname"]
    assert conf["appendfsync"] == ["always"]
    assert conf["masteruser"] == ["admin"]
    assert "masterauth" not in conf and "requirepass" not in conf, "no secret in the config"
    statefulset = one(docs, "StatefulSet", "redis-cluster")
    (redis,) = containers(statefulset)
    ports = container_ports(redis)
    assert ports == {"redis": 6379, "bus": 16379}, "the bus is the TLS port + 10000"


def test_compose_publishes_one_port_and_keeps_redis_internal(
    cluster_compose: dict[str, Any]
) -> None:
    """Only grpc-lb publishes a port (50051); Redis is on an internal network that only the
    nodes, their init job and the replicas join."""
    services = cluster_compose["services"]
    published = {n: s["ports"] for n, s in services.items() if s.get("ports")}
    assert published == {"grpc-lb": ["50051:50051"]}
    assert cluster_compose["networks"]["redis"]["internal"] is True
    on_redis = {n for n, s in services.items() if "redis" in s.get("networks", [])}
    assert on_redis == {*node_services(cluster_compose), "redis-cluster-init", "risk"}
    assert "redis" not in services["grpc-lb"]["networks"]


def test_haproxy_sends_calls_to_the_replicas_port(cluster_compose: dict[str, Any]) -> None:
    """haproxy.cfg binds the published port with HTTP/2 and balances over the `risk`
    service's name on the port the replicas listen on, speaking HTTP/2 (gRPC) to them."""
    cfg = HAPROXY_CFG.read_text()
    services = cluster_compose["services"]
    assert [c["target"] for c in services["grpc-lb"]["configs"]] == [
        "/usr/local/etc/haproxy/haproxy.cfg"]
    (bind,) = re.findall(r"^\s*bind :(\d+) (.*)$", cfg, flags=re.M)
    published = services["grpc-lb"]["ports"][0].split(":")
    assert bind[0] == published[1] and "proto h2" in bind[1]
    (server,) = re.findall(r"^\s*server-template \S+ (\d+) (\S+):(\d+) (.*)$", cfg, flags=re.M)
    count, host, port, options = server
    assert host in services and host == "risk"
    listen = compose_env(services["risk"])["RISK_LISTEN"]
    assert int(port) == listen_port(listen) == GRPC_PORT
    assert services["risk"]["expose"] == [port]
    assert "proto h2" in options and "resolvers docker" in options
    assert int(count) >= services["risk"]["deploy"]["replicas"]
    assert "mode http" in cfg, "per-call balancing needs HTTP mode"


def test_compose_replicas_url_names_a_node(cluster_compose: dict[str, Any]) -> None:
    """REDIS_URL is rediss:// to a node's hostname, on the port the nodes serve TLS on."""
    url = parse_redis_url(compose_env(cluster_compose["services"]["risk"])["REDIS_URL"])
    assert url.scheme == "rediss"
    assert url.host in node_services(cluster_compose)
    assert [str(url.port)] == parse_redis_conf(CLUSTER_CONF.read_text())["tls-port"]


# ---- secrets -------------------------------------------------------------------------------


def test_compose_secrets_are_what_make_secrets_writes(
    cluster_compose: dict[str, Any], made_secrets: Path
) -> None:
    """Every compose secret is a file deploy/make-secrets.sh writes into deploy/secrets, and
    every secret a service uses is declared."""
    declared = cluster_compose["secrets"]
    for name, secret in declared.items():
        path = Path(secret["file"])
        assert path.parent == Path("./secrets") or str(path.parent) == "secrets", name
        assert (made_secrets / path.name).is_file(), f"{name}: make-secrets writes no {path}"
    for service in cluster_compose["services"].values():
        for entry in service.get("secrets", []):
            assert entry["source"] in declared, entry


def test_k8s_secrets_referenced_are_made_with_the_keys_used(
    docs: list[K8sDoc], made_secrets: Path
) -> None:
    """Every Secret a workload reads is one of make-secrets.sh's (with the keys read, and the
    files a mounted folder is expected to hold), optional, or the Ingress certificate."""
    generated = [d for d in yaml.safe_load_all((made_secrets / "kubernetes.yaml").read_text())
                 if d]
    for secret in generated:
        kubernetes_validate.validate(secret, K8S_VERSION, strict=True)
    made = {d["metadata"]["name"]: set(d["data"]) for d in generated}
    assert set(made) == {"redis-tls", "redis-acl", "risk-redis-client"}
    used: set[str] = set()
    files_checked = 0
    for workload in workloads(docs):
        for ref in secret_refs(workload):
            used.add(ref.name)
            if ref.optional:
                continue
            assert ref.name in made, f"{ref.where}: Secret {ref.name} is made by nothing"
            assert ref.keys <= made[ref.name], f"{ref.where}: {ref.keys - made[ref.name]}"
        # files the pods' commands and probes read from a mounted Secret are keys of it
        text = str(pod_spec(workload))
        for folder, (secret, _keys) in secret_mount_paths(workload).items():
            for file in re.findall(rf"{re.escape(folder)}/([\w.-]+)", text):
                assert file in made[secret], f"{workload}: {folder}/{file} not in {secret}"
                files_checked += 1
    assert set(made) <= used, f"made but never used: {set(made) - used}"
    assert files_checked >= 8, files_checked
    for ingress in of_kind(docs, "Ingress"):
        for tls in ingress.doc["spec"].get("tls", []):
            assert tls["secretName"] in PROVIDED_ELSEWHERE
            assert tls["secretName"] in (DEPLOY / "README.md").read_text()


def test_made_certificates_name_every_redis_host(
    made_secrets: Path, cluster_compose: dict[str, Any], docs: list[K8sDoc]
) -> None:
    """The nodes' certificate carries each name a client verifies: compose's hostnames and
    the StatefulSet's `<pod>.<service>` names (announced with --cluster-announce-hostname)."""
    text = subprocess.run(
        ["openssl", "x509", "-in", str(made_secrets / "redis.crt"), "-noout", "-ext",
         "subjectAltName"], capture_output=True, text=True, check=True, timeout=30).stdout
    names = set(re.findall(r"DNS:([^,\s]+)", text))
    assert set(node_services(cluster_compose)) <= names
    statefulset = one(docs, "StatefulSet", "redis-cluster")
    (redis,) = containers(statefulset)
    argv = redis_server_argv([*redis["command"], *redis["args"]])
    announced = argv[argv.index("--cluster-announce-hostname") + 1]
    assert announced == f"$POD_NAME.{statefulset.doc['spec']['serviceName']}"
    assert f"*.{statefulset.doc['spec']['serviceName']}" in names
    verify = subprocess.run(["openssl", "verify", "-CAfile", str(made_secrets / "ca.crt"),
                             str(made_secrets / "redis.crt"), str(made_secrets / "client.crt")],
                            capture_output=True, text=True, timeout=30, check=False)
    assert verify.returncode == 0, verify.stdout + verify.stderr


# ---- Kubernetes: the init Job --------------------------------------------------------------


def test_init_job_forms_the_statefulset_into_three_plus_three(docs: list[K8sDoc]) -> None:
    """The Job walks every ordinal of the StatefulSet through its governing Service and
    creates the cluster with one replica per master."""
    statefulset = one(docs, "StatefulSet", "redis-cluster")
    job = one(docs, "Job", "redis-cluster-init")
    (container,) = containers(job)
    script = container["args"][0]
    replicas = statefulset.doc["spec"]["replicas"]
    (ordinals,) = re.findall(r"for i in ([\d ]+);", script)
    assert [int(i) for i in ordinals.split()] == list(range(replicas))
    assert f"host=redis-cluster-$i.{statefulset.doc['spec']['serviceName']}" in script
    assert int(cli_option(script, "--cluster-replicas")) == 1 and replicas // 2 == 3
    assert container["image"] == containers(statefulset)[0]["image"], "same redis-cli"
    assert pod_spec(job)["restartPolicy"] == "OnFailure"


# ---- Kubernetes: NetworkPolicy -------------------------------------------------------------


def test_network_policies_each_select_a_workload(docs: list[K8sDoc]) -> None:
    """No policy selects nothing (a typo in a label would leave pods open)."""
    for policy in of_kind(docs, "NetworkPolicy"):
        selector = policy.doc["spec"]["podSelector"]["matchLabels"]
        assert any(all(pod_labels(w).get(k) == v for k, v in selector.items())
                   for w in workloads(docs)), str(policy)


def test_only_the_service_and_the_cluster_reach_redis(docs: list[K8sDoc]) -> None:
    """Redis' client port admits the service's pods, its own nodes and the init Job; not
    another pod of the namespace, the ingress controller, nor pods of other namespaces."""
    policies = of_kind(docs, "NetworkPolicy")
    redis = one(docs, "StatefulSet", "redis-cluster")
    service = one(docs, "Deployment", "risk-service")
    job = one(docs, "Job", "redis-cluster-init")
    for allowed in (service, redis, job):
        assert ingress_allowed(policies, redis, Peer(pod_labels(allowed)), 6379), str(allowed)
    assert ingress_allowed(policies, redis, Peer(pod_labels(redis)), 16379)
    assert not ingress_allowed(policies, redis, Peer(pod_labels(service)), 16379)
    for stranger in (STRANGER, INGRESS, PROMETHEUS, OUTSIDE):
        assert not ingress_allowed(policies, redis, stranger, 6379), stranger


def test_only_the_ingress_reaches_the_service(docs: list[K8sDoc]) -> None:
    """The gRPC port admits the ingress controller only; metrics admit Prometheus only."""
    policies = of_kind(docs, "NetworkPolicy")
    service = one(docs, "Deployment", "risk-service")
    (container,) = containers(service)
    ports = container_ports(container)
    assert ingress_allowed(policies, service, INGRESS, ports["grpc"])
    assert not ingress_allowed(policies, service, INGRESS, ports["metrics"])
    assert ingress_allowed(policies, service, PROMETHEUS, ports["metrics"])
    assert not ingress_allowed(policies, service, PROMETHEUS, ports["grpc"])
    for stranger in (STRANGER, OUTSIDE, Peer(pod_labels(one(docs, "StatefulSet")))):
        assert not ingress_allowed(policies, service, stranger, ports["grpc"]), stranger


def test_service_egress_is_redis_and_dns_only(docs: list[K8sDoc]) -> None:
    """The service's pods may open connections to Redis' client port and DNS, nothing else
    (not the bus port, not the internet)."""
    policies = of_kind(docs, "NetworkPolicy")
    service = one(docs, "Deployment", "risk-service")
    redis = Peer(pod_labels(one(docs, "StatefulSet", "redis-cluster")))
    dns = Peer({"k8s-app": "kube-dns"}, {"kubernetes.io/metadata.name": "kube-system"})
    assert egress_allowed(policies, service, redis, 6379)
    assert egress_allowed(policies, service, dns, 53)
    assert not egress_allowed(policies, service, redis, 16379)
    assert not egress_allowed(policies, service, OUTSIDE, 443)


def test_ingress_routes_to_the_grpc_port(docs: list[K8sDoc]) -> None:
    """The Ingress backend is the risk-service Service's grpc port, spoken as gRPC."""
    ingress = one(docs, "Ingress", "risk-service").doc
    assert ingress["metadata"]["annotations"][
        "nginx.ingress.kubernetes.io/backend-protocol"] == "GRPC"
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    backend = path["backend"]["service"]
    service = one(docs, "Service", backend["name"]).doc
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    assert INGRESS.labels == {"app.kubernetes.io/name": "ingress-nginx"}
    assert ingress["spec"]["ingressClassName"] == "nginx"


def test_make_secrets_keeps_what_exists(tmp_path: Path) -> None:
    """A second run keeps the CA, certificates and passwords (a deployment's secrets are not
    rotated by re-running it); a deleted password is made anew and users.acl follows it.
    The folder is private (0700)."""
    out = tmp_path / "secrets"

    def run() -> dict[str, bytes]:
        subprocess.run(["bash", str(MAKE_SECRETS), str(out)], check=True, capture_output=True,
                       timeout=120)
        return {p.name: p.read_bytes() for p in out.iterdir()}

    first = run()
    assert out.stat().st_mode & 0o777 == 0o700
    assert run() == first
    (out / "risk-password").unlink()
    third = run()
    assert third["risk-password"] != first["risk-password"]
    assert third["users.acl"] != first["users.acl"]
    assert third["ca.crt"] == first["ca.crt"] and third["admin-password"] == first["admin-password"]


def shell_scripts(docs: list[K8sDoc], compose: dict[str, Any]) -> list[tuple[str, str]]:
    """Every shell script the deployments run: `sh -c` commands, args and probes, compose
    CMD-SHELL health checks."""
    scripts: list[tuple[str, str]] = []
    for name, service in compose["services"].items():
        if service.get("entrypoint") == ["sh", "-c"]:
            scripts.append((f"compose {name}", shell_script(service)))
        test = service.get("healthcheck", {}).get("test", [])
        if test[:1] == ["CMD-SHELL"]:
            scripts.append((f"compose {name} healthcheck", test[1].replace("$$", "$")))
    for workload in workloads(docs):
        for container in containers(workload):
            command = [*container.get("command", []), *container.get("args", [])]
            if command[:2] == ["sh", "-c"]:
                scripts.append((f"{workload} {container['name']}", command[2]))
            for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
                probe_command = container.get(probe, {}).get("exec", {}).get("command", [])
                if probe_command[:2] == ["sh", "-c"]:
                    scripts.append((f"{workload} {probe}", probe_command[2]))
    return scripts


def test_every_shell_script_parses(docs: list[K8sDoc], cluster_compose: dict[str, Any]) -> None:
    """`sh -n` accepts every script (the nodes' start, the init jobs, the probes)."""
    scripts = shell_scripts(docs, cluster_compose)
    assert len(scripts) >= 12, [where for where, _ in scripts]
    for where, script in scripts:
        done = subprocess.run(["sh", "-n", "-c", script], capture_output=True, text=True,
                              timeout=10, check=False)
        assert done.returncode == 0, f"{where}: {done.stderr}\n{script}"
