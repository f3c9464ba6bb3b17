"""French cards (docs/notation.md, "French"): R D V for roi, dame, valet; P C K T (or the symbols)
for pique, cœur, carreau, trèfle, so ``7C`` is a seven of hearts there.

Known answers, the mix-ups refused with the likely cause, and round trips (hypothesis) of cards
and positions.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.french import _ENGLISH_CARD

from rami import parse_position
from rami.cards import ALL_CARDS, JOKER, Card, parse_cards
from rami.errors import NotationError
from rami.lang import ENGLISH, FRENCH, Language, language
from rami.melds import Meld, MeldKind
from rami.notation import parse_position_any, position_to_json
from rami.position import Position
from rami.rules import PRESETS, get_ruleset


@pytest.mark.parametrize(
    ("french", "english"),
    [
        ("7C", "7H"),
        ("10T", "TC"),
        ("RK", "KD"),
        ("VP", "JS"),
        ("DC", "QH"),
        ("AT", "AC"),
        ("D♦", "QD"),
        ("R♠", "KS"),
        ("10♥", "TH"),
        ("rk", "KD"),
        ("vp", "JS"),
        ("*", "*"),
        ("🃏", "*"),
        ("2K", "2D"),
        ("9P", "9S"),
    ],
)
def test_french_cards_read_as_a_french_player_means_them(french: str, english: str) -> None:
    assert Card.parse(french, FRENCH) == Card.parse(english)


@pytest.mark.parametrize(
    ("card", "symbols", "letters"),
    [
        ("KH", "R♥", "RC"),
        ("TD", "10♦", "10K"),
        ("JC", "V♣", "VT"),
        ("QS", "D♠", "DP"),
        ("AS", "A♠", "AP"),
        ("*", "*", "*"),
    ],
)
def test_french_cards_are_written_with_french_ranks(card: str, symbols: str, letters: str) -> None:
    assert Card.parse(card).text(FRENCH) == symbols
    assert Card.parse(card).text(FRENCH, suit_letters=True) == letters
    assert Card.parse(card).text(ENGLISH) == card


def test_a_french_position_reads_and_writes_in_french() -> None:
    text = "7C 8C 9C | DP DK DT / 10C VP AK * / rami-chinois opened discard=AK"
    position = parse_position(text, FRENCH)
    assert str(position) == "7H 8H 9H | QS QD QC / JS TH AD * / rami-chinois opened discard=AD"
    assert position.text(FRENCH) == (
        "7♥ 8♥ 9♥ | D♠ D♦ D♣ / V♠ 10♥ A♦ * / rami-chinois opened discard=A♦"
    )
    assert Meld.parse("set: RC * *", FRENCH) == Meld.parse("set: KH * *")
    assert parse_cards("7C8C9C", FRENCH) == parse_cards("7H 8H 9H")


def test_a_json_position_reads_its_cards_in_the_language() -> None:
    text = '{"table": [["RC", "RP", "RT"]], "hand": ["10K"], "opened": true}'
    position = parse_position_any(text, FRENCH)
    assert str(position) == "KH KS KC / TD / rami-chinois opened"
    assert position_to_json(position)["hand"] == ["TD"]  # the contract's codes


def test_the_language_is_named_en_or_fr() -> None:
    assert language("FR") is FRENCH and language(None) is ENGLISH and language("en") is ENGLISH
    with pytest.raises(NotationError, match="unknown language 'de'"):
        language("de")


# --- Mix-ups: refused, naming the likely cause -----------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "card", "reads_as"),
    [
        (
            ENGLISH,
            "7C 8C 9C / RK",
            "RK",
            "French notation (R♦, KD in English): set the language to fr (--lang fr",
        ),
        (ENGLISH, "- / 7C VP", "VP", "French notation (V♠, JS in English)"),
        (ENGLISH, "- / 10T", "10T", "French notation (10♣, TC in English)"),
        (ENGLISH, "DP DK DT / 2H", "DP", "French notation (D♠, QS in English)"),
        (
            FRENCH,
            "- / 7H 8H 9H",
            "7H",
            "English notation (7H, 7♥ in French): set the language to en (--lang en",
        ),
        (FRENCH, "7C 8C 9C / KD", "KD", "English notation (KD, R♦ in French)"),
        (FRENCH, "QS QD QC / 2C", "QS", "English notation (QS, D♠ in French)"),
        (FRENCH, "- / TH", "TH", "English notation (TH, 10♥ in French)"),
    ],
)
def test_a_position_in_the_other_notation_is_refused_naming_it(
    lang: Language, text: str, card: str, reads_as: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_position(text, lang)
    assert f"unknown card {card!r}" in str(caught.value)
    assert reads_as in str(caught.value)


def test_a_card_of_neither_notation_names_no_mix_up() -> None:
    for lang in (ENGLISH, FRENCH):
        with pytest.raises(NotationError) as caught:
            parse_position("- / 7X", lang)
        assert "unknown card '7X'" in str(caught.value)
        assert "reads as" not in str(caught.value)


def test_cards_that_read_in_both_notations_follow_the_language() -> None:
    """7C, AC and 10C are cards in both: clubs in English, hearts in French. Nothing is
    guessed: the language says which."""
    assert parse_cards("7C AC 10C") == parse_cards("7C AC TC")
    assert parse_cards("7C AC 10C", FRENCH) == parse_cards("7H AH TH")


# --- Round trips -----------------------------------------------------------------------------


@given(st.sampled_from((*ALL_CARDS, JOKER)), st.booleans(), st.booleans())
def test_every_card_round_trips_in_french(card: Card, letters: bool, lower: bool) -> None:
    text = card.text(FRENCH, suit_letters=letters)
    assert Card.parse(text.lower() if lower else text, FRENCH) == card
    assert not _ENGLISH_CARD.search(card.text(FRENCH)) or card.suit is None


@st.composite
def positions(draw: st.DrawFn) -> Position:
    cards = st.sampled_from((*ALL_CARDS, JOKER))
    melds = draw(
        st.lists(
            st.tuples(st.lists(cards, min_size=1, max_size=6), st.sampled_from(MeldKind)),
            max_size=5,
        )
    )
    table = tuple(Meld(tuple(meld), kind) for meld, kind in melds)
    hand = tuple(sorted(draw(st.lists(cards, max_size=12))))
    rules = get_ruleset(draw(st.sampled_from(sorted(PRESETS))))
    taken = draw(st.none() | st.sampled_from(ALL_CARDS)) if rules.discard else None
    return Position(table, hand, draw(st.booleans()), rules, taken)


@settings(max_examples=300, deadline=None)
@given(positions(), st.booleans())
def test_every_position_round_trips_in_french(position: Position, letters: bool) -> None:
    text = position.text(FRENCH)
    assert parse_position(text, FRENCH) == position
    if letters:  # the same position written with suit letters instead of symbols
        written = re.sub(
            r"(10|[A2-9VDR])([♠♥♦♣])", lambda m: m.group(1) + "PCKT"["♠♥♦♣".index(m.group(2))], text
        )
        assert parse_position(written, FRENCH) == position
    assert parse_position(str(position)) == position
