"""The desk's refusal: the one error every write at the desk raises when it cannot do what it
was asked (`results`, `pairing`, `scoresheets`, `bounds` and the rest subclass or raise it), with
the sentence that says why. It imports nothing of the app, so any module can raise it."""

from __future__ import annotations


class EntryError(ValueError):
    """The director's input cannot be saved; the message says why, in a sentence."""


class PeopleRefused(ValueError):
    """A co-director, scorekeeper or player who cannot be added, moved or removed as asked; the
    message says why."""
