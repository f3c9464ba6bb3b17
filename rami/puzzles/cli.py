"""``rami puzzle``: generate, check, show puzzles, and the daily puzzle.

A Typer sub-application (the main CLI adds it with ``app.add_typer(puzzle_app, name="puzzle")``).
Exit codes: 0 success, 1 a puzzle (or an answer) fails its check, 2 bad input (the table of
:mod:`rami.errors`), 130 interrupted; under ``--json`` a failure is the JSON error of the main
CLI on standard output. Packs and answers are read within the bounds of :mod:`rami.textfile`,
JSON nested too deeply refused before decoding. OR-Tools loads only inside the commands that
solve.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rami.cli import interrupt
from rami.cli.inputs import STDIN, CliError, read_text
from rami.cli.output import INTERRUPTED, echo_error, echo_json, echo_lines, fail, report_failure
from rami.cli.scale import RayOpt, RetryLog, executor_for
from rami.errors import NotationError, RamiError, SolverBugError, UnreadableFileError, quote
from rami.notation import MAX_JSON_DEPTH, json_depth
from rami.puzzles import ratings_cli
from rami.scale.progress import Progress
from rami.textfile import MAX_POSITION_BYTES

if TYPE_CHECKING:
    from rami.puzzles.record import Puzzle

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2

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


class TierChoice(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"
    expert = "expert"


class KindChoice(StrEnum):
    any = "any"
    empty_hand = "empty-hand"
    best_score = "best-score"


class _BadInput(CliError):
    """A puzzle command used wrongly (exit code 2, ``UsageError`` under ``--json``)."""


@contextmanager
def _reporting(json_output: bool = False) -> Iterator[None]:
    """Bad input becomes a message on stderr (or the JSON error) and its exit code from the
    table of :mod:`rami.errors` (2 bad input, 1 a solver bug), never a traceback."""
    try:
        yield
    except (RamiError, SolverBugError, KeyboardInterrupt) as error:
        fail(error, json_output)
    except OSError as error:
        name = quote(str(error.filename)) if error.filename else "a file"
        fail(UnreadableFileError(f"cannot use {name}: {error.strerror or error}"), json_output)


@contextmanager
def _solving(json_output: bool) -> Iterator[None]:
    """A solve in this process: Ctrl-C says "interrupted" and exits 130 (rami.cli.interrupt)."""
    with interrupt.solving(lambda: report_failure(KeyboardInterrupt(), json_output, INTERRUPTED)):
        yield


#: ``--out FILE`` of the commands that write a pack (generate, mine).
PackOutOpt = Annotated[
    Path,
    typer.Option("--out", metavar="FILE", help="Write the puzzles here, one JSON per line.",
                 show_default=False),
]


# ------------------------------------------------------------------------------- generate


@puzzle_app.command()
def generate(
    out: PackOutOpt,
    count: Annotated[int, typer.Option("--count", min=1, help="How many puzzles.")] = 10,
    tier: Annotated[
        TierChoice | None,
        typer.Option("--tier", help="Only puzzles of this tier (default: any tier).",
                     show_default=False),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same puzzles.")] = 0,
    jokers: Annotated[
        int, typer.Option("--jokers", help="Rami chinois with 0 or 4 jokers.")
    ] = 0,
    kind: Annotated[
        KindChoice, typer.Option("--kind", help="empty-hand, best-score or any.")
    ] = KindChoice.any,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, help="Processes judging candidates (same output)."),
    ] = 1,
    max_attempts: Annotated[
        int | None,
        typer.Option("--max-attempts", min=1, metavar="N",
                     help="Give up after N candidates (exit 1 if fewer puzzles were found).",
                     show_default=False),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option("--profile", metavar="NAME",
                     help="Draw every candidate with this profile (default: each tier's own; "
                          "easy, medium, hard and expert are the original ones, which made "
                          "the shipped pack).",
                     show_default=False),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    ray: RayOpt = None,
) -> None:
    """Generate sound puzzles (unique solution, rated) as JSON lines."""
    from rami.puzzles.generator import PROFILES

    with _reporting():
        if jokers not in (0, 4):
            raise _BadInput(f"--jokers must be 0 or 4 (rami chinois), got {jokers}")
        if profile is not None and profile not in PROFILES:
            raise _BadInput(f"--profile must be one of {', '.join(PROFILES)}, got {profile!r}")
        if out.exists() and not force:
            raise _BadInput(f"{out} exists: give --force to overwrite it")
        if out.exists() and out.is_dir():
            raise _BadInput(f"{out} is a directory")
    from rami.puzzles.generator import SOLVER_BUG
    from rami.puzzles.generator import generate as run_generation
    from rami.puzzles.record import records_text

    started = time.perf_counter()
    judged = 0
    written = 0
    solver_bugs: list[str] = []

    def seen(outcome: Any, accepted: int) -> None:
        nonlocal judged
        judged += 1
        if outcome.reason.startswith(SOLVER_BUG):
            solver_bugs.append(f"candidate {outcome.attempt.index}: {outcome.reason}")
        progress.update(accepted, f"{judged} candidates")

    executor = executor_for(workers, ray)
    with _reporting():
        try:
            handle = out.open("w", encoding="utf-8")
        except OSError:
            executor.close()
            raise
    with handle, executor, Progress(count, "generating") as progress:
        for record in run_generation(
            count,
            seed=seed,
            tier=tier.value if tier is not None else None,
            jokers=jokers,
            kind=None if kind is KindChoice.any else kind.value,
            workers=workers,
            max_attempts=max_attempts,
            profile=profile,
            on_outcome=seen,
            executor=executor,
            on_retry=RetryLog(None, "candidate"),
        ):
            handle.write(records_text([record]))
            handle.flush()
            written += 1
    elapsed = time.perf_counter() - started
    rate = written / elapsed * 60 if elapsed else 0.0
    typer.echo(
        f"wrote {written} puzzle{'s' if written != 1 else ''} to {out} "
        f"({_plural(judged, 'candidate')} judged, {elapsed:.1f} s, {rate:.1f} puzzles/min)",
        err=True,
    )
    if solver_bugs:
        echo_error([f"{_plural(len(solver_bugs), 'candidate')} skipped on an internal solver "
                    "error (a bug, please report it):", *solver_bugs[:5]])
    if written < count:
        echo_error([f"only {written} of {count} puzzles found within --max-attempts"])
        raise typer.Exit(EXIT_FAILED)


# ------------------------------------------------------------------------------- mine


@puzzle_app.command()
def mine(
    out: PackOutOpt,
    games: Annotated[int, typer.Option("--games", metavar="N", min=1,
                                       help="Games to play and mine.")] = 10,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the games: game i "
                                      "is game i of 'rami simulate --seed S'.")] = 0,
    rules: Annotated[str, typer.Option("--rules", metavar="R",
                                       help="A rami-chinois preset string.")] = "rami-chinois",
    players: Annotated[
        str, typer.Option("--players", metavar="L1,L2[,...]", help="The bots' levels, one per "
                          "seat: beginner, novice, intermediate, confirmed, expert (or elo:N).")
    ] = "confirmed,confirmed",
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", min=1,
                                 help="Rounds at most per game.", show_default=False)
    ] = None,
    max_hand: Annotated[
        int, typer.Option("--max-hand", metavar="N", min=1,
                          help="Keep turns with at most N cards in hand (the generator's "
                               "largest hand by default).")
    ] = 10,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Processes mining games (same output)."),
    ] = 1,
    ray: RayOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    json_output: JsonOpt = False,
) -> None:
    """Mine puzzles from simulated games: turns whose best play needs a rearrangement and is
    unique, each with the game and turn it came from."""
    from rami.game.presets import GameOptions
    from rami.puzzles.mine import checked_simulation, mine_summary
    from rami.puzzles.mine import mine as run_mining
    from rami.puzzles.record import records_text
    from rami.scale.progress import Progress

    with _reporting(json_output):
        if out.exists() and not force:
            raise _BadInput(f"{out} exists: give --force to overwrite it")
        if out.exists() and out.is_dir():
            raise _BadInput(f"{out} is a directory")
        levels = tuple(part.strip().lower() for part in players.split(",") if part.strip())
        simulation = checked_simulation(rules, levels, games, seed,
                                        GameOptions(max_rounds=rounds) if rounds else None)
    executor = executor_for(workers, ray, json_output)
    with _reporting(json_output):
        try:
            handle = out.open("w", encoding="utf-8")
        except OSError:
            executor.close()
            raise
    started = time.perf_counter()
    mined = []
    with _reporting(json_output), handle, executor, Progress(games, "mining") as progress:
        retries = RetryLog(progress, "game")
        for game in run_mining(simulation, executor, retries, max_hand):
            handle.write(records_text(game.puzzles))
            handle.flush()
            mined.append(game)
            progress.advance(note=f"{sum(len(g.puzzles) for g in mined)} puzzles")
    summary = mine_summary(simulation, mined, time.perf_counter() - started, executor)
    summary.update(out=str(out), retries=retries.retries)
    if json_output:
        echo_json(summary)
    else:
        tiers = ", ".join(f"{count} {tier}" for tier, count in summary["tiers"].items())
        echo_lines([
            f"Mined {_plural(summary['puzzles'], 'puzzle')} ({tiers}) from "
            f"{_plural(summary['games'], 'game')} of {summary['rules']} into {out}: "
            f"{summary['positions']} turns judged, {summary['candidates']} past the quick test",
            f"{summary['seconds']:.1f} s on {summary['workers']} {summary['executor']} "
            f"worker{'s' if summary['workers'] != 1 else ''}: {summary['games_per_minute']} "
            f"games/min, {summary['positions_per_second']} positions/s",
        ])
    if summary["errors"]:
        echo_error([f"game {e['game']} (seed {e['seed']}) failed: {e['error']}"
                    for e in summary["errors"]])
        raise typer.Exit(EXIT_FAILED)


# ------------------------------------------------------------------------------- loading


def _check_pack_file(spec: str) -> None:
    """Refuse a pack file that cannot be read within its bound, or with a line of JSON nested
    too deeply (before the pack reader decodes it)."""
    try:
        is_file = Path(spec).exists()
    except (OSError, ValueError):
        return
    if not is_file:
        return
    text = read_text(spec)
    for number, line in enumerate(text.splitlines(), start=1):
        if json_depth(line) > MAX_JSON_DEPTH:
            raise NotationError(
                f"{quote(spec)}:{number}: JSON nested more than {MAX_JSON_DEPTH} levels deep"
            )


def _load(spec: str, puzzle_id: str | None = None) -> list[Puzzle]:
    from rami.puzzles.record import load_puzzles

    _check_pack_file(spec)
    puzzles = load_puzzles(spec)
    if puzzle_id is not None:
        chosen = [p for p in puzzles if p.id == puzzle_id]
        if not chosen:
            raise _BadInput(f"no puzzle {puzzle_id!r} in {spec}")
        return chosen
    return puzzles


def _read_answer(answer: str) -> str:
    """The answer's text: the option itself, a file it names, or standard input for '-'
    (within the bound of a position); JSON nested too deeply is refused here."""
    if answer == STDIN:
        text = read_text(STDIN, limit=MAX_POSITION_BYTES)
    elif "|" not in answer and not answer.lstrip().startswith("[") and _is_file(answer):
        text = read_text(answer, limit=MAX_POSITION_BYTES)
    else:
        text = answer
    text = text.lstrip("\ufeff")
    if text.lstrip().startswith("[") and json_depth(text) > MAX_JSON_DEPTH:
        raise NotationError(f"answer: JSON nested more than {MAX_JSON_DEPTH} levels deep")
    return text


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


# ------------------------------------------------------------------------------- check

FileOrId = Annotated[
    str,
    typer.Argument(metavar="FILE|ID",
                   help="A puzzle pack (JSON lines) or the id of a shipped puzzle.",
                   show_default=False),
]
IdOpt = Annotated[
    str | None,
    typer.Option("--id", metavar="ID", help="Pick one puzzle of the pack by its id.",
                 show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


@puzzle_app.command()
def check(
    puzzles: FileOrId,
    answer: Annotated[
        str | None,
        typer.Option(
            "--answer", metavar="ANSWER",
            help="A final table ('meld | meld | ...' or a JSON list of melds, or a file), or "
                 "moves as 'rami solve' prints them ('split 1 after 6H; add 6H to 4'): say "
                 "whether it solves the puzzle and why not.",
            show_default=False),
    ] = None,
    puzzle_id: IdOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Re-verify puzzles (legal, solvable, unique, metrics reproduce), or judge an answer."""
    with _reporting(json_output):
        loaded = _load(puzzles, puzzle_id)
        if answer is not None:
            if len(loaded) != 1:
                raise _BadInput(
                    f"{puzzles} holds {len(loaded)} puzzles: pick one with --id to check an answer"
                )
            from rami.puzzles.record import read_answer

            given = read_answer(loaded[0], _read_answer(answer))
    with _reporting(json_output), _solving(json_output):
        if answer is not None:
            _check_answer(loaded[0], given, json_output)
            return
        _verify_all(loaded, json_output)


