"""Named things on a board (territories, planets, continents): ids from names, with suggestions.

A `Places` is one variant's list of names in id order. `find` takes a name in any case and with
any spacing or punctuation ("western united states", "Western-United-States") or an id, and a
name it does not know is refused with the closest names as suggestions (`Alsaka` -> Alaska).
`read` takes the longest run of command-line words that names a place, so multi-word names need
no quotes. Pure data, no service.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence


def name_key(text: str) -> str:
    """A name reduced to lower-case letters and digits: how names are compared."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def suggestions(word: str, known: Sequence[str]) -> list[str]:
    """The known names closest to a misspelt `word`: containing it, or similar enough."""
    import difflib  # noqa: PLC0415 - only for a name that was not found

    key = name_key(word)
    if not key:
        return []
    by_key = {name_key(n): n for n in known}
    close = [by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)]
    containing = [n for k, n in by_key.items() if key in k and n not in close]
    return (close + containing)[:4]


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """"; did you mean Alaska?" for a misspelt name, or "" when nothing is close."""
    close = suggestions(word, known)
    return f"; did you mean {' or '.join(close)}?" if close else ""


class Places:
    """The names of one kind of place, id = position; `what` names the kind in messages."""

    def __init__(self, what: str, names: Sequence[str]) -> None:
        self.what = what
        self.names = tuple(names)
        self._by_key = {name_key(n): i for i, n in enumerate(self.names)}
        self._longest = max((len(n.split()) for n in self.names), default=1)

    def name(self, place: int) -> str:
        """The place's name, or a placeholder for an id outside the list."""
        if 0 <= place < len(self.names):
            return self.names[place]
        return f"{self.what} #{place}"

    def word(self, place: int) -> str:
        """The name as one shell word (quoted when it has spaces), for commands to copy."""
        return shlex.quote(self.name(place))

    def find(self, name_or_id: str | int) -> int:
        """The id of a name (case, spaces and punctuation ignored) or of an id in range."""
        if isinstance(name_or_id, int):
            if 0 <= name_or_id < len(self.names):
                return name_or_id
            raise ValueError(f"{self.what} id must be 0..{len(self.names) - 1}, got {name_or_id}")
        text = name_or_id.strip()
        if text.lstrip("-").isdigit():
            return self.find(int(text))
        found = self._by_key.get(name_key(text))
        if found is None:
            raise ValueError(f"no {self.what} named {name_or_id!r}"
                             f"{did_you_mean(text, self.names)}")
        return found

    def read(self, words: Sequence[str], at: int) -> tuple[int, int]:
        """The place named by the longest run of `words` from `at`, and how many words it took;
        raises (with suggestions) when no run names one."""
        first = words[at]
        if first.strip().lstrip("-").isdigit():
            return self.find(first), 1
        for span in range(min(self._longest, len(words) - at), 0, -1):
            found = self._by_key.get(name_key(" ".join(words[at:at + span])))
            if found is not None:
                return found, span
        return self.find(first), 1  # raises with the suggestions
