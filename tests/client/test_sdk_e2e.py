"""The SDK, the bots and the `risk` command against the real service on a real Redis.

The service runs as `python -m risk_service` (risk_testing.harness) on the session's
redis-server; the command line runs as `python -m risk_client` subprocesses, as a user runs it.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from risk_client import (
    IllegalMove,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    RiskClient,
    StaleVersion,
    Unauthenticated,
    actions,
    classic_options,
    play_game,
)
from risk_client.cli_commands import CLEAR_SCREEN
from risk_client.render import is_game_end
from risk_proto.risk.v1 import common_pb2, service_pb2
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_testing.harness import ServiceProcess

SEED = 3
GAME_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    process = ServiceProcess(
        redis_url, tmp_path_factory.mktemp("client-e2e"), RISK_KEY_PREFIX="client-e2e"
    )
    process.start()
    yield process
    process.stop()


@pytest.fixture
async def client(service: ServiceProcess) -> AsyncIterator[RiskClient]:
    async with RiskClient(service.target) as c:
        yield c


def risk(service: ServiceProcess, *argv: str, token: str | None = None
         ) -> subprocess.CompletedProcess[str]:
    """`risk ARGV...` as a subprocess against the test service."""
    command = [sys.executable, "-m", "risk_client", "--target", service.target, "--color", "never"]
    if token:
        command.append(f"--token={token}")  # one word: a token may begin with "-"
    return subprocess.run(
        [*command, *argv], capture_output=True, text=True, timeout=GAME_TIMEOUT_S, check=False
    )


def found(pattern: str, text: str) -> re.Match[str]:
    match = re.search(pattern, text, re.M)
    assert match, f"{pattern!r} not in:\n{text}"
    return match


async def events_until_end(client: RiskClient, game_id: str) -> list[int]:
    seqs = []
    async for event in client.stream_events(game_id):
        seqs.append(event.seq)
        if is_game_end(event):
            break
    return seqs


# ---- the SDK and its bots --------------------------------------------------------------------


async def test_bots_play_a_game_to_its_outcome(client: RiskClient) -> None:
    """play_game drives every seat through the API to an outcome, reproducibly from its seed."""
    final = await asyncio.wait_for(play_game(client, None, SEED, 2), GAME_TIMEOUT_S)
    game = final.game
    assert game.status == service_pb2.GAME_STATUS_FINISHED
    assert game.outcome.reason in ("conquest", "turn_cap")
    assert sorted(game.outcome.ranking) == [0, 1]
    assert all(seat.taken for seat in game.seats) and game.version > 100
    # a spectator replaying the game sees every event once, in order, ending with GameEnded
    seqs = await asyncio.wait_for(events_until_end(client, game.game_id), GAME_TIMEOUT_S)
    assert seqs == list(range(1, game.last_seq + 1))
    again = await asyncio.wait_for(play_game(client, None, SEED, 2), GAME_TIMEOUT_S)
    assert (again.game.version, again.game.outcome) == (game.version, game.outcome)


async def test_a_planner_bot_beats_random_bots_through_the_api(client: RiskClient) -> None:
    """Bots at the levels asked for play through the API: a planner seat against two random
    seats wins its classic game by conquest, from its view and legal actions alone."""
    final = await asyncio.wait_for(
        play_game(client, None, SEED, 3, levels=("random", "planner", "random")),
        GAME_TIMEOUT_S)
    assert final.game.status == service_pb2.GAME_STATUS_FINISHED
    assert (final.game.outcome.winner, final.game.outcome.reason) == (1, "conquest")


async def test_an_unknown_bot_level_is_refused_before_the_game(client: RiskClient) -> None:
    """A level that does not exist fails at once, naming the levels, before any game is made."""
    with pytest.raises(ValueError, match="random, greedy, planner"):
        await play_game(client, None, SEED, 2, levels=("expert",))


def test_cli_demo_bots_at_a_level(service: ServiceProcess) -> None:
    """`risk demo --level planner` plays the demo with planner bots to an outcome."""
    done = risk(service, "demo", "--players", "2", "--seed", str(SEED), "--level", "planner")
    assert done.returncode == 0, done.stderr
    found(r"^outcome: ([Ss]eat \d.* won |No one won )", done.stdout)
    refused = risk(service, "demo", "--level", "expert")
    assert refused.returncode != 0 and "invalid choice: 'expert'" in refused.stderr


async def test_failed_calls_raise_typed_errors(client: RiskClient) -> None:
    """Turn, version, idempotency and credential mistakes arrive as typed errors with reasons."""
    summary, _host = await client.create_game(classic_options(players=2), seed=SEED)
    game_id = summary.game_id
    tokens = [await client.join_game(game_id, seat) for seat in (0, 1)]
    (mover,) = (await client.get_game(game_id)).game.decision.seats  # on since the last join
    me, other = client.with_token(tokens[mover]), client.with_token(tokens[1 - mover])
    legal = await me.legal_actions(game_id)
    action = legal.actions[0].action
    assert (await other.legal_actions(game_id)).actions == []

    with pytest.raises(IllegalMove) as illegal:
        await other.submit_action(game_id, action, legal.version)
    assert illegal.value.reason == "NOT_YOUR_TURN"

    first = await me.submit_action(game_id, action, legal.version, request_id="move-1")
    again = await me.submit_action(game_id, action, legal.version, request_id="move-1")
    assert again == first and (await me.get_game(game_id)).game.version == first.version

    with pytest.raises(InvalidArgument) as reused:
        await me.submit_action(game_id, actions.end_turn(), first.version, request_id="move-1")
    assert reused.value.reason == "REQUEST_ID_REUSED"
    with pytest.raises(StaleVersion) as stale:
        await me.submit_action(game_id, action, legal.version)
    assert stale.value.current_version == first.version
    with pytest.raises(IllegalMove) as taken:
        await client.join_game(game_id, 0)
    assert taken.value.reason == "SEAT_TAKEN"
    with pytest.raises(PermissionDenied):
        await me.legal_actions(game_id, seat=1 - mover)
    with pytest.raises(Unauthenticated):
        await client.legal_actions(game_id)
    with pytest.raises(Unauthenticated):
        await client.with_token("not-a-token").get_game(game_id)
    with pytest.raises(NotFound):
        await client.get_game("0123456789abcdef")


async def test_lifecycle_calls(client: RiskClient, service: ServiceProcess) -> None:
    """Host start and cancel, resign, reissue and export, through the SDK and `risk watch`."""
    summary, host_token = await client.create_game(
        classic_options(players=2), seed=SEED, manual_start=True
    )
    host = client.with_token(host_token)
    game_id = summary.game_id
    tokens = [await client.join_game(game_id, seat, f"p{seat}") for seat in (0, 1)]
    assert (await client.get_game(game_id)).game.status == service_pb2.GAME_STATUS_WAITING
    assert (await host.start_game(game_id)).status == service_pb2.GAME_STATUS_ACTIVE
    fresh = await host.reissue_seat_token(game_id, 1)
    with pytest.raises(Unauthenticated):
        await client.with_token(tokens[1]).get_game(game_id)
    resigned = await client.with_token(fresh).resign(game_id)
    assert resigned.game.status == service_pb2.GAME_STATUS_FINISHED
    assert resigned.game.outcome.winner == 0
    export = await host.export_game(game_id)
    assert len(export.chain) == len(export.events) == resigned.game.last_seq

    watched = risk(service, "watch", game_id, "--plain")
    assert watched.returncode == 0, watched.stderr
    for words in ("Seat 0 was taken by p0", "The game started", "seat 1 (p1) got a new seat token",
                  "seat 1 (p1) resigned", "Game over: seat 0 (p0) won as everyone else resigned"):
        assert words in watched.stdout, watched.stdout

    other, other_host = await client.create_game(seed=SEED)
    await client.with_token(other_host).cancel_game(other.game_id)
    watched = risk(service, "watch", other.game_id, "--plain")
    assert watched.returncode == 0 and "The game was cancelled" in watched.stdout
    assert "is cancelled with no outcome" in watched.stdout


async def test_describe_variant_by_number_and_name(client: RiskClient) -> None:
    """The SDK reads a variant's description (the board as data) by its number or its name;
    a name the service does not serve is NotFound with VARIANT_NOT_FOUND."""
    by_number = await client.describe_variant(common_pb2.VARIANT_DEEP_SPACE)
    assert by_number == await client.describe_variant("deep_space")
    assert len(by_number.map.regions) == DEEP_SPACE_BOARD.size
    assert [v.name for v in await client.list_variants()] == [
        "classic", "deep_space", "strike", "legacy"]
    with pytest.raises(NotFound) as unknown:
        await client.describe_variant("chess")
    assert unknown.value.reason == "VARIANT_NOT_FOUND"


async def test_list_games_follows_pages(client: RiskClient) -> None:
    """iter_games walks every page, newest first."""
    made = [(await client.create_game(seed=i))[0].game_id for i in range(3)]
    first_page = await client.list_games(page_size=2)
    assert len(first_page.games) == 2 and first_page.next_page_token
    listed = [g.game_id async for g in client.iter_games(page_size=2)]
    assert listed[:3] == made[::-1]
    assert len(listed) == len(set(listed))


async def test_stream_resumes_across_a_service_crash(
    redis_url: str, tmp_path: Path
) -> None:
    """A stream cut by SIGKILL of the service resumes after its last event: no gap, no repeat.

    The bots ride out the outage too (their calls retry while the service is UNAVAILABLE).
    """
    service = ServiceProcess(redis_url, tmp_path, RISK_KEY_PREFIX="client-crash")
    service.start()
    try:
        async with RiskClient(service.target) as client:
            started: asyncio.Queue[str] = asyncio.Queue()

            async def on_created(summary: service_pb2.GameSummary) -> None:
                started.put_nowait(summary.game_id)

            options = classic_options(players=3, auto_defend_max_dice=True)
            bots = asyncio.create_task(
                play_game(client, options, 11, 3, entropy=11, on_created=on_created)
            )
            try:
                async with asyncio.timeout(GAME_TIMEOUT_S):
                    game_id = await started.get()
                    seqs: list[int] = []
                    async for event in client.stream_events(game_id):
                        seqs.append(event.seq)
                        if len(seqs) == 100:
                            before = await client.get_game(game_id)
                            await asyncio.to_thread(service.restart)
                        if is_game_end(event):
                            break
                    final = await bots
            finally:
                bots.cancel()
    finally:
        service.stop()
    assert before.game.status == service_pb2.GAME_STATUS_ACTIVE  # the bots lived through it
    assert final.game.status == service_pb2.GAME_STATUS_FINISHED
    assert seqs == list(range(1, final.game.last_seq + 1))


async def test_stream_resumes_after_falling_behind(redis_url: str, tmp_path: Path) -> None:
    """A reader that stalls is cut off (SUBSCRIBER_TOO_SLOW) and resumes where it stopped."""
    service = ServiceProcess(
        redis_url, tmp_path, RISK_KEY_PREFIX="client-slow", RISK_SUBSCRIBER_BUFFER="16"
    )
    service.start()
    # the stalled reader's own channel grows no flow-control window, so the service meets
    # back-pressure soon and its subscriber buffer overflows
    slow_options = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024)]
    try:
        async with RiskClient(service.target) as client, \
                RiskClient(service.target, channel_options=slow_options) as slow:
            started: asyncio.Queue[str] = asyncio.Queue()

            async def on_created(summary: service_pb2.GameSummary) -> None:
                started.put_nowait(summary.game_id)

            options = classic_options(players=3, auto_defend_max_dice=True)
            bots = asyncio.create_task(
                play_game(client, options, 11, 3, entropy=11, on_created=on_created)
            )
            reasons: list[str] = []
            try:
                async with asyncio.timeout(GAME_TIMEOUT_S):
                    game_id = await started.get()
                    stream = slow.stream_events(
                        game_id, on_reconnect=lambda error, _n: reasons.append(error.reason)
                    )
                    seqs = [(await anext(stream)).seq]
                    final = await bots  # meanwhile nobody reads the stream
                    async for event in stream:
                        seqs.append(event.seq)
                        if is_game_end(event):
                            break
                    await stream.aclose()
            finally:
                bots.cancel()
    finally:
        service.stop()
    assert "SUBSCRIBER_TOO_SLOW" in reasons
    assert seqs == list(range(1, final.game.last_seq + 1))


# ---- the command line ------------------------------------------------------------------------


def test_cli_create_join_legal_submit_show(service: ServiceProcess) -> None:
    """A person's round: create, join both seats, list legal moves, submit one, see the board."""
    created = risk(service, "create", "--players", "2", "--seed", "4", "--auto-defend")
    assert created.returncode == 0, created.stderr
    game_id = found(r"^game (\w+)$", created.stdout).group(1)
    tokens = [risk(service, "join", game_id, str(seat)).stdout.strip() for seat in (0, 1)]
    shown = risk(service, "show", game_id)
    mover = int(found(r"decision: seat (\d)", shown.stdout).group(1))
    assert "North America (+5)" in shown.stdout and "Eastern Australia" in shown.stdout

    legal = risk(service, "legal", game_id, token=tokens[mover])
    assert legal.returncode == 0 and " 1. " in legal.stdout, legal.stderr
    # the first legal action's command; a count range LOW..HIGH is submitted as LOW
    words = shlex.split(re.sub(r"(\d+)\.\.\d+", r"\1", found(r"\[(.+)\]", legal.stdout).group(1)))

    refused = risk(service, "submit", game_id, *words, token=tokens[1 - mover])
    assert refused.returncode == 1
    assert "error: It is not your turn (FAILED_PRECONDITION/NOT_YOUR_TURN" in refused.stderr

    done = risk(service, "submit", game_id, *words, token=tokens[mover])
    assert done.returncode == 0, done.stderr
    version = int(found(r"^version (\d+),", legal.stdout).group(1))
    assert f"ok: version {version + 1}" in done.stdout and "#" in done.stdout
    mine = risk(service, "show", game_id, token=tokens[mover])
    assert f"version {version + 1}" in mine.stdout
    assert f"your hand as seat {mover}" in mine.stdout
    listed = risk(service, "list", "--status", "active")
    assert game_id in listed.stdout


