"""The rules both sides of the wire need: the pure engine, the protobuf mapping
(codec, variants, wire), lifecycle events and the audit verifier. No service, no
transport: the client installs this package to render and verify games without the server.
"""
