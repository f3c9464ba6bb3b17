"""Melds' kinds and layout: the kind inferred from the cards, marked in a meld's text only when
needed, parse errors; and ``arrange``, laying a multiset out as a meld (cards and jokers placed,
None when impossible, the kind asked for preferred; every run in range valid and standing where
it sits)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.meld_rules import CAFE, CHINOIS, KUB

from rami.cards import JOKER, Card, Suit, parse_cards
from rami.errors import NotationError
from rami.melds import Meld, MeldKind, arrange, infer_kind, is_valid, meld_problems, stands_for


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
