"""Printing for the CLI: plain text, colour only when standard output is a terminal, JSON.

Rich is imported only when colour is actually used, so piping ``rami`` stays fast and the text
stays exactly what the renderers produced.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import Any

import typer

#: Red suits, in the notation (7H, TD) and as symbols.
_RED_CARD = r"\b(?:10|[A2-9TJQK])[HD](?![A-Za-z])|(?:10|[A2-9TJQK])[♥♦]"
_BLACK_CARD = r"\b(?:10|[A2-9TJQK])[SC](?![A-Za-z])|(?:10|[A2-9TJQK])[♠♣]"
_HEADING = r"^[A-Z][A-Za-z ]*(?: \(\d+[^)]*\))?:"


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


def echo_json(data: Any, *, compact: bool = False) -> None:
    if compact:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def echo_error(lines: Iterable[str]) -> None:
    """Error lines on standard error; the first one is prefixed with ``error:``."""
    for index, line in enumerate(lines):
        typer.echo(f"error: {line}" if index == 0 else line, err=True)
