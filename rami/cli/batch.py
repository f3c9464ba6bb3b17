"""``rami solve --batch``: one position per line in, one JSON result per line out.

:func:`solve_line` is the whole work of one line (read the position, solve it, or say why not)
and :func:`solve_task` the same as a task of :mod:`rami.scale`: the line's text and the solve
options as plain data in, the result line as plain data out, so a line solved on Ray prints
exactly as one solved here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rami.cli.inputs import CliError, Source, check, parse_source
from rami.errors import InvalidPositionError, RamiError, SolverBugError, UnreadableFileError
from rami.lang import ENGLISH, Language
from rami.position import Position
from rami.solver.api import Objective
from rami.textfile import undecodable

Solver = Callable[[Position, Objective, float, bool], Any]


def solve_line(
    number: int,
    line: str,
    objective: Objective,
    time_limit: float,
    min_moves: bool,
    solver: Solver,
    language: Language = ENGLISH,
) -> tuple[dict[str, Any], bool]:
    """The result object of one line (cards read in ``language``, texts said in it), and
    whether its failure is internal (a bug)."""
    result: dict[str, Any] = {"line": number}
    internal = False
    try:
        bad_bytes = undecodable(line)
        if bad_bytes is not None:
            raise CliError(bad_bytes, type_name=UnreadableFileError.__name__)
        parsed = check(parse_source(Source("", line), language), "", language)
        solution = solver(parsed, objective, time_limit, min_moves)
        result.update(solution.to_json(language))
    except CliError as error:
        result["error"] = " ".join([error.message, "; ".join(error.problems)]).strip()
        if error.problems:
            result["problems"] = error.problems
    except InvalidPositionError as error:
        result["error"] = f"invalid position: {error}"
        result["problems"] = error.problems
    except RamiError as error:
        result["error"] = str(error)
    except SolverBugError as error:
        result["error"] = f"internal solver error (a bug, please report it): {error}"
        internal = True
    except (RecursionError, MemoryError) as error:  # never expected: only this line fails
        result["error"] = f"internal error (a bug, please report it): {type(error).__name__}"
        internal = True
    return result, internal


def _solve_in_worker(
    position: Position, objective: Objective, time_limit: float, min_moves: bool
) -> Any:
    from rami.solver.api import solve

    return solve(position, objective=objective, min_moves=min_moves, time_limit=time_limit)


def solve_task(payload: dict[str, Any]) -> dict[str, Any]:
    """``{"line", "text", "objective", "time_limit", "min_moves", "language"}`` in,
    ``{"result", "internal"}`` out (the position is read and the model built in the worker)."""
    result, internal = solve_line(
        payload["line"],
        payload["text"],
        Objective(payload["objective"]),
        payload["time_limit"],
        payload["min_moves"],
        _solve_in_worker,
        Language(payload.get("language", ENGLISH)),
    )
    return {"result": result, "internal": internal}
