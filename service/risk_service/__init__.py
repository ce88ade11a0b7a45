"""Game-state service for the Risk family of board games.

Layers, inner to outer: ``engine`` (pure rules), ``pb`` (generated protobuf contract),
``wire`` (engine values <-> protobuf), ``store`` (Redis), ``server`` (grpc.aio).
"""
