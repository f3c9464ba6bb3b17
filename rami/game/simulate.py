"""Many games between bots, in parallel, reproducibly: ``rami simulate``.

Game ``i`` of a simulation seeded ``S`` is seeded ``derive_seed(S, "game", i)`` and its bots
``derive_seed(game seed, "bot", seat)``, so its record is the same whatever the number of worker
processes; the executor of :mod:`rami.scale` (this process, spawned processes, or Ray tasks)
plays them and the results come back in game order. A task is :func:`play_task`: the simulation
and the game number as plain data in, the outcome as plain data out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from rami.errors import RamiError, SolverBugError
from rami.game.actions import GameInternalError
from rami.game.bots import SOLVER_STATS
from rami.game.deck import derive_seed
from rami.game.elo import game_pairs, ratings
from rami.game.levels import check_table, make_bot
from rami.game.match import play_game
from rami.game.presets import GameError, GameOptions, game_rules
from rami.game.sprt import format_elo, rounded_elo
from rami.rules import get_ruleset
from rami.scale.executor import Executor, LocalExecutor, RetryListener, spawned_pool


@dataclass(frozen=True)
class Simulation:
    rules: str
    levels: tuple[str, ...]
    games: int
    seed: int
    options: GameOptions = field(default_factory=GameOptions)
    #: Replay each record in the worker that played it (a failure becomes the game's error).
    verify: bool = False

    def checked(self) -> Simulation:
        ruleset = get_ruleset(self.rules)
        check_table(ruleset, self.levels, len(self.levels))
        if self.games < 1:
            raise GameError(f"--games must be at least 1, got {self.games}")
        self.options.resolved(ruleset)
        return Simulation(
            ruleset.option_string, self.levels, self.games, self.seed, self.options, self.verify
        )

    def names(self) -> list[str]:
        return [f"P{seat + 1}" for seat in range(len(self.levels))]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "levels": list(self.levels),
            "games": self.games,
            "seed": self.seed,
            "options": self.options.to_json(),
            "verify": self.verify,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Simulation:
        return cls(
            data["rules"],
            tuple(data["levels"]),
            data["games"],
            data["seed"],
            GameOptions.from_json(data["options"]),
            data["verify"],
        )


@dataclass
class Outcome:
    """One game's result: its record (or the error that stopped it) and its timings."""

    index: int
    seed: int
    record: dict[str, Any] | None
    error: str | None
    ms: float
    solver_ms: float
    solver_calls: int


def game_seed(seed: int, index: int) -> int:
    return derive_seed(seed, "game", index)


def run_game(simulation: Simulation, index: int) -> Outcome:
    seed = game_seed(simulation.seed, index)
    bots = [
        make_bot(level, derive_seed(seed, "bot", seat))
        for seat, level in enumerate(simulation.levels)
    ]
    calls, solver_ms = SOLVER_STATS["calls"], SOLVER_STATS["ms"]
    started = time.perf_counter()
    record = error = None
    try:
        record = play_game(
            simulation.rules,
            bots,
            seed,
            options=simulation.options,
            names=simulation.names(),
            levels=simulation.levels,
            game=index,
        )
        if simulation.verify:
            from rami.game.record import replay

            replay(json.loads(json.dumps(record)), f"game {index}")
    except (GameInternalError, SolverBugError, RamiError) as failure:
        error = f"{type(failure).__name__}: {failure}"
        record = None
    return Outcome(
        index,
        seed,
        record,
        error,
        (time.perf_counter() - started) * 1000,
        SOLVER_STATS["ms"] - solver_ms,
        int(SOLVER_STATS["calls"] - calls),
    )


