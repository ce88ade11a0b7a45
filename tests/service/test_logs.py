"""The service's JSON log lines (risk_service.logs), written to a file as stdout would be."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from risk_service.logs import _UtcStamp, configure_logging


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "out.log"
    with path.open("wb") as out:
        configure_logging("info", out)
        yield path
    structlog.reset_defaults()


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_json_object_per_line_with_level_and_utc_timestamp(log_file: Path) -> None:
    log = structlog.get_logger("rpc")
    before = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    log.info("rpc", method="/risk.v1.RiskService/Ping", code="OK", duration_ms=0.25)
    log.debug("quiet", x=1)  # below the level: not written
    log.warning("odd", game_id="g1")
    after = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    lines = _lines(log_file)  # written and flushed line by line: readable at once
    assert [line["event"] for line in lines] == ["rpc", "odd"]
    assert lines[0] == {"method": "/risk.v1.RiskService/Ping", "code": "OK", "duration_ms": 0.25,
                        "event": "rpc", "level": "info", "timestamp": lines[0]["timestamp"]}
    assert lines[1]["level"] == "warning" and lines[1]["game_id"] == "g1"
    for line in lines:
        stamp = datetime.datetime.strptime(str(line["timestamp"]), "%Y-%m-%dT%H:%M:%S.%fZ")
        assert before - datetime.timedelta(microseconds=1) <= stamp <= after


def test_values_json_cannot_take_from_orjson_still_make_a_line(log_file: Path) -> None:
    log = structlog.get_logger("x")
    log.info("seeded", seed=1 << 70, by_seat={1: "a"}, obj=Path("/x"))
    try:
        raise ValueError("broken")
    except ValueError:
        log.exception("failed", game_id="g2")
    seeded, failed = _lines(log_file)
    assert seeded["seed"] == 1 << 70 and seeded["by_seat"] == {"1": "a"}
    assert seeded["obj"] == "PosixPath('/x')"  # as structlog renders any other object
    assert failed["level"] == "error" and "ValueError: broken" in str(failed["exception"])


def test_timestamp_tracks_the_clock_across_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = _UtcStamp()
    clock = iter([1_764_474_622_999_999_999, 1_764_474_623_000_000_000, 1_764_474_623_000_001_000,
                  1_764_547_200_000_000_000])
    monkeypatch.setattr("risk_service.logs.time.time_ns", lambda: next(clock))
    assert [stamp.now() for _ in range(4)] == [
        "2025-11-30T03:50:22.999999Z", "2025-11-30T03:50:23.000000Z",
        "2025-11-30T03:50:23.000001Z", "2025-12-01T00:00:00.000000Z",
    ]
