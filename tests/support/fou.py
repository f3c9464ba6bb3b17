"""Rami fou in tests (tests/test_rami_fou_known.py, test_rami_fou_reference.py,
test_fou_credit.py): its ruleset, a checked solve whose turn ends with a discard, the table as
text, and a sample of random positions small enough for the exhaustive reference."""

from __future__ import annotations

import random

from rami.generate import medium_position, small_position
from rami.rules import get_ruleset
from support.checks import checked_solve
from support.fou_reference import MAX_CARDS

RULES = get_ruleset("rami-fou")


def solved(text: str, **options):
    """Solve and check the answer (support.checks); a rami fou turn always ends with a discard,
    told as the last move."""
    solution = checked_solve(text, proved=False, **options)
    assert solution.discard is not None, "a rami fou turn always ends with a discard"
    assert [move.kind for move in solution.moves][-1] == "discard"
    return solution


def tables(solution) -> list[str]:
    return [str(meld) for meld in solution.table]


def sample(seed: int, count: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        maker = medium_position if rng.random() < 0.3 else small_position
        position = maker(rng, RULES, max_jokers=4)
        if sum(len(meld) for meld in position.table) + len(position.hand) > MAX_CARDS:
            continue
        found += 1
        yield position
