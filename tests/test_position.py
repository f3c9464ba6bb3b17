"""Positions: what input can occur (docs/rules.md common "two copies", "the preset's jokers";
presets
rows "hand penalty" and "not opened at round end"; decision 8 taken discard)."""

from __future__ import annotations

import pytest

from rami.cards import JOKER, Card, parse_cards
from rami.errors import InvalidPositionError, RamiError
from rami.melds import Meld
from rami.position import Position, count_problems, hand_penalty, position_problems
from rami.rules import DEFAULT_RULES, get_ruleset


def checked(text: str) -> Position:
    return Position.parse(text).checked()


def test_defaults_rami_chinois_not_opened_empty():
    """Notation defaults: rules rami-chinois, opened false."""
    position = Position()
    assert position.rules is DEFAULT_RULES and DEFAULT_RULES.name == "rami-chinois"
    assert position.opened is False
    assert position.table == () and position.hand == () and position.taken_discard is None
    assert position.checked() is position


def test_hand_is_kept_in_canonical_order():
    """docs/rules.md common: identical copies interchangeable; a hand is a multiset in canonical
    order."""
    position = Position(hand=parse_cards("* KC AS 7H"))
    assert [str(card) for card in position.hand] == ["AS", "7H", "KC", "*"]
    assert position == Position(hand=parse_cards("7H AS * KC"))


def test_table_size_counts_every_card_jokers_included():
    """The cards-moved level is out of the table's cards: copies and jokers each count once."""
    position = Position(
        table=(Meld.parse("7H 7S 7D"), Meld.parse("5H 6H 7H *")), hand=parse_cards("2C")
    )
    assert position.table_size == 7
    assert Position().table_size == 0


def test_common_two_copies_of_every_card_are_fine():
    """docs/rules.md common: every card exists in exactly two identical copies."""
    assert checked("7H 8H 9H / 7H / rami-chinois").problems() == []
    assert checked("7H 8H 9H | 7H 7S 7D / - ").problems() == []


@pytest.mark.parametrize(
    "text",
    [
        "- / 7H 7H 7H",
        "7H 8H 9H / 7H 7H",
        "7H 8H 9H | 7H 7S 7D | 5H 6H 7H / -",
    ],
)
def test_common_three_copies_of_a_card_is_invalid(text):
    """docs/rules.md common: a position holding more copies of a card than two decks is invalid."""
    with pytest.raises(InvalidPositionError) as error:
        checked(text)
    assert error.value.problems == ["3 copies of 7H: two decks hold only 2"]
    assert "7H" in str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- / * * * * * / rami-chinois", "5 jokers: rami-chinois is played with 4"),
        (
            "7H * 9H / * / rami-chinois[jokers=0]",
            "2 jokers: rami-chinois[jokers=0] is played with 0",
        ),
        ("- / * / rami-chinois[jokers=0]", "1 joker: rami-chinois[jokers=0] is played with 0"),
        ("- / * * * / rummikub", "3 jokers: rummikub is played with 2"),
        ("- / * * * * * * * / cafe-rummy", "7 jokers: cafe-rummy is played with 6"),
        ("- / * * * * * / rami-51", "5 jokers: rami-51 is played with 4"),
    ],
)
def test_presets_more_jokers_than_the_deck_is_invalid(text, message):
    """docs/rules.md common + presets row "jokers in deck": more jokers than the preset's deck is
    invalid input (5 in rami-chinois, 1 in rami-chinois[jokers=0], ...)."""
    with pytest.raises(InvalidPositionError) as error:
        checked(text)
    assert error.value.problems == [message]


def test_presets_jokers_up_to_the_deck_are_fine():
    """docs/rules.md presets row "jokers in deck": up to 4 / 6 / 2 jokers are valid."""
    assert checked("- / * * * * / rami-chinois").problems() == []
    assert checked("- / * * * * * * / cafe-rummy").problems() == []
    assert checked("- / * * / rummikub").problems() == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("KH AH 2H / -", "meld 1: K-A-2 wraps around"),
        ("7H 8H 9H | 9S 9S 9H / -", "meld 2: two 9S in one set"),
        ("* * * / -", "meld 1: meld * * * needs at least 1 real card"),
        ("7H 8H / -", "meld 1: meld 7H 8H has 2 cards: a meld needs at least 3"),
        ("7H * * / - / bfmania-51", "meld 1: meld 7H * * needs at least 2 real cards"),
        (
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH / -",
            "meld 1: run AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH has 14 cards: a run has at "
            "most 13",
        ),
    ],
)
def test_invalid_table_meld_is_reported_with_its_number(text, message):
    """Rejection: an illegal meld on the table makes the position invalid, naming the meld."""
    with pytest.raises(InvalidPositionError) as error:
        checked(text)
    assert error.value.problems == [message]
    assert isinstance(error.value, RamiError) and isinstance(error.value, ValueError)


