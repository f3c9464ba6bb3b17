"""Cards: parsing, canonical text, ordering (docs/rules.md "Common to every preset", notation)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rami.cards import (
    ALL_CARDS,
    JOKER,
    Card,
    Suit,
    card_counts,
    format_cards,
    parse_cards,
    sort_cards,
    split_cards,
)
from rami.errors import NotationError

cards = st.sampled_from((*ALL_CARDS, JOKER))


def test_common_deck_has_52_card_types_of_13_ranks_and_4_suits():
    """docs/rules.md common: cards, ranks A 2..10 J Q K, suits spades hearts diamonds clubs."""
    assert len(ALL_CARDS) == 52
    assert {card.rank for card in ALL_CARDS} == set(range(1, 14))
    assert {card.suit for card in ALL_CARDS} == set(Suit)
    assert JOKER not in ALL_CARDS
    assert JOKER.is_joker and JOKER.rank == 0 and JOKER.suit is None


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", 1, Suit.SPADES),
        ("7H", 7, Suit.HEARTS),
        ("TD", 10, Suit.DIAMONDS),
        ("10D", 10, Suit.DIAMONDS),
        ("JC", 11, Suit.CLUBS),
        ("QH", 12, Suit.HEARTS),
        ("KS", 13, Suit.SPADES),
        ("q♠", 12, Suit.SPADES),
        ("10♥", 10, Suit.HEARTS),
        ("2♦", 2, Suit.DIAMONDS),
        ("a♣", 1, Suit.CLUBS),
        ("9♡", 9, Suit.HEARTS),
        ("th", 10, Suit.HEARTS),
        (" 7h ", 7, Suit.HEARTS),
    ],
)
def test_notation_parse_card_forms(text, rank, suit):
    """Notation: 10H / TH, suit symbols, lowercase all name the same card."""
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card == Card.of(rank, suit)


def test_notation_joker_forms():
    """Notation: a joker is written *; the pretty joker 🃏 reads back too."""
    assert Card.parse("*") == JOKER
    assert Card.parse("🃏") == JOKER
    assert str(JOKER) == "*"


@pytest.mark.parametrize("text", ["ZZ", "1H", "11H", "0H", "10", "H7", "7X", "", "**", "7HH", "KK"])
def test_notation_unknown_card_is_rejected_naming_it(text):
    """Rejection: an unknown card raises NotationError naming the text at fault."""
    with pytest.raises(NotationError, match="unknown card") as error:
        Card.parse(text)
    assert repr(text) in str(error.value)


def test_card_index_and_rank_out_of_range_are_rejected():
    """Rejection: cards outside the 52 types and the joker raise NotationError naming the value."""
    with pytest.raises(NotationError, match="53"):
        Card(53)
    for bad in (-1, "3", 3.0, None):
        with pytest.raises(NotationError, match=f"card index {bad!r} out of range"):
            Card(bad)
    with pytest.raises(NotationError, match="0"):
        Card.of(0, Suit.SPADES)
    with pytest.raises(NotationError, match="14"):
        Card.of(14, Suit.SPADES)


def test_canonical_text_uses_T_for_ten_and_letters_for_suits():
    """Notation: canonical text writes T for ten and S H D C; pretty form uses 10 and symbols."""
    assert str(Card.parse("10♥")) == "TH"
    assert str(Card.parse("a♠")) == "AS"
    assert Card.parse("10♥").pretty() == "10♥"
    assert Card.parse("QC").pretty() == "Q♣"


@given(cards)
def test_card_text_round_trip_and_fixed_point(card):
    """Notation round trip: canonical text parses back equal; canonical text is a fixed point."""
    text = str(card)
    assert Card.parse(text) == card
    assert str(Card.parse(text)) == text
    assert Card.parse(text.lower()) == card
    assert Card.parse(card.pretty()) == card


@given(cards)
def test_card_repr_is_a_valid_constructor(card):
    """Notation: repr is a valid constructor (eval(repr(x)) == x)."""
    assert eval(repr(card), {"Card": Card}) == card


def test_sort_order_is_suit_then_rank_jokers_last():
    """Notation: canonical hand order is suit S H D C, rank A..K, jokers last."""
    hand = parse_cards("* KC AS 2H AH TS")
    assert format_cards(sort_cards(hand)) == "AS TS AH 2H KC *"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H 8H 9H", "7H 8H 9H"),
        ("7H8H9H", "7H 8H 9H"),
        ("7h,8h, 9h", "7H 8H 9H"),
        ("9H10HJH", "9H TH JH"),
        ("7♥8♥*", "7H 8H *"),
        ("**AS", "* * AS"),
        ("", ""),
    ],
)
def test_notation_card_lists_compact_and_spaced(text, expected):
    """Notation: compact 7H8H9H, commas, symbols and 10 all accepted."""
    assert format_cards(parse_cards(text)) == expected


@pytest.mark.parametrize("text", ["7H8H9", "7H 1H", "7H ZZ", "7H11H"])
def test_notation_card_list_rejects_unknown_token(text):
    """Rejection: an unknown card inside a card list raises NotationError naming it."""
    with pytest.raises(NotationError, match="unknown card"):
        split_cards(text)


def test_identical_copies_are_equal_values():
    """docs/rules.md common: identical copies are interchangeable (one value, counted twice)."""
    first, second = parse_cards("7H 7H")
    assert first == second and hash(first) == hash(second)
    assert card_counts(parse_cards("7H 7h 7♥ *"))[Card.parse("7H")] == 3


def test_one_card_value_per_type_whatever_builds_it():
    """Cards are small ints, one instance per type: built from an int, a numpy integer, a card
    or parsed, the same object, with the index, rank and suit the notation gives."""
    seven = Card.parse("7H")
    assert Card(seven.index) is seven and Card(seven) is seven
    assert Card(np.int64(seven.index)) is seven
    assert pickle.loads(pickle.dumps(seven)) is seven
    assert (seven.index, seven.rank, seven.suit, seven.is_joker) == (19, 7, Suit.HEARTS, False)
    assert type(seven.index) is int
    assert (JOKER.index, JOKER.rank, JOKER.suit, JOKER.is_joker) == (52, 0, None, True)


@given(cards)
def test_card_formats_as_its_text(card):
    """f-strings and format specs give the card's text, never its number."""
    assert f"{card}" == str(card)
    assert f"{card:>4}" == str(card).rjust(4)
