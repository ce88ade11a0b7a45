"""Classic Risk (42 territories), as in `shared/rules/classic.md`."""
