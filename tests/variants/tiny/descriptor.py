"""Tiny's descriptor: all a process needs to serve it.

    RISK_EXTRA_VARIANTS=tests.variants.tiny.descriptor python -m risk_service

Its messages are compiled from tiny.proto here, at import, into a pool of their own (with
grpc_tools' protoc, as scripts/gen_protos.py does for the contract), so nothing generated is
checked in and nothing outside this folder names the variant.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from risk_rules.variants import FIRST_EXTENSION_NUMBER, Defaults, Messages, VariantDescriptor
from tests.variants.tiny.rules import TinyRules

HERE = Path(__file__).resolve().parent
PACKAGE = "risk.tests.tiny.v1"


def _compile() -> descriptor_pool.DescriptorPool:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tiny.pb"
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{HERE}",
                        f"--descriptor_set_out={out}", "tiny.proto"], check=True)
        (file,) = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return pool


_POOL = _compile()
MESSAGES = Messages(*(message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName(f"{PACKAGE}.Tiny{kind}"))
    for kind in ("Options", "Action", "Event", "State", "View")))

DESCRIPTOR = VariantDescriptor(
    rules=TinyRules(),
    messages=MESSAGES,
    number=FIRST_EXTENSION_NUMBER + 7,
    case=None,  # outside the contract: carried in the envelopes' `extension` case
    defaults=Defaults(phases=("claim",), golden=None),
)
