"""scripts/setup as a new user meets it: it installs only what the command needs, and where it
cannot install something it says what to install by hand instead of failing obscurely.

Each case runs the real script in a copy of the checkout's top level whose PATH holds only the
tools it uses, so redis-server, apt-get and sudo are present or absent as the case needs. The
venv (its stamp and its python) and the wheelhouse's stamp are laid in place, so the script
installs and downloads nothing after its Redis step."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bash", "sha256sum", "cut", "dirname", "cat", "true", "env")
DISTRIBUTIONS = ("proto/python", "service/rules", "clients/python", "support", ".")
SDK = DISTRIBUTIONS[:3]  # the client and the two it depends on: the wheelhouse's stamp hashes these


def _wheels_stamp(top: Path) -> str:
    """The name of .venv/wheelhouse's stamp for `top`'s three pyproject files and constraints,
    in setup's order."""
    metadata = b"".join((top / folder / "pyproject.toml").read_bytes() for folder in SDK)
    metadata += (top / "constraints.txt").read_bytes()
    return f".filled-{hashlib.sha256(metadata).hexdigest()[:16]}"


def _checkout(tmp_path: Path, *, uid: str | None = None, sudo: bool = False) -> tuple[Path, Path]:
    top = tmp_path / "checkout"
    (top / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup", top / "scripts" / "setup")
    metadata = b""
    for folder in DISTRIBUTIONS:  # the stamp hashes the five pyproject files, in setup's order,
        (top / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / folder / "pyproject.toml", top / folder / "pyproject.toml")
        metadata += (top / folder / "pyproject.toml").read_bytes()
    shutil.copy(ROOT / "constraints.txt", top / "constraints.txt")  # hashed after them
    metadata += (top / "constraints.txt").read_bytes()
    stamp = hashlib.sha256(metadata).hexdigest()[:16]
    (top / ".venv" / "bin").mkdir(parents=True)
    (top / ".venv" / f".installed-{stamp}").touch()
    (top / ".venv" / "wheelhouse").mkdir()
    (top / ".venv" / "wheelhouse" / _wheels_stamp(top)).touch()
    (top / ".venv" / "bin" / "python").symlink_to(sys.executable)  # compiles the tree's modules
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    if uid is None:
        (bin_dir / "id").symlink_to(shutil.which("id") or "/usr/bin/id")
    else:  # a non-root user, as far as the script can tell
        (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
        (bin_dir / "id").chmod(0o755)
    if sudo:  # a sudo that would need a password: `sudo -n` fails at once
        (bin_dir / "sudo").write_text("#!/bin/sh\necho 'sudo: a password is required' >&2\n"
                                      "exit 1\n")
        (bin_dir / "sudo").chmod(0o755)
    # an apt-get that must never run in these cases (none of them may install anything)
    return top, bin_dir


def _run(top: Path, bin_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)}
    clean.update(PATH=str(bin_dir), **env)
    return subprocess.run(["bash", str(top / "scripts" / "setup"), *args], env=clean,
                          capture_output=True, text=True, timeout=60, check=False)


def test_serve_with_redis_url_needs_no_redis_server(tmp_path: Path) -> None:
    """`setup serve` with REDIS_URL set does not look for, nor try to install, redis-server."""
    top, bin_dir = _checkout(tmp_path)
    done = _run(top, bin_dir, "serve", REDIS_URL="redis://redis.invalid:6379/0")  # not reached
    assert done.returncode == 0, done.stderr
    assert "installing" not in done.stderr and "redis-server" not in done.stderr


def test_no_apt_get_says_what_to_install(tmp_path: Path) -> None:
    """The tests need redis-server; without it and without apt-get, a clear hint, exit 1."""
    top, bin_dir = _checkout(tmp_path)
    done = _run(top, bin_dir, "test")
    assert done.returncode == 1
    assert "no apt-get" in done.stderr
    assert "install redis-server" in done.stderr and "REDIS_URL" in done.stderr
    assert "command not found" not in done.stderr


def test_serve_without_redis_url_needs_redis_server_too(tmp_path: Path) -> None:
    """`setup serve` without REDIS_URL runs its own Redis, so it needs redis-server."""
    top, bin_dir = _checkout(tmp_path)
    done = _run(top, bin_dir, "serve")
    assert done.returncode == 1 and "no apt-get" in done.stderr


def test_non_root_never_meets_an_interactive_sudo(tmp_path: Path) -> None:
    """A non-root user whose sudo needs a password is told the command to run, at once."""
    top, bin_dir = _checkout(tmp_path, uid="1000", sudo=True)
    (bin_dir / "apt-get").write_text("#!/bin/sh\necho apt-get ran >&2\nexit 0\n")
    (bin_dir / "apt-get").chmod(0o755)
    done = _run(top, bin_dir, "test")
    assert done.returncode == 1
    assert "needs root" in done.stderr and "sudo apt-get install -y redis-server" in done.stderr
    assert "apt-get ran" not in done.stderr


def test_tests_need_node_and_say_how_to_get_it(tmp_path: Path) -> None:
    """`setup test` with redis-server but no Node.js and no apt-get names what to install."""
    top, bin_dir = _checkout(tmp_path)
    (top / "clients" / "node").mkdir(parents=True)
    shutil.copy(ROOT / "clients" / "node" / "package-lock.json",
                top / "clients" / "node" / "package-lock.json")
    (bin_dir / "redis-server").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "redis-server").chmod(0o755)
    done = _run(top, bin_dir, "test")
    assert done.returncode == 1
    assert "node is not on PATH" in done.stderr and "no apt-get" in done.stderr
    assert "install Node.js 20" in done.stderr and "command not found" not in done.stderr
    served = _run(top, bin_dir, "serve")  # serving needs no Node.js
    assert served.returncode == 0, served.stderr


