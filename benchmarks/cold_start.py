"""Cold start of the ``rami`` command, its memory peak, and ``--batch`` throughput.

    python benchmarks/cold_start.py [--runs N] [--position SUITE:INDEX] [--batch-size 50]
                                    [--json OUT] [--merge EXPORT.json]

* Cold: ``.venv/bin/rami solve POSITION --json`` as a fresh process, ``--runs`` times (default
  10), timed from process start to its exit with the answer (wall clock around the whole child),
  median and max; once as plain ``rami solve`` (min_moves, the default) and once with
  ``--no-min-moves``. The answer's own ``"ms"`` (time inside ``solve``) is shown too: the rest
  is interpreter start, the CLI's imports and output (when the engine and OR-Tools are imported
  lazily inside ``solve``, a cold ``"ms"`` includes that import too). The position is a
  mid-size one from the suites (default ``rami-chinois-060:1``: 60 table cards, 2 jokers),
  passed inline as JSON.
* Memory: the peak resident set size of each child (``os.wait4``'s ``ru_maxrss``), max over the
  runs; also ``/usr/bin/time -v``'s "Maximum resident set size" of one run when that tool exists.
* Batch: ``rami solve --batch FILE.jsonl`` over ``--batch-size`` positions (default 50: the first
  5 of each suite of opened positions, 10 suites) in one process; ms per position from the
  ``"ms"`` field of each result line (median, p95, max, mean; the first line is also shown apart,
  as it may pay for importing OR-Tools), and the whole wall time divided by the positions
  (start-up included). Both modes.

Target: ``rami solve`` cold <= 1 s (median). ``--json`` writes these figures; ``--merge`` adds
them as ``"cold_start"`` to an existing ``run_bench.py`` export (so ``compare.py`` shows them).
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

from rami.notation import position_from_json

RAMI = benchlib.ROOT / ".venv" / "bin" / "rami"
BATCH_SUITES = "r*-[0-9][0-9][0-9]"  # the opened-position suites (not "opening")
BATCH_PER_SUITE = 5
TIME_TOOL = "/usr/bin/time"


def run_child(command: list[str]) -> tuple[float, int, str, str, int]:
    """Run ``command``; wall ms from spawn to exit, peak RSS (KiB), stdout, stderr, status."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = (time.perf_counter() - started) * 1000
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (elapsed, usage.ru_maxrss, out.read().decode(), err.read().decode(),
                child.returncode)


def time_v_peak_kib(command: list[str]) -> int | None:
    """Peak RSS reported by ``/usr/bin/time -v`` for one run (None without that tool)."""
    if not Path(TIME_TOOL).exists():
        return None
    done = subprocess.run([TIME_TOOL, "-v", *command], capture_output=True, text=True, check=False)
    for line in done.stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.rsplit(":", 1)[1])
    return None


def pick_position(spec: str) -> tuple[str, dict[str, Any]]:
    suite, _, index = spec.partition(":")
    lines = (benchlib.SUITES_DIR / f"{suite}.jsonl").read_text(encoding="utf-8").splitlines()
    return spec, json.loads(lines[int(index or 0)])


