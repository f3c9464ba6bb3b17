"""``rami puzzle``: generate, check, show puzzles, and the daily puzzle.

A Typer sub-application (the main CLI adds it with ``app.add_typer(puzzle_app, name="puzzle")``).
Exit codes: 0 success, 1 a puzzle (or an answer) fails its check, 2 bad input (the table of
:mod:`rami.errors`), 130 interrupted; under ``--json`` a failure is the JSON error of the main
CLI on standard output. Packs and answers are read within the bounds of :mod:`rami.textfile`,
JSON nested too deeply refused before decoding. OR-Tools loads only inside the commands that
solve.

The commands live in modules of their own, registered here in the order ``--help`` lists them:

* :mod:`rami.puzzles.pack_cli`: ``generate`` and ``mine``, which write a pack;
* :mod:`rami.puzzles.check_cli`: ``check``, puzzles re-verified or an answer judged;
* :mod:`rami.puzzles.show_cli`: ``show`` and ``daily``;
* :mod:`rami.puzzles.ratings_cli`: ``attempts``, ``ratings`` and ``start-ratings``;
* :mod:`rami.puzzles.cli_common`: what they share (options, error reporting, pack loading).
"""

from __future__ import annotations

import typer

from rami.puzzles import check_cli, pack_cli, ratings_cli, show_cli
from rami.puzzles.cli_common import EXIT_BAD_INPUT, EXIT_FAILED
from rami.puzzles.show_cli import puzzle_json, puzzle_lines, puzzle_table

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "puzzle_app", "puzzle_json", "puzzle_lines",
           "puzzle_table"]

puzzle_app = typer.Typer(
    help=(
        "Chess-style challenge puzzles: one turn, one solution. Generate packs, check puzzles "
        "and answers, show a puzzle, or get the daily puzzle. Exit codes: 0 success, 1 a puzzle "
        "or an answer fails, 2 bad input."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help, as the main CLI: flags shown as flags
    pretty_exceptions_show_locals=False,
)

puzzle_app.command()(pack_cli.generate)
puzzle_app.command()(pack_cli.mine)
puzzle_app.command()(check_cli.check)
puzzle_app.command()(show_cli.show)
puzzle_app.command()(show_cli.daily)
puzzle_app.command()(ratings_cli.attempts)
puzzle_app.command()(ratings_cli.ratings)
puzzle_app.command("start-ratings")(ratings_cli.start_ratings)
