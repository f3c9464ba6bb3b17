"""What the ``rami puzzle`` commands share: exit codes, choices and options, error reporting, and
reading packs and answers (:mod:`rami.cli.puzzle` puts the commands together).

Packs and answers are read within the bounds of :mod:`rami.textfile`, JSON nested too deeply
refused before decoding. Nothing here loads OR-Tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rami.cli import interrupt
from rami.cli.inputs import STDIN, CliError, read_text
from rami.cli.output import INTERRUPTED, fail, report_failure
from rami.errors import NotationError, RamiError, SolverBugError, UnreadableFileError, quote
from rami.notation import MAX_JSON_DEPTH, json_depth
from rami.textfile import MAX_POSITION_BYTES

if TYPE_CHECKING:
    from rami.puzzles import Puzzle

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class TierChoice(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"
    expert = "expert"


class KindChoice(StrEnum):
    any = "any"
    empty_hand = "empty-hand"
    best_score = "best-score"


class BadInput(CliError):
    """A puzzle command used wrongly (exit code 2, ``UsageError`` under ``--json``)."""


@contextmanager
def reporting(json_output: bool = False) -> Iterator[None]:
    """Bad input becomes a message on stderr (or the JSON error) and its exit code from the
    table of :mod:`rami.errors` (2 bad input, 1 a solver bug), never a traceback."""
    try:
        yield
    except (RamiError, SolverBugError, KeyboardInterrupt) as error:
        fail(error, json_output)
    except OSError as error:
        name = quote(str(error.filename)) if error.filename else "a file"
        fail(UnreadableFileError(f"cannot use {name}: {error.strerror or error}"), json_output)


@contextmanager
def solving(json_output: bool) -> Iterator[None]:
    """A solve in this process: Ctrl-C says "interrupted" and exits 130 (rami.cli.interrupt)."""
    with interrupt.solving(lambda: report_failure(KeyboardInterrupt(), json_output, INTERRUPTED)):
        yield


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# ------------------------------------------------------------------------------- options

#: ``--out FILE`` of the commands that write a pack (generate, mine).
PackOutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        metavar="FILE",
        help="Write the puzzles here, one JSON per line.",
        show_default=False,
    ),
]
FileOrId = Annotated[
    str,
    typer.Argument(
        metavar="FILE|ID",
        help="A puzzle pack (JSON lines) or the id of a shipped puzzle.",
        show_default=False,
    ),
]
IdOpt = Annotated[
    str | None,
    typer.Option(
        "--id", metavar="ID", help="Pick one puzzle of the pack by its id.", show_default=False
    ),
]
SolutionOpt = Annotated[
    bool,
    typer.Option(
        "--solution", help="Also show the solution, its moves and the difficulty details."
    ),
]


# ------------------------------------------------------------------------------- loading


def check_pack_file(spec: str) -> None:
    """Refuse a pack file that cannot be read within its bound, or with a line of JSON nested
    too deeply (before the pack reader decodes it)."""
    try:
        is_file = Path(spec).exists()
    except (OSError, ValueError):
        return
    if not is_file:
        return
    text = read_text(spec)
    for number, line in enumerate(text.splitlines(), start=1):
        if json_depth(line) > MAX_JSON_DEPTH:
            raise NotationError(
                f"{quote(spec)}:{number}: JSON nested more than {MAX_JSON_DEPTH} levels deep"
            )


def load(spec: str, puzzle_id: str | None = None) -> list[Puzzle]:
    """The puzzles of a pack file or the shipped puzzle of an id; only ``puzzle_id`` if given."""
    from rami.puzzles import load_puzzles

    check_pack_file(spec)
    puzzles = load_puzzles(spec)
    if puzzle_id is not None:
        chosen = [p for p in puzzles if p.id == puzzle_id]
        if not chosen:
            raise BadInput(f"no puzzle {puzzle_id!r} in {spec}")
        return chosen
    return puzzles


def answer_text(answer: str) -> str:
    """The answer's text: the option itself, a file it names, or standard input for '-'
    (within the bound of a position); JSON nested too deeply is refused here."""
    if answer == STDIN:
        text = read_text(STDIN, limit=MAX_POSITION_BYTES)
    elif "|" not in answer and not answer.lstrip().startswith("[") and _is_file(answer):
        text = read_text(answer, limit=MAX_POSITION_BYTES)
    else:
        text = answer
    text = text.lstrip("\ufeff")
    if text.lstrip().startswith("[") and json_depth(text) > MAX_JSON_DEPTH:
        raise NotationError(f"answer: JSON nested more than {MAX_JSON_DEPTH} levels deep")
    return text


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False
