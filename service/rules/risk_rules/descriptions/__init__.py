"""The board as data: each variant's `risk.v1.VariantDescription` (variant.proto), for
DescribeVariant and ListVariants.

`build.describe` joins what every variant has (its number, name, rules version, the seat
counts its rules accept, its Options message's fields with the defaults its rules give) with
what only the variant can say, from its descriptor's `describe` hook: a title, the map with
coordinates to draw it, the decks, and the options' ranges and descriptions. A variant without
the hook (one brought in through RISK_EXTRA_VARIANTS, say) is still described, from the
generic part alone. The per-variant hooks are this package's other modules; the coordinates
they place regions at are data files next to each board in the engine (`layout.json`).
"""
