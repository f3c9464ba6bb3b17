"""Printing for the CLI: plain text, colour only when standard output is a terminal, JSON.

Rich is imported only when colour is actually used, so piping ``rami`` stays fast and the text
stays exactly what the renderers produced.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer

from rami.errors import RamiError, SolverBugError

#: Red suits, in the notation (7H, TD) and as symbols (French ranks too: R♥, D♦).
_RED_CARD = r"\b(?:10|[A2-9TJQK])[HD](?![A-Za-z])|(?:10|[A2-9TJQKVDR])[♥♦]"
_BLACK_CARD = r"\b(?:10|[A2-9TJQK])[SC](?![A-Za-z])|(?:10|[A2-9TJQKVDR])[♠♣]"
_HEADING = r"^[A-ZÀ-Ý][\w ]*(?: \(\d+[^)]*\))? ?:"


def use_colour() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def echo_lines(lines: Iterable[str]) -> None:
    """Print report lines: coloured on a terminal, plain otherwise."""
    lines = list(lines)
    if not use_colour():
        for line in lines:
            typer.echo(line)
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(force_terminal=True, highlight=False, soft_wrap=True)
    for line in lines:
        text = Text(line)
        text.highlight_regex(_HEADING, "bold")
        text.highlight_regex(_RED_CARD, "bold red")
        text.highlight_regex(_BLACK_CARD, "bold")
        text.highlight_regex(r"\boptimal\b|\bValid\b", "green")
        text.highlight_regex(r"\bfeasible\b|Not proved optimal", "yellow")
        text.highlight_regex(r"\*", "magenta")
        console.print(text)


def _safe(text: str) -> str:
    """Text any stream can print (a lone surrogate read from JSON is escaped)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def echo_json(data: Any, *, compact: bool = False) -> None:
    """``data`` as strict JSON: a NaN or an infinity is a ValueError (the CLI's internal error),
    never the ``NaN`` token no JSON reader accepts."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None if compact else 2)
    typer.echo(_safe(text))


def echo_error(lines: Iterable[str]) -> None:
    """Error lines on standard error; the first one is prefixed with ``error:``."""
    for index, line in enumerate(lines):
        typer.echo(_safe(f"error: {line}" if index == 0 else line), err=True)


def error_document(error: dict[str, Any], code: int) -> dict[str, Any]:
    """The JSON answer of a failed command: ``{"error": {...}, "exit_code": N}``."""
    return {"error": error, "exit_code": code}


def echo_json_error(error: dict[str, Any], code: int) -> None:
    """A failed command's JSON answer, on standard output (``--json``)."""
    echo_json(error_document(error, code))


#: What an interrupted command says (exit code 130).
INTERRUPTED = "interrupted"


def report_failure(error: BaseException, json_output: bool, message: str | None = None) -> int:
    """Print a failure (JSON on stdout under ``--json``, else text on stderr); its exit code.

    The exit code is the one of :func:`rami.errors.exit_code` (the table of :mod:`rami.errors`).
    """
    from rami.cli.inputs import CliError
    from rami.errors import InvalidPositionError, RamiError, error_json, exit_code

    code = exit_code(error)
    if json_output:
        data = error.to_json() if isinstance(error, RamiError) else error_json(error)
        if message is not None:
            data["message"] = message
        echo_json_error(data, code)
        return code
    if message is not None:
        lines = [message]
    elif isinstance(error, CliError):
        lines = error.lines()
    elif isinstance(error, InvalidPositionError):
        lines = CliError("invalid position:", error.problems).lines()
    else:
        lines = [str(error)]
    echo_error(lines)
    return code


def failure_message(error: BaseException) -> str | None:
    """The sentence a solver bug or an interruption is reported with (None: the error's own)."""
    from rami.errors import SolverBugError

    if isinstance(error, SolverBugError):
        return f"internal solver error (a bug, please report it): {error}"
    if isinstance(error, KeyboardInterrupt):
        return INTERRUPTED
    return None


def fail(error: BaseException, json_output: bool = False) -> NoReturn:
    """Report a failure and end the command with its exit code."""
    raise typer.Exit(report_failure(error, json_output, failure_message(error))) from None


@contextmanager
def reporting_errors(json_output: bool = False) -> Iterator[None]:
    """Turn bad input into a message on stderr (or the JSON error) and its exit code (2 for bad
    input, 1 for a solver bug: the table of :mod:`rami.errors`); never a traceback."""
    try:
        yield
    except (RamiError, SolverBugError, KeyboardInterrupt) as error:
        fail(error, json_output)
