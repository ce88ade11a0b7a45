"""Risk Strike, the card and dice game, as in `shared/rules/strike.md`."""