def cold(position: dict[str, Any], runs: int, extra: list[str]) -> dict[str, Any]:
    inline = json.dumps(position, separators=(",", ":"))
    command = [str(RAMI), "solve", inline, "--json", *extra]
    walls, peaks, inner = [], [], []
    status = None
    for _ in range(runs):
        elapsed, peak, out, err, code = run_child(command)
        if code != 0:
            raise SystemExit(f"rami solve failed (exit {code}): {err.strip()}")
        answer = json.loads(out)
        status = answer["status"]
        walls.append(elapsed)
        peaks.append(peak)
        inner.append(answer["ms"])
    return {
        "command": " ".join(["rami", "solve", "POSITION", "--json", *extra]),
        "runs": runs,
        "median_ms": round(benchlib.percentile(walls, 50), 1),
        "max_ms": round(max(walls), 1),
        "min_ms": round(min(walls), 1),
        "answer_ms_median": round(benchlib.percentile(inner, 50), 1),
        "peak_rss_mb": round(max(peaks) / 1024, 1),
        "time_v_peak_rss_mb": (round(kib / 1024, 1)
                               if (kib := time_v_peak_kib(command)) is not None else None),
        "status": status,
        "pass": benchlib.percentile(walls, 50) <= benchlib.COLD_TARGET_MS,
    }


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
        raise SystemExit(f"rami solve --batch failed (exit {code}, {len(errors)} errors, "
                         f"{len(results)}/{len(lines)} lines): {err.strip()[:500]}")
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
    out = [f"cold start: {data['position']} ({data['shape']}), {data['runs']} runs per command; "
           f"target median <= {benchlib.COLD_TARGET_MS:g} ms"]
    for item in data["cold"].values():
        verdict = "pass" if item["pass"] else "FAIL"
        out.append(
            f"  {item['command']:<44} median {item['median_ms']:7.1f} ms  "
            f"max {item['max_ms']:7.1f} ms  (answer ms {item['answer_ms_median']:.1f})  "
            f"peak RSS {item['peak_rss_mb']} MB (time -v {item['time_v_peak_rss_mb']} MB)  "
            f"{item['status']}  {verdict}")
    out.append(f"batch: {data['batch_positions']} positions (first {BATCH_PER_SUITE} of each "
               "opened suite), one process; ms per position from each line's \"ms\"")
    for item in data["batch"].values():
        out.append(
            f"  {item['command']:<44} median {item['median_ms']:7.1f}  "
            f"p95 {item['p95_ms']:7.1f}  max {item['max_ms']:7.1f}  mean {item['mean_ms']:7.1f} ms"
            f" (first line {item['first_ms']:.0f}, max after it {item['max_ms_after_first']})"
            f"; wall {item['wall_s']} s = {item['wall_ms_per_position']} ms/position "
            f"({item['positions_per_s']}/s); proved {item['proved']}/{item['positions']}; "
            f"peak RSS {item['peak_rss_mb']} MB")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Cold start, memory peak and --batch throughput of the rami command.")
    parser.add_argument("--runs", type=int, default=10, metavar="N",
                        help="cold runs per command (default 10)")
    parser.add_argument("--position", default="rami-chinois-060:1", metavar="SUITE:INDEX",
                        help="the position timed cold (default rami-chinois-060:1)")
    parser.add_argument("--batch-size", type=int, default=50, metavar="N",
                        help="positions in the --batch file (default 50)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the figures here")
    parser.add_argument("--merge", type=Path, metavar="EXPORT",
                        help="add the figures as 'cold_start' to this run_bench.py export")
    args = parser.parse_args(argv)
    if not RAMI.exists():
        parser.error(f"{RAMI} not found: run `make setup` first")

    label, position = pick_position(args.position)
    case = benchlib.Case("", 0, position_from_json(position))
    shape = (f"{case.position.rules.option_string}, {case.table_cards} table cards, "
             f"{len(case.position.hand)} in hand, {case.jokers} jokers")
    data: dict[str, Any] = {
        "position": label,
        "shape": shape,
        "runs": args.runs,
        "cold": {
            "default": cold(position, args.runs, []),
            "no-min-moves": cold(position, args.runs, ["--no-min-moves"]),
        },
    }
    lines = batch_positions(args.batch_size)
    data["batch_positions"] = len(lines)
    data["batch"] = {"default": batch(lines, []), "no-min-moves": batch(lines, ["--no-min-moves"])}
    data["target_ms"] = benchlib.COLD_TARGET_MS
    data["pass"] = data["cold"]["default"]["pass"]
    data["machine"] = benchlib.machine_info()
    print(report(data))
    print(f"rami solve cold: {'PASS' if data['pass'] else 'FAIL'}")
    if args.json:
        benchlib.write_json(args.json, data)
        print(f"JSON written to {args.json}")
    if args.merge:
        export = json.loads(args.merge.read_text(encoding="utf-8"))
        export["cold_start"] = data
        benchlib.write_json(args.merge, export)
        print(f"merged into {args.merge} as 'cold_start'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
