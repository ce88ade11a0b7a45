"""argparse parsers that build what a command line does not use only when it is used.

Every `risk` command line declares all the parsers (some fifty commands and actions), but one
command runs: building the others (each `ArgumentParser` looks up argparse's translations
three times, each option makes a help formatter) would cost every command more than parsing
it. Two things are deferred:

- an epilog that needs the engines (the submit grammar: every variant's action words; the
  Legacy factions) is written only when the help is shown: `epilog_from`. Subparsers made from
  a `LazyEpilogParser` are `LazyEpilogParser`s too (argparse makes them of the parent's class),
  so `add_parser` takes `epilog_from` as well;
- a command's parser is built when it is looked up (`LazySubParsersAction`, given to
  `add_subparsers` as its `action`): `add_parser` records the calls made on the parser it
  returns and makes them on the real parser, in the same order, the first time the command is
  parsed or its parser is asked for. Its name, help line and place in the list are there at
  once, so `risk --help`, a mistyped command and the parser's choices read as before.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any


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


class _Recorded:
    """The calls made on a parser not built yet (or on a group, an argument or a subparsers
    action of it), to be made on the real one; each call answers a `_Recorded` of its own, for
    the calls made on what it returned. Only the calls that declare are taken: anything else
    (reading `prog`, formatting help) is an AttributeError at once, never a wrong answer."""

    _DECLARING = frozenset({"add_argument", "add_argument_group", "add_mutually_exclusive_group",
                            "add_subparsers", "add_parser", "set_defaults"})

    def __init__(self) -> None:
        self._calls: list[tuple[str, tuple[Any, ...], dict[str, Any], _Recorded]] = []

    def __getattr__(self, name: str) -> Callable[..., _Recorded]:
        if name not in self._DECLARING:
            raise AttributeError(f"{name!r} of a parser not built yet")

        def call(*args: Any, **kwargs: Any) -> _Recorded:
            returned = _Recorded()
            self._calls.append((name, args, kwargs, returned))
            return returned
        return call

    def replay(self, target: Any) -> None:
        for name, args, kwargs, returned in self._calls:
            returned.replay(getattr(target, name)(*args, **kwargs))


class _Pending(_Recorded):
    """A command's parser as `add_parser` declared it: its constructor's arguments, then the
    calls made on it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self._kwargs = kwargs

    def build(self, parser_class: type[argparse.ArgumentParser]) -> argparse.ArgumentParser:
        parser = parser_class(**self._kwargs)
        self.replay(parser)
        return parser


class _Parsers(dict[str, Any]):
    """Command name -> its parser, built on the first lookup (in the declared order, so the
    choices an error lists are as before); aliases share it."""

    def __init__(self, parser_class: type[argparse.ArgumentParser]) -> None:
        super().__init__()
        self._parser_class = parser_class

    def __getitem__(self, name: str) -> Any:
        value = super().__getitem__(name)
        if isinstance(value, _Pending):
            pending, value = value, value.build(self._parser_class)
            for key in [key for key, held in super().items() if held is pending]:
                super().__setitem__(key, value)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        if not super().__contains__(name):
            return default
        return self[name]

    def items(self) -> Any:
        return [(name, self[name]) for name in self]

    def values(self) -> Any:
        return [self[name] for name in self]


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[Any]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class LazySubParsersAction(_SubParsers):
    """`add_subparsers(action=LazySubParsersAction)`: argparse's subcommands, each parser built
    when its command is looked up (see the module's doc). `add_parser` does what argparse's
    does (the prog, the aliases, the conflicts, the help line) but returns a recorder of the
    calls that declare the parser."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        parsers = _Parsers(self._parser_class)
        self._name_parser_map = self.choices = parsers
        self._parser_class = _Pending  # what add_parser makes: see _Parsers for the real one
