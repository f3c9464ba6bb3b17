"""The ``rami`` command line: every command registered on the app of :mod:`rami.cli.app`, in
the order ``rami --help`` lists them, and the console entry point.

The library does the work; the commands read input, call it, print, and turn library errors into
exit codes (:mod:`rami.cli.app`). It imports fast: the solver engine (and OR-Tools) load inside
the commands that solve.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from rami.cli import game as game_commands
from rami.cli import interrupt, lean, positions
from rami.cli import match as match_command
from rami.cli import review as review_commands
from rami.cli.app import POSITION_COMMAND, app
from rami.cli.options import JsonOpt
from rami.cli.output import echo_json, echo_lines, reporting_errors
from rami.cli.render import render
from rami.cli.rules import preset_lines, presets_lines
from rami.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED
from rami.rules import PRESETS, get_ruleset

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "app", "run"]

app.command(**POSITION_COMMAND)(positions.validate)
app.command(**POSITION_COMMAND)(positions.score)


@app.command()
def rules(
    preset: Annotated[
        str | None,
        typer.Argument(
            metavar="PRESET",
            help="A preset name, with options if any: 'rami-chinois\\[jokers=0]'.",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
) -> None:
    """List the rule presets, or print every parameter of one preset."""
    if preset is None:
        if json_output:
            echo_json([{"name": name, "title": item.title} for name, item in PRESETS.items()])
            return
        echo_lines(presets_lines())
        return
    with reporting_errors(json_output):
        ruleset = get_ruleset(preset)
    if json_output:
        echo_json(ruleset.describe())
        return
    echo_lines(preset_lines(ruleset))


app.command(**POSITION_COMMAND)(positions.solve)
app.command(**POSITION_COMMAND)(positions.hint)


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Interface to listen on; 127.0.0.1 (the default) is this "
            "machine only, 0.0.0.0 every interface.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, help="Server processes (each solves in its own threads)."),
    ] = 1,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin",
            help="Let web pages of this origin call the API (CORS); repeatable. Off by default.",
        ),
    ] = None,
    docs: Annotated[
        bool,
        typer.Option(
            "--docs",
            help="Serve /docs and /redoc (their scripts load from a public CDN). Off by default.",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Believe X-Forwarded-For from these proxies "
            "(comma-separated, or '*'). Off by default.",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="Keep the puzzle attempts and the games in this "
            "SQLite file (made if new); without it attempts are not recorded and games "
            "go to ~/.local/state/rami/rami.db (RAMI_SERVICE_GAMES_DB overrides it).",
        ),
    ] = None,
    front: Annotated[
        bool | None,
        typer.Option(
            "--front/--no-front",
            help="With --workers above 1, a front process owns "
            "the port and answers every request even when a worker dies (the default; "
            "RAMI_SERVE_NO_FRONT=1 turns it off). --no-front: uvicorn's own workers.",
        ),
    ] = None,
) -> None:
    """Serve the solver, hints and referee as an HTTP JSON API (docs/service.md)."""
    from rami.service.cli import serve as run_server  # FastAPI and uvicorn load only here

    run_server(
        host=host,
        port=port,
        workers=workers,
        cors_origins=cors_origin,
        docs=docs or None,
        forwarded_allow_ips=forwarded_allow_ips,
        db=db,
        front=front,
    )


app.command()(game_commands.simulate)
app.command()(match_command.match)
app.command()(game_commands.replay)
app.command()(game_commands.play)
app.command(**POSITION_COMMAND)(review_commands.review)


def _add_puzzles() -> None:
    from rami.cli.puzzle import puzzle_app

    app.add_typer(puzzle_app, name="puzzle")


_add_puzzles()
app.command("render", **POSITION_COMMAND)(render)


def run() -> None:
    """Console-script entry point (solves here are guarded against Ctrl-C: :mod:`.interrupt`;
    OR-Tools loads without pandas: :mod:`.lean`)."""
    lean.install()
    interrupt.enable()
    try:
        app(prog_name="rami")
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            # Output still buffered when the reader left: the exit code stays the command's.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    run()
