"""Shared code of the solver benchmarks: suites, timing, statistics, targets, machine info.

Used by ``test_bench_solver.py`` (pytest-benchmark, ``make bench``), ``run_bench.py``,
``compare.py`` and ``cold_start.py``. Nothing here imports the solver engine at import time, so
the timings measure whatever engine is installed when a solve first runs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
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


def export(
    results: dict[str, dict[str, Any]],
    settings: dict[str, Any],
    machine: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON export: machine, settings, targets, per suite and mode figures, verdicts.

    ``machine`` should be :func:`machine_info` taken right after :func:`warm_up` (when the
    engine was imported: the code measured); the source is looked at again now, and a change
    during the run is flagged.
    """
    machine = dict(machine or machine_info())
    before, now = machine.get("source_files", {}), source_state()["source_files"]
    machine["source_changed_during_run"] = sorted(
        name for name in before.keys() | now.keys() if before.get(name) != now.get(name)
    )
    if hasattr(os, "getloadavg"):
        machine["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    verdicts = {}
    for mode in MODES:
        failing = {
            suite: modes[mode]["target"]["misses"]
            for suite, modes in results.items()
            if mode in modes and modes[mode]["target"]["pass"] is False
        }
        ran = [suite for suite, modes in results.items() if mode in modes and targeted(suite)]
        if ran:
            verdicts[mode] = {"pass": not failing, "suites": len(ran), "failing": failing}
    return {
        "format": "rami-bench/1",
        "machine": machine,
        "settings": settings,
        "targets": {
            **{mode: {**limits, "proved": "all"} for mode, limits in TARGETS.items()},
            "cold_ms": COLD_TARGET_MS,
        },
        "results": {suite: results[suite] for suite in sorted(results)},
        "verdicts": verdicts,
    }


def _no_nan(value: Any) -> Any:
    """NaN (a missing timing) as null, so that the export is strict JSON."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _no_nan(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(item) for item in value]
    return value


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(_no_nan(data), indent=1, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


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


# --------------------------------------------------------------------------- reports


def fmt_ms(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:.1f}"


LEGEND = (
    "n = solves (positions x rounds); ms per position; build/search/finish: median and "
    "p99 of Solution.timings; cpu: process CPU time per solve; cpu/wall well below 1: "
    "other processes took the cores (timings inflated)"
)

TABLE_HEADER = (
    "suite",
    "n",
    "median",
    "p95",
    "p99",
    "max",
    "build med/p99",
    "search med/p99",
    "finish med/p99",
    "cpu med/p99",
    "cpu/wall",
    "proved",
    "target",
)


def _median_p99(stats: dict[str, float] | None) -> str:
    if not stats:
        return "-"
    return f"{fmt_ms(stats.get('median'))} / {fmt_ms(stats.get('p99'))}"


def table_rows(results: dict[str, dict[str, Any]], mode: str) -> list[tuple[str, ...]]:
    """One row per suite of ``results[suite][mode]`` (ms), for :func:`format_table`."""
    rows = []
    for suite in sorted(results):
        summary = results[suite].get(mode)
        if not summary or not summary.get("n"):
            continue
        total = summary["total_ms"]
        ok, _ = verdict(mode, summary)
        ratio = summary.get("cpu_per_wall")
        rows.append(
            (
                suite,
                f"{summary['n']} ({summary['positions']}x{summary['rounds']})",
                *(fmt_ms(total[stat]) for stat in STATS),
                *(_median_p99(summary.get(f"{key}_ms")) for key in (*PHASES[1:], "cpu")),
                "-" if ratio is None else f"{ratio:.2f}",
                f"{summary['proved']}/{summary['n']}",
                ("pass" if ok else "FAIL") if targeted(suite) else "(none)",
            )
        )
    return rows


def format_table(
    rows: Iterable[Sequence[str]], header: Sequence[str] = TABLE_HEADER, markdown: bool = False
) -> str:
    rows = [tuple(header), *[tuple(row) for row in rows]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        return ("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells)

    out = [line(rows[0])]
    if markdown:
        out.append(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)
            )
            + "|"
        )
    else:
        out.append("  ".join("-" * w for w in widths))
    out.extend(line(row) for row in rows[1:])
    return "\n".join(out)


def mode_report(results: dict[str, dict[str, Any]], mode: str, markdown: bool = False) -> str:
    """The table of one mode and its pass/fail line."""
    rows = table_rows(results, mode)
    if not rows:
        return ""
    failing = []
    for suite in sorted(results):
        summary = results[suite].get(mode)
        if summary and summary.get("n") and targeted(suite):
            ok, misses = verdict(mode, summary)
            if not ok:
                failing.append(f"{suite} ({'; '.join(misses)})")
    title = f"{mode} (min_moves={MODES[mode]}), ms per position; target: {targets_text(mode)}"
    judged = sum(1 for row in rows if targeted(row[0]))
    status = (
        "PASS on every suite under target"
        if not failing
        else f"FAIL on {len(failing)}/{judged} suites: " + ", ".join(failing)
    )
    return f"{title}\n{format_table(rows, markdown=markdown)}\n{mode}: {status}"


# --------------------------------------------------------------------------- machine


def measured_root() -> Path:
    """The work tree of the ``rami`` package Python imports: usually this repository, but an
    A/B run may import another checkout (``PYTHONPATH=/tmp/prev``), and that is what it measures."""
    import rami

    return Path(rami.__file__).resolve().parent.parent


def git_commit(short: bool = False) -> str | None:
    """The measured checkout's commit (read-only ``git rev-parse``), None outside a work tree."""
    command = ["git", "rev-parse", *(["--short"] if short else []), "HEAD"]
    try:
        done = subprocess.run(
            command, cwd=measured_root(), capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def engine_digest() -> str | None:
    """SHA-256 (first 12 hex digits) of the installed solver's source (every module of
    ``rami/solver``): it changes between commits, so the commit alone does not say what was
    measured."""
    try:
        import rami.solver

        digest = hashlib.sha256()
        for path in sorted(Path(rami.solver.__file__).parent.rglob("*.py")):
            digest.update(path.read_bytes())
        return digest.hexdigest()[:12]
    except (ImportError, OSError, TypeError):
        return None


def source_files() -> dict[str, str]:
    """Git blob hash (first 12 hex digits) of every ``rami/**/*.py``: what code was measured."""
    blobs = {}
    root = measured_root()
    for path in sorted((root / "rami").rglob("*.py")):
        data = path.read_bytes()
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        blobs[path.relative_to(root).as_posix()] = blob
    return blobs


def source_state() -> dict[str, Any]:
    """What code was measured: a digest of the ``rami`` package source, which of its files differ
    from the commit (blob hashes compared with read-only ``git ls-tree``: the engine is often
    measured with uncommitted changes), and each file's blob hash (``compare.py`` lists the files
    that differ between two exports)."""
    blobs = source_files()
    digest = hashlib.sha256("".join(f"{k} {v}\n" for k, v in blobs.items()).encode())
    modified: list[str] | None = None
    try:
        done = subprocess.run(
            ["git", "ls-tree", "-r", "HEAD", "--", "rami"],
            cwd=measured_root(),
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is not None and done.returncode == 0:
        committed = {}
        for line in done.stdout.splitlines():
            meta, _, name = line.partition("\t")
            if name.endswith(".py"):
                committed[name] = meta.split()[2]
        modified = sorted(
            name
            for name in blobs.keys() | committed.keys()
            if blobs.get(name) != committed.get(name)
        )
    return {
        "source_sha256": digest.hexdigest()[:12],
        "modified_vs_commit": modified,
        "source_files": {name: blob[:12] for name, blob in blobs.items()},
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, Any]:
    try:
        from importlib.metadata import version

        ortools = version("ortools")
    except Exception:
        ortools = None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "ortools": ortools,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpu_usable": usable,
        # Other processes compete for the cores: a load near or above cpu_count inflates timings.
        "loadavg": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "git_commit": git_commit(),
        "engine_sha256": engine_digest(),
        **source_state(),
    }


def machine_line(info: dict[str, Any]) -> str:
    """One line saying what was measured where."""
    modified = info.get("modified_vs_commit")
    during = info.get("source_changed_during_run")
    changed = f" (changed during the run: {', '.join(during)})" if during else ""
    changes = (
        ""
        if modified is None
        else " (clean)"
        if not modified
        else f" + {len(modified)} modified rami files"
    )
    return (
        f"commit {str(info.get('git_commit'))[:10]}{changes}, "
        f"engine {info.get('engine_sha256')}, source {info.get('source_sha256')}{changed} | "
        f"python {info.get('python')} | ortools "
        f"{info.get('ortools')} | {info.get('cpu_count')} cpus ({info.get('cpu')}) | load "
        f"{info.get('loadavg')}" + (f" -> {info['loadavg_end']}" if info.get("loadavg_end") else "")
    )


def sample_dicts(samples: Iterable[Sample]) -> list[dict[str, Any]]:
    return [asdict(sample) for sample in samples]
