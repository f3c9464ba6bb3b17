"""The commands on one position: ``rami validate``, ``score``, ``solve`` (one position, or a
``--batch`` file) and ``hint``. Registered on the app by :mod:`rami.cli.main`; the solver engine
(and OR-Tools) load inside the commands that solve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from rami.cards import format_cards
from rami.cli import interrupt
from rami.cli import review as review_commands
from rami.cli.app import PositionArg
from rami.cli.inputs import CliError, batch_lines, check_time_limit, load_position
from rami.cli.options import JsonOpt, LangOpt, NoMinMovesOpt, ObjectiveOpt, TimeLimitOpt
from rami.cli.output import (
    INTERRUPTED,
    echo_error,
    echo_json,
    echo_lines,
    report_failure,
    reporting_errors,
)
from rami.cli.scale import RayOpt
from rami.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, RamiError, exit_code
from rami.lang import Language
from rami.position import Position, hand_penalty
from rami.solver.api import Objective

if TYPE_CHECKING:
    from rami.solver.api import Solution


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def validate(
    position: PositionArg, json_output: JsonOpt = False, lang: LangOpt = Language.EN
) -> None:
    """Check a position: exit 0 with a summary, or exit 2 listing every problem."""
    if json_output:
        _validate_json(position, lang)
        return
    with reporting_errors():
        parsed = load_position(position, language=lang)
    info = parsed.summary_json()
    hand = f"{_plural(info['hand_cards'], 'card')}: {format_cards(parsed.hand, lang)}"
    lines = [
        "Valid position",
        f"Position: {parsed.text(lang)}",
        f"Rules: {info['rules']}",
        f"Table: {_plural(info['melds'], 'meld')}, {_plural(info['table_cards'], 'card')}",
        f"Hand: {hand if parsed.hand else 'empty'}",
        f"Opened: {_yes_no(parsed.opened)}",
    ]
    if parsed.taken_discard is not None:
        lines.append(f"Taken from the discard pile: {parsed.taken_discard.text(lang)}")
    lines.append(f"Hand penalty: {info['hand_penalty']}")
    echo_lines(lines)


def _validate_json(position: str, lang: Language) -> None:
    try:
        parsed = load_position(position, checked=False, language=lang)
    except RamiError as error:
        # A position that cannot even be read: the verdict's fields, and the JSON error.
        failure = CliError.from_error(error)
        code = exit_code(failure)
        echo_json(
            {
                "valid": False,
                "problems": [failure.message],
                "error": failure.to_json(),
                "exit_code": code,
            }
        )
        raise typer.Exit(code) from None
    problems = parsed.problems(lang)
    echo_json({"valid": not problems, "problems": problems, **parsed.summary_json()})
    if problems:
        raise typer.Exit(EXIT_BAD_INPUT)


def score(position: PositionArg, json_output: JsonOpt = False, lang: LangOpt = Language.EN) -> None:
    """Hand penalty of the player to move, under the position's rules."""
    with reporting_errors(json_output):
        parsed = load_position(position, language=lang)
    rules = parsed.rules
    per_card = [(card, rules.card_penalty(card.rank)) for card in parsed.hand]
    cards_total = sum(points for _, points in per_card)
    penalty = hand_penalty(parsed.hand, rules, parsed.opened)
    flat = not parsed.opened and rules.unopened_flat_penalty is not None
    if json_output:
        echo_json(
            {
                "rules": rules.option_string,
                "opened": parsed.opened,
                "hand": [str(card) for card, _ in per_card],
                "penalty": penalty,
                "cards_penalty": cards_total,
                "flat": flat,
                "cards": [{"card": str(card), "penalty": points} for card, points in per_card],
            }
        )
        return
    state = "opened" if parsed.opened else "not opened"
    lines = [f"Hand penalty: {penalty} ({rules.option_string}, {state})"]
    if flat:
        lines.append(
            f"Not opened: {rules.name} counts a flat {penalty} instead of the cards' {cards_total}."
        )
    if per_card:
        lines.append("  " + "  ".join(f"{card.text(lang)} {points}" for card, points in per_card))
    else:
        lines.append("  (empty hand)")
    echo_lines(lines)


def _run_solver(
    position: Position,
    objective: Objective,
    time_limit: float,
    min_moves: bool,
    json_output: bool = False,
) -> Solution:
    from rami.solver.api import solve as solve_position  # loads the engine and OR-Tools

    def interrupted() -> None:
        report_failure(KeyboardInterrupt(), json_output, INTERRUPTED)

    with interrupt.solving(interrupted):
        return solve_position(
            position, objective=objective, min_moves=min_moves, time_limit=time_limit
        )


