"""The ``rami`` command line: validate, score, rules, solve and hint.

The library does the work; this module reads input, calls it, prints, and turns library errors
into exit codes by the one table of :mod:`rami.errors` (0 success, 2 bad input, 1 internal
error, 130 interrupted). Under ``--json`` every failure is a JSON object on standard output,
``{"error": {"type", "message", "loc", "problems"}, "exit_code": N}``; without it, a message on
standard error. It imports fast: the solver engine (and OR-Tools) load inside the commands that
solve.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from rami import __version__
from rami.cards import format_cards
from rami.cli import game as game_commands
from rami.cli import interrupt, lean
from rami.cli import match as match_command
from rami.cli import review as review_commands
from rami.cli.inputs import CliError, LangOpt, batch_lines, check_time_limit, load_position
from rami.cli.output import (
    INTERRUPTED,
    echo_error,
    echo_json,
    echo_json_error,
    echo_lines,
    fail,
    report_failure,
    reporting_errors,
)
from rami.cli.render import render
from rami.cli.rules import preset_lines, presets_lines
from rami.cli.scale import RayOpt
from rami.errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    RamiError,
    SolverBugError,
    exit_code,
    shorten,
)
from rami.lang import Language
from rami.position import Position, hand_penalty
from rami.rules import PRESETS, get_ruleset
from rami.solver.api import Objective

if TYPE_CHECKING:
    from rami.solver.api import Solution

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "app", "run"]


def wants_json(args: Sequence[str]) -> bool:
    """Did the command line ask for JSON (``--json`` before any ``--``)?"""
    words = list(args)
    if "--" in words:
        words = words[: words.index("--")]
    return "--json" in words


class RamiGroup(TyperGroup):
    """The ``rami`` group: usage errors and interruptions reported like every other failure.

    Under ``--json`` a usage error (an unknown option, a bad value) is the JSON error with exit
    code 2; Ctrl-C anywhere says "interrupted" and exits 130.
    """

    def main(self, args: Sequence[str] | None = None, *pos: Any, **extra: Any) -> Any:
        words = list(sys.argv[1:] if args is None else args)
        self._json = wants_json(words)
        return super().main(words, *pos, **extra)

    def invoke(self, ctx: Any) -> Any:
        json_output = getattr(self, "_json", False)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as error:
            fail(error, json_output)
        except typer.Exit:
            raise
        except BrokenPipeError:
            _reader_gone()
        except Exception as error:
            if _is_usage_error(error):
                if not json_output:
                    raise
                code = getattr(error, "exit_code", EXIT_BAD_INPUT)
                echo_json_error(
                    {"type": "UsageError", "message": _usage_message(error), "loc": None,
                     "problems": []},
                    code,
                )
                raise typer.Exit(code) from None
            if isinstance(error, RamiError | SolverBugError):
                fail(error, json_output)
            if type(error).__module__.startswith(("click", "typer")):
                raise
            # A bug: one line (or the JSON error), exit 1; the traceback with RAMI_TRACEBACK=1.
            if os.environ.get("RAMI_TRACEBACK"):
                traceback.print_exc()
            message = f"internal error (a bug, please report it): {type(error).__name__}: {error}"
            raise typer.Exit(report_failure(error, json_output, shorten(message, 300))) from None


#: The exit code of a command whose reader closed the pipe (``rami solve ... | head``), as a
#: shell reports a program ended by SIGPIPE.
EXIT_PIPE_CLOSED = 128 + 13


def _reader_gone() -> None:
    """Nobody reads standard output any more: stop quietly, not with an "internal error"."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(EXIT_PIPE_CLOSED)


def _is_usage_error(error: BaseException) -> bool:
    return any(cls.__name__ in ("UsageError", "ClickException") for cls in type(error).__mro__)


def _usage_message(error: BaseException) -> str:
    formatted = getattr(error, "format_message", None)
    return formatted() if callable(formatted) else str(error)


