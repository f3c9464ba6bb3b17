"""Sound puzzles of a tier per CPU-minute, by profile (docs/puzzles.md, "Profiles").

    python benchmarks/profile_rates.py TIER JOKERS SEED COUNT PROFILE [PROFILE ...]

judges candidates 0..COUNT-1 of SEED drawn by each PROFILE in turn, as ``rami puzzle generate
--tier TIER`` judges them (the judge stops as soon as a candidate cannot be of the tier), in 2
processes, and prints one JSON line per profile: the puzzles of the tier found (distinct ids),
the CPU seconds of the judging processes (the draw included; the load of a shared machine
hardly changes them), the puzzles per CPU-minute, and the candidates and CPU seconds by outcome.

A PROFILE is a name of ``PROFILES``, optionally with fields changed for the run:
``expert-2:decoy=0.2:hand=(4,6)`` (values as Python literals; ``with_jokers`` is dropped when
a field is changed, so the change applies with jokers too).
"""

from __future__ import annotations

import ast
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from multiprocessing import Pool

from rami.puzzles import draw, profiles
from rami.puzzles.evaluate import Rejected, evaluate
from rami.puzzles.record import puzzle_id

OUTCOMES = [
    ("empties by new", "lay-off test"),
    ("needs no rearr", "no rearrangement"),
    ("single card", "single card"),
    ("cooked", "cooked"),
    ("can only be", "other tier"),
    ("puzzle (score", "other tier"),
]


def profile_named(spec: str) -> profiles.Profile:
    name, *changes = spec.split(":")
    profile = profiles.PROFILES[name]
    if changes:
        fields = {}
        for change in changes:
            key, value = change.split("=", 1)
            fields[key] = ast.literal_eval(value)
        profile = replace(profile, with_jokers=None, **fields)
    return profile


def _register(specs: list[str], tier: str, jokers: int) -> None:
    for spec in specs:
        profiles.PROFILES[spec] = profile_named(spec)
    for index in range(3):  # warm up (imports, first solves), untimed
        judge((specs[0], tier, jokers, 0, index))


def judge(task: tuple[str, str, int, int, int]) -> tuple[str, float, str | None]:
    spec, tier, jokers, seed, index = task
    started = time.process_time()
    position = draw.candidate(draw.candidate_seed(seed, index), tier=spec, jokers=jokers)
    if position is None:
        return "draw failed", time.process_time() - started, None
    try:
        evaluation = evaluate(position, tier=tier)
    except Rejected as error:
        text = str(error)
        outcome = next((short for key, short in OUTCOMES if key in text), text[:30])
        return outcome, time.process_time() - started, None
    return "kept", time.process_time() - started, puzzle_id(evaluation.position)


def main(argv: list[str]) -> int:
    tier, jokers, seed, count, *specs = argv
    with Pool(2, initializer=_register, initargs=(specs, tier, int(jokers))) as pool:
        for spec in specs:
            results = pool.map(
                judge,
                [(spec, tier, int(jokers), int(seed), index) for index in range(int(count))],
                chunksize=4,
            )
            cpu = sum(seconds for _outcome, seconds, _id in results)
            kept = {found for _outcome, _seconds, found in results if found is not None}
            outcomes = Counter(outcome for outcome, _seconds, _id in results)
            costs: Counter[str] = Counter()
            for outcome, seconds, _id in results:
                costs[outcome] += seconds
            print(
                json.dumps(
                    {
                        "profile": spec,
                        "tier": tier,
                        "jokers": int(jokers),
                        "seed": int(seed),
                        "candidates": int(count),
                        "puzzles": len(kept),
                        "cpu_s": round(cpu, 1),
                        "per_cpu_minute": round(len(kept) / cpu * 60, 1) if cpu else 0.0,
                        "outcomes": dict(outcomes),
                        "cpu_by_outcome": {key: round(value, 1) for key, value in costs.items()},
                    }
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
