"""``rami render``: a position, or its best turn, as an SVG picture (see docs/pictures.md).

Registered on the main app by :mod:`rami.cli.main`; the picture code (:mod:`rami.svg`) and the
solver load only when the command runs.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Annotated

import typer

from rami.cli.inputs import STDIN, CliError, load_position
from rami.cli.output import reporting_errors
from rami.svg import DEFAULT_SIZE


def render(
    position: Annotated[
        str,
        typer.Argument(
            metavar="POSITION",
            help="A file, '-' for standard input, or the position inline (text notation or JSON).",
            show_default=False,
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            metavar="FILE.svg",
            help="Write the SVG here ('-' for stdout).",
            show_default=False,
        ),
    ],
    solution: Annotated[
        bool,
        typer.Option("--solution", help="Solve the position and draw its best turn instead."),
    ] = False,
    four_color: Annotated[
        bool,
        typer.Option("--four-color", help="Four suit colours (diamonds blue, clubs green)."),
    ] = False,
    size: Annotated[
        int, typer.Option("--size", metavar="N", min=8, max=1000, help="Card width in pixels.")
    ] = DEFAULT_SIZE,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite FILE.svg if it exists.")
    ] = False,
) -> None:
    """Draw a position (or with --solution its best turn) as an SVG picture."""

    with reporting_errors():
        target = None if out == STDIN else Path(out)
        if target is not None:
            if target.is_dir():
                raise CliError(f"{out} is a directory")
            if target.exists() and not force:
                raise CliError(f"{out} exists: give --force to overwrite it")
        parsed = load_position(position)
        from rami import svg

        if solution:
            from rami.solver.api import solve

            picture = svg.solution(solve(parsed), size=size, four_color=four_color)
        else:
            picture = svg.position(parsed, size=size, four_color=four_color)
        if target is None:
            typer.echo(picture)
            return
        try:
            target.write_text(picture + "\n", encoding="utf-8")
        except OSError as error:
            raise CliError(f"cannot write {out!r}: {error.strerror or error}") from None
    root = ET.fromstring(picture)
    what = "the best turn" if solution else "the position"
    typer.echo(f"wrote {out}: {what}, {root.get('width')} x {root.get('height')} px")