def solve(
    position: Annotated[
        str | None,
        typer.Argument(
            metavar="POSITION",
            help="A file, '-' for standard input, or the position inline (text or JSON).",
            show_default=False,
        ),
    ] = None,
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            metavar="FILE.jsonl",
            help="Solve one position per line ('-' for stdin); print one JSON result per line.",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
    objective: ObjectiveOpt = Objective.POINTS,
    time_limit: TimeLimitOpt = 10.0,
    no_min_moves: NoMinMovesOpt = False,
    ray: RayOpt = None,
    top: Annotated[
        int,
        typer.Option(
            "--top",
            metavar="K",
            min=1,
            max=50,
            help="The K best turns with distinct signatures, best first.",
        ),
    ] = 1,
    lang: LangOpt = Language.EN,
) -> None:
    """Best play for the player to move: the new table, cards played, penalty and moves."""
    with reporting_errors(json_output):
        check_time_limit(time_limit)  # finite and positive: not inf, 1e309 nor nan
        if top > 1 and batch is not None:
            raise CliError("--top answers one POSITION, not a --batch FILE")
        if batch is not None and position is not None:
            raise CliError("give either POSITION or --batch FILE, not both")
        if batch is None and position is None:
            raise CliError("missing POSITION (a file, '-' or the position inline), or --batch FILE")
        if ray is not None and batch is None:
            raise CliError("--ray runs a --batch FILE on a cluster; one POSITION solves here")
    if batch is not None:
        _solve_batch(batch, objective, time_limit, not no_min_moves, ray, lang)
        return
    assert position is not None
    if top > 1:
        with reporting_errors(json_output):
            parsed = load_position(position, language=lang)
        review_commands.solve_top_command(
            parsed, top, objective, time_limit, not no_min_moves, json_output, lang
        )
        return
    with reporting_errors(json_output):
        parsed = load_position(position, language=lang)
        solution = _run_solver(parsed, objective, time_limit, not no_min_moves, json_output)
    if json_output:
        echo_json(solution.to_json(lang))
        return
    from rami.hints import solution_lines

    echo_lines(solution_lines(solution, lang))


def _solve_batch(
    path: str,
    objective: Objective,
    time_limit: float,
    min_moves: bool,
    ray: str | None = None,
    lang: Language = Language.EN,
) -> None:
    from rami.cli.batch import solve_line, solve_task
    from rami.cli.scale import RetryLog, executor_for
    from rami.scale import Progress

    with reporting_errors():
        lines = list(batch_lines(path))
    failed = 0
    internal = False
    executor = executor_for(1, ray)  # (no --ray: this process's pool of one)
    with reporting_errors(), executor, Progress(len(lines), "solving") as progress:
        if ray is None:
            # In this process, one line after another (Ctrl-C stops the solve in hand).
            results = (
                solve_line(number, line, objective, time_limit, min_moves, _run_solver, lang)
                for number, line in lines
            )
        else:
            jobs = (
                {
                    "line": number,
                    "text": line,
                    "objective": objective.value,
                    "time_limit": time_limit,
                    "min_moves": min_moves,
                    "language": lang.value,
                }
                for number, line in lines
            )
            results = (
                (item["result"], item["internal"])
                for item in executor.ordered(solve_task, jobs, on_retry=RetryLog(progress, "line"))
            )
        for result, bug in results:
            internal |= bug
            failed += "error" in result
            echo_json(result, compact=True)
            progress.advance()
    if failed:
        echo_error([f"{failed} of {_plural(len(lines), 'position')} failed"])
        raise typer.Exit(EXIT_INTERNAL if internal else EXIT_BAD_INPUT)


def hint(
    position: PositionArg,
    level: Annotated[
        int,
        typer.Option(
            "--level",
            min=1,
            max=3,
            help="1: what is achievable, 2: the first key move, 3: the full solution.",
        ),
    ] = 1,
    json_output: JsonOpt = False,
    objective: ObjectiveOpt = Objective.POINTS,
    time_limit: TimeLimitOpt = 10.0,
    lang: LangOpt = Language.EN,
) -> None:
    """A hint for the player to move, from a nudge (level 1) to the whole turn (level 3)."""
    from rami.hints import make_hint

    with reporting_errors(json_output):
        check_time_limit(time_limit)  # finite and positive: not inf, 1e309 nor nan
        parsed = load_position(position, language=lang)
        solution = _run_solver(parsed, objective, time_limit, True, json_output)
    given = make_hint(solution, level, lang)
    if json_output:
        echo_json(given.to_json())
        return
    echo_lines(given.text.splitlines())
