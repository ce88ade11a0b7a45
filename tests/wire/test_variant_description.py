"""The board as data without a service: every region of every variant's map has a place to be
drawn, inside the view box and clear of every other region (and hub), and a variant whose
descriptor has no `describe` hook is still described from its rules and messages."""

from __future__ import annotations

import itertools
import math

import pytest

from risk_proto.risk.v1 import variant_pb2
from risk_rules import variants
from risk_rules.descriptions.build import describe
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD as BOARD
from tests.variants.tiny.descriptor import DESCRIPTOR as TINY

CONTRACT = ["classic", "deep_space", "strike", "legacy"]


@pytest.mark.parametrize("name", CONTRACT)
def test_every_region_is_placed_inside_the_view_box_and_clear_of_the_others(name: str) -> None:
    """Each region (and hub) has a centre and a radius inside the view box, and no two of their
    circles overlap, so a renderer drawing each as its circle draws a readable board."""
    drawn = describe(variants.descriptor(name)).map
    box = drawn.view_box
    assert box.width > 0 and box.height > 0
    circles = [(r.name, r.x, r.y, r.radius) for r in drawn.regions]
    circles += [(h.name, h.x, h.y, h.radius) for h in drawn.hubs]
    assert len(drawn.regions) == len({r.name for r in drawn.regions}) > 0
    for label, x, y, radius in circles:
        assert radius > 0, label
        assert box.x + radius <= x <= box.x + box.width - radius, label
        assert box.y + radius <= y <= box.y + box.height - radius, label
    for (a, ax, ay, ar), (b, bx, by, br) in itertools.combinations(circles, 2):
        assert math.dist((ax, ay), (bx, by)) >= ar + br, f"{a} overlaps {b}"


def test_deep_space_hub_and_layouts_are_the_boards() -> None:
    """The gem warp joins exactly the warp-tagged planets; each seat count's layout names its
    home stations and the regions out of play, as board.json has them."""
    drawn = describe(variants.descriptor("deep_space")).map
    (warp,) = drawn.hubs
    assert set(warp.members) == set(BOARD.warp)
    assert {r.id for r in drawn.regions if "warp" in r.tags} == set(BOARD.warp)
    assert {layout.players: list(layout.homes) for layout in drawn.layouts} == {
        players: list(layout.stations) for players, layout in BOARD.layouts.items()}
    for layout in drawn.layouts:
        in_play = BOARD.layouts[layout.players].in_play
        assert set(layout.out_of_play) == {n for n, live in enumerate(in_play) if not live}


def test_classic_wraps_only_alaska_to_kamchatka() -> None:
    """The one link across the board's edge is marked, so it is not drawn across the map."""
    drawn = describe(variants.descriptor("classic")).map
    wrapped = [(drawn.regions[link.a].name, drawn.regions[link.b].name)
               for link in drawn.links if link.wraps]
    assert wrapped == [("Alaska", "Kamchatka")]


def test_a_variant_without_a_describe_hook_is_described_from_its_rules() -> None:
    """Tiny (tests/variants/tiny) has no hook: its seat counts are what its rules accept, its
    options its message's fields with its rules' defaults; it has no map to draw."""
    assert TINY.describe == ""
    description = describe(TINY)
    assert description.name == "tiny" and description.title == "tiny"
    assert description.variant == TINY.number
    for players in description.seat_counts:
        TINY.rules.create(TINY.rules.default_options(players), 3)
    assert description.seat_counts and description.default_players == 2
    defaults = TINY.rules.default_options(description.default_players)
    assert [(o.name, o.type, o.default_value.int_value) for o in description.options] == [
        ("players", variant_pb2.OPTION_TYPE_INT, defaults.players),
        ("territories", variant_pb2.OPTION_TYPE_INT, defaults.territories),
    ]
    assert not description.map.regions and not description.decks
