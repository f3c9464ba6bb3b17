"""Stage 2's LP relaxation beside CP-SAT's solve of the same model (issue 21, an exact LP-first
path measured before it is built).

    python benchmarks/stage2_lp.py                                # the default suites
    python benchmarks/stage2_lp.py --suites rummikub-040 --milp-cap 5 --json out.json

Every position is solved whole (the full objective, ``solve(position)``). Each relaxed stage 2
model (``s2r`` in ``stage2_params.py``'s labels: the most table cards kept, the play value
fixed) is written out just before CP-SAT solves it, read back as a linear program and solved
with HiGHS through scipy (scipy comes with the benchmark-only extra ``.[anchor]``). Printed per
model: its size, the Python time to turn the proto into a sparse matrix, HiGHS' LP time, the LP
optimum against CP-SAT's (``floor`` of it is a bound on the cards kept), how many variables are
fractional at HiGHS' vertex (0: the vertex is an optimal integer solution), and CP-SAT's own
time on the model; with ``--milp-cap`` HiGHS' branch and cut on it too. Measurement only: the
engine solves stage 2 with CP-SAT (docs/benchmarks.md, "Sixteenth session").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix
from stage2_params import Recorder, cases, install

from rami.solver.api import solve

SUITES = ("rami-chinois-020", "rami-chinois-040", "rami-chinois-060", "rummikub-040")
#: CP-SAT writes an unbounded side of a linear constraint as the int64 extremes.
UNBOUNDED = 2**62


class LinearProgram:
    """A CP-SAT proto of linear constraints only, as ``lower <= A x <= upper`` within bounds."""

    def __init__(self, proto: cp_model_pb2.CpModelProto) -> None:
        self.columns = len(proto.variables)
        self.low = np.array([var.domain[0] for var in proto.variables], dtype=float)
        self.high = np.array([var.domain[-1] for var in proto.variables], dtype=float)
        rows: list[int] = []
        cols: list[int] = []
        values: list[int] = []
        lower: list[float] = []
        upper: list[float] = []
        for constraint in proto.constraints:
            linear = constraint.linear
            if constraint.WhichOneof("constraint") != "linear" or constraint.enforcement_literal \
                    or len(linear.domain) != 2:
                raise ValueError("not a linear program")
            rows.extend([len(lower)] * len(linear.vars))
            cols.extend(linear.vars)
            values.extend(linear.coeffs)
            low, high = linear.domain
            lower.append(low if low > -UNBOUNDED else -math.inf)
            upper.append(high if high < UNBOUNDED else math.inf)
        self.matrix = csr_matrix((values, (rows, cols)), shape=(len(lower), self.columns),
                                 dtype=float)
        self.lower = np.array(lower)
        self.upper = np.array(upper)
        self.cost = np.zeros(self.columns)
        self.cost[list(proto.objective.vars)] = list(proto.objective.coeffs)
        self.scale = proto.objective.scaling_factor or 1.0
        self.offset = proto.objective.offset

    def solve(self, integral: bool, cap: float | None = None) -> tuple[float | None, np.ndarray]:
        """HiGHS' optimum in the model's own objective (None: no optimum) and its point."""
        options: dict[str, Any] = {} if cap is None else {"time_limit": cap}
        found = milp(
            self.cost, constraints=LinearConstraint(self.matrix, self.lower, self.upper),
            bounds=Bounds(self.low, self.high),
            integrality=np.ones(self.columns) if integral else np.zeros(self.columns),
            options=options,
        )
        if found.x is None or found.status != 0:
            return None, np.zeros(self.columns)
        return self.scale * (found.fun + self.offset), found.x


class Capture(Recorder):
    """Records every stage solve (CP-SAT's own settings) and saves each relaxed stage 2 model
    just before its solve."""

    def __init__(self, folder: str) -> None:
        super().__init__({}, None, set(), None)
        self.folder = folder
        self.paths: list[str] = []

    def before_solve(self, label: str, model: cp_model.CpModel) -> None:
        if label == "s2r":
            path = os.path.join(self.folder, f"m{len(self.paths)}.pb")
            model.export_to_file(path)
            self.paths.append(path)


def measure(path: str, milp_cap: float | None) -> dict[str, Any]:
    proto = cp_model_pb2.CpModelProto.FromString(Path(path).read_bytes())
    started = time.perf_counter()
    try:
        program = LinearProgram(proto)
    except ValueError:
        return {"linear": False}
    exported = time.perf_counter()
    value, point = program.solve(integral=False)
    solved = time.perf_counter()
    row: dict[str, Any] = {
        "linear": True, "columns": program.columns, "rows": len(program.lower),
        "export_ms": (exported - started) * 1000, "lp_ms": (solved - exported) * 1000,
        "lp": value,
        "fractional": int((np.abs(point - np.rint(point)) > 1e-7).sum()),
    }
    if milp_cap is not None:
        value, _ = program.solve(integral=True, cap=milp_cap)
        row["milp_ms"] = (time.perf_counter() - solved) * 1000
        row["milp"] = value
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", nargs="+", default=list(SUITES))
    parser.add_argument("--milp-cap", type=float, default=None,
                        help="also HiGHS' branch and cut, capped at this many seconds")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        capture = Capture(folder)
        install(capture)
        for case in cases(args.suites):
            capture.solves, capture.paths = [], []
            started = time.perf_counter()
            solution = solve(case.position)
            total_ms = (time.perf_counter() - started) * 1000
            relaxed = [found for found in capture.solves if found["label"] == "s2r"]
            for found, path in zip(relaxed, capture.paths, strict=True):
                row = {"suite": case.suite, "index": case.index, "total_ms": total_ms,
                       "cards_moved": solution.cards_moved, "cpsat_cpu_ms": found["cpu_ms"],
                       "cpsat_status": found["status"], "cpsat": found["objective"],
                       **measure(path, args.milp_cap)}
                rows.append(row)
                print(_line(row), flush=True)
    print()
    for suite in args.suites:
        print(_summary(suite, [row for row in rows if row["suite"] == suite and row["linear"]]))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def _line(row: dict[str, Any]) -> str:
    head = f"{row['suite']}[{row['index']}]"
    if not row["linear"]:
        return f"{head}: not a linear program (enforcement literals or other constraints)"
    text = (f"{head}: {row['columns']} columns, {row['rows']} rows; export {row['export_ms']:.1f}"
            f" ms, LP {row['lp_ms']:.1f} ms, LP {row['lp']:.3f} against CP-SAT {row['cpsat']}"
            f" ({row['cpsat_cpu_ms']:.1f} ms CPU), {row['fractional']} fractional")
    if "milp" in row:
        text += f"; HiGHS MIP {row['milp']} in {row['milp_ms']:.1f} ms"
    return text


def _summary(suite: str, rows: list[dict[str, Any]]) -> str:
    if not rows:
        return f"{suite}: no relaxed stage 2 model"
    proved = [row for row in rows if row["cpsat_status"] == cp_model.OPTIMAL]
    tight = sum(1 for row in proved if math.floor(row["lp"] + 1e-6) == round(row["cpsat"]))
    integral = sum(1 for row in proved if row["fractional"] == 0)

    def median(key: str) -> float:
        return statistics.median(row[key] for row in rows)

    text = (f"{suite}: {len(rows)} models; medians export {median('export_ms'):.1f} ms, LP "
            f"{median('lp_ms'):.1f} ms, CP-SAT {median('cpsat_cpu_ms'):.1f} ms CPU, whole "
            f"answer {median('total_ms'):.1f} ms; floor(LP) = CP-SAT's optimum on {tight} of "
            f"{len(proved)}, an integral vertex on {integral}")
    if all("milp_ms" in row for row in rows):
        text += (f"; HiGHS MIP median {median('milp_ms'):.1f} ms, max "
                 f"{max(row['milp_ms'] for row in rows):.1f}")
    return text


if __name__ == "__main__":
    main()
