"""Melds and the opening (docs/rules.md decisions 2 and 3): a meld's opening points (Rummikub's
tiles at face value), pure runs in a meld and in a hand, the most a hand opens with, and no opening
points without a pure run where one is needed."""

from __future__ import annotations

import pytest
from support.meld_rules import BF51, KUB, R51

from rami.cards import parse_cards
from rami.melds import Meld, holds_pure_run, is_pure_run, opening_points, reaches_opening
from rami.rules import get_ruleset


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("AH 2H 3H", 6),  # ace 1 in A-2-3
        ("QH KH AH", 31),  # ace 11 in Q-K-A
        ("AS AH AD", 33),  # ace 11 in a set
        ("AS AH *", 33),  # joker = the ace it stands for
        ("* 2H 3H", 6),  # joker = ace low
        ("QH KH *", 31),  # joker = ace high
        ("9H TH JH", 29),  # seed 001 example
        ("QS QD QC", 30),  # seed 001 example
        ("TS JS QS", 30),  # seed 002 example
        ("9H 9C 9D", 27),  # seed 002 example
        ("KS KH *", 30),  # seed 001: three kings, joker included
        ("5D * 7D 8D", 26),
        ("JH QH KH AH", 41),
    ],
)
def test_decision_2_opening_points(text, points):
    """docs/rules.md decision 2: 2-10 face, J Q K 10, ace 1 in A-2-3, 11 in Q-K-A or a set, a joker
    counts as the card it stands for."""
    assert opening_points(Meld.parse(text), R51) == points


def test_decision_2_rummikub_tiles_count_face_value():
    """docs/rules.md rummikub: tiles count 1-13 (written A..K)."""
    assert opening_points(Meld.parse("JH QH KH"), KUB) == 36
    assert opening_points(Meld.parse("AS AH AD"), KUB) == 3
    assert opening_points(Meld.parse("* 2H 3H"), KUB) == 6


@pytest.mark.parametrize(
    ("text", "pure"),
    [
        ("7H 8H 9H", True),
        ("7H 8H 9H TH", True),  # 4+ card pure run qualifies
        ("QH KH AH", True),
        ("7H * 9H", False),
        ("7H 8H *", False),
        ("7H 7S 7D", False),  # a set is no run
    ],
)
def test_decision_3_pure_run(text, pure):
    """docs/rules.md decision 3: a pure run (tierce franche) is a run with no joker; 4+ cards
    qualify."""
    assert is_pure_run(Meld.parse(text)) is pure


@pytest.mark.parametrize(
    ("hand", "pure"),
    [
        ("8S TS JS QS 8D 5H 6H 7H 2C", True),  # 5H 6H 7H (and TS JS QS)
        ("QH 2C KH 9D AH", True),  # Q-K-A
        ("AH 2H 3H", True),
        ("KH AH 2H", False),  # K-A-2 wraps
        ("7H * 9H 7S 7D 7C", False),  # a joker never makes a pure run; a set is no run
        ("7H 8H 9S TS JD", False),
    ],
)
def test_decision_3_a_hand_holds_a_pure_run(hand, pure):
    """docs/rules.md decision 3, for a hand: three cards of one suit in a row."""
    assert holds_pure_run(parse_cards(hand), BF51) is pure


def test_rummikub_hand_q_k_a_is_no_pure_run():
    """docs/rules.md rummikub: no ace above the 13."""
    assert not holds_pure_run(parse_cards("QH KH AH"), KUB)


@pytest.mark.parametrize(
    ("hand", "rules", "most", "pure"),
    [
        # Issue 36: TS JS QS (30) and 5H 6H 7H (18) make 48, short of 51.
        ("8S TS JS QS 8D 5H 6H 7H 2C", BF51, 48, True),
        ("3S 8S TS JS QS 3H 5H 6H 7H TH 3D 6D 8D TD", BF51, 57, True),
        ("QH KH AH TS TD TC 2C", R51, 61, True),  # Q-K-A 31 and three tens
        ("AH 2H 3H TS TD TC 2C", R51, 36, True),  # A-2-3 counts 6
        # The 7H in a set of sevens makes 21; with the pure run the sevens are no set: 18.
        ("5H 6H 7H 7S 7D", BF51, 18, True),
        ("5H 6H 7H 7S 7D", BF51, 21, False),
        ("TH JH * 2C 5D", get_ruleset("bfmania-30"), 30, False),  # the joker counts QH
        ("KS KH * 2C", get_ruleset("bfmania-30"), 30, False),  # seed 001's three kings
        ("JH QH KH", KUB, 36, False),
    ],
)
def test_decision_2_the_most_a_hand_opens_with(hand, rules, most, pure):
    """docs/rules.md decisions 2 and 3: the opening points the hand's melds reach, exactly."""
    cards = parse_cards(hand)
    assert reaches_opening(cards, rules, most, pure_run=pure)
    assert not reaches_opening(cards, rules, most + 1, pure_run=pure)


def test_decision_3_no_pure_run_no_opening_points():
    """A hand whose melds hold no pure run reaches nothing where the opening needs one."""
    assert not reaches_opening(parse_cards("QS QD QC KS KD KC"), BF51, 1, pure_run=True)
    assert reaches_opening(parse_cards("QS QD QC KS KD KC"), BF51, 60)
