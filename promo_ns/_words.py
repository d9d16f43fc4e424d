"""The closest allowed name to a misspelled one, for the errors that suggest it."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["closest"]


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` closest to ``word``, or None where none is close."""
    import difflib  # imported only when a name is misspelled: it is slow to import

    found = difflib.get_close_matches(word, list(choices), n=1)
    return found[0] if found else None