def test_tests_need_openssl_and_say_how_to_get_it(tmp_path: Path) -> None:
    """The deploy tests make TLS certificates with `openssl`: `setup test` without it and
    without apt-get names the package; serving does not need it."""
    top, bin_dir = _checkout(tmp_path)
    for tool in ("redis-server", "chromium", "haproxy"):
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / tool).chmod(0o755)
    done = _run(top, bin_dir, "test")
    assert done.returncode == 1
    assert "openssl is not on PATH" in done.stderr and "no apt-get" in done.stderr
    assert "apt-get install -y openssl" in done.stderr and "command not found" not in done.stderr
    served = _run(top, bin_dir, "serve")
    assert served.returncode == 0, served.stderr


def _changed_pyproject(tmp_path: Path, pip: str) -> tuple[Path, Path, Path, Path]:
    """A checkout whose venv's stamp is of other pyproject files, and whose .venv/bin/pip is
    the shell script `pip` (it appends its arguments to the file `calls`, in $CALLS)."""
    top, bin_dir = _checkout(tmp_path)
    for tool in ("rm", "touch", "chmod"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")
    (bin_dir / "redis-server").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "redis-server").chmod(0o755)
    venv = top / ".venv"
    old_stamp = next(venv.glob(".installed-*"))
    old_stamp.rename(venv / ".installed-0000000000000000")  # as before a pyproject changed
    calls = tmp_path / "calls"
    (venv / "bin" / "pip").write_text(f'#!/bin/sh\nCALLS={calls}\n{pip}')
    (venv / "bin" / "pip").chmod(0o755)
    return top, bin_dir, calls, old_stamp


def _editables(words: list[str]) -> list[str]:
    return [words[i + 1] for i, word in enumerate(words) if word == "-e"]


FIVE = ["./proto/python", "./service/rules", "./clients/python", "./support", ".[dev]"]


def test_a_changed_pyproject_updates_the_venv_in_place(tmp_path: Path) -> None:
    """When a pyproject changed, setup installs the five distributions into the existing .venv
    (support/ too) instead of removing it: tests and services running from it meanwhile keep
    their interpreter and packages. pip puts the pinned uv into .venv, and uv installs the
    five under the pins, compiling their bytecode."""
    # this pip records its call and, asked for uv, lays down a uv that records its own
    top, bin_dir, calls, old_stamp = _changed_pyproject(tmp_path, (
        'echo "pip $*" >> "$CALLS"\n'
        'case " $* " in *" uv "*)\n'
        '  printf \'#!/bin/sh\\necho "uv $*" >> %s\\n\' "$CALLS" > "$(dirname "$0")/uv"\n'
        '  chmod 755 "$(dirname "$0")/uv";;\n'
        'esac\n'))
    venv = top / ".venv"
    in_use = venv / "lib" / "in-use"  # stands for what a running process has open
    in_use.parent.mkdir()
    in_use.touch()
    done = _run(top, bin_dir, "serve")
    assert done.returncode == 0, done.stderr
    assert in_use.exists(), "setup removed the .venv other processes run from"
    assert "updating .venv" in done.stderr and "pip installs" not in done.stderr
    lines = [line.split() for line in calls.read_text().splitlines()]
    assert lines[0][:3] == ["pip", "install", "-q"] and lines[0][-1] == "uv"
    assert "--constraint" in lines[0], "uv itself is pinned"
    install = lines[-1]
    assert install[:4] == ["uv", "pip", "install", "-q"]
    assert "--constraint" in install and "--compile-bytecode" in install
    assert _editables(install) == FIVE
    assert not any(line[0] == "pip" and _editables(line) for line in lines), "pip did it too"
    assert [p.name for p in venv.glob(".installed-*")] == [old_stamp.name]