def test_every_problem_is_listed():
    """docs/rules.md common: every reason a position is invalid is listed (melds, copies,
    jokers)."""
    position = Position.parse("KH AH 2H | 9S 9S 9H / 7H 7H 7H * * * * *")
    assert position.problems() == [
        "meld 1: K-A-2 wraps around",
        "meld 2: two 9S in one set",
        "3 copies of 7H: two decks hold only 2",
        "5 jokers: rami-chinois is played with 4",
    ]
    with pytest.raises(InvalidPositionError, match="; "):
        position.checked()


def test_count_problems_counts_table_and_hand_together():
    """docs/rules.md common: two copies in all, table and hand together."""
    cards = [*Meld.parse("7H 8H 9H").cards, *parse_cards("7H 7H")]
    assert count_problems(cards, DEFAULT_RULES) == ["3 copies of 7H: two decks hold only 2"]


def test_decision_8_taken_discard_must_be_in_the_hand_of_a_discarding_preset():
    """docs/rules.md decision 8: a position may name the card just taken from the discard pile."""
    fine = Position.parse("- / 7H 8S / rami-51 discard=8S")
    assert fine.taken_discard == Card.parse("8S") and fine.problems() == []
    assert Position.parse("- / 7H / rami-51 discard=8S").problems() == [
        "the taken discard 8S is not in the hand"
    ]
    assert Position.parse("- / 7H / rami-chinois discard=7H").problems() == [
        "rami-chinois has no discard pile, yet a taken discard is named"
    ]
    assert position_problems((), parse_cards("7H"), get_ruleset("rummikub"), JOKER) == [
        "rummikub has no discard pile, yet a taken discard is named"
    ]


@pytest.mark.parametrize(
    ("rules", "opened", "penalty"),
    [
        ("rami-chinois", True, 11 + 10 + 7 + 50),
        ("rami-chinois", False, 11 + 10 + 7 + 50),
        ("rami-fou", True, 11 + 10 + 7 + 20),
        ("rami-fou", False, 100),
        ("rami-51", True, 11 + 10 + 7 + 20),
        ("rami-51", False, 100),
        ("bfmania-51", False, 11 + 10 + 7 + 20),
        ("bfmania-30", False, 11 + 10 + 7 + 20),
        ("cafe-rummy", True, 11 + 10 + 7 + 25),
        ("cafe-rummy", False, 11 + 10 + 7 + 25),
        ("rummikub", False, 1 + 13 + 7 + 30),
    ],
)
def test_presets_hand_penalty_and_flat_100_for_unopened(rules, opened, penalty):
    """docs/rules.md presets: hand penalty per preset (joker 50 / 20 / 20 / 20 / 25, rummikub face
    and 30); not opened: flat 100 in rami-fou and rami-51, the hand counts elsewhere."""
    assert hand_penalty(parse_cards("AS KH 7D *"), get_ruleset(rules), opened) == penalty


def test_flat_100_applies_even_to_an_empty_or_light_hand():
    """docs/rules.md presets rami-fou / rami-51: "flat 100" replaces the count of the hand."""
    assert hand_penalty((), get_ruleset("rami-fou"), opened=False) == 100
    assert hand_penalty(parse_cards("2S"), get_ruleset("rami-51"), opened=False) == 100
    assert hand_penalty((), get_ruleset("rami-chinois"), opened=False) == 0


def test_repr_is_a_valid_constructor():
    """Notation: repr is a valid constructor (eval(repr(x)) == x)."""
    position = Position.parse("7H 8H 9H | set: QS * * / AD * / rami-fou opened discard=AD")
    assert eval(repr(position), {"Position": Position}) == position
