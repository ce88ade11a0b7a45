"""Broadcasts (docs/broadcasts.md): many games in one stream (`games.py`, StreamGames) and the
spectator counts shown in game summaries (`spectators.py`)."""
