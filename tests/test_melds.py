"""Melds: runs and sets under every preset (docs/rules.md common rules, presets row "real cards per
meld", decisions 2 and 3), with the exact reason a meld is illegal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rami.cards import JOKER, Card, Suit, parse_cards
from rami.errors import NotationError
from rami.melds import (
    Meld,
    MeldKind,
    arrange,
    holds_pure_run,
    infer_kind,
    is_pure_run,
    is_valid,
    meld_problems,
    opening_points,
    reaches_opening,
    run_start,
    stands_for,
)
from rami.rules import PRESETS, get_ruleset

CHINOIS = get_ruleset("rami-chinois")
R51 = get_ruleset("rami-51")
CAFE = get_ruleset("cafe-rummy")
BF51 = get_ruleset("bfmania-51")
KUB = get_ruleset("rummikub")


def problems(text: str, rules=CHINOIS) -> list[str]:
    return meld_problems(Meld.parse(text), rules)


# --- Runs -------------------------------------------------------------------------------------


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


# --- Kind inference and notation of melds ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("7H 8H 9H", MeldKind.RUN),
        ("QS QD QC", MeldKind.SET),
        ("QS * QC", MeldKind.SET),
        ("7H * *", MeldKind.RUN),
        ("* AH *", MeldKind.SET),  # no run can hold it (K-A-2), so it is a set of aces
        ("* * *", MeldKind.RUN),
        ("set: 7H * *", MeldKind.SET),
        ("run: 7H 8H 9H", MeldKind.RUN),
    ],
)
def test_meld_kind_inference(text, kind):
    """Notation: a meld's kind is inferred; only one real card with jokers needs "set:"."""
    assert Meld.parse(text).kind is kind


def test_meld_text_marks_the_kind_only_when_needed():
    """Notation: "set:" / "run:" is written only when the cards do not tell the kind."""
    assert str(Meld.parse("7H 8H 9H")) == "7H 8H 9H"
    assert str(Meld.parse("Set: 7H * *")) == "set: 7H * *"
    assert str(Meld.parse("run: 7H * *")) == "7H * *"
    assert str(Meld.of(parse_cards("7H 7S *"), "run")) == "run: 7H 7S *"
    assert infer_kind(parse_cards("7H 7S *")) is MeldKind.SET


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "empty meld"), ("pair: 7H 7S", "unknown meld kind 'pair'"), ("7H ZZ 9H", "'ZZ'")],
)
def test_meld_parse_rejections(text, message):
    """Rejection: a bad meld raises NotationError naming the part at fault."""
    with pytest.raises(NotationError, match=message):
        Meld.parse(text)


# --- Decisions 2 and 3 ------------------------------------------------------------------------


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


# --- arrange: laying a multiset out as a meld ---------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "rules", "expected"),
    [
        ("9H 7H 8H", CHINOIS, "7H 8H 9H"),
        ("AH KH QH", CHINOIS, "QH KH AH"),
        ("3H AH 2H", CHINOIS, "AH 2H 3H"),
        ("7H 9H *", CHINOIS, "7H * 9H"),
        ("7H 8H *", CHINOIS, "7H 8H *"),
        ("KH QH *", CHINOIS, "QH KH *"),
        ("KH QH *", KUB, "* QH KH"),
        ("QC QS QD", CHINOIS, "QS QD QC"),
        ("7H * *", CHINOIS, "7H * *"),
    ],
)
def test_arrange_places_cards_and_jokers(cards, rules, expected):
    """docs/rules.md common: a joker is written where it stands; arrange lays cards out as a
    legal meld."""
    meld = arrange(parse_cards(cards), rules)
    assert meld is not None and str(meld).removeprefix("set: ") == expected
    assert is_valid(meld, rules)


@pytest.mark.parametrize(
    ("cards", "rules"),
    [
        ("KH AH 2H", CHINOIS),
        ("7H 8S 9H", CHINOIS),
        ("7H * *", CAFE),
        ("* * *", CHINOIS),
        ("7H 7H 7S", CHINOIS),
        ("QH KH AH", KUB),
    ],
)
def test_arrange_returns_none_when_impossible(cards, rules):
    """docs/rules.md common (no wrap, one suit, distinct suits), presets (real cards), rummikub (no
    ace-
    high)."""
    assert arrange(parse_cards(cards), rules) is None


def test_arrange_prefers_the_requested_kind():
    """docs/rules.md common: one real card and jokers may form a run or a set."""
    meld = arrange(parse_cards("7H * *"), CHINOIS, prefer=MeldKind.SET)
    assert meld is not None and meld.kind is MeldKind.SET


@st.composite
def valid_runs(draw):
    rules = draw(st.sampled_from([CHINOIS, KUB]))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, rules.top_rank - length + 1))
    suit = draw(st.sampled_from(list(Suit)))
    cards = [Card.of((rank - 1) % 13 + 1, suit) for rank in range(start, start + length)]
    for index in draw(st.sets(st.integers(0, length - 1), max_size=min(4, length - 1))):
        cards[index] = JOKER
    return rules, Meld(tuple(cards), MeldKind.RUN), start


@given(valid_runs())
def test_property_every_run_in_range_is_valid_and_stands_where_it_sits(case):
    """docs/rules.md common: any 3..13 consecutive cards of a suit within A..K (or 2..A) is a run,
    jokers standing for the cards they replace."""
    rules, meld, start = case
    assert meld_problems(meld, rules) == []
    ranks = stands_for(meld, rules)
    if any(not card.is_joker for card in meld.cards):
        assert ranks == tuple(range(start, start + len(meld)))
    rebuilt = arrange(meld.cards, rules)
    assert rebuilt is not None and is_valid(rebuilt, rules)
    assert sorted(rebuilt.cards) == sorted(meld.cards)
