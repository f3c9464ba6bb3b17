"""Exception classes: bad notation is told apart from illegal play.

Every class is a ``ValueError`` so that callers who do not care can catch one thing;
the CLI maps them all to exit code 2.
"""

from __future__ import annotations


class RamiError(ValueError):
    """Base class of every error the library raises on bad input."""


class NotationError(RamiError):
    """Text or JSON that does not parse: an unknown card, a malformed position, bad JSON."""


class UnreadableFileError(RamiError):
    """A file named as input that cannot be read as UTF-8 text."""


class UnknownRulesetError(RamiError):
    """A ruleset name or option that does not exist."""


class InvalidPositionError(RamiError):
    """A position that parses but cannot occur: impossible card counts, illegal table melds."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class IllegalTurnError(RamiError):
    """A turn that breaks the rules (raised where a verdict is demanded, not just asked for)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class UnsupportedError(RamiError):
    """A ruleset/feature combination the solver does not handle (said plainly, never guessed)."""


class SolverBugError(AssertionError):
    """The solver produced an answer the independent referee rejects: always a bug."""
