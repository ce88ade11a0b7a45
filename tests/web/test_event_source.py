"""EventSource in Chromium reads a game's plain SSE stream (issue 37 item 4): a page opens
`new EventSource('/v1/games/ID/events')`, the service is killed and restarted under it, and
the browser's own reconnect (Last-Event-ID: the last event's seq) ends with every event once,
in order."""

from __future__ import annotations

from risk_proto.risk.v1 import classic_pb2, game_pb2, service_pb2, service_pb2_grpc
from risk_testing.harness import ServiceProcess
from tests.web.conftest import Pages
from tests.web.driver import eventually, move_by_grpc

# collects each event's seq and lastEventId, and counts the stream's openings
_FOLLOW = """gameId => {
  window.seqs = []; window.ids = []; window.opened = 0;
  const source = new EventSource(`/v1/games/${gameId}/events`);
  source.onopen = () => { window.opened += 1; };
  source.onmessage = message => {
    window.seqs.push(Number(JSON.parse(message.data).event.seq));
    window.ids.push(message.lastEventId);
  };
}"""


async def test_event_source_resumes_after_a_restart_without_gap_or_repeat(
    pages: Pages, stub: service_pb2_grpc.RiskServiceStub, http_service: ServiceProcess,
) -> None:
    """Moves before, during and after a SIGKILL and restart of the service reach the
    page's EventSource exactly once each: seqs 1..last with no gap and no repeat, each
    event's lastEventId its seq, and the stream opened a second time by the browser."""
    created = await stub.CreateGame(service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(classic=classic_pb2.ClassicOptions(
            players=2, setup=classic_pb2.CLASSIC_SETUP_MODE_RANDOM_DEAL, auto_place=True)),
        issue_seat_tokens=True))
    game_id = created.game.game_id
    tokens = dict(enumerate(created.seat_tokens))
    page = await pages.open("/")  # the web app: a page of the service's origin
    await page.evaluate(_FOLLOW, game_id)
    for _ in range(3):
        await move_by_grpc(stub, game_id, tokens)

    async def last() -> int:
        reply = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
        return reply.game.last_seq

    async def shown(seq: int) -> bool:
        return bool(await page.evaluate(f"window.seqs.includes({seq})"))

    before = await last()
    await eventually(lambda: shown(before), 15, "the page to catch up")
    with pages.outage():
        http_service.restart()  # SIGKILL, then a new process on the same ports
        for _ in range(4):
            await move_by_grpc(stub, game_id, tokens)
        after = await last()
        assert after > before
        await eventually(lambda: shown(after), 20, "the page to resume")
    await move_by_grpc(stub, game_id, tokens)
    final = await last()
    await eventually(lambda: shown(final), 15, "the page to follow live after the restart")
    seqs = await page.evaluate("window.seqs")
    assert seqs == list(range(1, final + 1))
    assert await page.evaluate("window.ids") == [str(seq) for seq in seqs]
    assert await page.evaluate("window.opened") >= 2
