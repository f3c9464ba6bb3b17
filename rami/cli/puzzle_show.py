"""``rami puzzle show`` and ``rami puzzle daily``: puzzles as text or as the JSON contract.

Registered on the puzzle CLI by :mod:`rami.cli.puzzle`. Both print a puzzle spoiler-free (the
JSON contract of docs/puzzles.md, :func:`rami.puzzles.record.public_json`) unless
``--solution`` asks for the answer. ``daily`` works offline: every machine gives the same
puzzle for a day; with ``--db FILE`` today's puzzle follows :mod:`rami.puzzles.daily`.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rami.cli.options import JsonOpt
from rami.cli.output import echo_json, echo_lines
from rami.cli.puzzle_common import (
    BadInput,
    IdOpt,
    SolutionOpt,
    TierChoice,
    load,
    plural,
    reporting,
)

if TYPE_CHECKING:
    from rami.puzzles import Puzzle

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def puzzle_lines(puzzle: Puzzle, *, solution: bool = False) -> list[str]:
    """The puzzle as readable lines (cards in the notation, so an answer can be copied)."""
    from rami.cards import format_cards

    rules = puzzle.position.rules.option_string
    lines = [
        f"Puzzle {puzzle.id}: {puzzle.tier}, {puzzle.kind}, {rules}",
        f"Goal: {puzzle.goal.get('text') or puzzle.kind}",
        "Table:",
    ]
    lines += [f"  {n}. {meld}" for n, meld in enumerate(puzzle.position.table, start=1)]
    lines.append(f"Hand: {format_cards(puzzle.position.hand)}")
    if puzzle.themes:
        lines.append(f"Themes: {', '.join(puzzle.themes)}")
    if not solution:
        lines.append(
            f"Answer: rami puzzle check {puzzle.id} --answer 'MELD | MELD | ...' "
            "(or --answer 'MOVE; MOVE; ...')"
        )
        return lines
    return lines + solution_lines(puzzle)


def solution_lines(puzzle: Puzzle) -> list[str]:
    """The difficulty details, the solution's table and its moves (``--solution``)."""
    from rami.puzzles import solution_json

    metrics = puzzle.metrics
    capped = puzzle.record["difficulty"].get("near_solutions_capped")
    near = f"{metrics.near_solutions}{'+' if capped else ''}"
    lines = [
        f"Difficulty: score {puzzle.record['difficulty'].get('score')}; "
        f"{plural(metrics.cards_moved, 'table card')} moved, "
        f"{plural(metrics.melds_broken, 'meld')} broken, "
        f"greedy player {'fails' if metrics.greedy_fails else 'succeeds'}, "
        f"{near} near-solution{'' if near == '1' else 's'}, "
        f"{plural(metrics.jokers_involved, 'joker')} involved"
    ]
    answer = solution_json(puzzle)
    lines.append("Solution:")
    lines += [
        f"  {number}. {meld}"
        for number, meld in zip(answer["numbers"], puzzle_table(answer["solution"]), strict=True)
    ]
    lines.append("Moves:")
    lines += [f"  {n}. {move['text']}" for n, move in enumerate(answer["moves"], start=1)]
    return lines


def puzzle_table(melds: list[Any]) -> list[str]:
    from rami.notation import meld_from_json

    return [str(meld_from_json(meld)) for meld in melds]


def puzzle_json(puzzle: Puzzle, *, solution: bool = False) -> dict[str, Any]:
    """The puzzle JSON contract (docs/puzzles.md): spoiler-free, the answer only when asked."""
    from rami.puzzles import public_json, solution_json

    data = public_json(puzzle)
    if solution:
        data.update(solution_json(puzzle))
    return data


# ------------------------------------------------------------------------------- show


