"""The ``rami`` group: its Typer app, how it reports failures, and the options its commands
share.

Failures are turned into exit codes by the one table of :mod:`rami.errors` (0 success, 2 bad
input, 1 internal error, 130 interrupted). Under ``--json`` every failure is a JSON object on
standard output, ``{"error": {"type", "message", "loc", "problems"}, "exit_code": N}``; without
it, a message on standard error. The commands are registered by :mod:`rami.cli.main`.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from rami import __version__
from rami.cli.output import echo_json_error, fail, report_failure
from rami.errors import EXIT_BAD_INPUT, RamiError, SolverBugError, shorten


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
                    {
                        "type": "UsageError",
                        "message": _usage_message(error),
                        "loc": None,
                        "problems": [],
                    },
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
#: Commands whose POSITION may start with '-' (an empty table: '- / 7H 8H 9H').
POSITION_COMMAND: dict[str, Any] = {"cls": PositionCommand}


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
