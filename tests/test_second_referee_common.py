"""The second referee (tests/support/second_referee/) on its own: it imports data types only from
rami, its meld validity in every preset, its matching against brute force, and the rules common to
every preset (cards played come from the hand, none appear or vanish, every meld after is valid, a
table joker goes back to a hand in BFmania only).

tests/test_referee_differential_known.py and tests/test_referee_differential_random.py compare it
with the primary referee (rami.referee.validate_turn) on known turns, and on solver answers and
their mutations.
"""

from __future__ import annotations

import ast
import random
from itertools import permutations
from pathlib import Path

import pytest
from support.second_referee import all_max_matchings, max_weight_matching, meld_faults
from support.second_referee_turns import illegal, turn

from rami.cards import parse_cards
from rami.melds import Meld, MeldKind
from rami.rules import get_ruleset


def valid(text: str, rules: str) -> bool:
    return not meld_faults(Meld.parse(text), get_ruleset(rules))


# --- Independence -------------------------------------------------------------------------------


def test_imports_only_data_types():
    """The second referee imports no judging code from rami: every module of its package, which
    takes nothing else from tests/support either."""
    sources = sorted((Path(__file__).parent / "support" / "second_referee").glob("*.py"))
    assert len(sources) > 1  # the package was read
    trees = [ast.parse(source.read_text()) for source in sources]
    allowed = {
        "rami.cards": {"JOKER", "Card", "Suit"},
        "rami.rules": {"Ruleset", "TableJoker", "GoingOut", "get_ruleset"},
        "rami.position": {"Position"},
        "rami.melds": {"Meld", "MeldKind"},
    }
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("rami") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("support"):
            assert node.module.startswith("support.second_referee."), node.module
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rami"):
            assert node.module in allowed, node.module
            names = {alias.name for alias in node.names}
            assert names <= allowed[node.module], names - allowed[node.module]


# --- Melds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        ("7H 8H 9H", "rami-chinois", True),
        ("* 2H 3H", "rami-chinois", True),  # the joker is the low ace
        ("* AH 2H", "rami-chinois", False),  # nothing below the ace
        ("QH KH *", "rami-chinois", True),  # the joker is the high ace
        ("QH KH AH", "rami-chinois", True),
        ("QH KH AH", "rummikub", False),  # a tile run never goes above 13
        ("QH KH *", "rummikub", False),
        ("* QH KH", "rummikub", True),
        ("AH 2H 3H", "rummikub", True),
        ("KH AH 2H", "rami-chinois", False),  # never wrapping
        ("KH * 2H", "rami-chinois", False),
        ("7H 8S 9H", "rami-chinois", False),
        ("7H 9H 8H", "rami-chinois", False),  # consecutive in the order written
        ("7H 8H", "rami-chinois", False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "rami-chinois", True),
        ("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "rami-chinois", True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "rami-chinois", False),
        ("* * * * * * * * * * 5H * * *", "rami-chinois", False),
        ("5H * *", "rami-chinois", True),
        ("5H * *", "bfmania-51", False),  # two real cards per meld
        ("5H 6H *", "bfmania-51", True),
        ("5H * *", "cafe-rummy", False),
        ("5H 6H * *", "cafe-rummy", True),  # naturals >= jokers
        ("5H 6H * * *", "cafe-rummy", False),
        ("* * *", "rami-chinois", False),
        ("7H 7S 7D", "rami-chinois", True),
        ("7H 7S 7D 7C", "rami-chinois", True),
        ("7H 7S 7D 7C *", "rami-chinois", False),
        ("7H 7H 7D", "rami-chinois", False),  # two 7 of hearts never share a set
        ("7H 7S 8D", "rami-chinois", False),
        ("set: 7H * *", "rami-chinois", True),
        ("set: 7H * *", "bfmania-30", False),
        ("AS AH AD", "rummikub", True),
    ],
)
def test_meld_validity(text: str, rules: str, expected: bool) -> None:
    assert valid(text, rules) is expected


def test_meld_kind_is_respected():
    assert meld_faults(Meld(parse_cards("7H 7S 7D"), MeldKind.RUN), get_ruleset("rami-chinois"))
    assert meld_faults(Meld(parse_cards("7H 8H 9H"), MeldKind.SET), get_ruleset("rami-chinois"))


# --- Matching -----------------------------------------------------------------------------------


def _brute_force(weights: list[list[int]]) -> int:
    rows, cols = len(weights), len(weights[0])
    best = 0
    columns = [*range(cols), *([-1] * rows)]
    for order in set(permutations(columns, rows)):
        best = max(best, sum(weights[r][c] for r, c in enumerate(order) if c >= 0))
    return best


def test_matching_against_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        rows, cols = rng.randint(1, 4), rng.randint(1, 5)
        weights = [[rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(cols)] for _ in range(rows)]
        total, assignment = max_weight_matching(weights)
        assert total == _brute_force(weights), weights
        used = [c for c in assignment if c >= 0]
        assert len(used) == len(set(used))
        assert total == sum(weights[r][c] for r, c in enumerate(assignment) if c >= 0)
        every = all_max_matchings(weights, list(range(rows)))
        assert tuple(assignment) in every or any(
            weights[r][c] == 0 for r, c in enumerate(assignment) if c >= 0
        )
        for picked in every:
            assert sum(weights[r][c] for r, c in enumerate(picked) if c >= 0) == total


def test_all_max_matchings_lists_ties():
    assert all_max_matchings([[1, 1]], [0]) == {(0,), (1,)}
    assert all_max_matchings([[2, 1], [2, 0]], [0, 1]) == {(1, 0)}


# --- Common rules -------------------------------------------------------------------------------


def test_played_cards_must_be_in_the_hand():
    illegal(turn("7H 8H 9H / 2C / rami-chinois opened", ["7H 8H 9H TH"], "TH"), "TH")


def test_cards_must_not_appear_or_vanish():
    illegal(turn("7H 8H 9H / TH 2C / rami-chinois opened", ["7H 8H 9H TH"], ""), "appeared")
    illegal(turn("7H 8H 9H TH / 2C / rami-chinois opened", ["7H 8H 9H"], ""), "vanished")
    illegal(turn("7H 8H 9H / TH / rami-chinois opened", ["7H 8H 9H"], "TH"), "vanished")


def test_every_meld_after_must_be_valid():
    illegal(turn("7H 8H 9H / TH 2C / rami-chinois opened", ["7H 8H 9H TH 2C"], "TH 2C"))


def test_table_joker_never_returns_to_a_hand_outside_bfmania():
    for rules in ("rami-chinois", "rummikub"):
        illegal(turn(f"7H 8H 9H * / 2C / {rules} opened", ["7H 8H 9H"]), "joker")
    illegal(turn("7H 8H 9H * / 2C / rami-fou opened", ["7H 8H 9H"], "", "2C"), "joker")
    illegal(turn("5D * 7D / 6D 2C / cafe-rummy opened", ["5D 6D 7D"], "6D", "2C"), "joker")
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["5D 6D 7D"], "6D", "2C"))