def _check_answer(puzzle: Puzzle, given: Any, json_output: bool) -> None:
    from rami.puzzles.record import check_answer

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
    from rami.puzzles.record import verify, versions

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
        echo_lines([f"{total} puzzle{'s' if total != 1 else ''} checked: "
                    + ("all sound" if not failures else f"{failures} failed")])
    if failures:
        raise typer.Exit(EXIT_FAILED)


# ------------------------------------------------------------------------------- show / daily


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def puzzle_lines(puzzle: Puzzle, *, solution: bool = False) -> list[str]:
    """The puzzle as readable lines (cards in the notation, so an answer can be copied)."""
    from rami.cards import format_cards

    metrics = puzzle.metrics
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
        lines.append(f"Answer: rami puzzle check {puzzle.id} --answer 'MELD | MELD | ...' "
                     "(or --answer 'MOVE; MOVE; ...')")
        return lines
    capped = puzzle.record["difficulty"].get("near_solutions_capped")
    near = f"{metrics.near_solutions}{'+' if capped else ''}"
    lines.append(
        f"Difficulty: score {puzzle.record['difficulty'].get('score')}; "
        f"{_plural(metrics.cards_moved, 'table card')} moved, "
        f"{_plural(metrics.melds_broken, 'meld')} broken, "
        f"greedy player {'fails' if metrics.greedy_fails else 'succeeds'}, "
        f"{near} near-solution{'' if near == '1' else 's'}, "
        f"{_plural(metrics.jokers_involved, 'joker')} involved"
    )
    from rami.puzzles.record import solution_json

    answer = solution_json(puzzle)
    lines.append("Solution:")
    lines += [f"  {number}. {meld}" for number, meld in
              zip(answer["numbers"], puzzle_table(answer["solution"]), strict=True)]
    lines.append("Moves:")
    lines += [f"  {n}. {move['text']}" for n, move in enumerate(answer["moves"], start=1)]
    return lines