def test_without_uv_pip_installs_the_venv(tmp_path: Path) -> None:
    """Where uv cannot be had (no wheel for the platform, an index only pip reaches), pip
    installs the five distributions under the pins, and setup says so."""
    top, bin_dir, calls, old_stamp = _changed_pyproject(tmp_path, (
        'echo "pip $*" >> "$CALLS"\n'
        'case " $* " in *" uv "*) echo "no matching distribution for uv" >&2; exit 1;; esac\n'))
    done = _run(top, bin_dir, "serve")
    assert done.returncode == 0, done.stderr
    assert "uv could not install the packages; pip installs them" in done.stderr
    install = calls.read_text().splitlines()[-1].split()
    assert install[:3] == ["pip", "install", "-q"] and "--constraint" in install
    assert _editables(install) == FIVE
    assert [p.name for p in (top / ".venv").glob(".installed-*")] == [old_stamp.name]


def test_changed_pins_fill_the_wheelhouse_again(tmp_path: Path) -> None:
    """When the pins changed, `setup test` downloads the client's dependencies again,
    binary wheels under the pins, into a new folder that then replaces the old one whole (no
    wheel of the old pins is left for the offline install); `setup serve` downloads nothing."""
    top, bin_dir = _checkout(tmp_path)
    for tool in ("rm", "touch", "mv", "mkdir"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")
    for tool in ("redis-server", "chromium", "haproxy", "openssl"):
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / tool).chmod(0o755)
    wheelhouse = top / ".venv" / "wheelhouse"
    old_stamp = next(wheelhouse.glob(".filled-*"))
    old_stamp = old_stamp.rename(wheelhouse / ".filled-0000000000000000")  # as before a change
    (wheelhouse / "grpcio-0.0.0-py3-none-any.whl").touch()  # a wheel of the old pins
    calls = tmp_path / "pip-calls"
    (top / ".venv" / "bin" / "pip").write_text(
        f'#!/bin/sh\necho "$*" >> {calls}\n'
        'while [ $# -gt 0 ]; do [ "$1" = --dest ] && mkdir -p "$2"; shift; done\n'
        'exit 0\n')
    (top / ".venv" / "bin" / "pip").chmod(0o755)
    served = _run(top, bin_dir, "serve")
    assert served.returncode == 0, served.stderr
    assert not calls.exists() and old_stamp.exists(), "serving needs no wheelhouse"
    done = _run(top, bin_dir, "test")
    assert done.returncode == 0, done.stderr
    assert "downloading the Python client's dependencies" in done.stderr
    download = calls.read_text().split()
    assert download[:2] == ["download", "-q"], download
    assert download[download.index("--constraint") + 1] == "constraints.txt"
    assert download[download.index("--only-binary") + 1] == ":all:"
    assert download[download.index("--dest") + 1] == ".venv/wheelhouse.new"
    assert download[-3:] == ["./proto/python", "./service/rules", "./clients/python"]
    assert sorted(p.name for p in wheelhouse.iterdir()) == [_wheels_stamp(top)]
    assert not (top / ".venv" / "wheelhouse.new").exists()
    again = _run(top, bin_dir, "test")  # filled: nothing to do
    assert again.returncode == 0 and "downloading" not in again.stderr, again.stderr
    assert len(calls.read_text().splitlines()) == 1


