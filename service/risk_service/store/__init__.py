"""Redis persistence: snapshots, event streams, request records, seat digests and indexes."""
