"""``rami review`` (a turn played, or every turn of game records) and ``rami solve --top K``.

Registered on the main app by :mod:`rami.cli.main`. The library decides (:mod:`rami.review`,
:mod:`rami.review.game`, :mod:`rami.solver.alternatives`); this module reads the input, calls
it and prints. Errors as everywhere in the CLI: a message (or the JSON error under ``--json``)
and exit code 2 for bad input (a record that does not replay included), 1 for a bug.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from rami.cli import interrupt
from rami.cli.inputs import CliError, check_time_limit, load_position
from rami.cli.options import JsonOpt, LangOpt, ObjectiveOpt, TimeLimitOpt
from rami.cli.output import INTERRUPTED, echo_json, echo_lines, report_failure, reporting_errors
from rami.errors import NotationError
from rami.lang import Language
from rami.solver.api import Objective

if TYPE_CHECKING:
    from rami.cards import Card
    from rami.melds import Meld
    from rami.position import Position
    from rami.solver.alternatives import Alternatives

T = TypeVar("T")


def guarded(json_output: bool, work: Callable[[], T]) -> T:
    """Run a solve so that Ctrl-C says "interrupted" and exits 130 (see rami.cli.interrupt)."""

    def interrupted() -> None:
        report_failure(KeyboardInterrupt(), json_output, INTERRUPTED)

    with interrupt.solving(interrupted):
        return work()


# -- rami solve --top K -----------------------------------------------------------------------


def top_lines(alternatives: Alternatives, language: Language = Language.EN) -> list[str]:
    """The answers as ``rami solve --top`` prints them: a header, then each answer's report."""
    from rami.hints import solution_lines
    from rami.phrasebook import say, say_count

    header = say("top.answers", language)
    lines = [f"{header} {alternatives.said(language)} ({alternatives.solve_ms:.1f} ms)"]
    count = len(alternatives.solutions)
    for rank, solution in enumerate(alternatives.solutions, start=1):
        lines.append("")
        left = say_count("top.left", solution.penalty_after, language)
        played = say_count("top.played", solution.cards_played, language)
        moved = say_count("top.moved", solution.cards_moved, language)
        lines.append(
            say(
                "top.answer",
                language,
                rank=rank,
                count=count,
                left=left,
                played=played,
                moved=moved,
            )
        )
        lines.extend(f"  {line}" for line in solution_lines(solution, language))
    return lines


def solve_top_command(
    position: Position,
    top: int,
    objective: Objective,
    time_limit: float,
    min_moves: bool,
    json_output: bool,
    language: Language = Language.EN,
) -> None:
    """What ``rami solve POSITION --top K`` does."""
    from rami import solve_top

    with reporting_errors(json_output):
        found = guarded(
            json_output,
            lambda: solve_top(
                position, top, objective=objective, min_moves=min_moves, time_limit=time_limit
            ),
        )
    if json_output:
        echo_json(found.to_json(language))
    else:
        echo_lines(top_lines(found, language))


# -- rami review ------------------------------------------------------------------------------


def parse_table_text(text: str, language: Language = Language.EN) -> tuple[Meld, ...]:
    """The table after the turn: the text notation (``3H 4H 5H | QS QD QC``, ``-`` empty) or a
    JSON list of melds."""
    from rami.notation import loads_json, meld_from_json
    from rami.position import parse_table

    stripped = text.strip()
    if stripped.startswith("["):
        data = loads_json(stripped, "--table")
        if not isinstance(data, list):  # pragma: no cover - a JSON text starting with '['
            raise NotationError("--table: expected a list of melds")
        return tuple(
            meld_from_json(item, f"--table[{n}]", None, language) for n, item in enumerate(data)
        )
    try:
        return parse_table(stripped, language)
    except NotationError as error:
        raise NotationError(f"--table: {error}") from None


def _cards(text: str, option: str, language: Language) -> tuple[Card, ...]:
    from rami.cards import parse_cards

    try:
        return tuple(parse_cards(text, language)) if text.strip() not in ("", "-") else ()
    except NotationError as error:
        raise NotationError(f"{option}: {error}") from None


def review(
    position: Annotated[
        str | None,
        typer.Argument(
            metavar="POSITION",
            show_default=False,
            help="The position before the turn: a file, '-' or inline.",
        ),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(
            "--table",
            metavar="AFTER",
            show_default=False,
            help="The table after the turn ('3H 4H 5H | QS QD QC', '-' for empty, "
            "or a JSON list of melds).",
        ),
    ] = None,
    played: Annotated[
        str | None,
        typer.Option(
            "--played",
            metavar="CARDS",
            show_default=False,
            help="The cards laid from the hand (default: read from the tables).",
        ),
    ] = None,
    discard: Annotated[
        str | None,
        typer.Option(
            "--discard",
            metavar="CARD",
            show_default=False,
            help="The card discarded to end the turn.",
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            metavar="FILE",
            show_default=False,
            help="Review every turn of game records (JSONL, '-' for stdin) instead.",
        ),
    ] = None,
    json_output: JsonOpt = False,
    objective: ObjectiveOpt = Objective.POINTS,
    time_limit: TimeLimitOpt = 10.0,
    lang: LangOpt = Language.EN,
) -> None:
    """Review a turn played: legal or not, how it compares with the best turn, the key move it
    missed and its grade (best, good, inaccuracy, mistake, blunder)."""
    with reporting_errors(json_output):
        check_time_limit(time_limit)
        if game is not None:
            if position is not None or table is not None:
                raise CliError("give either POSITION --table AFTER or --game FILE, not both")
        elif position is None or table is None:
            raise CliError("missing POSITION and --table AFTER (or --game FILE)")
    if game is not None:
        _review_games(game, json_output, time_limit, lang)
        return
    assert position is not None and table is not None
    from rami import review as review_turn
    from rami.cards import Card

    with reporting_errors(json_output):
        before = load_position(position, language=lang)
        after = parse_table_text(table, lang)
        laid = _cards(played, "--played", lang) if played is not None else None
        try:
            thrown = Card.parse(discard.strip(), lang) if discard is not None else None
        except NotationError as error:
            raise NotationError(f"--discard: {error}") from None
        result = guarded(
            json_output,
            lambda: review_turn(
                before, after, laid, thrown, objective=objective, time_limit=time_limit
            ),
        )
    if json_output:
        echo_json(result.to_json(lang))
    else:
        echo_lines(result.text_lines(lang))


def _review_games(
    path: str, json_output: bool, time_limit: float, language: Language = Language.EN
) -> None:
    from rami.cli.inputs import text_lines
    from rami.game import MAX_RECORD_BYTES, RecordError, game_label, read_records
    from rami.review.game import review_game

    reviews: list[dict[str, Any]] = []
    lines: list[str] = []
    with reporting_errors(json_output):  # one record at a time, whatever the file's size
        for line, record in read_records(text_lines(path, max_line_bytes=MAX_RECORD_BYTES)):
            label = game_label(record, line)
            try:
                reviewed = guarded(
                    json_output, partial(review_game, record, label, time_limit=time_limit)
                )
            except RecordError as error:
                message = f"{error} (the record does not replay)"
                raise typer.Exit(report_failure(error, json_output, message)) from None
            reviews.append(reviewed.to_json(language))
            lines.extend(reviewed.text_lines(language))
        if not reviews:
            raise CliError(f"{path}: no game record in it")
    if json_output:
        echo_json({"games": reviews})
    else:
        echo_lines(lines)