def puzzle_table(melds: list[Any]) -> list[str]:
    from rami.notation import meld_from_json

    return [str(meld_from_json(meld)) for meld in melds]


def puzzle_json(puzzle: Puzzle, *, solution: bool = False) -> dict[str, Any]:
    """The puzzle JSON contract (docs/puzzles.md): spoiler-free, the answer only when asked."""
    from rami.puzzles.record import public_json, solution_json

    data = public_json(puzzle)
    if solution:
        data.update(solution_json(puzzle))
    return data


SolutionOpt = Annotated[
    bool,
    typer.Option("--solution",
                 help="Also show the solution, its moves and the difficulty details."),
]


@puzzle_app.command()
def show(
    puzzles: Annotated[
        str | None,
        typer.Argument(metavar="[FILE|ID]",
                       help="A puzzle pack (JSON lines) or the id of a shipped puzzle "
                            "(default: the shipped pack).",
                       show_default=False),
    ] = None,
    puzzle_id: IdOpt = None,
    theme: Annotated[
        str | None,
        typer.Option("--theme", metavar="THEME",
                     help="Only the puzzles with this theme (joker-swap, split-run, ...).",
                     show_default=False),
    ] = None,
    tier: Annotated[
        TierChoice | None,
        typer.Option("--tier", help="Only the puzzles of this tier.", show_default=False),
    ] = None,
    solution: SolutionOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """Show puzzles: table, hand, goal and themes; the solution only with --solution."""
    with _reporting(json_output):
        if puzzles is None:
            from rami.puzzles.record import shipped_pack

            loaded = list(shipped_pack())
            if puzzle_id is not None:
                loaded = [p for p in loaded if p.id == puzzle_id]
                if not loaded:
                    raise _BadInput(f"no puzzle {puzzle_id!r} in the shipped pack")
        else:
            loaded = _load(puzzles, puzzle_id)
        if theme is not None or tier is not None:
            from rami.puzzles.record import select

            loaded = select(loaded, tier=tier.value if tier is not None else None, theme=theme)
            if not loaded:
                wanted = " and ".join(
                    part for part in (tier and f"tier {tier.value}", theme and f"theme {theme}")
                    if part)
                raise _BadInput(f"no puzzle with {wanted} in {puzzles or 'the shipped pack'}")
    if json_output:
        for puzzle in loaded:
            echo_json(puzzle_json(puzzle, solution=solution), compact=True)
        return
    for number, puzzle in enumerate(loaded):
        if number:
            typer.echo("")
        echo_lines(puzzle_lines(puzzle, solution=solution))


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@puzzle_app.command()
def daily(
    day: Annotated[
        str | None,
        typer.Option("--date", metavar="YYYY-MM-DD",
                     help="The day (default: today); every machine gives the same puzzle.",
                     show_default=False),
    ] = None,
    solution: SolutionOpt = False,
    json_output: JsonOpt = False,
) -> None:
    """The puzzle of the day, from the shipped pack (works offline)."""
    from rami.puzzles.record import daily as pick

    with _reporting(json_output):
        if day is None:
            when = date.today()
        else:
            if not _DATE.fullmatch(day.strip()):
                raise _BadInput(f"--date: expected YYYY-MM-DD, got {day!r}")
            try:
                when = date.fromisoformat(day.strip())
            except ValueError as error:
                raise _BadInput(f"--date: {error}") from None
        puzzle = pick(when)
    if json_output:
        echo_json({"date": when.isoformat(), **puzzle_json(puzzle, solution=solution)})
        return
    echo_lines([f"Daily puzzle, {when.isoformat()}", *puzzle_lines(puzzle, solution=solution)])


puzzle_app.command()(ratings_cli.attempts)
puzzle_app.command()(ratings_cli.ratings)
