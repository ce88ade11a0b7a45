"""Service settings: one frozen object, built from the environment once, in `__main__`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    listen: str = "127.0.0.1:50051"
    # Empty: start and supervise an embedded redis-server under data_dir (AOF, fsync always).
    redis_url: str = ""
    data_dir: Path = Path("data")
    redis_appendfsync: str = "always"
    key_prefix: str = "risk"
    max_message_bytes: int = 64 * 1024
    subscriber_buffer: int = 1024
    max_page_size: int = 200
    shutdown_grace_s: float = 5.0
    log_level: str = "info"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read `RISK_<FIELD>` variables (and the conventional `REDIS_URL`)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get(f"RISK_{f.name.upper()}")
            if f.name == "redis_url":
                raw = env.get("REDIS_URL", raw)
            if raw is None:
                continue
            default = f.default
            try:
                if isinstance(default, bool):
                    values[f.name] = raw.lower() in ("1", "true", "yes", "on")
                elif isinstance(default, int):
                    values[f.name] = int(raw)
                elif isinstance(default, float):
                    values[f.name] = float(raw)
                elif isinstance(default, Path):
                    values[f.name] = Path(raw)
                else:
                    values[f.name] = raw
            except ValueError:
                raise ValueError(f"RISK_{f.name.upper()}={raw!r} is not a valid {f.name}") from None
        return cls(**values)  # type: ignore[arg-type]
