"""Melds: runs and sets under every preset (docs/rules.md common rules, presets row "real cards per
meld"), with the exact reason a meld is illegal: runs (aces low and high, no wrap, jokers within
the aces), sets (distinct suits, at most four), jokers standing where they sit, real cards per
meld."""

from __future__ import annotations

import pytest
from support.meld_rules import BF51, CAFE, CHINOIS, KUB, R51, problems

from rami.errors import NotationError
from rami.melds import Meld, MeldKind, is_valid, meld_problems, run_start, stands_for
from rami.rules import PRESETS, get_ruleset


@pytest.mark.parametrize(
    "text",
    [
        "7H 8H 9H",
        "AH 2H 3H",
        "QH KH AH",
        "9C TC JC QC KC",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ],
)
def test_common_run_three_or_more_consecutive_of_one_suit(text):
    """docs/rules.md common: run = 3+ consecutive cards of one suit (ace low or high)."""
    for rules in PRESETS.values():
        if rules.tiles and "A" in text.split()[-1]:
            continue  # rummikub: no ace-high, checked below
        assert problems(text, rules) == [], rules.name


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7H 8H", "meld 7H 8H has 2 cards: a meld needs at least 3"),
        ("7H 8S 9H", "run 7H 8S 9H mixes suits (S, H)"),
        ("7H 9H TH", "run 7H 9H TH is not consecutive: 7H then 9H"),
        ("9H 8H 7H", "not consecutive: 9H then 8H"),
        # Issue 36: the pair named is the gap, not the first two cards.
        ("8D 9D TD KD", "run 8D 9D TD KD is not consecutive: TD then KD"),
        ("8D * JD", "run 8D * JD is not consecutive: 8D then JD"),  # one joker, two places
        ("KH AH QH", "run KH AH QH is not consecutive: AH then QH"),  # K-A is Q-K-A's end
        ("7H 7H 8H", "run 7H 7H 8H holds 7H twice"),
    ],
)
def test_common_run_rejections(text, reason):
    """docs/rules.md common: a run has 3+ cards, one suit, consecutive (each card once)."""
    assert any(reason in problem for problem in problems(text)), problems(text)


def test_common_run_ace_low_and_ace_high():
    """docs/rules.md common: the ace goes below the 2 (A-2-3) or above the king (Q-K-A)."""
    assert stands_for(Meld.parse("AH 2H 3H"), CHINOIS) == (1, 2, 3)
    assert stands_for(Meld.parse("QH KH AH"), CHINOIS) == (12, 13, 14)
    assert run_start(Meld.parse("* KH AH"), CHINOIS) == 12


@pytest.mark.parametrize("text", ["KH AH 2H", "QH KH AH 2H", "KH AH 2H 3H"])
def test_common_run_no_wrap(text):
    """docs/rules.md common: never wrapping (K-A-2 is illegal)."""
    for rules in PRESETS.values():
        reasons = problems(text, rules)
        assert reasons and "wraps around" in reasons[0], (rules.name, reasons)
    assert "K-A-2 wraps around" in problems("KH AH 2H")[0]


def test_common_run_ace_never_both_low_and_high():
    """docs/rules.md common: never both in one run; a run has at most 13 cards (A..K..A is 14)."""
    text = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert problems(text) == [f"run {text} has 14 cards: a run has at most 13"]
    assert problems("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH") == []
    assert problems("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH") == []
    assert "has 14 cards" in problems("* 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")[0]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("JH QH KH AH *", "run JH QH KH AH * goes past the ace"),
        ("* * AH 2H", "goes below the ace"),
    ],
)
def test_common_run_jokers_cannot_extend_past_the_aces(text, reason):
    """docs/rules.md common: a joker stands for one card; no card above the high ace or below A."""
    assert reason in problems(text)[0]


def test_rummikub_no_ace_high_run_never_above_13():
    """docs/rules.md rummikub: no ace-high; a run never goes above 13."""
    assert problems("QH KH AH", KUB) == ["Q-K-A: in rummikub the 1 never follows the 13"]
    assert problems("JH QH KH *", KUB) == ["run JH QH KH * goes past the king"]
    assert problems("AH 2H 3H", KUB) == []
    assert problems("QH KH AH", CHINOIS) == []