class PositionCommand(TyperCommand):
    """A command whose POSITION may start with '-' (an empty table: ``'- / 7H 8H 9H'``).

    A word that starts with '-' and holds a space, '/' or '|' is a position, never an option;
    every other '-word' is an option, so an unknown one is refused by name ("No such option:
    --jsn", with a suggestion).
    """

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        process_opts = parser._process_opts

        def _process_opts(arg: str, state: Any) -> None:
            if any(char in arg for char in " /|\t"):
                state.largs.append(arg)
            else:
                process_opts(arg, state)

        # Overrides click's private method on this one parser instance.
        parser._process_opts = _process_opts  # type: ignore[method-assign]
        return parser


app = typer.Typer(
    name="rami",
    help=(
        "Solve and check positions of rami chinois and other manipulation-rummy variants.\n\n"
        "POSITION is a file, '-' for standard input, or the position itself in text notation "
        "('TABLE / HAND / SETTINGS') or JSON. Exit codes: 0 success, 2 bad input, "
        "1 internal error."
    ),
    no_args_is_help=True,
    add_completion=True,
    cls=RamiGroup,
    # Plain help: flags are shown as flags (rich help writes '<bool>' after each of them).
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
)

PositionArg = Annotated[
    str,
    typer.Argument(
        metavar="POSITION",
        help="A file, '-' for standard input, or the position inline (text notation or JSON).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
ObjectiveOpt = Annotated[
    Objective,
    typer.Option(
        "--objective",
        help="What to maximise first: 'points' (least hand penalty) or 'cards' (most played).",
        case_sensitive=False,
    ),
]
#: Commands whose POSITION may start with '-' (an empty table: '- / 7H 8H 9H').
POSITION_COMMAND: dict[str, Any] = {"cls": PositionCommand}

TimeLimitOpt = Annotated[
    float,
    typer.Option("--time-limit", metavar="S", help="Seconds the solver may search."),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rami {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Solve and check positions of rami chinois and other manipulation-rummy variants."""


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _summary(position: Position) -> dict[str, Any]:
    """The JSON summary of ``rami validate`` (its cards in the contract's codes)."""
    table_cards = position.table_size
    return {
        "position": str(position),
        "rules": position.rules.option_string,
        "melds": len(position.table),
        "table_cards": table_cards,
        "hand_cards": len(position.hand),
        "opened": position.opened,
        "hand_penalty": hand_penalty(position.hand, position.rules, position.opened),
    }


@app.command(**POSITION_COMMAND)
def validate(
    position: PositionArg, json_output: JsonOpt = False, lang: LangOpt = Language.EN
) -> None:
    """Check a position: exit 0 with a summary, or exit 2 listing every problem."""
    if json_output:
        _validate_json(position, lang)
        return
    with reporting_errors():
        parsed = load_position(position, language=lang)
    info = _summary(parsed)
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
            {"valid": False, "problems": [failure.message], "error": failure.to_json(),
             "exit_code": code}
        )
        raise typer.Exit(code) from None
    problems = parsed.problems(lang)
    echo_json({"valid": not problems, "problems": problems, **_summary(parsed)})
    if problems:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command(**POSITION_COMMAND)
def score(
    position: PositionArg, json_output: JsonOpt = False, lang: LangOpt = Language.EN
) -> None:
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
        lines.append("  " + "  ".join(f"{card.text(lang)} {points}"
                                      for card, points in per_card))
    else:
        lines.append("  (empty hand)")
    echo_lines(lines)


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


def _check_time_limit(time_limit: float) -> None:
    check_time_limit(time_limit)  # finite and positive: not inf, 1e309 nor nan


@app.command(**POSITION_COMMAND)
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
    no_min_moves: Annotated[
        bool,
        typer.Option("--no-min-moves", help="Do not minimise the table cards moved (faster)."),
    ] = False,
    ray: RayOpt = None,
    top: Annotated[
        int,
        typer.Option("--top", metavar="K", min=1, max=50,
                     help="The K best turns with distinct signatures, best first."),
    ] = 1,
    lang: LangOpt = Language.EN,
) -> None:
    """Best play for the player to move: the new table, cards played, penalty and moves."""
    with reporting_errors(json_output):
        _check_time_limit(time_limit)
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
        review_commands.solve_top_command(parsed, top, objective, time_limit, not no_min_moves,
                                          json_output, lang)
        return
    with reporting_errors(json_output):
        parsed = load_position(position, language=lang)
        solution = _run_solver(parsed, objective, time_limit, not no_min_moves, json_output)
    if json_output:
        echo_json(solution.to_json(lang))
        return
    from rami.hints import solution_lines

    echo_lines(solution_lines(solution, lang))


def _solve_batch(path: str, objective: Objective, time_limit: float, min_moves: bool,
                 ray: str | None = None, lang: Language = Language.EN) -> None:
    from rami.cli.batch import solve_line, solve_task
    from rami.cli.scale import RetryLog, executor_for
    from rami.scale.executor import LocalExecutor
    from rami.scale.progress import Progress

    with reporting_errors():
        lines = list(batch_lines(path))
    failed = 0
    internal = False
    executor = executor_for(1, ray) if ray is not None else LocalExecutor(1)
    with reporting_errors(), executor, Progress(len(lines), "solving") as progress:
        if ray is None:
            # In this process, one line after another (Ctrl-C stops the solve in hand).
            results = (solve_line(number, line, objective, time_limit, min_moves, _run_solver,
                                  lang) for number, line in lines)
        else:
            jobs = ({"line": number, "text": line, "objective": objective.value,
                     "time_limit": time_limit, "min_moves": min_moves, "language": lang.value}
                    for number, line in lines)
            results = ((item["result"], item["internal"]) for item in executor.ordered(
                solve_task, jobs, on_retry=RetryLog(progress, "line")))
        for result, bug in results:
            internal |= bug
            failed += "error" in result
            echo_json(result, compact=True)
            progress.advance()
    if failed:
        echo_error([f"{failed} of {_plural(len(lines), 'position')} failed"])
        raise typer.Exit(EXIT_INTERNAL if internal else EXIT_BAD_INPUT)


@app.command(**POSITION_COMMAND)
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
        _check_time_limit(time_limit)
        parsed = load_position(position, language=lang)
        solution = _run_solver(parsed, objective, time_limit, True, json_output)
    given = make_hint(solution, level, lang)
    if json_output:
        echo_json(given.to_json())
        return
    echo_lines(given.text.splitlines())


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option("--host", help="Interface to listen on; 127.0.0.1 (the default) is this "
                     "machine only, 0.0.0.0 every interface."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, help="Server processes (each solves in its own threads)."),
    ] = 1,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option("--cors-origin", help="Let web pages of this origin call the API (CORS); "
                     "repeatable. Off by default."),
    ] = None,
    docs: Annotated[
        bool,
        typer.Option("--docs", help="Serve /docs and /redoc (their scripts load from a public "
                     "CDN). Off by default."),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option("--forwarded-allow-ips", help="Believe X-Forwarded-For from these proxies "
                     "(comma-separated, or '*'). Off by default."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", metavar="FILE", help="Keep the puzzle attempts in this SQLite file "
                     "(made if new) and rate from them; without it nothing is recorded."),
    ] = None,
) -> None:
    """Serve the solver, hints and referee as an HTTP JSON API (docs/service.md)."""
    from rami.service.cli import serve as run_server  # FastAPI and uvicorn load only here

    run_server(host=host, port=port, workers=workers, cors_origins=cors_origin,
               docs=docs or None, forwarded_allow_ips=forwarded_allow_ips, db=db)


app.command()(game_commands.simulate)
app.command()(match_command.match)
app.command()(game_commands.replay)
app.command()(game_commands.play)
app.command(**POSITION_COMMAND)(review_commands.review)


def _add_puzzles() -> None:
    from rami.puzzles.cli import puzzle_app

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
