"""Reading positions for the CLI: a file path, ``-`` for standard input, or the position inline.

Everything here raises :class:`CliError` with a message that names the input and the part at
fault; the commands turn it into exit code 2 (or a JSON error under ``--json``). The library
does the parsing. Inputs are bounded: a position file or standard input holds at most
:data:`~rami.textfile.MAX_POSITION_BYTES`, a ``--batch`` file
:data:`~rami.textfile.MAX_FILE_BYTES`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rami.errors import InvalidPositionError, RamiError, shorten
from rami.lang import ENGLISH, Language
from rami.notation import json_value_kind, parse_position_any
from rami.position import Position
from rami.textfile import (
    MAX_FILE_BYTES,
    MAX_POSITION_BYTES,
    file_lines,
    read_stdin,
    read_text_file,
    stdin_lines,
)

STDIN = "-"

#: The text notation never holds a dot, so a dotted word is a file name (``demo.txt``).
_FILE_LIKE = re.compile(r"\S*\.[A-Za-z0-9]+")


class CliError(RamiError):
    """Bad input: a message, and the problems of an invalid position (one line each).

    ``type_name`` is the ``type`` of the JSON error (the library error it stands for, or
    ``UsageError`` for a command line used wrongly).
    """

    def __init__(
        self,
        message: str,
        problems: Sequence[str] = (),
        *,
        loc: Sequence[str | int] | None = None,
        type_name: str = "UsageError",
    ) -> None:
        super().__init__(message, loc=loc)
        self.message = str(self)
        self.problems = [shorten(str(problem), 300) for problem in problems]
        self.type_name = type_name

    @classmethod
    def from_error(cls, error: RamiError, message: str | None = None) -> CliError:
        """The library error as a CliError (same type name, loc and problems)."""
        if isinstance(error, CliError):
            return (
                error
                if message is None
                else cls(message, error.problems, loc=error.loc, type_name=error.type_name)
            )
        return cls(
            str(error) if message is None else message,
            list(error.problems),
            loc=error.loc,
            type_name=type(error).__name__,
        )

    def lines(self) -> list[str]:
        return [self.message, *(f"  - {problem}" for problem in self.problems)]

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["type"] = self.type_name
        data["message"] = self.message.removesuffix(":")
        return data


class Source:
    """Where a position came from (``label`` prefixes messages; empty for inline text)."""

    def __init__(self, label: str, text: str, *, canonical: bool = False) -> None:
        self.label = label
        self.text = text
        #: Written by rami itself (a shipped puzzle): canonical cards whatever the language.
        self.canonical = canonical

    def prefix(self, message: str) -> str:
        return f"{shorten(self.label)}: {message}" if self.label else message


def read_text(path: str, *, limit: int = MAX_FILE_BYTES, errors: str = "strict") -> str:
    """Read a whole file, or standard input for ``-``, as UTF-8 text (at most ``limit`` bytes;
    ``errors``: as :func:`rami.textfile.decode`)."""
    try:
        if path == STDIN:
            return read_stdin(limit=limit, errors=errors)
        return read_text_file(path, limit=limit, errors=errors)
    except RamiError as error:
        raise CliError.from_error(error) from None


def text_lines(path: str, *, max_line_bytes: int) -> Iterator[tuple[int, str]]:
    """The numbered lines of a file, or standard input for ``-``, streamed whatever the size
    (:func:`rami.textfile.split_lines`: at most ``max_line_bytes`` a line); a CliError naming
    the input (and the line) when it cannot be read, raised as the iteration reaches it."""
    try:
        if path == STDIN:
            yield from stdin_lines(max_line_bytes=max_line_bytes)
        else:
            yield from file_lines(path, max_line_bytes=max_line_bytes)
    except RamiError as error:
        raise CliError.from_error(error) from None


def check_time_limit(seconds: float, option: str = "--time-limit") -> float:
    """``seconds`` when it is a finite positive number; else a CliError (``inf``, ``1e309``
    and ``nan`` read as floats, and would let the solver search without end)."""
    if not math.isfinite(seconds):
        raise CliError(f"{option} must be a finite number of seconds, got {seconds}")
    if not seconds > 0:
        raise CliError(f"{option} must be a positive number of seconds, got {seconds}")
    return seconds


def looks_like_path(argument: str) -> bool:
    """True when an argument that names no existing file is meant as a file name anyway."""
    text = argument.strip()
    if not text or text.startswith("{"):
        return False
    if any(char.isspace() for char in text) or "|" in text:
        return False
    return "/" not in text or _FILE_LIKE.fullmatch(text) is not None


def resolve(argument: str) -> Source:
    """Turn a POSITION argument into its text: stdin, a file, or the argument itself."""
    if argument == STDIN:
        return Source("<stdin>", read_text(STDIN, limit=MAX_POSITION_BYTES))
    stripped = argument.strip()
    if not stripped or stripped.startswith("{") or "\n" in stripped:
        return Source("", argument)
    if _exists(argument):
        return Source(argument, read_text(argument, limit=MAX_POSITION_BYTES))
    if json_value_kind(stripped) is not None:  # 42, null, [1, 2]: JSON, not a file name
        return Source("", argument)
    if _PUZZLE_ID.fullmatch(stripped):  # a shipped puzzle: rami hint rc-44022bd5db
        return _puzzle_source(stripped)
    if looks_like_path(argument):
        return Source(argument, read_text(argument, limit=MAX_POSITION_BYTES))
    return Source("", argument)


_PUZZLE_ID = re.compile(r"rc-[0-9a-f]{10}")


def _puzzle_source(puzzle_id: str) -> Source:
    """The position of a puzzle of the shipped pack (rami.puzzles), named by its id."""
    from rami.puzzles import position_text

    try:
        return Source(puzzle_id, position_text(puzzle_id), canonical=True)
    except RamiError as error:
        raise CliError.from_error(error) from None


def _exists(argument: str) -> bool:
    try:
        return Path(argument).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def parse_source(source: Source, language: Language = ENGLISH) -> Position:
    """Parse one position, cards in ``language``; NotationError and friends become a CliError
    naming the input."""
    text = source.text.strip().lstrip("\ufeff")
    if text.startswith("["):
        raise CliError(
            source.prefix(
                "a JSON array is not a position: give one JSON object, or use "
                "'rami solve --batch' with one position per line"
            ),
            type_name="NotationError",
        )
    try:
        return parse_position_any(text, ENGLISH if source.canonical else language)
    except RamiError as error:
        message = str(error)
        if "Extra data" in message:
            message += " (a file holds one position; use 'rami solve --batch' for JSON lines)"
        raise CliError.from_error(error, source.prefix(message)) from None


def check(position: Position, label: str = "", language: Language = ENGLISH) -> Position:
    """Return the position, or raise a CliError listing every problem it has (their cards in
    ``language``)."""
    problems = position.problems(language)
    if problems:
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        raise CliError(
            (f"{shorten(label)}: " if label else "") + f"invalid position ({count}):",
            problems,
            type_name=InvalidPositionError.__name__,
        )
    return position


def load_position(argument: str, *, checked: bool = True, language: Language = ENGLISH) -> Position:
    """Read, parse (cards in ``language``) and by default validate a command's POSITION."""
    source = resolve(argument)
    position = parse_source(source, language)
    return check(position, source.label, language) if checked else position


def invalid_problems(error: Exception) -> list[str]:
    return list(error.problems) if isinstance(error, InvalidPositionError) else []


def batch_lines(path: str) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines of a JSON-lines file (or stdin for ``-``).

    A line that is not UTF-8 text is not a reason to refuse the others: it is read with its
    bad bytes escaped (``surrogateescape``), and :func:`rami.cli.batch.solve_line` gives it
    its own error (:func:`rami.textfile.undecodable`)."""
    text = read_text(path, limit=MAX_FILE_BYTES, errors="surrogateescape")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line
