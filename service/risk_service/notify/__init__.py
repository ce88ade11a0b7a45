"""Notifications leaving the service: signed webhooks (Standard Webhooks) to the deployment's
backend, queued durably in Redis and delivered at least once (docs/notifications.md).

Which notices a game's commit makes, and the envelope every message has, are the
operations' (`operations/notices.py`, pure); the operations hand them over through the
`Notify` effect and a protocol (`operations/effects.py`), never importing this package. The
parts here, each importable alone:

- `queue`: the Redis side: one queue per endpoint, claims under a lease, retries, dead
  letters, the per-endpoint counts.
- `outbox`: exactly-once enqueue from a commit (the commit records its notices in the game's
  hash; they are queued after it, or by the sweeper after a crash).
- `delivery`: the worker that signs and posts each message (httpx), with backoff.
- `webhooks`: `Webhooks`, the one object the rest of the service holds.
"""
