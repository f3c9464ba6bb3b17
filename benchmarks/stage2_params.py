"""Stage 2's CP-SAT parameters: each candidate setting against the shipped profile.

    python benchmarks/stage2_params.py sweep base lb_search fixed_keep ...   # deterministic time
    python benchmarks/stage2_params.py cpu base CAND [CAND ...]             # interleaved CPU time
    python benchmarks/stage2_params.py report --out results.jsonl           # the tables again
    python benchmarks/stage2_params.py cpu-report --out results.jsonl       # the CPU tables

Every position of the suites is solved whole (``solve(position)``, the full objective); the
stage solvers of ``stages.search`` and ``pinned._solve_cutting`` are wrapped so that each CP-SAT
solve is labelled by the caller's frame and recorded (deterministic time, status, objective):

* ``s1``: stage 1 in ``search``; ``u``: the "nothing moves" question asked on the relaxed stage
  2 model; ``s2r`` / ``s2x``: the relaxed / exact stage 2 solve;
* rami fou (``pinned.py``): ``p1`` (a pinned model's play value), ``p2`` (its cards kept),
  ``pk`` (``_kept_on_slots``); rami fou also runs ``search`` (free jokers) first, whose solves
  carry the labels above.

A candidate's parameters (and decision strategy on the keep variables) are set on the solves
whose labels are in ``--apply`` (``u,s2r,s2x`` by default); the others keep the shipped profile.
A candidate's solves are capped at ``--cap`` deterministic seconds (an answer cut by it shows as
unproved). The answers (cards played, penalty, cards moved, proved) must match the base's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import Case, load_suite, percentile, suite_paths
from ortools.sat.python import cp_model

import rami.solver.rearrange.pinned as pinned
import rami.solver.rearrange.stages as stages
from rami.solver.api import solve
from rami.solver.cpsat import stage_solver

SUITES = ("rami-chinois-020", "rami-chinois-040", "rami-chinois-060", "rummikub-040",
          "rummikub-060", "rami-fou-020", "rami-fou-060")
STAGE2 = ("u", "s2r", "s2x")

P = cp_model
#: name -> (parameters set on top of the stage profile, decision strategy or None).
CANDIDATES: dict[str, tuple[dict[str, Any], tuple[int, int] | None]] = {
    "base": ({}, None),
    "lb_search": ({"use_objective_lb_search": True}, None),
    "shaving": ({"use_objective_shaving_search": True}, None),
    "lb_tree": ({"optimize_with_lb_tree_search": True}, None),
    "fixed": ({"search_branching": P.FIXED_SEARCH}, None),
    "fixed_keep_first_max": ({"search_branching": P.FIXED_SEARCH},
                             (P.CHOOSE_FIRST, P.SELECT_MAX_VALUE)),
    "portfolio": ({"search_branching": P.PORTFOLIO_SEARCH}, None),
    "portfolio_keep": ({"search_branching": P.PORTFOLIO_SEARCH},
                       (P.CHOOSE_FIRST, P.SELECT_MAX_VALUE)),
    "pseudo_cost": ({"search_branching": P.PSEUDO_COST_SEARCH}, None),
    "pseudo_cost_keep": ({"search_branching": P.PSEUDO_COST_SEARCH},
                         (P.CHOOSE_FIRST, P.SELECT_MAX_VALUE)),
    "partial_fixed_keep": ({"search_branching": P.PARTIAL_FIXED_SEARCH},
                           (P.CHOOSE_FIRST, P.SELECT_MAX_VALUE)),
    "auto_keep": ({}, (P.CHOOSE_FIRST, P.SELECT_MAX_VALUE)),
    "lp_search": ({"search_branching": P.LP_SEARCH}, None),
    "lp_search_nocut": ({"search_branching": P.LP_SEARCH, "max_cut_rounds_at_level_zero": 0},
                        None),
    "lin0": ({"linearization_level": 0}, None),
    "lp_eager": ({"add_lp_constraints_lazily": False}, None),
    "no_root_cuts": ({"max_cut_rounds_at_level_zero": 0}, None),
    "cut_level0": ({"cut_level": 0}, None),
    "root_lp_200": ({"root_lp_iterations": 200}, None),
    "root_lp_20000": ({"root_lp_iterations": 20000}, None),
    "exploit_best": ({"exploit_best_solution": True}, None),
    "no_exploit_obj": ({"exploit_objective": False}, None),
    "polish_lp": ({"polish_lp_solution": True}, None),
    "bool_enc0": ({"boolean_encoding_level": 0}, None),
    "bool_enc2": ({"boolean_encoding_level": 2}, None),
    "binsearch_100": ({"binary_search_num_conflicts": 100}, None),
    "repair_hint": ({"repair_hint": True}, None),
    "hint_conf_100": ({"hint_conflict_limit": 100}, None),
    "hint_conf_1e5": ({"hint_conflict_limit": 100000}, None),
    "no_inprocessing": ({"use_sat_inprocessing": False}, None),
    "no_phase_saving": ({"use_phase_saving": False}, None),
    "max_hs": ({"optimize_with_max_hs": True}, None),
    "no_rlt_cuts": ({"add_rlt_cuts": False}, None),
    "no_lin_max_cuts": ({"add_lin_max_cuts": False}, None),
    "no_exploit_all_lp": ({"exploit_all_lp_solution": False}, None),
    "no_exact_lp_reason": ({"use_exact_lp_reason": False}, None),
    "probing_search": ({"use_probing_search": True}, None),
    "cuts_root_only": ({"only_add_cuts_at_level_zero": True}, None),
    "objective_cut": ({"add_objective_cut": True}, None),
    "no_hints": ({"use_optimization_hints": False}, None),
    "exploit_relaxation": ({"exploit_relaxation_solution": True}, None),
    "chrono_backtrack": ({"use_chronological_backtracking": True}, None),
    "new_conflict_res": ({"use_new_integer_conflict_resolution": True}, None),
    "erwa": ({"use_erwa_heuristic": True}, None),
    "lb_search_lp_search": ({"use_objective_lb_search": True,
                             "search_branching": P.LP_SEARCH}, None),
    "lb_search_exploit_best": ({"use_objective_lb_search": True,
                                "exploit_best_solution": True}, None),
    "lb_search_no_inprocessing": ({"use_objective_lb_search": True,
                                   "use_sat_inprocessing": False}, None),
}


class Recorder:
    def __init__(self, params: dict[str, Any], strategy: tuple[int, int] | None,
                 apply: set[str], cap: float | None) -> None:
        self.params, self.strategy, self.apply, self.cap = params, strategy, apply, cap
        self.solves: list[dict[str, Any]] = []

    def wrap(self, deterministic_limit: float, wall_limit: float | None = None):
        solver = stage_solver(deterministic_limit, wall_limit)
        original = solver.solve
        calls = [0]

        def solve_labelled(model: cp_model.CpModel, *args, **kwargs):
            label, keeper = _label(sys._getframe(1), calls[0])
            calls[0] += 1
            self.before_solve(label, model)
            if label in self.apply:
                self._set(solver, keeper)
            started = time.process_time()
            status = original(model, *args, **kwargs)
            response = solver.response_proto
            self.solves.append({
                "label": label, "status": int(status),
                "dtime": response.deterministic_time,
                "cpu_ms": (time.process_time() - started) * 1000,
                "objective": response.objective_value if status in (P.OPTIMAL, P.FEASIBLE)
                else None,
                "bound": response.best_objective_bound,
                "conflicts": response.num_conflicts, "branches": response.num_branches,
            })
            return status

        solver.solve = solve_labelled
        return solver

    def before_solve(self, label: str, model: cp_model.CpModel) -> None:
        """Called with each solve's label and model just before it runs (stage2_lp.py saves
        the models); nothing here."""

    def _set(self, solver: cp_model.CpSolver, keeper: Any) -> None:
        params = solver.parameters
        for name, value in self.params.items():
            setattr(params, name, value)
        if self.cap is not None:
            params.max_deterministic_time = min(params.max_deterministic_time, self.cap)
        if self.strategy is not None and keeper is not None:
            proto = keeper.model.proto
            if not len(proto.search_strategy):
                keeps = [v for slot in keeper.slots
                         for v in (*slot.keep_real.values(), *slot.keep_joker.values())]
                if keeps:
                    keeper.model.add_decision_strategy(keeps, *self.strategy)


def _label(frame: Any, calls: int) -> tuple[str, Any]:
    name = frame.f_code.co_name
    local = frame.f_locals
    if name == "search" and frame.f_code.co_filename == stages.__file__:
        if "keeper" not in local:
            return "s1", None
        keeper = local["keeper"]
        if local["relaxed"]:
            return ("u" if local["ask_untouched"] and calls == 0 else "s2r"), keeper
        return "s2x", keeper
    if name == "_solve_cutting":
        keeper = local["model"]
        caller = frame.f_back.f_code.co_name
        if caller == "_kept_on_slots":
            return "pk", keeper
        return ("p1" if local["play_value"] is None else "p2"), keeper
    return f"?{name}", None


def run_case(case: Case, recorder: Recorder) -> dict[str, Any]:
    recorder.solves = []
    cpu = time.process_time()
    wall = time.perf_counter()
    solution = solve(case.position)
    cpu = (time.process_time() - cpu) * 1000
    wall = (time.perf_counter() - wall) * 1000
    return {
        "suite": case.suite, "index": case.index,
        "answer": [solution.cards_played, solution.penalty_after, solution.cards_moved,
                   solution.status.value == "optimal"],
        "cpu_ms": cpu, "wall_ms": wall, "solves": recorder.solves,
    }


def install(recorder: Recorder) -> None:
    stages.stage_solver = recorder.wrap
    pinned.stage_solver = recorder.wrap


def cases(suites: list[str]) -> list[Case]:
    found: list[Case] = []
    for suite in suites:
        (path,) = suite_paths(suite)
        found += load_suite(path)
    return found


def sweep(args: argparse.Namespace) -> None:
    apply = set(args.apply.split(","))
    every = cases(args.suites)
    out = Path(args.out)
    solve(every[0].position)  # warm up
    for name in args.names:
        params, strategy = CANDIDATES[name]
        recorder = Recorder(params, strategy, apply, None if name == "base" else args.cap)
        install(recorder)
        started = time.process_time()
        rows = [run_case(case, recorder) for case in every]
        with out.open("a", encoding="utf-8") as lines:
            for row in rows:
                lines.write(json.dumps({"name": name, "apply": args.apply, **row}) + "\n")
        print(f"{name}: {time.process_time() - started:.1f} s CPU", file=sys.stderr, flush=True)


def cpu(args: argparse.Namespace) -> None:
    """Per position: base, candidates..., candidates reversed, base (CPU time of the solve)."""
    apply = set(args.apply.split(","))
    every = cases(args.suites)
    out = Path(args.out)
    recorders = {name: Recorder(*CANDIDATES[name], apply, None) for name in args.names}
    solve(every[0].position)
    order = list(args.names) + list(reversed(args.names))
    for case in every:
        for name in order:
            install(recorders[name])
            row = run_case(case, recorders[name])
            with out.open("a", encoding="utf-8") as lines:
                lines.write(json.dumps({"name": name, "apply": args.apply, "mode": "cpu", **row})
                            + "\n")


def stats(values: list[float]) -> str:
    if not values:
        return "-"
    return (f"{statistics.median(values) * 1000:.1f} / {percentile(values, 95) * 1000:.1f} / "
            f"{max(values) * 1000:.1f} / {sum(values) * 1000:.0f}")


def report(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in Path(args.out).read_text().splitlines() if line]
    rows = [row for row in rows if row.get("mode") != "cpu"]
    names = list(dict.fromkeys(row["name"] for row in rows))
    by: dict[tuple[str, str, int], dict[str, Any]] = {
        (row["name"], row["suite"], row["index"]): row for row in rows
    }
    labels = set(args.labels.split(","))
    print(f"stage 2 deterministic ms per position (labels {args.labels}): "
          "median / p95 / max / sum; answers differing from base; unproved")
    for suite in SUITES:
        print(f"\n{suite}")
        for name in names:
            keys = [key for key in by if key[0] == name and key[1] == suite]
            if not keys:
                continue
            dt = [sum(s["dtime"] for s in by[key]["solves"] if s["label"] in labels)
                  for key in keys]
            diff = sum(by[key]["answer"] != by.get(("base", *key[1:]), {}).get("answer")
                       for key in keys)
            unproved = sum(not by[key]["answer"][3] for key in keys)
            base_dt = [sum(s["dtime"] for s in by[("base", *key[1:])]["solves"]
                           if s["label"] in labels) for key in keys if ("base", *key[1:]) in by]
            ratio = ""
            if base_dt and sum(base_dt) > 0:
                ratio = (f"  sum x{sum(dt) / sum(base_dt):.2f}  median x"
                         f"{statistics.median(dt) / max(statistics.median(base_dt), 1e-9):.2f}")
            print(f"  {name:22s} {stats(dt):34s} diff {diff} unproved {unproved}{ratio}")


def cpu_report(args: argparse.Namespace) -> None:
    """Per position the fastest CPU time of each setting's solves; per suite its median, p95,
    max and sum, and the median of the per-position ratios to base."""
    rows = [json.loads(line) for line in Path(args.out).read_text().splitlines() if line]
    rows = [row for row in rows if row.get("mode") == "cpu"]
    names = list(dict.fromkeys(row["name"] for row in rows))
    best: dict[tuple[str, str, int], float] = {}
    answers: dict[tuple[str, str, int], set] = {}
    for row in rows:
        key = (row["name"], row["suite"], row["index"])
        best[key] = min(best.get(key, float("inf")), row["cpu_ms"])
        answers.setdefault(key[1:], set()).add(json.dumps(row["answer"]))
    print("CPU ms of the whole solve per position (best of its interleaved solves): "
          "median / p95 / max / sum; median of ratios to base")
    print("positions whose answers differ between settings:",
          sum(len(found) > 1 for found in answers.values()))
    for suite in SUITES:
        print(f"\n{suite}")
        for name in names:
            keys = sorted(key for key in best if key[0] == name and key[1] == suite)
            if not keys:
                continue
            times = [best[key] for key in keys]
            ratios = [best[key] / best[("base", *key[1:])] for key in keys
                      if best.get(("base", *key[1:]), 0) > 0]
            print(f"  {name:26s} {statistics.median(times):.1f} / {percentile(times, 95):.1f} / "
                  f"{max(times):.1f} / {sum(times):.0f}   ratio median "
                  f"{statistics.median(ratios):.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("sweep", "cpu", "report", "cpu-report"))
    parser.add_argument("names", nargs="*")
    parser.add_argument("--suites", default=",".join(SUITES))
    parser.add_argument("--apply", default=",".join(STAGE2))
    parser.add_argument("--labels", default=",".join(STAGE2))
    parser.add_argument("--cap", type=float, default=2.0)
    parser.add_argument("--out", default="/tmp/stage2_params.jsonl")
    args = parser.parse_args(argv)
    args.suites = args.suites.split(",")
    {"sweep": sweep, "cpu": cpu, "report": report, "cpu-report": cpu_report}[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
