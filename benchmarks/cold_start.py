"""Cold start of the ``rami`` command, its memory peak, and ``--batch`` throughput.

    python benchmarks/cold_start.py [--runs N] [--position SUITE:INDEX] [--against CHECKOUT]
                                    [--batch-size 50] [--json OUT] [--merge EXPORT.json]

* Cold: each command as a fresh process, ``--runs`` times (default 10), timed from spawn to
  exit (wall clock around the whole child), median, min and max: ``rami --help``; ``rami solve
  examples/demo.txt --json`` (the demo: 13 table cards, a split and a lay-off, both stages of
  the full objective); ``rami solve POSITION --json`` with and without ``--no-min-moves``, where
  POSITION is a mid-size one from the suites (default ``rami-chinois-060:1``: 60 table cards, 2
  jokers), passed inline as JSON. A solve's own ``"ms"`` (time inside ``solve``) is shown too.
  The bytecode of the checkouts timed is compiled first (see :func:`compile_bytecode`).
* ``--against CHECKOUT``: the same commands run from another checkout of rami (``git worktree
  add /tmp/base REV``; its package comes first on ``PYTHONPATH``, the same virtualenv serves
  both), interleaved run by run with this one, and the ratio of the medians.
* Memory: the peak resident set size of each child (``os.wait4``'s ``ru_maxrss``), max over the
  runs.
* Batch: ``rami solve --batch FILE.jsonl`` over ``--batch-size`` positions (default 50: the first
  5 of each suite of opened positions, 10 suites) in one process; ms per position from the
  ``"ms"`` field of each result line (median, p95, max, mean; the first line is also shown apart,
  as it may pay for importing OR-Tools), and the whole wall time divided by the positions
  (start-up included). Both modes.

Targets (medians): ``rami --help`` <= 150 ms, the demo's solve <= 250 ms, the mid-size
position's <= 1 s. ``--json`` writes these figures; ``--merge`` adds them as ``"cold_start"`` to
an existing ``run_bench.py`` export (so ``compare.py`` shows them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import benchlib
import benchmachine
import benchreport

from rami.notation import position_from_json

RAMI = benchlib.ROOT / ".venv" / "bin" / "rami"
BATCH_SUITES = "r*-[0-9][0-9][0-9]"  # the opened-position suites (not "opening")
BATCH_PER_SUITE = 5


def run_child(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[float, int, str, str, int]:
    """Run ``command``; wall ms from spawn to exit, peak RSS (KiB), stdout, stderr, status."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = (time.perf_counter() - started) * 1000
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (
            elapsed,
            usage.ru_maxrss,
            out.read().decode(),
            err.read().decode(),
            child.returncode,
        )


def pick_position(spec: str) -> tuple[str, dict[str, Any]]:
    suite, _, index = spec.partition(":")
    lines = (benchlib.SUITES_DIR / f"{suite}.jsonl").read_text(encoding="utf-8").splitlines()
    return spec, json.loads(lines[int(index or 0)])


#: The targets of a small position's cold solve and of ``rami --help`` (ms, median;
#: docs/benchmarks.md, "Targets").
SMALL_TARGET_MS = 250.0
HELP_TARGET_MS = 150.0
DEMO = benchlib.ROOT / "examples" / "demo.txt"


