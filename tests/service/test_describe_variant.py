"""DescribeVariant and ListVariants on a real service process, over gRPC and over the HTTP
port (JSON POST, Connect binary, Connect GET): the board a client draws is the engine's board
(issue 17 item 2).

Each description is checked against the engine itself, not against recorded values: the
region count and names, an adjacency that is symmetric and equal to the rules' own, every
card of every deck, the seat counts `create` accepts, and option defaults that decode to the
engine's default options.
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Sequence
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from risk_proto.risk.v1 import common_pb2, service_pb2_grpc, variant_pb2
from risk_rules import codec, variants, wire
from risk_rules.engine import IllegalAction
from risk_rules.engine.classic.board import CLASSIC_BOARD
from risk_rules.engine.classic.board import DECK_SIZE as CLASSIC_DECK
from risk_rules.engine.deep_space.board import DEEP_SPACE_BOARD
from risk_rules.engine.deep_space.cards import DECK_SIZE as DEEP_SPACE_DECK
from risk_rules.engine.legacy.content import BASE_CONTENT
from risk_rules.engine.strike.cards import ALL_CARDS, CONTINENT_NAMES, LINKS
from risk_testing.harness import ServiceFactory, ServiceProcess
from risk_testing.rpc import error_info
from tests.service.test_http import SERVICE, info_of, post, post_json

# the engine's own board per variant: (region names by id, links by id)
ENGINE_MAPS: dict[str, tuple[Sequence[str], Sequence[Sequence[int]]]] = {
    "classic": (CLASSIC_BOARD.names, CLASSIC_BOARD.links),
    "legacy": (CLASSIC_BOARD.names, CLASSIC_BOARD.links),
    "deep_space": (DEEP_SPACE_BOARD.names, DEEP_SPACE_BOARD.links),
    "strike": (CONTINENT_NAMES, LINKS),
}
# every card id the engine deals, per variant, over all its decks
ENGINE_CARDS = {
    "classic": CLASSIC_DECK,
    "legacy": len(CLASSIC_BOARD.names) + BASE_CONTENT.coin_cards,
    "deep_space": DEEP_SPACE_DECK,
    "strike": ALL_CARDS,
}
CONTRACT = [("classic", common_pb2.VARIANT_CLASSIC), ("deep_space", common_pb2.VARIANT_DEEP_SPACE),
            ("strike", common_pb2.VARIANT_STRIKE), ("legacy", common_pb2.VARIANT_LEGACY)]


def check_against_engine(description: variant_pb2.VariantDescription) -> None:
    """Fails unless `description` says what the engine's rules say."""
    described = variants.descriptor(description.name)
    rules = described.rules
    assert description.variant == described.number
    assert description.rules_version == rules.rules_version

    names, links = ENGINE_MAPS[description.name]
    regions = description.map.regions
    assert len(regions) == len(names)
    assert [(r.id, r.name) for r in regions] == list(enumerate(names))
    adjacency = {r.id: set(r.adjacent) for r in regions}
    assert all(a in adjacency[b] for a, linked in adjacency.items() for b in linked)
    assert adjacency == {i: set(linked) for i, linked in enumerate(links)}
    assert {(link.a, link.b) for link in description.map.links} == {
        (a, b) for a, linked in adjacency.items() for b in linked if a < b}
    for group in description.map.groups:
        assert all(regions[m].group == group.id for m in group.members)

    cards = [card.id for deck in description.decks for card in deck.cards]
    assert sorted(cards) == list(range(ENGINE_CARDS[description.name]))

    counts = list(description.seat_counts)
    assert counts == list(range(counts[0], counts[-1] + 1))
    for players in counts:
        rules.create(rules.default_options(players), 5)
    for players in (counts[0] - 1, counts[-1] + 1):
        with pytest.raises(IllegalAction):
            rules.create(rules.default_options(players), 5)

    # every default, put into the variant's Options message, decodes to the engine's defaults
    engine_defaults = rules.default_options(description.default_players)
    message = described.messages.options()
    for option in description.options:
        which = option.default_value.WhichOneof("value")
        if which is not None:
            setattr(message, option.name, getattr(option.default_value, which))
    assert codec.from_message(message, rules.options_type) == engine_defaults
    assert wire.options_from_proto(description.default_options) == (description.name,
                                                                    engine_defaults)
    assert [o.name for o in description.options] == [
        f.name for f in described.messages.options.DESCRIPTOR.fields]
    players = next(o for o in description.options if o.name == "players")
    assert (players.min, players.max) == (counts[0], counts[-1])


