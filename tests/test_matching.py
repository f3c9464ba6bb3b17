"""Cards moved between two tables (docs/rules.md decision 7), checked on known answers and against a
brute-force assignment."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rami.matching import (
    cards_kept,
    cards_moved,
    hungarian,
    match_melds,
    max_weight_assignment,
)
from rami.melds import Meld


def table(*texts: str) -> list[Meld]:
    return [Meld.parse(text) for text in texts]


def test_decision_7_extending_a_meld_moves_nothing():
    """docs/rules.md decision 7: extending a meld moves nothing."""
    assert cards_moved(table("7H 8H 9H"), table("7H 8H 9H TH")) == 0
    assert cards_moved(table("7H 8H 9H", "QS QD QC"), table("6H 7H 8H 9H TH", "QS QD QC QH")) == 0
    assert cards_moved(table("7H 8H 9H"), table("7H 8H 9H", "2C 3C 4C")) == 0


def test_decision_7_splitting_a_9_card_run_5_plus_4_moves_4():
    """docs/rules.md decision 7: splitting a 9-card run into 5 + 4 moves 4 cards."""
    before = table("AH 2H 3H 4H 5H 6H 7H 8H 9H")
    after = table("AH 2H 3H 4H 5H", "6H 7H 8H 9H")
    assert cards_moved(before, after) == 4
    assert cards_moved(before, table("AH 2H 3H 4H", "5H 6H 7H 8H 9H")) == 4
    assert match_melds(before, after) == [0]


def test_decision_7_set_broken_into_three_runs_moves_2():
    """docs/rules.md decision 7 (and NOTES): a set 7H 7S 7D broken into three runs keeps one card in
    the run matched to it: 2 moved, not 3."""
    before = table("7H 7S 7D")
    after = table("5H 6H 7H", "7S 8S 9S", "7D 8D 9D")
    assert cards_moved(before, after) == 2
    assert cards_kept(before, after) == 1


def test_common_swapping_identical_copies_is_never_a_move():
    """docs/rules.md common: swapping the two 7 of hearts is never a "move"."""
    before = table("5H 6H 7H", "7H 7S 7D")
    assert cards_moved(before, table("7H 7S 7D", "5H 6H 7H")) == 0
    assert cards_moved(before, table("5H 6H 7H", "7S 7H 7D")) == 0


def test_decision_7_matching_is_one_to_one_by_largest_overlap():
    """docs/rules.md decision 7: melds before and after are matched one-to-one by largest
    overlap."""
    before = table("3C 4C 5C 6C 7C 8C", "8S 8H 8D")
    # The 8C joins the set of 8s; the run keeps 5 cards in place.
    after = table("3C 4C 5C 6C 7C", "8S 8H 8D 8C")
    assert cards_moved(before, after) == 1
    assert match_melds(before, after) == [0, 1]
    # Two runs merged into one: only one of them can be matched to it.
    assert cards_moved(table("2D 3D 4D", "5D 6D 7D 8D"), table("2D 3D 4D 5D 6D 7D 8D")) == 3


def test_decision_7_dissolved_meld_moves_all_its_cards():
    """docs/rules.md decision 7: a meld matched to nothing moves all its cards; new melds move
    nothing."""
    before = table("7H 8H 9H TH")
    after = table("6H 7H 8H", "9H TH JH")  # best match keeps 2
    assert cards_moved(before, after) == 2
    assert cards_moved(table("7H 8H 9H"), []) == 3
    assert match_melds(table("7H 8H 9H"), table("2C 3C 4C")) == [-1]
    assert cards_moved([], table("2C 3C 4C")) == 0


def test_decision_7_jokers_count_like_cards():
    """docs/rules.md decision 7: a joker leaving its meld is a moved card."""
    before = table("5D * 7D")
    assert cards_moved(before, table("5D 6D 7D", "8S 9S *")) == 1
    assert cards_moved(before, table("5D * 7D 8D")) == 0


@pytest.mark.parametrize(
    ("weights", "total"),
    [
        ([], 0),
        ([[5]], 5),
        ([[1, 2], [3, 4]], 5),
        ([[3, 3], [3, 0]], 6),
        ([[0, 9, 0], [0, 8, 0]], 9),
        ([[1], [2], [3]], 3),
        ([[1, 2, 3]], 3),
    ],
)
def test_max_weight_assignment_known_answers(weights, total):
    """docs/rules.md decision 7: the one-to-one matching of largest total overlap, known answers."""
    assignment = max_weight_assignment(weights)
    assert len(assignment) == len(weights)
    used = [col for col in assignment if col >= 0]
    assert len(used) == len(set(used))
    assert sum(weights[row][col] for row, col in enumerate(assignment) if col >= 0) == total


def brute_force(weights: list[list[int]]) -> int:
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    best = 0
    slots = list(range(cols)) + [-1] * rows
    for choice in set(permutations(slots, rows)):
        best = max(best, sum(weights[r][c] for r, c in enumerate(choice) if c >= 0))
    return best


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(0, 9), min_size=cols, max_size=cols), min_size=1, max_size=5
        )
    )
)
def test_property_assignment_is_optimal_and_one_to_one(weights):
    """Decision 7 needs an exact best matching: the Hungarian answer equals brute force."""
    assignment = max_weight_assignment(weights)
    used = [col for col in assignment if col >= 0]
    assert len(used) == len(set(used))
    got = sum(weights[row][col] for row, col in enumerate(assignment) if col >= 0)
    assert got == brute_force(weights)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(9, 20).flatmap(
        lambda cols: st.lists(
            st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 5]), min_size=cols, max_size=cols),
            min_size=9,
            max_size=20,
        )
    )
)
def test_property_native_assignment_matches_hungarian(weights):
    """Above NATIVE_ASSIGNMENT_SIZE melds the C++ assignment runs: it must reach the Hungarian
    total and stay one-to-one."""
    native = max_weight_assignment(weights)
    used = [col for col in native if col >= 0]
    assert len(used) == len(set(used))
    total = sum(weights[row][col] for row, col in enumerate(native) if col >= 0)
    exact = hungarian(weights)
    assert total == sum(weights[row][col] for row, col in enumerate(exact) if col >= 0)
