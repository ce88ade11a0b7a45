"""Ratings and leaderboards of free-for-all games (docs/ratings.md).

`model` rates a table with OpenSkill's Bradley-Terry model (a published Weng-Lin model; no
rating arithmetic is written here), `record` is what a rated game's ending commit writes (pure),
`store` keeps each player's rating, history and the leaderboards in Redis, and `service` applies
a finished game's result exactly once and answers GetRating and GetLeaderboard.
"""
