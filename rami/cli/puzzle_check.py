"""``rami puzzle check``: re-verify puzzles, or judge an answer to one.

Registered on the puzzle CLI by :mod:`rami.cli.puzzle`. Without ``--answer`` every puzzle of
the pack is re-verified (:func:`rami.puzzles.recheck.verify`: legal, solvable, unique, metrics
reproduce); with it, the answer (a final table or moves) is judged
(:func:`rami.puzzles.answers.check_answer`). Exit 1 when a puzzle or the answer fails. OR-Tools
loads only when the command solves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from rami.cli.options import JsonOpt
from rami.cli.output import echo_json, echo_lines
from rami.cli.puzzle_common import (
    EXIT_FAILED,
    BadInput,
    FileOrId,
    IdOpt,
    answer_text,
    load,
    reporting,
    solving,
)
from rami.scale import Progress

if TYPE_CHECKING:
    from rami.puzzles import Puzzle


def check(
    puzzles: FileOrId,
    answer: Annotated[
        str | None,
        typer.Option(
            "--answer",
            metavar="ANSWER",
            help="A final table ('meld | meld | ...' or a JSON list of melds, or a file), or "
            "moves as 'rami solve' prints them ('split 1 after 6H; add 6H to 4'): say "
            "whether it solves the puzzle and why not.",
            show_default=False,
        ),
    ] = None,
    puzzle_id: IdOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Re-verify puzzles (legal, solvable, unique, metrics reproduce), or judge an answer."""
    with reporting(json_output):
        loaded = load(puzzles, puzzle_id)
        if answer is not None:
            if len(loaded) != 1:
                raise BadInput(
                    f"{puzzles} holds {len(loaded)} puzzles: pick one with --id to check an answer"
                )
            from rami.puzzles import read_answer

            given = read_answer(loaded[0], answer_text(answer))
    with reporting(json_output), solving(json_output):
        if answer is not None:
            _check_answer(loaded[0], given, json_output)
            return
        _verify_all(loaded, json_output)


def _check_answer(puzzle: Puzzle, given: Any, json_output: bool) -> None:
    from rami.puzzles import check_answer

    verdict = check_answer(puzzle, given.table, given.numbers)
    if json_output:
        echo_json({"id": puzzle.id, **verdict.to_json()})
    else:
        head = "Solved" if verdict.solved else ("Not solved" if verdict.legal else "Illegal")
        lines = [f"{head}: puzzle {puzzle.id}"]
        lines += [f"  {reason}" for reason in verdict.reasons]
        echo_lines(lines)
    if not verdict.solved:
        raise typer.Exit(EXIT_FAILED)


def _verify_all(puzzles: list[Puzzle], json_output: bool) -> None:
    from rami.puzzles import verify, versions

    failures = 0
    here = versions()
    results = []
    with Progress(len(puzzles), "checking") as progress:
        for number, puzzle in enumerate(puzzles, start=1):
            problems = verify(puzzle)
            failures += bool(problems)
            made = puzzle.record.get("version", {})
            note = ""
            if made.get("ortools") not in (None, here["ortools"]):
                note = f" (made with ortools {made.get('ortools')}, checked with {here['ortools']})"
            results.append({"id": puzzle.id, "ok": not problems, "problems": problems})
            if not json_output:
                if problems:
                    echo_lines([f"FAIL {puzzle.id}{note}", *(f"  - {p}" for p in problems)])
                else:
                    echo_lines([f"ok {puzzle.id} ({puzzle.kind}, {puzzle.tier}){note}"])
            progress.update(number, f"{failures} failed")
    if json_output:
        echo_json({"checked": len(puzzles), "failed": failures, "puzzles": results})
    else:
        total = len(puzzles)
        echo_lines(
            [
                f"{total} puzzle{'s' if total != 1 else ''} checked: "
                + ("all sound" if not failures else f"{failures} failed")
            ]
        )
    if failures:
        raise typer.Exit(EXIT_FAILED)
