"""Exception classes, and the one table that maps each of them to an exit code and an HTTP status.

Every error the library raises on bad input is a :class:`RamiError` (itself a ``ValueError``, so
that callers who do not care can catch one thing). Each class carries its ``exit_code`` (what the
command line exits with) and its ``http_status`` (what the service answers with); subclasses
inherit them. :func:`exit_code` and :func:`http_status` look any exception up, and
:func:`error_json` gives the JSON form every ``--json`` command prints on failure.

======================  =========  ===========  ==============================================
class                   exit code  HTTP status  raised for
======================  =========  ===========  ==============================================
RamiError               2          422          (base) any bad input
NotationError           2          422          text or JSON that does not parse (``loc``)
UnreadableFileError     2          422          a named file or standard input unreadable
InputTooLargeError      2          413          an input past its size bound
UnknownRulesetError     2          422          an unknown preset or rule option
InvalidPositionError    2          422          a position that cannot occur (``problems``)
IllegalTurnError        2          422          a turn that breaks the rules (``problems``)
UnsupportedError        2          422          a ruleset the solver does not handle
ClusterUnavailableError 2          503          ``--ray``: ray not installed, cluster unreachable
TaskFailedError         1          500          a task that failed on every retry (``rami.scale``)
SolverBugError          1          500          the referee rejects the solver's answer: a bug
KeyboardInterrupt       130        499          interrupted (Ctrl-C)
anything else           1          500          an internal error
======================  =========  ===========  ==============================================

Messages stay short whatever the input: a quoted piece of input longer than
:data:`MAX_QUOTE` characters is cut, with ``...`` (:func:`quote`, applied to every message).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

#: Exit codes of the command line.
EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

#: Characters of the input a message quotes at most (then ``...``).
MAX_QUOTE = 80

#: A Python string literal as ``repr`` writes it, in either quote.
_LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")

Loc = tuple[str | int, ...]


def shorten(text: str, limit: int = MAX_QUOTE) -> str:
    """``text``, cut to ``limit`` characters with ``...`` when longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """``repr(text)`` of at most ``limit`` characters of it: ``'7H 8H 9H ...'``."""
    return repr(shorten(text, limit))


def shown(value: Any, limit: int = MAX_QUOTE) -> str:
    """``repr(value)`` cut to ``limit`` characters (for values read from JSON)."""
    if isinstance(value, str):
        return quote(value, limit)
    text = (
        repr(value)
        if not isinstance(value, list | dict) or len(value) < 1000
        else (f"<{type(value).__name__} of {len(value)} items>")
    )
    return shorten(text, limit)


def bounded(message: str) -> str:
    """The message with every quoted piece longer than :data:`MAX_QUOTE` characters cut."""
    if len(message) <= MAX_QUOTE + 2:
        return message

    def cut(match: re.Match[str]) -> str:
        literal = match.group(0)
        if len(literal) <= MAX_QUOTE + 2:
            return literal
        return literal[: MAX_QUOTE + 1] + "..." + literal[0]

    return _LITERAL.sub(cut, message)


class RamiError(ValueError):
    """Base class of every error the library raises on bad input.

    ``loc`` is the path of the field at fault, when known (like pydantic's: ``("table", 2, 1)``
    is the second card of the third meld of a JSON position), ``problems`` the list of every
    problem found (empty unless the error gathers several).
    """

    exit_code: ClassVar[int] = EXIT_BAD_INPUT
    http_status: ClassVar[int] = 422
    problems: Sequence[str] = ()

    def __init__(self, message: str = "", *, loc: Sequence[str | int] | None = None) -> None:
        super().__init__(bounded(message))
        self.loc: Loc | None = tuple(loc) if loc is not None else None

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.args, self.__dict__))

    def to_json(self) -> dict[str, Any]:
        """``{"type", "message", "loc", "problems"}``: the ``error`` object of a JSON answer."""
        return {
            "type": type(self).__name__,
            "message": str(self),
            "loc": list(self.loc) if self.loc is not None else None,
            "problems": list(self.problems),
        }


def _rebuild(cls: type[RamiError], args: tuple[Any, ...], state: dict[str, Any]) -> RamiError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class NotationError(RamiError):
    """Text or JSON that does not parse: an unknown card, a malformed position, bad JSON."""


class UnreadableFileError(RamiError):
    """A file named as input (or standard input) that cannot be read as UTF-8 text."""


class InputTooLargeError(UnreadableFileError):
    """An input (a file, standard input, a pack) longer than its size bound."""

    http_status: ClassVar[int] = 413


class UnknownRulesetError(RamiError):
    """A ruleset name or option that does not exist."""


class _Problems(RamiError):
    """An error that gathers several problems; ``str(e)`` joins them with ``"; "``."""

    def __init__(self, problems: Sequence[str], *, loc: Sequence[str | int] | None = None) -> None:
        self.problems = [bounded(str(problem)) for problem in problems]
        super().__init__("; ".join(self.problems), loc=loc)


class InvalidPositionError(_Problems):
    """A position that parses but cannot occur: impossible card counts, illegal table melds."""


class IllegalTurnError(_Problems):
    """A turn that breaks the rules (raised where a verdict is demanded, not just asked for)."""


class UnsupportedError(RamiError):
    """A ruleset/feature combination the solver does not handle (said plainly, never guessed)."""


class ClusterUnavailableError(RamiError):
    """``--ray`` given, but the ``ray`` package is not installed or the cluster cannot be
    reached (what to install or start is in the message)."""

    http_status: ClassVar[int] = 503


class TaskFailedError(RamiError):
    """A task of a scaled-out run (:mod:`rami.scale`) failed on every retry: its result would
    be missing, so the whole run stops (an internal error, exit 1)."""

    exit_code: ClassVar[int] = EXIT_INTERNAL
    http_status: ClassVar[int] = 500


class SolverBugError(AssertionError):
    """The solver produced an answer the independent referee rejects: always a bug."""

    exit_code: ClassVar[int] = EXIT_INTERNAL
    http_status: ClassVar[int] = 500


def exit_code(error: BaseException) -> int:
    """The command line's exit code for an error (the table above)."""
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    code = getattr(type(error), "exit_code", None)
    return (
        code
        if isinstance(code, int) and isinstance(error, RamiError | SolverBugError)
        else (EXIT_INTERNAL)
    )


def http_status(error: BaseException) -> int:
    """The service's HTTP status for an error (the table above)."""
    if isinstance(error, KeyboardInterrupt):
        return 499
    if isinstance(error, RamiError | SolverBugError):
        return type(error).http_status
    return 500


def error_json(error: BaseException, message: str | None = None) -> dict[str, Any]:
    """The ``error`` object of a JSON answer, for any exception (``message`` overrides)."""
    if isinstance(error, RamiError):
        data = error.to_json()
    else:
        data = {
            "type": "Interrupted" if isinstance(error, KeyboardInterrupt) else type(error).__name__,
            "message": bounded(str(error)),
            "loc": None,
            "problems": [],
        }
    if message is not None:
        data["message"] = message
    return data
