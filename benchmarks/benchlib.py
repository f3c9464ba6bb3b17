"""Shared code of the solver benchmarks: suites, timing, statistics, targets and verdicts.

Used by ``test_bench_solver.py`` (pytest-benchmark, ``make bench``), ``run_bench.py``,
``compare.py`` and ``cold_start.py``. Nothing here imports the solver engine at import time, so
the timings measure whatever engine is installed when a solve first runs.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rami.notation import position_from_json
from rami.position import Position

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUITES_DIR = HERE / "suites"

#: Mode name -> ``min_moves`` passed to ``solve`` (the objective is "points" in both).
MODES: dict[str, bool] = {"maxplay": False, "full": True}
PHASES = ("total", "build", "search", "finish")
STATS = ("median", "p95", "p99", "max")

#: Targets per mode, in ms per position in one warm process; every answer must be proved.
TARGETS: dict[str, dict[str, float]] = {
    "maxplay": {"median": 5.0, "p99": 20.0},
    "full": {"median": 100.0, "p99": 1000.0},
}
#: Issue 4's targets cover rami chinois and rummikub (and the opening suite of both); the
#: suites of other presets are measured and reported without a verdict.
UNTARGETED_PREFIXES = ("rami-fou",)


def targeted(suite: str) -> bool:
    return not suite.startswith(UNTARGETED_PREFIXES)


#: ``rami solve POSITION --json`` as a fresh process, from start to answer.
COLD_TARGET_MS = 1000.0

DEFAULT_TIME_LIMIT = 10.0

#: Filled by the pytest benchmarks, read by ``conftest.py`` at the end of the session:
#: ``RESULTS[suite][mode]`` is :func:`suite_result`; ``SESSION`` holds the warm-up time.
RESULTS: dict[str, dict[str, Any]] = {}
SESSION: dict[str, Any] = {}


# --------------------------------------------------------------------------- suites


@dataclass(frozen=True)
class Case:
    """One position of a suite, with what describes it in a report."""

    suite: str
    index: int
    position: Position

    @property
    def table_cards(self) -> int:
        return sum(len(meld.cards) for meld in self.position.table)

    @property
    def jokers(self) -> int:
        table = sum(card.is_joker for meld in self.position.table for card in meld.cards)
        return table + sum(card.is_joker for card in self.position.hand)

    @property
    def label(self) -> str:
        return f"{self.suite}[{self.index}]"


def suite_paths(pattern: str = "*") -> list[Path]:
    """Suite files whose name (without ``.jsonl``) matches the glob ``pattern``, sorted."""
    paths = sorted(SUITES_DIR.glob(f"{pattern}.jsonl"))
    if not paths:
        paths = sorted(SUITES_DIR.glob(pattern))
    return [path for path in paths if path.suffix == ".jsonl"]


def load_suite(path: Path) -> list[Case]:
    cases = []
    with path.open(encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            if line.strip():
                cases.append(Case(path.stem, index, position_from_json(json.loads(line))))
    return cases


# --------------------------------------------------------------------------- timing


@dataclass
class Sample:
    """One solve of one position."""

    suite: str
    index: int
    mode: str
    round: int
    total_ms: float
    build_ms: float
    search_ms: float
    finish_ms: float
    status: str  # "optimal", "feasible" or "error"
    cards_moved: int | None = None
    #: CPU time of the process during the solve: well below total_ms means other processes
    #: took the cores (a loaded machine), not that the solver got slower.
    cpu_ms: float = math.nan
    error: str = ""


def solve_case(
    case: Case, mode: str, round_: int = 0, time_limit: float = DEFAULT_TIME_LIMIT
) -> Sample:
    """Solve one position, timed from the call to the answer (the referee check included)."""
    from rami.solver.api import solve

    cpu_started = time.process_time()
    started = time.perf_counter()
    try:
        solution = solve(case.position, min_moves=MODES[mode], time_limit=time_limit)
    except Exception as error:  # a bug in the engine: record it, keep measuring the rest
        elapsed = (time.perf_counter() - started) * 1000
        return Sample(
            case.suite,
            case.index,
            mode,
            round_,
            elapsed,
            0.0,
            0.0,
            0.0,
            "error",
            error=f"{type(error).__name__}: {error}",
        )
    elapsed = (time.perf_counter() - started) * 1000
    cpu = (time.process_time() - cpu_started) * 1000
    timings = solution.timings or {}
    return Sample(
        case.suite,
        case.index,
        mode,
        round_,
        elapsed,
        float(timings.get("build_ms", math.nan)),
        float(timings.get("search_ms", math.nan)),
        float(timings.get("finish_ms", math.nan)),
        solution.status.value,
        cards_moved=solution.cards_moved,
        cpu_ms=cpu,
    )


def run_round(
    cases: Sequence[Case], mode: str, round_: int = 0, time_limit: float = DEFAULT_TIME_LIMIT
) -> list[Sample]:
    """Solve every position once, in order."""
    return [solve_case(case, mode, round_, time_limit) for case in cases]


def warm_up() -> float:
    """Import OR-Tools and the engine and solve a few small positions in every mode (ms taken).

    After this the process is "warm": what is measured next is per-position work only.
    """
    from rami.generate import small_position
    from rami.rules import get_ruleset
    from rami.solver.api import solve

    started = time.perf_counter()
    rng = random.Random("rami-bench-warm-up")
    for rules in ("rami-chinois", "rummikub"):
        for opened in (True, False):
            position = small_position(rng, get_ruleset(rules), opened=opened)
            for min_moves in MODES.values():
                solve(position, min_moves=min_moves)
    return (time.perf_counter() - started) * 1000


# --------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile with linear interpolation between order statistics (numpy's
    default): the median of an even count is the mean of the middle two; p99 of 18 values
    lies between the two largest."""
    data = sorted(v for v in values if not math.isnan(v))
    if not data:
        return math.nan
    rank = (len(data) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (rank - low)


def describe(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": round(percentile(values, 50), 3),
        "p95": round(percentile(values, 95), 3),
        "p99": round(percentile(values, 99), 3),
        "max": round(max(values), 3) if values else math.nan,
    }


def summarize(samples: Sequence[Sample]) -> dict[str, Any]:
    """n, percentiles of total/build/search/finish ms, proved answers, errors, the slowest."""
    if not samples:
        return {"n": 0}
    solved = [s for s in samples if s.status != "error"]
    out: dict[str, Any] = {
        "n": len(samples),
        "positions": len({(s.suite, s.index) for s in samples}),
        "rounds": len({s.round for s in samples}),
    }
    for phase in PHASES:
        pool = samples if phase == "total" else solved
        out[f"{phase}_ms"] = describe([getattr(s, f"{phase}_ms") for s in pool])
    wall = sum(s.total_ms for s in solved)
    cpu = sum(s.cpu_ms for s in solved if not math.isnan(s.cpu_ms))
    out["cpu_per_wall"] = round(cpu / wall, 3) if wall > 0 else math.nan
    out["cpu_ms"] = describe([s.cpu_ms for s in solved]) if solved else {}
    out["proved"] = sum(s.status == "optimal" for s in samples)
    out["feasible"] = sum(s.status == "feasible" for s in samples)
    out["errors"] = sum(s.status == "error" for s in samples)
    slowest = max(samples, key=lambda s: s.total_ms)
    out["slowest"] = {
        "position": f"{slowest.suite}[{slowest.index}]",
        "ms": round(slowest.total_ms, 3),
    }
    unproved = sorted({f"{s.suite}[{s.index}]" for s in samples if s.status != "optimal"})
    if unproved:
        out["unproved"] = unproved
    errors = sorted({f"{s.suite}[{s.index}]: {s.error}" for s in samples if s.error})
    if errors:
        out["error_messages"] = errors[:10]
    return out


def per_position(cases: Sequence[Case], samples: Sequence[Sample]) -> list[dict[str, Any]]:
    """Per position: its shape, median and max total ms over the rounds, statuses seen."""
    by_index: dict[int, list[Sample]] = {}
    for sample in samples:
        by_index.setdefault(sample.index, []).append(sample)
    out = []
    for case in cases:
        mine = by_index.get(case.index, [])
        if not mine:
            continue
        totals = [s.total_ms for s in mine]
        statuses = sorted({s.status for s in mine})
        out.append(
            {
                "index": case.index,
                "table_cards": case.table_cards,
                "hand_cards": len(case.position.hand),
                "jokers": case.jokers,
                "opened": case.position.opened,
                "rules": case.position.rules.option_string,
                "median_ms": round(percentile(totals, 50), 3),
                "max_ms": round(max(totals), 3),
                "build_ms": round(percentile([s.build_ms for s in mine], 50), 3),
                "search_ms": round(percentile([s.search_ms for s in mine], 50), 3),
                "finish_ms": round(percentile([s.finish_ms for s in mine], 50), 3),
                "status": statuses[0] if len(statuses) == 1 else statuses,
                "cards_moved": mine[0].cards_moved,
            }
        )
    return out


def by_jokers(cases: Sequence[Case], samples: Sequence[Sample]) -> dict[str, dict[str, Any]]:
    """Total ms percentiles of the samples grouped by the jokers in play."""
    jokers = {case.index: case.jokers for case in cases}
    groups: dict[int, list[float]] = {}
    for sample in samples:
        groups.setdefault(jokers[sample.index], []).append(sample.total_ms)
    return {
        str(count): {"n": len(values), **describe(values)}
        for count, values in sorted(groups.items())
    }


def suite_result(mode: str, cases: Sequence[Case], samples: Sequence[Sample]) -> dict[str, Any]:
    """Everything the JSON export keeps about one suite in one mode."""
    summary = summarize(samples)
    ok, misses = verdict(mode, summary)
    if cases and not targeted(cases[0].suite):
        summary["target"] = {"pass": None, "misses": misses, "reported_only": True}
    else:
        summary["target"] = {"pass": ok, "misses": misses}
    summary["by_jokers"] = by_jokers(cases, samples)
    summary["per_position"] = per_position(cases, samples)
    return summary


def verdict(mode: str, summary: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether a suite's figures meet the mode's targets, and what misses them."""
    misses = []
    total = summary["total_ms"]
    for stat, limit in TARGETS[mode].items():
        if not total[stat] <= limit:
            misses.append(f"{stat} {total[stat]:.1f} > {limit:g} ms")
    if summary["proved"] != summary["n"]:
        misses.append(f"proved {summary['proved']}/{summary['n']}")
    return not misses, misses


def targets_text(mode: str) -> str:
    limits = ", ".join(f"{stat} <= {limit:g} ms" for stat, limit in TARGETS[mode].items())
    return f"{limits}, every answer proved optimal"


def sample_dicts(samples: Iterable[Sample]) -> list[dict[str, Any]]:
    return [asdict(sample) for sample in samples]
