"""Puzzles: generation (deterministic, the same with workers, a tier on request), the shipped pack
and the daily puzzle.

The whole shipped pack is re-verified on every run (``test_shipped_puzzle_reverifies``, one test
per record), as ``benchmarks/bench_puzzles.py`` does outside pytest.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest
from support.puzzles import DAILY_2025_06_01

from rami.puzzles.difficulty import NEAR_CAP, TIERS
from rami.puzzles.recheck import verify
from rami.puzzles.record import Puzzle, daily, daily_order, shipped_pack


def _generated(**options) -> list[dict]:
    from rami.puzzles.generator import generate

    return list(generate(2, max_attempts=120, **options))


def test_generation_is_deterministic() -> None:
    first = _generated(seed=2024, jokers=4)
    assert len(first) == 2
    assert _generated(seed=2024, jokers=4) == first
    assert _generated(seed=2025, jokers=4) != first
    for record in first:
        assert record["rules"] == "rami-chinois"
        assert record["version"]["ortools"]
        assert record["position"]["opened"] is True


def test_generation_with_workers_matches_one_worker() -> None:
    assert _generated(seed=77, workers=2) == _generated(seed=77, workers=1)


def test_tier_is_reachable_on_request() -> None:
    from rami.puzzles.generator import generate

    records = list(generate(1, seed=3, tier="hard", max_attempts=400))
    assert [r["difficulty"]["tier"] for r in records] == ["hard"]


# ---------------------------------------------------------------------------- shipped pack


def test_shipped_pack_size_and_spread() -> None:
    pack = shipped_pack()
    assert len(pack) >= 400
    assert len({p.id for p in pack}) == len(pack)
    cells = Counter((p.tier, p.jokers) for p in pack)
    for tier in TIERS:
        for jokers in (0, 4):
            assert cells[(tier, jokers)] >= 50, (tier, jokers, cells)
    assert {p.kind for p in pack} == {"empty-hand", "best-score"}
    for puzzle in pack:
        assert puzzle.position.problems() == []
        assert puzzle.metrics.near_solutions <= NEAR_CAP


@pytest.mark.parametrize("puzzle", shipped_pack(), ids=lambda puzzle: puzzle.id)
def test_shipped_puzzle_reverifies(puzzle: Puzzle) -> None:
    """Every record of the shipped pack, on every run: legal, solvable, needs a rearrangement,
    unique, nothing superfluous, and its stored metrics, score and tier are what the code
    computes now (about a minute for the 440 of them on one core)."""
    assert verify(puzzle) == []


def test_daily_is_stable() -> None:
    first = daily(date(2025, 6, 1))
    assert daily(date(2025, 6, 1)) == first
    assert first.id == DAILY_2025_06_01
    pack = shipped_pack()
    order = daily_order(pack)
    assert daily(date(2025, 1, 1)) is order[0]
    assert daily(date(2025, 1, 2)) is order[1]
    assert daily(date(2024, 12, 31)) is order[-1]
    days = {daily(date(2025, 1, 1) + timedelta(days=n)).id for n in range(len(pack))}
    assert len(days) == len(pack)  # a full cycle shows every puzzle once
