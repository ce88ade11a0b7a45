"""Game-state service for the Risk family of board games.

Layers, inner to outer: ``store`` (Redis), ``operations`` (every call's meaning, transport-free),
``server`` (grpc.aio). Below them, in distributions of their own that the client shares:
``risk_proto`` (the generated contract) and ``risk_rules`` (the pure engine, ``wire``, the
variant descriptors and the export verifier).
"""
