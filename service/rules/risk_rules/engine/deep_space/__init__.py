"""Risk Deep Space: planets, recruits, gems, ore, bases and action cards (deep-space.md)."""