def test_describe_variant_over_grpc(make_service: ServiceFactory, redis_client: object) -> None:
    """Over gRPC, each variant of the contract, asked by number or by name, is described as
    the engine has it; ListVariants lists the same four descriptions; an unknown variant is
    NOT_FOUND / VARIANT_NOT_FOUND naming the known ones, and a request naming none is
    INVALID_ARGUMENT / MALFORMED_REQUEST."""
    service = make_service()
    with grpc.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        for name, number in CONTRACT:
            by_number = stub.DescribeVariant(variant_pb2.DescribeVariantRequest(variant=number))
            check_against_engine(by_number.variant)
            assert by_number.variant.name == name
            by_name = stub.DescribeVariant(variant_pb2.DescribeVariantRequest(name=name))
            assert by_name == by_number
        listed = stub.ListVariants(variant_pb2.ListVariantsRequest())
        assert [(d.name, d.variant) for d in listed.variants] == CONTRACT
        for description in listed.variants:
            check_against_engine(description)

        with pytest.raises(grpc.RpcError) as unknown:
            stub.DescribeVariant(variant_pb2.DescribeVariantRequest(name="chess"))
        assert unknown.value.code() is grpc.StatusCode.NOT_FOUND
        info = error_info(unknown.value)  # type: ignore[arg-type]
        assert info.reason == "VARIANT_NOT_FOUND"
        assert info.metadata["known"] == "classic,deep_space,legacy,strike"
        with pytest.raises(grpc.RpcError) as numbered:
            stub.DescribeVariant(variant_pb2.DescribeVariantRequest(variant=999))
        assert numbered.value.code() is grpc.StatusCode.NOT_FOUND
        with pytest.raises(grpc.RpcError) as empty:
            stub.DescribeVariant(variant_pb2.DescribeVariantRequest())
        assert empty.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(empty.value).reason == "MALFORMED_REQUEST"  # type: ignore[arg-type]


def _get(service: ServiceProcess, method: str, payload: dict[str, Any]
         ) -> tuple[int, dict[str, str], bytes]:
    """Connect's GET for a side-effect-free call: the message as JSON in the query."""
    url = urllib.parse.urlsplit(service.http_url)
    query = urllib.parse.urlencode({"connect": "v1", "encoding": "json",
                                    "message": json.dumps(payload)})
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
    try:
        conn.request("GET", f"{SERVICE}{method}?{query}")
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def test_describe_variant_over_http(make_service: ServiceFactory, redis_client: object) -> None:
    """Over the HTTP port, JSON POSTs, Connect's binary protocol and Connect GET (cacheable)
    answer what gRPC answers, and each description is the engine's; an unknown variant is
    HTTP 404, Connect's not_found and VARIANT_NOT_FOUND in ErrorInfo."""
    service = make_service(http=True)
    with grpc.insecure_channel(service.target) as channel:
        stub = service_pb2_grpc.RiskServiceStub(channel)
        over_grpc = {name: stub.DescribeVariant(variant_pb2.DescribeVariantRequest(name=name))
                     for name, _number in CONTRACT}

    for name, number in CONTRACT:
        status, answer = post_json(service, "DescribeVariant", {"name": name})
        assert status == 200, answer
        posted = json_format.ParseDict(answer, variant_pb2.DescribeVariantResponse())
        check_against_engine(posted.variant)
        assert posted == over_grpc[name]

        request = variant_pb2.DescribeVariantRequest(variant=number).SerializeToString()
        status, _headers, body = post(service, "DescribeVariant", request, "application/proto")
        assert status == 200
        assert variant_pb2.DescribeVariantResponse.FromString(body) == over_grpc[name]

        status, headers, body = _get(service, "DescribeVariant",
                                     {"variant": common_pb2.Variant.Name(number)})
        assert status == 200, body
        assert headers["cache-control"].startswith("public, max-age=")
        got = json_format.Parse(body, variant_pb2.DescribeVariantResponse())
        assert got == over_grpc[name]

    status, answer = post_json(service, "ListVariants", {})
    assert status == 200
    listed = json_format.ParseDict(answer, variant_pb2.ListVariantsResponse())
    assert list(listed.variants) == [over_grpc[name].variant for name, _ in CONTRACT]

    status, refused = post_json(service, "DescribeVariant", {"name": "chess"})
    assert status == 404
    assert refused["code"] == "not_found"
    assert info_of(refused).reason == "VARIANT_NOT_FOUND"
    # the same refusal through GET: a browser's fetch reads the same error JSON
    status, _headers, body = _get(service, "DescribeVariant", {"name": "chess"})
    assert status == 404 and info_of(json.loads(body)).reason == "VARIANT_NOT_FOUND"
