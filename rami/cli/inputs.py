"""Reading positions for the CLI: a file path, ``-`` for standard input, or the position inline.

Everything here raises :class:`CliError` with a message that names the input and the part at
fault; the commands turn it into exit code 2. The library does the parsing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rami.errors import InvalidPositionError, RamiError, UnreadableFileError
from rami.notation import parse_position_any
from rami.position import Position
from rami.textfile import read_text_file

STDIN = "-"

#: The text notation never holds a dot, so a dotted word is a file name (``demo.txt``).
_FILE_LIKE = re.compile(r"\S*\.[A-Za-z0-9]+")


@dataclass
class CliError(Exception):
    """Bad input: a message, and the problems of an invalid position (one line each)."""

    message: str
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.message

    def lines(self) -> list[str]:
        return [self.message, *(f"  - {problem}" for problem in self.problems)]


@dataclass(frozen=True)
class Source:
    """Where a position came from (``label`` prefixes messages; empty for inline text)."""

    label: str
    text: str

    def prefix(self, message: str) -> str:
        return f"{self.label}: {message}" if self.label else message


def read_text(path: str) -> str:
    """Read a whole file, or standard input for ``-``, as UTF-8 text."""
    if path == STDIN:
        return sys.stdin.read()
    try:
        return read_text_file(path)
    except UnreadableFileError as error:
        raise CliError(str(error)) from None


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
        return Source("<stdin>", read_text(STDIN))
    stripped = argument.strip()
    if stripped.startswith("-") and not any(char in stripped for char in " /|"):
        raise CliError(f"no such option: {stripped}")
    if stripped.startswith("{") or "\n" in stripped:
        return Source("", argument)
    if not _exists(argument) and _PUZZLE_ID.fullmatch(stripped):  # rami hint rc-44022bd5db
        return _puzzle_source(stripped)
    if _exists(argument) or looks_like_path(argument):
        return Source(argument, read_text(argument))
    return Source("", argument)


_PUZZLE_ID = re.compile(r"rc-[0-9a-f]{10}")


def _puzzle_source(puzzle_id: str) -> Source:
    """The position of a puzzle of the shipped pack (rami.puzzles), named by its id."""
    from rami.puzzles.record import position_text

    try:
        return Source(puzzle_id, position_text(puzzle_id))
    except RamiError as error:
        raise CliError(str(error)) from None


def _exists(argument: str) -> bool:
    try:
        return Path(argument).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def parse_source(source: Source) -> Position:
    """Parse one position; NotationError and friends become a CliError naming the input."""
    text = source.text.strip()
    if text.startswith("["):
        raise CliError(
            source.prefix(
                "a JSON array is not a position: give one JSON object, or use "
                "'rami solve --batch' with one position per line"
            )
        )
    try:
        return parse_position_any(text)
    except RamiError as error:
        message = str(error)
        if "Extra data" in message:
            message += " (a file holds one position; use 'rami solve --batch' for JSON lines)"
        raise CliError(source.prefix(message)) from None


def check(position: Position, label: str = "") -> Position:
    """Return the position, or raise a CliError listing every problem it has."""
    problems = position.problems()
    if problems:
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        raise CliError(
            (f"{label}: " if label else "") + f"invalid position ({count}):", problems
        )
    return position


def load_position(argument: str, *, checked: bool = True) -> Position:
    """Read, parse and (by default) validate the POSITION argument of a command."""
    source = resolve(argument)
    position = parse_source(source)
    return check(position, source.label) if checked else position


def invalid_problems(error: Exception) -> list[str]:
    return list(error.problems) if isinstance(error, InvalidPositionError) else []


def batch_lines(path: str) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines of a JSON-lines file (or stdin for ``-``)."""
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if line.strip():
            yield number, line
