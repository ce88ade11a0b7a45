"""ExportGame: a finished game's full record, page by page — its options and seed, every log
entry, every event and the hash chain over the events — for `risk verify` to replay.

A page token carries the next log index, the last event exported and the links of both chains
(events and log entries) after them, so a page is built without rereading or rehashing what
came before. The last page carries the header's digest and the fingerprint over the whole
export (format 2, docs/exports.md), signed when the deployment has a signing key; the header
is rebuilt for it from the stored game, which no longer changes. With a key, a page token
also carries a MAC, so the links the last page's signature covers are this service's own.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any

from risk_proto.risk.v1 import game_pb2, lifecycle_pb2, service_pb2
from risk_rules import audit, wire
from risk_rules.audit import chain_root, hash_chain, log_root
from risk_rules.engine import Ruleset, get_ruleset
from risk_service.errors import Code, ServiceError, ServiceReason, malformed
from risk_service.operations import identity, records
from risk_service.operations.identity import Caller
from risk_service.operations.limits import Limits
from risk_service.operations.records import FINAL
from risk_service.operations.seed_reveal import seed_revealable
from risk_service.store.game_store import GameRecord, GameStore
from risk_service.store.tournament_store import TournamentStore

if TYPE_CHECKING:  # the signing key's module imports cryptography: only where one is set
    from risk_service.export_signing import ExportSigner

# an export page stops growing past this many bytes of log and events, well inside a client's
# default 4 MiB receive limit (one entry more may follow the limit: entries are small)
EXPORT_PAGE_BYTES = 1 << 20
# ... and holds at most this many log entries, so a page is also quick to build and to replay
EXPORT_PAGE_ENTRIES = 512
EXPORT_READ = 512  # log entries or events read from Redis at a time while building a page

# what a lifecycle event says a commit without a log entry did (games stored before every
# commit had one): ExportGame fills those versions in from their events
_STEPS = {"seat_joined": "join", "game_started": "start", "seat_token_reissued": "reissue",
          "game_cancelled": "cancel", "game_abandoned": "abandon"}


async def export_page(store: GameStore, limits: Limits, request: service_pb2.ExportGameRequest,
                      caller: Caller, tournaments: TournamentStore, *,
                      signer: ExportSigner | None = None) -> service_pb2.GameExport:
    """One page of the game's export (see GameExport.next_page_token): the log entries of a
    run of versions with their events and chain links, about EXPORT_PAGE_BYTES."""
    record = await records.load(store, request.game_id)
    # any credential of this game, or an organiser's, may export it; spectators may not
    role = identity.identify(record, caller, limits)
    if caller.token is None:
        raise ServiceError(Code.UNAUTHENTICATED, ServiceReason.MISSING_CREDENTIALS,
                           "exports are for the host, the seats and organisers")
    if role == identity.SPECTATOR:  # a player token of someone with no seat here
        raise ServiceError(Code.PERMISSION_DENIED, ServiceReason.WRONG_SEAT,
                           "exports are for the host, the seats and organisers; this player "
                           "holds no seat of this game")
    if record.status not in FINAL:
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_OVER,
                           "a game is exported once it is over; its seed is secret until then")
    meta = records.decode_meta(record)
    if not await seed_revealable(tournaments, record, meta):
        raise ServiceError(Code.FAILED_PRECONDITION, ServiceReason.GAME_NOT_OVER,
                           "the games of this duplicate round share its seed: each is exported "
                           "once every one of them is over")
    index, after_seq, link, log_link = _cursor(record.game_id, request.page_token, signer)
    rules = get_ruleset(record.variant)
    page = _page_header(record, rules)
    if not request.page_token:
        _first_page_header(page, record, meta, rules)
    events = _StoredEvents(store, record.game_id, after_seq)
    size = 0

    def add_events(items: list[game_pb2.Event]) -> None:
        nonlocal size, link
        chain = hash_chain(record.game_id, items, link)
        page.events.extend(items)
        page.chain.extend(chain)
        if chain:
            link = chain[-1]
        size += sum(e.ByteSize() + 40 for e in items)  # an event and its chain link

    if index == 0:
        add_events(await events.through(0))
    more = True
    while size < EXPORT_PAGE_BYTES and len(page.log) < EXPORT_PAGE_ENTRIES:
        stored = await store.read_log(
            record.game_id, index, min(EXPORT_READ, EXPORT_PAGE_ENTRIES - len(page.log)))
        if not stored:
            more = False
            break
        for data in stored:
            entry = _canonical_entry(record.variant, game_pb2.LogEntry.FromString(data))
            through = await events.through(entry.version)
            add_events(through)
            page.log.extend(_filled_entries(through, entry.version))
            page.log.append(entry)
            size += entry.ByteSize()
            index += 1
            if size >= EXPORT_PAGE_BYTES:
                break
    if more and len(page.log) == EXPORT_PAGE_ENTRIES and not await store.read_log(
            record.game_id, index, 1):
        more = False  # the log ended exactly at the page's end
    if not more:
        rest = await events.rest()
        add_events(rest)
        page.log.extend(_filled_entries(rest, record.version + 1))
    log_links = audit.log_chain(record.game_id, page.log, log_link)
    page.log_chain.extend(log_links)
    if log_links:
        log_link = log_links[-1]
    if more:
        cursor = f"{index}:{events.seq}:{link.hex()}:{log_link.hex()}"
        page.next_page_token = cursor if signer is None else \
            f"{cursor}:{signer.token_mac(record.game_id, cursor)}"
        return page
    header = page  # a one-page export: the digest leaves out the body and the proofs
    if request.page_token:
        header = _page_header(record, rules)
        _first_page_header(header, record, meta, rules)
    page.header_digest = audit.header_digest(header)
    page.fingerprint = audit.fingerprint(record.game_id, page.header_digest, log_link, link)
    if signer is not None:
        page.signature.CopyFrom(signer.sign(page.fingerprint))
    return page


def _page_header(record: GameRecord, rules: Ruleset[Any, Any, Any]
                 ) -> service_pb2.GameExport:
    """The fields every page repeats."""
    return service_pb2.GameExport(
        game_id=record.game_id,
        variant=wire.variant_enum(record.variant),
        rules_version=rules.rules_version,
        status=record.status,  # type: ignore[arg-type]
        version=record.version,
        format=audit.EXPORT_FORMAT,
    )


def _first_page_header(page: service_pb2.GameExport, record: GameRecord,
                       meta: lifecycle_pb2.GameMeta, rules: Ruleset[Any, Any, Any]) -> None:
    """The fields only the first page holds: with `_page_header`'s, the export's header."""
    state = records.decode_state(record)
    page.options.CopyFrom(wire.options_to_proto(record.variant, state.options))
    page.seed = state.seed
    page.seed_commitment = meta.seed_commitment
    page.seed_nonce = meta.seed_nonce
    page.seat_names.extend(record.names)
    outcome = wire.outcome_to_proto(rules.outcome(state))
    if outcome is not None:
        page.outcome.CopyFrom(outcome)


class _StoredEvents:
    """A game's stored events read forwards in batches, handed out by version."""

    def __init__(self, store: GameStore, game_id: str, after_seq: int) -> None:
        self.store = store
        self.game_id = game_id
        self.seq = after_seq  # the last event handed out
        self.read = after_seq  # the last event read from the store
        self.buffer: list[game_pb2.Event] = []
        self.done = False

    async def _fill(self) -> None:
        page = await self.store.read_events(self.game_id, self.read, EXPORT_READ)
        self.done = len(page) < EXPORT_READ
        if page:
            self.read = page[-1][0]
        self.buffer.extend(game_pb2.Event.FromString(data) for _seq, data in page)

    async def through(self, version: int) -> list[game_pb2.Event]:
        """The next events whose version is at most `version`."""
        out: list[game_pb2.Event] = []
        while True:
            while self.buffer and self.buffer[0].version <= version:
                out.append(self.buffer.pop(0))
            if self.buffer or self.done:
                break
            await self._fill()
        if out:
            self.seq = out[-1].seq
        return out

    async def rest(self) -> list[game_pb2.Event]:
        return await self.through(2**64 - 1)


