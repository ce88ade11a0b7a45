"""The tournament director: pairing and seating the rounds of an event (`pairing`), scoring
them by finishing rank (`standings`). Pure modules: no Redis, no gRPC (docs/tournaments.md)."""
