"""An argparse parser whose epilog is written only when its help is shown.

Every `risk` command line builds all the parsers; an epilog that needs the engines (the submit
grammar: every variant's action words; the Legacy factions) would make every command import
them. `epilog_from` defers that to `--help`. Subparsers made from a `LazyEpilogParser` are
`LazyEpilogParser`s too (argparse makes them of the parent's class), so `add_parser` takes
`epilog_from` as well.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


class LazyEpilogParser(argparse.ArgumentParser):
    """A parser whose epilog may be written only when help is shown (`epilog_from`): the
    submit grammar needs every variant's action words, which a command that runs never
    shows."""

    def __init__(self, *args: Any, epilog_from: Callable[[], str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.epilog_from = epilog_from

    def format_help(self) -> str:
        if self.epilog_from is not None:
            self.epilog = self.epilog_from()
        return super().format_help()
