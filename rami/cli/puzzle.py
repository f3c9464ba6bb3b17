"""``rami puzzle``: generate, check, show puzzles, and the daily puzzle.

A Typer sub-application (the main CLI adds it with ``app.add_typer(puzzle_app, name="puzzle")``).
Exit codes: 0 success, 1 a puzzle (or an answer) fails its check, 2 bad input (the table of
:mod:`rami.errors`), 130 interrupted; under ``--json`` a failure is the JSON error of the main
CLI on standard output. Packs and answers are read within the bounds of :mod:`rami.textfile`,
JSON nested too deeply refused before decoding. OR-Tools loads only inside the commands that
solve.

The commands live in modules of their own, registered here in the order ``--help`` lists them:

* :mod:`rami.cli.puzzle_pack`: ``generate`` and ``mine``, which write a pack;
* :mod:`rami.cli.puzzle_check`: ``check``, puzzles re-verified or an answer judged;
* :mod:`rami.cli.puzzle_show`: ``show`` and ``daily``;
* :mod:`rami.cli.puzzle_ratings`: ``attempts``, ``ratings`` and ``start-ratings``;
* :mod:`rami.cli.puzzle_common`: what they share (options, error reporting, pack loading).
"""

from __future__ import annotations

import typer

from rami.cli import puzzle_check, puzzle_pack, puzzle_ratings, puzzle_show
from rami.cli.puzzle_common import EXIT_BAD_INPUT, EXIT_FAILED
from rami.cli.puzzle_show import puzzle_json, puzzle_lines, puzzle_table

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "puzzle_app",
    "puzzle_json",
    "puzzle_lines",
    "puzzle_table",
]

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

puzzle_app.command()(puzzle_pack.generate)
puzzle_app.command()(puzzle_pack.mine)
puzzle_app.command()(puzzle_check.check)
puzzle_app.command()(puzzle_show.show)
puzzle_app.command()(puzzle_show.daily)
puzzle_app.command()(puzzle_ratings.attempts)
puzzle_app.command()(puzzle_ratings.ratings)
puzzle_app.command("start-ratings")(puzzle_ratings.start_ratings)