def _cursor(game_id: str, token: str, signer: ExportSigner | None
            ) -> tuple[int, int, bytes, bytes]:
    """(next log index, last seq exported, the events' chain link after it, the log's) from a
    page token.

    Without a signing key, a client that alters the token only spoils its own export's chains,
    which `verify` recomputes; with one, the token's MAC must hold, since the last page's
    signature covers the links it carries. A token of the format before log chains (three
    parts) is refused too: the export starts again from its first page."""
    if not token:
        return 0, 0, chain_root(game_id), log_root(game_id)
    parts = token.split(":")
    wanted = 4 if signer is None else 5
    try:
        index, seq = int(parts[0]), int(parts[1])
        link, log_link = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
    except (ValueError, IndexError):
        raise malformed("page_token is not one this service issued") from None
    if len(parts) != wanted or index < 0 or seq < 0 or len(link) != 32 or len(log_link) != 32:
        raise malformed("page_token is not one this service issued")
    if signer is not None and not hmac.compare_digest(
            parts[4], signer.token_mac(game_id, ":".join(parts[:4]))):
        raise malformed("page_token is not one this service issued")
    return index, seq, link, log_link


def _canonical_entry(variant: str, entry: game_pb2.LogEntry) -> game_pb2.LogEntry:
    """The entry with its action re-encoded: a log stored before actions were canonicalised
    may hold unknown fields a client sent, which an export does not repeat."""
    if entry.WhichOneof("entry") == "action":
        _variant, action = wire.action_from_proto(entry.action)
        entry.action.CopyFrom(wire.action_to_proto(variant, action))
    return entry


def _filled_entries(events: list[game_pb2.Event], before: int) -> list[game_pb2.LogEntry]:
    """Entries for the versions (1 <= version < `before`) of `events`, which have none."""
    entries: dict[int, game_pb2.LogEntry] = {}
    for event in events:
        if not 0 < event.version < before:
            continue
        entry = entries.get(event.version)
        if entry is None:
            entry = entries[event.version] = game_pb2.LogEntry(
                version=event.version, at_ms=event.at_ms, seat=-1)
        step = _STEPS.get(event.lifecycle.WhichOneof("kind") or "")
        if step and step not in entry.lifecycle.split(","):
            entry.lifecycle = f"{entry.lifecycle},{step}" if entry.lifecycle else step
    return list(entries.values())