def show(
    puzzles: Annotated[
        str | None,
        typer.Argument(
            metavar="[FILE|ID]",
            help="A puzzle pack (JSON lines) or the id of a shipped puzzle "
            "(default: the shipped pack).",
            show_default=False,
        ),
    ] = None,
    puzzle_id: IdOpt = None,
    theme: Annotated[
        str | None,
        typer.Option(
            "--theme",
            metavar="THEME",
            help="Only the puzzles with this theme (joker-swap, split-run, ...).",
            show_default=False,
        ),
    ] = None,
    tier: Annotated[
        TierChoice | None,
        typer.Option("--tier", help="Only the puzzles of this tier.", show_default=False),
    ] = None,
    solution: SolutionOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Show puzzles: table, hand, goal and themes; the solution only with --solution."""
    with reporting(json_output):
        loaded = _shown(puzzles, puzzle_id, theme, tier)
    if json_output:
        for puzzle in loaded:
            echo_json(puzzle_json(puzzle, solution=solution), compact=True)
        return
    for number, puzzle in enumerate(loaded):
        if number:
            typer.echo("")
        echo_lines(puzzle_lines(puzzle, solution=solution))


def _shown(
    puzzles: str | None, puzzle_id: str | None, theme: str | None, tier: TierChoice | None
) -> list[Puzzle]:
    """The puzzles ``show`` prints: of the pack (default: the shipped one), the id, the tier
    and the theme asked for; BadInput when none is left."""
    if puzzles is None:
        from rami.puzzles import shipped_pack

        loaded = list(shipped_pack())
        if puzzle_id is not None:
            loaded = [p for p in loaded if p.id == puzzle_id]
            if not loaded:
                raise BadInput(f"no puzzle {puzzle_id!r} in the shipped pack")
    else:
        loaded = load(puzzles, puzzle_id)
    if theme is not None or tier is not None:
        from rami.puzzles import select

        loaded = select(loaded, tier=tier.value if tier is not None else None, theme=theme)
        if not loaded:
            wanted = " and ".join(
                part for part in (tier and f"tier {tier.value}", theme and f"theme {theme}") if part
            )
            raise BadInput(f"no puzzle with {wanted} in {puzzles or 'the shipped pack'}")
    return loaded


# ------------------------------------------------------------------------------- daily


def daily(
    day: Annotated[
        str | None,
        typer.Option(
            "--date",
            metavar="YYYY-MM-DD",
            help="The day (default: today); every machine gives the same puzzle.",
            show_default=False,
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="An attempts database (rami serve --db "
            "FILE): today's puzzle is then chosen by rating once players have rated "
            "enough, and kept (docs/puzzles.md).",
            show_default=False,
        ),
    ] = None,
    solution: SolutionOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """The puzzle of the day, from the shipped packs (works offline)."""
    from rami.puzzles import daily_puzzle as pick

    with reporting(json_output):
        today = date.today()
        when = today if day is None else _day(day)
        puzzle = pick(when) if db is None else _daily_with(db, when, today)
    if json_output:
        echo_json({"date": when.isoformat(), **puzzle_json(puzzle, solution=solution)})
        return
    echo_lines([f"Daily puzzle, {when.isoformat()}", *puzzle_lines(puzzle, solution=solution)])


def _daily_with(db: Path, when: date, today: date) -> Puzzle:
    """The daily puzzle by the rules of :mod:`rami.puzzles.daily`, with this database."""
    from rami.puzzles import AttemptStore, Ratings, daily_with, shipped_packs

    puzzles = shipped_packs()
    with AttemptStore(db, create=False) as store:
        ratings = Ratings(tiers={puzzle.id: puzzle.tier for puzzle in puzzles})
        ratings.add_all(store.attempts())
        return daily_with(when, today, puzzles, store, ratings)


def _day(text: str) -> date:
    """The day of ``--date YYYY-MM-DD``; BadInput naming the option otherwise."""
    if not _DATE.fullmatch(text.strip()):
        raise BadInput(f"--date: expected YYYY-MM-DD, got {text!r}")
    try:
        return date.fromisoformat(text.strip())
    except ValueError as error:
        raise BadInput(f"--date: {error}") from None
