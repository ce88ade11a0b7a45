"""Service settings: one frozen object, built from the environment once, in `__main__`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from risk_service.notify.secret import check_secret

EVENT_LOOPS = ("uvloop", "asyncio")
DURABILITIES = ("local", "replica")


@dataclass(frozen=True, slots=True)
class Settings:
    listen: str = "127.0.0.1:50051"
    # Empty: start and supervise an embedded redis-server under data_dir (AOF, fsync always).
    redis_url: str = ""
    data_dir: Path = Path("data")
    redis_appendfsync: str = "always"
    key_prefix: str = "risk"
    # connections for calls; a call waits up to redis_pool_timeout_s for one when all are busy
    redis_max_connections: int = 128
    redis_pool_timeout_s: float = 5.0
    # how long a Redis connection may owe replies without a word from Redis before its calls
    # are answered UNAVAILABLE and it is dropped (a host lost without closing its connections,
    # a network split, a stopped process); 0: wait for ever
    redis_timeout_ms: int = 5000
    # An external Redis' ACL user and password (or `requirepass`'s, with no user), kept out
    # of REDIS_URL so that the URL can sit in a ConfigMap and these in a Secret; each in one
    # place only (deploy/README.md, "Redis security")
    redis_username: str = ""
    redis_password: str = ""
    # ... or a file holding the password (a mounted Secret, compose's `secrets:`)
    redis_password_file: str = ""
    # with a rediss:// URL: the PEM CA bundle that signed Redis' certificate (empty: the
    # system's), and a client certificate and key for a Redis that asks for one
    # (tls-auth-clients yes)
    redis_tls_ca_file: str = ""
    redis_tls_cert_file: str = ""
    redis_tls_key_file: str = ""
    # Redis' certificate must name the host in REDIS_URL (on a cluster: every node's announced
    # name); turn off only for certificates that cannot, and keep the CA private then
    redis_tls_check_hostname: bool = True
    # games this process may stream live at once, and StreamEvents calls it serves at once
    # (0: no limit); past either a new stream is refused RESOURCE_EXHAUSTED
    max_streamed_games: int = 10_000
    max_subscribers: int = 50_000
    # calls received but not yet taken up by the service (a burst of streams opened at once
    # waits here); past it gRPC itself cancels new calls before the service sees them
    max_pending_calls: int = 20_000
    # ... and how long one may wait there before gRPC cancels it, unseen (gRPC's default is
    # 30 s, which a burst of streams on a starved machine outlasted); clients' own deadlines
    # still end their calls sooner
    max_pending_call_s: int = 300
    # Redis connections that read the streamed games' events, each with one XREAD over many
    # games (1 to 64)
    feed_readers: int = 16
    # allocations between young-generation garbage collections (Python's default: 700); a
    # process holding thousands of streams spends a tenth of its time in the collector at the
    # default. 0 keeps Python's default thresholds.
    gc_threshold: int = 50_000
    max_message_bytes: int = 64 * 1024
    subscriber_buffer: int = 1024
    # requests a second per caller (its token, else its address) and the burst above it;
    # 0: no limit. Each process enforces its own share.
    rate_limit_per_s: float = 0.0
    rate_limit_burst: float = 0.0
    # StreamEvents calls open at once on one connection (0: no limit)
    max_streams_per_connection: int = 256
    # streams (StreamEvents, Session, StreamResults) one caller holds open at once over all
    # its connections and transports: its verified token, else its address (0: no limit)
    max_streams_per_caller: int = 1000
    # Connections (docs/reliability.md, "Connections"). Calls of any kind open at once on one
    # connection (HTTP/2 streams; a client queues calls beyond it): at least the streams above.
    max_calls_per_connection: int = 512
    # a connection must complete its handshake (TLS, then the HTTP/2 preface and SETTINGS)
    # within this, or it is closed
    handshake_timeout_ms: int = 10_000
    # a connection with no call open for this long is closed (GOAWAY; clients reconnect)
    connection_idle_ms: int = 300_000
    # the server pings each connection with calls open this often, and closes one whose peer
    # does not answer within the timeout: a vanished or stalled peer does not hold its calls
    keepalive_time_ms: int = 20_000
    keepalive_timeout_ms: int = 10_000
    # every connection is asked to go away after this age (0: never), and closed after the
    # grace on top, whatever it still has open: the bound on a call that is never finished by
    # a peer that does answer pings. Streams then resume on a new connection after their seq.
    connection_age_ms: int = 3_600_000
    connection_age_grace_ms: int = 300_000
    max_page_size: int = 200
    shutdown_grace_s: float = 5.0
    # finished, abandoned and cancelled games (and their streams and request ids) expire
    retention_s: int = 30 * 24 * 3600
    # a waiting or active game nobody acts in for this long is abandoned
    abandon_after_s: int = 7 * 24 * 3600
    # a game still waiting for its players is abandoned after this long without a join or a
    # start, and a game that ends before it started is then kept this long only
    unstarted_expire_s: int = 24 * 3600
    unstarted_retention_s: int = 3600
    # a campaign with no game started, finished or decided for this long is deleted (a
    # complete campaign: `retention_s` after its last decision)
    campaign_idle_s: int = 90 * 24 * 3600
    # how often each process looks for due deadlines, idle games and expired index entries
    sweep_interval_ms: int = 250
    # comma-separated SHA-256 hex digests of organiser tokens (tournament servers)
    organiser_token_sha256: str = ""
    # comma-separated SHA-256 hex digests of creator tokens: when set, CreateGame and
    # CreateCampaign need one of them. Empty (the local default): anyone may create; a public
    # deployment sets it (deploy/).
    creator_token_sha256: str = ""
    # games and campaigns one address may create a second (and the burst above that), per
    # process; 0: no limit
    create_rate_per_s: float = 0.0
    create_burst: float = 0.0
    # how long one ListGames call may take before its page ends early (with a page token)
    list_budget_ms: int = 20
    # CreateRound: the most games one round may hold
    max_round_games: int = 64
    # ... and the most of them with no player seat (only bots); a process plays at most
    # `max_bot_only_games` such games at once (a round that would pass it is refused), each at
    # most one bot move per `bot_only_move_ms`; no game's options may ask for more than
    # `max_turns` turns (docs/tournaments.md, "What a round may cost")
    max_round_bot_tables: int = 8
    max_bot_only_games: int = 16
    bot_only_move_ms: int = 100
    max_turns: int = 1000
    # days a player may be on vacation across all their games in a calendar year (UTC), on
    # top of each game's vacation_days (docs/lifecycle.md, "Vacation per year"); 0: no cap
    vacation_days_per_year: int = 30
    # ratings (docs/ratings.md): the season rated games count in now (a new name starts every
    # rating and leaderboard afresh; the old season's stay readable), and how many rated games
    # a rating needs to stop being provisional
    rating_season: str = "1"
    rating_provisional_games: int = 5
    # matchmaking (docs/ratings.md, "Matchmaking"): how often each process forms tables; a
    # request's rating window, `match_window_base + match_window_per_s * seconds waited`
    # rating points (mu) up to `match_window_max`; the level of the bots that fill a table
    # ("random", "greedy", "planner"); how long a formed table is its process's to create
    # before another process takes it over (a crash between forming and creating)
    match_interval_ms: int = 1000
    match_window_base: float = 3.0
    match_window_per_s: float = 0.25
    match_window_max: float = 100.0
    match_bot_level: str = "greedy"
    match_lease_ms: int = 10_000
    # a test hook: hold a formed table this long before creating its game (0 in service)
    match_create_delay_ms: int = 0
    # how often each process copies tournament facts a crash left uncopied (results feed)
    results_sweep_ms: int = 2000
    # tournament events (docs/tournaments.md, "Events"): how often each process's director
    # looks at the running events, and how long an event stays the director's that last
    # worked it (a crashed process's events are taken over after this)
    event_director_ms: int = 1000
    event_lease_ms: int = 10_000
    log_level: str = "info"
    # "uvloop" (default where it is installed: it served more calls and messages per CPU
    # second than asyncio; figures in bench/RESULTS.md, session 4, change 6) or "asyncio"
    event_loop: str = "uvloop"
    # Prometheus metrics (and /livez, /readyz) over HTTP on this port; 0: off
    metrics_port: int = 0
    metrics_host: str = "127.0.0.1"
    # how often readiness pings Redis (and the active-games gauge is refreshed)
    health_interval_s: float = 1.0
    # TLS: the server's certificate chain and key (PEM files); when set, `listen` is TLS only
    tls_cert_file: str = ""
    tls_key_file: str = ""
    # PEM CA bundle for client certificates (mutual TLS). When set, organiser tokens are
    # accepted only on calls whose client presented a certificate signed by it.
    tls_client_ca_file: str = ""
    # the HTTP port: the same API over Connect, gRPC-Web and JSON (docs/api.md, "HTTP:
    # Connect, gRPC-Web, JSON"), served by this process beside `listen`; empty: off.
    # scripts/serve turns it on at 127.0.0.1:8080. TLS with the same certificate when set.
    http_listen: str = ""
    # origins whose browser pages may call the HTTP port (CORS), comma-separated
    # (`https://play.example,http://localhost:5173`), or `*`; empty: none (same-origin only)
    http_cors_origins: str = ""
    # the HTTP port's connections (docs/reliability.md, "The HTTP port"): a connection must
    # deliver a whole request (its line, headers and body) within `http_request_timeout_ms` of
    # being ready for one (accepted, or its last response sent), and an upgraded WebSocket its
    # first message, or it is closed; one idle between requests is closed after
    # `http_idle_timeout_ms`. A request's head is at most `http_max_header_bytes` and
    # `http_max_headers` fields; past `http_max_connections` open at once (0: half the
    # process's open-file limit) a new connection is closed at once.
    http_request_timeout_ms: int = 10_000
    http_idle_timeout_ms: int = 5_000
    http_max_header_bytes: int = 16_384
    http_max_headers: int = 100
    http_max_connections: int = 0
    # a plain HTTP stream (NDJSON or Server-Sent Events, docs/api.md "Plain HTTP streams")
    # sends a keepalive (an empty line, an SSE comment) after this long without a reply
    http_stream_heartbeat_ms: int = 15_000
    # a second gRPC address on which clients must present such a certificate; empty: every
    # client on `listen` must (grpc's Python API cannot ask for an optional client certificate)
    mtls_listen: str = ""
    # descriptor modules of variants to serve beside the contract's four, comma-separated
    # module paths each with a `DESCRIPTOR` (docs/architecture.md, "Adding a variant")
    extra_variants: str = ""
    # exports signed by the deployment (docs/exports.md): a PEM Ed25519 private key file that
    # signs each export's fingerprint, its public key published at
    # /.well-known/risk-export-keys.json on the HTTP port; empty: exports are not signed
    export_signing_key: str = ""
    # ... and PEM public key files (comma-separated) of retired signing keys, published beside
    # it so that exports they signed still check
    export_retired_keys: str = ""
    # --- Redis Cluster, durability and workers (docs/storage.md, "Redis Cluster") ---
    # REDIS_URL names any node of a Redis Cluster; the service finds the others
    redis_cluster: bool = False
    # on a cluster each index (game lists, deadlines, expiry, campaigns) is split into this
    # many keys, each with its own hash tag, so no key takes every game's writes
    index_buckets: int = 16
    # "local": an action is acknowledged once its master has it; "replica": only once a
    # replica confirms it too (WAIT), so a failover does not lose it
    durability: str = "local"
    # how long "replica" waits for that confirmation; past it the call is answered
    # UNAVAILABLE (STORE_UNAVAILABLE, metadata replicated=false) and the client retries
    durability_timeout_ms: int = 1000
    # a cluster's feed readers are woken by each commit (cluster_feed.py) and, in case a
    # wake-up was lost, read every streamed game this often all the same
    cluster_feed_sweep_ms: int = 5000
    # service processes sharing `listen` (SO_REUSEPORT) under one supervising parent
    workers: int = 1
    # a commit writes the game's whole state only every this many versions (and at every
    # lifecycle step, status change and end); in between it appends the action to the log
    # and a load replays at most this many minus one (docs/storage.md, "Snapshots every N
    # versions"); 1: a snapshot on every commit
    snapshot_every: int = 1
    # GetGame's at_version (docs/api.md, "Replay"): a game that is over keeps its state every
    # this many versions in Redis once first replayed, so a replay applies fewer than this
    # many log entries (1 to 1024); and the replay steps one caller (its verified token, else
    # its address) may spend a second, per process, with the burst above it (0: no budget)
    replay_checkpoint_every: int = 32
    replay_budget_per_s: float = 5000.0
    replay_budget_burst: float = 0.0
    # --- signed webhooks (docs/notifications.md) ---
    # the deployment's receiver: one URL, or several separated by commas, each with its own
    # queue (empty: no webhooks); and the Standard Webhooks secret every delivery is signed
    # with, `whsec_` + the base64 of 24 to 64 random bytes
    webhook_url: str = ""
    webhook_secret: str = ""
    # one attempt's limit (connect, send, answer); no redirect is followed
    webhook_timeout_ms: int = 10_000
    # a failed attempt is retried after about this, doubling per attempt (half of it drawn
    # at random) up to the cap; a message still undelivered this old is dead-lettered
    webhook_retry_base_ms: int = 5_000
    webhook_retry_cap_ms: int = 3_600_000
    webhook_max_age_s: int = 3 * 24 * 3600
    # messages one endpoint's queue holds; past it a new one is dead-lettered (queue_full)
    webhook_queue_max: int = 100_000
    # how often each process looks for messages other processes queued (or retries fell due)
    webhook_poll_ms: int = 1_000
    # set by the parent of `workers` for its children: bind `listen` with SO_REUSEPORT
    reuse_port: bool = False
    # Players (docs/players.md). The deployment's identity provider: its JWKS, a file path or an
    # https:// URL (empty: the service issues player tokens itself, IssuePlayerToken), and the
    # `iss` and `aud` its tokens must carry (required with a JWKS; without one they name the
    # service's own tokens, "risk-service" and "risk" when empty). A token's `sub` is the player.
    jwt_jwks: str = ""
    jwt_issuer: str = ""
    jwt_audience: str = ""
    # the PEM CA bundle that signed the JWKS URL's certificate (empty: the system's)
    jwt_jwks_ca_file: str = ""
    # the key set is fetched again once this old (in the background, its keys used meanwhile),
    # and for a key id it does not hold at most once per `jwt_jwks_min_refetch_s`
    jwt_jwks_refresh_s: float = 300.0
    jwt_jwks_min_refetch_s: float = 30.0
    # clock skew tolerated on a token's `exp` (and `nbf`, `iat`)
    jwt_leeway_s: float = 30.0
    # without a JWKS: the Ed25519 private key (PEM file) the service signs player tokens with;
    # empty: one generated at first start and kept in Redis (every process shares it)
    player_signing_key: str = ""
    # how long the service's own player tokens last
    player_token_ttl_s: int = 30 * 24 * 3600

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
        settings = cls(**values)  # type: ignore[arg-type]
        settings.organiser_digests()  # fail at start-up, not at the first call
        settings.creator_digests()
        if 0 < settings.max_calls_per_connection < settings.max_streams_per_connection:
            raise ValueError("RISK_MAX_CALLS_PER_CONNECTION must be at least "
                             "RISK_MAX_STREAMS_PER_CONNECTION")
        if not 1 <= settings.feed_readers <= 64:
            raise ValueError(f"RISK_FEED_READERS={settings.feed_readers} is not between 1 and 64")
        if settings.event_loop not in EVENT_LOOPS:
            raise ValueError(f"RISK_EVENT_LOOP={settings.event_loop!r} is not one of "
                             f"{', '.join(EVENT_LOOPS)}")
        if settings.durability not in DURABILITIES:
            raise ValueError(f"RISK_DURABILITY={settings.durability!r} is not one of "
                             f"{', '.join(DURABILITIES)}")
        if not 1 <= settings.index_buckets <= 1024:
            raise ValueError(f"RISK_INDEX_BUCKETS={settings.index_buckets} is not between 1 "
                             "and 1024")
        if not 1 <= settings.snapshot_every <= 1024:
            raise ValueError(f"RISK_SNAPSHOT_EVERY={settings.snapshot_every} is not between 1 "
                             "and 1024")
        if not 1 <= settings.replay_checkpoint_every <= 1024:
            raise ValueError(f"RISK_REPLAY_CHECKPOINT_EVERY={settings.replay_checkpoint_every} "
                             "is not between 1 and 1024")
        if settings.jwt_jwks and not (settings.jwt_issuer and settings.jwt_audience):
            raise ValueError("RISK_JWT_JWKS needs RISK_JWT_ISSUER and RISK_JWT_AUDIENCE: a token "
                             "is accepted only for this issuer and audience")
        if settings.jwt_jwks and "://" in settings.jwt_jwks \
                and not settings.jwt_jwks.startswith("https://"):
            raise ValueError(f"RISK_JWT_JWKS={settings.jwt_jwks!r}: a file path or an https:// "
                             "URL (keys read over plain http could be anyone's)")
        if settings.jwt_jwks and settings.player_signing_key:
            raise ValueError("RISK_PLAYER_SIGNING_KEY is for the service's own player tokens: "
                             "unset it where RISK_JWT_JWKS names the identity provider")
        if settings.player_token_ttl_s < 60:
            raise ValueError(f"RISK_PLAYER_TOKEN_TTL_S={settings.player_token_ttl_s} is under 60")
        settings.check_webhooks()
        if settings.workers < 1:
            raise ValueError(f"RISK_WORKERS={settings.workers} must be at least 1")
        if settings.redis_timeout_ms < 0:
            raise ValueError(f"RISK_REDIS_TIMEOUT_MS={settings.redis_timeout_ms} is negative")
        if not 0 <= settings.vacation_days_per_year <= 366:
            raise ValueError(f"RISK_VACATION_DAYS_PER_YEAR={settings.vacation_days_per_year} "
                             "must be 0 (no yearly cap) to 366")
        if not (1 <= len(settings.rating_season) <= 32 and all(
                c.isascii() and (c.isalnum() or c in ".-_") for c in settings.rating_season)):
            raise ValueError(f"RISK_RATING_SEASON={settings.rating_season!r}: 1 to 32 letters, "
                             "digits, '.', '-' or '_'")
        if not 0 <= settings.rating_provisional_games <= 1000:
            raise ValueError(f"RISK_RATING_PROVISIONAL_GAMES={settings.rating_provisional_games}"
                             " must be 0 to 1000")
        settings.check_matchmaking()
        if settings.event_director_ms < 10 or settings.event_lease_ms < 100:
            raise ValueError(f"RISK_EVENT_DIRECTOR_MS={settings.event_director_ms} must be 10 "
                             f"or more and RISK_EVENT_LEASE_MS={settings.event_lease_ms} 100 "
                             "or more")
        if (settings.durability == "replica"
                and 0 < settings.redis_timeout_ms <= settings.durability_timeout_ms):
            # a commit's WAIT holds its connection's replies for up to the durability timeout
            raise ValueError(f"RISK_REDIS_TIMEOUT_MS={settings.redis_timeout_ms} must exceed "
                             f"RISK_DURABILITY_TIMEOUT_MS={settings.durability_timeout_ms}")
        return settings

    def check_matchmaking(self) -> None:
        """Refuse matchmaking settings that would stall it or form no table."""
        if self.match_interval_ms < 10 or self.match_lease_ms < 100:
            raise ValueError(f"RISK_MATCH_INTERVAL_MS={self.match_interval_ms} must be 10 or "
                             f"more and RISK_MATCH_LEASE_MS={self.match_lease_ms} 100 or more")
        if not 0 <= self.match_window_base <= self.match_window_max \
                or self.match_window_per_s < 0:
            raise ValueError("RISK_MATCH_WINDOW_BASE must be 0 to RISK_MATCH_WINDOW_MAX, and "
                             "RISK_MATCH_WINDOW_PER_S 0 or more")
        if self.match_bot_level not in ("random", "greedy", "planner"):
            raise ValueError(f"RISK_MATCH_BOT_LEVEL={self.match_bot_level!r} is not one of "
                             "random, greedy, planner")
        if self.match_create_delay_ms < 0:
            raise ValueError(f"RISK_MATCH_CREATE_DELAY_MS={self.match_create_delay_ms} is "
                             "negative")

    @property
    def redis_timeout_s(self) -> float | None:
        """`redis_timeout_ms` in seconds; None: no limit."""
        return self.redis_timeout_ms / 1000 if self.redis_timeout_ms else None

    def check_redis(self) -> None:
        """The Redis settings that only make sense together; raises ValueError naming them.
        (Checked when serving starts, not by `from_env`, which reads each setting alone.)"""
        if self.redis_url and not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"REDIS_URL: {self.redis_url!r} is not a redis://, rediss:// or "
                             "unix:// URL")
        if self.durability == "replica" and not self.redis_url:
            raise ValueError("RISK_DURABILITY=replica needs a REDIS_URL with replicas (the "
                             "embedded Redis has none)")
        if self.redis_cluster and not self.redis_url:
            raise ValueError("RISK_REDIS_CLUSTER=true needs REDIS_URL naming a cluster node")

    def webhook_urls(self) -> tuple[str, ...]:
        return tuple(u.strip() for u in self.webhook_url.split(",") if u.strip())

    def check_webhooks(self) -> None:
        """The webhook settings together; raises ValueError naming them."""
        urls = self.webhook_urls()
        if not urls:
            return
        for url in urls:
            if not url.startswith(("https://", "http://")):
                raise ValueError(f"RISK_WEBHOOK_URL: {url!r} is not an http(s) URL")
        if len(set(urls)) != len(urls):
            raise ValueError("RISK_WEBHOOK_URL names one URL twice")
        if not self.webhook_secret:
            raise ValueError("RISK_WEBHOOK_URL needs RISK_WEBHOOK_SECRET (whsec_...)")
        check_secret(self.webhook_secret)
        for name in ("timeout_ms", "retry_base_ms", "retry_cap_ms", "max_age_s", "queue_max",
                     "poll_ms"):
            if getattr(self, f"webhook_{name}") < 1:
                raise ValueError(f"RISK_WEBHOOK_{name.upper()} must be at least 1")

    def export_retired_key_files(self) -> tuple[str, ...]:
        return tuple(p.strip() for p in self.export_retired_keys.split(",") if p.strip())

    def extra_variant_modules(self) -> tuple[str, ...]:
        return tuple(m.strip() for m in self.extra_variants.split(",") if m.strip())

    def organiser_digests(self) -> tuple[bytes, ...]:
        return _digests("RISK_ORGANISER_TOKEN_SHA256", self.organiser_token_sha256)

    def creator_digests(self) -> tuple[bytes, ...]:
        return _digests("RISK_CREATOR_TOKEN_SHA256", self.creator_token_sha256)


def _digests(setting: str, value: str) -> tuple[bytes, ...]:
    """Comma-separated SHA-256 hex digests; raises naming `setting` for one that is not."""
    digests = []
    for raw_part in value.split(","):
        part = raw_part.strip().lower()
        if not part:
            continue
        try:
            raw = bytes.fromhex(part)
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise ValueError(f"{setting}: {part!r} is not a SHA-256 hex")
        digests.append(raw)
    return tuple(digests)