def test_cli_demo_prints_the_outcome(service: ServiceProcess) -> None:
    """`risk demo` has bots play a game through the service and prints who won."""
    done = risk(service, "demo", "--players", "2", "--seed", str(SEED))
    assert done.returncode == 0, done.stderr
    found(r"^outcome: ([Ss]eat \d.* won |No one won )", done.stdout)


def test_cli_demo_with_the_live_view(service: ServiceProcess) -> None:
    """`risk demo --watch` redraws the board and the latest events while the bots play."""
    done = risk(service, "demo", "--players", "2", "--seed", str(SEED), "--watch")
    assert done.returncode == 0, done.stderr
    frames = done.stdout.split(CLEAR_SCREEN)
    assert len(frames) > 2
    last = frames[-1]
    assert "North America (+5)" in last and "latest events:" in last
    assert "Game over:" in last and "finished" in last
    found(r"^outcome: ([Ss]eat \d.* won |No one won )", last)


async def test_cli_watch_plain_follows_a_live_game(
    client: RiskClient, service: ServiceProcess
) -> None:
    """`risk watch --plain` prints every event of a game being played, then the outcome."""
    watchers: list[asyncio.subprocess.Process] = []

    async def on_created(summary: service_pb2.GameSummary) -> None:
        watchers.append(await asyncio.create_subprocess_exec(
            sys.executable, "-m", "risk_client", "--target", service.target,
            "watch", summary.game_id, "--plain",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        ))

    final = await asyncio.wait_for(
        play_game(client, None, SEED, 2, on_created=on_created), GAME_TIMEOUT_S
    )
    out, err = await asyncio.wait_for(watchers[0].communicate(), GAME_TIMEOUT_S)
    assert watchers[0].returncode == 0, err.decode()
    lines = out.decode().splitlines()
    seqs = [int(m.group(1)) for line in lines if (m := re.match(r"#(\d+) v\d+ ", line))]
    assert seqs == list(range(1, final.game.last_seq + 1))
    assert "Game over:" in lines[-2] and lines[-1].startswith("outcome: ")
    assert any(" attacked " in line for line in lines)
    assert any("Battle for " in line for line in lines)