def play_task(payload: dict[str, Any]) -> dict[str, Any]:
    """One game as a task of :mod:`rami.scale`: ``{"simulation": ..., "index": i}`` in, the
    :class:`Outcome` as a dict out."""
    return asdict(run_game(Simulation.from_json(payload["simulation"]), payload["index"]))


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that die with this one
    (:func:`rami.scale.executor.spawned_pool`)."""
    return spawned_pool(workers)


def run(
    simulation: Simulation,
    workers: int = 1,
    pool: ProcessPoolExecutor | None = None,
    executor: Executor | None = None,
    on_retry: RetryListener | None = None,
) -> Iterator[Outcome]:
    """The games' outcomes in game order, played by ``executor`` (default: ``workers`` local
    processes, or ``pool``)."""
    plain = simulation.to_json()
    jobs = ({"simulation": plain, "index": index} for index in range(simulation.games))
    own = executor is None
    if executor is None:
        executor = LocalExecutor(workers, pool)
    try:
        for result in executor.ordered(play_task, jobs, on_retry=on_retry):
            yield Outcome(**result)
    finally:
        if own:
            executor.close()


def ranks(record: dict[str, Any]) -> list[tuple[int, ...]]:
    """A sort key per seat: winners first, then the total (lower is better, Rummikub higher)."""
    rules = get_ruleset(record["rules"])
    high_better = game_rules(rules).rummikub_scoring
    winners = set(record["winners"])
    return [
        (0 if seat in winners else 1, -total if high_better else total)
        for seat, total in enumerate(record["totals"])
    ]


def summarize(
    simulation: Simulation, outcomes: Sequence[Outcome], seconds: float, workers: int
) -> dict[str, Any]:
    levels = list(simulation.levels)
    names = simulation.names()
    records = [outcome.record for outcome in outcomes if outcome.record is not None]
    errors = [{"game": o.index, "seed": o.seed, "error": o.error} for o in outcomes if o.error]
    count = len(records)
    players: list[dict[str, Any]] = []
    for seat, (name, level) in enumerate(zip(names, levels, strict=True)):
        sole = sum(1 for r in records if r["winners"] == [seat])
        shared = sum(1 for r in records if seat in r["winners"] and len(r["winners"]) > 1)
        totals = [r["totals"][seat] for r in records]
        players.append(
            {
                "seat": seat,
                "name": name,
                "level": level,
                "wins": sole,
                "draws": shared,
                "mean_total": round(sum(totals) / count, 2) if count else None,
            }
        )
    by_level = []
    pairs = [game_pairs(levels, ranks(record)) for record in records]
    elo = {rating.level: rating for rating in ratings(pairs, levels, seed=simulation.seed)}
    for level in dict.fromkeys(levels):
        seats = [p for p in players if p["level"] == level]
        seat_games = count * len(seats)
        wins = sum(p["wins"] for p in seats)
        rating = elo[level]
        by_level.append(
            {
                "level": level,
                "seat_games": seat_games,
                "wins": wins,
                "draws": sum(p["draws"] for p in seats),
                "win_rate": round(wins / seat_games, 4) if seat_games else None,
                "mean_total": round(sum(p["mean_total"] or 0 for p in seats) / len(seats), 2)
                if count
                else None,
                "elo": round(rating.elo, 1),
                "elo_low": None if rating.low is None else rounded_elo(rating.low),
                "elo_high": None if rating.high is None else rounded_elo(rating.high),
            }
        )
    turns = sum(_turns(record) for record in records)
    rounds = sum(len(record["rounds"]) for record in records)
    game_ms = sum(o.ms for o in outcomes)
    solver_ms = sum(o.solver_ms for o in outcomes)
    calls = sum(o.solver_calls for o in outcomes)
    return {
        "rules": simulation.rules,
        "players": players,
        "levels": by_level,
        "games": count,
        "errors": errors,
        "seed": simulation.seed,
        "workers": workers,
        "seconds": round(seconds, 3),
        "games_per_minute": round(count / seconds * 60, 1) if seconds > 0 else None,
        "rounds_per_game": round(rounds / count, 2) if count else None,
        "turns_per_game": round(turns / count, 2) if count else None,
        "solver_calls_per_turn": round(calls / turns, 3) if turns else 0,
        "solver_ms_per_turn": round(solver_ms / turns, 3) if turns else 0,
        "solver_share": round(solver_ms / game_ms, 4) if game_ms else 0,
    }


def _turns(record: dict[str, Any]) -> int:
    return sum(1 for entry in record["rounds"] for event in entry["actions"] if "played" in event)


def summary_lines(summary: dict[str, Any], out: str) -> list[str]:
    lines = [
        f"Simulated {summary['games']} games of {summary['rules']} "
        f"(seed {summary['seed']}, {summary['workers']}"
        f"{' Ray' if summary.get('executor') == 'ray' else ''} worker"
        f"{'s' if summary['workers'] != 1 else ''}) in {summary['seconds']:.1f} s: "
        f"{summary['games_per_minute']} games/min",
        f"Records: {out}",
        f"{'Player':<8}{'level':<11}{'wins':>6}{'draws':>7}{'mean total':>12}",
    ]
    for p in summary["players"]:
        mean = "-" if p["mean_total"] is None else f"{p['mean_total']:.1f}"
        lines.append(f"{p['name']:<8}{p['level']:<11}{p['wins']:>6}{p['draws']:>7}{mean:>12}")
    lines.append(
        f"{'Level':<11}{'seats':>6}{'wins':>6}{'win rate':>10}{'mean total':>12}"
        f"  Elo (95% interval)"
    )
    for level in summary["levels"]:
        rate = "-" if level["win_rate"] is None else f"{level['win_rate']:.1%}"
        mean = "-" if level["mean_total"] is None else f"{level['mean_total']:.1f}"
        if level["elo_low"] is None:
            elo = "0 (anchor)" if len(summary["levels"]) > 1 else "-"
        else:
            low, high = format_elo(level["elo_low"]), format_elo(level["elo_high"])
            elo = f"{level['elo']:+.0f} [{low}, {high}]"
        lines.append(
            f"{level['level']:<11}{level['seat_games']:>6}{level['wins']:>6}"
            f"{rate:>10}{mean:>12}  {elo}"
        )
    lines.append(
        f"Turns per game: {summary['turns_per_game']} (rounds per game "
        f"{summary['rounds_per_game']})"
    )
    lines.append(
        f"Solver: {summary['solver_calls_per_turn']} calls and "
        f"{summary['solver_ms_per_turn']} ms per turn "
        f"({summary['solver_share']:.0%} of the game time)"
    )
    for error in summary["errors"]:
        lines.append(f"Game {error['game']} (seed {error['seed']}) failed: {error['error']}")
    return lines


def simulate(
    simulation: Simulation,
    workers: int = 1,
    write: Callable[[dict[str, Any]], None] | None = None,
    pool: ProcessPoolExecutor | None = None,
    executor: Executor | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    on_retry: RetryListener | None = None,
) -> dict[str, Any]:
    """Play the games, hand each record to ``write`` in game order, return the summary.
    ``pool`` (from :func:`process_pool`) may be shared by several simulations; ``executor``
    (:mod:`rami.scale`) runs the games elsewhere (Ray)."""
    simulation = simulation.checked()
    started = time.perf_counter()
    outcomes = []
    for outcome in run(simulation, workers, pool, executor, on_retry):
        if outcome.record is not None and write is not None:
            write(outcome.record)
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    summary = summarize(
        simulation,
        outcomes,
        time.perf_counter() - started,
        executor.workers if executor is not None else workers,
    )
    summary["executor"] = executor.kind if executor is not None else "local"
    return summary
