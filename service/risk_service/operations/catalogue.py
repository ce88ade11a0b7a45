"""DescribeVariant and ListVariants: the board as data, for every variant this process serves.

A description depends only on the variant's descriptor (its rules, messages and `describe`
hook), so each is built once, on first asking, and kept: the same for every caller and public,
no token is read. It is built after start-up has registered RISK_EXTRA_VARIANTS, since nothing
asks before the first call; a descriptor registered later under a new name is described when
first asked for.
"""

from __future__ import annotations

from risk_proto.risk.v1 import variant_pb2
from risk_rules import variants
from risk_rules.descriptions.build import describe
from risk_rules.variants import VariantDescriptor
from risk_service import clocks
from risk_service.errors import Code, ServiceError, ServiceReason, malformed


def _spelling(name: str) -> str:
    """A name as the engine spells it: "Deep-Space", "VARIANT_DEEP_SPACE" -> "deep_space"."""
    name = name.strip().lower().replace("-", "_").replace(" ", "_")
    return name.removeprefix("variant_")


class Catalogue:
    def __init__(self) -> None:
        self._described: dict[str, tuple[VariantDescriptor, variant_pb2.VariantDescription]] = {}

    def _description(self, described: VariantDescriptor) -> variant_pb2.VariantDescription:
        known = self._described.get(described.name)
        if known is None or known[0] is not described:
            description = describe(described)
            description.clock_options.extend(clocks.described_options())  # the service's
            known = self._described[described.name] = (described, description)
        return known[1]

    def _find(self, request: variant_pb2.DescribeVariantRequest) -> VariantDescriptor:
        if request.variant:
            found = variants.by_number(request.variant)
            asked = f"number {request.variant}"
        elif request.name:
            found = variants.DESCRIPTORS.get(_spelling(request.name))
            asked = repr(request.name)
        else:
            raise malformed("name the variant: its number (variant) or its name")
        if found is None:
            known = ",".join(sorted(variants.DESCRIPTORS))
            raise ServiceError(Code.NOT_FOUND, ServiceReason.VARIANT_NOT_FOUND,
                               f"no variant {asked} is served here; known: {known}",
                               {"known": known})
        return found

    def describe(self, request: variant_pb2.DescribeVariantRequest
                 ) -> variant_pb2.DescribeVariantResponse:
        return variant_pb2.DescribeVariantResponse(variant=self._description(self._find(request)))

    def list(self, request: variant_pb2.ListVariantsRequest) -> variant_pb2.ListVariantsResponse:
        served = sorted(variants.DESCRIPTORS.values(), key=lambda d: d.number)
        return variant_pb2.ListVariantsResponse(
            variants=[self._description(described) for described in served])