def compile_bytecode(checkout: Path) -> None:
    """Write the checkout's bytecode, as installing a wheel does: with PYTHONDONTWRITEBYTECODE
    set (as on these machines) an editable checkout would otherwise compile every module from
    source on every start, which no installed copy does."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(checkout / "rami")],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )


def commands(position: dict[str, Any]) -> dict[str, tuple[list[str], float]]:
    """The commands timed cold, each with its target median (ms)."""
    inline = json.dumps(position, separators=(",", ":"))
    return {
        "help": (["--help"], HELP_TARGET_MS),
        "demo": (["solve", str(DEMO), "--json"], SMALL_TARGET_MS),
        "default": (["solve", inline, "--json"], benchlib.COLD_TARGET_MS),
        "no-min-moves": (["solve", inline, "--json", "--no-min-moves"], benchlib.COLD_TARGET_MS),
    }


def child_env(checkout: Path | None) -> dict[str, str] | None:
    """The environment that runs ``checkout``'s rami package (None: this one's)."""
    if checkout is None:
        return None
    return {**os.environ, "PYTHONPATH": str(checkout)}


def cold(
    runs: int, words: list[str], target: float, checkouts: list[Path | None]
) -> dict[str, dict[str, Any]]:
    """``rami WORDS`` ``runs`` times per checkout, the checkouts interleaved run by run."""
    walls: dict[int, list[float]] = {index: [] for index in range(len(checkouts))}
    peaks: dict[int, list[int]] = {index: [] for index in range(len(checkouts))}
    inner: dict[int, list[float]] = {index: [] for index in range(len(checkouts))}
    status: dict[int, str | None] = {}
    command = [str(RAMI), *words]
    for _ in range(runs):
        for index, checkout in enumerate(checkouts):
            elapsed, peak, out, err, code = run_child(command, child_env(checkout))
            if code != 0:
                raise SystemExit(f"rami {words[0]} failed (exit {code}): {err.strip()}")
            walls[index].append(elapsed)
            peaks[index].append(peak)
            if words[0] == "solve":
                answer = json.loads(out)
                status[index] = answer["status"]
                inner[index].append(answer["ms"])
    shown = ["POSITION" if len(word) > 60 else word for word in words]
    results = {}
    for index, checkout in enumerate(checkouts):
        median = benchlib.percentile(walls[index], 50)
        results["this" if checkout is None else str(checkout)] = {
            "command": " ".join(["rami", *shown]),
            "runs": runs,
            "median_ms": round(median, 1),
            "max_ms": round(max(walls[index]), 1),
            "min_ms": round(min(walls[index]), 1),
            "answer_ms_median": (
                round(benchlib.percentile(inner[index], 50), 1) if inner[index] else None
            ),
            "peak_rss_mb": round(max(peaks[index]) / 1024, 1),
            "status": status.get(index),
            "target_ms": target,
            "pass": median <= target,
        }
    return results


def batch_positions(count: int) -> list[str]:
    lines: list[str] = []
    # The suites under target only, so that batches stay comparable from run to run.
    paths = [path for path in benchlib.suite_paths(BATCH_SUITES) if benchlib.targeted(path.stem)]
    per_suite = max(1, -(-count // len(paths)))
    for path in paths:
        lines.extend(path.read_text(encoding="utf-8").splitlines()[:per_suite])
    return lines[:count]


def batch(lines: list[str], extra: list[str]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
        path = handle.name
    try:
        elapsed, peak, out, err, code = run_child([str(RAMI), "solve", "--batch", path, *extra])
    finally:
        os.unlink(path)
    results = [json.loads(line) for line in out.splitlines() if line.strip()]
    errors = [r for r in results if "error" in r]
    if code != 0 or errors or len(results) != len(lines):
        raise SystemExit(
            f"rami solve --batch failed (exit {code}, {len(errors)} errors, "
            f"{len(results)}/{len(lines)} lines): {err.strip()[:500]}"
        )
    ms = [r["ms"] for r in results]
    return {
        "command": " ".join(["rami", "solve", "--batch", "FILE.jsonl", *extra]),
        "positions": len(lines),
        "median_ms": round(benchlib.percentile(ms, 50), 2),
        "p95_ms": round(benchlib.percentile(ms, 95), 2),
        "max_ms": round(max(ms), 2),
        "mean_ms": round(sum(ms) / len(ms), 2),
        # The first line also pays for importing the engine and OR-Tools.
        "first_ms": round(ms[0], 2),
        "median_ms_after_first": round(benchlib.percentile(ms[1:], 50), 2) if ms[1:] else None,
        "max_ms_after_first": round(max(ms[1:]), 2) if ms[1:] else None,
        "wall_s": round(elapsed / 1000, 2),
        "wall_ms_per_position": round(elapsed / len(lines), 1),
        "positions_per_s": round(len(lines) / (elapsed / 1000), 1),
        "proved": sum(r["status"] == "optimal" for r in results),
        "peak_rss_mb": round(peak / 1024, 1),
    }


def report(data: dict[str, Any]) -> str:
    out = [
        f"cold start: {data['runs']} runs per command and checkout, interleaved; POSITION is "
        f"{data['position']} ({data['shape']}); bytecode compiled first"
    ]
    for name, per_checkout in data["cold"].items():
        for checkout, item in per_checkout.items():
            verdict = "pass" if item["pass"] else "FAIL"
            answer = (
                ""
                if item["answer_ms_median"] is None
                else f"  (answer ms {item['answer_ms_median']:.1f}, {item['status']})"
            )
            out.append(
                f"  {name:<13} {checkout:<16} median {item['median_ms']:7.1f} ms  "
                f"min {item['min_ms']:7.1f}  max {item['max_ms']:7.1f}  "
                f"peak RSS {item['peak_rss_mb']} MB{answer}  target {item['target_ms']:g}: "
                f"{verdict}"
            )
        names = list(per_checkout)
        if len(names) == 2:
            first, second = (per_checkout[key]["median_ms"] for key in names)
            out.append(f"  {name:<13} {names[0]} / {names[1]} medians: {first / second:.2f}x")
    if "batch" in data:
        out.append(
            f"batch: {data['batch_positions']} positions (first {BATCH_PER_SUITE} of "
            'each opened suite), one process; ms per position from each line\'s "ms"'
        )
        for item in data["batch"].values():
            out.append(
                f"  {item['command']:<44} median {item['median_ms']:7.1f}  "
                f"p95 {item['p95_ms']:7.1f}  max {item['max_ms']:7.1f}  "
                f"mean {item['mean_ms']:7.1f} ms (first line {item['first_ms']:.0f}, max after "
                f"it {item['max_ms_after_first']}); wall {item['wall_s']} s = "
                f"{item['wall_ms_per_position']} ms/position ({item['positions_per_s']}/s); "
                f"proved {item['proved']}/{item['positions']}; peak RSS {item['peak_rss_mb']} MB"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Cold start, memory peak and --batch throughput of the rami command."
    )
    parser.add_argument(
        "--runs", type=int, default=10, metavar="N", help="cold runs per command (default 10)"
    )
    parser.add_argument(
        "--position",
        default="rami-chinois-060:1",
        metavar="SUITE:INDEX",
        help="the position timed cold (default rami-chinois-060:1)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="CHECKOUT",
        help="also time another checkout of rami (a git worktree), interleaved",
    )
    parser.add_argument(
        "--batch-size",
        type=int,
        default=50,
        metavar="N",
        help="positions in the --batch file (default 50; 0: no batch)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the figures here")
    parser.add_argument(
        "--merge",
        type=Path,
        metavar="EXPORT",
        help="add the figures as 'cold_start' to this run_bench.py export",
    )
    args = parser.parse_args(argv)
    if not RAMI.exists():
        parser.error(f"{RAMI} not found: run `make setup` first")

    checkouts: list[Path | None] = [None]
    compile_bytecode(benchlib.ROOT)
    if args.against is not None:
        compile_bytecode(args.against)
        checkouts.append(args.against.resolve())
    label, position = pick_position(args.position)
    case = benchlib.Case("", 0, position_from_json(position))
    shape = (
        f"{case.position.rules.option_string}, {case.table_cards} table cards, "
        f"{len(case.position.hand)} in hand, {case.jokers} jokers"
    )
    data: dict[str, Any] = {
        "position": label,
        "shape": shape,
        "runs": args.runs,
        "cold": {
            name: cold(args.runs, words, target, checkouts)
            for name, (words, target) in commands(position).items()
        },
    }
    if args.batch_size > 0:
        lines = batch_positions(args.batch_size)
        data["batch_positions"] = len(lines)
        data["batch"] = {
            "default": batch(lines, []),
            "no-min-moves": batch(lines, ["--no-min-moves"]),
        }
    data["pass"] = all(item["this"]["pass"] for item in data["cold"].values())
    data["machine"] = benchmachine.machine_info()
    print(report(data))
    print(f"rami cold start: {'PASS' if data['pass'] else 'FAIL'}")
    if args.json:
        benchreport.write_json(args.json, data)
        print(f"JSON written to {args.json}")
    if args.merge:
        export = json.loads(args.merge.read_text(encoding="utf-8"))
        export["cold_start"] = data
        benchreport.write_json(args.merge, export)
        print(f"merged into {args.merge} as 'cold_start'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
