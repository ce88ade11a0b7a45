"""Matchmaking (issue 35, docs/ratings.md "Matchmaking"): players ask to play, the service forms
tables from the waiting requests (`tables`, pure), keeps the requests in Redis (`queue`) and
creates and starts each table's game exactly once (`service`)."""
