"""Puzzle benchmarks: re-verify the whole shipped pack, and measure generation throughput.

Run with ``make bench`` (pytest-benchmark), or directly: ``python benchmarks/bench_puzzles.py
[--throughput [--verify] [--original]]`` prints the same figures without pytest (``--verify``:
and re-verifies every puzzle made; ``--original``: candidates drawn by the original profiles,
``easy`` .. ``expert``, instead of each tier's default, docs/puzzles.md "Profiles").

* ``test_full_pack_reverifies``: every puzzle of ``rami/data/puzzles.jsonl`` is legal, solvable,
  unique, has no superfluous meld, and its metrics reproduce (the test suite checks a sample).
* ``test_generation_throughput``: sound puzzles per minute, by tier, for each joker setting,
  with ``--workers 2`` (the reference machine has 2 cores).
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import pytest

from rami.puzzles.difficulty import TIERS
from rami.puzzles.generator import generate
from rami.puzzles.profiles import profile_of
from rami.puzzles.recheck import verify
from rami.puzzles.record import Puzzle, shipped_pack

#: Puzzles generated per (tier, jokers) cell in the throughput benchmark.
THROUGHPUT_COUNT = 6
THROUGHPUT_WORKERS = 2


def check_pack() -> tuple[int, dict[str, list[str]]]:
    failures: dict[str, list[str]] = {}
    pack = shipped_pack()
    for puzzle in pack:
        problems = verify(puzzle)
        if problems:
            failures[puzzle.id] = problems
    return len(pack), failures


def throughput(
    tier: str,
    jokers: int,
    count: int = THROUGHPUT_COUNT,
    workers: int = THROUGHPUT_WORKERS,
    seed: int = 1,
    check: bool = False,
    profile: str | None = None,
) -> dict[str, float | str]:
    """Sound puzzles of ``tier`` per minute (candidates drawn by ``profile``, by default the
    tier's); with ``check``, every puzzle made is re-verified afterwards (``verify_failures``,
    not timed)."""
    judged = 0

    def seen(_outcome: object, _accepted: int) -> None:
        nonlocal judged
        judged += 1

    started = time.perf_counter()
    records = list(
        generate(
            count,
            seed=seed,
            tier=tier,
            jokers=jokers,
            workers=workers,
            profile=profile,
            on_outcome=seen,
        )
    )
    elapsed = time.perf_counter() - started
    result: dict[str, float | str] = {
        "tier": tier,
        "profile": profile or profile_of(tier),
        "jokers": jokers,
        "puzzles": len(records),
        "candidates": judged,
        "seconds": round(elapsed, 1),
        "per_minute": round(len(records) / elapsed * 60, 1),
    }
    if check:
        result["verify_failures"] = sum(
            1
            for record in records
            if verify(Puzzle.from_record(record)) or record["difficulty"]["tier"] != tier
        )
    return result


def test_full_pack_reverifies(benchmark) -> None:
    checked, failures = benchmark.pedantic(check_pack, rounds=1, iterations=1)
    assert checked >= 400
    assert failures == {}


@pytest.mark.parametrize("jokers", [0, 4])
@pytest.mark.parametrize("tier", TIERS)
def test_generation_throughput(benchmark, tier: str, jokers: int) -> None:
    result = benchmark.pedantic(throughput, args=(tier, jokers), rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    assert result["puzzles"] == THROUGHPUT_COUNT


def main(argv: list[str]) -> int:
    if "--throughput" in argv:
        for jokers in (0, 4):
            for tier in TIERS:
                profile = tier if "--original" in argv else None
                print(
                    throughput(tier, jokers, check="--verify" in argv, profile=profile), flush=True
                )
        return 0
    started = time.perf_counter()
    checked, failures = check_pack()
    pack = shipped_pack()
    cells = Counter((p.tier, p.jokers) for p in pack)
    print(
        f"{checked} puzzles re-verified in {time.perf_counter() - started:.0f} s, "
        f"{len(failures)} failed"
    )
    print(
        "per tier (jokers 0 / 4):", ", ".join(f"{t} {cells[(t, 0)]}/{cells[(t, 4)]}" for t in TIERS)
    )
    for puzzle_id, problems in failures.items():
        print(f"FAIL {puzzle_id}: {'; '.join(problems)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
