"""``rami puzzle generate`` and ``rami puzzle mine``: the commands that write a pack.

Registered on the puzzle CLI by :mod:`rami.cli.puzzle`. ``generate`` draws and judges
candidates (:mod:`rami.puzzles.generator`); ``mine`` takes turns of simulated games
(:mod:`rami.puzzles.mine`). Both write JSON lines to ``--out FILE`` as puzzles are found, on
one or more processes (or Ray: ``--ray``). OR-Tools and the game load only inside the commands.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from rami.cli.options import JsonOpt, RulesOpt
from rami.cli.output import echo_error, echo_json, echo_lines
from rami.cli.puzzle_common import (
    EXIT_FAILED,
    BadInput,
    KindChoice,
    PackOutOpt,
    TierChoice,
    plural,
    reporting,
)
from rami.cli.scale import RayOpt, RetryLog, executor_for
from rami.scale import Progress

if TYPE_CHECKING:
    from rami.scale import Executor


def _check_out(out: Path, force: bool) -> None:
    """``--out FILE`` may be written: new, or ``--force`` and not a directory."""
    if out.exists() and not force:
        raise BadInput(f"{out} exists: give --force to overwrite it")
    if out.exists() and out.is_dir():
        raise BadInput(f"{out} is a directory")


def _open_out(out: Path, executor: Executor, json_output: bool = False) -> IO[str]:
    """``--out FILE`` opened for writing; the executor closed if it cannot be."""
    with reporting(json_output):
        try:
            return out.open("w", encoding="utf-8")
        except OSError:
            executor.close()
            raise


# ------------------------------------------------------------------------------- generate


def generate(
    out: PackOutOpt,
    count: Annotated[int, typer.Option("--count", min=1, help="How many puzzles.")] = 10,
    tier: Annotated[
        TierChoice | None,
        typer.Option(
            "--tier", help="Only puzzles of this tier (default: any tier).", show_default=False
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same puzzles.")] = 0,
    jokers: Annotated[int, typer.Option("--jokers", help="Rami chinois with 0 or 4 jokers.")] = 0,
    kind: Annotated[
        KindChoice, typer.Option("--kind", help="empty-hand, best-score or any.")
    ] = KindChoice.any,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, help="Processes judging candidates (same output)."),
    ] = 1,
    max_attempts: Annotated[
        int | None,
        typer.Option(
            "--max-attempts",
            min=1,
            metavar="N",
            help="Give up after N candidates (exit 1 if fewer puzzles were found).",
            show_default=False,
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            metavar="NAME",
            help="Draw every candidate with this profile (default: each tier's own; "
            "easy, medium, hard and expert are the original ones, which made "
            "the shipped pack).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    ray: RayOpt = None,
) -> None:
    """Generate sound puzzles (unique solution, rated) as JSON lines."""
    from rami.puzzles import PROFILES

    with reporting():
        if jokers not in (0, 4):
            raise BadInput(f"--jokers must be 0 or 4 (rami chinois), got {jokers}")
        if profile is not None and profile not in PROFILES:
            raise BadInput(f"--profile must be one of {', '.join(PROFILES)}, got {profile!r}")
        _check_out(out, force)
    from rami.puzzles import SOLVER_BUG, records_text
    from rami.puzzles import generate_puzzles as run_generation

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
    handle = _open_out(out, executor)
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
    _report_generated(out, count, written, judged, solver_bugs, time.perf_counter() - started)


def _report_generated(
    out: Path, count: int, written: int, judged: int, solver_bugs: list[str], elapsed: float
) -> None:
    """What ``generate`` did, on standard error; exit 1 if fewer puzzles than asked."""
    rate = written / elapsed * 60 if elapsed else 0.0
    typer.echo(
        f"wrote {written} puzzle{'s' if written != 1 else ''} to {out} "
        f"({plural(judged, 'candidate')} judged, {elapsed:.1f} s, {rate:.1f} puzzles/min)",
        err=True,
    )
    if solver_bugs:
        echo_error(
            [
                f"{plural(len(solver_bugs), 'candidate')} skipped on an internal solver "
                "error (a bug, please report it):",
                *solver_bugs[:5],
            ]
        )
    if written < count:
        echo_error([f"only {written} of {count} puzzles found within --max-attempts"])
        raise typer.Exit(EXIT_FAILED)


# ------------------------------------------------------------------------------- mine


def mine(
    out: PackOutOpt,
    games: Annotated[
        int, typer.Option("--games", metavar="N", min=1, help="Games to play and mine.")
    ] = 10,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="S",
            help="Seed of the games: game i is game i of 'rami simulate --seed S'.",
        ),
    ] = 0,
    rules: RulesOpt = "rami-chinois",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="L1,L2[,...]",
            help="The bots' levels, one per "
            "seat: beginner, novice, intermediate, confirmed, expert (or elo:N).",
        ),
    ] = "confirmed,confirmed",
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", metavar="N", min=1, help="Rounds at most per game.", show_default=False
        ),
    ] = None,
    max_hand: Annotated[
        int,
        typer.Option(
            "--max-hand",
            metavar="N",
            min=1,
            help="Keep turns with at most N cards in hand (the generator's "
            "largest hand by default).",
        ),
    ] = 10,
    workers: Annotated[
        int,
        typer.Option("--workers", min=1, help="Processes mining games (same output)."),
    ] = 1,
    ray: RayOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    json_output: JsonOpt = False,
) -> None:
    """Mine puzzles from simulated games: turns whose best play needs a rearrangement and is
    unique, each with the game and turn it came from."""
    from rami.game import GameOptions
    from rami.puzzles import checked_simulation, mine_summary, records_text
    from rami.puzzles import mine_puzzles as run_mining

    with reporting(json_output):
        _check_out(out, force)
        levels = tuple(part.strip().lower() for part in players.split(",") if part.strip())
        simulation = checked_simulation(
            rules, levels, games, seed, GameOptions(max_rounds=rounds) if rounds else None
        )
    executor = executor_for(workers, ray, json_output)
    handle = _open_out(out, executor, json_output)
    started = time.perf_counter()
    mined = []
    with reporting(json_output), handle, executor, Progress(games, "mining") as progress:
        retries = RetryLog(progress, "game")
        for game in run_mining(simulation, executor, retries, max_hand):
            handle.write(records_text(game.puzzles))
            handle.flush()
            mined.append(game)
            progress.advance(note=f"{sum(len(g.puzzles) for g in mined)} puzzles")
    summary = mine_summary(simulation, mined, time.perf_counter() - started, executor)
    summary.update(out=str(out), retries=retries.retries)
    _report_mined(summary, out, json_output)


def _report_mined(summary: dict[str, Any], out: Path, json_output: bool) -> None:
    """What ``mine`` did (the summary as JSON under ``--json``); exit 1 if a game failed."""
    if json_output:
        echo_json(summary)
    else:
        tiers = ", ".join(f"{count} {tier}" for tier, count in summary["tiers"].items())
        echo_lines(
            [
                f"Mined {plural(summary['puzzles'], 'puzzle')} ({tiers}) from "
                f"{plural(summary['games'], 'game')} of {summary['rules']} into {out}: "
                f"{summary['positions']} turns judged, {summary['candidates']} past the quick test",
                f"{summary['seconds']:.1f} s on {summary['workers']} {summary['executor']} "
                f"worker{'s' if summary['workers'] != 1 else ''}: {summary['games_per_minute']} "
                f"games/min, {summary['positions_per_second']} positions/s",
            ]
        )
    if summary["errors"]:
        echo_error(
            [f"game {e['game']} (seed {e['seed']}) failed: {e['error']}" for e in summary["errors"]]
        )
        raise typer.Exit(EXIT_FAILED)