def _private_apt(tmp_path: Path, bin_dir: Path) -> dict[str, Path]:
    """The real apt-get on PATH, pointed (APT_CONFIG) at an empty package root of its own:
    its locks are files in `tmp_path`, it has no sources, so it can install nothing, and the
    machine's own apt and dpkg locks are never touched."""
    root = tmp_path / "apt-root"
    for folder in ("var/lib/dpkg", "var/lib/apt/lists/partial", "var/cache/apt/archives/partial",
                   "var/log/apt", "etc/apt/apt.conf.d", "etc/apt/sources.list.d",
                   "etc/apt/preferences.d"):
        (root / folder).mkdir(parents=True)
    (root / "var/lib/dpkg/status").touch()
    (root / "etc/apt/sources.list").touch()
    config = root / "apt.conf"
    config.write_text(f'Dir "{root}/";\nDir::State::status "{root}/var/lib/dpkg/status";\n'
                      f'Dir::Etc::main "{config}";\nDir::Etc::parts "{root}/etc/apt/apt.conf.d";\n')
    for tool in ("apt-get", "sleep"):
        found = shutil.which(tool)
        assert found, f"{tool} (this is a Debian machine: scripts/setup installs with apt-get)"
        (bin_dir / tool).symlink_to(found)
    return {"config": config, "install": root / "var/lib/dpkg/lock-frontend",
            "update": root / "var/lib/apt/lists/lock"}


@contextlib.contextmanager
def _holding(lock: Path) -> Iterator[Callable[[], None]]:
    """Hold `lock` as another apt-get does (an fcntl write lock); yields its release."""
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o640)
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    released: list[bool] = []

    def release() -> None:
        if not released:
            released.append(True)
            os.close(fd)

    try:
        yield release
    finally:
        release()


@pytest.mark.parametrize("step", ["update", "install"])
def test_setup_waits_for_another_apt_get_then_goes_on(tmp_path: Path, step: str) -> None:
    """While another apt-get holds the lock `apt-get <step>` needs, setup says it waits,
    and once that lock is free it goes on (here to "Unable to locate package": the private
    package root has none), instead of failing at once on the lock."""
    top, bin_dir = _checkout(tmp_path, uid="0")
    apt = _private_apt(tmp_path, bin_dir)
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(PATH=str(bin_dir), APT_CONFIG=str(apt["config"]), RISK_APT_LOCK_TIMEOUT_S="120")
    err_path = tmp_path / "setup.err"
    with _holding(apt[step]) as release, err_path.open("w") as err:
        proc = subprocess.Popen(["bash", str(top / "scripts" / "setup"), "test"], env=env,
                                stdout=subprocess.DEVNULL, stderr=err, text=True)
        try:
            deadline = time.monotonic() + 60
            while "waiting for it to finish" not in err_path.read_text():
                assert proc.poll() is None, f"setup ended without waiting:\n{err_path.read_text()}"
                assert time.monotonic() < deadline, err_path.read_text()
                time.sleep(0.05)
            assert proc.poll() is None, "setup waits while the lock is held"
            release()
            assert proc.wait(60) == 1
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    stderr = err_path.read_text()
    assert f"It is held by process {os.getpid()}" in stderr, "apt names the holder"
    assert "Unable to locate package redis-server" in stderr, "it went on once the lock was free"
    assert "still held" not in stderr
    assert "apt-get could not install redis-server" in stderr and "REDIS_URL" in stderr


def test_setup_stops_waiting_for_the_apt_lock_and_says_what_to_do(tmp_path: Path) -> None:
    """A lock held past RISK_APT_LOCK_TIMEOUT_S: setup stops after about that long, naming the
    holder, and says to let it finish and run setup again (or wait longer)."""
    top, bin_dir = _checkout(tmp_path, uid="0")
    apt = _private_apt(tmp_path, bin_dir)
    with _holding(apt["install"]):
        started = time.monotonic()
        done = _run(top, bin_dir, "test", APT_CONFIG=str(apt["config"]),
                    RISK_APT_LOCK_TIMEOUT_S="2")
        took = time.monotonic() - started
    assert done.returncode == 1
    assert 2 <= took < 50, took
    assert f"It is held by process {os.getpid()}" in done.stderr
    assert "the package lock was still held after 2s" in done.stderr
    assert "run this again" in done.stderr and "RISK_APT_LOCK_TIMEOUT_S" in done.stderr
    assert "apt-get could not install redis-server" in done.stderr