# --- Sets -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["7H 7S 7D", "JS JH JC JD", "AS AH AD", "QS * QC", "set: 7H * *"])
def test_common_set_three_or_four_of_a_rank(text):
    """docs/rules.md common: a set is 3 or 4 cards of one rank, all different suits."""
    meld = Meld.parse(text)
    assert meld.kind is MeldKind.SET
    assert meld_problems(meld, CHINOIS) == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("9S 9S 9H", "two 9S in one set"),
        ("9S 9H 9S 9D", "two 9S in one set"),
        ("9S 9H 9D 9C 9S", "set 9S 9H 9D 9C 9S has 5 cards: at most 4"),
        ("9S 9H 9D 9C *", "has 5 cards: at most 4"),
        ("set: 9S 9H TD", "mixes ranks (9, T)"),
    ],
)
def test_common_set_distinct_suits_at_most_four(text, reason):
    """docs/rules.md common: two 9 of spades never share a set, even from different decks."""
    assert any(reason in problem for problem in problems(text)), problems(text)


def test_common_joker_in_set_stands_for_one_missing_suit():
    """docs/rules.md common: a joker in a set stands for one missing suit (so at most 4 cards)."""
    assert problems("7H 7S 7D *") == []
    assert "at most 4" in problems("7H 7S 7D 7C *")[0]
    assert "at most 4" in problems("set: 7H * * * *")[0]


# --- Jokers and real cards --------------------------------------------------------------------


def test_common_joker_stands_where_it_sits_in_a_run():
    """docs/rules.md common: a joker stands for exactly one card, fixed by its position."""
    assert stands_for(Meld.parse("5D * 7D"), CHINOIS) == (5, 6, 7)
    assert stands_for(Meld.parse("5D 6D *"), CHINOIS) == (5, 6, 7)
    assert stands_for(Meld.parse("* 5D 6D"), CHINOIS) == (4, 5, 6)
    assert stands_for(Meld.parse("* * AH"), CHINOIS) == (12, 13, 14)
    assert stands_for(Meld.parse("AH * *"), CHINOIS) == (1, 2, 3)
    with pytest.raises(NotationError, match="not a valid run"):
        stands_for(Meld.parse("KH AH 2H"), CHINOIS)


def test_presets_all_joker_meld_needs_a_real_card():
    """docs/rules.md presets: real cards per meld >= 1 everywhere: an all-joker meld is illegal."""
    for rules in PRESETS.values():
        reasons = problems("* * *", rules)
        needed = rules.min_real_cards
        assert reasons == [f"meld * * * needs at least {needed} real card{'s' * (needed > 1)}"]
    assert problems("* * *") == ["meld * * * needs at least 1 real card"]


@pytest.mark.parametrize(
    ("text", "chinois", "bfmania", "cafe"),
    [
        ("7H * *", True, False, False),
        ("* 7H * *", True, False, False),
        ("set: 7H * *", True, False, False),
        ("7H 8H *", True, True, True),
        ("7H * 9H *", True, True, True),
        ("7H 8H * * *", True, True, False),
        ("QS QD * *", True, True, True),
    ],
)
def test_presets_real_cards_per_meld(text, chinois, bfmania, cafe):
    """docs/rules.md presets: real cards per meld >= 1 (rami-chinois, rami-fou, rami-51), >= 2
    (BFmania), >= 2 and naturals >= jokers (Café: 2 cards and a joker yes, 1 and 2 no)."""
    assert is_valid(Meld.parse(text), CHINOIS) is chinois
    assert is_valid(Meld.parse(text), get_ruleset("rami-fou")) is chinois
    assert is_valid(Meld.parse(text), R51) is chinois
    assert is_valid(Meld.parse(text), BF51) is bfmania
    assert is_valid(Meld.parse(text), get_ruleset("bfmania-30")) is bfmania
    assert is_valid(Meld.parse(text), CAFE) is cafe


def test_presets_cafe_reasons():
    """docs/rules.md presets cafe-rummy: ">= 2 and naturals >= jokers", each with its reason."""
    assert problems("7H * *", CAFE) == ["meld 7H * * needs at least 2 real cards"]
    assert problems("7H 8H * * *", CAFE) == [
        "meld 7H 8H * * * has more jokers (3) than natural cards (2)"
    ]
