"""The words people read about games, kept once for every client (docs/text.md).

`en.json` (and any later locale beside it) holds a sentence template for every event, action,
phase, option, enum value and reason of every variant, in an ICU MessageFormat subset with
named placeholders; `fields.json`, which is not translated, says what each event or action
field holds (a seat, a region, cards, ...) so a renderer knows how to name it. Both are data:
the Python SDK's renderer (`risk_client.text`) reads them from this package, and
`clients/node/scripts/gen-text.sh` embeds them in the Node client and the web app's bundle.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

LOCALES = ("en",)


@cache
def table(locale: str = "en") -> dict[str, Any]:
    """The locale's words with the field kinds beside them (`fields`), as one mapping."""
    if locale not in LOCALES:
        raise ValueError(f"no text for locale {locale!r}: known {', '.join(LOCALES)}")
    here = files(__name__)
    words: dict[str, Any] = json.loads(here.joinpath(f"{locale}.json").read_text("utf-8"))
    words["fields"] = json.loads(here.joinpath("fields.json").read_text("utf-8"))
    return words
